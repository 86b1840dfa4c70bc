"""Positions written as text for golden cases: ``24:2,13:5 | 6:5`` gives my
checkers (points in my numbering, ``bar`` for the bar) and theirs (in their
own numbering); whatever is not on the board is off."""

from __future__ import annotations

from engine.position import Position
from engine.rules import BAR, STANDARD, Rules


def side(text: str, checkers: int) -> tuple[int, ...]:
    slots = [0] * 26
    for item in filter(None, (t.strip() for t in text.split(","))):
        point, count = item.split(":")
        slots[BAR if point == "bar" else int(point)] += int(count)
    slots[0] = checkers - sum(slots)
    assert slots[0] >= 0, text
    return tuple(slots)


def board(text: str, rules: Rules = STANDARD) -> Position:
    mine, theirs = text.split("|")
    return Position(side(mine, rules.checkers), side(theirs, rules.checkers))
