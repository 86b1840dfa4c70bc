"""A roll of two dice (D1, D2)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import NotationError

_DICE = re.compile(r"^\s*([1-6])\s*[-x/ ]?\s*([1-6])\s*$")


@dataclass(frozen=True, slots=True)
class Dice:
    """Two dice, kept in the order rolled.

    >>> Dice.parse("3-1")
    Dice(3, 1)
    >>> Dice.parse("44").moves
    (4, 4, 4, 4)
    """

    first: int
    second: int

    def __post_init__(self) -> None:
        for die in (self.first, self.second):
            if not isinstance(die, int) or not 1 <= die <= 6:
                raise NotationError(f"die {die!r} is not a number from 1 to 6")

    @classmethod
    def parse(cls, text: str) -> Dice:
        """Read ``31``, ``3-1`` or ``3 1``."""
        match = _DICE.match(text)
        if match is None:
            raise NotationError(f"dice {text!r}: expected two numbers 1-6 such as '31' or '3-1'")
        return cls(int(match.group(1)), int(match.group(2)))

    @property
    def high(self) -> int:
        return max(self.first, self.second)

    @property
    def low(self) -> int:
        return min(self.first, self.second)

    @property
    def is_double(self) -> bool:
        return self.first == self.second

    @property
    def moves(self) -> tuple[int, ...]:
        """The single moves the roll gives: two, or four of a double (D2)."""
        if self.is_double:
            return (self.first,) * 4
        return (self.high, self.low)

    def __str__(self) -> str:
        return f"{self.first}{self.second}"

    def __repr__(self) -> str:
        return f"Dice({self.first}, {self.second})"
