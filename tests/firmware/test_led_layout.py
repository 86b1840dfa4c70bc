"""LED layout from config: rails, spots, dice grids, validation."""

from __future__ import annotations

import dataclasses

import pytest

from firmware.config import ConfigError, LayoutConfig, default_config
from firmware.led_layout import LedLayout


def layout_config(**changes: object) -> LayoutConfig:
    return dataclasses.replace(default_config().layout, **changes)  # type: ignore[arg-type]


def test_led_layout_default_rails_follow_rectified_order() -> None:
    layout = LedLayout.from_config(layout_config())
    # bottom rail runs left to right from LED 0: points 0..5, 2 bar LEDs, points 6..11
    assert layout.indices(("bottom", 0)) == (0, 1, 2)
    assert layout.indices(("bottom", 5)) == (15, 16, 17)
    assert layout.indices(("bottom", 6)) == (20, 21, 22)
    assert layout.indices(("bottom", 11)) == (35, 36, 37)
    # top rail is wired right to left starting at 38
    assert layout.indices(("top", 11)) == (40, 39, 38)
    assert layout.indices(("top", 0)) == (75, 74, 73)
    assert layout.indices("bar") == (18, 19, 57, 56)
    assert layout.status == (76, 77)


def test_led_layout_every_led_used_once_by_default() -> None:
    layout = LedLayout.from_config(layout_config())
    used = [i for rail in layout.rails for i in rail] + list(layout.status) + list(layout.cube)
    used += [i for clock in layout.clocks for i in clock]
    used += [i for grids in layout.dice for grid in grids for row in grid for i in row]
    assert sorted(used) == list(range(layout.num_pixels))
    assert sorted(layout.positions()) == list(range(layout.num_pixels))
    assert len(set(layout.positions().values())) == layout.num_pixels


def test_led_layout_leds_per_point_changes_spots() -> None:
    layout = LedLayout.from_config(layout_config(leds_per_point=2, bar_leds=0, top_rail_start=24, num_pixels=200))
    assert layout.indices(("bottom", 6)) == (12, 13)
    assert layout.indices("bar") == ()


def test_led_layout_dice_two_squares_serpentine() -> None:
    layout = LedLayout.from_config(layout_config(dice_serpentine=True))
    first, second = layout.dice[0]
    assert first == ((102, 103, 104), (107, 106, 105), (108, 109, 110))
    assert second[0] == (111, 112, 113)


def test_led_layout_dice_8x8_matrix() -> None:
    layout = LedLayout.from_config(
        layout_config(dice_shape="matrix_8x8", player0_dice_start=144, player1_dice_start=208, num_pixels=272)
    )
    left, right = layout.dice[1]
    assert left[0] == (208 + 16, 208 + 17, 208 + 18)
    assert right[2] == (208 + 32 + 5, 208 + 32 + 6, 208 + 32 + 7)


def test_led_layout_out_of_range_names_key() -> None:
    with pytest.raises(ConfigError, match=r"'layout.cube_start' puts LED 144 past the end") as info:
        LedLayout.from_config(layout_config(cube_leds=7))
    assert info.value.key == "layout.cube_start"


def test_led_layout_overlap_names_both_keys() -> None:
    with pytest.raises(ConfigError, match=r"'layout.player1_clock_start' overlaps 'layout.player0_clock_start'"):
        LedLayout.from_config(layout_config(player1_clock_start=85))


def test_led_layout_delay_leds_fit_clock() -> None:
    with pytest.raises(ConfigError, match=r"layout.clock_delay_leds"):
        LedLayout.from_config(layout_config(clock_delay_leds=13))


def test_led_layout_unknown_spot_is_clear() -> None:
    layout = LedLayout.from_config(layout_config())
    with pytest.raises(ValueError, match=r"no LEDs for spot \('top', 12\)"):
        layout.indices(("top", 12))
