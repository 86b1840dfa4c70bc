"""A backgammon position: both players' checkers on points, bar and off.

Each side is a 26-tuple seen from its own player (B2): index 0 holds the
checkers borne off, 1..24 the player's points (1..6 the home board) and 25 the
bar. ``me`` is the player on roll; :meth:`Position.swap` hands the roll over.

>>> start = Position.start()
>>> start.position_id()
'4HPwATDgc/ABMA'
>>> start.pips()
(167, 167)
>>> Position.parse("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10") == start
True
"""

from __future__ import annotations

import enum
import operator
from dataclasses import dataclass

from engine import position_id
from engine.errors import NotationError, PositionError
from engine.rules import BAR, OFF, STANDARD, Rules

Side = tuple[int, ...]
"""One player's 26 slots: 0 off, 1..24 points, 25 bar."""


class Status(enum.IntFlag):
    """Every problem of an impossible position; ``VALID`` (0) when there is none.

    Like python-chess's ``Board.status()``, checking never raises, so vision
    can reject a reading that cannot be a position.
    """

    VALID = 0
    BAD_SHAPE = enum.auto()  #: not 26 slots per side, or a negative count
    TOO_MANY_CHECKERS = enum.auto()  #: more checkers than the rules give (B4)
    TOO_FEW_CHECKERS = enum.auto()  #: checkers missing (B4)
    SHARED_POINT = enum.auto()  #: both players on one point (M2)
    BOTH_BORNE_OFF = enum.auto()  #: both players have borne off all checkers (S1)


@dataclass(frozen=True, slots=True)
class Position:
    """Both sides of a board; ``me`` is on roll. Immutable and hashable."""

    me: Side
    them: Side

    @classmethod
    def start(cls, rules: Rules = STANDARD) -> Position:
        """The starting position of ``rules`` (B4, V1-V3)."""
        side = [0] * 26
        for point, count in rules.start:
            side[point] = count
        return cls(tuple(side), tuple(side))

    @classmethod
    def from_id(cls, text: str, *, checkers: int = 15) -> Position:
        """Read a GNU Backgammon Position ID (player on roll = ``me``)."""
        not_on_roll, on_roll = position_id.decode(text)
        return cls(_side_from_board25(on_roll, checkers), _side_from_board25(not_on_roll, checkers))

    @classmethod
    def from_xgid(cls, text: str, *, checkers: int = 15) -> Position:
        """Read the position of an XGID, seen from the player on roll."""
        from engine.xgid import Xgid

        return Xgid.parse(text, checkers=checkers).position

    @classmethod
    def parse(cls, text: str, *, checkers: int = 15) -> Position:
        """Read a Position ID or an ``XGID=...`` string."""
        stripped = text.strip()
        if stripped.upper().startswith("XGID=") or stripped.count(":") >= 8:
            return cls.from_xgid(stripped, checkers=checkers)
        try:
            return cls.from_id(stripped, checkers=checkers)
        except NotationError as exc:
            raise NotationError(f"{exc}; or give an 'XGID=...' string") from None

    def position_id(self) -> str:
        """The GNU Backgammon Position ID with ``me`` on roll."""
        return position_id.encode(self.them[1:26], self.me[1:26])

    def xgid(self) -> str:
        """An XGID with ``me`` as the bottom player on roll, no dice, money play."""
        from engine.xgid import Xgid

        return str(Xgid(position=self))

    def swap(self) -> Position:
        """The same board seen by the opponent, who is now on roll."""
        return Position(self.them, self.me)

    def pips(self) -> tuple[int, int]:
        """Pip counts (mine, theirs): each checker counts its point; the bar counts 25."""
        return (
            sum(i * n for i, n in enumerate(self.me)),
            sum(i * n for i, n in enumerate(self.them)),
        )

    def diagram(self, rules: Rules = STANDARD, *, mine: str = "X", theirs: str = "O") -> str:
        """A text board from ``me``'s side: points 13-24 on top, 12-1 below.

        >>> print(Position.start().diagram().splitlines()[1])
         X5 .  .  .  O3 .  | O5 .  .  .  .  X2
        """
        cells: dict[int, str] = {}
        for point in range(1, 25):
            mine_n = self.me[point]
            theirs_n = self.them[rules.opposite(point)]
            if mine_n and theirs_n:
                cells[point] = "!!"
            elif mine_n:
                cells[point] = f"{mine}{mine_n if mine_n > 1 else ''}"
            elif theirs_n:
                cells[point] = f"{theirs}{theirs_n if theirs_n > 1 else ''}"
            else:
                cells[point] = "."

        def row(points: range) -> str:
            left = " ".join(f"{cells[p]:^2}" for p in list(points)[:6])
            right = " ".join(f"{cells[p]:^2}" for p in list(points)[6:])
            return f" {left} | {right}"

        my_pips, their_pips = self.pips()
        return "\n".join(
            [
                " 13 14 15 16 17 18   19 20 21 22 23 24",
                row(range(13, 25)),
                f"{'':18}bar {mine}{self.me[BAR]} {theirs}{self.them[BAR]}",
                row(range(12, 0, -1)),
                " 12 11 10  9  8  7    6  5  4  3  2  1",
                f" off {mine}{self.me[OFF]} {theirs}{self.them[OFF]}   pips {mine} {my_pips} {theirs} {their_pips}",
            ]
        )

    def __repr__(self) -> str:
        return f"Position.from_id({self.position_id()!r})"


def _side_from_board25(board: tuple[int, ...], checkers: int) -> Side:
    on_board = sum(board)
    if on_board > checkers:
        raise NotationError(f"{on_board} checkers on the board for one player; the rules give {checkers} (B4)")
    return (checkers - on_board, *board[:24], board[24])


def status(position: Position, rules: Rules = STANDARD) -> Status:
    """Every problem that makes ``position`` impossible under ``rules``; 0 if none.

    >>> status(Position.start())
    <Status.VALID: 0>
    >>> bad = Position((0,) * 26, Position.start().them)
    >>> status(bad)
    <Status.TOO_FEW_CHECKERS: 4>
    """
    problems = Status.VALID
    me, them = position.me, position.them
    if len(me) != 26 or len(them) != 26 or min(me) < 0 or min(them) < 0:
        return Status.BAD_SHAPE
    for total in (sum(me), sum(them)):
        if total > rules.checkers:
            problems |= Status.TOO_MANY_CHECKERS
        elif total < rules.checkers:
            problems |= Status.TOO_FEW_CHECKERS
    theirs = them[13:25] + them[1:13] if rules.long_geometry else them[24:0:-1]
    if any(map(operator.mul, me[1:25], theirs)):  # a product is non-zero where both have checkers
        problems |= Status.SHARED_POINT
    if position.me[OFF] >= rules.checkers and position.them[OFF] >= rules.checkers:
        problems |= Status.BOTH_BORNE_OFF
    return problems


def check(position: Position, rules: Rules = STANDARD, *, what: str = "position") -> Position:
    """``position`` itself, or a :class:`PositionError` naming its problems."""
    problems = status(position, rules)
    if problems:
        names = ", ".join(str(flag.name).lower().replace("_", " ") for flag in Status if flag and flag in problems)
        raise PositionError(f"{what} {position.position_id()!r} cannot exist: {names}")
    return position
