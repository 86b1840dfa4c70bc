"""Buttons: real gpiozero Button objects driven through gpiozero's MockFactory."""

from __future__ import annotations

import dataclasses
import queue

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.config import ButtonsConfig, default_config
from firmware.hardware.buttons import ButtonError, ButtonEvent, ButtonHeld, ButtonPanel, ButtonPressed


def config(**changes: object) -> ButtonsConfig:
    return dataclasses.replace(default_config().buttons, **changes)  # type: ignore[arg-type]


@pytest.fixture
def factory() -> MockFactory:
    return MockFactory()


def test_buttons_main_press_posts_on_press(factory: MockFactory) -> None:
    events: list[ButtonEvent] = []
    panel = ButtonPanel(config(), post=events.append, pin_factory=factory)
    factory.pin(5).drive_low()
    assert events == [ButtonPressed("main", 0)]
    factory.pin(5).drive_high()
    factory.pin(13).drive_low()
    factory.pin(13).drive_high()
    factory.pin(16).drive_low()
    assert events == [ButtonPressed("main", 0), ButtonPressed("main", 1), ButtonPressed("pause")]
    panel.close()  # with pause still down: must not wait for a hold timer


def test_buttons_second_reports_tap_on_release(factory: MockFactory) -> None:
    events: list[ButtonEvent] = []
    panel = ButtonPanel(config(), post=events.append, pin_factory=factory)
    factory.pin(19).drive_low()
    assert events == []  # could still become a hold (resign)
    factory.pin(19).drive_high()
    assert events == [ButtonPressed("second", 1)]
    panel.close()


def test_buttons_second_held_posts_held_and_no_press(factory: MockFactory) -> None:
    """gpiozero's own hold timer fires (hold_s shortened; the test waits on the
    event queue, it does not sleep)."""
    events: queue.Queue[ButtonEvent] = queue.Queue()
    panel = ButtonPanel(config(hold_s=0.02), post=events.put, pin_factory=factory)
    factory.pin(6).drive_low()
    assert events.get(timeout=5) == ButtonHeld("second", 0)
    factory.pin(6).drive_high()
    assert events.empty()
    factory.pin(6).drive_low()
    factory.pin(6).drive_high()
    assert events.get(timeout=5) == ButtonPressed("second", 0)
    panel.close()


def test_buttons_new_game_needs_a_hold(factory: MockFactory) -> None:
    events: list[ButtonEvent] = []
    panel = ButtonPanel(config(), post=events.append, pin_factory=factory)
    panel.press("new_game")
    assert events == []
    panel.hold("new_game")
    assert events == [ButtonHeld("new_game")]
    panel.close()


def test_buttons_gpiozero_objects_get_config(factory: MockFactory) -> None:
    panel = ButtonPanel(config(bounce_s=0.05, hold_s=2.5), post=lambda e: None, pin_factory=factory)
    assert panel.button("main", 0).hold_time == 0.0
    button = panel.button("second", 1)
    assert button.pin_factory is factory
    assert button.pin is factory.pin(19)
    assert button.pin.bounce == pytest.approx(0.05)
    assert button.hold_time == pytest.approx(2.5)
    assert button.pull_up is True
    panel.close()


def test_buttons_simulated_levers() -> None:
    events: list[ButtonEvent] = []
    panel = ButtonPanel.simulated(config(), post=events.append)
    panel.press("main", 1)
    panel.press("second", 0)
    panel.hold("second", 1)
    panel.press("pause")
    assert events == [
        ButtonPressed("main", 1),
        ButtonPressed("second", 0),
        ButtonHeld("second", 1),
        ButtonPressed("pause"),
    ]
    with pytest.raises(ButtonError, match=r"no button 'main' for player None"):
        panel.press("main")
    panel.close()


def test_buttons_close_is_idempotent_and_frees_pins(factory: MockFactory) -> None:
    panel = ButtonPanel(config(), post=lambda e: None, pin_factory=factory)
    panel.close()
    panel.close()
    again = ButtonPanel(config(), post=lambda e: None, pin_factory=factory)  # pins free again
    again.close()


def test_buttons_pin_in_use_is_clear_error(factory: MockFactory) -> None:
    from gpiozero import LED

    led = LED(13, pin_factory=factory)
    with pytest.raises(ButtonError, match=r"player 1's main button on GPIO13"):
        ButtonPanel(config(), post=lambda e: None, pin_factory=factory)
    led.close()
    ButtonPanel(config(), post=lambda e: None, pin_factory=factory).close()  # first pins were released
