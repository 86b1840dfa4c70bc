"""A checker's round rim: evidence of a checker besides its look.

The slots' looks (:mod:`vision.colours`) are compared on a small
thumbnail, where a cream checker on the wide base of a cream point under
a lamp, or a dark one on dark felt, looks much like the bare point. At
full size its rim still shows: an edge that runs round the slot at one
radius, at every angle, where a bare point has straight edges (its
triangle's sides, the frame) that cross the circle at a few angles only.

The rim's strength at a slot is the strongest gradient across the
circle, between 0.75 and 1.1 checker radii, in the weakest quarter of
the angles. A bare slot's own edges depend on its place (the frame and
the wide base of the triangle box in the first slot of a point; past a
checker, its side and shadow cross the circle), so calibration keeps the
strength of every bare slot of the starting position that no checker
stands before (:func:`bare_rims`; a slot the starting position hid is
not weighed). A frame is weighed against that, scaled by how its slots
read surely as bare compare with it (the light may have changed): the
first slot of a point, where the looks leave it in doubt, leans towards
a checker where its rim stands out from its bare one as this frame's
checkers of that colour do (:func:`weigh_rims`); never towards a bare
slot: a checker's rim may not show (a dark checker on dark felt), and a
colour whose rims do not stand out gives no evidence.

A checker laid on a full line, over the junction of two below it, shows
its rim too: where its look cannot tell a layer from two touching rims
(dark on dark, white on a white point), the junctions whose rims stand
out from the same junctions bare count it (:func:`layer_rims`, used by
:mod:`vision.read`). Calibration keeps those of the starting position's
lines of five, one of each colour of checker on each colour of point
(:func:`start_junctions`): a bare junction's rim depends on its place
along the line (the frame beside the first; beside the last, the point's
triangle narrowing, or the field past it) and on the two colours.

On the bar a checker stands anywhere, and beside a light one its
shadow reads as a dark checker: a dark checker shows its rim there, well
above the bare bar's at calibration (:func:`bar_rims`), where the shadow
shows none (used by :func:`vision.read.read_bar`).

The other way round, a line of checkers read where a slot shows far less
rim than the frame's other lines of that colour (:func:`rimless`) is no
sure reading: a hand or a sleeve of the checkers' colour, read as
checkers, shows no round rim.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.colours import DARK, EMPTY, LIGHT, LINE, point_kind
from vision.features import PATCH, PILE_SHIFTS, circles, junction_centres, to_lab
from vision.geometry import BoardGeometry, Image, bar_slot_centres, slot_centres

FloatArray = npt.NDArray[np.float32]

_ANGLES = np.linspace(0, 2 * np.pi, 32, endpoint=False)
_RADII = np.linspace(0.75, 1.1, 8)
#: The share of the angles (the weakest) that gives the rim's strength.
_QUANTILE = 25
#: A reference (the bare slots' change of light, a colour's rims) needs
#: this many slots read surely in the frame.
MIN_REFERENCE = 4
#: Slots read surely: a class probability above this.
SURE = 0.99
#: A colour's checkers in the frame give evidence where their rims stand
#: out from the bare slots' by this many of the bare slots' spreads.
SEPARATION = 3.0
#: A rim is evidence where it is at least this many times the bare slot's
#: (in the frame's light): glare over a light point's wide base raises its
#: edges by half as much again, a checker's rim by several times.
MIN_RISE = 2.0
#: A full line's junctions from the edge hold a layer's checkers where each
#: one's rim is at least this many times the same junction's bare (as the
#: starting position showed it; else every junction's past them) (bare:
#: two touching rims cross the circle at two angles only; bench photos: the
#: first junction of a line of five is at most 1.45 times the last in 95 of
#: 100, under a layer's checker 2.25 times in half of them; rendered lines,
#: seed 5 boards 0-119: 2 % of the first junctions of lines of five stand
#: 1.8 times their bare rim, 82 % under a layer's checker).
LAYER_RISE = 1.8
#: A layer's checker, raised, lends the junction past it part of its rim:
#: against its bare rim, that junction holds one more only where its own is
#: also this share of the one before at least (rendered piles of six and
#: seven, seed 5 boards 0-119: the junction past a layer stands out 1.8 times
#: its bare rim in 28 % of them, and 0.6 times the layer's in 3 %; a second
#: layer's checker, 0.6 times the first's in 95 %).
LAYER_NEXT = 0.6
#: ... and than this (a junction on a flat, noiseless picture has no rim
#: to measure against; bare ones in bench photos are 10 to 50).
LAYER_FLOOR = 5.0
#: The spread of the logarithm of a colour's rim strength is at least this.
CHECKER_SPREAD = 0.5
#: A circle of a checker's size: a radius of this share of a pitch ...
CIRCLE_RADII = (0.4, 0.6)
#: ... centred within this share of a pitch of a slot's centre (:func:`circled_slots`).
CIRCLE_REACH = 0.3
#: The spread of the logarithm of the bare slots' change of light is at least this.
MIN_SPREAD = 0.15


def gradients(rectified: Image, *, lab: FloatArray | None = None) -> tuple[FloatArray, FloatArray]:
    """(h, w, 3) each: the x and y gradients of the lightly blurred Lab of a
    rectified board (h, w, 3) BGR uint8 (``lab``: its
    :func:`vision.features.to_lab`, where the caller has it)."""
    blurred = cv2.GaussianBlur(to_lab(rectified) if lab is None else lab, (3, 3), 0)
    gx = cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3)
    return np.asarray(gx, np.float32), np.asarray(gy, np.float32)


def rims_at(grads: tuple[FloatArray, FloatArray], centres: FloatArray, radius: float) -> FloatArray:
    """(...) the rim strength round each of ``centres`` (..., 2) rectified
    px, for a checker of ``radius`` px, from the board's :func:`gradients`."""
    gx, gy = grads
    h, w = gx.shape[:2]
    cos, sin = np.cos(_ANGLES), np.sin(_ANGLES)
    x = centres[..., 0, None, None] + radius * _RADII[:, None] * cos  # (..., radii, angles)
    y = centres[..., 1, None, None] + radius * _RADII[:, None] * sin
    at = (np.clip(np.rint(y).astype(np.intp), 0, h - 1) * w + np.clip(np.rint(x).astype(np.intp), 0, w - 1)).ravel()
    # (np.take of the flattened gradients: twice as fast as indexing by rows and columns)
    along_x = np.take(gx.reshape(-1, 3), at, axis=0) * np.broadcast_to(cos, x.shape).reshape(-1, 1)
    along_y = np.take(gy.reshape(-1, 3), at, axis=0) * np.broadcast_to(sin, x.shape).reshape(-1, 1)
    across = np.abs(along_x + along_y).sum(axis=-1).reshape(x.shape)
    return np.asarray(np.percentile(across.max(axis=-2), _QUANTILE, axis=-1), np.float32)


def rim_strength(grads: tuple[FloatArray, FloatArray], geometry: BoardGeometry) -> FloatArray:
    """(2, 12, L) the rim strength of the first :data:`LINE` slots of every
    point of a board, from its :func:`gradients`."""
    centres = slot_centres(geometry)[:, :, :LINE]
    return rims_at(grads, centres, 0.5 * geometry.pitch_px)


def bar_rims(grads: tuple[FloatArray, FloatArray], geometry: BoardGeometry) -> FloatArray:
    """(B,) the rim strength round each probe along the bar
    (:func:`vision.geometry.bar_slot_centres`), from the board's :func:`gradients`."""
    return rims_at(grads, bar_slot_centres(geometry), 0.5 * geometry.pitch_px)


def bar_light(rise: FloatArray, bare: npt.NDArray[np.bool_]) -> float | None:
    """How the frame's light raises the bar's rims: the median of ``rise``
    (B,), each probe's rim against the bare bar's at calibration, over the
    probes read as the bare bar (``bare`` (B,)); None where fewer than
    :data:`MIN_REFERENCE` are."""
    return float(np.median(rise[bare])) if bare.sum() >= MIN_REFERENCE else None


def circled_slots(rectified: Image, geometry: BoardGeometry) -> npt.NDArray[np.bool_]:
    """(2, 12, L) which of the first :data:`LINE` slots of every point have
    a circle of a checker's size centred on them (a radius of
    :data:`CIRCLE_RADII` pitches, within :data:`CIRCLE_REACH` of a pitch of
    the slot's centre; :func:`vision.features.circles`): a checker stands
    there, whatever its colour and the point's. On bench photos such a
    circle is found on nine slots of ten a checker covers, and on one bare
    slot in two thousand: a checker on a point of its own colour (gold on
    gold) shows its round outline, where its look is the point's."""
    pitch = geometry.pitch_px
    found = circles(rectified, int(CIRCLE_RADII[0] * pitch), int(np.ceil(CIRCLE_RADII[1] * pitch)))
    centres = slot_centres(geometry)[:, :, :LINE]
    if len(found) == 0:
        return np.zeros(centres.shape[:3], np.bool_)
    apart = np.linalg.norm(centres[..., None, :] - found[None, None, None, :, :2], axis=-1)
    return np.asarray(apart.min(axis=-1) < CIRCLE_REACH * pitch, np.bool_)


def outlines(
    rectified: Image, geometry: BoardGeometry, covered: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.bool_], FloatArray]:
    """A checker's round outline on the first :data:`LINE` slots of every
    point, whatever its colour and the point's: (2, 12, L) which are
    :func:`circled_slots`, and (2, 12, L) their rim strength over the
    geometric mean of the medians of the slots checkers cover and of the
    bare ones (1 halfway between the two kinds, on a log scale), where
    ``covered`` (2, 12, S) says which slots hold checkers (the starting
    position at calibration)."""
    strength = rim_strength(gradients(rectified), geometry)
    holds = covered[:, :, : strength.shape[2]]
    middle = float(np.sqrt(np.median(strength[holds]) * np.median(strength[~holds])))
    return circled_slots(rectified, geometry), np.asarray(strength / max(middle, 1e-6), np.float32)


def junction_rims(grads: tuple[FloatArray, FloatArray], geometry: BoardGeometry, row: int, col: int) -> FloatArray:
    """(J,) the rim strength at each junction of the line on point (``row``,
    ``col``), from the edge, from the board's :func:`gradients`: each its
    strongest over the :data:`vision.features.PILE_SHIFTS` (thumbnail px;
    a layer's checker stands higher and the camera sees it moved)."""
    centres = junction_centres(geometry)[row, col]
    moved = centres[:, None, :] + PILE_SHIFTS[None, :, :] * (geometry.pitch_px / PATCH)
    return np.asarray(rims_at(grads, moved, 0.5 * geometry.pitch_px).max(axis=1), np.float32)


def start_junctions(
    grads: tuple[FloatArray, FloatArray], geometry: BoardGeometry, counts: npt.NDArray[np.int64]
) -> FloatArray:
    """(2, 2, J) the :func:`junction_rims` of the lines of five in
    ``counts`` (2, 12; the starting position, +n light, -n dark: one line
    of each colour on each colour of point), by the checkers' colour (0
    light, 1 dark) and the point's (:func:`vision.colours.point_kind`); NaN
    where it has none. Calibration keeps them: a bare junction's rim
    depends on its place along the line (the frame beside the first, the
    point's triangle narrowing beside the last) and on the two colours."""
    kinds = point_kind()
    out = np.full((2, 2, junction_centres(geometry).shape[2]), np.nan, np.float32)
    for row, col in np.argwhere(np.abs(counts) == LINE):
        out[0 if counts[row, col] > 0 else 1, kinds[row, col]] = junction_rims(grads, geometry, int(row), int(col))
    return out


def bare_junctions(start: FloatArray, row: int, col: int, colour: int, shift: float) -> FloatArray | None:
    """(J,) the rims of the junctions of a line of five of ``colour``
    (LIGHT, DARK) with nothing on it, on point (``row``, ``col``), in a
    frame whose rims stand ``shift`` (:func:`light_shift`) above
    calibration's: those of the starting position's line of that colour
    on a point of that colour (``start``: :func:`start_junctions`); None
    where it has none."""
    bare = start[colour - LIGHT, point_kind()[row, col]]
    if np.isnan(bare).any():
        return None
    return np.asarray(np.expm1(np.log1p(bare) + shift), np.float32)


def layer_rims(
    grads: tuple[FloatArray, FloatArray],
    geometry: BoardGeometry,
    row: int,
    col: int,
    *,
    bare: FloatArray | None = None,
) -> int:
    """How many of the junctions of the full line on point (``row``,
    ``col``), from the edge, show a checker's rim (:func:`junction_rims`,
    from the board's :func:`gradients`) standing out by :data:`LAYER_RISE`
    (and from :data:`LAYER_FLOOR`): from the rim the same junction shows
    bare (``bare`` (J,): :func:`bare_junctions`), each of those from the
    edge, each past the first also :data:`LAYER_NEXT` of the one before;
    without it, from every one past them (0 where none does, or the last
    one too: no bare junction to measure against)."""
    rims = junction_rims(grads, geometry, row, col)
    count = len(rims)
    if bare is not None:
        stands = rims >= np.maximum(LAYER_RISE * bare, LAYER_FLOOR)
        stands[1:] &= rims[1:] >= LAYER_NEXT * rims[:-1]
        return int(np.argmin(stands)) if not stands[-1] else 0
    past = np.maximum([rims[k:].max() for k in range(1, count)], LAYER_FLOOR)
    return max((k for k in range(1, count) if rims[:k].min() >= LAYER_RISE * past[k - 1]), default=0)


def _line_slots(counts: npt.NDArray[np.int64], slots: int) -> npt.NDArray[np.bool_]:
    """(2, 12, slots) the slots of the lines of five or fewer that
    ``counts`` (2, 12) reads (a pile's upper layer lies over its rims)."""
    lines = np.where(np.abs(counts) <= LINE, np.abs(counts), 0)
    return np.asarray(np.arange(slots)[None, None, :] < lines[:, :, None], np.bool_)


def line_rims(
    grads: tuple[FloatArray, FloatArray], geometry: BoardGeometry, counts: npt.NDArray[np.int64]
) -> FloatArray:
    """(2, 12, L) the rim strength (:func:`rim_strength`) of the slots of
    the lines of five or fewer that ``counts`` (2, 12) reads, NaN elsewhere:
    measured there only (a third of a board's slots, or fewer)."""
    centres = slot_centres(geometry)[:, :, :LINE]
    held = _line_slots(counts, centres.shape[2])
    out = np.full(held.shape, np.nan, np.float32)
    if held.any():
        out[held] = rims_at(grads, centres[held], 0.5 * geometry.pitch_px)
    return out


def rimless(strength: FloatArray, counts: npt.NDArray[np.int64], *, share: float) -> npt.NDArray[np.bool_]:
    """(2, 12) the points read as a line of checkers (``counts`` (2, 12),
    signed by colour; five at most: a pile's upper layer lies over its
    rims) where a slot of the line shows less than ``share`` of the rim
    ``strength`` (2, 12, L) the frame's lines of that colour show at their
    median: a hand or a sleeve the checkers' colour read as checkers (its
    fingers show no round rim), unless that colour's lines are too few to
    tell (:data:`MIN_REFERENCE` slots)."""
    lines = _line_slots(counts, strength.shape[2])
    out = np.zeros(counts.shape, np.bool_)
    for sign in (1, -1):
        held = lines & (counts * sign > 0)[:, :, None]
        if held.sum() < MIN_REFERENCE:
            continue
        weak = held & (strength < share * float(np.median(strength[held])))
        out |= weak.any(axis=-1)
    return out


def above_bare(strength: FloatArray, bare: npt.NDArray[np.bool_], groups: npt.NDArray[np.intp]) -> FloatArray:
    """(2, 12, L) how far each slot's rim ``strength`` (2, 12, L) stands out
    from the bare slots' of the same photo, as the logarithm of its ratio
    to their median: of the ``bare`` slots (2, 12, L) in its group
    (``groups`` (2, 12, L): slots alike when bare, the same slot of points
    of one colour), or where fewer than :data:`MIN_REFERENCE` are, of every
    bare slot as far from the edge; 0 where too few are bare there either.
    Used where no calibration kept the bare rims (:mod:`vision.uncalibrated`)."""
    out = np.zeros(strength.shape, np.float32)
    logs = np.log(np.maximum(strength, 1e-3))
    for slot in range(strength.shape[2]):
        level, known, group = logs[:, :, slot], bare[:, :, slot], groups[:, :, slot]
        if known.sum() < MIN_REFERENCE:
            continue
        fallback = float(np.median(level[known]))
        for g in np.unique(group):
            members = group == g
            own = level[members & known]
            out[:, :, slot][members] = level[members] - (np.median(own) if len(own) >= MIN_REFERENCE else fallback)
    return out


def bare_rims(strength: FloatArray, covered: npt.NDArray[np.bool_]) -> FloatArray:
    """(2, 12, L) the rim strength of every slot bare, from ``strength``
    (2, 12, L) of the starting position whose checkers stand on ``covered``
    (2, 12, S); NaN where a checker hid the slot or stood just before it
    (another point's bare slot is no measure: the light and the view differ)."""
    slots = strength.shape[2]
    clear = ~covered[:, :, :slots]
    clear[:, :, 1:] &= ~covered[:, :, : slots - 1]
    return np.where(clear, strength, np.nan).astype(np.float32)


def saved(rims: FloatArray, *, digits: int = 1) -> list[Any]:
    """:func:`bare_rims`, :func:`start_junctions`, :func:`checker_rims` or
    :func:`bar_rims` as a calibration keeps them, to ``digits`` places (-1 where unknown)."""
    return list(np.round(np.nan_to_num(rims, nan=-1.0), digits).tolist())


def loaded(reference: dict[str, Any] | None, key: str = "rims") -> FloatArray | None:
    """The bare rims a calibration's ``reference`` keeps under ``key``
    (``"rims"``: :func:`bare_rims`; ``"junctions"``: :func:`start_junctions`;
    ``"checkers"``: :func:`checker_rims`; ``"bar"``: :func:`bar_rims`)
    (NaN where unknown), or None for a calibration from before they were kept."""
    if not reference or key not in reference:
        return None
    bare = np.asarray(reference[key], np.float32)
    return np.where(bare < 0, np.nan, bare).astype(np.float32)


def _fit(values: FloatArray) -> tuple[float, float] | None:
    """Median and robust spread of ``values``, if there are enough."""
    if len(values) < MIN_REFERENCE:
        return None
    median = float(np.median(values))
    return median, max(1.4826 * float(np.median(np.abs(values - median))), MIN_SPREAD)


def _open(prob: FloatArray) -> npt.NDArray[np.bool_]:
    """(2, 12, L) the first slot of every point, and those past an empty one."""
    slots = min(prob.shape[2], LINE)
    first = np.ones(prob.shape[:2] + (slots,), np.bool_)
    first[:, :, 1:] = prob[:, :, : slots - 1, EMPTY] >= 0.5
    return first


def in_doubt(prob: FloatArray, bare: FloatArray, *, doubt: float) -> npt.NDArray[np.bool_]:
    """(2, 12, L) the slots a rim may decide: the first of each point (where
    a point's first checker stands; checkers lie in a line from the edge),
    where the looks (``prob`` (2, 12, S, 3)) leave it in doubt, empty and
    a checker each at least ``doubt`` likely, and its ``bare`` rim
    (:func:`bare_rims`) is known."""
    p = prob[:, :, 0]
    doubtful = np.zeros(prob.shape[:2] + (min(prob.shape[2], LINE),), np.bool_)
    doubtful[:, :, 0] = np.isfinite(bare[:, :, 0]) & (np.minimum(p[..., EMPTY], p[..., LIGHT] + p[..., DARK]) >= doubt)
    return doubtful


def _sure_bare(prob: FloatArray, bare: FloatArray) -> npt.NDArray[np.bool_]:
    """(2, 12, L) the slots read surely bare (``prob`` (2, 12, S, 3)) whose
    bare rim calibration kept (``bare`` (2, 12, L))."""
    slots = bare.shape[2]
    return np.asarray(_open(prob) & np.isfinite(bare) & (prob[:, :, :slots, EMPTY] > SURE), np.bool_)


def light_shift(prob: FloatArray, strength: FloatArray, bare: FloatArray) -> tuple[float, float] | None:
    """How this frame's rims (``strength`` (2, 12, L)) stand against
    calibration's (``bare``: :func:`bare_rims`; the light may have
    changed): the median and robust spread of log(1 + rim) less its bare
    one over the slots read surely bare (``prob`` (2, 12, S, 3)), or None
    where too few are."""
    sure_bare = _sure_bare(prob, bare)
    return _fit(np.log1p(strength[sure_bare]) - np.log1p(bare[sure_bare]))


def checker_rims(strength: FloatArray, states: npt.NDArray[np.int8]) -> FloatArray:
    """(2, 2) the median and robust spread of log(1 + rim) (``strength``
    (2, 12, L): :func:`rim_strength`) over the slots each colour's checkers
    (light, dark) cover in ``states`` (2, 12, S: the starting position),
    NaN where too few: the colour's rims where a frame reads too few of its
    slots surely (:func:`weigh_rims`)."""
    slots = strength.shape[2]
    out = np.full((2, 2), np.nan, np.float32)
    for kind in (LIGHT, DARK):
        fit = _fit(np.log1p(strength[states[:, :, :slots] == kind]))
        if fit is not None:
            out[kind - LIGHT] = fit
    return out


def weigh_rims(
    prob: FloatArray,
    strength: FloatArray,
    bare: FloatArray,
    doubtful: npt.NDArray[np.bool_],
    *,
    cap: float,
    checkers: FloatArray | None = None,
) -> FloatArray:
    """Slot probabilities (2, 12, S, 3) of empty, light and dark with the
    ``doubtful`` slots (:func:`in_doubt`) weighed by their rim ``strength``
    (2, 12, L): the odds of a checker raised by up to ``cap`` where the rim
    stands out from the slot's ``bare`` one (:func:`bare_rims`) as this
    frame's checkers of that colour do (where it reads too few of them
    surely, as the starting position's did in this frame's light:
    ``checkers``, :func:`checker_rims`), never lowered (a checker's rim may
    not show)."""
    slots = doubtful.shape[2]
    p = prob[:, :, :slots]
    logs = np.log1p(strength[:, :, :slots])
    known = np.isfinite(bare[:, :, :slots])
    expected = np.log1p(np.where(known, bare[:, :, :slots], 0.0))
    shift = light_shift(prob, strength, bare)
    if shift is None:
        return prob
    sure_bare = _sure_bare(prob, bare)
    bare_level = float(np.median(expected[sure_bare])) + shift[0]
    colour = np.where(p[..., LIGHT] >= p[..., DARK], LIGHT, DARK)
    out = np.array(prob, np.float32)
    view = out[:, :, :slots]
    for kind in (LIGHT, DARK):
        fit = _fit(logs[p[..., kind] > SURE])
        if fit is None and checkers is not None and np.isfinite(checkers[kind - LIGHT]).all():
            level, spread = (float(v) for v in checkers[kind - LIGHT])
            fit = (level + shift[0], spread)
        where = doubtful & (colour == kind)
        # a rim tells only where this colour's stand out from the bare slots
        # (a dark checker on dark felt may show none)
        if fit is None or not where.any() or fit[0] - bare_level < SEPARATION * shift[1]:
            continue
        # evidence only for a checker: a rim well above the bare slot's, the
        # less the further below this colour's rims (which vary much: the
        # point under a checker and the light make it stand out more or less)
        rise = logs[where] - expected[where] - shift[0]
        z_empty = np.where(rise >= np.log(MIN_RISE), rise, 0) / shift[1]
        z_checker = np.maximum(fit[0] - logs[where], 0) / max(fit[1], CHECKER_SPREAD)
        log_ratio = np.clip(0.5 * (z_empty**2 - z_checker**2), 0, np.log(cap))
        slot = view[where]
        was_empty, was_checker = slot[:, EMPTY], slot[:, LIGHT] + slot[:, DARK]
        odds = was_checker / was_empty * np.exp(log_ratio)
        share = odds / (1 + odds)
        total = was_empty + was_checker
        slot[:, LIGHT:] *= (total * share / was_checker)[:, None]
        slot[:, EMPTY] = total * (1 - share)
        view[where] = slot
    return out
