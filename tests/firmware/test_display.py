"""LED pictures: each checked by the colours at the layout's indices."""

from __future__ import annotations

import dataclasses

import pytest

from firmware.config import default_config
from firmware.display import (
    DEFAULT_STYLE,
    PIPS,
    ClockView,
    CubeView,
    DisplayState,
    DisplayStyle,
    Fault,
    IllegalView,
    ScoreView,
    render_frame,
)
from firmware.led_layout import LedLayout

LAYOUT = LedLayout.from_config(default_config().layout)
OFF = (0, 0, 0)
LIGHT = DEFAULT_STYLE.checker["light"]
DARK = DEFAULT_STYLE.checker["dark"]
ON_S = 0.1  # first half of the blink period: blinking things are on
OFF_S = 0.4  # second half: blinking things are off


def colours_at(frame: tuple[tuple[int, int, int], ...], indices: tuple[int, ...]) -> set[tuple[int, int, int]]:
    return {frame[i] for i in indices}


def lit(frame: tuple[tuple[int, int, int], ...]) -> set[int]:
    return {i for i, pixel in enumerate(frame) if pixel != OFF}


def test_display_empty_state_is_dark_except_centred_cube() -> None:
    frame = render_frame(DisplayState(), 0.0, LAYOUT)
    assert len(frame) == LAYOUT.num_pixels
    assert lit(frame) == {LAYOUT.cube[0]}
    assert render_frame(DisplayState(cube=None), 0.0, LAYOUT) == ((0, 0, 0),) * LAYOUT.num_pixels


def test_display_turn_lights_status_and_dim_rail() -> None:
    frame = render_frame(DisplayState(turn=1, cube=None), 0.0, LAYOUT)
    assert frame[LAYOUT.status[1]] == DARK and frame[LAYOUT.status[0]] == OFF
    top = colours_at(frame, LAYOUT.rails[1])
    assert len(top) == 1 and sum(top.pop()) < sum(DARK) // 4
    assert colours_at(frame, LAYOUT.rails[0]) == {OFF}


def test_display_dice_faces_have_real_pips() -> None:
    for value, pips in PIPS.items():
        frame = render_frame(DisplayState(dice=((), (value, 1)), cube=None), 0.0, LAYOUT)
        first, second = LAYOUT.dice[1]
        lit_cells = {(r, c) for r in range(3) for c in range(3) if frame[first[r][c]] != OFF}
        assert lit_cells == set(pips), value
        assert len(lit_cells) == value
        assert frame[second[1][1]] == DARK and len(lit(frame)) == value + 1
    assert set(PIPS[6]) == {(r, c) for r in range(3) for c in (0, 2)}


def test_display_opening_roll_one_die_each() -> None:
    frame = render_frame(DisplayState(dice=((6,), (3,)), cube=None), 0.0, LAYOUT)
    assert sum(frame[i] == LIGHT for grid in LAYOUT.dice[0] for row in grid for i in row) == 6
    assert sum(frame[i] == DARK for grid in LAYOUT.dice[1] for row in grid for i in row) == 3


def test_display_forced_pass_dice_in_red() -> None:
    frame = render_frame(DisplayState(dice=((2, 1), ()), forced_pass=True, cube=None), 0.0, LAYOUT)
    assert {frame[i] for i in lit(frame)} == {DEFAULT_STYLE.flag}


def test_display_bad_die_value_is_error() -> None:
    with pytest.raises(ValueError, match="die value 7"):
        render_frame(DisplayState(dice=((7, 1), ())), 0.0, LAYOUT)


def clock(delay: float, reserve: float) -> ClockView:
    return ClockView(delay_left_s=delay, reserve_left_s=reserve, delay_total_s=12.0, reserve_total_s=90.0)


def test_display_clock_spends_delay_first() -> None:
    bar = LAYOUT.clocks[0]
    reserve, delay = bar[:9], bar[9:]
    full = render_frame(DisplayState(clocks=(clock(12.0, 90.0), clock(12.0, 90.0)), cube=None), 0.0, LAYOUT)
    assert colours_at(full, delay) == {DEFAULT_STYLE.delay}
    assert colours_at(full, reserve) == {LIGHT}
    half_delay = render_frame(DisplayState(clocks=(clock(6.0, 90.0), clock(12.0, 90.0)), cube=None), 0.0, LAYOUT)
    assert half_delay[delay[0]] == DEFAULT_STYLE.delay
    assert half_delay[delay[2]] == OFF
    assert 0 < sum(half_delay[delay[1]]) < sum(DEFAULT_STYLE.delay)  # the partial LED
    assert colours_at(half_delay, reserve) == {LIGHT}
    spent = render_frame(DisplayState(clocks=(clock(0.0, 45.0), clock(12.0, 90.0)), cube=None), 0.0, LAYOUT)
    assert colours_at(spent, delay) == {OFF}
    assert [spent[i] == LIGHT for i in reserve] == [True] * 4 + [False] * 5
    assert 0 < sum(spent[reserve[4]]) < sum(LIGHT)


def test_display_clock_warning_blinks_only_on_turn() -> None:
    state = DisplayState(turn=0, clocks=(clock(0.0, 12.0), clock(0.0, 12.0)), cube=None)
    on = render_frame(state, ON_S, LAYOUT)
    off = render_frame(state, OFF_S, LAYOUT)
    first0, first1 = LAYOUT.clocks[0][0], LAYOUT.clocks[1][0]
    assert on[first0] == DEFAULT_STYLE.warning and off[first0] == OFF
    assert on[first1] == DEFAULT_STYLE.warning and off[first1] == DEFAULT_STYLE.warning


def test_display_flag_fall_blinks_whole_bar_red() -> None:
    state = DisplayState(turn=1, clocks=(clock(12.0, 90.0), clock(0.0, 0.0)), cube=None)
    assert colours_at(render_frame(state, ON_S, LAYOUT), LAYOUT.clocks[1]) == {DEFAULT_STYLE.flag}
    assert colours_at(render_frame(state, OFF_S, LAYOUT), LAYOUT.clocks[1]) == {OFF}


def test_display_illegal_flashes_points_and_shows_nearest() -> None:
    illegal = IllegalView(wrong=(("bottom", 3), "bar"), nearest_from=(("top", 0),), nearest_to=(("top", 6),))
    state = DisplayState(illegal=illegal, cube=None)
    on, off = render_frame(state, ON_S, LAYOUT), render_frame(state, OFF_S, LAYOUT)
    for spot in (("bottom", 3), "bar"):
        assert colours_at(on, LAYOUT.indices(spot)) == {DEFAULT_STYLE.wrong}
        assert colours_at(off, LAYOUT.indices(spot)) == {OFF}
    for frame in (on, off):
        assert colours_at(frame, LAYOUT.indices(("top", 0))) == {DEFAULT_STYLE.nearest_from}
        assert colours_at(frame, LAYOUT.indices(("top", 6))) == {DEFAULT_STYLE.nearest_to}
    assert colours_at(on, LAYOUT.indices(("bottom", 4))) == {OFF}


def test_display_steady_freezes_blinking() -> None:
    state = DisplayState(
        turn=0,
        illegal=IllegalView(wrong=(("top", 2),)),
        clocks=(clock(0.0, 5.0), clock(0.0, 5.0)),
        cube=CubeView(value=2, owner=None, offered_by=0),
        faults=frozenset({Fault.TOO_DARK}),
        steady=True,
    )
    frames = {render_frame(state, t / 10, LAYOUT) for t in range(40)}
    assert len(frames) == 1
    blinking = dataclasses.replace(state, steady=False)
    assert len({render_frame(blinking, t / 10, LAYOUT) for t in range(40)}) > 1


def test_display_setup_check_lights_wrong_points() -> None:
    frame = render_frame(DisplayState(setup_wrong=(("bottom", 0), ("top", 11)), cube=None), 0.0, LAYOUT)
    expected = set(LAYOUT.indices(("bottom", 0))) | set(LAYOUT.indices(("top", 11)))
    assert lit(frame) == expected
    assert {frame[i] for i in expected} == {DEFAULT_STYLE.setup}


def test_display_fault_is_amber_and_distinct_from_illegal() -> None:
    state = DisplayState(faults=frozenset({Fault.CAMERA_LOST}), illegal=IllegalView(wrong=(("bottom", 5),)))
    frame = render_frame(state, ON_S, LAYOUT)
    style = DEFAULT_STYLE
    code = set(LAYOUT.indices(("bottom", 0))) | set(LAYOUT.indices(("top", 0)))
    assert {frame[i] for i in code} == {style.fault}
    rest = [i for rail in LAYOUT.rails for i in rail if i not in code]
    dim = {frame[i] for i in rest}
    assert len(dim) == 1 and dim.pop()[2] == 0  # dim amber, no red flash left on the rails
    assert style.wrong not in {frame[i] for rail in LAYOUT.rails for i in rail}
    pulses = {render_frame(state, t / 10, LAYOUT)[LAYOUT.status[0]] for t in range(20)}
    assert len(pulses) > 3 and all(g > 0 and b == 0 for _, g, b in pulses)


def test_display_fault_codes_differ() -> None:
    frames = {f: render_frame(DisplayState(faults=frozenset({f}), cube=None), 0.0, LAYOUT) for f in Fault}
    assert len(set(frames.values())) == len(Fault)
    hand = frames[Fault.HAND_OVER_BOARD]
    assert colours_at(hand, LAYOUT.indices(("bottom", 3))) == {DEFAULT_STYLE.fault}


def test_display_cube_owner_value_and_offer() -> None:
    owned = render_frame(DisplayState(cube=CubeView(value=8, owner=1)), 0.0, LAYOUT)
    assert [owned[i] for i in LAYOUT.cube] == [DARK] * 3 + [OFF] * 3
    centred = render_frame(DisplayState(cube=CubeView(value=2)), 0.0, LAYOUT)
    assert [centred[i] for i in LAYOUT.cube] == [(255, 255, 255)] + [OFF] * 5
    offer = DisplayState(turn=0, cube=CubeView(value=2, owner=0, offered_by=0))
    on, off = render_frame(offer, ON_S, LAYOUT), render_frame(offer, OFF_S, LAYOUT)
    assert [on[i] for i in LAYOUT.cube[:3]] == [LIGHT, LIGHT, OFF]  # offered value 4
    assert [off[i] for i in LAYOUT.cube[:2]] == [OFF, OFF]
    assert on[LAYOUT.status[1]] == (255, 255, 255) and off[LAYOUT.status[1]] == OFF  # the taker's side
    assert on[LAYOUT.status[0]] == LIGHT


def test_display_resign_and_pause_blink_status() -> None:
    resign = DisplayState(resign_offered_by=1, cube=None)
    assert render_frame(resign, ON_S, LAYOUT)[LAYOUT.status[0]] == (255, 255, 255)
    assert render_frame(resign, OFF_S, LAYOUT)[LAYOUT.status[0]] == OFF
    paused = render_frame(DisplayState(turn=0, paused=True, cube=None), ON_S, LAYOUT)
    assert colours_at(paused, LAYOUT.status) == {(255, 255, 255)}


def test_display_game_over_shows_score() -> None:
    state = DisplayState(score=ScoreView(scores=(3, 5), match_length=7, winner=1), turn=1, cube=None)
    frame = render_frame(state, 0.0, LAYOUT)
    bar0, bar1 = LAYOUT.clocks
    assert [frame[i] == LIGHT for i in bar0[:7]] == [True] * 3 + [False] * 4
    assert [frame[i] == DARK for i in bar1[:7]] == [True] * 5 + [False] * 2
    assert frame[bar0[6]] == frame[bar1[6]] == (51, 51, 51)  # the match-length mark
    winner_rail = colours_at(frame, LAYOUT.rails[1])
    assert len(winner_rail) == 1 and winner_rail.pop() != OFF
    assert colours_at(frame, LAYOUT.rails[0]) == {OFF}


def test_display_colours_follow_players() -> None:
    frame = render_frame(DisplayState(turn=0, colours=("dark", "light"), cube=None), 0.0, LAYOUT)
    assert frame[LAYOUT.status[0]] == DARK


def test_display_style_from_config() -> None:
    leds = dataclasses.replace(default_config().leds, blink_period_s=2.0, warn_reserve_s=30.0)
    style = DisplayStyle.from_config(leds)
    state = DisplayState(turn=0, clocks=(clock(0.0, 20.0), clock(0.0, 80.0)), cube=None)
    frame = render_frame(state, 1.5, LAYOUT, style=style)  # second half of a 2 s period: off
    assert frame[LAYOUT.clocks[0][0]] == OFF
    assert render_frame(state, 0.5, LAYOUT, style=style)[LAYOUT.clocks[0][0]] == style.warning
