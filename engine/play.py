"""Moves and plays in standard notation, parsed and formatted in pairs.

A :class:`Move` is one checker going from a point to a point; ``25`` is the
bar and ``0`` is off. A :class:`Play` is a turn's moves. Formatting follows
GNU Backgammon: moves of one checker are joined (``24/16``, with an
intermediate hit shown as ``24/21*/16``), repeats are counted (``8/5(2)``) and
the moves are listed from the highest point down.

>>> str(Play.parse("13/11* 24/18"))
'24/18 13/11*'
>>> str(Play.parse("Bar/22 6/off"))
'bar/22 6/off'
>>> Play.parse("8/5(2) 6/5(2)").moves[:2]
(Move(8, 5), Move(8, 5))
>>> str(Play.parse("8/5 8/5 6/5 6/5"))
'8/5(2) 6/5(2)'
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from engine.errors import NotationError
from engine.rules import BAR, OFF

_REPEAT = re.compile(r"^(.*?)\((\d)\)$")


@dataclass(frozen=True, slots=True)
class Move:
    """One checker from ``start`` to ``end`` (25 = bar, 0 = off); ``hit`` if it hit a blot there."""

    start: int
    end: int
    hit: bool = False

    def __str__(self) -> str:
        return f"{_point(self.start)}/{_point(self.end)}{'*' if self.hit else ''}"

    def __repr__(self) -> str:
        return f"Move({self.start}, {self.end}{', hit=True' if self.hit else ''})"


@dataclass(frozen=True, slots=True)
class Play:
    """A turn's moves, in the order they were made. The empty play is a pass (M7)."""

    moves: tuple[Move, ...] = ()

    @classmethod
    def parse(cls, text: str) -> Play:
        """Read standard notation; ``bar``/``Bar``/``25`` and ``off``/``0`` are accepted."""
        moves: list[Move] = []
        for token in text.replace(",", " ").split():
            repeat = 1
            match = _REPEAT.match(token)
            if match:
                token, repeat = match.group(1), int(match.group(2))
            parts = token.split("/")
            if len(parts) < 2:
                raise NotationError(f"move {token!r} in play {text!r}: expected FROM/TO such as '13/7' or 'bar/22'")
            points = [_parse_point(part.rstrip("*"), text) for part in parts]
            hits = [part.endswith("*") for part in parts]
            chain = [Move(points[i], points[i + 1], hits[i + 1]) for i in range(len(points) - 1)]
            for move in chain:
                if move.start <= move.end:
                    raise NotationError(f"move {token!r} in play {text!r}: a checker moves toward its home (M1)")
            moves.extend(chain * repeat)
        return cls(tuple(moves))

    def __str__(self) -> str:
        chains: list[list[Move]] = []
        # Highest start first, so each checker's moves meet in one chain.
        for move in sorted(self.moves, key=lambda m: -m.start):
            ending = [c for c in chains if c[-1].end == move.start and move.start != OFF]
            if ending:
                # The checker that hit there moves on, if one did: one text for one play.
                max(ending, key=lambda c: c[-1].hit).append(move)
            else:
                chains.append([move])
        texts = []
        for chain in chains:
            stops = [_point(chain[0].start)]
            for index, move in enumerate(chain):
                last = index == len(chain) - 1
                if move.hit or last:
                    stops.append(f"{_point(move.end)}{'*' if move.hit else ''}")
            texts.append((chain[0].start, chain[-1].end, "/".join(stops)))
        counts = Counter(texts)
        ordered = sorted(counts, key=lambda t: (-t[0], -t[1], t[2]))
        return " ".join(t[2] + (f"({counts[t]})" if counts[t] > 1 else "") for t in ordered)

    def __repr__(self) -> str:
        return f"Play.parse({str(self)!r})"

    def __bool__(self) -> bool:
        return bool(self.moves)


def _point(point: int) -> str:
    return "bar" if point == BAR else "off" if point == OFF else str(point)


def _parse_point(text: str, play: str) -> int:
    word = text.lower()
    if word == "bar":
        return BAR
    if word == "off":
        return OFF
    if word.isdigit() and 0 <= int(word) <= 25:
        return int(word)
    raise NotationError(f"point {text!r} in play {play!r}: expected 1-24, 'bar' (25) or 'off' (0)")
