"""The stability gate: judge only a board that has been still and clear.

Sliding a checker across points reads as a move; a hand over the board hides
points. Frames are fed with their time stamps (the caller's clock: nothing
here reads a clock); the gate says ``steady`` only when nothing moved for
``window_s`` and the frame reads without a refusal, and it keeps the steady
readings so the referee can ask for the last steady view at the moment a
player pressed "done".

>>> import numpy as np
>>> gate = StabilityGate(reader=lambda frame: None, config=StabilityConfig(window_s=1.0))
>>> frame = np.zeros((40, 60, 3), np.uint8)
>>> [gate.feed(frame, t).state for t in (0.0, 0.5, 1.0, 1.5)]
['settling', 'settling', 'steady', 'steady']
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import Image
from vision.read import Reading

log = logging.getLogger(__name__)

State = Literal["settling", "moving", "refused", "steady"]


@dataclass(frozen=True)
class StabilityConfig:
    """``window_s``: how long the board must be still; ``max_change``: mean
    absolute change of the grey thumbnail (0..255) between frames that still
    counts as still (sensor noise); ``thumbnail_px``: its width; ``keep``:
    how many steady readings are remembered."""

    window_s: float = 1.0
    max_change: float = 4.0
    thumbnail_px: int = 64
    keep: int = 64


@dataclass(frozen=True)
class GateStatus:
    """What the gate says about one frame: ``state``, the time it was fed,
    the change since the previous frame and, when steady or refused, the
    reading."""

    state: State
    t: float
    change: float
    reading: Reading | None = None


@dataclass
class StabilityGate:
    """Feed frames (h, w, 3) BGR uint8 with increasing time stamps (s).

    ``reader`` reads a frame (usually ``lambda f: read_board(f, calibration)``;
    ``None`` from it counts as a clear, unread frame); ``crop`` (x0, y0, x1,
    y1) limits the motion test to the board's bounding box in the frame.
    """

    reader: Callable[[Image], Reading | None]
    config: StabilityConfig = StabilityConfig()
    crop: tuple[int, int, int, int] | None = None
    _previous: npt.NDArray[np.float32] | None = field(default=None, init=False, repr=False)
    _still_since: float | None = field(default=None, init=False)
    _last_t: float | None = field(default=None, init=False)
    _times: list[float] = field(default_factory=list, init=False, repr=False)
    _readings: list[Reading | None] = field(default_factory=list, init=False, repr=False)

    def _thumbnail(self, frame: Image) -> npt.NDArray[np.float32]:
        if self.crop is not None:
            x0, y0, x1, y1 = self.crop
            frame = frame[y0:y1, x0:x1]
        h, w = frame.shape[:2]
        width = self.config.thumbnail_px
        height = max(1, round(h * width / max(w, 1)))
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        return np.asarray(cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA), np.float32)

    def feed(self, frame: Image, t: float) -> GateStatus:
        """One frame at time ``t`` (s, not before the previous one)."""
        if self._last_t is not None and t < self._last_t:
            raise ValueError(f"frame time {t!r} s is before the previous frame's {self._last_t!r} s")
        self._last_t = t
        thumb = self._thumbnail(frame)
        change = (
            0.0
            if self._previous is None or self._previous.shape != thumb.shape
            else float(np.abs(thumb - self._previous).mean())
        )
        self._previous = thumb
        if self._still_since is None or change > self.config.max_change:
            self._still_since = t
            state: State = "moving" if change > self.config.max_change else "settling"
            return GateStatus(state, t, change)
        if t - self._still_since < self.config.window_s:
            return GateStatus("settling", t, change)
        reading = self.reader(frame)
        if reading is not None and reading.refusal is not None:
            log.debug("still but refused at %.2f s: %s", t, reading.refusal.reason)
            return GateStatus("refused", t, change, reading)
        self._times.append(t)
        self._readings.append(reading)
        if len(self._times) > self.config.keep:
            del self._times[0], self._readings[0]
        return GateStatus("steady", t, change, reading)

    def steady_at(self, t: float) -> tuple[float, Reading | None] | None:
        """The last steady reading at or before ``t`` and its time, or None
        when the board was not steady since the gate started (or since
        :meth:`reset`)."""
        i = bisect.bisect_right(self._times, t)
        if i == 0:
            return None
        return self._times[i - 1], self._readings[i - 1]

    def reset(self) -> None:
        """Forget everything (the board was moved or calibrated again)."""
        self._previous = None
        self._still_since = None
        self._last_t = None
        self._times.clear()
        self._readings.clear()
