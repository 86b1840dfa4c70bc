"""Seeded random positions of every shape: contact, bar, race, bear-off."""

from __future__ import annotations

import random

from engine.position import Position
from engine.rules import BAR, OFF, STANDARD, Rules

SHAPES = ("contact", "bar", "race", "bearoff", "mixed")


def random_position(rng: random.Random, shape: str | None = None, rules: Rules = STANDARD) -> Position:
    """A valid position (15 checkers a side, no shared point) of the given shape."""
    shape = shape or rng.choice(SHAPES)
    total = rules.checkers
    me = [0] * 26
    them = [0] * 26
    taken: set[int] = set()  # my point numbers holding their checkers

    def place(side: list[int], points: list[int], n: int, mine: bool) -> None:
        for _ in range(n):
            candidates = [p for p in points if (p not in taken if mine else rules.opposite(p) not in mine_points())]
            if not candidates:
                side[OFF] += 1
                continue
            point = rng.choice(candidates)
            side[point] += 1
            if not mine:
                taken.add(rules.opposite(point))

    def mine_points() -> set[int]:
        return {p for p in range(1, 25) if me[p]}

    if shape == "bearoff":
        my_points, their_points = list(range(1, 7)), list(range(1, 7))
    elif shape == "race":
        my_points, their_points = list(range(1, 13)), list(range(1, 13))
    else:
        my_points, their_points = list(range(1, 25)), list(range(1, 25))
    my_off = rng.randint(0, total - 1) if shape in ("bearoff", "mixed") else 0
    their_off = rng.randint(0, total - 1) if shape in ("bearoff", "mixed") else 0
    my_bar = rng.randint(1, 3) if shape == "bar" else (rng.randint(0, 1) if shape == "mixed" else 0)
    their_bar = rng.randint(0, 2) if shape in ("bar", "contact", "mixed") and rng.random() < 0.3 else 0
    if shape in ("bearoff", "race"):
        my_bar = their_bar = 0
    my_bar = min(my_bar, total - my_off)
    their_bar = min(their_bar, total - their_off)
    me[OFF], them[OFF] = my_off, their_off
    me[BAR], them[BAR] = my_bar, their_bar
    # Opponent first, clumped into points like a real game.
    n = total - their_off - their_bar
    place(them, their_points, n, mine=False)
    place(me, my_points, total - my_off - my_bar, mine=True)
    return Position(tuple(me), tuple(them))
