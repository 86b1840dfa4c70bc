"""The buzzer: short patterns for an illegal move, low time and a flag fall.

A gpiozero ``Buzzer`` (an active buzzer switched by a transistor) on the pin of
``[buzzer]``. Patterns are schedules of on/off spans driven by the referee's
clock: :meth:`Buzzer.play` starts one at ``now_s`` and :meth:`Buzzer.tick`
(called from the loop with the same clock) switches the pin, so nothing sleeps
and tests run a pattern in microseconds. Mute comes from the config and can be
toggled at run time.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from engine.errors import NardrefError

if TYPE_CHECKING:
    from firmware.config import BuzzerConfig

__all__ = ["PATTERNS", "Buzzer", "BuzzerError", "Sound"]

log = logging.getLogger(__name__)

Sound = Literal["illegal", "low_time", "flag_fall"]

#: Each sound as (on_s, off_s) spans played in order.
PATTERNS: Mapping[str, tuple[tuple[float, float], ...]] = {
    "illegal": ((0.12, 0.08), (0.12, 0.08), (0.12, 0.0)),
    "low_time": ((0.05, 0.0),),
    "flag_fall": ((0.6, 0.2), (0.6, 0.2), (1.2, 0.0)),
}


class BuzzerError(NardrefError, RuntimeError):
    """The buzzer cannot be set up, or an unknown sound was asked for."""


class Buzzer:
    """An active buzzer on one GPIO, played by schedule (see the module docstring)."""

    def __init__(self, pin: int, *, pin_factory: Any, mute: bool = False) -> None:
        from gpiozero import Buzzer as GpioBuzzer
        from gpiozero.exc import GPIOZeroError

        try:
            self._device: Any = GpioBuzzer(pin, pin_factory=pin_factory)
        except (GPIOZeroError, OSError) as exc:
            raise BuzzerError(
                f"cannot set up the buzzer on GPIO{pin}: {exc} (is the user in the 'gpio' group?)"
            ) from None
        self._muted = mute
        self._sound: str | None = None
        self._started_s = 0.0
        self._closed = False

    @classmethod
    def from_config(cls, config: BuzzerConfig, *, pin_factory: Any | None = None) -> Buzzer:
        """The buzzer of ``[buzzer]``; ``backend = "simulated"`` uses a MockFactory."""
        if pin_factory is None:
            if config.backend != "simulated":
                raise BuzzerError("a gpio buzzer needs the board's pin factory (pin_factory=...)")
            from gpiozero.pins.mock import MockFactory

            pin_factory = MockFactory()
        return cls(config.pin, pin_factory=pin_factory, mute=config.mute)

    @property
    def muted(self) -> bool:
        return self._muted

    @muted.setter
    def muted(self, value: bool) -> None:
        self._muted = bool(value)
        if self._muted:
            self._sound = None
            self._set(False)

    def toggle_mute(self) -> bool:
        """Flip mute; returns the new state."""
        self.muted = not self._muted
        log.info("buzzer %s", "muted" if self._muted else "unmuted")
        return self._muted

    @property
    def playing(self) -> str | None:
        """The sound being played, or None."""
        return self._sound

    def play(self, sound: Sound, now_s: float) -> None:
        """Start ``sound`` at ``now_s`` (replacing one being played); nothing when muted."""
        if sound not in PATTERNS:
            raise BuzzerError(f"unknown sound {sound!r}: expected one of {', '.join(PATTERNS)}")
        if self._muted or self._closed:
            return
        self._sound = sound
        self._started_s = now_s
        self.tick(now_s)

    def tick(self, now_s: float) -> None:
        """Switch the buzzer as the schedule says at ``now_s``."""
        if self._sound is None or self._closed:
            return
        elapsed = now_s - self._started_s
        for on_s, off_s in PATTERNS[self._sound]:
            if elapsed < on_s:
                self._set(True)
                return
            elapsed -= on_s
            if elapsed < off_s:
                self._set(False)
                return
            elapsed -= off_s
        self._sound = None
        self._set(False)

    def _set(self, on: bool) -> None:
        if self._closed:
            return
        if on and not self._device.is_active:
            self._device.on()
        elif not on and self._device.is_active:
            self._device.off()

    def close(self) -> None:
        """Silence and release the pin; safe to call twice."""
        if self._closed:
            return
        self._set(False)
        self._closed = True
        self._device.close()
