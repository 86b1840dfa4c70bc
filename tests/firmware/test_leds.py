"""LED strip backends: current cap, kept frames, drawings, the NeoPixel SPI backend."""

from __future__ import annotations

import dataclasses
import sys
import types
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware.config import default_config
from firmware.hardware import leds
from firmware.hardware.leds import (
    NeoPixelSpiStrip,
    SimulatedStrip,
    StripError,
    estimate_current_ma,
    limit_frame,
    open_strip,
)
from firmware.led_layout import LedLayout

WHITE = (255, 255, 255)


def layout() -> LedLayout:
    return LedLayout.from_config(default_config().layout)


def test_leds_current_estimate_full_white_is_60ma_plus_idle() -> None:
    assert estimate_current_ma([WHITE] * 100) == pytest.approx(100 * 61.0)
    assert estimate_current_ma([(0, 0, 0)] * 100) == pytest.approx(100.0)


def test_leds_cap_keeps_full_white_under_budget() -> None:
    strip = SimulatedStrip(144, max_current_ma=2500)
    strip.show([WHITE] * 144)
    shown = strip.latest
    assert estimate_current_ma(shown) <= 2500
    assert estimate_current_ma(shown) > 2500 * 0.97  # dimmed, not blacked out
    assert len(set(shown)) == 1 and shown[0][0] == shown[0][1] == shown[0][2]


def test_leds_cap_leaves_frames_within_budget_alone() -> None:
    frame = [(10, 0, 200)] + [(0, 0, 0)] * 143
    strip = SimulatedStrip(144, max_current_ma=2500)
    strip.show(frame)
    assert strip.latest == tuple(frame)


def test_leds_brightness_scales_before_cap() -> None:
    assert limit_frame([(200, 100, 0)], brightness=0.5) == ((100, 50, 0),)
    with pytest.raises(StripError, match="brightness 1.5"):
        limit_frame([(1, 1, 1)], brightness=1.5)


def test_leds_cap_with_budget_below_idle_turns_all_off() -> None:
    assert limit_frame([WHITE] * 10, max_current_ma=5) == ((0, 0, 0),) * 10


def test_leds_simulated_keeps_frames_with_clock_times() -> None:
    now = [0.0]
    strip = SimulatedStrip(3, clock=lambda: now[0])
    strip.show([(1, 2, 3)] * 3)
    now[0] = 1.25
    strip.show([(0, 0, 0), (9, 9, 9), (0, 0, 0)])
    assert [f.time_s for f in strip.frames] == [0.0, 1.25]
    assert strip.frames[0].pixels == ((1, 2, 3),) * 3
    assert strip.latest[1] == (9, 9, 9)


def test_leds_simulated_rejects_bad_frames() -> None:
    strip = SimulatedStrip(2)
    with pytest.raises(StripError, match="frame of 3 pixels for a strip of 2"):
        strip.show([WHITE] * 3)
    with pytest.raises(StripError, match=r"pixel 1 is \(0, 0, 256\)"):
        strip.show([WHITE, (0, 0, 256)])
    strip.close()
    strip.close()
    with pytest.raises(StripError, match="closed"):
        strip.show([WHITE] * 2)


def test_leds_terminal_drawing_shows_colours_at_layout_places() -> None:
    lay = layout()
    strip = SimulatedStrip(lay.num_pixels, layout=lay)
    frame = [(0, 0, 0)] * lay.num_pixels
    frame[lay.indices(("bottom", 0))[0]] = (255, 0, 0)
    strip.show(frame)
    text = strip.draw_terminal()
    lines = text.split("\n")
    _, y = lay.positions()[lay.indices(("bottom", 0))[0]]
    assert lines[y].startswith("\x1b[38;2;255;0;0m\u2588\u2588")
    assert text.count("38;2;255;0;0m") == 1


def test_leds_png_has_pixel_colours(tmp_path: Path) -> None:
    cv2 = pytest.importorskip("cv2")
    lay = layout()
    strip = SimulatedStrip(lay.num_pixels, layout=lay)
    frame = [(0, 0, 0)] * lay.num_pixels
    index = lay.status[1]
    frame[index] = (0, 255, 0)
    strip.show(frame)
    strip.save_png(tmp_path / "f.png", cell_px=10)
    image = cv2.imread(str(tmp_path / "f.png"))
    x, y = lay.positions()[index]
    assert tuple(image[y * 10 + 5, x * 10 + 5]) == (0, 255, 0)  # BGR of pure green
    x0, y0 = lay.positions()[0]
    assert tuple(image[y0 * 10 + 5, x0 * 10 + 5]) == (40, 40, 40)


def test_leds_drawing_needs_layout() -> None:
    with pytest.raises(StripError, match="needs a layout"):
        SimulatedStrip(4).draw_terminal()


def test_leds_neopixel_missing_library_is_loud(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "neopixel_spi", None)
    monkeypatch.setitem(sys.modules, "board", types.ModuleType("board"))
    monkeypatch.setitem(sys.modules, "busio", types.ModuleType("busio"))
    with pytest.raises(StripError, match=r"needs the Adafruit library \('neopixel_spi' is missing\)"):
        NeoPixelSpiStrip(10)


class FakePixels:
    def __init__(self, spi: object, n: int, **kwargs: Any) -> None:
        self.buffer = [(0, 0, 0)] * n
        self.kwargs = kwargs
        self.shown: list[list[tuple[int, int, int]]] = []

    def __setitem__(self, key: slice, value: Any) -> None:
        self.buffer[key] = list(value)

    def fill(self, colour: tuple[int, int, int]) -> None:
        self.buffer = [colour] * len(self.buffer)

    def show(self) -> None:
        self.shown.append(list(self.buffer))


class FakeSpi:
    deinits = 0

    def deinit(self) -> None:
        self.deinits += 1


def fake_library(monkeypatch: pytest.MonkeyPatch, device: Path) -> types.SimpleNamespace:
    made = types.SimpleNamespace(spi=FakeSpi(), pixels=None)

    def make_pixels(spi: object, n: int, **kwargs: Any) -> FakePixels:
        pixels = FakePixels(spi, n, **kwargs)
        made.pixels = pixels
        return pixels

    board = types.ModuleType("board")
    board.SPI = lambda: made.spi  # type: ignore[attr-defined]
    neo = types.ModuleType("neopixel_spi")
    neo.NeoPixel_SPI = make_pixels  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "board", board)
    monkeypatch.setitem(sys.modules, "busio", types.ModuleType("busio"))
    monkeypatch.setitem(sys.modules, "neopixel_spi", neo)
    monkeypatch.setattr(leds, "spi_device", lambda bus: device)
    return made


def test_leds_neopixel_missing_spi_device_is_loud(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    fake_library(monkeypatch, tmp_path / "spidev0.0")
    with pytest.raises(StripError, match=r"spidev0.0' is missing: enable SPI"):
        NeoPixelSpiStrip(10)


def test_leds_neopixel_shows_capped_frames_and_closes_once(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    device = tmp_path / "spidev0.0"
    device.touch()
    made = fake_library(monkeypatch, device)
    strip = NeoPixelSpiStrip(4, pixel_order="GRB", brightness=1.0, max_current_ma=124)
    assert made.pixels.kwargs == {"pixel_order": "GRB", "brightness": 1.0, "auto_write": False}
    strip.show([WHITE] * 4)
    assert estimate_current_ma(made.pixels.shown[-1]) <= 124
    assert made.pixels.shown[-1][0] == (127, 127, 127)
    strip.close()
    strip.close()
    assert made.pixels.shown[-1] == [(0, 0, 0)] * 4
    assert len(made.pixels.shown) == 2 and made.spi.deinits == 1


def test_leds_open_strip_from_config() -> None:
    config = dataclasses.replace(default_config().leds, backend="simulated", brightness=0.25)
    strip = open_strip(config, layout())
    assert isinstance(strip, SimulatedStrip)
    assert strip.num_pixels == 144 and strip.brightness == 0.25 and strip.max_current_ma == 2500


@pytest.mark.parametrize("backend", ["simulated", "neopixel_spi"])
def test_leds_strip_contract(backend: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Every backend: num_pixels, frame checks, the cap, idempotent close."""
    strip: leds.Strip
    if backend == "simulated":
        strip = SimulatedStrip(5, max_current_ma=100)
    else:
        device = tmp_path / "spidev0.0"
        device.touch()
        fake_library(monkeypatch, device)
        strip = NeoPixelSpiStrip(5, max_current_ma=100)
    assert strip.num_pixels == 5
    with pytest.raises(StripError, match="frame of 4 pixels"):
        strip.show([WHITE] * 4)
    with pytest.raises(StripError, match=r"pixel 0 is \(1, 2\)"):
        bad: list[Any] = [(1, 2)] + [WHITE] * 4
        strip.show(bad)
    strip.show([WHITE] * 5)
    strip.close()
    strip.close()
    with pytest.raises(StripError, match="closed"):
        strip.show([WHITE] * 5)


@given(
    frame=st.lists(st.tuples(*(st.integers(0, 255),) * 3), min_size=1, max_size=300),
    brightness=st.floats(0.0, 1.0),
    budget=st.integers(0, 20_000),
)
def test_leds_cap_never_exceeds_budget(frame: list[tuple[int, int, int]], brightness: float, budget: int) -> None:
    shown = limit_frame(frame, brightness=brightness, max_current_ma=budget)
    assert len(shown) == len(frame)
    idle = len(frame) * leds.IDLE_MA
    if budget >= idle:
        assert estimate_current_ma(shown) <= budget + 1e-9
    else:
        assert all(pixel == (0, 0, 0) for pixel in shown)
    # dimming keeps every channel at or below brightness-scaled input
    assert all(
        s <= int(c * brightness) + 1 for p, q in zip(frame, shown, strict=True) for c, s in zip(p, q, strict=True)
    )
