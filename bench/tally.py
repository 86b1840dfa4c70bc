"""What ``bench/light.py``, ``bench/loose.py`` and ``bench/reach.py``
share: their options, the calibrated boards of ``bench/vision.py`` they
take their photos of, and what they count of each kind of photo: the
photo read alone
(refused, or its points right and confidently wrong), and the move judged
against the frame before it (identified, refused, called illegal, taken
for another play)."""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
from boards import vision_bench

from engine.position import Position
from vision.judge import PhotoVerdict
from vision.layout import Layout
from vision.read import Reading


class Tally:
    """The counts of one kind of photo."""

    def __init__(self) -> None:
        self.counted: Counter[str] = Counter()

    def read(self, reading: Reading, truth: Layout, *, confident: float) -> None:
        """Count ``reading`` of a photo showing ``truth``: refused, or each
        point right, and wrong with at least ``confident`` confidence."""
        self.counted["photos"] += 1
        if reading.refusal is not None:
            self.counted["read refused"] += 1
            return
        seen = reading.layout()
        self.counted["points read"] += 24
        for a, b, c in zip(seen.top + seen.bottom, truth.top + truth.bottom, reading.confidence.ravel(), strict=True):
            self.counted["points right"] += a == b
            self.counted["confidently wrong"] += a != b and c >= confident

    def judged(self, verdict: PhotoVerdict, after: Position) -> bool:
        """Count ``verdict`` on a photo after the play that led to ``after``;
        whether it identified that play."""
        right = verdict.verdict == "legal" and verdict.play is not None and verdict.play.after == after
        self.counted["identified" if right else ("wrong play" if verdict.verdict == "legal" else verdict.verdict)] += 1
        return right

    def line(self, kind: str) -> str:
        """The figures, on one line headed ``kind``."""
        counted = self.counted
        photos = max(counted["photos"], 1)
        read = max(counted["points read"], 1)
        return (
            f"  {kind:18} {counted['photos']} photos: read refused {100 * counted['read refused'] / photos:5.1f} %, "
            f"points right where read {100 * counted['points right'] / read:6.2f} % "
            f"(confidently wrong {counted['confidently wrong']}); judged: identified "
            f"{100 * counted['identified'] / photos:5.1f} %, refused {100 * counted['refused'] / photos:5.1f} %, "
            f"legal called illegal {counted['illegal']}, the wrong play {counted['wrong play']}"
        )


def missed(kind: str, style: str, played: str, verdict: PhotoVerdict) -> str:
    """A verdict that did not identify the play ``played`` on a board of
    ``style``, and why, on one line (``--show-errors``)."""
    why = verdict.refusal.message if verdict.refusal else "; ".join(map(str, verdict.contradictions))
    return f"  {kind}: {style} played {played}, {verdict.verdict}: {why}"


def report(bench: str, args: argparse.Namespace, started: float, heading: str, tallies: dict[str, Tally]) -> None:
    """Print the figures of every kind of photo, under ``heading``, of a
    bench run with ``args`` (:func:`arguments`) since ``started``."""
    print(f"{bench} bench: seed {args.seed}, {args.boards} boards, {time.perf_counter() - started:.0f} s")
    print(f"  {heading}")
    for kind, tally in tallies.items():
        print(tally.line(kind))


def arguments(
    doc: str, argv: list[str] | None, *, per_board: str, show_errors: str, dump: str | None = None
) -> argparse.Namespace:
    """The options of a bench described by ``doc``: how many boards, how many
    ``per_board`` (its help) on each, their seed, ``--show-errors`` and,
    where ``dump`` says what it writes, ``--dump DIR``."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--boards", type=int, default=40, help="boards drawn (default 40)")
    parser.add_argument("--per-board", type=int, default=5, help=f"{per_board} per board (default 5)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the boards (those of bench/vision.py)")
    parser.add_argument("--show-errors", action="store_true", help=show_errors)
    if dump is not None:
        parser.add_argument("--dump", metavar="DIR", type=Path, help=dump)
    return parser.parse_args(argv)


def calibrated_boards(seed: int, count: int) -> Iterator[tuple[int, Any, random.Random, np.random.Generator]]:
    """``bench/vision.py``'s boards 1 to ``count`` of set ``seed``, each
    calibrated with a photo of it empty too: its number, the board, and
    the random streams that drew it, to draw its photos on (a board whose
    calibration fails is left out); the progress goes to standard error."""
    for drawn in range(1, count + 1):
        np_rng = np.random.default_rng([seed, drawn])
        rng = random.Random(seed * 1_000_003 + drawn)
        board = vision_bench.make_board(np_rng, empty_photo=True)
        if board is not None:
            yield drawn, board, rng, np_rng
        print(f"  board {drawn}/{count}", file=sys.stderr, flush=True)
