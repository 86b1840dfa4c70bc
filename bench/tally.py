"""What ``bench/light.py`` and ``bench/loose.py`` count of each kind of
photo they take of a calibrated board: the photo read alone (refused, or
its points right and confidently wrong), and the move judged against the
frame before it (identified, refused, called illegal, taken for another
play)."""

from __future__ import annotations

from collections import Counter

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
