"""Buzzer patterns on a real gpiozero Buzzer over MockFactory, driven by ticks."""

from __future__ import annotations

import dataclasses

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.config import default_config
from firmware.hardware.buzzer import PATTERNS, Buzzer, BuzzerError


def run(buzzer: Buzzer, start_s: float, end_s: float, step_s: float = 0.01) -> list[bool]:
    """Pin level at each tick from start to end."""
    levels = []
    steps = round((end_s - start_s) / step_s)
    for k in range(steps + 1):
        buzzer.tick(start_s + k * step_s)
        levels.append(bool(buzzer._device.is_active))
    return levels


def spans(levels: list[bool], step_s: float = 0.01) -> list[tuple[bool, float]]:
    out: list[tuple[bool, float]] = []
    for level in levels:
        if out and out[-1][0] == level:
            out[-1] = (level, out[-1][1] + step_s)
        else:
            out.append((level, step_s))
    return [(level, round(length, 2)) for level, length in out]


def same_spans(actual: list[tuple[bool, float]], expected: list[tuple[bool, float]]) -> bool:
    """Equal levels, lengths within one 10 ms tick (ticks sample the schedule)."""
    return len(actual) == len(expected) and all(
        a == b and abs(x - y) <= 0.011 for (a, x), (b, y) in zip(actual, expected, strict=True)
    )


def test_buzzer_illegal_pattern_three_beeps() -> None:
    factory = MockFactory()
    buzzer = Buzzer(12, pin_factory=factory)
    buzzer.play("illegal", 100.0)
    levels = run(buzzer, 100.0, 101.0)
    expected = [(True, 0.12), (False, 0.08), (True, 0.12), (False, 0.08), (True, 0.12), (False, 0.49)]
    assert same_spans(spans(levels), expected)
    assert buzzer.playing is None
    pin = factory.pin(12)
    assert [s.state for s in pin.states] == [False, True, False, True, False, True, False]
    buzzer.close()


def test_buzzer_flag_fall_is_longest() -> None:
    total = {name: sum(on + off for on, off in spans_) for name, spans_ in PATTERNS.items()}
    assert total["flag_fall"] > total["illegal"] > total["low_time"]
    buzzer = Buzzer(12, pin_factory=MockFactory())
    buzzer.play("flag_fall", 0.0)
    assert sum(run(buzzer, 0.0, 3.0)) == pytest.approx(241, abs=2)  # 2.4 s on at 10 ms ticks
    buzzer.close()


def test_buzzer_mute_from_config_and_toggle() -> None:
    factory = MockFactory()
    config = dataclasses.replace(default_config().buzzer, mute=True)
    buzzer = Buzzer.from_config(config, pin_factory=factory)
    buzzer.play("illegal", 0.0)
    assert not any(run(buzzer, 0.0, 0.5))
    assert buzzer.toggle_mute() is False
    buzzer.play("low_time", 1.0)
    assert factory.pin(12).state
    buzzer.muted = True  # silences at once, mid-beep
    assert not factory.pin(12).state and buzzer.playing is None
    buzzer.close()


def test_buzzer_new_sound_replaces_old() -> None:
    buzzer = Buzzer(12, pin_factory=MockFactory())
    buzzer.play("flag_fall", 0.0)
    buzzer.play("low_time", 0.3)
    assert same_spans(spans(run(buzzer, 0.3, 0.5)), [(True, 0.05), (False, 0.16)])
    buzzer.close()


def test_buzzer_unknown_sound_and_close() -> None:
    buzzer = Buzzer.from_config(dataclasses.replace(default_config().buzzer, backend="simulated"))
    with pytest.raises(BuzzerError, match="unknown sound 'cheer'"):
        buzzer.play("cheer", 0.0)  # type: ignore[arg-type]
    buzzer.play("flag_fall", 0.0)
    buzzer.close()
    buzzer.close()
    buzzer.tick(0.1)


def test_buzzer_gpio_backend_needs_factory() -> None:
    with pytest.raises(BuzzerError, match="needs the board's pin factory"):
        Buzzer.from_config(default_config().buzzer)
