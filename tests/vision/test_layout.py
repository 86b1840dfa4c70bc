"""The layout mapping between rectified-board rows and engine positions (B2, B3)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.errors import PositionError
from engine.position import Position
from engine.rules import LONG_NARDY, STANDARD, Rules
from vision.layout import Home, Layout, Mover, layout_from_position, point_index, position_from_layout

MOVERS: tuple[Mover, ...] = ("light", "dark")
HOMES: tuple[Home, ...] = ("bottom-right", "bottom-left")


@st.composite
def positions(draw: st.DrawFn, rules: Rules = STANDARD) -> Position:
    """Any position with 15 checkers a side and no shared point."""
    me = [0] * 26
    them = [0] * 26
    for side, other in ((me, them), (them, me)):
        for _ in range(15):
            slot = draw(st.integers(0, 25))
            while 1 <= slot <= 24 and other[rules.opposite(slot)]:
                slot = draw(st.sampled_from([0, 25]))
            side[slot] += 1
    return Position(tuple(me), tuple(them))


def test_point_index_follows_issue_4_mapping() -> None:
    assert point_index(1) == ("bottom", 11)
    assert point_index(12) == ("bottom", 0)
    assert point_index(13) == ("top", 0)
    assert point_index(24) == ("top", 11)
    assert point_index(1, home="bottom-left") == ("bottom", 0)
    assert point_index(24, home="bottom-left") == ("top", 0)


def test_layout_start_position_point_by_point() -> None:
    layout = layout_from_position(Position.start())
    # mover (light): 24 -> top[11], 13 -> top[0], 8 -> bottom[4], 6 -> bottom[6]
    # opponent (dark): its 24 = mover's 1 -> bottom[11], its 13 = mover's 12 -> bottom[0],
    # its 8 = mover's 17 -> top[4], its 6 = mover's 19 -> top[6]
    assert layout.top == (5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2)
    assert layout.bottom == (-5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2)
    assert (layout.bar_light, layout.bar_dark, layout.off_light, layout.off_dark) == (0, 0, 0, 0)


def test_layout_start_position_dark_mover_bottom_left() -> None:
    layout = layout_from_position(Position.start(), mover="dark", home="bottom-left")
    # the mover (dark, negative) has its 24 point at top[0] and its 1 point at bottom[0]
    assert layout.top == (-2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5)
    assert layout.bottom == (2, 0, 0, 0, 0, -5, 0, -3, 0, 0, 0, 5)


def test_layout_bar_and_off_follow_the_mover_colour() -> None:
    me = [0] * 26
    them = [0] * 26
    me[25], me[0], me[6] = 2, 3, 10
    them[25], them[0], them[6] = 1, 4, 10
    position = Position(tuple(me), tuple(them))
    light = layout_from_position(position, mover="light")
    dark = layout_from_position(position, mover="dark")
    assert (light.bar_light, light.bar_dark, light.off_light, light.off_dark) == (2, 1, 3, 4)
    assert (dark.bar_light, dark.bar_dark, dark.off_light, dark.off_dark) == (1, 2, 4, 3)
    assert light.bottom[6] == 10 and light.top[6] == -10
    assert dark.bottom[6] == -10 and dark.top[6] == 10


@given(positions(), st.sampled_from(MOVERS), st.sampled_from(HOMES))
def test_layout_round_trip(position: Position, mover: Mover, home: Home) -> None:
    layout = layout_from_position(position, mover=mover, home=home)
    assert position_from_layout(layout, mover=mover, home=home) == position
    assert layout.light_total() == layout.dark_total() == 15


@given(positions(LONG_NARDY), st.sampled_from(MOVERS), st.sampled_from(HOMES))
def test_layout_round_trip_long_nardy(position: Position, mover: Mover, home: Home) -> None:
    layout = layout_from_position(position, mover=mover, home=home, rules=LONG_NARDY)
    assert position_from_layout(layout, mover=mover, home=home, rules=LONG_NARDY) == position


def test_layout_long_nardy_heads_are_diagonal() -> None:
    layout = layout_from_position(Position.start(LONG_NARDY), rules=LONG_NARDY)
    # mover's head (24) at top[11]; the opponent's 24 is the mover's 12: bottom[0]
    assert layout.top == (0,) * 11 + (15,)
    assert layout.bottom == (-15,) + (0,) * 11


@given(positions(), st.sampled_from(HOMES))
def test_layout_mirror_between_homes(position: Position, home: Home) -> None:
    right = layout_from_position(position, home="bottom-right")
    left = layout_from_position(position, home="bottom-left")
    assert left.top == right.top[::-1] and left.bottom == right.bottom[::-1]


def test_layout_rejects_shared_point() -> None:
    me = [0] * 26
    them = [0] * 26
    me[6] = 1
    them[19] = 1  # the mover's 6 point
    with pytest.raises(PositionError, match="M2"):
        layout_from_position(Position(tuple(me), tuple(them)))


def test_layout_rejects_bad_rows_and_options() -> None:
    with pytest.raises(PositionError, match="12 points"):
        Layout(top=(0,) * 11, bottom=(0,) * 12)
    with pytest.raises(PositionError, match="negative"):
        Layout(top=(0,) * 12, bottom=(0,) * 12, bar_dark=-1)
    with pytest.raises(PositionError, match="'up'"):
        layout_from_position(Position.start(), home="up")  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="'blue'"):
        layout_from_position(Position.start(), mover="blue")  # type: ignore[arg-type]
