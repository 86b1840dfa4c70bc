"""The shared pin factory: simulated is MockFactory, gpio without lgpio is loud."""

from __future__ import annotations

import sys

import pytest
from gpiozero.pins.mock import MockFactory

from firmware.hardware.pins import PinFactoryError, open_pin_factory


def test_pins_simulated_is_mock_factory() -> None:
    assert isinstance(open_pin_factory("simulated"), MockFactory)


def test_pins_gpio_without_lgpio_is_loud(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "lgpio", None)
    monkeypatch.delitem(sys.modules, "gpiozero.pins.lgpio", raising=False)
    with pytest.raises(PinFactoryError, match=r"needs lgpio \('lgpio' is missing\)"):
        open_pin_factory("gpio")


def test_pins_unknown_backend() -> None:
    with pytest.raises(PinFactoryError, match="unknown GPIO backend 'spi'"):
        open_pin_factory("spi")
