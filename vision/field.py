"""Something over the field, on a board no calibration has seen.

The field is the bare middle of the playing area: between the two rows'
lines of checkers (five checkers from each edge; a longer line piles,
within the length of five) and either side of the bar. Nothing stands
there in play but the dice and the cube, both smaller than a checker or
two; a hand or an arm reaching for a checker passes over it, and with no
calibration there is no empty board to hold the photo against
(:mod:`vision.occlusion`). So the field is held against itself: its usual
colour (the median) and its light, which falls off smoothly across it
(a quadratic surface fitted to the rest). A patch unlike both, bigger than
``RefusalConfig.field_area`` checker pitches squared and with a sharp
outline (``field_edge``), is something reaching in: a lamp's pool of light
on pale wood, or the grain, differs as much but fades into the rest."""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.colours import LINE
from vision.geometry import BoardGeometry, point_x_ranges
from vision.refusal import Refusal, RefusalConfig

#: The field begins this many checker pitches from each edge: past a full
#: line (and a little more, for a pitch or corners a few per cent off).
FIELD_FROM = LINE + 0.15
#: A field narrower than this many pitches (a board with short halves) is not judged.
FIELD_LEAST = 0.5
#: The field stays this share of a pitch clear of the bar and of the ends
#: of the playing area (their edges are no field).
CLEARANCE = 0.1
#: Where a point holds a line of at least this many checkers, its column
#: is left out for a pitch into the field (its last checker may reach in
#: where the pitch is a little short).
REACHING = LINE - 1
#: Unlike pixels closer than this share of a pitch to nothing else unlike
#: (a vein of marble, a grain line, a triangle's tip) are dropped.
SPECK = 0.25
#: The light's surface is fitted this many times, each to the pixels whose
#: log lightness lay within this share of ``RefusalConfig.field_light`` of
#: the one before (a hand two checkers wide bends the first one to it).
FIT_TURNS = 3
FIT_WITHIN = 0.5

FloatArray = npt.NDArray[np.float32]
Mask = npt.NDArray[np.bool_]


def check_field(
    lab: FloatArray,
    grads: tuple[FloatArray, FloatArray],
    geometry: BoardGeometry,
    counts: npt.NDArray[np.int64],
    *,
    config: RefusalConfig,
) -> Refusal | None:
    """``hand_over_board`` where something lies over the field of a
    rectified board (see the module's docstring), from its Lab (h, w, 3;
    :func:`vision.features.to_lab`) and their gradients
    (:func:`vision.rims.gradients`); ``counts`` (2, 12) signed: the lines
    read on the points, whose checkers may reach into it."""
    pitch = geometry.pitch_px
    height = geometry.size[1]
    top, bottom = int(round(FIELD_FROM * pitch)), int(round(height - FIELD_FROM * pitch))
    if bottom - top < FIELD_LEAST * pitch:
        return None
    band = slice(top, bottom)
    lab = lab[band]
    field = _field_mask(lab.shape[:2], geometry, counts)
    speck = max(int(round(SPECK * pitch)), 1)
    unlike = cv2.morphologyEx(
        _unlike(lab, field, config=config).astype(np.uint8), cv2.MORPH_OPEN, np.ones((speck, speck), np.uint8)
    )
    found, labels, stats, _ = cv2.connectedComponentsWithStats(unlike)
    big = [i for i in range(1, found) if stats[i, cv2.CC_STAT_AREA] >= config.field_area * pitch**2]
    if not big:
        return None
    gx, gy = (g[band] for g in grads)
    # Lab units per pixel (a 3x3 Sobel weighs a unit step eight times)
    sharpness = np.sqrt((gx * gx + gy * gy).sum(axis=-1)) / 8.0
    inner = np.zeros(field.shape, np.bool_)
    inner[1:-1, 1:-1] = True
    ring_kernel = np.ones((3, 3), np.uint8)
    for i in big:
        patch = (labels == i).astype(np.uint8)
        # its outline within the field (not where the field's own edges cut it)
        ring = (cv2.dilate(patch, ring_kernel) > 0) & (cv2.erode(patch, ring_kernel) == 0) & inner & field
        if ring.any() and float(np.median(sharpness[ring])) >= config.field_edge:
            return Refusal(
                "hand_over_board", "something lies over the middle of the board (a hand?): wait until it is clear"
            )
    return None


def _field_mask(shape: tuple[int, ...], geometry: BoardGeometry, counts: npt.NDArray[np.int64]) -> Mask:
    """The pixels (h, w) of the field band that are field: clear of the
    bar, of the playing area's ends, and of the lines reaching in."""
    pitch = geometry.pitch_px
    clear = int(round(CLEARANCE * pitch))
    field = np.ones(shape, np.bool_)
    field[:, : max(clear, 1)] = False
    field[:, shape[1] - max(clear, 1) :] = False
    field[:, max(int(geometry.bar[0]) - clear, 0) : int(np.ceil(geometry.bar[1])) + clear] = False
    reach = int(round(pitch))
    columns = point_x_ranges(geometry)
    for row, col in np.argwhere(np.abs(counts) >= REACHING):
        left, right = columns[col]
        rows = slice(0, reach) if row == 0 else slice(max(shape[0] - reach, 0), shape[0])
        field[rows, max(int(left) - clear, 0) : int(np.ceil(right)) + clear] = False
    return field


def _unlike(lab: FloatArray, field: Mask, *, config: RefusalConfig) -> Mask:
    """The field's pixels unlike its usual colour (by ``config.field_chroma``,
    Lab) or its light (by ``config.field_light``, log ratio, against a
    quadratic surface fitted to the rest)."""
    ys, xs = np.nonzero(field)
    h, w = field.shape
    level = np.log(lab[..., 0] + 8.0)
    u, v = xs / w, ys / h
    basis = np.column_stack([np.ones_like(u), u, v, u * u, u * v, v * v])
    values = level[ys, xs]
    fitted = np.ones(len(xs), np.bool_)
    residual = np.zeros(len(xs))
    for _ in range(FIT_TURNS):
        coefficients, *_ = np.linalg.lstsq(basis[fitted], values[fitted], rcond=None)
        residual = values - basis @ coefficients
        within = np.abs(residual) <= FIT_WITHIN * config.field_light
        if within.sum() < len(xs) / 3:  # too few near it: keep the surface fitted before
            break
        fitted = within
    usual = np.median(lab[ys, xs, 1:][fitted], axis=0)
    unlike = np.zeros(field.shape, np.bool_)
    chroma = np.linalg.norm(lab[ys, xs, 1:] - usual, axis=1)
    unlike[ys, xs] = (chroma > config.field_chroma) | (np.abs(residual) > config.field_light)
    return unlike
