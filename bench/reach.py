"""Hands, arms and dice cups where the players reach.

``bench/vision.py`` puts what covers the board over the middle of the
playing area. Players reach for the first checkers of a point, at the
board's long edges, and onto the bar, all the time. Here each photo shows
the position after a random legal play on a board of ``bench/vision.py``
(calibrated with a photo of it empty too), with a hand, an arm or a dice
cup reaching from the nearer long edge to one of those places:

- *at the edge*: a point's first or second checker's place (the tenth of
  the board's depth along either long edge);
- *on the bar*: anywhere along the bar.

The photo is read alone, and the move judged against the frame before it,
as the referee judges it. Something covers the board in every photo, so
each should be refused: a reading that is not refused must not be
confidently wrong, and a verdict that is not a refusal must name the play
made (never "illegal", never another play). Run::

    python bench/reach.py                  # 40 boards, 5 photos each (about 5 minutes)
    python bench/reach.py --boards 100 --seed 3
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

#: What the figures count, printed above them.
HEADING = (
    "something covers the board in every photo (goals: read refused 100 %, none confidently wrong; "
    "judged refused 100 %, none called illegal, never the wrong play)"
)
OCCLUSIONS = ("hand", "arm", "cup")


def at_the_edge(rng: np.random.Generator) -> tuple[float, float]:
    """A place (fractions of the playing area) where a point's first or
    second checker stands: along either long edge, anywhere across."""
    depth = float(rng.uniform(0.02, 0.1))
    return float(rng.uniform(0.02, 0.98)), depth if rng.random() < 0.5 else 1.0 - depth


def on_the_bar(board: object, rng: np.random.Generator) -> tuple[float, float]:
    """A place (fractions of the playing area) on the bar of ``board`` (a
    :class:`vision_bench.Board`), anywhere along it."""
    geometry = board.calibration.geometry  # type: ignore[attr-defined]
    return (geometry.bar[0] + geometry.bar[1]) / 2 / geometry.size[0], float(rng.uniform(0.05, 0.95))


def main(argv: list[str] | None = None) -> int:
    args = arguments(
        __doc__,
        argv,
        per_board="photos",
        show_errors="print every photo not refused and every verdict not a refusal",
        dump="write those photos there, each with its board's calibration, truth and case (nardref detect, judge)",
    )
    cv2.setNumThreads(1)
    started = time.perf_counter()
    kinds = ("at the edge", "on the bar")
    tallies = {kind: Tally() for kind in kinds}
    for drawn, board, rng, np_rng in calibrated_boards(args.seed, args.boards):
        for photo in range(args.per_board):
            position, mover = vision_bench.random_game(rng, rng.randint(0, 60))
            before = vision_bench.shoot(board, vision_bench.light_layout(position, mover), np_rng)
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            chosen = rng.choice(legal_plays(position, dice))
            truth: Layout = vision_bench.light_layout(chosen.after, mover)
            reach_rng = np.random.default_rng([args.seed, drawn, photo])
            places = {kinds[0]: at_the_edge(reach_rng), kinds[1]: on_the_bar(board, reach_rng)}
            for kind, place in places.items():
                occlusion = OCCLUSIONS[int(reach_rng.integers(len(OCCLUSIONS)))]
                image = vision_bench.shoot(board, truth, reach_rng, occlusion=occlusion, reach=place)
                reading = read_board(image, board.calibration)
                tallies[kind].read(reading, truth, confident=board.calibration.read.confident)
                x, y = place
                where = f"{board.style.name} board {drawn} photo {photo}: a {occlusion} reaching {x:.2f},{y:.2f}"
                name = f"{kind.replace(' ', '_')}_{drawn:03d}_{photo}"
                if reading.refusal is None:
                    if args.show_errors:
                        print(f"  {kind}: {where}, read {reading.layout()}", file=sys.stderr)
                    if args.dump:
                        vision_bench.dump(args.dump, f"read_{name}", image, board, truth)
                verdict = vision_bench.judge_shot(board, position, dice, mover, image, before)
                tallies[kind].judged(verdict, chosen.after)
                if verdict.verdict != "refused":
                    if args.show_errors:
                        print(missed(kind, f"{where},", chosen.play, verdict), file=sys.stderr)
                    if args.dump:
                        photos = (image, before)
                        case = (position, dice, mover)
                        vision_bench.dump_judged(args.dump, f"judged_{name}", photos, board, case, chosen.after)
    report("reach", args, started, HEADING, tallies)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
