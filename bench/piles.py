"""Piles counted on rendered photos: points holding five to nine checkers,
laid in layers or squeezed (each board's style says which).

The boards are those of ``bench/vision.py`` (each random style, camera,
light and lens, calibrated with a photo of the empty board too); each is
photographed in positions made to hold piles: each colour has two points
of five to nine checkers and the rest spread on lines of one to four. The
random positions of ``bench/vision.py`` hold few piles, so this bench is
where a change to pile counting shows. Run::

    python bench/piles.py                  # 100 boards, 4 photos each (about 2 minutes)
    python bench/piles.py --boards 40 --seed 3
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/vision.py's name would shadow the vision package

from boards import vision_bench  # noqa: E402  (bench/boards.py, beside this file)

from vision.layout import Layout  # noqa: E402
from vision.read import read_board  # noqa: E402

PILES = range(5, 10)


def piled_layout(rng: random.Random) -> Layout:
    """Fifteen checkers of each colour: two points of five to nine, the rest
    on lines of one to four."""
    cells = [(row, col) for row in range(2) for col in range(12)]
    rng.shuffle(cells)
    counts = np.zeros((2, 12), np.int64)
    for sign in (1, -1):
        left = 15
        for _ in range(2):
            n = rng.randint(PILES.start, PILES.stop - 1)
            counts[cells.pop()] = sign * n
            left -= n
        while left > 0:
            n = min(left, rng.randint(1, 4))
            counts[cells.pop()] = sign * n
            left -= n
    return Layout(top=tuple(int(v) for v in counts[0]), bottom=tuple(int(v) for v in counts[1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=100, help="boards drawn (default 100)")
    parser.add_argument("--per-board", type=int, default=4, help="photos per board (default 4)")
    parser.add_argument("--seed", type=int, default=2, help="seed of the boards and photos")
    args = parser.parse_args(argv)
    cv2.setNumThreads(1)
    started = time.perf_counter()
    counted: Counter[tuple[str, int, bool]] = Counter()
    sure_wrong: Counter[str] = Counter()
    refused: Counter[str] = Counter()
    lines_wrong = calibration_failures = 0
    for b in range(args.boards):
        np_rng = np.random.default_rng([args.seed, 7777, b])
        rng = random.Random(args.seed * 31 + b)
        board = vision_bench.make_board(np_rng, empty_photo=True)
        if board is None:
            calibration_failures += 1
            continue
        kind = board.style.pile
        for _ in range(args.per_board):
            truth = piled_layout(rng)
            reading = read_board(vision_bench.shoot(board, truth, np_rng), board.calibration)
            if reading.refusal is not None:
                refused[kind] += 1
                continue
            counts = np.array([truth.top, truth.bottom])
            for row, col in zip(*np.nonzero(np.abs(counts) >= PILES.start), strict=True):
                right = bool(reading.counts[row, col] == counts[row, col])
                counted[kind, int(abs(counts[row, col])), right] += 1
                sure_wrong[kind] += not right and reading.confidence[row, col] >= board.calibration.read.confident
            lines_wrong += int(((reading.counts != counts) & (np.abs(counts) < PILES.start)).sum())
        print(f"\r  board {b + 1}/{args.boards}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    print(
        f"pile bench: {args.boards} boards x {args.per_board} photos, seed {args.seed}, "
        f"{time.perf_counter() - started:.0f} s"
    )
    print(f"  calibrations failed: {calibration_failures}")
    for kind in ("layer", "squeeze"):
        total = sum(v for (k, _, _), v in counted.items() if k == kind)
        right = sum(v for (k, _, ok), v in counted.items() if k == kind and ok)
        per_count = "  ".join(
            f"{n}: {counted[kind, n, True]}/{counted[kind, n, True] + counted[kind, n, False]}" for n in PILES
        )
        print(
            f"  piles {'laid in layers' if kind == 'layer' else 'squeezed'}: {right}/{total} counted right "
            f"({100 * right / max(total, 1):.1f} %), confidently wrong {sure_wrong[kind]}, "
            f"photos refused {refused[kind]}"
        )
        print(f"    by count {per_count}")
    print(f"  points of one to four checkers (or none) read wrong: {lines_wrong}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
