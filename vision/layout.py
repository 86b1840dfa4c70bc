"""What stands where on the board as a camera sees it, and the mapping to and
from the engine's :class:`~engine.position.Position`.

A :class:`Layout` is in *rectified-board* terms: ``top`` runs along the
TL->TR edge of the playing area and ``bottom`` along the BL->BR edge, each left
to right; ``+n`` is n light checkers and ``-n`` n dark ones.

The mapping is the standard geometry of rule B2 (my point n is the opponent's
point 25 - n): with the mover's home bottom-right (B3), the mover's points
1..12 run right to left along the bottom edge (point 1 = ``bottom[11]``,
point 12 = ``bottom[0]``) and 13..24 left to right along the top (point 13 =
``top[0]``, point 24 = ``top[11]``); the opponent's home is then the top-right
quadrant. Home bottom-left is the mirror image. Pass ``rules`` for long nardy
(V3), where my point n is the opponent's n +/- 12 (``Rules.opposite``): the
mover's points stand where they stand in the standard game, the opponent's
shift by half the board.

>>> point_index(1, home="bottom-right")
('bottom', 11)
>>> point_index(13, home="bottom-left")
('top', 11)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from engine.errors import PositionError
from engine.position import Position
from engine.rules import STANDARD, Rules

Mover = Literal["light", "dark"]
Home = Literal["bottom-right", "bottom-left"]
Edge = Literal["top", "bottom"]

POINTS_PER_EDGE = 12


@dataclass(frozen=True)
class Layout:
    """What stands where, in rectified-board terms (what a camera sees)."""

    top: tuple[int, ...]
    """12 points along the TL->TR edge, left to right; +n = n light checkers, -n = n dark."""
    bottom: tuple[int, ...]
    """12 points along the BL->BR edge, left to right."""
    bar_light: int = 0
    bar_dark: int = 0
    off_light: int = 0
    off_dark: int = 0

    def __post_init__(self) -> None:
        for name in ("top", "bottom"):
            row = getattr(self, name)
            if len(row) != POINTS_PER_EDGE:
                raise PositionError(f"layout {name} {row!r}: expected {POINTS_PER_EDGE} points, got {len(row)}")
        for name in ("bar_light", "bar_dark", "off_light", "off_dark"):
            if getattr(self, name) < 0:
                raise PositionError(f"layout {name}={getattr(self, name)!r}: a count cannot be negative")

    def light_total(self) -> int:
        """Light checkers on points, bar and off."""
        on_points = sum(n for n in self.top + self.bottom if n > 0)
        return on_points + self.bar_light + self.off_light

    def dark_total(self) -> int:
        """Dark checkers on points, bar and off."""
        on_points = sum(-n for n in self.top + self.bottom if n < 0)
        return on_points + self.bar_dark + self.off_dark

    def to_dict(self) -> dict[str, object]:
        """The JSON shape of ``nardref detect``: top, bottom, bar, off."""
        return {
            "top": list(self.top),
            "bottom": list(self.bottom),
            "bar": {"light": self.bar_light, "dark": self.bar_dark},
            "off": {"light": self.off_light, "dark": self.off_dark},
        }


def _check_options(mover: str, home: str) -> None:
    if mover not in get_args(Mover):
        raise PositionError(f"mover {mover!r}: expected one of {', '.join(get_args(Mover))}")
    if home not in get_args(Home):
        raise PositionError(f"home {home!r}: expected one of {', '.join(get_args(Home))} (B3)")


def point_index(point: int, *, home: Home = "bottom-right") -> tuple[Edge, int]:
    """Where the mover's ``point`` (1..24, B2) lies: the edge and the index
    along it, left to right in the rectified board."""
    if not 1 <= point <= 24:
        raise PositionError(f"point {point!r}: expected 1..24 (B1)")
    _check_options("light", home)
    if point <= POINTS_PER_EDGE:
        edge: Edge = "bottom"
        index = POINTS_PER_EDGE - point  # point 1 at the right end
    else:
        edge = "top"
        index = point - 13  # point 13 at the left end
    if home == "bottom-left":
        index = POINTS_PER_EDGE - 1 - index
    return edge, index


def layout_from_position(
    position: Position, *, mover: Mover = "light", home: Home = "bottom-right", rules: Rules = STANDARD
) -> Layout:
    """The board a camera sees for ``position`` (``position.me`` is the mover,
    playing the ``mover`` colour, with home on the ``home`` side; B2, B3)."""
    _check_options(mover, home)
    sign = 1 if mover == "light" else -1
    rows: dict[Edge, list[int]] = {"top": [0] * POINTS_PER_EDGE, "bottom": [0] * POINTS_PER_EDGE}
    for point in range(1, 25):
        mine = position.me[point]
        theirs = position.them[rules.opposite(point)]
        if mine and theirs:
            raise PositionError(
                f"position {position!r}: both players on the mover's point {point} ({mine} and {theirs} checkers; M2)"
            )
        edge, index = point_index(point, home=home)
        rows[edge][index] = sign * (mine - theirs)
    me_bar, them_bar = position.me[25], position.them[25]
    me_off, them_off = position.me[0], position.them[0]
    light_is_me = mover == "light"
    return Layout(
        top=tuple(rows["top"]),
        bottom=tuple(rows["bottom"]),
        bar_light=me_bar if light_is_me else them_bar,
        bar_dark=them_bar if light_is_me else me_bar,
        off_light=me_off if light_is_me else them_off,
        off_dark=them_off if light_is_me else me_off,
    )


def position_from_layout(
    layout: Layout, *, mover: Mover = "light", home: Home = "bottom-right", rules: Rules = STANDARD
) -> Position:
    """The engine position (seen from the mover) that ``layout`` shows; the
    inverse of :func:`layout_from_position`. Borne-off counts are taken from
    the layout as given (a reader that cannot see the trays fills them in)."""
    _check_options(mover, home)
    sign = 1 if mover == "light" else -1
    rows = {"top": layout.top, "bottom": layout.bottom}
    me = [0] * 26
    them = [0] * 26
    for point in range(1, 25):
        edge, index = point_index(point, home=home)
        count = sign * rows[edge][index]
        if count > 0:
            me[point] = count
        elif count < 0:
            them[rules.opposite(point)] = -count
    light_is_me = mover == "light"
    me[25], them[25] = (layout.bar_light, layout.bar_dark) if light_is_me else (layout.bar_dark, layout.bar_light)
    me[0], them[0] = (layout.off_light, layout.off_dark) if light_is_me else (layout.off_dark, layout.off_light)
    return Position(tuple(me), tuple(them))
