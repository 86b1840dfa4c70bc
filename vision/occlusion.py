"""Is anything on the board that should not be there? A hand, an arm, a dice
cup.

The calibration keeps a thumbnail of the *empty* board (the start position's
checkers replaced by the look of an empty point of the same colour). Away
from the checkers the reading found, a frame must look like that empty board;
where it departs from it over an area bigger than part of a checker,
something unknown covers the board and the frame is refused. This covers the
whole playing area, also the middle of the board where no checker stands;
the checkers themselves are judged slot by slot (:mod:`vision.read`). A fixed
camera also has the frame before the move, read and not refused: only what
changed since (:func:`changed`) can be something reaching in.
"""

from __future__ import annotations

import base64

import cv2
import numpy as np
import numpy.typing as npt

from vision.colours import DISC, LIGHT, LINE, ColourModel
from vision.errors import CalibrationError
from vision.features import PATCH, SlotFeatures
from vision.relight import light_ratio, relit, same_surface
from vision.smoothing import gaussian_blur

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]

_HALF = PATCH // 2
#: What departs from the board faintly over a hand's area is light, not a
#: hand (the band a shadow's sharp edge leaves in the relit frame), where
#: it keeps the board's colour: at least this share of it is the same
#: surface under other light (nearly all of such a band in
#: ``bench/light.py``; a pale hand on a pale board, a third or less) ...
LIGHT_SHARE = 0.8
#: ... and its edges: of the fine structure there (the lightness less its
#: Gaussian of ``EDGE_SIGMA`` thumbnail px, the board's scaled by one
#: factor), at most this share (RMS) is not the board's. The band along a
#: shadow's edge leaves a tenth to a quarter (its own edge is soft); a hand
#: hides the points' edges and brings its sharp outline: a brown hand on
#: pale wood, which keeps the wood's colour, 0.44 (``bench/vision.py``
#: seed 7 photo 180), a pale hand painted on a pale board 0.87.
EDGES_NOT_KEPT = 0.3
EDGE_SIGMA = 1.0


def _strips(features: SlotFeatures, occupied: BoolArray) -> list[tuple[slice, slice, float, slice]]:
    """Where :func:`empty_board` borrows: for each point with checkers
    (``occupied`` slots (2, 12, S)), the rows and columns of ``thumbnail``
    covered, the (fractional) x distance to the point borrowed from, and
    the rows just past the strip, toward the board's middle, where the
    point shows itself (empty where the thumbnail ends)."""
    h, w = features.thumbnail.shape[:2]
    xy = features.slot_xy
    slots = xy.shape[2]
    free = np.asarray(~occupied.any(axis=-1), np.bool_)
    centres = xy[:, :, 0, 0]
    strips: list[tuple[slice, slice, float, slice]] = []
    for row in range(2):
        widths = np.diff(centres[row])
        width = float(np.median(widths[widths > 0])) if (widths > 0).any() else float(PATCH)
        for col in range(12):
            n = int(occupied[row, col].sum())
            if n == 0:
                continue
            same = [c for c in range(col % 2, 12, 2) if free[row, c]]
            if not same:
                continue
            other = min(same, key=lambda c: (abs(c - col), (c < 6) != (col < 6)))
            dx = float(centres[row, other] - centres[row, col])
            x0 = int(np.floor(float(centres[row, col]) - width / 2))
            x1 = int(np.ceil(float(centres[row, col]) + width / 2))
            reach = min(float(n) + 0.7, slots + 0.5) * PATCH
            edge_y = float(xy[row, col, 0, 1]) + (-PATCH / 2 if row == 0 else PATCH / 2)
            y0, y1 = (int(edge_y), int(edge_y + reach)) if row == 0 else (int(edge_y - reach), int(edge_y) + 1)
            shift = int(np.floor(dx))
            x0, x1, y0, y1 = max(x0, 0, -shift), min(x1, w, w - shift - 1), max(y0, 0), min(y1, h)
            past = slice(y1, min(y1 + _HALF, h)) if row == 0 else slice(max(y0 - _HALF, 0), y0)
            if x0 < x1 and y0 < y1:
                strips.append((slice(y0, y1), slice(x0, x1), dx, past))
    return strips


def empty_board(features: SlotFeatures, occupied: BoolArray) -> FloatArray:
    """Thumbnail (h', w', 3) Lab of the board with no checker. Each point
    with checkers (``occupied`` slots (2, 12, S)) takes the strip of the
    nearest point of the same row and colour (parity) that has none, from
    the edge to half a checker past its last one (checkers' rims and
    shadows go with them), the whole width of the point, moved by the exact
    (fractional) distance between the two points: a point's edges are the
    sharpest lines on the board, and a strip a pixel off would show them as
    something lying there. The strip is put under the point's own light
    (a lamp's pool lights one point and not the next), as the two points
    compare just past it (:func:`vision.relight.light_ratio`, where they
    are one surface there)."""
    board = np.array(features.thumbnail, np.float32)

    def moved(rows: slice, cols: slice, dx: float) -> FloatArray:
        shift = int(np.floor(dx))
        part = dx - shift
        source = features.thumbnail[rows]
        left = source[:, cols.start + shift : cols.stop + shift]
        right = source[:, cols.start + shift + 1 : cols.stop + shift + 1]
        return np.asarray((1 - part) * left + part * right, np.float32)

    for rows, cols, dx, past in _strips(features, occupied):
        strip = moved(rows, cols, dx)
        if past.start < past.stop:
            own = features.thumbnail[past, cols].reshape(-1, 3)
            theirs = moved(past, cols, dx).reshape(-1, 3)
            factor = light_ratio(own, theirs)
            if factor is not None:
                strip = relit(strip, np.full(strip.shape[:2], factor, np.float32))
        board[rows, cols] = strip
    return board


def borrowed_area(features: SlotFeatures, occupied: BoolArray) -> BoolArray:
    """(h', w') where :func:`empty_board` took another point's look, given
    the same ``occupied`` slots: the light and the shadows of the frame and
    the bar differ from point to point, so it is a guess there."""
    area = np.zeros(features.thumbnail.shape[:2], np.bool_)
    for rows, cols, _, _ in _strips(features, occupied):
        area[rows, cols] = True
    return area


def _blank(care: BoolArray, centre: npt.NDArray[np.float32], half: int) -> None:
    h, w = care.shape
    x, y = int(round(float(centre[0]))), int(round(float(centre[1])))
    care[max(y - half, 0) : min(y + half + 1, h), max(x - half, 0) : min(x + half + 1, w)] = False


#: How far (thumbnail px) from the frame's and the bar's edges the frame is
#: not judged (:func:`care_mask`): their shadows move with the light.
_EDGE = PATCH // 3


def _bar_edge_columns(features: SlotFeatures) -> tuple[int, int]:
    """The thumbnail columns of the bar's two edges."""
    half = (features.bar_edges[1] - features.bar_edges[0]) / 2
    centre = float(features.bar_xy[0, 0])
    return int(round(centre - half)), int(round(centre + half))


def bar_middle(features: SlotFeatures) -> BoolArray:
    """(h', w') the bar between the strips along its edges that
    :func:`care_mask` leaves out."""
    middle = np.zeros(features.thumbnail.shape[:2], np.bool_)
    left, right = _bar_edge_columns(features)
    middle[_EDGE:-_EDGE, left + _EDGE + 1 : right - _EDGE] = True
    return middle


def between_bar_checkers(features: SlotFeatures, bar_checkers: BoolArray) -> BoolArray:
    """(h', w') the bar's middle (:func:`bar_middle`) between the first and
    the last of the bar probes (B,) a checker was found centred on (none
    where fewer than two were)."""
    between = bar_middle(features)
    ys = features.bar_xy[bar_checkers, 1]
    if len(ys) < 2:
        return np.zeros_like(between)
    rows = np.arange(between.shape[0])
    between[(rows < ys.min()) | (rows > ys.max())] = False
    return between


def checker_rooms(features: SlotFeatures, checkers: BoolArray, counts: npt.NDArray[np.int64]) -> BoolArray:
    """(h', w') the room of every checker read on the points: around the
    slots (2, 12, S) that look like checkers (with their rims and shadows),
    half a checker past the last of every shorter line (its side shows
    there to a camera looking from the board's middle), and past the line
    of a pile (``counts`` (2, 12) from the reading)."""
    room = np.ones(features.thumbnail.shape[:2], np.bool_)  # cleared where a checker's room lies
    slots = features.slot_xy.shape[2]
    half = _HALF + 1
    for row, col, k in zip(*np.nonzero(checkers), strict=True):
        _blank(room, features.slot_xy[row, col, k], half)
    for row, col in zip(*np.nonzero(np.abs(counts) >= LINE), strict=True):
        for k in range(LINE - 1, slots):
            _blank(room, features.slot_xy[row, col, k], half)
    # a camera looking at a line from the board's middle sees the side of
    # its last checker past it
    for row, col in zip(*np.nonzero((np.abs(counts) > 0) & (np.abs(counts) < min(LINE, slots))), strict=True):
        last = int(abs(counts[row, col])) - 1
        _blank(room, (features.slot_xy[row, col, last] + features.slot_xy[row, col, last + 1]) / 2, half)
    return ~room


def bar_rooms(features: SlotFeatures, bar_checkers: BoolArray) -> BoolArray:
    """(h', w') the room of every checker read on the bar: around the bar
    probes (B,) a checker was found centred on."""
    room = np.ones(features.thumbnail.shape[:2], np.bool_)
    for centre in features.bar_xy[bar_checkers]:
        _blank(room, centre, _HALF + 1)
    return ~room


def care_mask(features: SlotFeatures, rooms: BoolArray) -> BoolArray:
    """(h', w') where the frame should look like the empty board: everywhere
    but the ``rooms`` (h', w') of the checkers read (:func:`checker_rooms`,
    :func:`bar_rooms`) and along the frame's and the bar's edges. Whatever
    stands on a slot and does not look like a checker stays in: a hand is
    not a checker."""
    care = ~rooms
    # the frame's and the bar's edges cast shadows that move with the light
    # and a little with every frame: leave a third of a checker along them
    care[:_EDGE], care[-_EDGE:], care[:, :_EDGE], care[:, -_EDGE:] = False, False, False, False
    for x in _bar_edge_columns(features):
        care[:, max(x - _EDGE, 0) : x + _EDGE + 1] = False
    return care


def line_area(features: SlotFeatures, points: BoolArray, *, margin: int = 0) -> BoolArray:
    """(h', w') covered by every slot of the ``points`` (2, 12), and
    ``margin`` px around them."""
    outside = np.ones(features.thumbnail.shape[:2], np.bool_)
    for row, col in zip(*np.nonzero(points), strict=True):
        for centre in features.slot_xy[row, col]:
            _blank(outside, centre, _HALF + 1 + margin)
    return ~outside


#: How far (px, each way) a checker pasted by :func:`paste_checkers` may
#: move to where the frame shows it: players leave checkers a little off
#: their places.
NUDGE = 3


def paste_checkers(
    empty: FloatArray,
    features: SlotFeatures,
    model: ColourModel,
    colours: npt.NDArray[np.int8],
    bar_colours: npt.NDArray[np.int8],
) -> tuple[FloatArray, BoolArray]:
    """The empty board (h', w', 3) with a checker of the learned look pasted
    on every slot whose ``colours`` (2, 12, S) and on every bar probe whose
    ``bar_colours`` (B,) is LIGHT or DARK, each moved up to :data:`NUDGE` px
    to where it fits the frame (``features.thumbnail``) best, and where the
    pasted discs lie (h', w')."""
    board = np.array(empty, np.float32)
    discs = np.zeros(board.shape[:2], np.bool_)
    h, w = board.shape[:2]
    inner = DISC > 0
    centres: list[FloatArray] = []
    templates: list[FloatArray] = []
    xy = features.slot_xy
    light, dark = model.checker_templates(features.on_board(xy))
    for row, col, k in zip(*np.nonzero(colours > 0), strict=True):
        template = (light if colours[row, col, k] == LIGHT else dark)[row, col, k, :, :, :3]
        centres.append(xy[row, col, k])
        templates.append(template[::-1] if row == 1 else template)  # bottom patches are turned edge-up
    light, dark = model.checker_templates(features.on_board(features.bar_xy))
    for i in np.flatnonzero(bar_colours > 0):
        centres.append(features.bar_xy[i])
        templates.append((light if bar_colours[i] == LIGHT else dark)[i, :, :, :3])
    if not centres:
        return board, discs
    corners = _nudged(features.thumbnail, np.rint(np.array(centres)).astype(np.intp) - _HALF, np.array(templates))
    for (x0, y0), template in zip(corners.tolist(), templates, strict=True):
        xa, ya, xb, yb = max(x0, 0), max(y0, 0), min(x0 + PATCH, w), min(y0 + PATCH, h)
        if xa >= xb or ya >= yb:
            continue
        mask = inner[ya - y0 : yb - y0, xa - x0 : xb - x0]
        board[ya:yb, xa:xb][mask] = template[ya - y0 : yb - y0, xa - x0 : xb - x0][mask]
        discs[ya:yb, xa:xb] |= mask
    return board, discs


def _nudged(frame: FloatArray, corners: npt.NDArray[np.intp], templates: FloatArray) -> npt.NDArray[np.intp]:
    """The top-left corners (N, 2) x, y of checkers ``templates`` (N, T, T, 3)
    whose patches start at ``corners``, each moved up to :data:`NUDGE` px to
    where its disc fits ``frame`` (h', w', 3) best (those not wholly on the
    board stay)."""
    h, w = frame.shape[:2]
    inside = (corners >= 0).all(axis=1) & (corners[:, 0] + PATCH <= w) & (corners[:, 1] + PATCH <= h)
    if not inside.any():
        return corners
    padded = np.pad(frame, ((NUDGE, NUDGE), (NUDGE, NUDGE), (0, 0)), mode="edge")
    reach = np.arange(PATCH + 2 * NUDGE)
    x0, y0 = corners[inside, 0], corners[inside, 1]
    around = padded[(y0[:, None] + reach)[:, :, None], (x0[:, None] + reach)[:, None, :]]  # (n, T+2N, T+2N, 3)
    looks = templates[inside]
    inner = DISC > 0
    # every placement at once: (n, 2N+1, 2N+1, 3, T, T) windows of the frame
    windows = np.lib.stride_tricks.sliding_window_view(around, (PATCH, PATCH), axis=(1, 2))
    diff = windows - looks.transpose(0, 3, 1, 2)[:, None, None]
    cost = (np.sqrt(np.einsum("nyxcij,nyxcij->nyxij", diff, diff)) * inner).sum(axis=(3, 4))
    best = cost.reshape(len(x0), -1).argmin(axis=1)
    moved = corners.copy()
    moved[inside, 0] += best % (2 * NUDGE + 1) - NUDGE
    moved[inside, 1] += best // (2 * NUDGE + 1) - NUDGE
    return moved


def departure(
    frame: FloatArray, expected: FloatArray, care: BoolArray, *, light_sigma: float = 2.0 * PATCH
) -> FloatArray:
    """(h', w') how far ``frame`` departs from ``expected`` (both (h', w', 3)
    Lab), over 3x3. Light that changes slowly over the board (a window, a
    lamp, a shadow band) is matched first: the lightness is compared after
    scaling by the ratio of the two images' local means (Gaussian of
    ``light_sigma`` px, over the ``care`` area only)."""
    weights = (care & (frame[..., 0] > 5)).astype(np.float32)
    if not weights.any():
        return np.zeros(care.shape, np.float32)
    # the Gaussian means of the two lightnesses, counting only the care area
    expected_sum, frame_sum, weight = gaussian_blur(
        np.stack([expected[..., 0] * weights, frame[..., 0] * weights, weights]), light_sigma
    )
    weight = np.maximum(weight, 1e-3)
    gain = (expected_sum / weight) / np.maximum(frame_sum / weight, 1.0)
    gain = np.clip(gain, 0.5, 2.0)
    diff = frame - expected
    diff[..., 0] = frame[..., 0] * gain - expected[..., 0]
    return np.asarray(cv2.blur(np.sqrt((diff**2).sum(axis=-1)), (3, 3)), np.float32)


def only_light(frame: FloatArray, expected: FloatArray, region: BoolArray) -> bool:
    """Whether ``frame`` departs from ``expected`` (both (h', w', 3) Lab)
    over ``region`` (h', w') only as a change of light does: the same
    surface (:data:`LIGHT_SHARE`) with the same edges (:data:`EDGES_NOT_KEPT`)."""
    if not region.any():
        return False
    light = same_surface(frame[region], expected[region])
    if float(light.mean()) < LIGHT_SHARE:
        return False
    # the region and its outline
    around = cv2.dilate(region.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    seen, board = (
        (image[..., 0] - cv2.GaussianBlur(image[..., 0], (0, 0), EDGE_SIGMA))[around] for image in (frame, expected)
    )
    scale = float(np.clip((seen * board).sum() / max(float((board * board).sum()), 1e-6), 0.5, 2.0))
    not_kept = float(np.sqrt(((seen - scale * board) ** 2).mean() / max(float((seen * seen).mean()), 1e-6)))
    return not_kept <= EDGES_NOT_KEPT


def unexplained(distance: FloatArray, care: BoolArray, *, residual: float | FloatArray) -> BoolArray:
    """(h', w') where the :func:`departure` ``distance`` is more than
    ``residual`` (a number, or one per pixel (h', w')) within ``care``,
    opened so that a checker a little off its place does not count."""
    strange = ((distance > residual) & care).astype(np.uint8)
    opened = cv2.morphologyEx(strange, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return np.asarray(opened, np.bool_)


def changed(frame: FloatArray, before: FloatArray, threshold: float) -> BoolArray:
    """(h', w') where ``frame`` differs from ``before`` (both (h', w', 3) Lab
    thumbnails of the same camera) by more than ``threshold``, over 3x3."""
    distance = cv2.blur(np.sqrt(((frame - before) ** 2).sum(axis=-1)), (3, 3))
    return np.asarray(distance > threshold, np.bool_)


def slots_touching(mask: BoolArray, features: SlotFeatures) -> BoolArray:
    """(2, 12, S) the slots with a pixel of ``mask`` (h', w') within their square."""
    grown = cv2.dilate(mask.astype(np.uint8), np.ones((PATCH, PATCH), np.uint8))
    h, w = mask.shape
    x = np.clip(np.rint(features.slot_xy[..., 0]).astype(np.intp), 0, w - 1)
    y = np.clip(np.rint(features.slot_xy[..., 1]).astype(np.intp), 0, h - 1)
    return np.asarray(grown[y, x] > 0, np.bool_)


def blobs(mask: BoolArray, joined: BoolArray | None = None, *, least: float = 1.0) -> list[tuple[int, BoolArray]]:
    """The connected regions of ``mask`` of at least ``least`` px, largest
    first, each with its area (px); parts of ``mask`` that ``joined`` (h',
    w') connects are one region (its own px add no area)."""
    connected = mask if joined is None else mask | joined
    count, labels = cv2.connectedComponents(connected.astype(np.uint8), connectivity=8)
    areas = np.bincount(labels[mask], minlength=count)
    return [
        (int(areas[label]), mask & (labels == label))
        for label in np.argsort(-areas)
        if areas[label] > 0 and areas[label] >= least
    ]


def covered_points(region: BoolArray, features: SlotFeatures) -> list[tuple[int, int]]:
    """(row, col) of the points whose slots ``region`` (h', w') touches."""
    h, w = region.shape
    xs = np.clip(np.rint(features.slot_xy[..., 0]).astype(np.intp), 0, w - 1)
    ys = np.clip(np.rint(features.slot_xy[..., 1]).astype(np.intp), 0, h - 1)
    hit = region[ys, xs].any(axis=-1)
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(hit), strict=True)]


def encode(board: FloatArray) -> str:
    """A thumbnail as base64 PNG text (Lab rounded to 8 bits) for the calibration file."""
    ok, data = cv2.imencode(".png", np.clip(np.rint(board), 0, 255).astype(np.uint8))
    if not ok:
        raise CalibrationError("cannot encode the empty-board thumbnail")
    return base64.b64encode(data.tobytes()).decode("ascii")


def decode(text: str) -> FloatArray:
    """The inverse of :func:`encode`."""
    try:
        data = np.frombuffer(base64.b64decode(text.encode("ascii"), validate=True), np.uint8)
    except ValueError:
        raise CalibrationError("the empty-board thumbnail is not base64 text") from None
    image = cv2.imdecode(data, cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3:
        raise CalibrationError("the empty-board thumbnail is not a colour PNG")
    return np.asarray(image, np.float32)
