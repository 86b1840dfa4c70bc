"""``nardref markers -o sheet.png``: print the four ArUco corner markers.

Writes an A4 sheet with markers 0-3 (DICT_4X4_50) and how to place them;
``nardref calibrate`` then finds the board by itself. Exit 0 written, 2 bad input.
"""

from __future__ import annotations

import argparse
import sys


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "markers",
        help="write a printable sheet of the four ArUco corner markers",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("-o", "--out", required=True, help="image file to write (.png)")
    parser.add_argument("--dpi", type=int, default=150, help="print resolution (default 150)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if not 50 <= args.dpi <= 1200:
        print(f"nardref markers: --dpi {args.dpi!r}: expected 50..1200", file=sys.stderr)
        return 2
    import cv2

    from vision.markers import PLACING, marker_sheet

    sheet = marker_sheet(dpi=args.dpi)
    try:
        ok = cv2.imwrite(args.out, sheet)
    except cv2.error:
        ok = False
    if not ok:
        print(
            f"nardref markers: --out {args.out!r}: cannot write it (expected a writable .png or .jpg path)",
            file=sys.stderr,
        )
        return 2
    print(f"wrote {args.out}: print it at 100 %.")
    for line in PLACING[1:]:
        print("  " + line)
    return 0
