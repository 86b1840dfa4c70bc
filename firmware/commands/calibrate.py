"""``nardref calibrate IMAGE --out board.json``: learn a board from a photo of
the starting position.

Finds the playing area (the four ArUco markers of ``nardref markers``, or
``--corners`` given by hand, or as a best effort the board's own outline),
the bar, the checkers' size and the colours of checkers and points, checks
that the board is set up as the starting position (B4) and writes the
calibration every later reading uses. Take the photo with the board clear:
no dice, cube or hands on it.

``--empty`` adds a photo of the same board from the same camera with no
checker on it, taken just before the checkers are set up: the points the
starting position covers are then seen empty instead of guessed from other
points. It is optional but worth the extra photo: at the corners the frame's
shadow falls on the points, and without it a short line there may be misread
or the frame refused.

``--tray`` gives the bear-off tray's four corners, the first two along one end
of it and the last two along the other: each side bears off in a row from its
own end, and the referee then counts the checkers borne off (a move that only
bears off from a tall pile shows there alone). The tray must be empty in the
photo, as it is at the start.

Exit 0 written, 1 the board is not set up as the starting position, or the
empty board is not empty (the points are named), 3 the board could not be
found or seen, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from firmware.commands._vision_io import BadInput, read_corners, read_image

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from vision.calibration import Calibration


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "calibrate",
        help="learn a board (corners, bar, colours) from a photo of the starting position",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("image", help="photo of the board set up in the starting position")
    parser.add_argument(
        "--empty", metavar="IMAGE", help="photo of the same board with no checker on it, same camera (recommended)"
    )
    parser.add_argument(
        "--corners",
        metavar='"x,y x,y x,y x,y"',
        help="the playing area's corners TL TR BR BL in pixels (default: find the ArUco markers)",
    )
    parser.add_argument(
        "--tray",
        metavar='"x,y x,y x,y x,y"',
        help="the bear-off tray's corners in pixels: two along one end, then two along the other (optional)",
    )
    parser.add_argument("-o", "--out", required=True, help="calibration file to write (JSON)")
    parser.add_argument("--lens", metavar="FILE", help="lens calibration JSON: camera_matrix (3x3) and dist_coeffs")
    parser.add_argument(
        "--light-home",
        choices=("bottom-right", "bottom-left"),
        default="bottom-right",
        help="where light's home board lies, used only when both checker colours are about equally bright",
    )
    parser.add_argument("--json", action="store_true", help="print a JSON summary")
    parser.set_defaults(handler=run)


def _lens(path: str) -> object:
    from vision.geometry import Lens

    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
        matrix = tuple(tuple(float(v) for v in row) for row in data["camera_matrix"])
        coeffs = tuple(float(v) for v in data["dist_coeffs"])
    except OSError as exc:
        raise BadInput(f"--lens {path!r}: cannot read it ({exc.strerror})") from None
    except (ValueError, KeyError, TypeError) as exc:
        raise BadInput(f"--lens {path!r}: expected JSON with camera_matrix (3x3) and dist_coeffs ({exc})") from None
    if len(matrix) != 3 or any(len(row) != 3 for row in matrix) or len(coeffs) < 4:
        raise BadInput(f"--lens {path!r}: camera_matrix must be 3x3 and dist_coeffs have 4 or more numbers")
    return Lens(camera_matrix=matrix, dist_coeffs=coeffs)  # type: ignore[arg-type]


def _corners_hint(
    image: npt.NDArray[np.uint8], corners: npt.NDArray[np.float32] | None, lens: object, reason: str
) -> str:
    """Where a board set up right does not read back as the starting position
    from corners clicked by hand: they may be off by a few pixels (one board
    in four fails so, 3 px off: ``bench/vision.py --clicked 3``); the board's
    edges suggest others (:func:`vision.corners.snap_corners`)."""
    if reason != "not_start_position" or corners is None or len(corners) != 4 or lens is not None:
        return ""
    from vision.corners import snap_corners
    from vision.geometry import format_corners

    return (
        "\n  if it is, the corners may be off: they must lie on the playing area's corners within a pixel or two; "
        f'its edges suggest --corners "{format_corners(snap_corners(image, corners))}"'
    )


def run(args: argparse.Namespace) -> int:
    try:
        image = read_image(args.image)
        empty = read_image(args.empty, what="--empty") if args.empty else None
        corners = read_corners(args.corners) if args.corners else None
        tray = read_corners(args.tray, what="--tray") if args.tray else None
        if tray is not None and len(tray) != 4:
            raise BadInput(f"--tray {args.tray!r}: expected 4 pairs 'x,y', two along each end of the tray")
        lens = _lens(args.lens) if args.lens else None
    except BadInput as exc:
        print(f"nardref calibrate: {exc}", file=sys.stderr)
        return 2
    from vision.calibration import calibrate
    from vision.errors import CalibrationError, GeometryError, MarkerError

    try:
        calibration = calibrate(image, corners, lens=lens, light_home=args.light_home, empty=empty, tray=tray)  # type: ignore[arg-type]
    except MarkerError as exc:
        print(f"nardref calibrate: {args.image!r}: {exc}", file=sys.stderr)
        return 3
    except CalibrationError as exc:
        photos = f"{args.image!r} (--empty {args.empty!r})" if args.empty else repr(args.image)
        print(f"nardref calibrate: {photos}: {exc}{_corners_hint(image, corners, lens, exc.reason)}", file=sys.stderr)
        return 1 if exc.reason in ("not_start_position", "not_empty", "empty_mismatch") else 3
    except GeometryError as exc:
        print(f"nardref calibrate: {exc}", file=sys.stderr)
        return 2
    try:
        calibration.save(args.out)
    except OSError as exc:
        print(f"nardref calibrate: --out {args.out!r}: cannot write it ({exc.strerror})", file=sys.stderr)
        return 2
    g = calibration.geometry
    around = None if calibration.glare is None else _nearest_point(calibration)
    summary = {
        "out": args.out,
        "corners": [list(c) for c in g.corners],
        "bar": list(g.bar),
        "pitch_px": round(g.pitch_px, 2),
        "light_home": calibration.light_home,
        "empty_seen": calibration.empty_seen,
        "light_lab": [round(float(v), 1) for v in calibration.colours.light_lab],
        "dark_lab": [round(float(v), 1) for v in calibration.colours.dark_lab],
        "round_things": len(calibration.reference.get("round_things") or []),
        "tray": calibration.tray is not None,
        "glare": None
        if calibration.glare is None
        else {"strength": round(calibration.glare.strength, 1), "around": around},
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(f"calibrated: wrote {args.out}")
        print(
            f"  corners {' '.join(f'{x:.0f},{y:.0f}' for x, y in g.corners)}; "
            f"bar x {g.bar[0]:.0f}..{g.bar[1]:.0f} of {g.size[0]} px"
        )
        print(f"  light checkers' home board: {calibration.light_home}")
        if calibration.tray is not None:
            print("  the bear-off tray is read: each side's checkers are counted from its own end")
        if calibration.glare is not None:
            print(
                f"  a lamp's reflection lies around {around} (up to "
                f"{calibration.glare.strength:.0f} grey levels of white light): it is taken away from every frame; "
                "if the lamp or the camera moves, calibrate again"
            )
        if not calibration.empty_seen:
            print(
                "  the points under the starting position's checkers were not seen empty: their look is borrowed "
                "from other points (add --empty with a photo of the empty board to see them)"
            )
        if summary["round_things"]:
            print(
                f"  {summary['round_things']} round thing(s) bigger than a checker seen on the board, taken as part "
                "of it (a medallion, a logo); if one was a dice cup, take it away and calibrate again"
            )
    return 0


def _nearest_point(calibration: Calibration) -> str:
    """The point whose slots lie nearest the centre of the lamp's reflection."""
    import numpy as np

    from vision.geometry import slot_centres
    from vision.read import point_name

    assert calibration.glare is not None
    geometry = calibration.geometry
    centre = np.array(calibration.glare.centre) * geometry.size[0]
    distance = np.linalg.norm(slot_centres(geometry) - centre, axis=-1).min(axis=-1)
    row, col = np.unravel_index(int(np.argmin(distance)), distance.shape)
    return point_name(int(row), int(col))
