"""Reading and judging checkers left apart by hand.

The renderer stands the checkers of a line touching, as tidy players leave
them; a hurried hand leaves gaps. Each checker of a line of five or fewer
stands off the one before it (the first, off the board's edge) by
``|N(0, g)|`` checker radii more, g 0 (touching), 0.15 (a little apart: a
gap of 6 % of a checker on average, a line of five a third of a checker
longer) and 0.3 (apart: twice that). Piles keep their shape. The boards
are those of ``bench/vision.py``, calibrated on a tidy starting position
(with a photo of the empty board). The checkers the move leaves stand in
the frame before it as in the photo after it, each nudged a little anew
as in ``bench/vision.py``; a checker moved onto a line stands after it. Run::

    python bench/loose.py                  # 40 boards, 5 positions each (about 4 minutes)
    python bench/loose.py --boards 100 --seed 3 --show-errors
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/vision.py's name would shadow the vision package

from boards import vision_bench  # noqa: E402  (bench/boards.py, beside this file)
from tally import Tally, arguments, calibrated_boards, missed, report  # noqa: E402

from engine.dice import Dice  # noqa: E402
from engine.legal import legal_plays  # noqa: E402
from vision.layout import Layout  # noqa: E402
from vision.read import read_board  # noqa: E402

#: How far apart a line's checkers stand (checker radii, a standard deviation per gap), by name.
LOOSENESS = {"touching": 0.0, "a little apart": 0.15, "apart": 0.3}


#: What the figures count, printed above them.
HEADING = "the frame before read alone; the move judged against it, the checkers not moved where they stood"


def main(argv: list[str] | None = None) -> int:
    args = arguments(
        __doc__,
        argv,
        per_board="positions",
        show_errors="print every point read wrong surely and every move not identified",
    )
    cv2.setNumThreads(1)
    started = time.perf_counter()
    tallies = {kind: Tally() for kind in LOOSENESS}
    for drawn, board, rng, _ in calibrated_boards(args.seed, args.boards):
        confident = board.calibration.read.confident
        for taken in range(args.per_board):
            position, mover = vision_bench.random_game(rng, rng.randint(0, 60))
            truth: Layout = vision_bench.light_layout(position, mover)
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            chosen = rng.choice(legal_plays(position, dice))
            shown = vision_bench.light_layout(chosen.after, mover)
            for level, (kind, gaps) in enumerate(LOOSENESS.items()):
                photo_rng = np.random.default_rng([args.seed, drawn, taken, level])
                placed = int(photo_rng.integers(2**31))  # where the checkers stand, in both frames
                before = vision_bench.shoot(board, truth, photo_rng, gaps=gaps, gaps_seed=placed)
                after = vision_bench.shoot(board, shown, photo_rng, gaps=gaps, gaps_seed=placed)
                reading = read_board(before, board.calibration)
                tallies[kind].read(reading, truth, confident=confident)
                if args.show_errors and reading.refusal is None:
                    seen = reading.layout()
                    for k, (a, b, c) in enumerate(
                        zip(seen.top + seen.bottom, truth.top + truth.bottom, reading.confidence.ravel(), strict=True)
                    ):
                        if a != b and c >= confident:
                            where = f"{('top', 'bottom')[k // 12]} {k % 12 + 1}"
                            print(f"  {kind}: {board.style.name} {where} holds {b}, read {a} surely", file=sys.stderr)
                verdict = vision_bench.judge_shot(board, position, dice, mover, after, before)
                if not tallies[kind].judged(verdict, chosen.after) and args.show_errors:
                    print(missed(kind, board.style.name, chosen.play, verdict), file=sys.stderr)
    report("loose", args, started, HEADING, tallies)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
