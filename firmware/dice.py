"""The electronic dice: fair and unpredictable numbers from :mod:`secrets`.

:class:`DiceRoller` only draws numbers; *when* a roll may happen (D4: not
before the opponent's turn is over, O1 the opening roll) is the referee's and
the match state machine's business, and the loop writes every roll to the
journal, and waits until it is on disk, before the LEDs show it, so pulling
the plug never buys a re-roll.

The source of randomness is injected: :class:`secrets.SystemRandom` on the
board (the default), a seeded :class:`random.Random` in the demo and tests.

>>> import random
>>> roller = DiceRoller(rng=random.Random(7))
>>> roller.roll()
Dice(3, 2)
>>> all(1 <= d <= 6 for d in (roller.opening().first, roller.opening().second))
True
"""

from __future__ import annotations

import random
import secrets

from engine.dice import Dice

__all__ = ["DiceRoller"]


class DiceRoller:
    """Rolls two dice; ``rng`` is any :class:`random.Random` (default: the OS's secrets)."""

    def __init__(self, *, rng: random.Random | None = None) -> None:
        self._rng: random.Random = secrets.SystemRandom() if rng is None else rng

    def _die(self) -> int:
        return self._rng.randrange(1, 7)

    def roll(self) -> Dice:
        """D1: the two dice of a turn, in the order rolled."""
        return Dice(self._die(), self._die())

    def opening(self) -> Dice:
        """O1: one die for each player: ``first`` is player 0's, ``second`` player 1's (ties are O2's business)."""
        return Dice(self._die(), self._die())
