"""The one gpiozero pin factory the buttons and the buzzer share.

``gpio`` opens lgpio on the Pi's GPIO chip (Pi 4 and Pi 5 alike, no root: the
user needs the ``gpio`` group); ``simulated`` is gpiozero's ``MockFactory``.
A missing lgpio on a Pi is a loud :class:`PinFactoryError`, never a silent
mock (gpiozero itself would fall back through other factories).
"""

from __future__ import annotations

from typing import Any

from engine.errors import NardrefError

__all__ = ["PinFactoryError", "open_pin_factory"]


class PinFactoryError(NardrefError, RuntimeError):
    """The GPIO chip cannot be opened."""


def open_pin_factory(backend: str) -> Any:
    """A gpiozero pin factory for ``backend`` (``"gpio"`` or ``"simulated"``)."""
    if backend == "simulated":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    if backend != "gpio":
        raise PinFactoryError(f"unknown GPIO backend {backend!r}: expected 'gpio' or 'simulated'")
    try:
        import lgpio
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError as exc:
        raise PinFactoryError(
            f"GPIO backend 'gpio' needs lgpio ({exc.name!r} is missing): sudo apt-get install python3-lgpio "
            "and a venv made with --system-site-packages (systemd/install.sh does both)"
        ) from None
    try:
        return LGPIOFactory()
    except (lgpio.error, OSError) as exc:
        raise PinFactoryError(
            f"cannot open the GPIO chip: {exc} (is this a Raspberry Pi, and the user in the 'gpio' group?)"
        ) from None
