"""Errors raised by the vision stages; each carries the reason it was raised.

A *refusal* (hand over the board, too dark, ...) is not an error: it is a
result (:class:`vision.refusal.Refusal`). These exceptions are for input that
cannot be used at all: malformed corners, an unreadable image, a calibration
file that is not one.
"""

from __future__ import annotations

from engine.errors import NardrefError


class VisionError(NardrefError):
    """Root of the vision errors; ``reason`` is a short machine-readable name."""

    reason: str = "vision"

    def __init__(self, message: str, *, reason: str | None = None) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason


class GeometryError(VisionError, ValueError):
    """Corners or board geometry that cannot describe a playing area."""

    reason = "bad_corners"


class ImageError(VisionError, ValueError):
    """An image that is missing, unreadable or of the wrong shape."""

    reason = "bad_image"


class CalibrationError(VisionError, ValueError):
    """A calibration that cannot be made or loaded (wrong set-up, bad file)."""

    reason = "bad_calibration"


class MarkerError(VisionError, LookupError):
    """The ArUco corner markers were not all found."""

    reason = "markers_not_found"
