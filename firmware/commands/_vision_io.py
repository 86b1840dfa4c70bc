"""Shared inputs of the vision commands: an image file, corners, a calibration.

Each helper raises :class:`BadInput` with a message naming the input and what
was expected; the commands print it and exit 2. numpy and OpenCV are
imported inside the helpers, so importing this module stays cheap.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from engine.errors import NardrefError

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from vision.calibration import Calibration


class BadInput(NardrefError, ValueError):
    """An input file or option the command cannot use (exit code 2)."""


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """``--corners`` and ``--calibration`` (one or the other)."""
    parser.add_argument(
        "--corners",
        metavar='"x,y x,y x,y x,y"',
        help="the playing area's corners in image pixels, TL TR BR BL (TL->TR runs along a row of twelve points); "
        "a few pixels off is fine: the photo is also read from them snapped to the board's edges",
    )
    parser.add_argument("--calibration", metavar="FILE", help="a calibration written by 'nardref calibrate'")


def read_image(path: str, *, what: str = "image") -> npt.NDArray[np.uint8]:
    """A colour image (h, w, 3) BGR uint8 from ``path``, turned upright as
    its EXIF orientation says (a phone photo, as a viewer shows it and its
    corners are clicked there). A missing file or a folder is named as
    such before OpenCV is asked (which would print its own warning)."""
    from pathlib import Path

    import cv2
    import numpy as np

    if not Path(path).is_file():
        problem = "it is a folder" if Path(path).is_dir() else "no such file"
        raise BadInput(f"{what} {path!r}: {problem} (expected a PNG or JPEG file)")
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        raise BadInput(f"{what} {path!r}: cannot read it as an image (expected a PNG or JPEG file)")
    return np.asarray(image, np.uint8)


def read_corners(text: str, *, what: str = "--corners") -> npt.NDArray[np.float32]:
    from vision.errors import GeometryError
    from vision.geometry import parse_corners

    try:
        return parse_corners(text)
    except GeometryError as exc:
        raise BadInput(f"{what}: {exc}") from None


def read_calibration(path: str) -> Calibration:
    from vision.calibration import Calibration
    from vision.errors import CalibrationError

    try:
        return Calibration.load(path)
    except CalibrationError as exc:
        raise BadInput(f"--calibration: {exc}") from None


def board_from(args: argparse.Namespace) -> tuple[Calibration | None, npt.NDArray[np.float32] | None]:
    """The calibration or the corners the arguments give (exactly one)."""
    corners_text = getattr(args, "corners", None)
    calibration_path = getattr(args, "calibration", None)
    if corners_text and calibration_path:
        raise BadInput("give --corners or --calibration, not both")
    if not corners_text and not calibration_path:
        raise BadInput('give --corners "x,y x,y x,y x,y" (TL TR BR BL) or --calibration FILE')
    if calibration_path:
        return read_calibration(str(calibration_path)), None
    return None, read_corners(str(corners_text))


def refusal_json(reason: str, message: str, points: Any = ()) -> dict[str, Any]:
    return {"refused": reason, "message": message, "points": list(points)}
