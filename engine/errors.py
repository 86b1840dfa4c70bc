"""One exception root for the whole project; each leaf also subclasses the
matching built-in, so callers may catch either (as gpiozero's ``exc.py``)."""

from __future__ import annotations


class NardrefError(Exception):
    """Root of every error this project raises on purpose."""


class NotationError(NardrefError, ValueError):
    """Text that should name a position, dice, a play or a record does not."""


class PositionError(NardrefError, ValueError):
    """A position that cannot exist (see :func:`engine.position.status`)."""


class IllegalPlayError(NardrefError, ValueError):
    """A play that the rules do not allow; the message carries the rule ID."""
