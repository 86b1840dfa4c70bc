"""What a finished game is worth (S1-S5, T3).

A win is worth a multiplier (1 single, 2 gammon, 3 backgammon) times the
cube. :func:`bear_off_multiplier` reads the multiplier from the board when a
player has borne off all checkers (S1, S2); :func:`counted_multiplier` applies
the options that cap it: the seed-000 profile and long nardy score 1 or 2 only
(``Rules.backgammons`` is False), and under Jacoby (S5, money play) gammons
count single while the cube has not been turned.

>>> from engine.position import Position
>>> start = Position.start()
>>> winner = Position((15,) + (0,) * 25, start.them)
>>> bear_off_multiplier(winner)
3
>>> counted_multiplier(3, backgammons=False, jacoby_single=False)
2
"""

from __future__ import annotations

import enum

from engine.position import Position
from engine.rules import BAR, OFF, STANDARD, Rules


class Ending(enum.Enum):
    """How a game ended."""

    BORE_OFF = "bore-off"  #: S1: the winner bore off all checkers
    DROP = "drop"  #: C2: the doubled player dropped
    BEAVER_REFUSED = "beaver-refused"  #: C4: the doubler refused a beaver
    RESIGN = "resign"  #: S3: a resignation was accepted (or counted, seed 000)
    TIMEOUT = "timeout"  #: T3: the loser's flag fell


class FlagOutcome(enum.Enum):
    """What a flag fall costs (T3, S4)."""

    GAMMON = "gammon"  #: seed 000: the opponent wins a gammon (2 x cube)
    MATCH = "match"  #: tournament clock rules: the opponent wins the match


SINGLE, GAMMON, BACKGAMMON = 1, 2, 3
MULTIPLIER_NAMES = {SINGLE: "single", GAMMON: "gammon", BACKGAMMON: "backgammon"}


def bear_off_multiplier(position: Position, rules: Rules = STANDARD) -> int:
    """S2 for ``position`` seen from the winner (``me`` has borne off all checkers).

    Gammon when the loser has borne off none; backgammon when the loser also
    still has a checker on the bar or in the winner's home board. Options are
    applied by :func:`counted_multiplier`.
    """
    loser = position.them
    if loser[OFF]:
        return SINGLE
    in_winners_home = any(loser[rules.opposite(point)] for point in range(1, 7))
    if loser[BAR] or in_winners_home:
        return BACKGAMMON
    return GAMMON


def counted_multiplier(multiplier: int, *, backgammons: bool, jacoby_single: bool) -> int:
    """``multiplier`` as it counts: capped at 2 without backgammons (S2, seed 000),
    at 1 under Jacoby with the cube not turned (S5)."""
    if jacoby_single:
        return SINGLE
    if not backgammons:
        return min(multiplier, GAMMON)
    return multiplier


def app_resign_multiplier(resigner_off: int) -> int:
    """S3 of seed 000: a resignation counts 2 when the resigner has borne off none, else 1."""
    return SINGLE if resigner_off else GAMMON
