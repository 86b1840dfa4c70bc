"""Reading and judging when the light changed since calibration.

A camera's exposure is locked at calibration (issue 5), so the frames get
darker where a player leans over the board and casts a shadow, and all over
as the daylight fades. The boards are those of ``bench/vision.py`` (each
random style, camera, light and lens, calibrated with a photo of the empty
board too); each photo is read as rendered, under a person's shadow (the
linear light scaled by 0.35 to 0.7 beyond a random line, its edge soft over
half a checker to three), all darker (0.6 to 0.8) and all brighter (1.2
to 1.5: a lamp switched on; what the locked exposure cannot hold clips
white). The judge compares
the photo after a random legal play with the frame before it, taken in the
calibration's light: the light changed between the two. The median time
``read_board`` takes over each kind of photo is printed against the
photos as rendered, read in the same run (one core). Run::

    python bench/light.py                  # 40 boards, 5 photos each (about 5 minutes)
    python bench/light.py --boards 100 --seed 3
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/vision.py's name would shadow the vision package

from boards import vision_bench  # noqa: E402  (bench/boards.py, beside this file)
from tally import Tally, arguments, calibrated_boards, missed, report  # noqa: E402

from engine.dice import Dice  # noqa: E402
from engine.legal import legal_plays  # noqa: E402
from vision.geometry import to_image  # noqa: E402
from vision.layout import Layout  # noqa: E402
from vision.read import read_board  # noqa: E402

Relight = Callable[[np.ndarray], np.ndarray]


def _under(image: np.ndarray, light: np.ndarray) -> np.ndarray:
    """``image`` (BGR uint8, sRGB) with its linear light scaled by ``light`` (h, w)."""
    linear = (image.astype(np.float32) / 255) ** 2.2 * light[..., None]
    return np.asarray(np.clip(linear ** (1 / 2.2) * 255, 0, 255), np.uint8)


def shadow_over(board: object, rng: np.random.Generator) -> Relight:
    """A person's shadow over part of ``board`` (a :class:`vision_bench.Board`): beyond
    a random line through the playing area, the light scaled by 0.35 to 0.7."""
    geometry = board.calibration.geometry  # type: ignore[attr-defined]
    width, height = geometry.size
    centre = to_image(
        geometry, np.array([[rng.uniform(0.2, 0.8) * width, rng.uniform(0.2, 0.8) * height]], np.float32)
    )[0]
    angle = rng.uniform(0, 2 * np.pi)
    depth = rng.uniform(0.35, 0.7)
    pitch = float(np.ptp(np.asarray(geometry.corners)[:, 0])) / width * geometry.pitch_px  # image px
    soft = rng.uniform(0.5, 3.0) * pitch

    def relight(image: np.ndarray) -> np.ndarray:
        ys, xs = np.mgrid[0 : image.shape[0], 0 : image.shape[1]].astype(np.float32)
        along = (xs - centre[0]) * np.cos(angle) + (ys - centre[1]) * np.sin(angle)
        beyond = np.clip(along / soft + 0.5, 0, 1)
        return _under(image, 1 - (1 - depth) * beyond)

    return relight


def evenly(rng: np.random.Generator, low: float, high: float) -> Relight:
    """The whole scene's linear light scaled by ``low`` to ``high``: below 1
    the evening, above 1 a lamp switched on."""
    light = rng.uniform(low, high)
    return lambda image: _under(image, np.full(image.shape[:2], light, np.float32))


#: What the figures count, printed above them.
HEADING = "the photo read alone; the move judged against the frame before it, taken in the calibration's light"


def main(argv: list[str] | None = None) -> int:
    args = arguments(
        __doc__, argv, per_board="photos", show_errors="print every photo refused and every move not identified"
    )
    cv2.setNumThreads(1)
    started = time.perf_counter()
    kinds = ("as rendered", "a person's shadow", "all darker", "all brighter")
    tallies = {kind: Tally() for kind in kinds}
    read_ms: dict[str, list[float]] = {kind: [] for kind in kinds}
    for drawn, board, rng, np_rng in calibrated_boards(args.seed, args.boards):
        for _ in range(args.per_board):
            position, mover = vision_bench.random_game(rng, rng.randint(0, 60))
            truth: Layout = vision_bench.light_layout(position, mover)
            before = vision_bench.shoot(board, truth, np_rng)
            dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
            chosen = rng.choice(legal_plays(position, dice))
            after = vision_bench.shoot(board, vision_bench.light_layout(chosen.after, mover), np_rng)
            light_rng = np.random.default_rng([args.seed, drawn, tallies[kinds[0]].counted["photos"]])
            changes: dict[str, Relight] = {
                kinds[0]: lambda image: image,
                kinds[1]: shadow_over(board, light_rng),
                kinds[2]: evenly(light_rng, 0.6, 0.8),
                kinds[3]: evenly(light_rng, 1.2, 1.5),
            }
            for kind, relight in changes.items():
                image = relight(before)
                t0 = time.perf_counter()
                reading = read_board(image, board.calibration)
                read_ms[kind].append((time.perf_counter() - t0) * 1000)
                tallies[kind].read(reading, truth, confident=board.calibration.read.confident)
                if reading.refusal is not None and args.show_errors:
                    print(f"  {kind}: {board.style.name} photo refused: {reading.refusal.message}", file=sys.stderr)
                verdict = vision_bench.judge_shot(board, position, dice, mover, relight(after), before)
                if not tallies[kind].judged(verdict, chosen.after) and args.show_errors:
                    print(missed(kind, board.style.name, chosen.play, verdict), file=sys.stderr)
    report("light", args, started, HEADING, tallies)
    reference = statistics.median(read_ms[kinds[0]])
    print(f"  read_board per frame, one core, median: {kinds[0]} {reference:.1f} ms", end="")
    for kind in kinds[1:]:
        ms = statistics.median(read_ms[kind])
        print(f"; {kind} {ms:.1f} ms ({ms / reference:.2f}x)", end="")
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
