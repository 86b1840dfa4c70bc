"""``nardref detect IMAGE``: read a board from a photo.

Prints what stands on each point: ``top`` runs along the TL->TR edge of the
playing area and ``bottom`` along BL->BR, each left to right in the rectified
board, +n for n light checkers and -n for n dark; the bar; the points not
read surely; and, where the calibration includes the bear-off tray
(``calibrate --tray``), the checkers borne off. With ``--calibration`` the
board's learned colours are used (best); with ``--corners`` alone (a photo
of a board never calibrated) the checker size and every colour are learned
from the photo itself, from how a board is built: its points alternate in
two colours, checkers stand in lines from the edge. That reads less surely
than a calibration; the points it is not sure of are named, and a photo
whose reading cannot be a game's (more checkers of a colour than a side
has) is refused. A side seen with a few more checkers than it has (B4),
or, with a calibration, a few fewer where it cannot have borne any off
(E1, or the tray counts them), is counted as it must stand: a point not
read surely takes the difference (most often a pile, whose checkers hide
each other) and stays among those named.

Exit 0 read, 3 refused (a hand over the board, too dark, ...: the reason is
printed), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from firmware.commands._vision_io import BadInput, add_board_arguments, board_from, read_image


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "detect",
        help="read the checkers on a board from a photo",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("image", help="photo of the board (PNG or JPEG)")
    add_board_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def _text(result: dict[str, Any]) -> str:
    lines = [
        "top    " + " ".join(f"{v:+3d}" if v else "  ." for v in result["top"]),
        "bottom " + " ".join(f"{v:+3d}" if v else "  ." for v in result["bottom"]),
        f"bar    light {result['bar']['light']}, dark {result['bar']['dark']}",
    ]
    if "off" in result:
        off = result["off"]
        lines.append(
            f"off    light {off['light']}{'' if off['light_sure'] else ' (not sure)'}, "
            f"dark {off['dark']}{'' if off['dark_sure'] else ' (not sure)'}"
        )
    if result["uncertain"]:
        lines.append("not sure: " + ", ".join(result["uncertain"]))
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        calibration, corners = board_from(args)
        image = read_image(args.image)
    except BadInput as exc:
        print(f"nardref detect: {exc}", file=sys.stderr)
        return 2
    from vision.errors import VisionError
    from vision.read import geometry_from_corners, read_board
    from vision.uncalibrated import read_with_corners

    try:
        if calibration is not None:
            reading = read_board(image, calibration)
        else:
            assert corners is not None
            reading = read_with_corners(image, geometry_from_corners(image, corners))
    except VisionError as exc:
        print(f"nardref detect: {args.image!r}: {exc}", file=sys.stderr)
        return 2
    result = reading.to_json()
    if args.json:
        print(json.dumps(result))
    elif reading.refusal is not None:
        print(f"refused ({reading.refusal.reason}): {reading.refusal.message}")
    else:
        print(_text(result))
    return 3 if reading.refusal is not None else 0
