"""The LED strip: a :class:`Strip` protocol, the NeoPixel SPI backend and a simulated one.

A *frame* is one ``(r, g, b)`` tuple of ints 0..255 per pixel of the chain.
Both backends pass every frame through :func:`limit_frame`, which applies the
configured brightness and then dims the frame as a whole so that the estimated
supply current (:func:`estimate_current_ma`: about 20 mA per colour channel at
full, so 60 mA per pixel at full white, plus about 1 mA per pixel idle) never
exceeds the supply budget ``max_current_ma``.
"""

from __future__ import annotations

import logging
import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.errors import NardrefError

if TYPE_CHECKING:
    from firmware.config import LedsConfig
    from firmware.led_layout import LedLayout

__all__ = [
    "CHANNEL_MA",
    "IDLE_MA",
    "Frame",
    "NeoPixelSpiStrip",
    "Rgb",
    "ShownFrame",
    "SimulatedStrip",
    "Strip",
    "StripError",
    "estimate_current_ma",
    "frame_image",
    "limit_frame",
    "open_strip",
    "render_ansi",
]

log = logging.getLogger(__name__)

Rgb = tuple[int, int, int]
Frame = tuple[Rgb, ...]

#: Current of one colour channel of a WS2812B at full (about 20 mA).
CHANNEL_MA = 20.0
#: Quiescent current of one WS2812B with all channels off (about 1 mA).
IDLE_MA = 1.0


class StripError(NardrefError, RuntimeError):
    """The LED strip cannot be driven (library or SPI device missing, bad frame)."""


class Strip(Protocol):
    """What the display needs from an LED chain."""

    @property
    def num_pixels(self) -> int: ...

    def show(self, frame: Sequence[Rgb]) -> None:
        """Show one frame (exactly ``num_pixels`` colours)."""

    def close(self) -> None:
        """Turn the pixels off and release the device; safe to call twice."""


def estimate_current_ma(frame: Sequence[Rgb]) -> float:
    """Estimated supply current of a frame in mA.

    >>> estimate_current_ma([(255, 255, 255), (0, 0, 0)])
    62.0
    """
    channels = sum(r + g + b for r, g, b in frame)
    return IDLE_MA * len(frame) + CHANNEL_MA * channels / 255.0


def _check_frame(frame: Sequence[Rgb], num_pixels: int) -> None:
    if len(frame) != num_pixels:
        raise StripError(f"frame of {len(frame)} pixels for a strip of {num_pixels}")
    for index, pixel in enumerate(frame):
        if len(pixel) != 3 or not all(isinstance(v, int) and 0 <= v <= 255 for v in pixel):
            raise StripError(f"pixel {index} is {pixel!r}: expected (r, g, b) ints 0..255")


def limit_frame(frame: Sequence[Rgb], *, brightness: float = 1.0, max_current_ma: float | None = None) -> Frame:
    """The frame scaled by ``brightness`` and then dimmed to stay within ``max_current_ma``.

    Values are rounded down, so the estimate of the result never exceeds the
    budget (when even all-off pixels draw more, the frame is all off).

    >>> limit_frame([(255, 255, 255)] * 2, max_current_ma=62.0)
    ((127, 127, 127), (127, 127, 127))
    """
    if not 0.0 <= brightness <= 1.0:
        raise StripError(f"brightness {brightness!r} is outside 0..1")
    scale = brightness
    if max_current_ma is not None:
        idle = IDLE_MA * len(frame)
        lit = estimate_current_ma(frame) - idle
        if lit * scale > max_current_ma - idle:
            scale = max(0.0, (max_current_ma - idle) / lit) if lit > 0 else scale
    if scale >= 1.0:
        return tuple((r, g, b) for r, g, b in frame)
    return tuple((math.floor(r * scale), math.floor(g * scale), math.floor(b * scale)) for r, g, b in frame)


@dataclass(frozen=True)
class ShownFrame:
    """A frame as the simulated strip showed it (after brightness and the cap)."""

    time_s: float | None
    pixels: Frame


class SimulatedStrip:
    """A strip that keeps every frame it is shown, for tests, the demo and pictures.

    ``clock`` (seconds, e.g. the referee's injected clock) stamps each frame;
    ``keep`` bounds how many frames are kept (None: all). ``layout`` places the
    pixels for :meth:`draw_terminal` and :meth:`save_png`.
    """

    def __init__(
        self,
        num_pixels: int,
        *,
        brightness: float = 1.0,
        max_current_ma: float | None = None,
        clock: Callable[[], float] | None = None,
        layout: LedLayout | None = None,
        keep: int | None = None,
    ) -> None:
        if num_pixels < 1:
            raise StripError(f"num_pixels must be at least 1, got {num_pixels!r}")
        self._num_pixels = num_pixels
        self.brightness = brightness
        self.max_current_ma = max_current_ma
        self._clock = clock
        self.layout = layout
        self.frames: deque[ShownFrame] = deque(maxlen=keep)
        self.closed = False

    @property
    def num_pixels(self) -> int:
        return self._num_pixels

    def show(self, frame: Sequence[Rgb]) -> None:
        if self.closed:
            raise StripError("show() on a closed strip")
        _check_frame(frame, self._num_pixels)
        pixels = limit_frame(frame, brightness=self.brightness, max_current_ma=self.max_current_ma)
        self.frames.append(ShownFrame(None if self._clock is None else self._clock(), pixels))

    @property
    def latest(self) -> Frame:
        """The last frame shown (all off before the first)."""
        return self.frames[-1].pixels if self.frames else ((0, 0, 0),) * self._num_pixels

    def close(self) -> None:
        self.closed = True

    def draw_terminal(self) -> str:
        """The latest frame as ANSI 24-bit colour text, laid out by the layout."""
        return render_ansi(self.latest, self._layout())

    def save_png(self, path: str | Path, *, cell_px: int = 12) -> None:
        """Write the latest frame as a PNG picture of the layout (needs OpenCV)."""
        import cv2

        image = frame_image(self.latest, self._layout(), cell_px=cell_px)
        if not cv2.imwrite(str(path), image[:, :, ::-1]):
            raise StripError(f"cannot write PNG {str(path)!r}")

    def _layout(self) -> LedLayout:
        if self.layout is None:
            raise StripError("drawing the strip needs a layout: SimulatedStrip(..., layout=LedLayout...)")
        return self.layout


def render_ansi(frame: Sequence[Rgb], layout: LedLayout) -> str:
    """Text picture of a frame: each placed pixel is a coloured block, off pixels a dim dot."""
    positions = layout.positions()
    width = max(x for x, _ in positions.values()) + 1
    height = max(y for _, y in positions.values()) + 1
    cells = [["  "] * width for _ in range(height)]
    for index, (x, y) in positions.items():
        r, g, b = frame[index]
        cells[y][x] = f"\x1b[38;2;{r};{g};{b}m\u2588\u2588\x1b[0m" if r or g or b else "\x1b[2m\u00b7\u00b7\x1b[0m"
    return "\n".join("".join(row).rstrip() for row in cells)


def frame_image(frame: Sequence[Rgb], layout: LedLayout, *, cell_px: int = 12) -> Any:
    """RGB image (uint8, shape (rows*cell_px, cols*cell_px, 3)) of a frame; off pixels dark grey."""
    import numpy as np

    positions = layout.positions()
    width = max(x for x, _ in positions.values()) + 1
    height = max(y for _, y in positions.values()) + 1
    image = np.zeros((height * cell_px, width * cell_px, 3), dtype=np.uint8)
    pad = max(1, cell_px // 6)
    for index, (x, y) in positions.items():
        colour = frame[index] if any(frame[index]) else (40, 40, 40)
        image[y * cell_px + pad : (y + 1) * cell_px - pad, x * cell_px + pad : (x + 1) * cell_px - pad] = colour
    return image


def spi_device(bus: int) -> Path:
    """The spidev node of an SPI bus (chip select 0)."""
    return Path(f"/dev/spidev{bus}.0")


class NeoPixelSpiStrip:
    """WS2812/NeoPixel chain on the SPI MOSI line through Adafruit's ``neopixel_spi``.

    Works on a Pi 4 and a Pi 5 without root (the user needs the ``spi`` group).
    Needs the ``[pi]`` extra (adafruit-circuitpython-neopixel-spi) and SPI
    enabled; either missing is a :class:`StripError`, never a simulation.
    """

    def __init__(
        self,
        num_pixels: int,
        *,
        spi_bus: int = 0,
        pixel_order: str = "GRB",
        brightness: float = 1.0,
        max_current_ma: float | None = None,
    ) -> None:
        try:
            import board
            import busio
            import neopixel_spi
        except ImportError as exc:
            raise StripError(
                f"LED backend 'neopixel_spi' needs the Adafruit library ({exc.name!r} is missing): "
                "pip install 'nardref[pi]', or set [leds] backend = \"simulated\""
            ) from None
        device = spi_device(spi_bus)
        if not device.exists():
            raise StripError(
                f"SPI device {str(device)!r} is missing: enable SPI (sudo raspi-config nonint do_spi 0, "
                "or dtparam=spi=on in /boot/firmware/config.txt) and reboot"
            )
        try:
            spi = (
                board.SPI()
                if spi_bus == 0
                else busio.SPI(getattr(board, f"SCLK_{spi_bus}"), MOSI=getattr(board, f"MOSI_{spi_bus}"))
            )
            self._pixels = neopixel_spi.NeoPixel_SPI(
                spi, num_pixels, pixel_order=pixel_order, brightness=1.0, auto_write=False
            )
        except PermissionError as exc:
            raise StripError(f"cannot open {str(device)!r} ({exc}): add the user to the 'spi' group") from None
        except (OSError, ValueError, AttributeError) as exc:
            raise StripError(f"cannot drive the LED strip on {str(device)!r}: {exc}") from None
        self._spi = spi
        self._num_pixels = num_pixels
        self.brightness = brightness
        self.max_current_ma = max_current_ma
        self._closed = False
        log.info("LED strip: %d pixels on %s, order %s", num_pixels, device, pixel_order)

    @property
    def num_pixels(self) -> int:
        return self._num_pixels

    def show(self, frame: Sequence[Rgb]) -> None:
        if self._closed:
            raise StripError("show() on a closed strip")
        _check_frame(frame, self._num_pixels)
        pixels = limit_frame(frame, brightness=self.brightness, max_current_ma=self.max_current_ma)
        self._pixels[:] = pixels
        self._pixels.show()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._pixels.fill((0, 0, 0))
            self._pixels.show()
        finally:
            deinit = getattr(self._spi, "deinit", None)
            if deinit is not None:
                deinit()


def open_strip(config: LedsConfig, layout: LedLayout, *, clock: Callable[[], float] | None = None) -> Strip:
    """The strip the ``[leds]`` config asks for (``clock`` stamps simulated frames)."""
    if config.backend == "simulated":
        return SimulatedStrip(
            layout.num_pixels,
            brightness=config.brightness,
            max_current_ma=config.max_current_ma,
            clock=clock,
            layout=layout,
        )
    return NeoPixelSpiStrip(
        layout.num_pixels,
        spi_bus=config.spi_bus,
        pixel_order=config.pixel_order,
        brightness=config.brightness,
        max_current_ma=config.max_current_ma,
    )
