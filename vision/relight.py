"""Light that changed since calibration: a shadow, a lamp, the evening.

A camera with its exposure locked (issue 5) sees the board darker where a
player leans over it and casts a shadow, and all over as daylight fades.
Less light scales a surface's linear colour; in Lab that scales ``L + 16``
(CIE units) and the chroma ``a``, ``b`` by one factor, the cube root of the
light's. The calibration's empty board shows every bare place under the
light it had: where the frame shows the same chroma so scaled, the board
is bare there and only the light changed, and the factor is measured.
Smoothed over the board, it gives the light field, and the frame is put
back under the calibration's light before it is read. Where the
calibration recorded the board white (a white point under bright light),
its tint was lost, so the frame is recorded there as the camera would
record it under that light: what it makes brighter than white is clipped
(:func:`as_calibrated`). Where the frame had more light, it clipped white
what calibration recorded with its tint (a cream point or checker), which
no putting back restores: the calibration's looks are then seen as that
frame records them, clipped alike (:func:`as_in_frame`).

The light field is smoothed over three checker pitches (see
:data:`vision.features.RELIGHT_SIGMA`): a person's shadow over the board
is taken away, but a hand's own shadow beside it, smaller, mostly stays,
and :mod:`vision.occlusion` still sees it with the hand.

The factor is bounded (``MIN_FACTOR``..``MAX_FACTOR``): a dark sleeve over
the board is no shadow, and what the bound leaves of it still departs from
the empty board (:mod:`vision.occlusion`).
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.smoothing import gaussian_blur

FloatArray = npt.NDArray[np.float32]

#: ``L + 16`` in CIE units, in OpenCV's 8-bit Lab scale (L 0..255).
_L_OFFSET = 16 * 255 / 100
#: OpenCV's 8-bit Lab scale (L 0..255, a and b centred on 128) to its
#: floating-point one (L 0..100, a and b centred on 0): times the scale, less the offset.
_LAB_SCALE = np.array([100 / 255, 1, 1], np.float32)
_LAB_OFFSET = np.array([0, 128, 128], np.float32)
#: The same, as OpenCV's four-channel scalars: to scale a whole image at once, and back.
_TO_CV_SCALE = np.append(_LAB_SCALE, 0).astype(np.float64)
_FROM_CV_SCALE = np.append(1 / _LAB_SCALE, 0).astype(np.float64)
_CV_OFFSET = np.append(_LAB_OFFSET, 0).astype(np.float64)
#: How far (Lab) a colour of a photo's 8-bit Lab moves, at most, when turned to BGR and back unclipped.
_ROUNDING = 1.0
#: A place the calibration recorded with one of B, G, R at least this share
#: of the sensor's white is recorded white: its tint (if any) was clipped.
WHITE = 0.9
#: The factor on ``L + 16`` and the chroma: the frame up to this much brighter
#: (a lamp's pool of light: twice the light is 1.26 on L + 16; at 1 / 0.7 a
#: hand over a wooden board passed for light) ...
MIN_FACTOR = 0.8
#: ... and this much darker than the calibration (a third of its light or so).
MAX_FACTOR = 1.45
#: A bare place keeps its chroma within this (Lab) once the factor is applied.
CHROMA_TOLERANCE = 8.0
#: ... and its factor within this share of the light field's first estimate.
FACTOR_TOLERANCE = 0.08
#: Changes of light smaller than this share are left alone (noise, a checker's
#: shade), and larger ones are taken back by this much less.
DEADBAND = 0.03
#: Where less than this share of the neighbourhood shows the bare board, the light is left as it was.
MIN_BARE = 0.05


def _factor(frame: FloatArray, empty: FloatArray) -> FloatArray:
    """(h, w) the factor on ``L + 16`` that takes ``frame`` to ``empty`` per pixel."""
    return np.asarray((empty[..., 0] + _L_OFFSET) / np.maximum(frame[..., 0] + _L_OFFSET, 1.0), np.float32)


def _smooth(values: FloatArray, weights: FloatArray, sigma: float) -> tuple[FloatArray, FloatArray]:
    """The ``weights``-weighted Gaussian mean of ``values`` and the weights' own mean."""
    v, w = gaussian_blur(np.stack([values * weights, weights]), sigma)
    return np.asarray(v / np.maximum(w, 1e-6), np.float32), np.asarray(w, np.float32)


def light_ratio(colour: FloatArray, reference: FloatArray) -> float | None:
    """The one factor on ``L + 16`` and the chroma that puts the surface
    ``reference`` (n, 3) Lab under the light ``colour`` (n, 3) shows it in
    (median over the pixels), or None where the two are no one surface
    so lit (the chroma disagrees, on most of them)."""
    factor = float(np.median(_factor(reference, colour)))
    chroma = np.abs((reference[:, 1:] - 128) * factor - (colour[:, 1:] - 128)).max(axis=-1)
    return factor if float(np.median(chroma)) < CHROMA_TOLERANCE else None


def light_factor(frame: FloatArray, empty: FloatArray, *, sigma: float) -> FloatArray:
    """(h, w) the light field: the factor on ``L + 16`` and the chroma that
    puts ``frame`` (h, w, 3) Lab back under the light of ``empty`` (the
    calibration's empty board, same size), smoothed over ``sigma`` px;
    1 where nothing bare shows nearby."""
    factor = np.clip(_factor(frame, empty), MIN_FACTOR, MAX_FACTOR)
    chroma = np.abs((frame[..., 1:] - 128) * factor[..., None] - (empty[..., 1:] - 128)).max(axis=-1)
    bare = (chroma < CHROMA_TOLERANCE).astype(np.float32)
    log_factor = np.log(factor)
    first, _ = _smooth(log_factor, bare, sigma)
    # a second look, with only the places whose factor is near the first
    # estimate (a checker the chroma of the board under it is no bare place)
    bare *= (np.abs(log_factor - first) < FACTOR_TOLERANCE).astype(np.float32)
    second, weight = _smooth(log_factor, bare, sigma)
    second = np.where(weight > MIN_BARE, second, 0.0)
    field = np.exp(second)
    field = 1 + np.sign(field - 1) * np.maximum(np.abs(field - 1) - DEADBAND, 0)
    return np.asarray(np.clip(field, MIN_FACTOR, MAX_FACTOR), np.float32)


def relit(frame: FloatArray, factor: FloatArray) -> FloatArray:
    """``frame`` (h, w, C) Lab (and further channels of lightness edges) under the light ``factor`` (h, w)."""
    out = frame.copy()
    out[..., 0] = (frame[..., 0] + _L_OFFSET) * factor - _L_OFFSET
    out[..., 1:3] = (frame[..., 1:3] - 128) * factor[..., None] + 128
    if frame.shape[-1] > 3:
        out[..., 3:] = frame[..., 3:] * factor[..., None]
    return out


def as_calibrated(frame: FloatArray, empty: FloatArray, *, sigma: float) -> tuple[FloatArray, FloatArray]:
    """``frame`` (h, w, C) Lab (and further channels, see :func:`relit`)
    put back under the light of ``empty``, the calibration's empty board
    ((h, w, 3) Lab; the light field: :func:`light_factor`). Where the
    calibration recorded the board white (:data:`WHITE`) and the frame had
    less light, it is recorded as the camera would record it there
    (:func:`recorded`): a white point whose tint the calibration's brighter
    light clipped shows that tint in a darker frame, and put back unclipped
    looks like a light checker (bench seed 3, photo 168: 30 light
    checkers). Elsewhere the calibration's colours are the board's own, and
    what the light field makes too bright (it is smoothed past a shadow's
    edge) is better left to the comparisons' gain than clipped away.
    Also the light field (h, w)."""
    factor = light_factor(frame[..., :3], empty, sigma=sigma)
    out = relit(frame, factor)
    darker = factor > 1
    if darker.any():
        white = np.zeros_like(darker)
        white[darker] = _bgr(empty[darker]).max(axis=-1) >= WHITE
        if white.any():
            out[white, :3] = recorded(out[white, :3])
    return out, factor


def as_in_frame(lab: FloatArray, factor: FloatArray) -> FloatArray:
    """``lab`` (..., C) Lab (and, with C = 4, a channel of lightness edges,
    left as it is), seen under the calibration's light, as a frame under
    the light ``factor`` (one for each colour, or for each of its leading
    axes: a patch's; see :func:`light_factor`) records it, put back under
    the calibration's light (:func:`as_calibrated`): where the frame had
    more light, each of B, G, R that it makes brighter than white is
    clipped there (and a colour no camera records, clipped as the camera
    clips it). A tinted white (a cream point or checker) the calibration
    recorded is recorded white by a brighter frame, and put back it is a
    neutral grey-white that no unclipped look fits.

    The factor on ``L + 16`` and the chroma is the cube root of the
    light's, which scales linear B, G, R alike: the frame's white is
    ``factor ** 3`` of the calibration's in linear light (the factor the
    frame had, before :data:`DEADBAND`)."""
    brighter = factor < 1
    if not brighter.any():
        return lab
    # the frame's own light: the field takes back DEADBAND less of it (the comparisons' gain takes the rest)
    white = np.where(brighter, factor - DEADBAND, 1.0).astype(np.float32) ** 3
    places = white.shape + (1,) * (lab.ndim - 1 - white.ndim)
    channels = lab.shape[-1]
    # every colour in one row of an image, converted by OpenCV a row at a time (a column is ten times slower)
    row = np.ascontiguousarray(lab, np.float32).reshape(1, -1, channels)
    colours = cv2.cvtColor(row, cv2.COLOR_BGRA2BGR) if channels == 4 else row
    linear = cv2.cvtColor(cv2.subtract(cv2.multiply(colours, _TO_CV_SCALE), _CV_OFFSET), cv2.COLOR_Lab2LBGR)
    ceiling = np.broadcast_to(white.reshape(places), lab.shape[:-1]).reshape(1, -1)
    back = cv2.cvtColor(cv2.min(linear, cv2.merge([ceiling, ceiling, ceiling])), cv2.COLOR_LBGR2Lab)
    back = cv2.multiply(cv2.add(back, _CV_OFFSET), _FROM_CV_SCALE)
    if channels == 4:
        back = cv2.cvtColor(back, cv2.COLOR_BGR2BGRA)
        back[..., 3] = row[..., 3]
    out = np.asarray(back.reshape(lab.shape), np.float32)
    if not brighter.all():
        out = np.where(np.broadcast_to(brighter.reshape(places), lab.shape[:-1])[..., None], out, lab)
    return out


def field_at(field: FloatArray, xy: FloatArray) -> FloatArray:
    """The light field ``field`` (h, w) at normalised board coordinates
    ``xy`` (..., 2) in 0..1 (pixel centres at whole numbers: ``x * w``)."""
    h, w = field.shape
    col = np.clip(np.rint(xy[..., 0] * w), 0, w - 1).astype(np.intp)
    row = np.clip(np.rint(xy[..., 1] * h), 0, h - 1).astype(np.intp)
    return np.asarray(field[row, col], np.float32)


def recorded(lab: FloatArray) -> FloatArray:
    """``lab`` (..., 3) Lab (OpenCV's 8-bit scale) as a camera records it:
    a colour past what its sensor holds (any of B, G, R below black or
    past white) clipped there; the rest as it is."""
    # OpenCV clips as it converts: a colour it moves further than an 8-bit Lab's rounding was clipped
    back = cv2.cvtColor(_bgr(lab)[None], cv2.COLOR_BGR2Lab)
    out = ((back + _LAB_OFFSET) / _LAB_SCALE).reshape(lab.shape)
    clipped = np.abs(out - lab).max(axis=-1, keepdims=True) > _ROUNDING
    return np.asarray(np.where(clipped, out, lab), np.float32)


def _bgr(lab: FloatArray) -> FloatArray:
    """(n, 3) BGR in 0..1 (clipped there) of ``lab`` (..., 3) Lab in OpenCV's 8-bit scale."""
    flat = np.asarray(lab, np.float32).reshape(1, -1, 3) * _LAB_SCALE - _LAB_OFFSET
    return np.asarray(cv2.cvtColor(flat, cv2.COLOR_Lab2BGR)[0], np.float32)


def same_surface(colour: FloatArray, reference: FloatArray) -> npt.NDArray[np.bool_]:
    """(n,) whether each ``colour`` (n, 3) Lab is its ``reference`` (n, 3)
    under other light: within the factor's bounds, and with the chroma the
    factor predicts (a shadow over the board's frame is no arm)."""
    factor = _factor(colour, reference)
    chroma = np.abs((colour[:, 1:] - 128) * factor[:, None] - (reference[:, 1:] - 128)).max(axis=-1)
    return np.asarray((factor >= MIN_FACTOR) & (factor <= MAX_FACTOR) & (chroma < CHROMA_TOLERANCE), np.bool_)
