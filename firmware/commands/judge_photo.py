"""The photo side of ``nardref judge BEFORE DICE --image PHOTO``.

The engine lists the legal outcomes of BEFORE with DICE; the photo (read with
the board's calibration, or its corners) picks the one it shows. Exit 0 legal
(the play is printed), 1 illegal (the points where the photo contradicts every
legal outcome are named, with the nearest legal plays), 3 refused (the photo
cannot decide: the reason is printed), 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import NardrefError
from firmware.commands._vision_io import BadInput, board_from, read_image

SIDES = ("bottom-right", "bottom-left", "top-right", "top-left")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The photo judge's options on the ``judge`` parser."""
    group = parser.add_argument_group("judging a photo")
    group.add_argument("--image", metavar="PHOTO", help="photo of the board after the move (replaces AFTER)")
    group.add_argument(
        "--before-image",
        metavar="PHOTO",
        help="photo from before the move, same camera (with --calibration: what changed is judged, more robustly)",
    )
    group.add_argument(
        "--corners",
        metavar='"x,y x,y x,y x,y"',
        help="the playing area's corners in pixels, TL TR BR BL (without a calibration)",
    )
    group.add_argument("--calibration", metavar="FILE", help="the board's calibration ('nardref calibrate')")
    group.add_argument("--mover", choices=("light", "dark"), default="light", help="the colour on roll (default light)")
    group.add_argument(
        "--home",
        choices=SIDES,
        default="bottom-right",
        help="where the mover's home board lies in the rectified board (default bottom-right)",
    )


def run(args: argparse.Namespace) -> int:
    from firmware.commands._engine_io import read_dice, read_position, rules_from

    try:
        if not args.before or not args.dice:
            raise BadInput("give BEFORE (Position ID or XGID) and DICE (e.g. 31) with --image")
        if getattr(args, "after", None):
            raise BadInput("give AFTER or --image, not both")
        rules = rules_from(args)
        before = read_position(args.before, rules, what="BEFORE")
        dice = read_dice(args.dice)
        calibration, corners = board_from(args)
        image = read_image(args.image, what="--image")
        before_image = (
            read_image(args.before_image, what="--before-image") if getattr(args, "before_image", None) else None
        )
    except (BadInput, NardrefError) as exc:
        print(f"nardref judge: {exc}", file=sys.stderr)
        return 2
    if before_image is not None and calibration is None:
        print(
            "nardref judge: --before-image is used with --calibration only: the photo is judged alone", file=sys.stderr
        )
    from vision.errors import VisionError
    from vision.judge import judge_photo

    try:
        verdict = judge_photo(
            before,
            dice,
            image,
            calibration=calibration,
            corners=corners,
            mover=args.mover,
            home=args.home,
            before_image=before_image,
            rules=rules,
        )
    except VisionError as exc:
        print(f"nardref judge: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "json", False):
        print(json.dumps(verdict.to_json()))
    elif verdict.verdict == "legal":
        assert verdict.play is not None
        print(f"legal: {verdict.play.play}")
    elif verdict.verdict == "illegal":
        print("illegal: the photo fits no legal play with these dice")
        for c in verdict.contradictions:
            print(f"  {c}")
        if verdict.nearest:
            print("  nearest legal plays: " + ", ".join(str(lp.play) for lp in verdict.nearest))
    else:
        assert verdict.refusal is not None
        print(f"refused ({verdict.refusal.reason}): {verdict.refusal.message}")
    return {"legal": 0, "illegal": 1, "refused": 3}[verdict.verdict]
