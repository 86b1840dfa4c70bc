"""Corners given by hand, snapped to the playing area's edges.

A person who clicks the four corners of the playing area on a photo
misses each by a few pixels, and the reader lays every point and slot out
from them: on the photos of ``bench/uncalibrated.py`` (1280x720), corners
off by 3 px (a standard deviation, each coordinate) cost a fifth of the
whole boards read right (86 of 100 to 66), and 6 px more than half (38).

Each side of the playing area is a straight edge in the picture, where
the frame meets the field. Near each side the corners give, the line
across which the picture changes most, over most of the side's length
(a checker at the edge or a hand may break it in places: the median over
the side counts), is taken for that side, and the corners are where
neighbouring sides meet. A side whose edge does not stand out from the
picture around it is kept as given.

The strongest edge is not always the playing area's: a frame's bevel or
the shadow of its lip runs beside it, a pixel or a few away, and the
strongest may be either side of it. So snapped corners are a second
guess, not the answer: :func:`vision.uncalibrated.read_with_corners`
reads the photo from both and keeps the reading that explains it better."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import Image

FloatArray = npt.NDArray[np.float32]

#: The edge is looked for this share of the mean side's length either
#: side of the side given (a click a few px off; the frame's outer edge and
#: the first checker's far side lie farther).
REACH = 0.025
#: Samples along each side, clear of its ends (where the next side's edge runs across).
ALONG = 80
#: ... from this share of the side to one minus it.
END_CLEARANCE = 0.06
#: The picture is compared this many px either side of a line across it.
ACROSS = 1.5
#: Offsets of a line from the side given are tried every this many px.
STEP = 0.5
#: A side moves only where its best line's edge is at least this many times
#: the median edge strength over every line tried ...
STANDS_OUT = 1.5
#: ... and at least this (Lab units across the line).
LEAST_EDGE = 8.0
#: Snapped corners are a second guess worth reading where one of them
#: moved this many px or more (:func:`second_guess`).
MOVED = 0.5


def _side_line(lab: FloatArray, start: FloatArray, end: FloatArray, reach: float) -> tuple[FloatArray, FloatArray]:
    """The side from ``start`` to ``end`` (px) snapped to the strongest edge
    within ``reach`` px of it: two points on the line found (or ``start``
    and ``end`` where no edge stands out)."""
    direction = end - start
    normal = np.array([-direction[1], direction[0]], np.float32) / max(float(np.linalg.norm(direction)), 1e-6)
    t = np.linspace(END_CLEARANCE, 1 - END_CLEARANCE, ALONG, dtype=np.float32)
    reach_steps = int(np.ceil((reach + ACROSS) / STEP))
    shifts = STEP * np.arange(-reach_steps, reach_steps + 1, dtype=np.float32)
    points = start + t[:, None, None] * direction + shifts[None, :, None] * normal  # (ALONG, shifts, 2)
    samples = cv2.remap(lab, points[..., 0], points[..., 1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    gap = int(round(ACROSS / STEP))
    strength = np.linalg.norm(samples[:, 2 * gap :] - samples[:, : -2 * gap], axis=-1)  # (ALONG, offsets)
    offsets = np.arange(strength.shape[1])  # of shifts[gap:-gap]
    # every line: its offset at the start and at the end of the side (t 0 and 1)
    first, last = np.meshgrid(offsets, offsets, indexing="ij")
    at = np.rint(first[..., None] + t[None, None, :] * (last - first)[..., None]).astype(np.intp)
    score = np.median(np.take_along_axis(strength.T[None], at.reshape(1, -1, ALONG), axis=1)[0], axis=-1)
    best = int(np.argmax(score))
    if score[best] < max(STANDS_OUT * float(np.median(score)), LEAST_EDGE):
        return start, end
    # a sharp edge is as strong from every line within ACROSS of it: the middle of those
    tied = score >= (1 - 1e-3) * score[best]
    shift_a, shift_b = shifts[gap + first.ravel()[tied]].mean(), shifts[gap + last.ravel()[tied]].mean()
    return start + shift_a * normal, end + shift_b * normal


def _meet(a: tuple[FloatArray, FloatArray], b: tuple[FloatArray, FloatArray]) -> FloatArray:
    """Where the lines through the point pairs ``a`` and ``b`` cross."""
    (p, q), (r, s) = a, b
    d1, d2 = q - p, s - r
    denominator = d1[0] * d2[1] - d1[1] * d2[0]
    u = ((r[0] - p[0]) * d2[1] - (r[1] - p[1]) * d2[0]) / denominator
    return np.asarray(p + u * d1, np.float32)


def snap_corners(image: Image, corners: npt.ArrayLike) -> FloatArray:
    """The four corners (4, 2) TL, TR, BR, BL px of the playing area in
    ``image`` (h, w, 3) BGR uint8, given roughly as ``corners``, snapped
    to its edges (see the module's docstring)."""
    quad = np.asarray(corners, np.float32).reshape(4, 2)
    lab = cv2.cvtColor(cv2.GaussianBlur(image, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    reach = REACH * float(sides.mean())
    lines = [_side_line(lab, quad[i], quad[(i + 1) % 4], reach) for i in range(4)]  # top, right, bottom, left
    return np.stack([_meet(lines[(i - 1) % 4], lines[i]) for i in range(4)]).astype(np.float32)


def second_guess(image: Image, corners: npt.ArrayLike) -> FloatArray | None:
    """``corners`` (4, 2) snapped (:func:`snap_corners`), where that moves
    one of them :data:`MOVED` px or more; None otherwise."""
    given = np.asarray(corners, np.float32).reshape(4, 2)
    snapped = snap_corners(image, given)
    return snapped if float(np.abs(snapped - given).max()) >= MOVED else None
