"""``nardref render POSITION -o out.png``: a synthetic photo of a board.

POSITION is a Position ID or an XGID (the player on roll is the mover). The
image is written to OUT and the playing area's corners printed as
"x,y x,y x,y x,y" (TL, TR, BR, BL), ready for
``nardref detect OUT --corners "..."``; with ``--json`` one object with the
corners, the layout (ground truth), whether a hand covers the board and the
bear-off tray's corners (for ``nardref calibrate --tray``; null without a tray).
Exit 0 written, 2 bad input.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import NardrefError
from firmware.commands._engine_io import read_position

OCCLUSIONS = ("none", "hand", "arm", "cup")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "render",
        help="draw a synthetic camera photo of a position (for tests and the demo)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("position", help="Position ID or XGID; the player on roll is the mover")
    parser.add_argument("-o", "--out", required=True, help="image file to write (.png, .jpg)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0): one seed, one image")
    parser.add_argument("--style", default="wood", help="board style name, or 'random' (default wood)")
    parser.add_argument("--size", default="1280x720", help="image size WxH (default 1280x720)")
    parser.add_argument("--mover", choices=("light", "dark"), default="light", help="colour of the player on roll")
    parser.add_argument(
        "--home",
        choices=("bottom-right", "bottom-left"),
        default="bottom-right",
        help="where the mover's home board lies (B3)",
    )
    parser.add_argument(
        "--occlusion", choices=OCCLUSIONS, default="none", help="a hand, arm or dice cup over the board"
    )
    parser.add_argument(
        "--gaps",
        type=float,
        default=0.0,
        metavar="R",
        help="leave the checkers of each line apart, each by about R checker radii more (0..1; default 0, touching)",
    )
    parser.add_argument("--dice", help="dice lying on the board, e.g. 31")
    parser.add_argument(
        "--cube", type=int, help="the doubling cube on the board, showing this value (1 = centred, shows 64)"
    )
    parser.add_argument(
        "--plain", action="store_true", help="camera straight above, even light, no lens or sensor effects"
    )
    parser.add_argument(
        "--json", action="store_true", help="print corners, layout, occlusion and the tray's corners as one JSON object"
    )
    parser.add_argument(
        "--variant", default="standard", metavar="NAME", help="standard (default), nackgammon, hypergammon, long-nardy"
    )
    parser.set_defaults(handler=run)


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise NardrefError(f"size {text!r}: expected WxH, e.g. 1280x720") from None
    if not (16 <= w <= 8192 and 16 <= h <= 8192):
        raise NardrefError(f"size {text!r}: width and height must be 16..8192 pixels")
    return w, h


def run(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np

    from engine.dice import Dice
    from engine.rules import find_variant
    from vision.layout import layout_from_position
    from vision.render import CameraPose, Effects, Lighting, find_style, render

    try:
        rules = find_variant(args.variant)
        position = read_position(args.position, rules)
        size = _size(args.size)
        style = args.style if args.style == "random" else find_style(args.style)
        dice = None
        if args.dice is not None:
            roll = Dice.parse(args.dice)
            dice = (roll.first, roll.second)
        if not 0 <= args.gaps <= 1:
            raise NardrefError(f"gaps {args.gaps!r}: expected 0..1 checker radii")
        if args.cube is not None and args.cube not in (1, 2, 4, 8, 16, 32, 64):
            raise NardrefError(f"cube {args.cube!r}: expected 1, 2, 4, 8, 16, 32 or 64 (C3)")
        layout = layout_from_position(position, mover=args.mover, home=args.home, rules=rules)
    except NardrefError as exc:
        print(f"nardref render: {exc}", file=sys.stderr)
        return 2
    plain = (
        {"camera": CameraPose.overhead(), "lighting": Lighting.even(), "effects": Effects.none()} if args.plain else {}
    )
    shot = render(
        layout,
        rng=np.random.default_rng(args.seed),
        style=style,
        size=size,
        occlusion=args.occlusion,
        dice=dice,
        cube=args.cube,
        gaps=args.gaps,
        **plain,  # type: ignore[arg-type]
    )
    try:
        written = cv2.imwrite(args.out, shot.image)
    except cv2.error:
        written = False
    if not written:
        print(
            f"nardref render: cannot write image {args.out!r} (check the folder and the extension, e.g. .png)",
            file=sys.stderr,
        )
        return 2
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in shot.corners)
    if args.json:
        print(
            json.dumps(
                {
                    "image": args.out,
                    "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in shot.corners],
                    "layout": shot.layout.to_dict(),
                    "occluded": shot.occluded,
                    "bar_fraction": [round(v, 5) for v in shot.bar_fraction],
                    "style": shot.style_name,
                    "barrel": shot.barrel,
                    "tray": None
                    if shot.tray is None
                    else [[round(float(x), 2), round(float(y), 2)] for x, y in shot.tray],
                }
            )
        )
    else:
        print(corners)
    return 0
