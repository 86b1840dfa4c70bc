"""Per-slot measurements on a rectified board: a small picture of each slot.

A *slot* is the place one checker occupies on a point (see
:func:`vision.geometry.slot_centres`). Each slot is resampled to a small
``T x T`` Lab patch spanning one checker's diameter; a checker shows its
round face, rim and edge in it, an empty slot the triangle and the felt or
wood around it. Comparing patches with templates learned for this board
(:mod:`vision.colours`) judges shape and colour together: a white checker on
a white point still differs by its round rim, a dark one on a dark point by
its edge and highlights.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.geometry import BoardGeometry, Image, bar_slot_centres, slot_centres
from vision.relight import as_calibrated, as_in_frame, field_at

FloatArray = npt.NDArray[np.float32]

#: Patch side in template pixels (one checker diameter).
PATCH = 9
#: Channels of a patch: L, a, b and the lightness edge strength.
CHANNELS = 4
#: Junctions measured along a line (between its five checkers).
JUNCTIONS = 4
#: How far (thumbnail px) the light field is smoothed (:mod:`vision.relight`):
#: over a person's shadow, not a hand's.
RELIGHT_SIGMA = 3.0 * PATCH
#: Scale of the edge channel against colour.
EDGE_WEIGHT = 0.1
#: Where a pile's upper layer is looked for: each junction moved by up to a
#: ninth of a pitch (``thumbnail`` px) either way. A checker lying on two
#: others stands a checker's thickness higher than they do, so the camera
#: sees its face moved away from the point below the lens, the more so the
#: farther from it (a tenth of a pitch or so at a board's far corners).
PILE_SHIFTS = np.array([(dx, dy) for dy in (-1, -0.5, 0, 0.5, 1) for dx in (-1, -0.5, 0, 0.5, 1)], np.float32)


@dataclass(frozen=True, eq=False)
class SlotFeatures:
    """Patches of every slot of one rectified board.

    ``patches``: (2, 12, S, T, T, 4) Lab (OpenCV 8-bit scale) and the
    lightness edge strength, rows top (TL->TR) and bottom (BL->BR), each
    patch turned so that the board's edge is up; ``bar``:
    (B, T, T, 4) along the bar, top to bottom; ``lab``: (2, 12, S, 3) the mean
    colour of each slot's centre.
    """

    patches: FloatArray
    bar: FloatArray
    thumbnail: FloatArray
    """(h', w', 3) Lab: the whole rectified board at T px per checker pitch."""
    slot_xy: FloatArray
    """(2, 12, S, 2) where each slot's centre lies in ``thumbnail``."""
    bar_xy: FloatArray
    """(B, 2) where each bar probe lies in ``thumbnail``."""
    bar_edges: tuple[float, float]
    """The bar's left and right edges, ``thumbnail`` x."""
    junctions: FloatArray | None = None
    """(2, 12, J, T, T, 4) patches where two neighbouring checkers of a line
    touch (half a pitch past slot j), turned like ``patches``: on a pile a
    checker of the next layer lies there."""
    junction_xy: FloatArray | None = None
    """(2, 12, J, 2) where the junctions lie in ``thumbnail``."""
    edges: FloatArray | None = None
    """(h', w') the lightness edge strength beside ``thumbnail`` (the
    fourth channel of a patch), to cut patches anywhere afterwards."""
    light: FloatArray | None = None
    """(h', w') the light field that put ``thumbnail`` back under the
    calibration's light (:func:`vision.relight.light_factor`), or None
    where there was no calibration's empty board to measure it against."""

    def seen_in(self, other: SlotFeatures) -> SlotFeatures:
        """These features as the frame of ``other`` (the same board under
        other light) shows them: where that frame had more light, clipped
        where it clips (:func:`vision.relight.as_in_frame`), so that the
        two compare alike."""
        light = other.light
        if light is None or not (light < 1).any() or light.shape != self.thumbnail.shape[:2]:
            return self

        def clipped(looks: FloatArray, xy: FloatArray) -> FloatArray:
            return as_in_frame(looks, field_at(light, self.on_board(xy)))

        return replace(
            self,
            patches=clipped(self.patches, self.slot_xy),
            bar=clipped(self.bar, self.bar_xy),
            thumbnail=as_in_frame(self.thumbnail, light),
            junctions=None
            if self.junctions is None or self.junction_xy is None
            else clipped(self.junctions, self.junction_xy),
        )

    def on_board(self, xy: FloatArray) -> FloatArray:
        """``thumbnail`` positions ``xy`` (..., 2) as normalised board
        coordinates (..., 2) in 0..1, where the light field is modelled."""
        h, w = self.thumbnail.shape[:2]
        return np.asarray(xy / np.array([w, h], np.float32), np.float32)

    def moved_junctions(self, rows: npt.NDArray[np.intp], cols: npt.NDArray[np.intp]) -> FloatArray:
        """(N, K, J, T, T, 4) patches at the junctions of the N points
        (``rows``, ``cols``), each moved by one of the K :data:`PILE_SHIFTS`,
        turned like ``junctions``."""
        centres = self._junction_xy()[rows, cols][:, None] + PILE_SHIFTS[None, :, None]
        return self.cut(centres, np.broadcast_to((np.asarray(rows) == 1)[:, None, None], centres.shape[:-1]))

    def past_line(self) -> FloatArray:
        """(2, 12, T, T, 4) patches one pitch past each point's last
        measured junction, half a pitch past a full line's fifth checker:
        where a pile's tenth checker lies when the second layer runs on
        past the line (no reading counts it; a change there between two
        frames shows it laid or taken away). Turned like ``junctions``."""
        return self.cut(self.past_line_xy, np.broadcast_to(np.array([False, True])[:, None], (2, 12)))

    @property
    def past_line_xy(self) -> FloatArray:
        """(2, 12, 2) where :meth:`past_line` cuts its patches in ``thumbnail``."""
        junction_xy = self._junction_xy()
        return np.asarray(2 * junction_xy[:, :, -1] - junction_xy[:, :, -2], np.float32)

    def _junction_xy(self) -> FloatArray:
        if self.junction_xy is None or self.edges is None:
            raise ValueError("these features were measured without their junctions")
        return self.junction_xy

    def cut(self, xy: FloatArray, bottom: npt.NDArray[np.bool_]) -> FloatArray:
        """Patches (..., T, T, 4) of ``thumbnail`` and ``edges`` around
        ``xy`` (..., 2), those on the bottom row (``bottom`` (...)) turned so
        that the board's edge is up."""
        if self.edges is None:
            raise ValueError("these features were measured without their edge strength")
        cut = _patches(np.dstack([self.thumbnail, self.edges]), xy, 1.0)
        cut[bottom] = cut[bottom][:, ::-1]
        return cut

    @property
    def lab(self) -> FloatArray:
        c = PATCH // 2
        return np.asarray(self.patches[..., c - 1 : c + 2, c - 1 : c + 2, :3].mean(axis=(-3, -2)), np.float32)


def to_lab(rectified: Image) -> FloatArray:
    """(h, w, 3) BGR uint8 -> (h, w, 3) float32 Lab (L 0..255, a/b centred on 128)."""
    return np.asarray(cv2.cvtColor(rectified, cv2.COLOR_BGR2Lab), np.float32)


def _patches(small: FloatArray, centres: FloatArray, scale: float) -> FloatArray:
    """Bilinear T x T patches of ``small`` around ``centres`` (..., 2) given in
    rectified px (``scale`` rectified -> small); (..., T, T, 3)."""
    lead = centres.shape[:-1]
    flat = centres.reshape(-1, 2) * scale
    offsets = np.arange(PATCH, dtype=np.float32) - (PATCH - 1) / 2
    map_x = (flat[:, 0, None, None] + offsets[None, None, :] + 0 * offsets[None, :, None]).astype(np.float32)
    map_y = (flat[:, 1, None, None] + offsets[None, :, None] + 0 * offsets[None, None, :]).astype(np.float32)
    n = len(flat)
    out = cv2.remap(
        small,
        map_x.reshape(n * PATCH, PATCH),
        map_y.reshape(n * PATCH, PATCH),
        cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_REPLICATE,
    )
    return np.asarray(out, np.float32).reshape(*lead, PATCH, PATCH, CHANNELS)


def junction_centres(geometry: BoardGeometry) -> FloatArray:
    """Where two checkers of a line touch, (2, 12, J, 2) rectified (x, y)
    px: the first :data:`JUNCTIONS` of every point, from the edge."""
    centres = slot_centres(geometry)[:, :, : min(geometry.slots, JUNCTIONS)].copy()
    centres[0, :, :, 1] += geometry.pitch_px / 2
    centres[1, :, :, 1] -= geometry.pitch_px / 2
    return centres


def measure(
    rectified: Image, geometry: BoardGeometry, *, empty: FloatArray | None = None, lab: FloatArray | None = None
) -> SlotFeatures:
    """Slot patches of a rectified board (height, width, 3) BGR uint8;
    with ``empty``, the calibration's thumbnail of the empty board, put
    back under the calibration's light first (:mod:`vision.relight`).
    ``lab``: the board's :func:`to_lab`, where the caller has it."""
    lab = to_lab(rectified) if lab is None else lab
    scale = PATCH / geometry.pitch_px
    height, width = lab.shape[:2]
    lightness = cv2.GaussianBlur(lab[:, :, 0], (3, 3), 0)
    edges = np.abs(cv2.Sobel(lightness, cv2.CV_32F, 1, 0, ksize=3)) + np.abs(
        cv2.Sobel(lightness, cv2.CV_32F, 0, 1, ksize=3)
    )
    size = (max(1, round(width * scale)), max(1, round(height * scale)))
    # each plane shrunk on its own (the same as shrinking them stacked, in half the time)
    small = np.dstack(
        [cv2.resize(plane, size, interpolation=cv2.INTER_AREA) for plane in (lab, EDGE_WEIGHT * edges)]
    ).astype(np.float32)
    light = None
    if empty is not None and empty.shape == small.shape[:2] + (3,):
        small, light = as_calibrated(small, empty, sigma=RELIGHT_SIGMA)
    # pixel centres: rectified x maps to x * scale - 0.5 + 0.5 * scale in the small image
    shift = 0.5 * scale - 0.5
    centres = slot_centres(geometry)
    bar_centres = bar_slot_centres(geometry)
    patches = _patches(small, centres + shift / scale, scale)
    patches[1] = patches[1, :, :, ::-1]  # the bottom row turned: the board's edge is up in every patch
    junction_xy = junction_centres(geometry)
    junctions = _patches(small, junction_xy + shift / scale, scale)
    junctions[1] = junctions[1, :, :, ::-1]
    return SlotFeatures(
        patches=patches,
        bar=_patches(small, bar_centres + shift / scale, scale),
        thumbnail=np.ascontiguousarray(small[:, :, :3]),
        slot_xy=(centres * scale + shift).astype(np.float32),
        bar_xy=(bar_centres * scale + shift).astype(np.float32),
        bar_edges=(geometry.bar[0] * scale + shift, geometry.bar[1] * scale + shift),
        junctions=junctions,
        junction_xy=(junction_xy * scale + shift).astype(np.float32),
        edges=np.ascontiguousarray(small[:, :, 3]),
        light=light,
    )


def edge_magnitude(lab: FloatArray) -> FloatArray:
    """Sum over the Lab channels of |d/dx| + |d/dy| after a light blur, (h, w)."""
    blurred = cv2.GaussianBlur(lab, (3, 3), 0)
    gx = np.abs(cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3)).sum(axis=2)
    gy = np.abs(cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3)).sum(axis=2)
    return np.asarray(gx + gy, np.float32)


def estimate_pitch(rectified: Image, geometry: BoardGeometry) -> float:
    """The distance between neighbouring checkers along a point, rectified px,
    from the period of the edges along the points (checkers in a line repeat
    every diameter); 0.92 point widths when the board shows no such period."""
    edges = edge_magnitude(to_lab(rectified))
    width = geometry.point_width_px
    height = geometry.size[1]
    centres = slot_centres(geometry)[0, :, 0, 0]
    half = int(height * 0.5)
    total = np.zeros(half, np.float64)
    for cx in centres:
        x0, x1 = int(cx - 0.15 * width), int(cx + 0.15 * width) + 1
        for profile in (edges[:half, x0:x1].mean(axis=1), edges[height - half :, x0:x1].mean(axis=1)[::-1]):
            p = profile - profile.mean()
            total += np.correlate(p, p, mode="full")[half - 1 :]
    lo, hi = int(0.6 * width), min(int(1.3 * width), half - 2)
    if hi <= lo or total[0] <= 0:
        return 0.92 * width
    peaks = [lag for lag in range(lo, hi) if total[lag] >= total[lag - 1] and total[lag] > total[lag + 1]]
    if not peaks:
        return 0.92 * width
    lag = max(peaks, key=lambda p: total[p])
    if total[lag] < 0.05 * total[0]:
        return 0.92 * width
    return _vertex(total, lag)


def _vertex(total: npt.NDArray[np.float64], j: int) -> float:
    """Where the peak of ``total`` at index ``j`` lies, to a fraction of an
    index: the vertex of the parabola through it and its neighbours."""
    if not 0 < j < len(total) - 1:
        return float(j)
    a, b, c = total[j - 1], total[j], total[j + 1]
    denom = a - 2 * b + c
    return float(j + 0.5 * (a - c) / denom) if denom < 0 else float(j)


#: Checker diameters a board may have, in point widths: checkers fill most
#: of a point's width and never more than all of it.
PITCH_RANGE = (0.80, 1.06)
#: Circles of a checker's size (:func:`circle_pitch`): at least this many
#: found in a photo give its checkers' diameter ...
LEAST_CIRCLES = 3
#: ... each round and whole to this share at least (OpenCV's
#: ``HOUGH_GRADIENT_ALT`` ``param2``; 1 is a perfect circle) ...
ROUNDNESS = 0.7
#: ... and the period of the lines of checkers is looked for from this
#: share below that diameter to this share above it (:func:`line_pitch`):
#: a circle found is a checker's top face, whose bevel leaves it smaller
#: than the checker.
NEAR_CIRCLES = (0.03, 0.08)
#: The resolution of the circles' centres (px): OpenCV's accumulator
#: cell, ``dp`` times the image's pixel.
CENTRE_STEP = 1.5
#: Two circles one above the other in a point (:func:`spacing_pitch`) are
#: neighbours in a line when their centres stand this many of their radii
#: apart: touching checkers two radii, whatever the board's aspect in the
#: photo did to them (a tenth and more either way), ...
NEIGHBOURS = (1.4, 2.8)
#: ... a run of more than this many such steps is a line squeezed
#: closer than the checkers' size (six and more checkers in a point) ...
LONGEST_LINE = 4
#: ... and the steps that agree must come from the lines of this many
#: points at least: a board's aspect shows in all of them, one squeezed or
#: loose line only in itself.
LEAST_LINES = 3


def checker_circles(rectified: Image, geometry: BoardGeometry) -> FloatArray:
    """(N, 3) x, y and radius (rectified px) of the circles of a checker's
    size (within :data:`PITCH_RANGE` of a point's width) in a rectified
    board: checkers are its only round things that size, lone or in a
    line, on points of any colour."""
    width = geometry.point_width_px
    return circles(rectified, int(PITCH_RANGE[0] * width / 2) - 1, int(PITCH_RANGE[1] * width / 2) + 2)


def circle_pitch(found: FloatArray) -> float | None:
    """The diameter of the checkers (px), twice the median radius of the
    circles of their size ``found`` (:func:`checker_circles`); None where
    fewer than :data:`LEAST_CIRCLES` are."""
    if len(found) < LEAST_CIRCLES:
        return None
    return 2 * float(np.median(found[:, 2]))


def spacing_pitch(found: FloatArray) -> float | None:
    """The distance between neighbouring checkers along a point (px): how
    far apart the circles of a checker's size ``found``
    (:func:`checker_circles`) stand one above the other in a point's line.

    A board rectified from a photo taken askew keeps the photo's apparent
    aspect (:func:`vision.geometry.rectified_size`), so its checkers are
    ellipses, along the points a tenth and more longer or shorter than
    across; a circle's size then says little of the pitch along the
    points, but the steps between the centres of touching checkers are
    that pitch, and the top faces' bevel or a checker's side seen askew
    leaves them alone.

    Circles within half a radius of each other across the board stand in
    one point; steps of :data:`NEIGHBOURS` radii between them are
    neighbours, in runs of at most :data:`LONGEST_LINE` steps. The pitch is
    the mean of the steps within one :data:`CENTRE_STEP` of the step most
    others so agree with (of those, the nearest their median): a loose or
    squeezed line differs by more. None where they come from fewer than
    :data:`LEAST_LINES` points."""
    if len(found) < 2:
        return None
    radius = float(np.median(found[:, 2]))
    found = found[np.argsort(found[:, 0])]
    points = np.split(found, np.nonzero(np.diff(found[:, 0]) > 0.5 * radius)[0] + 1)
    steps: list[float] = []
    lines: list[int] = []
    for index, point in enumerate(points):
        gaps = np.diff(np.sort(point[:, 1]))
        near = (gaps > NEIGHBOURS[0] * radius) & (gaps < NEIGHBOURS[1] * radius)
        bounds = np.flatnonzero(np.diff(np.concatenate([[0], near.astype(np.int8), [0]])))
        for start, stop in zip(bounds[::2], bounds[1::2], strict=True):
            if stop - start <= LONGEST_LINE:
                steps.extend(gaps[start:stop].tolist())
                lines.extend([index] * (stop - start))
    if len(steps) < LEAST_LINES:
        return None
    step = np.asarray(steps)
    agree = np.abs(step[:, None] - step[None, :]) <= CENTRE_STEP
    support = agree.sum(axis=1)
    best = np.flatnonzero(support == support.max())
    middle = best[np.argmin(np.abs(step[best] - np.median(step)))]
    if len(set(np.asarray(lines)[agree[middle]].tolist())) < LEAST_LINES:
        return None
    return float(step[agree[middle]].mean())


def circles(rectified: Image, smallest: int, largest: int) -> FloatArray:
    """(N, 3) x, y and radius (rectified px) of the circles of a radius
    from ``smallest`` to ``largest`` px in a rectified board, round to
    :data:`ROUNDNESS` at least, none two within 1.6 ``smallest`` (two
    checkers side by side are farther apart)."""
    found = cv2.HoughCircles(
        cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY),
        cv2.HOUGH_GRADIENT_ALT,
        dp=CENTRE_STEP,
        minDist=1.6 * smallest,
        param1=100,
        param2=ROUNDNESS,
        minRadius=smallest,
        maxRadius=largest,
    )
    return np.zeros((0, 3), np.float32) if found is None else np.asarray(found[0], np.float32)


def stretch_along(found: FloatArray) -> float:
    """How much longer along its points a board stands than it was
    rectified (its aspect over the photo's apparent one,
    :func:`vision.geometry.rectified_size`), from the circles of a
    checker's size ``found`` in it (:func:`checker_circles`): a board seen
    askew shows its checkers as ellipses, a tenth and more longer or
    shorter along the points than across, and the steps between touching
    checkers (:func:`spacing_pitch`) then fall outside the pitches the
    circles' diameter allows (:data:`NEAR_CIRCLES`). Such a board is
    stretched so that they fall in the middle of them; one whose steps
    fall within, or too few circles to tell, is left as it is (1)."""
    diameter = circle_pitch(found)
    steps = spacing_pitch(found)
    if diameter is None or steps is None:
        return 1.0
    low, high = (1 - NEAR_CIRCLES[0]) * diameter, (1 + NEAR_CIRCLES[1]) * diameter
    return 1.0 if low <= steps <= high else (low + high) / 2 / steps


#: Stretches a board seen far askew, whose checkers are too oval to pass
#: for circles where it is rectified to the photo's apparent aspect, is
#: tried at (:func:`vision.read.geometry_from_corners`): about a fifth
#: shorter or longer along its points.
ASKEW_TRIALS = (0.8, 1.25)


def line_pitch(rectified: Image, geometry: BoardGeometry, found: FloatArray) -> float:
    """The distance between neighbouring checkers along a point, rectified px,
    on a board never calibrated (and rectified to its aspect,
    :func:`stretch_along`): the period of the edges along the points'
    middles (checkers in a line repeat every diameter), looked for within
    :data:`NEAR_CIRCLES` of the diameter of the circles of a checker's
    size ``found`` in it (:func:`checker_circles`, :func:`circle_pitch`)
    where there are enough of them, else within :data:`PITCH_RANGE`
    (:func:`estimate_pitch` looks wider, for one of the guesses a
    calibration tries). Alone, the period misses by 5 % and more in one
    photo of four, most of all where points are the checkers' colours
    (gold checkers on gold points); the circles alone in one of twenty,
    but they measure the checkers' top faces, a little smaller than their
    pitch.

    Each point's edge profile over the reach of a line of five is taken
    less its smoothed self (the triangle's own slow change would pull the
    period short) and correlated with itself at every lag; the lag where
    the points together correlate best, to a fraction of a pixel, is the
    pitch. Where no point shows a period, or the best lies at either end
    of the lags looked at near the circles (the lines then disagree with
    them): the circles' diameter, or, where none are seen, 0.92 point
    widths."""
    edges = edge_magnitude(to_lab(rectified))
    width = geometry.point_width_px
    height = geometry.size[1]
    reach = int(min(0.5 * height, 4.2 * width))
    diameter = circle_pitch(found)
    if diameter is None:
        low, high, fallback = PITCH_RANGE[0] * width, PITCH_RANGE[1] * width, 0.92 * width
    else:
        low, high, fallback = (1 - NEAR_CIRCLES[0]) * diameter, (1 + NEAR_CIRCLES[1]) * diameter, diameter
    lags = np.arange(int(np.ceil(low)), int(high) + 1)
    if reach <= lags[-1] + 2:
        return fallback
    total = np.zeros(len(lags), np.float64)
    for cx in slot_centres(geometry)[0, :, 0, 0]:
        x0, x1 = int(cx - 0.2 * width), int(cx + 0.2 * width) + 1
        for band in (edges[:reach, x0:x1], edges[height - reach :, x0:x1][::-1]):
            profile = np.asarray(band.mean(axis=1), np.float32)[:, None]
            profile = (profile - cv2.GaussianBlur(profile, (1, 0), sigmaX=0.1, sigmaY=0.3 * width))[:, 0]
            for j, lag in enumerate(lags):
                a, b = profile[:-lag], profile[lag:]
                norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
                if norm > 1e-9:
                    total[j] += float((a * b).sum()) / norm
    j = int(np.argmax(total))
    if total[j] <= 0 or (diameter is not None and not 0 < j < len(lags) - 1):
        return fallback
    return float(lags[0] + _vertex(total, j))


def stack_pitch(rectified: Image, geometry: BoardGeometry, counts: npt.NDArray[np.int64]) -> float | None:
    """The checker pitch (rectified px) measured on a board whose ``counts``
    (2, 12) are known (the starting position at calibration): where each
    line of checkers ends, compared with an empty point of the same colour
    beside it, divided by its number of checkers; the median over the
    points with two or more. None when no line can be measured."""
    lab = cv2.GaussianBlur(to_lab(rectified), (5, 5), 0)
    height = geometry.size[1]
    width = geometry.point_width_px
    half = int(height * 0.5)
    xs = slot_centres(geometry)[0, :, 0, 0]
    estimates: list[float] = []
    for row in range(2):
        for col in range(12):
            n = abs(int(counts[row, col]))
            if n < 2:
                continue
            same = [c for c in range(col % 2, 12, 2) if counts[row, c] == 0]
            if not same:
                continue
            other = min(same, key=lambda c: (abs(c - col), (c < 6) != (col < 6)))

            def profile(row: int, c: int) -> npt.NDArray[np.float32]:
                x0, x1 = int(xs[c] - 0.2 * width), int(xs[c] + 0.2 * width) + 1
                band = lab[:half, x0:x1] if row == 0 else lab[height - half :, x0:x1][::-1]
                return np.asarray(band.mean(axis=1), np.float32)

            diff = np.linalg.norm(profile(row, col) - profile(row, other), axis=1)
            level = float(np.median(diff[int(0.3 * width) : int(0.9 * width)]))
            if level < 8:
                continue
            above = np.nonzero(diff > 0.5 * level)[0]
            above = above[above < int(min(n + 1.5, half / width) * width)]
            if len(above) == 0:
                continue
            estimates.extend([float(above[-1] + 1) / n] * n)
    return float(np.median(estimates)) if estimates else None
