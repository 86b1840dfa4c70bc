"""Reading a board: for every point how many checkers of which colour, how
sure; the bar; or a named refusal.

The reader never guesses. Each slot of each point is classified as empty,
light or dark against the colours learned for this board
(:mod:`vision.colours`), with a probability; a point's count is the run of
checkers from the edge; a stack that fills every slot, a gap in a stack, or
mixed colours in one stack lower the confidence and put the point on the
``uncertain`` list.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import numpy.typing as npt

from vision.colours import (
    CHECKER_GAIN,
    DARK,
    DISC,
    EMPTY,
    FAR_HALF,
    LIGHT,
    LINE,
    ColourModel,
    template_distance,
)
from vision.features import (
    ASKEW_TRIALS,
    JUNCTIONS,
    PATCH,
    SlotFeatures,
    checker_circles,
    line_pitch,
    measure,
    spacing_pitch,
    stretch_along,
    to_lab,
)
from vision.geometry import (
    BAR_PROBES_PER_PITCH,
    BoardGeometry,
    Image,
    as_points,
    check_turn,
    make_geometry,
    rectify,
    working_frame,
)
from vision.glare import rectify_without
from vision.layout import Layout
from vision.lines import line_shifts, shifted
from vision.occlusion import (
    bar_middle,
    bar_rooms,
    between_bar_checkers,
    blobs,
    borrowed_area,
    care_mask,
    changed,
    checker_rooms,
    covered_points,
    departure,
    line_area,
    only_light,
    paste_checkers,
    slots_touching,
    unexplained,
)
from vision.refusal import (
    Refusal,
    RefusalConfig,
    check_board_moved,
    check_cup,
    check_exposure,
    check_occlusion,
    check_sharpness,
    cup_margin,
    light_changed,
    straighten_hint,
)
from vision.relight import as_in_frame
from vision.rims import (
    bar_light,
    bar_rims,
    bare_junctions,
    gradients,
    in_doubt,
    layer_rims,
    light_shift,
    line_rims,
    loaded,
    rim_strength,
    rimless,
    weigh_rims,
)
from vision.squeeze import count_squeezed, rim_profile
from vision.trays import Off, read_off

if TYPE_CHECKING:
    from vision.calibration import Calibration

log = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
ROWS = ("top", "bottom")
#: Distance (in spreads) of the implicit "something else" class.
OUTLIER_SPREADS = 4.0


@dataclass(frozen=True)
class ReadConfig:
    """Thresholds of the reader (saved in the calibration)."""

    #: A slot (and so a point) is confident when its class probability reaches this.
    confident: float = 0.9
    #: A slot farther than this many spreads from every class (each in its
    #: own spread, uncapped: see ``checker_spread_cap``) fits nothing calibrated.
    unexplained_spreads: float = 4.0
    #: A checker's shadow and side on the bar, beside it, pass for a dark
    #: checker (never a light one) nearly as well as for the bare bar: past
    #: the room the points leave, they lie up to 7 spreads from the bar's
    #: look and 1.25 or more from a dark checker's (``bench/vision.py``
    #: seeds 1 and 5). Of the two dark checkers seen there beside a light
    #: one, one lay within 0.4 of its own look (``bench/uncalibrated.py``
    #: seed 1), the other, on a marble bar, 5 from the bar's and 1.9 from
    #: its own, and passes for a shadow. Beside a checker on the bar, only a
    #: dark one this far from the bar's look...
    shadow_spreads: float = 10.0
    #: ... or this near a dark checker's counts as unlike the bare bar (see
    #: :func:`read_bar`).
    beside_fit_spreads: float = 1.0
    #: Beside a light checker on the bar, a dark one is counted only where
    #: its rim is at least this many times the bare bar's there (at
    #: calibration, in the frame's light; :func:`vision.rims.bar_rims`): the
    #: light checker's shadow, read as a dark checker, shows none. Rendered
    #: bars (seed 5 boards 0-59, seven layouts): of 70 such shadows, 51 were
    #: below 1.3 times; of 96 dark checkers beside light ones, 1. (Only
    #: what lies within ``shadow_spreads`` of the bare bar's look may be a
    #: shadow: the 70 lay within 6.9.)
    bar_rim_rise: float = 1.3
    #: This many unexplained slots side by side (or joined by slots that fit
    #: loosely, see ``loose_fit_spreads``) make the frame occluded.
    occluded_slots: int = 2
    #: A slot read as a checker counts as one only within this many spreads
    #: of a checker's look (to tell them apart; to explain the frame, in
    #: the checker's own spread, also within ``unexplained_spreads`` where
    #: it lies twice that from the bare point's look).
    checker_fit_spreads: float = 3.0
    #: The slot past a checker is judged by its far half alone (its near
    #: half may lie under that checker's shadow or side) where that half's
    #: distance to the empty look is below this share of its distance to a
    #: checker's...
    far_half_margin: float = 0.4
    #: ... and where the share is below this one too, it may be empty or a
    #: checker, and its point is not read surely (the wide base of a point of
    #: a checker's colour, past that checker; a dark checker on dark felt).
    far_half_doubt: float = 0.6
    #: A checker's look may stray at most this many times as far as the slot's
    #: empty look: checkers vary more over the board (their sides show in
    #: perspective), and an empty point of the checkers' colour must not pass
    #: for one.
    checker_spread_cap: float = 2.5
    #: Checkers of each colour in play (B4): the bar holds no more than those
    #: not read on the points and in the tray; where the points and the bar
    #: seem to hold more or fewer, one point of that colour not read surely
    #: is counted as they must be (see :func:`_held`)...
    checkers: int = 15
    #: ... where the photo speaks against that by at most these log-odds...
    recount_evidence: float = 3.0
    #: ... these, for a pile counted less surely than ``pile_known`` (one in
    #: seven such is miscounted, next to none counted more surely:
    #: ``bench/vision.py``, seed 5)...
    pile_miscount_odds: float = 1.8
    #: ... and by this much less than against any other point that could
    #: hold the difference (the one chosen about three times as likely)...
    recount_margin: float = 1.0
    #: ... and, without a calibration's empty looks to weigh a line's slots
    #: by, only a pile is cut, and not where a point of that colour that is
    #: no pile is read less surely than this: the checker too many may be
    #: there (a white point read as one).
    recount_doubt: float = 0.75
    #: The points may seem to hold this many more of a colour than there are
    #: (a phantom line at a corner, a pile counted long); more is something
    #: else read as checkers, and the frame is refused.
    extra_checkers: int = 4
    #: Of a colour, the bar may seem to hold this many more checkers than
    #: the points leave, each unlike the empty bar (a point counted short);
    #: more is a hand or a sleeve read as checkers.
    extra_on_bar: int = 2
    #: A point is not read surely where a slot within the line's reach fits
    #: even its nearest look only loosely, farther than this many spreads
    #: (a checker in glare, on a point of its own colour, or the side and
    #: shadow of the one before it read as one more): its confidence is
    #: capped at ``loose_confidence``.
    loose_fit_spreads: float = 2.3
    loose_confidence: float = 0.5
    #: ... and where the slot just past its line, whose empty look was
    #: borrowed from another point, fits a checker's look under light up to
    #: this many times brighter or darker better than that empty look: a
    #: checker in a lamp's hot spot, which the light field learned from the
    #: starting position does not know (the borrowed look is no sure proof
    #: of a bare point).
    other_light_gain: float = 3.0
    #: ... and where over half of a slot's empty look is at least this light
    #: (Lab L, 0..255): washed out by glare at calibration.
    washed_out: float = 245.0
    #: A point read as a line of checkers is not read surely where a slot
    #: of it shows less than this share of the rim the frame's lines of
    #: that colour show (:func:`vision.rims.rimless`): a hand or a sleeve
    #: of the checkers' colour read as checkers. Hands read as checkers over
    #: seed 3's and 7's boards (``bench/reach.py``) left 0.03-0.13 on most
    #: such points; on 309 clean frames of those sets, 3 of 2,447 points of
    #: lines read surely fall below.
    rimless_share: float = 0.15
    #: A point's first slot whose looks leave it empty and a checker each at
    #: least this likely is weighed by its rim (:mod:`vision.rims`)...
    rim_doubt: float = 0.02
    #: ... which raises its odds of a checker by at most this factor.
    rim_cap: float = 20.0
    #: A slot is clearly empty at this probability: a line does not bridge it
    #: from the edge (white checkers on a white point's wide base whose rims a
    #: sixth checker hides look 90 % like the bare base: bench seed 3, photo 887).
    clearly_empty: float = 0.95
    #: This many slots side by side away from every line that look like
    #: checkers make the frame occluded (checkers stand in lines from the edge).
    detached_slots: int = 2
    #: Confidence factor for a stack filling every slot (more may be piled on it).
    full_stack_confidence: float = 0.5
    #: A junction of a full line counts as one more checker piled on it when its
    #: distance to a checker's face is below this share of its distance to two
    #: touching rims...
    pile_face_ratio: float = 0.8
    #: ... or, where the shares of the junctions past some place are all at
    #: least this factor above those before it (and the one just before is
    #: at most ``pile_face_most``), below the middle of that step: how like a
    #: face a piled checker looks varies over the board (light, perspective),
    #: the step from the layer's last checker to the first bare junction
    #: much less.
    pile_step: float = 1.65
    pile_face_most: float = 0.9
    #: ... and every one past it at least this: past a layer the junctions
    #: are bare, and no bare one looks that much like a face (rendered piles
    #: of five to nine, seed 5 boards 0-119: the least of 2,844 was 0.79;
    #: a piled checker's face, 0.39 at the median), where a layer's faces
    #: may part at one junction more than at its end (9 read as 6).
    pile_bare_least: float = 0.7
    #: A layer with a gap runs on to its last face where two faces or more
    #: lie past the gap and every junction before the last is below this
    #: share (nearer a face than two rims; see :func:`_layer`).
    pile_gap_face: float = 1.0
    #: ... and the count is sure when every junction's share is at least this
    #: far from that threshold.
    pile_margin: float = 0.14
    #: ... and the two distances differ by at least this many checker spreads.
    pile_evidence_spreads: float = 1.0
    #: A full line is read as a squeezed pile when its rims fit that count
    #: better than any other by this margin (:mod:`vision.squeeze`)...
    squeeze_margin: float = 0.2
    #: ... where no layer is found, or one only this sure...
    pile_unsure: float = 0.3
    #: ... and by this margin where a layer is found.
    squeeze_clear: float = 0.5
    #: A pile counted, or whose upper layer is seen, at least this surely
    #: (a full layer: more may lie past it) is not compared with the empty
    #: board: its upper layer lies over the line's rims and shadows.
    pile_known: float = 0.5
    #: A junction of a full line that lies farther than this many checker
    #: spreads from both a face and two rims (at the one shift that fits the
    #: line best as either) shows neither checkers nor a pile...
    junction_misfit_spreads: float = 3.2
    #: ... and this many such junctions side by side make the frame
    #: occluded: a hand or a sleeve read as a line of checkers.
    misfit_junctions: int = 2


@dataclass(frozen=True, eq=False)
class Reading:
    """What one frame shows.

    ``counts`` (2, 12) signed (+ light, - dark), rows top (TL->TR) and bottom
    (BL->BR), each left to right; ``confidence`` (2, 12) in 0..1;
    ``slot_prob`` (2, 12, S, 3) probability of empty/light/dark per slot;
    ``bar_light``/``bar_dark`` and ``bar_confidence``; ``uncertain`` names the
    points (``"top 3"``, 1-based from the left) and ``"bar"`` not read surely;
    ``refusal`` is set when the frame cannot be read at all.
    """

    counts: npt.NDArray[np.int64]
    confidence: FloatArray
    slot_prob: FloatArray
    bar_light: int
    bar_dark: int
    bar_confidence: float
    uncertain: tuple[str, ...]
    refusal: Refusal | None = None
    bar_full: tuple[bool, bool] = (False, False)
    """Whether the bar seemed to hold more light, dark checkers than the
    points leave room for (B4): its count is then that room, and says
    nothing of how many that side has."""
    bar_beyond: tuple[int, int] = (0, 0)
    """Of the light, dark checkers the bar seemed to hold past that room, how
    many look nothing like the bare bar (:attr:`Bar.beyond`): where a point
    is misread, the room is wrong, and these are checkers on the bar."""
    rectified: Image | None = field(default=None, repr=False)
    slot_z: FloatArray | None = field(default=None, repr=False)
    """(2, 12, S, 3) distance of each slot from each class's look, in spreads."""
    pile_confidence: FloatArray | None = field(default=None, repr=False)
    """(2, 12) how sure the count of a full line (five or more) is; 0 elsewhere."""
    features: SlotFeatures | None = field(default=None, repr=False)
    """The slots as measured on the frame (not turned by :meth:`turned`)."""
    off: Off | None = None
    """The checkers in the bear-off tray, where the calibration includes it."""
    bar_counted: float = 0.0
    """How sure the number of checkers on the bar is, whatever their colours
    (at least ``bar_confidence``)."""

    @property
    def refused(self) -> bool:
        return self.refusal is not None

    def turned(self) -> Reading:
        """The same reading of the board turned half round (top row becomes
        the bottom row, right to left), for a mover whose home is at the top."""
        return Reading(
            counts=self.counts[::-1, ::-1].copy(),
            confidence=self.confidence[::-1, ::-1].copy(),
            slot_prob=self.slot_prob[::-1, ::-1].copy(),
            bar_light=self.bar_light,
            bar_dark=self.bar_dark,
            bar_confidence=self.bar_confidence,
            uncertain=self.uncertain,
            refusal=self.refusal,
            bar_full=self.bar_full,
            bar_beyond=self.bar_beyond,
            rectified=None if self.rectified is None else self.rectified[::-1, ::-1].copy(),
            slot_z=None if self.slot_z is None else self.slot_z[::-1, ::-1].copy(),
            pile_confidence=None if self.pile_confidence is None else self.pile_confidence[::-1, ::-1].copy(),
            off=self.off,
            bar_counted=self.bar_counted,
        )

    def layout(self) -> Layout:
        """The reading as a :class:`Layout` (borne-off counts left at 0)."""
        return Layout(
            top=tuple(int(v) for v in self.counts[0]),
            bottom=tuple(int(v) for v in self.counts[1]),
            bar_light=self.bar_light,
            bar_dark=self.bar_dark,
        )

    def to_json(self) -> dict[str, Any]:
        """The JSON shape of ``nardref detect``."""
        if self.refusal is not None:
            return {
                "refused": self.refusal.reason,
                "message": self.refusal.message,
                "points": list(self.refusal.points),
            }
        return {
            "top": [int(v) for v in self.counts[0]],
            "bottom": [int(v) for v in self.counts[1]],
            "bar": {"light": self.bar_light, "dark": self.bar_dark},
            "confidence": {
                "top": [round(float(v), 3) for v in self.confidence[0]],
                "bottom": [round(float(v), 3) for v in self.confidence[1]],
                "bar": round(self.bar_confidence, 3),
            },
            "uncertain": list(self.uncertain),
            **({} if self.off is None else {"off": asdict(self.off)}),
            "refused": None,
        }


def point_name(row: int, col: int) -> str:
    """``"top 1"`` .. ``"bottom 12"``, 1-based from the left of the rectified board."""
    return f"{ROWS[row]} {col + 1}"


def _probabilities(distances: FloatArray, spread: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Class probabilities (..., 3) from template distances (..., 3) and the
    classes' spreads (broadcastable), and the distance to the nearest class
    in spreads. A fourth, implicit class, "something else", sits at
    :data:`OUTLIER_SPREADS` from everything: a slot far from every template
    gets no confident class (the probabilities sum to less than 1)."""
    z = distances / spread
    logits = -0.5 * z**2
    top = np.maximum(logits.max(axis=-1, keepdims=True), -0.5 * OUTLIER_SPREADS**2)
    prob = np.exp(logits - top)
    prob /= prob.sum(axis=-1, keepdims=True) + np.exp(-0.5 * OUTLIER_SPREADS**2 - top)
    return prob.astype(np.float32), z.min(axis=-1).astype(np.float32)


def slot_distances(
    features: SlotFeatures, model: ColourModel, *, weights: FloatArray = DISC, where: BoolArray | None = None
) -> FloatArray:
    """(2, 12, S, 3) template distances of every slot to its empty look and
    to a light and a dark checker as they look there, over the disc (or
    other ``weights``, see :func:`template_distance`); (n, 3) of the slots
    ``where`` (2, 12, S) is true only, if given."""
    model = model.resized(features.patches.shape[2])
    light, dark = model.checker_templates(features.on_board(features.slot_xy))
    looks = [features.patches, model.background, light, dark, *([] if model.bare is None else [model.bare])]
    if where is not None:
        looks = [look[where] for look in looks]
    patches, background, light, dark, *bare = looks
    empty = template_distance(patches, background, weights=weights)
    if bare:
        # an empty slot looks as the starting position showed it (with its
        # neighbours' checkers seen over it) or as the empty board does
        empty = np.minimum(empty, template_distance(patches, bare[0], weights=weights))
    if model.kin is not None:
        empty = np.minimum(empty, _kin_distance(features, model, empty, weights=weights, where=where))
    return np.stack(
        [
            empty,
            template_distance(patches, light, max_gain=CHECKER_GAIN, weights=weights),
            template_distance(patches, dark, max_gain=CHECKER_GAIN, weights=weights),
        ],
        axis=-1,
    )


#: Where a slot seen empty at calibration fits its own empty look within this
#: many of its spreads, it is empty as it was then: it is compared with its
#: kin's looks (:attr:`ColourModel.kin`) only where it fits its own worse,
#: and looks as they did only where it fits one of them within as many.
KIN_SPREADS = 1.0
#: A neighbour's shadow changes a slot's look by less than this many of its
#: spreads: a slot further from its own look (a checker) is not compared
#: with its kin's.
KIN_MOST_SPREADS = 3.0


def _kin_distance(
    features: SlotFeatures, model: ColourModel, own: FloatArray, *, weights: FloatArray, where: BoolArray | None
) -> FloatArray:
    """The distances (2, 12, S), or (n,) of the slots ``where`` is true, of
    the slots of ``model.kin`` that fit their own empty look (at the
    distance ``own``) worse than :data:`KIN_SPREADS` but within
    :data:`KIN_MOST_SPREADS`, from the nearest empty look of their kind
    (every point of the same row and colour, at the same slot), where they
    fit that one within :data:`KIN_SPREADS`: a neighbour's checkers came or
    went and their shadow with them, and the looks of the other points of
    its kind show it with and without. Inf elsewhere (a look fitted
    loosely tells nothing: a pale checker on a pale point fits every bare
    look of its kind as loosely as its own)."""
    assert model.kin is not None
    rows, cols, slots = np.meshgrid(*(np.arange(n) for n in features.patches.shape[:3]), indexing="ij")
    kin, spread = model.kin, model.background_spread
    if where is not None:
        rows, cols, slots, kin, spread = rows[where], cols[where], slots[where], kin[where], spread[where]
    poor = kin & (own > KIN_SPREADS * spread) & (own <= KIN_MOST_SPREADS * spread)
    out = np.full(own.shape, np.inf, np.float32)
    if poor.any():
        row, col, slot = rows[poor], cols[poor], slots[poor]
        kind = (col % 2)[:, None] + 2 * np.arange(6)  # the points of the row with the same colour
        looks = model.background[row[:, None], kind, slot[:, None]]
        patches = np.broadcast_to(features.patches[row, col, slot][:, None], looks.shape)
        nearest = template_distance(patches, looks, weights=weights).min(axis=1)
        out[poor] = np.where(nearest <= KIN_SPREADS * spread[poor], nearest, np.inf)
    return out


def slot_probabilities(
    features: SlotFeatures, model: ColourModel, *, config: ReadConfig
) -> tuple[FloatArray, FloatArray]:
    """(2, 12, S, 3) probabilities of empty/light/dark per slot, and (2, 12, S)
    how well anything learned explains each slot (see :func:`slot_z_scores`)."""
    scores = slot_z_scores(features, model, config=config)
    return scores.prob, scores.explained


class SlotScores(NamedTuple):
    """What :func:`slot_z_scores` finds of every slot."""

    prob: FloatArray
    """(2, 12, S, 3) probabilities of empty, light and dark."""
    z: FloatArray
    """(2, 12, S, 3) distances from the empty look and a light and a dark checker's, in spreads."""
    explained: FloatArray
    """(2, 12, S) the distance to the nearest look, in that look's own spread."""
    doubtful: BoolArray
    """(2, 12, S) past a checker, and its far half neither clearly empty nor clearly not (``far_half_doubt``)."""


def _class_spreads(model: ColourModel, *, config: ReadConfig) -> FloatArray:
    """(2, 12, S, 3) the spreads of every slot's empty look and of a light
    and a dark checker's there, to tell them apart (see :func:`slot_z_scores`)."""
    bg = model.background_spread
    cap = config.checker_spread_cap * bg
    return np.stack([bg, np.minimum(model.spread[1], cap), np.minimum(model.spread[2], cap)], axis=-1)


def line_z_scores(features: SlotFeatures, model: ColourModel, *, config: ReadConfig) -> FloatArray:
    """(2, 12, S, 3) the distances of every slot from its empty look and a
    light and a dark checker's, each in the spread that tells them apart."""
    model = model.resized(features.patches.shape[2])
    return np.asarray(slot_distances(features, model) / _class_spreads(model, config=config), np.float32)


def slot_z_scores(features: SlotFeatures, model: ColourModel, *, config: ReadConfig) -> SlotScores:
    """The probabilities and distances in spreads of every slot from the
    empty look and from a light and a dark checker, how well anything
    learned explains each slot, and which slots past a checker are in
    doubt (:class:`SlotScores`).

    The checkers' spreads are capped at ``config.checker_spread_cap`` times
    the empty look's for telling the classes apart (an empty point of a
    checker's colour must not pass for one), not for judging whether a slot
    is something else: on a board whose checkers vary much (ringed faces,
    glare, a tilted view), a checker is no stranger than its kind."""
    model = model.resized(features.patches.shape[2])
    spread = _class_spreads(model, config=config)
    distances = slot_distances(features, model)
    patches = features.patches
    # the slot past a checker may show that checker's shadow (a low light)
    # or side (an oblique camera) over its half towards the edge: it is
    # empty where its far half looks clearly more like the empty slot than
    # like a checker (the far half of a dark checker in shadow on dark felt
    # is not far from the felt). Only past what fits a checker: a sleeve
    # only nearer a checker's look than the empty slot's casts no shadow
    first = distances / spread
    fit = np.minimum(first[..., LIGHT], first[..., DARK])
    past = np.zeros(patches.shape[:3], np.bool_)
    past[:, :, 1:] = (fit[:, :, :-1] < first[:, :, :-1, EMPTY]) & (fit[:, :, :-1] < config.checker_fit_spreads)
    far = slot_distances(features, model, weights=FAR_HALF, where=past)
    share = far[:, EMPTY] / np.maximum(np.minimum(far[:, LIGHT], far[:, DARK]), 1e-6)
    empty = share < config.far_half_margin
    distances[past, EMPTY] = np.where(empty, np.minimum(distances[past, EMPTY], far[:, EMPTY]), distances[past, EMPTY])
    doubtful = np.zeros(patches.shape[:3], np.bool_)
    doubtful[past] = ~empty & (share < config.far_half_doubt)
    # a checker past the first of a line must also look like the one before it
    alike = np.zeros(patches.shape[:3], np.float32)
    alike[:, :, 1:] = template_distance(patches[:, :, 1:], patches[:, :, :-1]) / model.self_spread
    z = np.asarray(distances / spread, np.float32)
    z[..., 1:] = np.maximum(z[..., 1:], alike[..., None])
    prob, _ = _probabilities(z, np.ones(3, np.float32))
    own = np.maximum(distances[..., 1:] / model.spread[1:], alike[..., None]).min(axis=-1)
    return SlotScores(prob, z, np.minimum(z[..., EMPTY], own).astype(np.float32), doubtful)


def _read_points(
    prob: FloatArray, *, config: ReadConfig, bridge: bool = True, borrowed: BoolArray | None = None
) -> tuple[npt.NDArray[np.int64], FloatArray, npt.NDArray[np.bool_]]:
    """Counts (2, 12), confidences (2, 12) and detached slots (2, 12, S)
    from slot probabilities (2, 12, S, 3).

    A point holds one colour, that of its checker nearest the edge; each
    slot is then empty or that colour, and the count is the line of that
    colour from the edge. Checkers stand in a line from the edge, so these
    are bridged, with little confidence: one slot read empty between two
    checkers or between the edge and a checker (a face cut by the frame, a
    glint), and at the edge any slots not clearly empty before a checker
    (white on the wide base of a white point). Not so where ``bridge`` is
    false: colours guessed from the frame itself take the board's own light
    points for checkers. A checker's look a slot or more past the end of
    the line is *detached*: no checker stands there, something else does
    (and the point is read unsurely); where the slot's empty look was
    ``borrowed`` (2, 12, S) from another point (checkers stood there at
    calibration; at a corner, its own look lies in the frame's shadow), only
    a sure one is.
    """
    slots = min(prob.shape[2], LINE)
    counts = np.zeros((2, 12), np.int64)
    confidence = np.zeros((2, 12), np.float32)
    detached = np.zeros(prob.shape[:3], np.bool_)
    for row in range(2):
        for col in range(12):
            p = prob[row, col, :slots]
            checker = p[:, LIGHT] + p[:, DARK] > p[:, EMPTY]
            first = int(np.argmax(checker))  # the checker nearest the edge (0: none)
            light, dark = float(p[first, LIGHT]), float(p[first, DARK])
            colour, other = (LIGHT, DARK) if light >= dark else (DARK, LIGHT)
            occupied = p[:, colour] / np.maximum(p[:, colour] + p[:, EMPTY], 1e-9) > 0.5
            clear = p[:, EMPTY] >= config.clearly_empty
            run = bridged = 0
            while run < slots:
                if occupied[run]:
                    run += 1
                    continue
                ahead = np.flatnonzero(occupied[run:]) + run
                if not bridge or len(ahead) == 0:
                    break
                following = int(ahead[0])
                from_edge = run == 0 and not clear[:following].any()
                if following > run + 1 and not from_edge:
                    break
                bridged += following - run
                run = following + 1
            # the count rests on the line and the two slots past it (the
            # first past ends it, the next shows its last checker's side):
            # checkers stand in a line from the edge, so a slot farther on
            # that looks a little like a checker (a point's narrowing tip, the
            # field beyond it) is no checker of the line; one that looks
            # more like a checker than not is judged below
            near = p[: run + 2]
            sure = np.maximum(near[:, colour], near[:, EMPTY])
            conf = float(sure.min()) * (1 - float(near[:, other].max()))
            if run:
                conf *= max(light, dark) / max(light + dark, 1e-9)
            conf *= 0.3**bridged
            # past the slot after the line (its side and shadow show there)
            beyond = p[run + 1 :, LIGHT] + p[run + 1 :, DARK]
            if (beyond > 0.5).any():
                conf *= 0.3  # a gap in the stack: something else is on the point
            unsure = np.zeros(len(beyond), np.bool_) if borrowed is None else borrowed[row, col, run + 1 : slots]
            detached[row, col, run + 1 : slots] = beyond > np.where(unsure, config.confident, 0.5)
            if run == slots:
                conf *= config.full_stack_confidence  # more may be piled on the line
            counts[row, col] = run if colour == LIGHT else -run
            confidence[row, col] = conf
    return counts, confidence, detached


def _lit_otherwise(
    features: SlotFeatures,
    model: ColourModel,
    counts: npt.NDArray[np.int64],
    borrowed: BoolArray,
    *,
    config: ReadConfig,
) -> npt.NDArray[np.bool_]:
    """(2, 12) points whose slot just past the line has a borrowed empty
    look (``borrowed`` (2, 12, S)) and fits a checker's look, its lightness
    scaled by up to ``config.other_light_gain`` either way, better than
    that empty look: a checker under light the calibration did not see."""
    model = model.resized(features.patches.shape[2])
    rows, cols = np.nonzero(np.abs(counts) < LINE)
    slots = np.abs(counts[rows, cols])
    keep = borrowed[rows, cols, slots]
    rows, cols, slots = rows[keep], cols[keep], slots[keep]
    doubt = np.zeros((2, 12), np.bool_)
    if len(rows) == 0:
        return doubt
    patches = features.patches[rows, cols, slots]
    light, dark = model.checker_templates(features.on_board(features.slot_xy[rows, cols, slots]))
    # past a checker, by the slot's far half alone (its near half may show
    # that checker's side or shadow, which fits a checker's look)
    weights = np.where((slots > 0)[:, None, None], FAR_HALF, DISC).astype(np.float32)
    empty = template_distance(patches, model.background[rows, cols, slots], weights=weights)
    checker = np.minimum(
        template_distance(patches, light, max_gain=config.other_light_gain, weights=weights),
        template_distance(patches, dark, max_gain=config.other_light_gain, weights=weights),
    )
    doubt[rows[checker < empty], cols[checker < empty]] = True
    return doubt


def washed_out(patches: FloatArray, config: ReadConfig) -> BoolArray:
    """(2, 12, S) the slots a glare washes out to white: over half the disc
    of their patches (2, 12, S, T, T, 4) white (``config.washed_out``)."""
    white = ((patches[..., 0] >= config.washed_out) * DISC).sum(axis=(-2, -1))
    return np.asarray(white >= 0.5, np.bool_)


def _washed_out(
    features: SlotFeatures,
    model: ColourModel,
    prob: FloatArray,
    *,
    config: ReadConfig,
    reference: dict[str, Any] | None = None,
) -> npt.NDArray[np.bool_]:
    """(2, 12, S) slots whose empty look glare washed out to white at
    calibration (in its empty look, or before a lamp's reflection was
    taken away from it: ``reference``'s ``washed_out``), and which are not
    read a dark checker now (``prob`` (2, 12, S, 3)): that look shows
    neither the point nor a light checker as they are there, so the one
    cannot be told from the other, under the same glare or a dimmer light."""
    white = washed_out(model.resized(features.patches.shape[2]).background, config)
    before = loaded(reference, "washed_out")
    if before is not None and before.shape == white.shape:
        white |= before > 0.5
    return np.asarray(white & (prob[..., DARK] < 0.5), np.bool_)


def _read_piles(
    features: SlotFeatures,
    model: ColourModel,
    counts: npt.NDArray[np.int64],
    confidence: FloatArray,
    *,
    config: ReadConfig,
    rectified: Image,
    geometry: BoardGeometry,
    board_gradients: Callable[[], tuple[FloatArray, FloatArray]],
    layer_reference: Callable[[int, int, int], FloatArray | None] | None = None,
) -> tuple[FloatArray, BoolArray, BoolArray]:
    """Count the checkers piled on full lines (updates ``counts`` and
    ``confidence`` (2, 12) in place) and return how sure each pile count is,
    the junctions (2, 12, JUNCTIONS) that look like neither a face nor two
    rims (``config.junction_misfit_spreads``): what lies there is no
    checker; and the lines (2, 12) surely piled (``config.pile_known``).

    Past five, checkers are laid on the line where two of the first layer
    touch: at each junction along the line, a checker's face (the learned
    checker look) means one more, two touching rims (the junction's look
    learned on the starting position's lines, on this colour of point or
    the other, whichever fits the line better) none; the junction is judged
    by how much nearer it is to one than to the other, and the layer ends
    where that steps up (:func:`_layer_threshold`). A checker of the layer
    stands higher than the line, and the camera sees it moved a little
    (:data:`vision.features.PILE_SHIFTS`): the junctions are looked at where
    the shifts that explain them best as faces and as rims put them
    (:func:`_layer_shifts`). Where that finds no layer, or one on every
    junction, or no clear one, the line may be six to ten squeezed into
    the length of five: its rims are counted (:mod:`vision.squeeze`), never
    surely; where the looks are unsure of the layer (``config.pile_unsure``),
    the junctions whose own rims show a checker
    (:func:`vision.rims.layer_rims`, on the ``board_gradients`` made
    when first asked for, against the same junctions bare where
    ``layer_reference`` (row, col, colour) gives them) are a layer at
    least, unsure. A full line read as five stays unsure."""
    sure = np.zeros((2, 12), np.float32)
    misfit = np.zeros((2, 12, JUNCTIONS), np.bool_)
    piled = np.zeros((2, 12), np.bool_)
    rows, cols = np.nonzero(np.abs(counts) >= LINE)
    if len(rows) == 0 or features.junction_xy is None or features.edges is None:
        return sure, misfit, piled
    xy = features.on_board(features.junction_xy)
    junction = model.junction_templates(xy)
    other = model.junction_templates(xy, other_point=True)
    if junction is None or other is None:
        return sure, misfit, piled
    light, dark = model.checker_templates(xy)
    all_moved = features.moved_junctions(rows, cols)
    for row, col, moved in zip(rows, cols, all_moved, strict=True):
        is_light = counts[row, col] > 0
        colour = LIGHT if is_light else DARK
        d_faces = template_distance(moved, (light if is_light else dark)[row, col], max_gain=CHECKER_GAIN)
        # two touching rims as learned on this colour of point or on the
        # other, whichever explains the line better (:func:`_line_fit`):
        # their shading follows the light, which the two rows' patches
        # (turned edge-up) see mirrored, and the starting position's lines
        # of five of a colour stand one on each row, on points of opposite
        # colours (13 and 6: a point's own colour was learned on the other row)
        k = 0 if is_light else 1
        d_junctions = min(
            (template_distance(moved, looks[k][row, col], max_gain=CHECKER_GAIN) for looks in (junction, other)),
            key=lambda d: _line_fit(d_faces, d),
        )
        spread = float(model.spread[colour])
        # a junction that fits neither look at the one shift that fits the
        # line best as either is no checker, whatever layer would end there
        fit = np.minimum(d_faces, d_junctions)
        common = int(fit.sum(axis=1).argmin())
        misfit[row, col] = fit[common] > config.junction_misfit_spreads * spread
        # the layer's faces and the bare rims each at their own shift; where
        # that counts otherwise than the common shift, neither count is sure
        s_face, s_rim = _layer_shifts(d_faces, d_junctions)
        extra, certainty = _layer(d_faces[s_face], d_junctions[s_rim], spread, config=config)
        if (s_face, s_rim) != (common, common) and (
            _layer(d_faces[common], d_junctions[common], spread, config=config)[0] != extra
        ):
            certainty = min(certainty, config.full_stack_confidence)
        # the line may be a squeezed pile, its checkers over each other:
        # likely where no checker lies on the line, one on every junction,
        # or no clear layer; and wherever its rims say so clearly
        squeezed, margin = count_squeezed(rim_profile(rectified, geometry, int(row), int(col)), geometry.pitch_px)
        unclear = extra in (0, d_faces.shape[1]) or certainty < config.pile_unsure
        # a layer seen surely is a pile, however unsure its count turns out
        # below (a full layer: more may lie past it)...
        piled[row, col] = extra > 0 and certainty >= config.pile_known
        if squeezed > LINE and margin >= (config.squeeze_margin if unclear else config.squeeze_clear):
            extra, certainty = squeezed - LINE, min(margin, config.full_stack_confidence)
        elif unclear:
            # the looks cannot tell a layer from two rims: a layer's
            # checkers whose rims show it are counted (never surely)
            if extra < d_faces.shape[1] and certainty < config.pile_unsure:
                bare = None if layer_reference is None else layer_reference(int(row), int(col), colour)
                extra = max(extra, layer_rims(board_gradients(), geometry, int(row), int(col), bare=bare))
            if extra == d_faces.shape[1]:
                certainty *= 0.3  # a full second layer: more may lie further on
            else:
                # a squeezed pile may still look like this: never sure
                certainty = min(certainty, config.full_stack_confidence)
        counts[row, col] += extra if is_light else -extra
        sure[row, col] = certainty
        piled[row, col] |= extra > 0 and certainty >= config.pile_known  # ... and so is one counted surely
        if certainty >= config.confident:
            confidence[row, col] = confidence[row, col] / config.full_stack_confidence
    return sure, misfit, piled


def _layer_reference(
    start: FloatArray | None, bare: FloatArray | None, prob: FloatArray, board_rims: Callable[[], FloatArray]
) -> Callable[[int, int, int], FloatArray | None] | None:
    """Where a calibration kept the junctions' rims of its lines of five
    (``start``: :func:`vision.rims.start_junctions`) and the slots' bare
    (``bare``), the rims (J,) of a bare line's junctions on a point (row,
    col) of a colour (LIGHT, DARK) in this frame's light, as the slots read
    surely bare (``prob``) show it against calibration's (their rims:
    ``board_rims``, made when first asked for); else None."""
    if start is None or bare is None:
        return None

    @functools.cache
    def shift() -> float:
        light = light_shift(prob, board_rims(), bare)
        return 0.0 if light is None else light[0]

    return lambda row, col, colour: bare_junctions(start, row, col, colour, shift())


def _layer(d_face: FloatArray, d_junction: FloatArray, spread: float, *, config: ReadConfig) -> tuple[int, float]:
    """How many checkers lie on a full line's junctions, from each
    junction's distance (J,) to a checker's face and to two rims, and how
    sure that is (see :func:`_read_piles`; ``spread``: the checkers')."""
    ratio = np.asarray(d_face / np.maximum(d_junction, 1e-3), np.float32)
    threshold = _layer_threshold(ratio, config=config)
    face = ratio < threshold
    extra = int(np.argmin(face)) if not face.all() else len(face)
    # sure only where the two looks differ clearly there (a dark checker's
    # face and two dark rims on a dark point can look alike)
    power = np.abs(d_junction - d_face) / (config.pile_evidence_spreads * spread)
    certainty = float(np.clip(np.minimum(np.abs(ratio - threshold) / config.pile_margin, power), 0.0, 1.0).min())
    if face[extra:].any():
        certainty *= 0.3  # a layer with a gap: not a pile as we know it
        # ... unless two faces or more lie past the gap and every junction
        # before the last looks more like a face than two rims: a layer
        # lies from the edge, and its first face, by the frame, may look
        # less like one than the rest (one face past a gap may be a bare
        # junction that looks a little like one)
        last = int(np.flatnonzero(face).max()) + 1
        if face[extra:].sum() >= 2 and (ratio[:last] < config.pile_gap_face).all():
            extra = last
    return extra, certainty


def _layer_costs(d_faces: FloatArray, d_junctions: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(K, J+1) each, at every shift: the summed distance to a face of the
    junctions before each place k along a full line, and to two rims of
    those from k on (from their distances (K, J) to either look)."""
    zero = np.zeros((d_faces.shape[0], 1), np.float32)
    faces_before = np.concatenate([zero, np.cumsum(d_faces, axis=1)], axis=1)
    rims_from = np.concatenate([np.cumsum(d_junctions[:, ::-1], axis=1)[:, ::-1], zero], axis=1)
    return faces_before, rims_from


def _line_fit(d_faces: FloatArray, d_junctions: FloatArray) -> float:
    """How far a full line's junctions are from the looks of the layer
    that explains them best (its faces at their best shift, the rims past
    them at theirs; see :func:`_layer_shifts`): lower fits better."""
    faces_before, rims_from = _layer_costs(d_faces, d_junctions)
    return float((faces_before.min(axis=0) + rims_from.min(axis=0)).min())


def _layer_shifts(d_faces: FloatArray, d_junctions: FloatArray) -> tuple[int, int]:
    """The shifts (indices into :data:`vision.features.PILE_SHIFTS`) at which
    the junctions of a full line are seen as faces and as two rims, from
    their distances (K, J) to either look at each shift.

    A piled checker lies higher than the line and the camera sees it
    moved; the rims between the line's checkers are not. So the layer's
    faces share one shift and the bare junctions past them another: of the
    layers of 0..J checkers from the edge, the one whose faces and rims fit
    best at their own best shifts gives both. A line with no face or no rim
    takes one shift for all (a shift fitted to faces as rims would make
    them look like rims)."""
    junctions = d_faces.shape[1]
    faces_before, rims_from = _layer_costs(d_faces, d_junctions)
    layer = int((faces_before.min(axis=0) + rims_from.min(axis=0)).argmin())
    if layer == 0:
        shift = int(rims_from[:, 0].argmin())
        return shift, shift
    s_face = int(faces_before[:, layer].argmin())
    return s_face, (int(rims_from[:, layer].argmin()) if layer < junctions else s_face)


def _layer_threshold(ratio: FloatArray, *, config: ReadConfig) -> float:
    """The share (see :func:`_read_piles`) below which a junction of a full
    line shows a piled checker: midway (on a log scale) between the junctions
    before and past the place where they part most, where every one past it
    is at least ``pile_step`` times every one before and ``pile_bare_least``,
    and the one just before is at most ``pile_face_most`` (the layer ends
    there); else ``pile_face_ratio``."""
    scale = np.log(np.maximum(ratio, 1e-3))
    steps = [float(scale[m:].min() - scale[:m].max()) for m in range(1, len(scale))]
    if not steps:
        return config.pile_face_ratio
    m = int(np.argmax(steps)) + 1
    if (
        steps[m - 1] < np.log(config.pile_step)
        or ratio[m - 1] > config.pile_face_most
        or ratio[m:].min() < config.pile_bare_least
    ):
        return config.pile_face_ratio
    return float(np.exp((scale[:m].max() + scale[m:].min()) / 2))


@dataclass(frozen=True)
class Bar:
    """What :func:`read_bar` found: light and dark checkers counted, how
    sure, the colour of the checker centred on each probe (B,) (LIGHT, DARK
    or 0; also those past the room the points leave, ``past_at`` (B,), but
    for what fits neither the empty bar nor a checker closely), and of those past
    the room, how many of each colour look like checkers (``past``) and
    how many look nothing like the empty bar (``beyond``; beside a checker
    on the bar, its shadow and side, read as dark checkers, do not); and
    how sure the number of checkers is, whatever their colours
    (``counted``: beside a checker found, its side and shadow fit no look,
    so the bar is not read surely, but they are no second checker)."""

    light: int
    dark: int
    confidence: float
    centres: npt.NDArray[np.int8]
    past: dict[int, int]
    beyond: dict[int, int]
    counted: float = 0.0
    past_at: npt.NDArray[np.bool_] | None = None


def read_bar(
    features: SlotFeatures,
    model: ColourModel,
    room: dict[int, int],
    *,
    config: ReadConfig,
    rise: FloatArray | None = None,
) -> Bar:
    """The checkers on the bar. Checkers there stand anywhere: each is found
    where a probe (every quarter pitch) is most surely a checker rather than
    the empty bar, and no other is looked for within one checker of it. A
    probe is a checker only where it is nearer a checker's look than the
    empty bar's (a dark checker on a dark bar, or a shadow across it, can be
    near both), and no colour has more on the bar than its ``room`` (colour
    -> checkers the points and the tray leave; B4). ``rise`` (B,): each
    probe's rim against the bare bar's at calibration, where it is known;
    beside a light checker, a dark one shows its rim (``bar_rim_rise``)."""
    bar = features.bar
    background = (
        model.bar if len(model.bar) == len(bar) else np.repeat(np.median(model.bar, axis=0)[None], len(bar), axis=0)
    )
    light, dark = model.checker_templates(features.on_board(features.bar_xy))
    distances = np.stack(
        [
            template_distance(bar, background),
            template_distance(bar, light, max_gain=CHECKER_GAIN),
            template_distance(bar, dark, max_gain=CHECKER_GAIN),
        ],
        axis=-1,
    )
    prob, nearest = _probabilities(distances, model.spread)
    z = distances / model.spread
    reach = BAR_PROBES_PER_PITCH - 1  # probes within one checker of a centre
    touch = BAR_PROBES_PER_PITCH + 1  # ... and of one touching it
    free = np.ones(len(bar), np.bool_)
    centres = np.zeros(len(bar), np.int8)
    past_at = np.zeros(len(bar), np.bool_)
    totals = {LIGHT: 0, DARK: 0}
    past = {LIGHT: 0, DARK: 0}
    beyond = {LIGHT: 0, DARK: 0}
    sure = 1.0
    counted = 1.0
    checker_like = prob[:, EMPTY] < 0.5
    shift = None if rise is None else bar_light(rise, ~checker_like)
    while True:
        candidates = free & checker_like & (np.minimum(z[:, LIGHT], z[:, DARK]) < OUTLIER_SPREADS)
        if not candidates.any():
            break
        # the probe most surely a checker rather than the empty bar: a
        # checker's dark rim or shadow on a dark bar fits a dark checker
        # well, but the bar nearly as well
        odds = np.where(candidates, z[:, EMPTY] ** 2 - np.minimum(z[:, LIGHT], z[:, DARK]) ** 2, -np.inf)
        i = int(np.argmax(odds))
        colour = LIGHT if z[i, LIGHT] <= z[i, DARK] else DARK
        lo, hi = max(i - reach, 0), min(i + reach + 1, len(bar))
        free[lo:hi] = False
        if (
            colour == DARK
            and rise is not None
            and shift is not None
            and (centres[max(i - touch, 0) : i + touch + 1] == LIGHT).any()
            and z[i, EMPTY] <= config.shadow_spreads
            and rise[i] < config.bar_rim_rise * shift
        ):
            # a light checker's shadow (near the bare bar's look; a hand or a
            # sleeve there is not, and is judged as it was): read as the bare
            # bar, and the bar as unsurely as it looked like a dark checker
            sure = min(sure, 1.0 - float(prob[i, DARK]))
            counted = min(counted, 1.0 - float(prob[i, DARK]))
            continue
        centres[i] = colour
        if totals[colour] == room[colour]:
            # more than there are checkers (B4): a point or the bar is
            # misread (the bar's own shadows pass for dark checkers), or
            # what lies here is no checker: _check_too_many counts those
            # unlike the empty bar, _check_covered judges them pixel by
            # pixel, as strictly as the board
            sure = counted = 0.0
            past[colour] += 1
            past_at[i] = True
            # beside a checker found on the bar lie its shadow and side,
            # darker than the bare bar and fitting neither it nor a checker
            # closely: there only a dark checker that fits its look closely
            # or is far from the bar's look counts as unlike it (a hand
            # there, read as light checkers one beside the other, still counts)
            unlike = bool(z[i, EMPTY] > config.unexplained_spreads)
            if colour == DARK and np.count_nonzero(centres[max(i - touch, 0) : i + touch + 1]) > 1:
                unlike &= bool(z[i, colour] < config.beside_fit_spreads or z[i, EMPTY] > config.shadow_spreads)
            beyond[colour] += int(unlike)
            # ... and where it fits no checker's look closely either, it is
            # judged as the bare bar (a hand lying there is no checker)
            if unlike and z[i, colour] > config.loose_fit_spreads:
                centres[i] = 0
                past_at[i] = False
            continue
        totals[colour] += 1
        sure = min(sure, float(prob[i, colour]))
        counted = min(counted, float(prob[i, LIGHT] + prob[i, DARK]))
    if free.any():
        sure = min(sure, float(prob[free, EMPTY].min()))
        # beside a checker found, its side and shadow fit no look: what
        # counts there is that no second checker does
        beside = np.zeros(len(bar), np.bool_)
        for centre in np.flatnonzero(centres):
            beside[max(centre - touch, 0) : centre + touch + 1] = True
        no_checker = np.where(beside, 1.0 - prob[:, LIGHT] - prob[:, DARK], prob[:, EMPTY])
        counted = min(counted, float(no_checker[free].min()))
    return Bar(totals[LIGHT], totals[DARK], sure, centres, past, beyond, counted, past_at)


#: How far along its point a checker left apart from its line may stand
#: off its slot (patch rows, of :data:`PATCH`), either way: :func:`off_its_slot`.
OFF_SLOT_ROWS = (2, 4, 6)


def off_its_slot(features: SlotFeatures, model: ColourModel, where: BoolArray) -> FloatArray:
    """(2, 12, S) how well a checker standing off its slot along the point
    explains each slot ``where`` (2, 12, S) is true (elsewhere inf), in
    spreads: the slot's empty look with a checker's look over part of it,
    moved :data:`OFF_SLOT_ROWS` rows either way (a hand leaves the checkers
    of a line apart, so the slots laid out for touching checkers each show
    part of one)."""
    model = model.resized(features.patches.shape[2])
    best = np.full(features.patches.shape[:3], np.inf, np.float32)
    if not where.any():
        return best
    patches, background = features.patches[where], model.background[where]
    looks = model.checker_templates(features.on_board(features.slot_xy[where]))
    # as strictly as the empty look, which the slot mostly shows, is judged
    spread = np.minimum(model.background_spread[where][:, None], model.spread)
    fits = np.full(len(patches), np.inf, np.float32)
    for colour, look in zip((LIGHT, DARK), looks, strict=True):
        for shift in (*OFF_SLOT_ROWS, *(-s for s in OFF_SLOT_ROWS)):
            moved = background.copy()
            if shift > 0:
                moved[:, shift:] = look[:, :-shift]
            else:
                moved[:, :shift] = look[:, -shift:]
            distance = template_distance(patches, moved, max_gain=CHECKER_GAIN) / spread[:, colour]
            fits = np.minimum(fits, distance)
    best[where] = fits
    return best


def _follow_lines(
    features: SlotFeatures, model: ColourModel, scores: SlotScores, *, config: ReadConfig, borrowed: BoolArray | None
) -> tuple[SlotFeatures, ColourModel, SlotScores]:
    """``features`` and ``model`` with the slots of each point moved onto
    the checkers of its line where they stand apart (:mod:`vision.lines`),
    and the slots' scores there (else ``scores``). The slots past the line
    read lie just past its last checker, where the board shows; where a
    checker shows there instead, the slots followed no line of checkers
    standing apart but a pile squeezed into one long line (each checker
    overlapping the next), and the point keeps the slots it had."""
    z_scores = functools.partial(line_z_scores, config=config)
    shifts = line_shifts(features, model, z_scores, fits=config.loose_fit_spreads)
    if not shifts.any():
        return features, model, scores
    moved = shifted(features, model, shifts)
    moved_scores = slot_z_scores(*moved, config=config)
    counts = np.abs(_read_points(moved_scores.prob, config=config, borrowed=borrowed)[0])
    last = np.take_along_axis(shifts, np.maximum(counts - 1, 0)[..., None], axis=-1)
    past = np.arange(shifts.shape[2]) >= counts[..., None]
    ended = np.where(past & (counts[..., None] > 0), last, shifts)
    if (ended == shifts).all():
        return *moved, moved_scores
    moved = shifted(features, model, ended)
    moved_scores = slot_z_scores(*moved, config=config)
    squeezed = np.abs(_read_points(moved_scores.prob, config=config, borrowed=borrowed)[0]) != counts
    if not squeezed.any():
        return *moved, moved_scores
    ended[squeezed] = 0
    moved = shifted(features, model, ended)
    return *moved, slot_z_scores(*moved, config=config)


def lines_read_whole(
    prob: FloatArray, explained: FloatArray, counts: npt.NDArray[np.int64], *, config: ReadConfig
) -> npt.NDArray[np.bool_]:
    """The slots (2, 12, S) surely (``config.confident``) of their line's
    colour in the lines (``counts`` (2, 12)) read whole: each slot of the
    line within ``config.unexplained_spreads`` of a look (``explained``),
    and the slot past it, if any, bare and fitting its look closely
    (``config.checker_fit_spreads``). A camera looking steeply at a corner
    sees the side of each checker of a line there, and they fit their look
    only loosely; a hand over a line leaves part of it fitting nothing, or
    lies past it."""
    slots = explained.shape[-1]
    length = np.minimum(np.abs(counts), slots)
    in_line = np.arange(slots) < length[..., None]
    past = np.minimum(length, slots - 1)[..., None]
    bare_past = (length == slots) | (
        (np.take_along_axis(prob[..., EMPTY], past, axis=-1)[..., 0] >= 0.5)
        & (np.take_along_axis(explained, past, axis=-1)[..., 0] < config.checker_fit_spreads)
    )
    whole = bare_past & ((explained < config.unexplained_spreads) | ~in_line).all(axis=-1)
    surely = np.where((counts > 0)[..., None], prob[..., LIGHT], prob[..., DARK]) >= config.confident
    return np.asarray(in_line & whole[..., None] & surely, np.bool_)


def unexplained_slots(prob: FloatArray, explained: FloatArray, *, config: ReadConfig) -> npt.NDArray[np.bool_]:
    """(2, 12, S) the slots that nothing learned explains: farther than
    ``config.unexplained_spreads`` from every look (``explained``, see
    :func:`slot_z_scores`), given the slots' probabilities ``prob``
    (2, 12, S, 3). The slot just past a checker shows its side and shadow,
    and past the fifth the checkers pile as they will: neither counts. Past
    a slot that is no checker either (a sleeve lying along the point), the
    next one does."""
    judged = np.ones(explained.shape, np.bool_)
    judged[:, :, 1:] = prob[:, :, :-1, LIGHT] + prob[:, :, :-1, DARK] < 0.5
    judged[:, :, LINE:] = False
    return judged & (explained > config.unexplained_spreads)


def read_rectified(
    rectified: Image,
    geometry: BoardGeometry,
    model: ColourModel,
    *,
    config: ReadConfig = ReadConfig(),
    refusal_config: RefusalConfig = RefusalConfig(),
    reference: dict[str, Any] | None = None,
    empty: FloatArray | None = None,
    borrowed: BoolArray | None = None,
    patched: BoolArray | None = None,
    since: FloatArray | None = None,
    off: Off | None = None,
    hold: bool = True,
) -> Reading:
    """Read a rectified board (height, width, 3) BGR uint8: exposure and
    sharpness refusals first (a dice cup is looked for on the camera frame:
    :func:`check_frame`); then every slot, against ``model``. ``empty``:
    the calibration's thumbnail of the empty board (see
    :mod:`vision.occlusion`), to refuse frames where something covers it;
    ``borrowed``: the slots (2, 12, S) whose empty look was borrowed from
    other points and is less sure (the others were seen empty and may
    look as their kin did: :attr:`ColourModel.kin`); ``patched``: the
    slots occupied when ``empty`` was made, where it took its look from
    elsewhere (other points, or a photo of the empty board) and is less
    sure; ``since``: the thumbnail of the frame before, read and not
    refused (a fixed camera), so that only what changed since can be
    something covering the board; ``off``: the bear-off tray's reading,
    whose sure counts the checkers on the board must leave (B4); ``hold``:
    count each side's checkers as B4 has them where the points seem to
    hold more or fewer (:func:`_held`), else as the photo shows them."""
    refusal = check_exposure(rectified, config=refusal_config, reference=reference)
    if refusal is None:
        refusal = check_sharpness(rectified, reference=reference, config=refusal_config)
    if refusal is not None:
        return refused_reading(refusal, geometry, rectified)
    if borrowed is not None:
        model = replace(model, kin=~borrowed)
    lab = to_lab(rectified)
    features = measure(rectified, geometry, empty=empty, lab=lab)
    # what a brighter frame clipped white, the calibration's looks clip alike
    if empty is not None and features.light is not None:
        model = model.seen_in(features)
        empty = as_in_frame(empty, features.light)
        if since is not None and since.shape == features.thumbnail.shape:
            since = as_in_frame(since, features.light)
    scores = slot_z_scores(features, model, config=config)
    if empty is not None:  # where a hand left a line's checkers apart, its slots follow them
        features, model, scores = _follow_lines(features, model, scores, config=config, borrowed=borrowed)
    # the rims' gradients, made once a frame where the rims are weighed or a pile's layer is unclear
    board_gradients = functools.cache(functools.partial(gradients, rectified, lab=lab))
    board_rims = functools.cache(lambda: rim_strength(board_gradients(), geometry))
    prob, slot_z, explained, doubtful = scores
    bare = loaded(reference)
    if bare is not None:
        weighable = in_doubt(prob, bare, doubt=config.rim_doubt)
        if weighable.any():
            prob = weigh_rims(
                prob, board_rims(), bare, weighable, cap=config.rim_cap, checkers=loaded(reference, "checkers")
            )
    layer_reference = _layer_reference(loaded(reference, "junctions"), bare, prob, board_rims)
    nearest = np.asarray(slot_z.min(axis=-1), np.float32)
    # a slot that shows part of a checker left apart from its line is no stranger than that checker
    unlike = explained > config.unexplained_spreads
    strange = unexplained_slots(prob, np.minimum(explained, off_its_slot(features, model, unlike)), config=config)
    # with the frame before (a fixed camera), only what changed since can be
    # something reaching in: the rest was there when that frame was read
    new = None
    if since is not None and since.shape == features.thumbnail.shape:
        new = changed(features.thumbnail, since, refusal_config.occlusion_change)
        strange &= slots_touching(new, features)
    calibrated = empty is not None
    counts, confidence, detached = _read_points(prob, config=config, bridge=calibrated, borrowed=borrowed)
    refusal = check_occlusion(
        strange,
        counts,
        occluded_slots=config.occluded_slots,
        what="something unlike the board or its checkers",
        joined=nearest > config.loose_fit_spreads,
    )
    if refusal is None and calibrated:
        refusal = check_occlusion(
            detached, counts, occluded_slots=config.detached_slots, what="something that is no line of checkers"
        )
    pile_confidence, misfit, piled = _read_piles(
        features,
        model,
        counts,
        confidence,
        config=config,
        rectified=rectified,
        geometry=geometry,
        board_gradients=board_gradients,
        layer_reference=layer_reference,
    )
    if refusal is None:
        refusal = check_occlusion(
            misfit, counts, occluded_slots=config.misfit_junctions, what="something that is no line or pile of checkers"
        )
    # points not read surely: a slot within the line's reach fits loosely,
    # is in doubt past a checker, is washed out by glare, or (below) lies
    # under a misread checker's worth
    loose = nearest[:, :, :LINE].max(axis=-1) > config.loose_fit_spreads
    loose |= doubtful[:, :, :LINE].any(axis=-1)
    loose |= _washed_out(features, model, prob, config=config, reference=reference)[:, :, :LINE].any(axis=-1)
    if borrowed is not None:
        loose |= _lit_otherwise(features, model, counts, borrowed, config=config)
    loose |= rimless(line_rims(board_gradients(), geometry, counts), counts, share=config.rimless_share)
    # a side has config.checkers (B4): the bar holds no more than the points and the tray leave
    on_points = _per_colour(counts)
    # each bar probe's rim against the bare bar's at calibration
    bare_bar = loaded(reference, "bar")
    rise: FloatArray | None = None
    if bare_bar is not None and len(bare_bar) == len(features.bar):
        rise = np.asarray(bar_rims(board_gradients(), geometry) / np.maximum(bare_bar, 1.0), np.float32)
    bar = read_bar(features, model, bar_room(counts, off, config=config), config=config, rise=rise)
    if refusal is None and calibrated:
        refusal = _check_too_many(on_points, bar, config=config)
    if refusal is None and empty is not None:
        # a slot is a checker where it fits one's look closely, or loosely
        # (at a corner, in odd light) where the empty look is far or it lies
        # in a line read whole
        loosely = (explained < config.unexplained_spreads) & (
            (slot_z[..., EMPTY] > 2 * config.unexplained_spreads)
            | lines_read_whole(prob, explained, counts, config=config)
        )
        checkers = (prob[..., EMPTY] < 0.5) & ((explained < config.checker_fit_spreads) | loosely)
        colours = np.where(prob[..., LIGHT] >= prob[..., DARK], LIGHT, DARK).astype(np.int8)
        piles = (np.abs(counts) > LINE) & piled
        refusal, unsure = _check_covered(
            features, model, checkers, colours, counts, piles, bar, empty, patched, new, refusal_config
        )
        loose |= unsure
    confidence = np.where(loose, np.minimum(confidence, config.loose_confidence), confidence).astype(np.float32)
    if hold:
        _, bar = _held(
            counts,
            confidence,
            prob,
            pile_confidence,
            bar,
            off,
            functools.partial(read_bar, features, model, config=config, rise=rise),
            config=config,
            calibrated=calibrated,
        )
    uncertain = not_sure(confidence, bar.confidence, config=config)
    return Reading(
        counts=counts,
        confidence=confidence,
        slot_prob=prob,
        bar_light=bar.light,
        bar_dark=bar.dark,
        bar_confidence=bar.confidence,
        uncertain=uncertain,
        refusal=refusal,
        bar_full=(bar.past[LIGHT] > 0, bar.past[DARK] > 0),
        bar_beyond=(bar.beyond[LIGHT], bar.beyond[DARK]),
        rectified=rectified,
        slot_z=slot_z,
        pile_confidence=pile_confidence,
        features=features,
        off=off,
        bar_counted=bar.counted,
    )


def not_sure(confidence: FloatArray, bar_confidence: float, *, config: ReadConfig) -> tuple[str, ...]:
    """The points (``confidence`` (2, 12)) and the bar read less surely than
    ``config.confident``, by name (:attr:`Reading.uncertain`)."""
    points = [point_name(r, c) for r in range(2) for c in range(12) if confidence[r, c] < config.confident]
    return tuple(points + (["bar"] if bar_confidence < config.confident else []))


def _per_colour(counts: npt.NDArray[np.int64]) -> dict[int, int]:
    """Checkers of each colour (LIGHT, DARK -> n) in ``counts`` (2, 12)."""
    return {LIGHT: int(counts[counts > 0].sum()), DARK: int(-counts[counts < 0].sum())}


def bar_room(counts: npt.NDArray[np.int64], off: Off | None, *, config: ReadConfig) -> dict[int, int]:
    """Checkers of each colour (LIGHT, DARK -> n) the bar may hold: those
    neither on the points (``counts`` (2, 12)) nor surely in the tray
    (``off``) (B4)."""
    on_points, borne_off = _per_colour(counts), _borne_off(off)
    return {colour: max(config.checkers - borne_off[colour] - on_points[colour], 0) for colour in (LIGHT, DARK)}


def _borne_off(off: Off | None) -> dict[int, int]:
    """Checkers of each colour (LIGHT, DARK -> n) the tray holds surely (0 where unsure or without a tray)."""
    if off is None:
        return {LIGHT: 0, DARK: 0}
    return {LIGHT: off.light if off.light_sure else 0, DARK: off.dark if off.dark_sure else 0}


def bearing_off(counts: npt.NDArray[np.int64], sign: int, on_bar: int) -> bool:
    """Whether the side of ``sign`` (+1 light, -1 dark) may have borne
    checkers off, as ``counts`` (2, 12) and ``on_bar`` (its checkers on the
    bar) show it: only with all of them in its home board (E1), one quarter
    of the board, so none on the bar. (A checker hit after its side began
    to bear off breaks that, and is seldom seen.)"""
    quarters = (counts * sign).reshape(2, 2, 6)  # (row, half, point)
    return on_bar == 0 and int(((quarters > 0).sum(axis=2) > 0).sum()) <= 1


def _held(
    counts: npt.NDArray[np.int64],
    confidence: FloatArray,
    prob: FloatArray,
    pile_confidence: FloatArray,
    bar: Bar,
    off: Off | None,
    reread: Callable[[dict[int, int]], Bar],
    *,
    config: ReadConfig,
    calibrated: bool,
) -> tuple[npt.NDArray[np.bool_], Bar]:
    """Count ``counts`` (2, 12) in place as a side's checkers must be (B4),
    and return the points (2, 12) recounted and the bar as the points then
    leave it room (``reread``: the bar read with a room, colour -> checkers).

    The points, the bar (the checkers counted there, and those past the
    room the points left that look nothing like the empty bar: a shadow on
    it does not count) and the tray's sure count may hold more of a colour
    than ``config.checkers``; or, where ``calibrated``, fewer, by no more
    than a layer on a line holds (``JUNCTIONS``), of a side that cannot
    have borne off (the tray counted surely, or :func:`bearing_off`). Then
    a point of that colour not read surely holds fewer or more
    (:func:`_recount`) and the bar is read again with the room that
    leaves. A side that holds more is recounted so, a point once each,
    while it still does (a phantom line at a corner and a lone one
    elsewhere); one that holds fewer, once (it may have borne off after
    all, with a checker hit since: E1).

    A point recounted keeps its confidence (below ``config.confident``)."""
    recounted = np.zeros((2, 12), np.bool_)
    odds = np.log(np.clip(prob, 1e-4, 1.0))
    for colour in (LIGHT, DARK):
        for _ in range(counts.size):
            args = (counts, confidence, odds, pile_confidence, bar, off, colour, recounted)
            change = _recount(*args, config=config, calibrated=calibrated)
            if change is None:
                break
            row, col, by = change
            counts[row, col] += by
            recounted[row, col] = True
            bar = reread(bar_room(counts, off, config=config))
            if by * (1 if colour == LIGHT else -1) > 0:  # the side held fewer
                break
    return recounted, bar


def _recount(
    counts: npt.NDArray[np.int64],
    confidence: FloatArray,
    odds: FloatArray,
    pile_confidence: FloatArray,
    bar: Bar,
    off: Off | None,
    colour: int,
    recounted: npt.NDArray[np.bool_],
    *,
    config: ReadConfig,
    calibrated: bool,
) -> tuple[int, int, int] | None:
    """One point of ``colour`` to count otherwise where its side seems to
    hold more or fewer checkers than it has (see :func:`_held`), as (row,
    col, the checkers it gains (+ light, - dark)), or None.

    Of the points not ``recounted`` yet that can hold some of the
    difference (a pile counted less surely than ``config.pile_known``, no
    shorter than its line; where ``calibrated``, a line too, no longer than
    ``LINE``), the one that holds the most of it (where the side holds
    more, of those the photo speaks against by no more than
    ``config.recount_evidence`` log-odds), if the photo speaks against it
    by no more than that and by ``config.recount_margin`` less than
    against any other that holds as much: a pile by
    ``config.pile_miscount_odds``, a line by how much likelier each slot it
    gains or loses is as read than otherwise (``odds`` (2, 12, S, 3), the
    slots' log-probabilities). (Of many empty points, one is likely to look
    a little like a checker; two piles counted unsurely are as likely
    wrong.) Without a calibration's empty looks (a line's slots tell little
    there), only a pile is cut, and not where a line of that colour is read
    less surely than ``config.recount_doubt``: the checker too many may be
    there (:mod:`vision.uncalibrated` balances the side by the layout it
    learned). Where the side holds more and no such point may hold any of
    it, the one pile counted fairly surely on a point read less surely than
    ``config.confident`` holds the most it can (a clear checker on the bar
    past the room the points left, and a line of five read as six), not one
    of two such piles that could each hold as much."""
    sign = 1 if colour == LIGHT else -1
    mine = counts * sign
    on_bar = (bar.light if colour == LIGHT else bar.dark) + bar.beyond[colour]
    borne_off = _borne_off(off)[colour]
    excess = int(mine[mine > 0].sum()) + on_bar + borne_off - config.checkers
    lines = (mine >= 0) & (mine <= LINE) & (confidence < config.confident) & calibrated
    if excess > 0:
        if not calibrated and ((mine > 0) & (mine <= LINE) & (confidence < config.recount_doubt)).any():
            return None
        piles = mine > LINE
        lines &= mine > 0
    else:
        tray_sure = off is not None and (off.light_sure if colour == LIGHT else off.dark_sure)
        short = -JUNCTIONS <= excess < 0 and (tray_sure or not bearing_off(counts, sign, on_bar))
        if not (calibrated and short):
            return None
        piles = mine >= LINE
        lines &= mine < LINE
    # the last resort where the side holds more (see above)
    layered = piles & (pile_confidence >= config.pile_known) & (confidence < config.confident) & ~recounted
    piles &= pile_confidence < config.pile_known
    gain = -1 if excess > 0 else 1  # the point recounted holds fewer, or more
    options = []
    for row, col in np.argwhere((piles | lines) & ~recounted):
        held = int(mine[row, col])
        if piles[row, col]:
            change = min(excess, held - LINE) if excess > 0 else -excess
            options.append((-change, config.pile_miscount_odds, int(row), int(col)))
            continue
        change = min(excess, held) if excess > 0 else min(-excess, LINE - held)
        slots = odds[row, col, held - change : held] if excess > 0 else odds[row, col, held : held + change]
        against = -gain * float((slots[:, colour] - slots[:, EMPTY]).sum())
        options.append((-change, against, int(row), int(col)))
    options.sort()
    # where the side holds more, a point the photo speaks against too much
    # leaves the difference to one that holds less of it
    allowed = [option for option in options if option[1] <= config.recount_evidence] if excess > 0 else options[:1]
    if excess > 0 and not allowed:
        options = sorted((-min(excess, int(mine[r, c]) - LINE), 0.0, int(r), int(c)) for r, c in np.argwhere(layered))
        allowed = options
    if not allowed or allowed[0][1] > config.recount_evidence:
        return None
    most, against, row, col = allowed[0]
    rival = min((o for c, o, r, k in options if c == most and (r, k) != (row, col)), default=np.inf)
    return (row, col, sign * gain * -most) if rival - against >= config.recount_margin else None


def _check_too_many(on_points: dict[int, int], bar: Bar, *, config: ReadConfig) -> Refusal | None:
    """``hand_over_board`` where the points (``on_points``: colour -> count)
    and the ``bar`` (the checkers counted there, and those past the room
    the points leave that look nothing like the empty bar) seem to hold
    more checkers of a colour than there are (B4), by more than a misread
    point explains."""
    for colour, name in ((LIGHT, "light"), (DARK, "dark")):
        on_bar = (bar.light if colour == LIGHT else bar.dark) + bar.beyond[colour]
        seen = on_points[colour] + on_bar
        if seen > config.checkers + config.extra_checkers or bar.beyond[colour] > config.extra_on_bar:
            return Refusal(
                "hand_over_board",
                f"{seen} {name} checkers seem to stand on the board ({on_bar} of them on the bar), but a side "
                f"has {config.checkers} (B4): something lies on it; wait until it is clear",
            )
    return None


def _check_covered(
    features: SlotFeatures,
    model: ColourModel,
    checkers: npt.NDArray[np.bool_],
    colours: npt.NDArray[np.int8],
    counts: npt.NDArray[np.int64],
    piles: npt.NDArray[np.bool_],
    bar: Bar,
    empty: FloatArray,
    patched: BoolArray | None,
    new: BoolArray | None,
    config: RefusalConfig,
) -> tuple[Refusal | None, npt.NDArray[np.bool_]]:
    """``hand_over_board`` where the frame departs from the board the reading
    describes over more than part of a checker (:mod:`vision.occlusion`),
    or faintly over a hand's area (a hand the colour of the board; not the
    band along a shadow's sharp edge, which keeps the board's colour and
    its edges: :func:`vision.occlusion.only_light`), and the points (2, 12)
    it leaves unsure: where a thing that departs fits in
    one checker's room, it is a checker misread (in glare, leaning on the
    next point), not a hand, and only the points it touches are unsure
    (pieces beside the checkers pasted that the room of a checker read on
    a point joins are judged as one, as are those between checkers read
    one after another on the bar: a hand read as checkers here and there
    is cut up by the checkers pasted there); so are those that what
    departs over less than part of a checker touches (fingertips over a
    checker may hide it). The checkers found on the ``bar`` past the room
    the points leave (B4) are pasted, but judged as strictly as the board:
    the position has no such checkers, and a hand read as checkers along
    the bar fits their look only loosely.
    The lines of the ``piles`` (2, 12) surely piled are not judged, nor a
    little past their sides: their upper layer lies over the line as no
    pasted checker does. Where ``new`` (h', w') marks what changed since
    the frame before, only that can be a hand: what departs but did not
    change was there then, when that frame passed this check (light, a
    checker misread in one of the two), and leaves the points it touches
    unsure."""
    unsure = np.zeros((2, 12), np.bool_)
    if empty.shape != features.thumbnail.shape:
        return None, unsure
    rooms = checker_rooms(features, checkers, counts)
    bar_checkers = bar.centres
    care = care_mask(features, rooms | bar_rooms(features, bar_checkers != 0))
    # where checkers were read, the frame must look like checkers (a hand
    # read as a line of checkers, or as checkers on the bar, does not), with
    # more tolerance
    expected, discs = paste_checkers(
        empty, features, model, np.where(checkers, colours, 0).astype(np.int8), bar_checkers
    )
    guessed = discs if patched is None else discs | borrowed_area(features, patched)
    # around the checkers read on the bar lie their shadows and sides, left
    # out of the care area; but a hand lying along the bar is read as
    # checker after checker there: judge the bar's middle there too, as
    # tolerantly as a pasted checker
    around_bar_checkers = bar_middle(features) & ~care
    beside_bar_checkers = around_bar_checkers & ~discs
    care |= beside_bar_checkers
    guessed = guessed | beside_bar_checkers
    if bar.past_at is not None:
        guessed &= ~bar_rooms(features, bar.past_at)
    residual, faint_residual = (
        np.where(guessed, config.occlusion_checker_residual, level).astype(np.float32)
        for level in (config.occlusion_residual, config.occlusion_faint_residual)
    )
    # a pile's upper layer stands higher: the camera sees it, and its
    # shadow, a little to the side of the line
    judged = (care | discs) & ~line_area(features, piles, margin=PATCH // 2)
    distance = departure(features.thumbnail, expected, judged)
    strange = unexplained(distance, judged, residual=residual)
    # a hand the colour of the board departs from it faintly, but over a
    # hand's area, and not as light does
    faint = unexplained(distance, judged, residual=faint_residual)
    for _, faint_region in blobs(faint, least=config.occlusion_faint_area * float(PATCH * PATCH))[:1]:  # the largest
        if not only_light(features.thumbnail, expected, faint_region):
            strange |= faint_region
    # what departs between checker after checker read on the bar is one
    # thing (a hand lying along it, read so), however the discs cut it
    along_the_bar = around_bar_checkers & between_bar_checkers(features, bar_checkers != 0)

    least = config.occlusion_area * float(PATCH * PATCH)

    def things(mask: BoolArray) -> list[tuple[int, BoolArray]]:
        # ... and so is what departs beside the checkers pasted, in pieces
        # that the room of a checker read on a point joins: a hand read as
        # checkers here and there is cut up by those pasted there (a
        # checker that departs from its look in odd light and the next one,
        # or two misread on the bar beside one read there, are two); the
        # things bigger than part of a checker seen either way
        return blobs(mask, along_the_bar, least=least) + blobs(mask & ~discs, along_the_bar | rooms, least=least)

    def compact(region: BoolArray) -> bool:
        ys, xs = np.nonzero(region)
        return bool(max(np.ptp(xs), np.ptp(ys)) + 1 <= config.occlusion_compact * PATCH)

    found = things(strange)
    if new is not None and found:
        for r, c in covered_points(strange, features):
            unsure[r, c] = True
        strange &= new
        found = things(strange)
    # thing by thing: one that fits in a checker's room is a checker
    # misread, and another beside it may still be a hand
    hands = [region for _, region in found if not compact(region)]
    if not hands:
        for r, c in covered_points(strange, features):
            unsure[r, c] = True
        return None, unsure
    hand = np.logical_or.reduce(hands)
    covered = covered_points(hand, features)
    ys, xs = np.nonzero(hand)
    points = tuple(point_name(r, c) for r, c in covered)
    left, right = features.bar_edges
    places = [*points, *(["the bar"] if ((xs >= left) & (xs <= right)).any() else [])]
    where = f" over {', '.join(places)}" if places else " in the middle of the board"
    hint = straighten_hint(covered, counts)
    return Refusal(
        "hand_over_board", f"something covers the board{where}: wait until it is clear{hint}", points
    ), unsure


def check_frame(image: Image, calibration: Calibration) -> tuple[Image, Refusal | None]:
    """A camera frame rectified with a board's calibration, without the
    reflection of a lamp it found (:mod:`vision.glare`), and why it cannot
    be read at all (too dark, blown out, the board moved, a dice cup on it:
    looked for with the frame around the playing area, where a cup at the
    board's edge stands too), if so."""
    geometry, config, reference = calibration.geometry, calibration.refusal, calibration.reference
    margin = cup_margin(geometry, config)
    around = rectify_without(image, geometry, calibration.glare, margin=margin)
    width, height = geometry.size
    rectified = np.ascontiguousarray(around[margin : margin + height, margin : margin + width])
    refusal = check_exposure(rectified, config=config, reference=reference)
    if refusal is None:
        refusal = check_board_moved(image, geometry, reference=reference, config=config)
    if refusal is None and reference is not None:
        refusal = check_cup(
            rectified, geometry, reference=reference, config=config, empty=calibration.empty_board, around=around
        )
    return rectified, refusal


def read_board(image: Image, calibration: Calibration, *, since: Reading | None = None, hold: bool = True) -> Reading:
    """Read a camera frame (h, w, 3) BGR uint8 with a board's calibration:
    refusals first (exposure, board moved, blur), then every point and the
    bar. ``since``: the reading of an earlier frame of the same camera, not
    refused: only what changed since then can be a hand over the board.
    ``hold``: see :func:`read_rectified` (a judge whose every outcome holds
    each side's checkers asks for what the photo shows). A frame of another
    size than the calibration's raises :class:`vision.errors.ImageError`."""
    calibration.check_frame_size(image)
    geometry = calibration.geometry
    rectified, refusal = check_frame(image, calibration)
    if refusal is not None:
        return refused_reading(_light_hinted(refusal, rectified, calibration), geometry, rectified)
    colours = calibration.colours
    off = None
    if calibration.tray is not None:
        off = read_off(image, calibration.tray, geometry, colours.light_lab, colours.dark_lab)
    reading = read_rectified(
        rectified,
        geometry,
        colours,
        config=calibration.read,
        refusal_config=calibration.refusal,
        reference=calibration.reference,
        empty=calibration.empty_board,
        borrowed=calibration.borrowed,
        patched=calibration.covered_at_start,
        since=since.features.thumbnail if since is not None and since.refusal is None and since.features else None,
        off=off,
        hold=hold,
    )
    log.debug("read %s uncertain %s off %s", reading.counts.tolist(), reading.uncertain, reading.off)
    if reading.refusal is not None:
        reading = replace(reading, refusal=_light_hinted(reading.refusal, rectified, calibration))
    return reading


def _light_hinted(refusal: Refusal, rectified: Image, calibration: Calibration) -> Refusal:
    """``refusal``, where it sees something over the board, with the hint
    that the light changed since calibration where it did
    (:func:`vision.refusal.light_changed`)."""
    if refusal.reason != "hand_over_board":
        return refusal
    hint = light_changed(rectified, config=calibration.refusal, reference=calibration.reference)
    return replace(refusal, message=refusal.message + hint) if hint else refusal


def refused_reading(refusal: Refusal, geometry: BoardGeometry, rectified: Image | None = None) -> Reading:
    """A reading that says only why the frame cannot be read."""
    return Reading(
        counts=np.zeros((2, 12), np.int64),
        confidence=np.zeros((2, 12), np.float32),
        slot_prob=np.zeros((2, 12, geometry.slots, 3), np.float32),
        bar_light=0,
        bar_dark=0,
        bar_confidence=0.0,
        uncertain=(),
        refusal=refusal,
        rectified=rectified,
    )


def geometry_from_corners(image: Image, corners: npt.ArrayLike, *, check_order: bool = True) -> BoardGeometry:
    """Geometry of an uncalibrated board (``corners`` in ``image`` px), in
    its :func:`vision.geometry.working_frame`: the board rectified to the
    aspect its checkers show (:func:`vision.features.stretch_along`), the
    bar found in it, and the checker pitch: on a board so stretched, the
    steps between its checkers in a line, measured again
    (:func:`vision.features.spacing_pitch`); else, or where too few are
    seen, the period of its lines (:func:`vision.features.line_pitch`).

    Where the photo's apparent aspect shows too few steps, the board may
    be seen so far askew that its checkers are too oval to pass for
    circles: it is rectified again at each of
    :data:`vision.features.ASKEW_TRIALS`, and of those whose circles show
    steps, the one with the most circles (more than at first) is kept.
    Corners that seem given a quarter turn off raise :class:`GeometryError`
    (:func:`vision.geometry.check_turn`), unless ``check_order`` is False
    (corners moved from some already checked)."""
    small, working = working_frame(image, corners)
    if check_order:
        check_turn(image, corners)
    geometry, rectified, found = _stretched(small, working, 1.0)
    stretch = 1.0
    if spacing_pitch(found) is None:
        for trial in ASKEW_TRIALS:
            tried = _stretched(small, working, trial)
            if spacing_pitch(tried[2]) is not None and len(tried[2]) > len(found):
                (geometry, rectified, found), stretch = tried, trial
    steps = None
    more = stretch_along(found)
    if more != 1.0:
        geometry, rectified, found = _stretched(small, working, stretch * more)
        steps = spacing_pitch(found)
    pitch = steps if steps is not None else line_pitch(rectified, geometry, found)
    return replace(geometry, pitch_px=pitch, corners=as_points(corners))


def _stretched(small: Image, working: FloatArray, stretch: float) -> tuple[BoardGeometry, Image, FloatArray]:
    """The geometry of a board in its working frame ``small`` (corners
    ``working``) rectified ``stretch`` times as high as it looks, the board
    so rectified, and the circles of a checker's size in it."""
    geometry = make_geometry(working, small, stretch=stretch)
    rectified = rectify(small, geometry)
    return geometry, rectified, checker_circles(rectified, geometry)
