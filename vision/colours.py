"""What this board looks like, learned from the board itself: the two kinds
of checker, the empty look of every slot and the bar, as small Lab templates
(:mod:`vision.features`), and how much they vary.

The checker kinds are named ``light`` and ``dark`` by brightness (Lab L), or
by the caller's choice where both are about equally bright. Two ways to
learn them:

- :func:`learn_from_layout`: from a board whose layout is known (the starting
  position at calibration, which labels itself);
- :func:`learn_from_image`: from an unknown board: slot pictures that occur
  on points of both colours are checkers (a checker looks the same whatever
  point it stands on; a point's own look belongs to one point colour), split
  in two by brightness.

Comparisons (:func:`template_distance`) allow for a change of light: the
lightness of a patch may be scaled by a gain before it is compared.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CalibrationError
from vision.features import CHANNELS, PATCH, SlotFeatures
from vision.layout import Layout

log = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]

EMPTY, LIGHT, DARK = 0, 1, 2
#: A slot whose state a layout does not fix (past the line of a pile).
UNKNOWN = -1
#: Checkers in a line from the edge before they pile up.
LINE = 5
#: Distances below this are noise whatever the learned spread (Lab units, RMS per pixel).
MIN_SPREAD = 4.0
#: How much the light may change between calibration and a frame (lightness gain).
MAX_GAIN = 1.35
#: Checker kinds closer than this in lightness (Lab L, 8-bit scale) are "equally bright":
#: the caller names them.
SAME_BRIGHTNESS = 25.0


def _disc() -> FloatArray:
    c = (PATCH - 1) / 2
    yy, xx = np.mgrid[0:PATCH, 0:PATCH]
    mask = (((yy - c) ** 2 + (xx - c) ** 2) <= (0.5 * PATCH) ** 2).astype(np.float32)
    return np.asarray(mask / mask.sum(), np.float32)


#: Weights of the patch pixels: the checker's disc (face, rim and edge).
DISC = _disc()


def template_distance(patches: FloatArray, template: FloatArray, *, max_gain: float = MAX_GAIN) -> FloatArray:
    """RMS Lab distance over the disc between ``patches`` (..., T, T, 4) and
    ``template`` (broadcastable to it), the patches' lightness scaled by the
    best gain in [1/max_gain, max_gain]; shape (...)."""
    template = np.broadcast_to(template, patches.shape)
    xl, tl = patches[..., 0], template[..., 0]
    gain = (xl * tl * DISC).sum(axis=(-2, -1)) / np.maximum((xl * xl * DISC).sum(axis=(-2, -1)), 1e-6)
    gain = np.clip(gain, 1 / max_gain, max_gain)[..., None, None]
    d2 = (
        (gain * xl - tl) ** 2
        + ((patches[..., 1:3] - template[..., 1:3]) ** 2).sum(axis=-1)
        + (gain * patches[..., 3] - template[..., 3]) ** 2
    )
    return np.asarray(np.sqrt((d2 * DISC).sum(axis=(-2, -1))), np.float32)


@dataclass(frozen=True, eq=False)
class ColourModel:
    """Templates of one board (Lab, OpenCV 8-bit scale, T x T px each).

    ``background``: (2, 12, S, T, T, 4) the empty look of every slot;
    ``light``/``dark``: (T, T, 4) a checker of each colour; ``bar``: (B, T, T, 4)
    the empty bar at each probe (:func:`vision.geometry.bar_slot_centres`); ``spread``: (3,) the typical distance of an empty slot, a
    light and a dark checker from their template.
    """

    background: FloatArray
    light: FloatArray
    dark: FloatArray
    bar: FloatArray
    spread: FloatArray

    @property
    def light_lab(self) -> FloatArray:
        return np.asarray((self.light[..., :3] * DISC[..., None]).sum(axis=(0, 1)), np.float32)

    @property
    def dark_lab(self) -> FloatArray:
        return np.asarray((self.dark[..., :3] * DISC[..., None]).sum(axis=(0, 1)), np.float32)

    def to_json(self) -> dict[str, Any]:
        return {
            "patch": PATCH,
            "background": np.round(self.background, 1).tolist(),
            "light": np.round(self.light, 1).tolist(),
            "dark": np.round(self.dark, 1).tolist(),
            "bar": np.round(self.bar, 1).tolist(),
            "spread": np.round(self.spread, 3).tolist(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ColourModel:
        try:
            if int(data["patch"]) != PATCH:
                raise CalibrationError(f"templates of {data['patch']!r} px: this nardref uses {PATCH}; calibrate again")
            model = cls(
                background=np.asarray(data["background"], np.float32),
                light=np.asarray(data["light"], np.float32),
                dark=np.asarray(data["dark"], np.float32),
                bar=np.asarray(data["bar"], np.float32),
                spread=np.asarray(data["spread"], np.float32),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"colour model: {type(exc).__name__}: {exc}") from None
        shape = model.background.shape
        if len(shape) != 6 or shape[:2] != (2, 12) or shape[3:] != (PATCH, PATCH, CHANNELS) or model.spread.shape != (3,):
            raise CalibrationError(f"colour model background of shape {shape!r}: expected (2, 12, S, {PATCH}, {PATCH}, {CHANNELS})")
        return model

    def resized(self, slots: int) -> ColourModel:
        """The same model for ``slots`` slots per point (the last learned slot repeats)."""
        have = self.background.shape[2]
        if slots == have:
            return self
        index = np.minimum(np.arange(slots), have - 1)
        return ColourModel(self.background[:, :, index], self.light, self.dark, self.bar, self.spread)


def layout_states(layout: Layout, slots: int) -> npt.NDArray[np.int8]:
    """(2, 12, slots) EMPTY/LIGHT/DARK that ``layout`` puts in each slot.
    Past :data:`LINE` checkers a point's checkers pile up (a second layer, or
    squeezed, or further along the line): the slots from :data:`LINE` on are
    then :data:`UNKNOWN`."""
    states = np.zeros((2, 12, slots), np.int8)
    for row, counts in enumerate((layout.top, layout.bottom)):
        for col, n in enumerate(counts):
            states[row, col, : min(abs(n), slots)] = LIGHT if n > 0 else DARK
            if abs(n) > LINE:
                states[row, col, LINE:] = UNKNOWN
    return states


def _neighbour(empty: npt.NDArray[np.bool_], row: int, col: int, k: int, *, exclude_self: bool) -> int | None:
    """The nearest point of the same row and colour (parity) with slot k empty."""
    same = [c for c in range(col % 2, 12, 2) if empty[row, c, k] and not (exclude_self and c == col)]
    if not same:
        return None
    return min(same, key=lambda c: (abs(c - col), (c < 6) != (col < 6)))


def _fill_background(patches: FloatArray, empty: npt.NDArray[np.bool_]) -> tuple[FloatArray, FloatArray]:
    """Background template of every slot from the empty ones (an occupied
    slot takes the nearest empty slot of the same row, point colour and
    distance from the edge), and the leave-one-out distances of the empty
    slots to their nearest such neighbour (how much empty slots vary)."""
    background = np.array(patches, np.float32)
    slots = patches.shape[2]
    loo: list[float] = []
    for row in range(2):
        for col in range(12):
            for k in range(slots):
                if empty[row, col, k]:
                    other = _neighbour(empty, row, col, k, exclude_self=True)
                    if other is not None:
                        loo.append(float(template_distance(patches[row, col, k], patches[row, other, k])))
                    continue
                other = _neighbour(empty, row, col, k, exclude_self=False)
                if other is not None:
                    background[row, col, k] = patches[row, other, k]
                else:
                    rows_empty = empty[:, :, k]
                    if rows_empty.any():
                        background[row, col, k] = patches[:, :, k][rows_empty].mean(axis=0)
    return background, np.asarray(loo, np.float32)


def _template(samples: FloatArray) -> tuple[FloatArray, float]:
    """Median template of (n, T, T, 3) samples (n, T, T, 4) and their spread about it."""
    template = np.median(samples, axis=0).astype(np.float32)
    d = template_distance(samples, template)
    return template, float(np.percentile(d, 80)) if len(d) else MIN_SPREAD


def _name_by_brightness(first: FloatArray, second: FloatArray, *, first_is_light: bool | None) -> bool:
    """True when ``first`` (a template) is the light kind."""
    l1 = float((first[..., 0] * DISC).sum())
    l2 = float((second[..., 0] * DISC).sum())
    if abs(l1 - l2) < SAME_BRIGHTNESS and first_is_light is not None:
        return first_is_light
    return l1 >= l2


def learn_from_layout(
    features: SlotFeatures, layout: Layout, *, positive_is_light: bool | None = None
) -> tuple[ColourModel, bool]:
    """Learn from a board showing ``layout``, whose signs say which checkers
    belong together (not yet which are light). Returns the model and whether
    the layout's positive checkers are the light ones (by brightness;
    ``positive_is_light`` decides when both are about equally bright)."""
    slots = features.patches.shape[2]
    states = layout_states(layout, slots)
    pos = features.patches[states == LIGHT]
    neg = features.patches[states == DARK]
    if len(pos) == 0 or len(neg) == 0:
        raise CalibrationError(f"layout {layout!r}: needs checkers of both colours to learn them")
    pos_t, pos_s = _template(pos)
    neg_t, neg_s = _template(neg)
    pos_light = _name_by_brightness(pos_t, neg_t, first_is_light=positive_is_light)
    (light, light_s), (dark, dark_s) = ((pos_t, pos_s), (neg_t, neg_s)) if pos_light else ((neg_t, neg_s), (pos_t, pos_s))
    background, loo = _fill_background(features.patches, states == EMPTY)
    empty_s = float(np.percentile(loo, 80)) if len(loo) else MIN_SPREAD
    bar = np.array(features.bar, np.float32)  # the bar is empty at the start
    spread = np.maximum(np.array([empty_s, light_s, dark_s], np.float32), MIN_SPREAD)
    model = ColourModel(background=background, light=light, dark=dark, bar=bar, spread=spread)
    log.debug("learned light %s dark %s spread %s", model.light_lab, model.dark_lab, spread)
    return model, pos_light


def learn_from_image(features: SlotFeatures, *, first_is_light: bool | None = None, clusters: int = 6) -> ColourModel:
    """Learn from a board of unknown layout (see the module's docstring).
    Raises :class:`CalibrationError` when two checker kinds cannot be found."""
    patches = features.patches
    slots = patches.shape[2]
    rows, cols, ks = np.meshgrid(np.arange(2), np.arange(12), np.arange(slots), indexing="ij")
    kind = ((rows + cols) % 2).ravel()
    flat = (patches * np.sqrt(DISC)[..., None]).reshape(2 * 12 * slots, -1).astype(np.float32)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 40, 0.5)
    _, labels, _ = cv2.kmeans(flat, clusters, None, criteria, 4, cv2.KMEANS_PP_CENTERS)  # type: ignore[call-overload]
    labels = labels.ravel()
    mixed: list[tuple[int, int]] = []
    for c in range(clusters):
        members = labels == c
        n = int(members.sum())
        share = float(kind[members].mean()) if n else 0.0
        if n >= 2 and 0.15 <= share <= 0.85:
            mixed.append((n, c))
    if len(mixed) < 2:
        raise CalibrationError("cannot tell the checkers from the points in this picture (too few checkers of each colour)")
    mixed.sort(reverse=True)
    all_patches = patches.reshape(-1, PATCH, PATCH, CHANNELS)
    first, first_s = _template(all_patches[labels == mixed[0][1]])
    second, second_s = _template(all_patches[labels == mixed[1][1]])
    if float(template_distance(first, second)) < 3 * MIN_SPREAD:
        raise CalibrationError("the checkers found are all of one colour: cannot tell light from dark")
    first_light = _name_by_brightness(first, second, first_is_light=first_is_light)
    (light, light_s), (dark, dark_s) = ((first, first_s), (second, second_s)) if first_light else ((second, second_s), (first, first_s))
    checker = np.isin(labels, [mixed[0][1], mixed[1][1]]).reshape(2, 12, slots)
    near = np.minimum(template_distance(patches, light), template_distance(patches, dark))
    empty = ~checker & (near > 2 * MIN_SPREAD)
    background, loo = _fill_background(patches, empty)
    empty_s = float(np.percentile(loo, 80)) if len(loo) else MIN_SPREAD
    bar_template, _ = _template(features.bar)
    bar = np.repeat(bar_template[None], len(features.bar), axis=0)
    spread = np.maximum(np.array([empty_s, light_s, dark_s], np.float32), MIN_SPREAD)
    return ColourModel(background=background, light=light, dark=dark, bar=bar, spread=spread)
