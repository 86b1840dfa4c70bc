"""Counting a squeezed pile: six or more checkers pushed together into the
length of five, each lying over part of the one before.

Along the point, every checker's near rim shows as a line across it, so the
picture changes at evenly spaced places: one diameter apart in a line of
five touching checkers, four diameters shared among the gaps of a squeezed
pile (0.8 of a diameter for six, two thirds for seven, four sevenths for
eight, down to four ninths for ten). Each count is tried as such a comb of
rims, slid along the point to fit best; the count whose comb stands out
most from the places between its teeth wins, and the margin over the next
says how sure that is.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.features import to_lab
from vision.geometry import BoardGeometry, Image, slot_centres

#: The counts tried: a plain line of five, and six to ten squeezed (past
#: ten, the rims lie closer than a blurred photo tells apart).
COUNTS = tuple(range(5, 11))


def rim_profile(rectified: Image, geometry: BoardGeometry, row: int, col: int) -> npt.NDArray[np.float32]:
    """How much the picture changes across the point (row, col) at each
    rectified px from the edge towards the middle, along its middle third."""
    height = geometry.size[1]
    width = geometry.point_width_px
    length = min(int(round(5.6 * geometry.pitch_px)), height // 2)
    x = float(slot_centres(geometry)[0, col, 0, 0])
    x0, x1 = max(int(x - 0.15 * width), 0), int(x + 0.15 * width) + 1
    band = rectified[:length, x0:x1] if row == 0 else rectified[height - length :, x0:x1][::-1]
    lab = cv2.GaussianBlur(to_lab(band), (3, 3), 0)
    across = np.abs(cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=3)).sum(axis=2)
    return np.asarray(across.mean(axis=1), np.float32)


def comb_fits(profile: npt.NDArray[np.float32], pitch: float) -> npt.NDArray[np.float64]:
    """(len(COUNTS),) how well each count's comb of rims fits ``profile``
    (along a point, :func:`rim_profile`; ``pitch``: a checker's width in
    its px): how much its teeth stand out from the places between them,
    slid along the point to fit best; -inf where the comb is longer than
    the profile."""
    scores = np.full(len(COUNTS), -np.inf)
    shifts = np.arange(-0.3 * pitch, 0.3 * pitch + 1e-6, 1.0)[:, None]
    for i, n in enumerate(COUNTS):
        step = 4 * pitch / (n - 1)
        rims = np.rint(shifts + step * np.arange(1, n)).astype(np.intp)
        between = np.clip(np.rint(shifts + step * (np.arange(0, n - 1) + 0.5)), 0, None).astype(np.intp)
        fits = rims.max(axis=1) + 1 < len(profile)
        if not fits.any():
            continue
        rims, between = rims[fits], between[fits]
        # a rim within a pixel of where it should be
        on = np.maximum(np.maximum(profile[rims - 1], profile[rims]), profile[rims + 1]).mean(axis=1)
        scores[i] = float((on - profile[between].mean(axis=1)).max())
    return scores


def count_squeezed(profile: npt.NDArray[np.float32], pitch: float) -> tuple[int, float]:
    """The count (of :data:`COUNTS`) whose comb of rims fits ``profile``
    best (:func:`comb_fits`), and its margin over the next best (0..1)."""
    scores = comb_fits(profile, pitch)
    order = np.argsort(scores)[::-1]
    first, second = scores[order[0]], scores[order[1]]
    if not np.isfinite(first) or first <= 0:
        return COUNTS[0], 0.0
    return COUNTS[int(order[0])], float((first - max(second, 0.0)) / first)
