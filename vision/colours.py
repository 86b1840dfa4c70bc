"""What this board looks like, learned from the board itself: the two kinds
of checker, the empty look of every slot and the bar, as small Lab templates
(:mod:`vision.features`), and how much they vary.

The checker kinds are named ``light`` and ``dark`` by brightness (Lab L), or
by the caller's choice where both are about equally bright. They are
learned by :func:`learn_from_layout` from a board whose layout is known: the
starting position at calibration, which labels itself, or the layout
:mod:`vision.uncalibrated` finds on a board never calibrated.

Comparisons (:func:`template_distance`) allow for a change of light: the
lightness of a patch may be scaled by a gain before it is compared.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import numpy.typing as npt

from vision.errors import CalibrationError
from vision.features import CHANNELS, PATCH, SlotFeatures
from vision.layout import Layout
from vision.relight import as_in_frame, field_at

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
#: ... for checkers, whose change of light over the board is modelled.
CHECKER_GAIN = 1.25
#: The light field's gain is at most e to this (and at least its inverse).
MAX_LOG_GAIN = 1.0
#: The least share of the light field a checker's lightness is taken to
#: follow (see :func:`_response`): a white checker under a lamp may hardly
#: grow lighter where checkers stood at calibration, but the field is only
#: known there.
MIN_RESPONSE = 0.3
#: Checker kinds closer than this in lightness (Lab L, 8-bit scale) are "equally bright":
#: the caller names them.
SAME_BRIGHTNESS = 25.0


def _disc() -> FloatArray:
    c = (PATCH - 1) / 2
    yy, xx = np.mgrid[0:PATCH, 0:PATCH]
    mask = (((yy - c) ** 2 + (xx - c) ** 2) <= (0.5 * PATCH) ** 2).astype(np.float32)
    mask[: PATCH // 4] *= 0.25  # the side towards the edge, where the checker before spills over
    mask[:, [0, -1]] = 0.0  # the outermost columns: the next point, where its checkers' sides show
    return np.asarray(mask / mask.sum(), np.float32)


#: Weights of the patch pixels: the checker's disc (face, rim and edge),
#: less on the side towards the board's edge (patches are turned so that
#: side is up on both rows), none on the columns at the boundary with the
#: next points, where their checkers' sides and shadows show (a checker
#: standing there at calibration spoils the empty look, one standing there
#: now the look of this slot).
DISC = _disc()
#: The disc's half away from the edge (see :data:`DISC`): a slot past a
#: checker shows its empty look there even where that checker's shadow or
#: side covers the half towards the edge.
FAR_HALF = np.where(np.arange(PATCH)[:, None] >= PATCH // 2, DISC, 0.0).astype(np.float32)
FAR_HALF /= FAR_HALF.sum()


def template_distance(
    patches: FloatArray, template: FloatArray, *, max_gain: float = MAX_GAIN, weights: FloatArray = DISC
) -> FloatArray:
    """RMS Lab distance over the disc (or other ``weights`` (T, T), summing
    to 1) between ``patches`` (..., T, T, 4) and ``template`` (broadcastable
    to it), the patches' lightness scaled by the best gain in
    [1/max_gain, max_gain]; shape (...)."""
    template = np.broadcast_to(template, patches.shape)
    xl, tl = patches[..., 0], template[..., 0]
    gain = np.einsum("...ij,...ij,...ij->...", xl, tl, weights) / np.maximum(
        np.einsum("...ij,...ij,...ij->...", xl, xl, weights), 1e-6
    )
    gain = np.clip(gain, 1 / max_gain, max_gain)[..., None, None]
    diff = patches - template
    diff[..., 0] = gain * xl - tl
    diff[..., 3] = gain * patches[..., 3] - template[..., 3]
    return np.asarray(np.sqrt(np.einsum("...ijc,...ijc,...ij->...", diff, diff, weights)), np.float32)


def _basis(xy: FloatArray) -> FloatArray:
    """Quadratic basis (..., 6) of normalised board coordinates (..., 2) in 0..1."""
    x, y = xy[..., 0], xy[..., 1]
    return np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=-1).astype(np.float32)


def _shade(template: FloatArray, gain: FloatArray) -> FloatArray:
    """``template`` (T, T, C), or one for each place (..., T, T, C), as it
    looks where the light differs by ``gain`` (...,): lightness and edge
    strength divided by it; (..., T, T, C)."""
    out = np.broadcast_to(template, gain.shape + template.shape[-3:]).copy()
    g = gain[..., None, None]
    out[..., 0] = out[..., 0] / g
    out[..., 3] = out[..., 3] / g
    return out


@dataclass(frozen=True, eq=False)
class ColourModel:
    """Templates of one board (Lab and edge strength, T x T px each).

    ``background``: (2, 12, S, T, T, 4) the empty look of every slot and
    ``background_spread`` (2, 12, S) how far an empty slot strays from it (a
    slot seen empty at calibration strays less than one whose look was
    borrowed from a neighbour); ``light``/``dark``: (T, T, 4) a checker of
    each colour under the board's mean light, and ``light_field`` (6,) the
    quadratic log-gain of the light over the board (a window on one side, a
    lamp) that :meth:`checker_templates` applies, to each colour's lightness
    by its share ``light_response`` (light, dark) in 0..1 (a camera
    compresses its highlights: a white checker under a lamp grows lighter
    less than a black one); ``bar``: (B, T, T, 4) the
    empty bar at each probe (:func:`vision.geometry.bar_slot_centres`);
    ``spread``: (3,) the typical distance of an empty bar probe, a light and
    a dark checker from their templates; ``self_spread``: the typical
    distance between two neighbouring checkers of one line (checkers on one
    point look alike; a shadow or a triangle's tip after the last one does not);
    ``bare``: (2, 12, S, T, T, 4) every slot's look on a photo of the empty
    board, or None without one (``background`` shows a point the starting
    position left empty as that photo showed it, where a camera from the
    side sees the next point's checkers over it and their shadows fall on
    it; an empty slot may look either way as its neighbours come and go);
    ``kin``: (2, 12, S) the slots that were seen empty at calibration and
    may also look as any point of their kind (the same row and colour) did
    at the same slot, or None where each slot looks only as its own: a
    neighbour's checkers cast their shadow over a point, or stood beside it
    at calibration and have gone (the reader's, never a learned or saved
    model's: a calibration's slots are judged by their own looks);
    ``junction_light``/``junction_dark``: (2, 2, T, T, 4) where two checkers
    of a line touch, without a checker on top, on each of the two point
    colours (:func:`point_kind`; the point shows between the rims), next to
    the board's edge and further on (the first junction looks unlike the
    rest: on some boards it reads as much a face as rims, where the frame's
    shadow and the first checker's side show), from the starting position's
    lines; None when not learned; ``frame_light``: (h', w') the light field
    of the frame the model is seen in (:meth:`seen_in`; the reader's, never
    a saved model's), or None as calibration saw it.
    """

    background: FloatArray
    background_spread: FloatArray
    light: FloatArray
    dark: FloatArray
    bar: FloatArray
    spread: FloatArray
    light_field: FloatArray
    self_spread: float = 2 * MIN_SPREAD
    junction_light: FloatArray | None = None
    junction_dark: FloatArray | None = None
    bare: FloatArray | None = None
    light_response: tuple[float, float] = (1.0, 1.0)
    kin: npt.NDArray[np.bool_] | None = None
    frame_light: FloatArray | None = None

    @property
    def light_lab(self) -> FloatArray:
        return np.asarray((self.light[..., :3] * DISC[..., None]).sum(axis=(0, 1)), np.float32)

    @property
    def dark_lab(self) -> FloatArray:
        return np.asarray((self.dark[..., :3] * DISC[..., None]).sum(axis=(0, 1)), np.float32)

    def gain_at(self, xy: FloatArray) -> FloatArray:
        """The light field's gain at normalised board coordinates (..., 2)."""
        return _light_gain(_basis(xy) @ self.light_field)

    def checker_templates(self, xy: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Light and dark templates (..., T, T, 4) as they look at normalised
        board coordinates ``xy`` (..., 2)."""
        gain = self.gain_at(xy)
        light, dark = self.light_response
        return self._in_frame(_shade(self.light, gain**light), _shade(self.dark, gain**dark), xy)

    def seen_in(self, features: SlotFeatures) -> ColourModel:
        """The model as the frame of ``features`` shows it (put back under
        the calibration's light, :func:`vision.relight.as_in_frame`): where
        that frame had more light than calibration, every look clipped
        where it clips."""
        if features.light is None or not (features.light < 1).any():
            return self
        model = replace(self.resized(features.patches.shape[2]), frame_light=features.light)
        slots = features.on_board(features.slot_xy)
        slot_light = field_at(features.light, slots)
        bar = model.bar
        if len(bar) == len(features.bar_xy):
            bar = as_in_frame(bar, field_at(features.light, features.on_board(features.bar_xy)))
        return replace(
            model,
            background=as_in_frame(model.background, slot_light),
            bare=None if model.bare is None else as_in_frame(model.bare, slot_light),
            bar=bar,
        )

    def _in_frame(self, light: FloatArray, dark: FloatArray, xy: FloatArray) -> tuple[FloatArray, FloatArray]:
        """Light and dark looks (..., T, T, C) at normalised board
        coordinates ``xy`` (..., 2) as the frame of :meth:`seen_in` shows
        them (both at once: each call converts its colours twice)."""
        if self.frame_light is None:
            return light, dark
        both = as_in_frame(np.stack([light, dark]), field_at(self.frame_light, xy)[None])
        return both[0], both[1]

    def junction_templates(self, xy: FloatArray, *, other_point: bool = False) -> tuple[FloatArray, FloatArray] | None:
        """Light and dark junction templates (2, 12, J, T, T, 4) at the
        junctions ``xy`` (2, 12, J, 2) of every point, if learned; with
        ``other_point``, as learned on the other colour of point."""
        if self.junction_light is None or self.junction_dark is None:
            return None
        gain = self.gain_at(xy)
        light, dark = self.light_response
        kind = (1 - point_kind() if other_point else point_kind())[:, :, None]
        place = np.minimum(np.arange(xy.shape[2]), 1)[None, None, :]
        junction_light = _shade(self.junction_light[kind, place], gain**light)
        return self._in_frame(junction_light, _shade(self.junction_dark[kind, place], gain**dark), xy)

    def to_json(self) -> dict[str, Any]:
        return {
            "patch": PATCH,
            "background": np.round(self.background, 1).tolist(),
            "background_spread": np.round(self.background_spread, 2).tolist(),
            "light": np.round(self.light, 1).tolist(),
            "dark": np.round(self.dark, 1).tolist(),
            "bar": np.round(self.bar, 1).tolist(),
            "spread": np.round(self.spread, 3).tolist(),
            "light_field": np.round(self.light_field, 5).tolist(),
            "light_response": [round(float(r), 4) for r in self.light_response],
            "self_spread": round(self.self_spread, 3),
            "junction_light": None if self.junction_light is None else np.round(self.junction_light, 1).tolist(),
            "junction_dark": None if self.junction_dark is None else np.round(self.junction_dark, 1).tolist(),
            "bare": None if self.bare is None else np.round(self.bare, 1).tolist(),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ColourModel:
        try:
            if int(data["patch"]) != PATCH:
                raise CalibrationError(f"templates of {data['patch']!r} px: this nardref uses {PATCH}; calibrate again")
            model = cls(
                background=np.asarray(data["background"], np.float32),
                background_spread=np.asarray(data["background_spread"], np.float32),
                light=np.asarray(data["light"], np.float32),
                dark=np.asarray(data["dark"], np.float32),
                bar=np.asarray(data["bar"], np.float32),
                spread=np.asarray(data["spread"], np.float32),
                light_field=np.asarray(data["light_field"], np.float32),
                light_response=_light_response(data.get("light_response", (1.0, 1.0))),
                self_spread=float(data["self_spread"]),
                junction_light=_junction_look(data.get("junction_light")),
                junction_dark=_junction_look(data.get("junction_dark")),
                bare=None if data.get("bare") is None else np.asarray(data["bare"], np.float32),
            )
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"colour model: {type(exc).__name__}: {exc}") from None
        shape = model.background.shape
        if (
            len(shape) != 6
            or shape[:2] != (2, 12)
            or shape[3:] != (PATCH, PATCH, CHANNELS)
            or model.spread.shape != (3,)
            or model.background_spread.shape != shape[:3]
            or model.light_field.shape != (6,)
            or (model.bare is not None and model.bare.shape != shape)
        ):
            raise CalibrationError(
                f"colour model background of shape {shape!r}: expected (2, 12, S, {PATCH}, {PATCH}, {CHANNELS})"
            )
        for junction in (model.junction_light, model.junction_dark):
            if junction is not None and junction.shape != (2, 2, PATCH, PATCH, CHANNELS):
                raise CalibrationError(
                    f"colour model junction look of shape {junction.shape!r}: "
                    f"expected (2, 2, {PATCH}, {PATCH}, {CHANNELS}); calibrate again"
                )
        return model

    def resized(self, slots: int) -> ColourModel:
        """The same model for ``slots`` slots per point (the last learned slot repeats)."""
        have = self.background.shape[2]
        if slots == have:
            return self
        index = np.minimum(np.arange(slots), have - 1)
        return replace(
            self,
            background=self.background[:, :, index],
            background_spread=self.background_spread[:, :, index],
            bare=None if self.bare is None else self.bare[:, :, index],
            kin=None if self.kin is None else self.kin[:, :, index],
        )


def point_kind() -> npt.NDArray[np.int64]:
    """(2, 12) which of the two point colours each point has: neighbours
    differ, and facing points (top and bottom of one column) differ too."""
    rows, cols = np.mgrid[0:2, 0:12]
    return np.asarray((rows + cols) % 2, np.int64)


def _light_response(saved: Any) -> tuple[float, float]:
    """A saved light response: the light and the dark checkers' shares, in 0..1."""
    light, dark = (float(r) for r in saved)
    if not (0.0 <= light <= 1.0 and 0.0 <= dark <= 1.0):
        raise ValueError(f"light response {saved!r}: expected two shares in 0..1")
    return light, dark


def _junction_look(saved: Any) -> FloatArray | None:
    """A saved junction look (2, 2, T, T, 4): per point colour, next to the edge and further on."""
    return None if saved is None else np.asarray(saved, np.float32)


def layout_states(layout: Layout, slots: int, *, exact: bool = False) -> npt.NDArray[np.int8]:
    """(2, 12, slots) EMPTY/LIGHT/DARK that ``layout`` puts in each slot.
    Past :data:`LINE` checkers a point's checkers pile up (a second layer, or
    squeezed, or further along the line), and a fifth checker's shadow falls
    past it: the slots from :data:`LINE` on are :data:`UNKNOWN`, unless
    ``exact`` (a layout of short lines only, as the starting position)."""
    states = np.zeros((2, 12, slots), np.int8)
    for row, counts in enumerate((layout.top, layout.bottom)):
        for col, n in enumerate(counts):
            states[row, col, : min(abs(n), slots)] = LIGHT if n > 0 else DARK
    if not exact:
        states[:, :, LINE:] = UNKNOWN
    return states


def _neighbour(empty: npt.NDArray[np.bool_], row: int, col: int, k: int, *, exclude_self: bool) -> int | None:
    """The nearest point of the same row and colour (parity) with slot k empty."""
    same = [c for c in range(col % 2, 12, 2) if empty[row, c, k] and not (exclude_self and c == col)]
    if not same:
        return None
    return min(same, key=lambda c: (abs(c - col), (c < 6) != (col < 6)))


def borrowed(model: ColourModel, features: SlotFeatures, empty: npt.NDArray[np.bool_]) -> ColourModel:
    """``model`` with every slot's empty look taken from another point (of
    those of the same row and colour that are empty there, the one that
    looks most like it), never from the slot itself: to check a layout
    against the picture it was learned from without the picture confirming
    itself. Only a slot that looks like no empty point of its kind reads
    as a checker."""
    background = np.array(model.background, np.float32)
    patches = features.patches
    slots = patches.shape[2]
    for row in range(2):
        for col in range(12):
            for k in range(slots):
                others = [c for c in range(col % 2, 12, 2) if c != col and empty[row, c, k]]
                if others:
                    d = template_distance(patches[row, others, k], patches[row, col, k])
                    background[row, col, k] = patches[row, others[int(np.argmin(d))], k]
    spread = np.full(model.background_spread.shape, float(model.background_spread.max()), np.float32)
    return replace(model, background=background, background_spread=spread, bare=None)


#: The points beside the frame's side walls, first and last of each row:
#: the wall shades the side of the point next to it, which the point an
#: empty look is borrowed from does not show...
WALLED = (0, 11)
#: ... where its shade across the point is at least this ratio, side to
#: side: a lesser one is within what two bare points differ by anyway, and
#: would only tip slots whose looks stand as near a checker's as a bare
#: point's (a dark checker on dark felt). Bench boards: the corners read
#: bare again showed 1.27 to 1.9; one whose last checker, of five, read
#: bare at calibration, 1.13.
WALL_SHADE = 1.2


def _wall_shade(features: SlotFeatures, row: int, col: int, other: int) -> FloatArray:
    """(T,) how the lightness across point ``col`` of ``row`` compares with
    point ``other``'s, patch column by column, as a straight line relative
    to its median: one pitch past the last slot, where both are bare and
    no triangle's edge crosses the patch. A side wall's shade runs the
    length of the point, so the slots the checkers hid show it as that does."""
    patches = features.patches
    if features.edges is None:
        return np.ones(patches.shape[-2], np.float32)
    xy = 2 * features.slot_xy[row, [col, other], -1] - features.slot_xy[row, [col, other], -2]
    own, theirs = features.cut(xy, np.full(2, row == 1))[..., 0].mean(axis=1)
    ratio = own / np.maximum(theirs, 1.0)
    across = np.arange(len(ratio))
    inner = slice(1, -1)  # the outermost columns show the next point (DISC)
    line = np.polyval(np.polyfit(across[inner], ratio[inner], 1), across)
    if line.max() < WALL_SHADE * line.min():
        return np.ones(len(line), np.float32)
    return np.asarray(np.clip(line / np.median(line), 0.5, 1.5), np.float32)


def _fill_background(features: SlotFeatures, empty: npt.NDArray[np.bool_]) -> tuple[FloatArray, FloatArray]:
    """Background template of every slot from the empty ones (an occupied
    slot takes the nearest empty slot of the same row, point colour and
    distance from the edge, shaded as a point beside a side wall is:
    :func:`_wall_shade`), and the leave-one-out distances of the empty
    slots to their nearest such neighbour (how much empty slots vary)."""
    patches = features.patches
    background = np.array(patches, np.float32)
    slots = patches.shape[2]
    loo: list[float] = []
    shades: dict[tuple[int, int, int], FloatArray] = {}  # a walled point's, by the point it borrows from
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
                    if col in WALLED:
                        if (row, col, other) not in shades:
                            shades[row, col, other] = _wall_shade(features, row, col, other)
                        background[row, col, k, :, :, 0] *= shades[row, col, other][None, :]
                else:
                    rows_empty = empty[:, :, k]
                    if rows_empty.any():
                        background[row, col, k] = patches[:, :, k][rows_empty].mean(axis=0)
    return background, np.asarray(loo, np.float32)


def _light_gain(log_gain: FloatArray) -> FloatArray:
    """The light field's gain from its logarithm, within ``MAX_LOG_GAIN``
    (a field fitted to a few checkers close together, or to a hand read as
    checkers, may say anything far from them)."""
    return np.asarray(np.exp(np.clip(log_gain, -MAX_LOG_GAIN, MAX_LOG_GAIN)), np.float32)


def _template(samples: FloatArray) -> tuple[FloatArray, float]:
    """Median template of (n, T, T, 4) samples and their spread about it."""
    template = np.median(samples, axis=0).astype(np.float32)
    d = template_distance(samples, template)
    return template, float(np.percentile(d, 80)) if len(d) else MIN_SPREAD


def _gains(samples: FloatArray, template: FloatArray) -> FloatArray:
    """The lightness gain (n,) taking each sample (n, T, T, 4) to ``template``."""
    xl, tl = samples[..., 0], template[..., 0]
    gain = (xl * tl * DISC).sum(axis=(-2, -1)) / np.maximum((xl * xl * DISC).sum(axis=(-2, -1)), 1e-6)
    return np.asarray(np.clip(gain, 0.4, 2.5), np.float32)


def _response(field: FloatArray, positions: FloatArray, log_gains: FloatArray) -> float:
    """How much of the light ``field``'s log-gain at ``positions`` (n, 2) the
    log-gains (n,) of one kind of checker there follow, in
    [``MIN_RESPONSE``, 1]: 1 where the field says too little to tell."""
    predicted = _basis(positions) @ field
    predicted = predicted - predicted.mean()
    observed = log_gains - log_gains.mean()
    power = float(predicted @ predicted)
    if power <= 1e-4 * len(log_gains):
        return 1.0
    return float(np.clip(float(predicted @ observed) / power, MIN_RESPONSE, 1.0))


def _fit_light(
    samples: list[FloatArray], positions: list[FloatArray]
) -> tuple[list[FloatArray], FloatArray, FloatArray]:
    """Fit the light field to checkers of known kinds: each kind's samples
    (n, T, T, 4) at normalised positions (n, 2). Returns the kinds' templates
    under the mean light, the field's coefficients (6,) and each kind's
    response to it (K,) (see :func:`_response`)."""
    templates = [np.median(s, axis=0).astype(np.float32) for s in samples]
    field = np.zeros(6, np.float32)
    response = np.ones(len(samples), np.float32)
    if sum(len(s) for s in samples) < 10:
        return templates, field, response
    for _ in range(2):
        logs = np.concatenate([np.log(_gains(s, t)) for s, t in zip(samples, templates, strict=True)])
        basis = np.concatenate([_basis(p) for p in positions])
        keep = np.ones(len(logs), np.bool_)
        for _ in range(2):
            field = np.linalg.lstsq(basis[keep], logs[keep], rcond=None)[0].astype(np.float32)
            residual = np.abs(basis @ field - logs)
            keep = residual <= max(float(np.percentile(residual, 85)), 0.02)
        field[0] -= float(np.mean(basis @ field))  # the mean light stays in the templates
        # a camera compresses its highlights: under a lamp a white checker
        # grows lighter less than a black one does, or hardly at all
        response = np.array(
            [_response(field, p, np.log(_gains(s, t))) for s, t, p in zip(samples, templates, positions, strict=True)],
            np.float32,
        )
        templates = []
        for s, p, r in zip(samples, positions, response, strict=True):
            gain = _light_gain(r * (_basis(p) @ field))
            flat = np.array(s, np.float32)
            flat[..., 0] *= gain[:, None, None]
            flat[..., 3] *= gain[:, None, None]
            templates.append(np.median(flat, axis=0).astype(np.float32))
    return templates, field, response


def _name_by_brightness(first: FloatArray, second: FloatArray, *, first_is_light: bool | None) -> bool:
    """True when ``first`` (a template) is the light kind."""
    l1 = float((first[..., 0] * DISC).sum())
    l2 = float((second[..., 0] * DISC).sum())
    if abs(l1 - l2) < SAME_BRIGHTNESS and first_is_light is not None:
        return first_is_light
    return l1 >= l2


def _checker_spread(model: ColourModel, samples: FloatArray, xy: FloatArray, light: bool) -> float:
    templates = model.checker_templates(xy)[0 if light else 1]
    d = template_distance(samples, templates, max_gain=CHECKER_GAIN)
    return max(MIN_SPREAD, float(np.percentile(d, 80))) if len(d) else MIN_SPREAD


def learn_from_layout(
    features: SlotFeatures,
    layout: Layout,
    *,
    positive_is_light: bool | None = None,
    unpiled: npt.NDArray[np.bool_] | None = None,
) -> tuple[ColourModel, bool]:
    """Learn from a board showing ``layout``, whose signs say which checkers
    belong together (not yet which are light). Returns the model and whether
    the layout's positive checkers are the light ones (by brightness;
    ``positive_is_light`` decides when both are about equally bright).
    Two touching rims are learned from the junctions of the lines of five
    (the starting position's); where the layout's lines of five may hold
    piles, ``unpiled`` (2, 12) names the lines that surely hold none, and
    the rims are learned from their junctions alone."""
    slots = features.patches.shape[2]
    states = layout_states(layout, slots, exact=True)
    xy = features.on_board(features.slot_xy)
    pos, neg = features.patches[states == LIGHT], features.patches[states == DARK]
    if len(pos) == 0 or len(neg) == 0:
        raise CalibrationError(f"layout {layout!r}: needs checkers of both colours to learn them")
    (pos_t, neg_t), field, (pos_r, neg_r) = _fit_light([pos, neg], [xy[states == LIGHT], xy[states == DARK]])
    pos_light = _name_by_brightness(pos_t, neg_t, first_is_light=positive_is_light)
    light, dark = (pos_t, neg_t) if pos_light else (neg_t, pos_t)
    response = (float(pos_r), float(neg_r)) if pos_light else (float(neg_r), float(pos_r))
    empty = states == EMPTY
    background, loo = _fill_background(features, empty)
    empty_s = max(MIN_SPREAD, float(np.percentile(loo, 80)) if len(loo) else MIN_SPREAD)
    # an empty slot keeps its own look (less stray) unless a checker stood next to it
    beside = np.zeros_like(empty)
    beside[:, :, 1:] = ~empty[:, :, :-1]
    background_spread = np.where(empty & ~beside, max(1.5 * MIN_SPREAD, 0.75 * empty_s), empty_s).astype(np.float32)
    model = ColourModel(
        background=background,
        background_spread=background_spread,
        light=light,
        dark=dark,
        bar=np.array(features.bar, np.float32),  # the bar is empty at the start
        spread=np.array([max(MIN_SPREAD, 0.5 * empty_s), MIN_SPREAD, MIN_SPREAD], np.float32),
        light_field=field,
        light_response=response,
    )
    light_samples, dark_samples = (pos, neg) if pos_light else (neg, pos)
    light_xy, dark_xy = (
        (xy[states == LIGHT], xy[states == DARK]) if pos_light else (xy[states == DARK], xy[states == LIGHT])
    )
    spread = np.array(
        [
            model.spread[0],
            _checker_spread(model, light_samples, light_xy, True),
            _checker_spread(model, dark_samples, dark_xy, False),
        ],
        np.float32,
    )
    pairs = (states[:, :, 1:] > 0) & (states[:, :, :-1] > 0)
    neighbours = template_distance(features.patches[:, :, 1:][pairs], features.patches[:, :, :-1][pairs])
    self_spread = max(2 * MIN_SPREAD, float(np.percentile(neighbours, 80))) if len(neighbours) else 2 * MIN_SPREAD
    junction_light = junction_dark = None
    if features.junctions is not None and features.junction_xy is not None:
        counts = np.array([layout.top, layout.bottom], np.int64)
        jxy = features.on_board(features.junction_xy)
        junctions = features.junctions
        reach = min(LINE - 1, junctions.shape[2])
        learned: list[FloatArray | None] = []

        def junction_look(taken: npt.NDArray[np.bool_], response: float) -> FloatArray:
            """The median of the junctions ``taken`` (2, 12, J), under the board's mean light."""
            where = jxy[taken]
            flat = np.array(junctions[taken], np.float32)
            gain = _light_gain(response * (_basis(where) @ field))
            flat[..., 0] *= gain[:, None, None]
            flat[..., 3] *= gain[:, None, None]
            return np.asarray(np.median(flat, axis=0), np.float32)

        place = np.arange(junctions.shape[2])[None, None, :]
        kinds = (point_kind()[:, :, None] == np.arange(2)[None, None, :])[..., None]  # (2, 12, 2, 1)
        for sign, r in ((1, float(pos_r)), (-1, float(neg_r))):
            line = (counts * sign)[:, :, None]
            if unpiled is None:
                first = [kinds[:, :, k] & (line >= 2) & (place == 0) for k in (0, 1)]
                rest = [kinds[:, :, k] & (line >= LINE) & (place >= 1) & (place < reach) for k in (0, 1)]
                if not all(f.any() and t.any() for f, t in zip(first, rest, strict=True)):
                    learned.append(None)
                    continue
            else:
                # the junctions between two checkers of the lines surely unpiled;
                # where a point colour has none of a kind, the other's stand in
                # (the rims, not the point, fill a junction), and the first
                # junction and the rest stand in for each other
                between = unpiled[:, :, None] & (place < np.minimum(line - 1, reach))
                first = [kinds[:, :, k] & between & (place == 0) for k in (0, 1)]
                rest = [kinds[:, :, k] & between & (place >= 1) for k in (0, 1)]
                if not any(f.any() or t.any() for f, t in zip(first, rest, strict=True)):
                    learned.append(None)
                    continue
                for k in (0, 1):
                    first[k] = first[k] if first[k].any() else rest[k] if rest[k].any() else first[1 - k] | rest[1 - k]
                for k in (0, 1):
                    rest[k] = rest[k] if rest[k].any() else rest[1 - k] if rest[1 - k].any() else first[k]
            learned.append(
                np.stack([np.stack([junction_look(first[k], r), junction_look(rest[k], r)]) for k in (0, 1)])
            )
        junction_light, junction_dark = (learned[0], learned[1]) if pos_light else (learned[1], learned[0])
    model = replace(
        model, spread=spread, self_spread=self_spread, junction_light=junction_light, junction_dark=junction_dark
    )
    log.debug("learned light %s dark %s spread %s field %s", model.light_lab, model.dark_lab, spread, field)
    return model, pos_light
