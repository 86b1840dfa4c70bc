"""The TOML config: defaults table, unknown keys, wrong types, line numbers."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine.errors import NardrefError
from firmware.config import (
    OPTIONS,
    ClockConfig,
    Config,
    ConfigError,
    default_config,
    default_config_text,
    load_config,
    parse_config,
)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_config_table_matches_dataclasses() -> None:
    sections = {f.name: f for f in dataclasses.fields(Config)}
    assert list(sections) == list(OPTIONS)
    config = default_config()
    for name, options in OPTIONS.items():
        section = getattr(config, name)
        assert [f.name for f in dataclasses.fields(section)] == list(options)
        for key, option in options.items():
            assert getattr(section, key) == option.default, f"{name}.{key}"
            assert option.help


def test_config_defaults_match_brief() -> None:
    config = default_config()
    assert config.journal.path == "/var/lib/nardref/journal.jsonl"
    assert config.layout.leds_per_point == 3
    assert config.camera.backend == "picamera2"
    assert config.leds.backend == "neopixel_spi"


def test_config_default_text_loads_back_equal(tmp_path: Path) -> None:
    text = default_config_text()
    assert "[layout]" in text and "# delay_s =" in text
    assert load_config(write(tmp_path, text)) == default_config()


def test_config_values_override_defaults(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, '[match]\nlength = 11\n\n[clock]\npreset = "tournament"\ndelay_s = 8\n'))
    assert config.match.length == 11
    assert config.clock.delay_s == 8.0 and isinstance(config.clock.delay_s, float)
    assert config.clock.resolve(match_length=11) == (8.0, 11 * 120.0, "match")
    assert config.match.crawford is True


def test_config_unknown_key_names_key_and_line(tmp_path: Path) -> None:
    text = "# comment\n[match]\nlength = 5\n\n[leds]\nbrightness = 0.4\nbrightnes = 0.3\n"
    with pytest.raises(ConfigError) as info:
        load_config(write(tmp_path, text))
    message = str(info.value)
    assert "'leds.brightnes'" in message and "line 7" in message
    assert info.value.key == "leds.brightnes" and info.value.line == 7
    assert isinstance(info.value, NardrefError) and isinstance(info.value, ValueError)


def test_config_same_key_in_other_section_finds_right_line(tmp_path: Path) -> None:
    text = '[camera]\nbackend = "opencv"\n[leds]\n# backend below\nbackend = "laser"\n'
    with pytest.raises(ConfigError, match=r"line 5: option 'leds.backend' must be one of"):
        load_config(write(tmp_path, text))


def test_config_wrong_type_names_key_and_line(tmp_path: Path) -> None:
    text = '[buttons]\nplayer0_main = 5\nhold_s = "long"\n'
    with pytest.raises(ConfigError, match=r"line 3: option 'buttons.hold_s' must be float, got 'long'"):
        load_config(write(tmp_path, text))


def test_config_bool_is_not_an_int(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"line 2: option 'match.length' must be int"):
        load_config(write(tmp_path, "[match]\nlength = true\n"))


def test_config_out_of_range_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"line 2: option 'leds.brightness' must be at most 1"):
        load_config(write(tmp_path, "[leds]\nbrightness = 1.5\n"))


def test_config_unknown_section_names_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"line 3: unknown section \[led\]"):
        load_config(write(tmp_path, "[match]\nlength = 3\n[led]\nx = 1\n"))


def test_config_missing_file_is_clear(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"does not exist"):
        load_config(tmp_path / "nope.toml")


def test_config_bad_toml_is_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"not valid TOML"):
        load_config(write(tmp_path, "[match\nlength = 3\n"))


def test_config_pin_used_twice_names_key_and_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"line 3: option 'buttons.player1_main' uses GPIO5, already used"):
        load_config(write(tmp_path, "[buttons]\n\nplayer1_main = 5\n"))


def test_config_pin_on_spi_is_refused() -> None:
    with pytest.raises(ConfigError, match=r"'buzzer.pin' uses GPIO10, which belongs to SPI0"):
        parse_config("[buzzer]\npin = 10\n")


def test_config_layout_overlap_names_key_and_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"line 2: option 'layout.cube_start' overlaps 'layout.status_start'"):
        load_config(write(tmp_path, "[layout]\ncube_start = 76\n"))


def test_config_clock_presets() -> None:
    assert ClockConfig("app", None, None, None).resolve(match_length=7) == (11.0, 90.0, "gammon")
    assert ClockConfig("off", 3.0, None, None).resolve(match_length=7) is None
    assert ClockConfig("app", None, 60.0, "match").resolve(match_length=0) == (11.0, 60.0, "match")


def test_config_wiring_doc_matches_default_pins() -> None:
    """hardware/wiring.md's pin map names the same GPIOs as the defaults."""
    import re

    doc = (Path(__file__).resolve().parents[2] / "hardware" / "wiring.md").read_text()
    rows = re.findall(r"\| GPIO(\d+) \| \d+ \| `\[(\w+)\] (\w+)` \|", doc)
    config = default_config()
    assert len(rows) == 7
    for gpio, section, key in rows:
        assert getattr(getattr(config, section), key) == int(gpio), (section, key)
    layout = config.layout
    assert f"| {layout.cube_start}–{layout.num_pixels - 1} | cube indicator" in doc


def test_config_key_outside_section_names_line(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"line 2: option 'length' stands outside any \[section\]"):
        load_config(write(tmp_path, "# match length\nlength = 5\n[match]\ncrawford = false\n"))


def test_config_layout_error_points_at_the_key_in_the_file(tmp_path: Path) -> None:
    """status_start moved onto the cube: the check names cube_start first, but
    only status_start is in the file, so its line is given."""
    with pytest.raises(ConfigError, match=r"line 3: option 'layout.cube_start' overlaps 'layout.status_start'") as info:
        load_config(write(tmp_path, "[layout]\n\nstatus_start = 138\n"))
    assert info.value.key == "layout.status_start" and info.value.line == 3
