"""The referee's real question: which legal outcome does this photo show?

The engine lists the legal outcomes of the position before the move with the
dice (:func:`engine.legal.legal_plays`); each is mapped to what a camera
would see (:func:`vision.layout.layout_from_position`) and compared slot by
slot with the reading's probabilities. Only slots read with confidence can
contradict an outcome (not one of a pile the reading counts as the outcome
has it that fits no look at all: checkers squeezed into a line stand
between its slots). The verdict is

- ``legal`` when one outcome survives (or, of those that survive, one fits
  the photo a hundred times better than any other) and the picture
  supports it everywhere;
- ``illegal`` when every outcome is contradicted by confidently read slots
  on points read surely as a whole, or, against the frame before the move,
  by slots it leaves as they were that changed as a checker laid there or
  taken away would and are read surely as that (a checker moved one pip
  further than any legal play), where the photo shows a whole board (B4:
  each side has as many checkers on the points and the bar as some
  outcome leaves it, or gained or lost as many since the frame before; a
  sleeve read as a line of checkers adds some). The
  points where the nearest outcomes are contradicted are named, in the
  mover's numbering and in rectified-board terms;
- ``refused`` otherwise: the frame cannot be read, two outcomes both fit, or
  the surviving outcome rests on unsure slots; and, against the frame before
  the move, where a line of checkers of the side not on roll appears on a
  point that held none of them (no move lays one there: something lies
  over it). A legal move is never called illegal because of one misread
  point: a refusal is preferred.

With the frame from before the move (``before_image``), each slot's change is
measured as well: a slot that clearly did not change contradicts an outcome
that moves a checker there or away (away: where the frame before showed
it; not where both frames are read surely as the move has it and no point
beside changed as a checker laid there would: a white checker laid on a
white point hardly changes its slot's colours, but its rim shows), and
one that changed as much as the
move would shows the move however unsurely it is read. A slot that changed
is no proof by itself against an outcome that leaves it alone (players nudge
checkers they do not move): where it changed less than a moving checker
would, it is as it was; where as much, and it is read otherwise now, that
outcome rests on it unsurely (and is disproved where it is read so surely,
as above), and loses to one the photo fits that explains every change
(as does one that moves a checker where the slot changed less and reads as
before: a hit that does not show, and one that leaves the bar as it was
where the bar changed as a checker entering or leaving it would and is read
otherwise than before; such a bar also shows a move). A slot that fits the
outcome's state poorly but clearly better than any other (a checker cut by
the board's edge) contradicts nothing where its change bears the outcome
out. Piles past five are counted unsurely, but
alike in both frames: where piles of one colour lose in the reading what
others gain (against the outcome, also with the photo alone, or between
the frames, unless no junction of a pile the outcome leaves alone changed
by half a checker), an outcome that
moves no checker so rests on them unsurely too;
so does one that counts a pile otherwise than the reading, where the pile's
junctions (where its second layer lies) changed more as the reading has it
than as the outcome has it (a checker the outcome lays there or takes away
must show, beyond the little every junction of the line changed; with the
photo alone: where the reading counts it fairly surely, or the outcome
changes it, and with the frame before, one whose tenth checker, laid past
the line or taken from there, did not change that place, whatever the
reading counts), and one that changes a pile only past the junctions
measured (the tenth checker with the photo alone, the eleventh with the
frame before), which no photo shows unless it counts the pile surely, or,
against the frame before, the slot that checker lies over (the third
layer over the first) changed more than the rest of the pile, by half a
checker or more: a checker borne off instead leaves the pile as it was. An
outcome that changes a pile rests on it unsurely too where, with the photo
alone, the reading counts it as the outcome has it but doubtfully (the
count, not the picture, bears the move out: eight read as nine, as a
checker one pip short of the tray would leave them), or where, against the
frame before, the pile's line looks as it did, rim for rim (a checker
squeezed into a line moves every rim), and its junctions do not show the
change: the reading miscounted it. A checker
that looks much like the point under it (white on a white point) changes its
slot less than a change of state would: a clear, smaller change where the
slot is read as much the move's state as any other shows the move faintly,
and faint evidence holds only where no slot the outcome leaves alone
changed as much and reads otherwise. A slot beside one the move changes
may change with it (that checker's side and shadow), by less; so may one
beside a pile the move lays a checker on or takes one from (its upper
layer, seen to the side), by less than a change of state, where the pile's
own slots changed. No move lays a checker of the side not on roll: a
change nearer one than the move's is still the move's. A side has
15 checkers (B4), on the points, the bar and in the bear-off tray: where
the calibration includes the tray and it is counted surely as an outcome
has it, and the bar is read as the outcome has it (or, against the frame
before, did not change where the outcome leaves it so), the one pile of
that colour no photo counts holds what the rest of the board does not;
a move that only bears off from piles shows in the tray, or against the
frame before, at the pile's junctions: where the reading counts the pile
as the outcome has it and every junction the outcome lays a checker on or
takes one from changed by half a checker or more. The bar read surely
otherwise than an outcome has it contradicts that outcome, and so does
the number of checkers on it counted surely (whatever their colours: a
white checker that fits the dark look a little still shows that no second
checker lies there, as a hit would leave). A tray counted
surely otherwise than an outcome has it rules that outcome out, though
it is not shown to the players as proof of an illegal move: where it
rules out every outcome, the verdict is a refusal.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple

import numpy as np
import numpy.typing as npt

from engine.dice import Dice
from engine.legal import LegalPlay, legal_plays
from engine.position import Position
from engine.rules import STANDARD, Rules
from vision.calibration import Calibration
from vision.colours import DARK, EMPTY, LIGHT, LINE, UNKNOWN, layout_states, template_distance
from vision.errors import GeometryError
from vision.features import JUNCTIONS, SlotFeatures
from vision.geometry import POINTS_PER_HALF, POINTS_PER_ROW, Image
from vision.layout import Home, Layout, Mover, layout_from_position
from vision.read import Reading, geometry_from_corners, point_name, read_board
from vision.refusal import Refusal
from vision.rims import loaded
from vision.squeeze import COUNTS, comb_fits, rim_profile
from vision.uncalibrated import read_with_corners

log = logging.getLogger(__name__)

FloatArray = npt.NDArray[np.float32]
Verdict = Literal["legal", "illegal", "refused"]


@dataclass(frozen=True)
class JudgeConfig:
    """How sure the picture must be. Probabilities are the reader's per slot."""

    #: A slot contradicts an outcome when the outcome's state has at most this probability.
    contradiction: float = 0.02
    #: The chosen outcome must give every slot at least this probability...
    support: float = 0.25
    #: ... and every slot its move changes at least this one (a photo of the
    #: board before the move is no legal play).
    move_support: float = 0.6
    #: Of outcomes the photo contradicts nowhere, the likeliest is chosen when
    #: its log-likelihood (the sum over slots of the log probability of the
    #: state it expects) beats every other's by at least this much (a
    #: hundredfold).
    likelier: float = 4.6
    #: An illegal verdict needs, on every legal outcome, a contradicted point read at least this surely...
    sure_point: float = 0.9
    #: ... where the slot that contradicts is within this many spreads of what it is read as.
    proof_spreads: float = 1.5
    #: With the frame before, a slot an outcome leaves as it was that changed
    #: as a change of state would, read otherwise than the outcome has it
    #: (as :attr:`contradiction`) and within this many spreads of the look it
    #: is read as, is proof against that outcome however unsurely its point
    #: is read as a whole, where the photo shows a whole board (B4): a
    #: checker moved there or away that the outcome does not move.
    changed_proof_spreads: float = 2.3
    #: ... where a change of state there would change the slot by at least
    #: this much (Lab units): a white checker on a white point changes it
    #: little more than a change of light does (bench seed 3, photo 239: a
    #: bare white corner point, 15 from a white checker, changed by 13 as
    #: the light changed, and read as one, called a legal move illegal).
    proof_change: float = 18.0
    #: A slot did not change when it changed less than this share of what the change of state would make...
    unchanged_share: float = 0.25
    #: ... provided that change would be at least this big (Lab units).
    min_change: float = 12.0
    #: A slot the move changes that changed by at least this share of what the
    #: change of state would make shows the move, however unsurely it is read.
    changed_share: float = 0.6
    #: A checker that looks much like the point under it (white on a white
    #: point) is read as much the point as the checker, and changes its slot
    #: less than the learned looks predict when it comes or goes. A slot the
    #: move changes that changed by at least ``faint_share`` of what the
    #: change of state would make, and is read as the move has it at least
    #: ``faint_support`` likely, shows the move faintly; an outcome whose move
    #: shows only so somewhere rests unsurely on every slot it leaves alone
    #: that changed by that share or more, and by as much as the move's
    #: faintest slot, and is read otherwise (faint evidence holds only where
    #: the rest of the picture holds still).
    faint_share: float = 0.3
    faint_support: float = 0.4
    #: A slot nearer the edge than a checker is that checker's colour unless
    #: it is empty at least this surely (as :attr:`ReadConfig.clearly_empty`).
    clearly_empty: float = 0.95
    #: With the photo alone, an outcome rests unsurely on a pile the reading
    #: counts otherwise at least this surely (a checker moved from pile to
    #: pile), and on one it changes that the reading counts as it has it,
    #: but less surely (a pile of eight read as nine, as a checker one pip
    #: short of the tray would leave it).
    pile_doubt: float = 0.5
    #: Against the frame before, an outcome that changes a pile whose line
    #: looks at least this alike in both frames, rim for rim
    #: (:attr:`Changes.lines_alike`), rests on that pile unsurely: no
    #: checker was laid there or taken away (a pile of eight counted nine in
    #: the photo, as a checker one pip short of the tray would leave it).
    lines_alike: float = 0.95
    #: Against the frame before, a squeezed pile the outcome changes shows
    #: the move where each frame's combs of rims (:attr:`Changes.combs`)
    #: tell the count before from the outcome's by at least this share of
    #: the better fit, each its own way, and the photo's fits the outcome's
    #: count best of all (bench seed 3, photo 751: seven squeezed became
    #: eight, whose junctions looked like a layer of one).
    squeeze_shown: float = 0.2
    #: Against the frame before, a point that held no checker of the side not
    #: on roll and now reads more than this many of them is covered, not
    #: moved: no move lays such a checker (D1, M3). A misread lays at most
    #: two there (in 8,278 frames judged against the frame before,
    #: ``bench/vision.py`` seeds 1, 3, 5 and 7, and seed 1 with the empty
    #: board too, also in changed light); a hand over a point was read as four.
    waiting_appeared: int = 2


@dataclass(frozen=True)
class Contradiction:
    """Where the photo contradicts an outcome: the mover's point (1..24, or
    0 for the bar), its place in the rectified board, what the outcome
    expects there and what was seen."""

    point: int
    place: str
    expected: int
    seen: int

    def __str__(self) -> str:
        where = "bar" if self.point == 0 else f"point {self.point}"
        return f"{where} ({self.place}): expected {self.expected:+d}, saw {self.seen:+d}"


@dataclass(frozen=True)
class PhotoVerdict:
    """The verdict on one photo: ``verdict``, the chosen ``play`` when legal,
    the ``contradictions`` and ``nearest`` legal plays when illegal, the
    ``refusal`` when refused, and the ``reading`` it rests on."""

    verdict: Verdict
    play: LegalPlay | None = None
    contradictions: tuple[Contradiction, ...] = ()
    nearest: tuple[LegalPlay, ...] = ()
    refusal: Refusal | None = None
    reading: Reading | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"verdict": self.verdict}
        if self.play is not None:
            out["play"] = str(self.play.play)
            out["after"] = self.play.after.position_id()
        if self.verdict == "illegal":
            out["points"] = [
                {"point": c.point, "place": c.place, "expected": c.expected, "seen": c.seen}
                for c in self.contradictions
            ]
            out["nearest"] = [str(lp.play) for lp in self.nearest]
        if self.refusal is not None:
            out["refused"] = self.refusal.reason
            out["message"] = self.refusal.message
            out["points"] = list(self.refusal.points)
        return out


Side = Literal["bottom-right", "bottom-left", "top-right", "top-left"]


def _mover_point(row: int, col: int, home: Home) -> int:
    """The mover's point number (B2) at (row, col) of a board whose mover's home is at the bottom."""
    index = col if home == "bottom-right" else 11 - col
    return 12 - index if row == 1 else 13 + index


@dataclass
class _Score:
    layout: Layout
    plays: list[LegalPlay]
    contradicted: npt.NDArray[np.bool_]  # (2, 12) points with a slot read surely otherwise
    proven: npt.NDArray[np.bool_]  # (2, 12) contradicted points the reading is sure of as a whole
    bar_contradicted: bool
    tray_contradicted: bool  # the tray counted surely otherwise (B4): proof enough to refuse the outcome
    weak: npt.NDArray[np.bool_]  # (2, 12) points the outcome rests on unsure slots for
    unexplained: bool  # a change this outcome does not explain, or a move of it that does not show
    log_likelihood: float
    visible: bool = True  # the photo shows the move itself (not only piles or the trays)

    @property
    def consistent(self) -> bool:
        return not self.contradicted.any() and not self.bar_contradicted and not self.tray_contradicted

    @property
    def disproved(self) -> bool:
        """Contradicted where the reading is sure of the whole point, or on the bar."""
        return bool(self.proven.any()) or self.bar_contradicted

    @property
    def contradictions(self) -> int:
        return int(self.proven.sum()) + int(self.bar_contradicted)


@dataclass(frozen=True, eq=False)
class Changes:
    """``distance`` (2, 12, S): how much each slot's picture changed between
    the frames; ``scale`` (2, 12, S, 3, 3): how much a change from one state
    (empty, light, dark) to another would change it there. On a pile,
    ``junctions`` (2, 12, J + 1): how much each junction of a line changed (see
    :attr:`SlotFeatures.junctions`) and the place past the line where a
    tenth checker lies (:meth:`SlotFeatures.past_line`), and
    ``junction_scale`` (2, 12, J + 1, 2):
    how much a light (0) or dark (1) checker laid there or taken away would
    change it. ``bar_still``: no probe along the bar changed by a quarter
    of what a checker laid there would, where that is at least half of
    :attr:`JudgeConfig.min_change` (no checker entered or left it);
    ``bar_changed``: one changed by :attr:`JudgeConfig.changed_share` of it
    or more (one did)."""

    distance: FloatArray
    scale: FloatArray
    junctions: FloatArray | None = None
    junction_scale: FloatArray | None = None
    bar_still: bool = False
    bar_changed: bool = False
    lines_alike: FloatArray | None = None
    """(2, 12) how alike each full line (five or more, in either frame) looks
    in the two frames, rim for rim along the point (the correlation of
    :func:`vision.squeeze.rim_profile`, -1..1); NaN elsewhere."""
    combs: FloatArray | None = None
    """(2, 2, 12, K) how well each count of :data:`vision.squeeze.COUNTS`
    fits each full line (as :attr:`lines_alike`) as a squeezed pile
    (:func:`vision.squeeze.comb_fits`), in the frame before (0) and the
    photo (1); NaN elsewhere."""
    blind: npt.NDArray[np.bool_] | None = None
    """(2, 12, S) the slots a lamp's reflection washed out to white at
    calibration (:func:`vision.read.washed_out`), or None: what the camera
    clipped there in one frame and not in the other changes with the light
    alone, so a change there proves no checker laid or taken away."""

    def turned(self) -> Changes:
        """The same changes seen from the other side of the board (see :meth:`Reading.turned`)."""
        return Changes(
            distance=self.distance[::-1, ::-1],
            scale=self.scale[::-1, ::-1],
            junctions=None if self.junctions is None else self.junctions[::-1, ::-1],
            junction_scale=None if self.junction_scale is None else self.junction_scale[::-1, ::-1],
            bar_still=self.bar_still,
            bar_changed=self.bar_changed,
            lines_alike=None if self.lines_alike is None else self.lines_alike[::-1, ::-1],
            combs=None if self.combs is None else self.combs[:, ::-1, ::-1],
            blind=None if self.blind is None else self.blind[::-1, ::-1],
        )


def slot_changes(
    before: SlotFeatures, after: SlotFeatures, calibration: Calibration, *, config: JudgeConfig = JudgeConfig()
) -> Changes:
    """How much each slot changed between two frames of the same calibrated
    board (their slots as read: :attr:`Reading.features`), against how much
    a change of state would change it."""
    model = calibration.colours.resized(calibration.geometry.slots)
    light, dark = model.checker_templates(before.on_board(before.slot_xy))
    templates = [model.background, light, dark]
    scale = np.zeros(model.background.shape[:3] + (3, 3), np.float32)
    for i in range(3):
        for j in range(3):
            if i != j:
                scale[..., i, j] = template_distance(templates[i], templates[j])
    bar_light, bar_dark = model.checker_templates(before.on_board(before.bar_xy))
    bar_scale = np.minimum(template_distance(model.bar, bar_light), template_distance(model.bar, bar_dark))
    # (a checker on the bar changes it less than on a point: the bar is
    # often as dark as one kind of checker)
    measurable = bool((bar_scale > config.min_change / 2).all())
    bar_change = template_distance(after.bar, before.bar) / bar_scale
    changes = Changes(
        distance=template_distance(after.patches, before.patches),
        scale=scale,
        bar_still=measurable and bool((bar_change < config.unchanged_share).all()),
        bar_changed=measurable and bool((bar_change >= config.changed_share).any()),
    )
    washed = loaded(calibration.reference, "washed_out")
    if washed is not None and washed.shape == changes.distance.shape:
        changes = replace(changes, blind=washed > 0.5)
    if before.junctions is None or after.junctions is None or before.junction_xy is None:
        return changes
    # the junctions of each line, and one past it: where a pile's tenth checker lies
    xy = before.on_board(np.concatenate([before.junction_xy, before.past_line_xy[:, :, None]], axis=2))
    rims = model.junction_templates(xy)
    if rims is None:
        return changes
    faces = model.checker_templates(xy)
    return replace(
        changes,
        junctions=np.concatenate(
            [
                template_distance(after.junctions, before.junctions),
                template_distance(after.past_line(), before.past_line())[:, :, None],
            ],
            axis=2,
        ),
        junction_scale=np.stack([template_distance(rims[k], faces[k]) for k in (0, 1)], axis=-1),
    )


def changes_since(
    before: Reading | None, after: Reading, calibration: Calibration, *, config: JudgeConfig = JudgeConfig()
) -> Changes | None:
    """The changes (:func:`slot_changes`) from the reading of the frame
    before the move to that of the photo, or None where there is nothing to
    measure against: no frame before, or either frame refused (a hand over
    the frame before is no reference; the photo must do alone)."""
    if before is None or before.refusal is not None or after.refusal is not None:
        return None
    if before.features is None or after.features is None:
        return None
    # what one frame's brighter light clipped white, the other's looks clip alike
    changes = slot_changes(
        before.features.seen_in(after.features), after.features.seen_in(before.features), calibration, config=config
    )
    if before.rectified is None or after.rectified is None:
        return changes
    alike, combs = compare_lines(before.rectified, after.rectified, before.counts, after.counts, calibration)
    return replace(changes, lines_alike=alike, combs=combs)


def compare_lines(
    before: Image,
    after: Image,
    before_counts: npt.NDArray[np.int64],
    after_counts: npt.NDArray[np.int64],
    calibration: Calibration,
) -> tuple[FloatArray, FloatArray]:
    """How each line that either frame (rectified) counts full
    (``before_counts``, ``after_counts``) looks in the two, rim for rim:
    how alike (2, 12) (see :attr:`Changes.lines_alike`) and how well each
    squeezed count fits it (2, 2, 12, K) (:attr:`Changes.combs`); NaN
    elsewhere. A checker laid on a line or taken from it moves the rims of
    a squeezed pile and adds or takes away those of a second layer; light
    that changed scales them alike."""
    alike = np.full((2, 12), np.nan, np.float32)
    combs = np.full((2, 2, 12, len(COUNTS)), np.nan, np.float32)
    full = np.maximum(np.abs(before_counts), np.abs(after_counts)) >= LINE
    geometry = calibration.geometry
    for row, col in zip(*np.nonzero(full), strict=True):
        first, second = (rim_profile(image, geometry, int(row), int(col)) for image in (before, after))
        if first.std() > 0 and second.std() > 0:
            alike[row, col] = float(np.corrcoef(first, second)[0, 1])
        for frame, profile in enumerate((first, second)):
            combs[frame, row, col] = comb_fits(profile, geometry.pitch_px)
    return alike, combs


class _Shares(NamedTuple):
    """What :func:`_junction_shares` measures of one outcome's piles."""

    share: FloatArray
    """(2, 12, J) how much of a checker laid or taken away each junction
    changed, past the least change of the line's junctions that neither
    the outcome nor the reading changes."""
    scale: FloatArray
    """(2, 12, J) such a checker's change there, in the point's colour."""
    by_outcome: npt.NDArray[np.bool_]
    """(2, 12, J) the junctions the outcome changes."""
    by_reading: npt.NDArray[np.bool_]
    """(2, 12, J) the junctions the reading changes."""
    colour: npt.NDArray[np.int64]
    """(2, 12) the point's colour (+1 light, -1 dark, 0 none), as the outcome or the frame before has it."""


def _junction_shares(
    counts: npt.NDArray[np.int64],
    before_counts: npt.NDArray[np.int64],
    seen_counts: npt.NDArray[np.int64],
    junctions: FloatArray,
    junction_scale: FloatArray,
) -> _Shares:
    """How the junctions of each line changed since the frame before
    (``junctions``, ``junction_scale``: see :class:`Changes`) against what
    the outcome (``counts``) and the reading (``seen_counts``) change from
    ``before_counts``: a junction holds a checker of the second layer when
    more than five plus its index stand on the point. A junction's change
    counts beyond the least change of the line's junctions that neither
    changes: the checkers of a line are nudged and the light moves between
    frames, which changes every junction a little, and most where a
    colour's rims look much like its faces (past the line, where no
    checker is nudged, less changes; it sets no such floor)."""
    index = np.arange(junctions.shape[-1])

    def layer(n: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        return np.asarray(np.abs(n)[..., None] > LINE + index, np.bool_)

    colour = np.sign(np.where(counts != 0, counts, before_counts))
    scale = np.where((colour > 0)[..., None], junction_scale[..., 0], junction_scale[..., 1])
    by_outcome = layer(counts) != layer(before_counts)
    by_reading = layer(seen_counts) != layer(before_counts)
    # what a junction of the line no checker was laid on or taken from
    # changed (past the line, where no checker is nudged, changes less)
    idle = ~(by_outcome | by_reading) & (index < JUNCTIONS)
    floor = np.where(idle.any(axis=-1), np.where(idle, junctions, np.inf).min(axis=-1), 0.0)
    share = np.maximum(junctions - floor[..., None], 0.0) / np.maximum(scale, 1e-3)
    return _Shares(np.asarray(share, np.float32), np.asarray(scale, np.float32), by_outcome, by_reading, colour)


def _pile_shown(
    counts: npt.NDArray[np.int64], seen_counts: npt.NDArray[np.int64], shares: _Shares, *, config: JudgeConfig
) -> npt.NDArray[np.bool_]:
    """(2, 12) the piles an outcome (``counts``) changes as the reading
    counts them, where every junction it lays a checker on or takes one
    from changed by half a checker or more (``shares``:
    :func:`_junction_shares`), measurably: against the frame before, the
    move shows there."""
    changed = (shares.share >= 0.5) & (shares.scale > config.min_change)
    return np.asarray(
        (counts == seen_counts) & shares.by_outcome.any(axis=-1) & (changed | ~shares.by_outcome).all(axis=-1),
        np.bool_,
    )


def _pile_disagrees(
    counts: npt.NDArray[np.int64], seen_counts: npt.NDArray[np.int64], shares: _Shares, *, config: JudgeConfig
) -> npt.NDArray[np.bool_]:
    """(2, 12) the piles an outcome (``counts``) and the reading
    (``seen_counts``) count differently, of the same colour, where the
    change of the junctions since the frame before (``shares``:
    :func:`_junction_shares`) sides with the reading: it is
    nearer what the reading predicts (none or a whole change of state) than
    what the outcome does (a junction that changed by a third of a checker
    laid there shows no checker laid there). Where the outcome changes
    junctions the reading does not, those alone decide (the move does not
    show there, however the reading miscounts the rest); else the
    junctions the reading alone changes. Past the line (the junctions from ``JUNCTIONS``
    on), a reading that counts no more than a full layer (``LINE +
    JUNCTIONS``) cannot tell a checker there, and the change alone
    decides: a pile whose place past the line the outcome changes
    disagrees where that place changed by less than half a checker there,
    or by nothing measurable. (A reading that counts more, of checkers
    squeezed closer, vouches for its count as elsewhere.)"""
    share, scale, by_outcome, by_reading, colour = shares
    index = np.arange(share.shape[-1])
    differ = by_outcome != by_reading
    outcome_only = by_outcome & ~by_reading
    judged = np.where(outcome_only.any(axis=-1, keepdims=True), outcome_only, differ)
    sides = np.where(by_reading, share >= 0.5, share < 0.5)
    blind = (np.abs(seen_counts) <= LINE + JUNCTIONS)[..., None] & (index >= JUNCTIONS)
    unshown = by_outcome & blind & ((share < 0.5) | (scale <= config.min_change))
    return np.asarray(
        (
            (seen_counts != counts)
            & (np.sign(seen_counts) == colour)
            & (colour != 0)
            & differ.any(axis=-1)
            & (sides | ~judged).all(axis=-1)
            & (scale > config.min_change).all(axis=-1)
        )
        | unshown.any(axis=-1),
        np.bool_,
    )


def _squeeze_shown(
    counts: npt.NDArray[np.int64],
    before_counts: npt.NDArray[np.int64],
    combs: FloatArray | None,
    *,
    config: JudgeConfig,
) -> npt.NDArray[np.bool_]:
    """(2, 12) the piles an outcome (``counts``) changes from one squeezed
    count (of :data:`vision.squeeze.COUNTS`) to another, of one colour,
    whose combs of rims (``combs``: :attr:`Changes.combs`) show it: in the
    frame before, the count before fits better than the outcome's by
    :attr:`JudgeConfig.squeeze_shown` of its fit; in the photo, the
    outcome's fits best of all, and better than the count before by as
    much. The rims moved as the move moves them."""
    shown = np.zeros(counts.shape, np.bool_)
    if combs is None:
        return shown
    low, high = COUNTS[0], COUNTS[-1]
    squeezed = (np.abs(counts) >= low) & (np.abs(counts) <= high) & (np.abs(before_counts) >= low)
    squeezed &= (np.abs(before_counts) <= high) & (np.sign(counts) == np.sign(before_counts))
    for row, col in zip(*np.nonzero(squeezed & (counts != before_counts)), strict=True):
        then, now = combs[0, row, col], combs[1, row, col]
        b, n = abs(int(before_counts[row, col])) - low, abs(int(counts[row, col])) - low
        if not (np.isfinite(then[[b, n]]).all() and np.isfinite(now[[b, n]]).all()):
            continue
        shown[row, col] = bool(
            then[b] - then[n] >= config.squeeze_shown * then[b]
            and now[n] - now[b] >= config.squeeze_shown * now[n]
            and int(np.nanargmax(now)) == n
        )
    return shown


def _topped(
    counts: npt.NDArray[np.int64],
    before_counts: npt.NDArray[np.int64],
    changes: Changes,
    measured: int,
    *,
    config: JudgeConfig,
) -> npt.NDArray[np.bool_]:
    """(2, 12) the piles an outcome (``counts``) changes only past the
    junctions ``measured`` (of :attr:`Changes.junctions`) whose change
    shows where the third layer lies: layers alternate, and the eleventh
    checker lies over the first slot, the twelfth over the second. Each
    slot the outcome lays such a checker on or takes one from changed
    since the frame before (:attr:`Changes.distance`) more than any other
    slot of the pile, and by half a checker or more past the least of
    them (a checker's face against the rims it covers, measured as at the
    junction beside it, :attr:`Changes.junction_scale`, and measurably:
    a dark checker's rims may look much like its face)."""
    topped = np.zeros(counts.shape, np.bool_)
    if changes.junction_scale is None:
        return topped
    slots = changes.distance.shape[-1]
    low, high = np.minimum(np.abs(counts), np.abs(before_counts)), np.maximum(np.abs(counts), np.abs(before_counts))
    for row, col in zip(*np.nonzero((counts != before_counts) & (low >= LINE + measured)), strict=True):
        # the slots of the third layer's checkers the outcome lays or takes away
        laid = np.arange(int(low[row, col]), int(high[row, col])) - 2 * LINE
        if laid[0] < 0 or laid[-1] >= slots or (changes.blind is not None and changes.blind[row, col, laid].any()):
            continue  # (a slot a lamp's reflection washed out changes with the light alone)
        change = changes.distance[row, col]
        rest = np.delete(change, laid)
        dark = int(counts[row, col] < 0)
        scale = changes.junction_scale[row, col, np.minimum(laid, JUNCTIONS - 1), dark]
        share = (change[laid] - rest.min()) / np.maximum(scale, 1e-3)
        topped[row, col] = bool(
            (change[laid] > rest.max()).all() and (share >= 0.5).all() and (scale > config.min_change).all()
        )
    return topped


def _untouched(
    counts: npt.NDArray[np.int64],
    before_counts: npt.NDArray[np.int64],
    seen_counts: npt.NDArray[np.int64],
    counted_before: npt.NDArray[np.int64],
    shares: _Shares,
    *,
    config: JudgeConfig,
) -> npt.NDArray[np.bool_]:
    """(2, 12) the piles an outcome (``counts``) leaves as they were
    (``before_counts``) whose junctions all changed by less than half a
    checker since the frame before (``shares``: :func:`_junction_shares`),
    measurably, and which neither frame (``seen_counts``,
    ``counted_before``) counts past the line's junctions (its tenth
    checker lies past them): no checker was laid on them or taken off,
    however the two frames count them."""
    counted = np.maximum.reduce([np.abs(counts), np.abs(seen_counts), np.abs(counted_before)])
    return np.asarray(
        (counts == before_counts)
        & (counted <= LINE + JUNCTIONS)
        & (shares.share[..., :JUNCTIONS] < 0.5).all(axis=-1)
        & (shares.scale[..., :JUNCTIONS] > config.min_change).all(axis=-1),
        np.bool_,
    )


def _counted_by_the_rest(
    doubted: npt.NDArray[np.bool_],
    weak: npt.NDArray[np.bool_],
    counts: npt.NDArray[np.int64],
    before_counts: npt.NDArray[np.int64],
    seen_counts: npt.NDArray[np.int64],
    sure_piles: npt.NDArray[np.bool_],
    in_tray: dict[int, bool],
) -> npt.NDArray[np.bool_]:
    """(2, 12) the piles among ``doubted`` whose count the rest of the board
    fixes: a side has 15 checkers (B4), on the points, the bar and in the
    tray; where the bar is read as an outcome (``counts``) has it, and the
    tray too for a colour (``in_tray``: +1 light, -1 dark), that colour's
    one doubted pile holds what its other points do not, provided each of
    those is read as the outcome has it (none ``weak``) and none is a pile
    not counted surely (``sure_piles``)."""
    fixed = np.zeros_like(doubted)
    for sign in (s for s, counted in in_tray.items() if counted):
        mine = (np.sign(counts) == sign) | (np.sign(before_counts) == sign) | (np.sign(seen_counts) == sign)
        pile = mine & (np.maximum(np.maximum(np.abs(counts), np.abs(before_counts)), np.abs(seen_counts)) > LINE)
        others = mine & ~doubted
        if (
            int((doubted & mine).sum()) == 1
            and not (others & weak).any()
            and (~(others & pile) | (sure_piles & (counts == seen_counts))).all()
        ):
            fixed |= doubted & mine
    return fixed


def _on_board(counts: npt.ArrayLike, bar_light: int, bar_dark: int) -> tuple[int, int]:
    """How many light and dark checkers stand on the points (``counts``
    (2, 12), +light, -dark) and the bar."""
    points = np.asarray(counts, np.int64)
    return int(points[points > 0].sum()) + bar_light, int(-points[points < 0].sum()) + bar_dark


def _whole(reading: Reading, before_reading: Reading | None, before: Layout, outcomes: Iterable[Layout]) -> bool:
    """Whether the ``reading`` shows a whole board (B4): each side has as
    many checkers on the points and the bar as some outcome leaves it, or,
    against the frame before (``before_reading``, of the board ``before``),
    gained or lost as many since (a phantom line both frames read cancels
    out), not more (a sleeve over a point read as a line of checkers)."""
    seen = _on_board(reading.counts, reading.bar_light, reading.bar_dark)
    left = {_on_board((o.top, o.bottom), o.bar_light, o.bar_dark) for o in outcomes}
    if seen in left:
        return True
    if before_reading is None or before_reading.refusal is not None:
        return False
    gained = np.subtract(seen, _on_board(before_reading.counts, before_reading.bar_light, before_reading.bar_dark))
    was = np.array(_on_board((before.top, before.bottom), before.bar_light, before.bar_dark))
    return any((gained == np.subtract(o, was)).all() for o in left)


def _laid_for_the_waiting_side(
    reading: Reading, before_reading: Reading, waiting: int, *, config: JudgeConfig
) -> Refusal | None:
    """``hand_over_board`` where points that held no checker of the side
    not on roll (``waiting``: LIGHT or DARK) in the frame before (``before_reading``) now read more than
    ``config.waiting_appeared`` of them. No move, legal or not, lays a
    checker of that side on a point (D1: the side on roll moves; M3: a hit
    sends a checker to the bar), so what lies there is something over the
    point (a hand read as a line of checkers). Judged anyway, the rest of
    the board would decide, and call a board the mover has not yet
    touched illegal."""
    sign = 1 if waiting == LIGHT else -1  # its checkers in the counts
    before = np.maximum(before_reading.counts * sign, 0)
    now = np.maximum(reading.counts * sign, 0)
    appeared = (before == 0) & (now > config.waiting_appeared)
    if not appeared.any():
        return None
    name = "light" if waiting == LIGHT else "dark"
    rows, cols = np.nonzero(appeared)
    names = tuple(point_name(int(r), int(c)) for r, c in zip(rows, cols, strict=True))
    seen = " and ".join(f"{point} reads {int(now[r, c])}" for point, r, c in zip(names, rows, cols, strict=True))
    return Refusal(
        "hand_over_board",
        f"{seen} {name} checkers where the frame before showed none, but {name} is not on roll "
        "and no move lays its checkers on a point (D1, M3): something covers the board, wait until it is clear",
        names,
    )


def _listed(names: Sequence[str], one: str = "", many: str = "") -> str:
    """``names`` as a phrase (``"top 3, top 5 and bar"``), followed by the
    verb ``one`` or ``many`` as there are one or more of them.

    >>> _listed(["bottom 7"], "is", "are")
    'bottom 7 is'
    >>> _listed(["top 3", "top 5", "bar"], "is", "are")
    'top 3, top 5 and bar are'
    """
    phrase = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    verb = one if len(names) == 1 else many
    return f"{phrase} {verb}" if verb else phrase


def _on_bar(reading: Reading) -> tuple[int, int]:
    """The light, dark checkers ``reading`` shows on the bar: those it
    counts, and those past the room its points leave that look nothing like
    the bare bar (:attr:`Reading.bar_beyond`). The engine knows how many
    checkers each side has, and a misread point takes the room of one the
    bar shows (M3: a hit checker goes there)."""
    return (reading.bar_light + reading.bar_beyond[0], reading.bar_dark + reading.bar_beyond[1])


def along_lines(prob: FloatArray, *, clearly_empty: float = JudgeConfig.clearly_empty) -> FloatArray:
    """Slot probabilities (2, 12, S, 3) as lines of checkers allow: a slot
    not clearly empty, nearer the edge than one read as a checker, is as
    likely that checker (checkers stand in a line from the edge; a face cut
    by the frame or in a corner's shadow fits no look, a white checker on a
    white point's wide base looks much like the point). An outcome with a
    line that far is no likelier for it than the farther slot allows, and
    one without it is not helped."""
    out = np.array(prob, np.float32)
    for k in range(out.shape[2] - 2, -1, -1):
        unread = out[:, :, k, EMPTY] < clearly_empty
        for colour in (LIGHT, DARK):
            out[:, :, k, colour] = np.where(
                unread, np.maximum(out[:, :, k, colour], out[:, :, k + 1, colour]), out[:, :, k, colour]
            )
    return out


def judge_reading(
    before: Position,
    dice: Dice,
    reading: Reading,
    *,
    mover: Mover = "light",
    home: Side = "bottom-right",
    rules: Rules = STANDARD,
    config: JudgeConfig = JudgeConfig(),
    changes: Changes | None = None,
    allow_illegal: bool = True,
    before_reading: Reading | None = None,
) -> PhotoVerdict:
    """Judge a reading of the photo after the move (see the module's docstring).
    ``allow_illegal=False`` refuses where the verdict would be illegal (a
    reading without a calibration is no proof). ``before_reading``: the
    reading of the before frame; a point it misreads is no proof either.
    ``home``: where the mover's home board lies in the rectified board (a
    fixed camera sees one player's home at the top). ``changes``: how the
    slots changed since a before frame (:func:`slot_changes`), if any."""
    if reading.refusal is not None:
        return PhotoVerdict("refused", refusal=reading.refusal, reading=reading)
    waiting = DARK if mover == "light" else LIGHT  # the side not on roll
    if before_reading is not None and before_reading.refusal is None:
        covered = _laid_for_the_waiting_side(reading, before_reading, waiting, config=config)
        if covered is not None:
            return PhotoVerdict("refused", refusal=covered, reading=reading)
    turned = home.startswith("top")
    bottom_home: Home = ("bottom-left" if home == "top-right" else "bottom-right") if turned else home  # type: ignore[assignment]
    seen_reading = reading.turned() if turned else reading
    if turned and changes is not None:
        changes = changes.turned()

    def place(r: int, c: int) -> str:
        return point_name(1 - r, 11 - c) if turned else point_name(r, c)

    plays = legal_plays(before, dice, rules)
    prob = along_lines(seen_reading.slot_prob, clearly_empty=config.clearly_empty)
    slots = prob.shape[2]
    before_layout = layout_from_position(before, mover=mover, home=bottom_home)
    before_states = layout_states(before_layout, slots)
    before_counts = np.array([before_layout.top, before_layout.bottom], np.int64)
    groups: dict[Layout, list[LegalPlay]] = {}
    for lp in plays:
        groups.setdefault(layout_from_position(lp.after, mover=mover, home=bottom_home), []).append(lp)
    bar_sure = seen_reading.bar_confidence >= 1 - config.contradiction
    bar_counted = seen_reading.bar_counted >= 1 - config.contradiction
    seen_counts = seen_reading.counts
    whole = changes is not None and _whole(seen_reading, before_reading, before_layout, groups)
    sure_points = seen_reading.confidence >= config.sure_point
    counted_before: npt.NDArray[np.int64] | None = None  # the reading of the frame before the move
    start = np.maximum(before_states, 0).astype(np.intp)
    # the slots where the frame before showed the checker the engine knows
    # was there (a white checker on a white point may not show at all):
    # elsewhere, that a slot hardly changed is no proof against an outcome
    # that takes the checker away (an empty slot looks as the empty board
    # does, however it is read)
    shown_before = np.ones(prob.shape[:3], np.bool_)
    read_before = np.zeros(prob.shape[:3], np.float32)  # how likely the frame before read each slot's state before
    if before_reading is not None and before_reading.refusal is None:
        seen_before = before_reading.turned() if turned else before_reading
        counted_before = seen_before.counts
        sure_points = sure_points & (counted_before == before_counts)
        prob_before = along_lines(seen_before.slot_prob, clearly_empty=config.clearly_empty)
        read_before = np.take_along_axis(prob_before, start[..., None], axis=-1)[..., 0]
        shown_before = (before_states <= EMPTY) | (read_before >= config.support)
    # the bar changed as a checker entering or leaving it would, and is read
    # otherwise than the frame before read it (as the engine knows it was):
    # an outcome that leaves it as it was leaves that change unexplained
    before_bar = (before_layout.bar_light, before_layout.bar_dark)
    seen_bar = (seen_reading.bar_light, seen_reading.bar_dark)
    shown_bar = _on_bar(seen_reading)
    bar_moved = (
        changes is not None
        and changes.bar_changed
        and before_reading is not None
        and _on_bar(before_reading) == before_bar
        and shown_bar != before_bar
    )
    tray = seen_reading.off
    pile_confidence = (
        seen_reading.pile_confidence if seen_reading.pile_confidence is not None else np.zeros((2, 12), np.float32)
    )
    sure_piles = pile_confidence >= config.sure_point
    as_before = np.zeros(prob.shape[:3], np.bool_)
    smallest_change = np.zeros(prob.shape[:3], np.float32)  # of a slot's state, from before
    from_before = np.zeros(prob.shape, np.float32)  # (2, 12, S, 3) how much a change to each state would change a slot

    def change_to(to: npt.NDArray[np.int64]) -> FloatArray:
        """(2, 12, S) how much a change from the state before to ``to`` (2, 12, S) would change each slot."""
        return np.asarray(np.take_along_axis(from_before, to[..., None].astype(np.intp), axis=-1)[..., 0], np.float32)

    across = (np.arange(POINTS_PER_ROW - 1) != POINTS_PER_HALF - 1)[None, :, None]  # beside, not over the bar
    stirred_beside = np.zeros(prob.shape[:3], np.bool_)  # a slot on a point beside changed as a change of state would
    if changes is not None:
        # a slot that clearly did not change still shows its state before the
        # move (which the engine knows), however it is read
        from_before = np.take_along_axis(changes.scale, start[..., None, None], axis=-2)[..., 0, :]
        away = from_before.copy()
        np.put_along_axis(away, start[..., None], np.inf, axis=-1)
        smallest_change = away.min(axis=-1)
        as_before = (before_states != UNKNOWN) & (smallest_change > config.min_change)
        as_before &= changes.distance < config.unchanged_share * smallest_change
        stirred = changes.distance >= config.changed_share * smallest_change
        stirred_beside[:, 1:] |= stirred[:, :-1] & across
        stirred_beside[:, :-1] |= stirred[:, 1:] & across
    scores: list[_Score] = []
    for layout, members in groups.items():
        states = layout_states(layout, slots)
        counts = np.array([layout.top, layout.bottom], np.int64)
        known = states != UNKNOWN
        p = np.take_along_axis(prob, np.maximum(states, 0)[..., None].astype(np.intp), axis=-1)[..., 0]
        p = np.where(known & ~(as_before & (states == before_states)), p, 1.0)
        # the slot just past a line shows its last checker's side and shadow,
        # and may fit no look: it bears the line out (contradicts nothing,
        # rests on nothing unsure) where it surely holds no further checker of
        # the line's colour
        last = np.zeros_like(states)  # the state of the slot before each
        last[..., 1:] = states[..., :-1]
        further = np.take_along_axis(prob, np.maximum(last, 0)[..., None].astype(np.intp), axis=-1)[..., 0]
        ended = (states == EMPTY) & (last > EMPTY) & (further <= config.contradiction)
        bad = (p <= config.contradiction) & ~ended
        # a slot of a pile the reading counts as the outcome has it that fits
        # no look at all: checkers squeezed into a line stand between its
        # slots (bench seed 3, photo 693)
        squeezed = (np.abs(counts) > LINE) & (seen_counts == counts)
        bad &= ~(squeezed[..., None] & (prob.max(axis=-1) <= config.contradiction))
        # proof: the slot looks much like another state (a checker's look, or an empty point's)
        if seen_reading.slot_z is not None:
            proof = bad & (seen_reading.slot_z.min(axis=-1) <= config.proof_spreads)
        else:
            proof = bad
        shown = np.zeros(bad.shape, np.bool_)
        unexplained = np.zeros(bad.shape, np.bool_)
        settled = np.zeros(bad.shape, np.bool_)
        unshown = np.zeros(bad.shape, np.bool_)
        doubted = np.zeros(bad.shape, np.bool_)
        changed_proof = np.zeros(bad.shape, np.bool_)
        if changes is not None:
            # a slot the outcome must change but that clearly did not change
            # (the converse is no evidence: players nudge checkers they do not move)
            must_change = known & (before_states != UNKNOWN) & (states != before_states)
            expected = change_to(np.maximum(states, 0))
            still = (
                (changes.distance < config.unchanged_share * expected) & (expected > config.min_change) & shown_before
            )
            # ... unless both frames are read as the move has it, surely, and no
            # slot beside changed as a change of state would (a checker laid one
            # pip further, whose side shows here): a white checker laid on a
            # white point hardly changes its slot's colours, but its rim shows
            # (bench seed 3, photo 437)
            still &= ~((read_before >= config.move_support) & (p >= config.move_support) & ~stirred_beside)
            bad = bad | (must_change & still)
            # ... and one that changed as much as the move would change it: the
            # move shows there, even where the slot itself is not read surely
            # (where a checker looks much like the point under it, so that the
            # change of state is small, one that changed more than that); but
            # where the slot is read as another state, only if it changed more
            # as the move would change it than as the third state would (a
            # checker taken away by a hit is no checker laid there); no move
            # lays a checker of the side not on roll, so where the third state
            # is one, it is no other reading of the change (a checker taken
            # off a point whose empty look was borrowed may change it more
            # than the learned looks say either change would)
            third_state = np.clip(3 - start - np.maximum(states, 0), 0, 2)
            third = np.where(third_state == waiting, np.inf, change_to(third_state))
            # the slot looks clearly more like the outcome's state than any other
            others = prob.copy()
            np.put_along_axis(others, np.maximum(states, 0)[..., None].astype(np.intp), 0.0, axis=-1)
            nearest = p > 2 * others.max(axis=-1)
            shown = (
                must_change
                & (changes.distance >= config.changed_share * expected)
                & (np.maximum(expected, changes.distance) > config.min_change)
                & (
                    (np.abs(changes.distance - expected) <= np.abs(changes.distance - third))
                    | (p >= config.support)
                    | nearest
                )
            )
            # ... or changed less, but clearly, where the slot is read as much
            # the move's state as any other (a white checker on a white point)
            faint = (
                must_change
                & ~shown
                & (changes.distance >= config.faint_share * expected)
                & (expected > config.min_change)
                & (p >= config.faint_support)
            )
            shown |= faint
            # ... and one the outcome leaves as it was is judged by how much it
            # changed: as much as a change of state would, and read otherwise
            # now, a checker moved there that this outcome does not move;
            # less (a nudge), it is as it was, however unsurely it is read
            kept = (
                known & (before_states != UNKNOWN) & (states == before_states) & (smallest_change > config.min_change)
            )
            settled = kept & (changes.distance < config.changed_share * smallest_change)
            # ... and one the outcome changes that changed less than the move
            # would and is read as before: the move does not show there
            unshown = must_change & ~shown & (expected > config.min_change) & (p < config.support)
            # a slot beside one the outcome changes (on the next point, not
            # across the bar, or the next slot out on its own point) may show
            # that checker's side or shadow, or no longer show them: its
            # change is explained where less than that slot's (a checker laid
            # one point further changes its own slot more than the one beside)
            moving = np.where(must_change, changes.distance, 0.0)
            source = np.zeros_like(moving)  # the largest change beside each slot that the outcome makes
            source[:, 1:] = np.maximum(source[:, 1:], moving[:, :-1] * across)
            source[:, :-1] = np.maximum(source[:, :-1], moving[:, 1:] * across)
            source[:, :, 1:] = np.maximum(source[:, :, 1:], moving[:, :, :-1])
            # ... and a pile the outcome lays a checker on or takes one from
            # changes no slot's state, but where its slots changed clearly,
            # its upper layer, seen to the side, may lie over part of the slot
            # beside each: a change there less than a change of state to the
            # pile's colour leaves that slot as it was, however unsurely it is
            # read (a checker laid one point further instead leaves the
            # pile's slots as they were)
            restacked = (counts != before_counts) & ~must_change.any(axis=-1)
            layer = restacked[..., None] & (changes.distance > config.min_change)
            layered = np.zeros_like(moving)
            for pile_colour, mine in ((LIGHT, counts > 0), (DARK, counts < 0)):
                piled = layer & mine[..., None]
                over = np.zeros_like(layer)
                over[:, 1:] |= piled[:, :-1] & across
                over[:, :-1] |= piled[:, 1:] & across
                covering = config.changed_share * from_before[..., pile_colour]
                layered = np.maximum(layered, np.where(over, covering, 0.0))
            settled |= kept & (changes.distance < layered)
            source = np.maximum(source, layered)
            otherwise = kept & (p < 0.5) & ~ended & ~(source > changes.distance)
            unexplained = otherwise & ~settled
            # where the move shows only faintly, a faint change read otherwise
            # on a slot the outcome leaves alone is one against it (a checker
            # moved one pip further, off a white point onto the next), unless
            # it is fainter than the move's faintest (a nudge: a checker laid
            # on the next point, of the other colour, changes it as much as a
            # whole change of state)
            if faint.any():
                faintest = float((changes.distance / np.maximum(expected, 1e-3))[faint].min())
                doubted = otherwise & (changes.distance >= max(config.faint_share, faintest) * smallest_change)
            # a slot that fits the outcome's state poorly but better than any
            # other is no contradiction where its change bears the outcome
            # out: it changed as the move would change it, or the outcome
            # leaves it as it was, it hardly changed, and the frame before
            # (whose state the engine knew) fitted that state as poorly: the
            # look is the slot's own (a checker cut by the board's edge)
            own_look = known & nearest & (shown | (settled & ~shown_before))
            bad &= ~own_look
            proof &= ~own_look
            # a slot the outcome leaves as it was that changed as a change of
            # state would and is read surely as another, close to its look
            # (not a nudge, nor a neighbour's side or shadow): a checker laid
            # there or taken away, which this outcome does not move
            if whole and seen_reading.slot_z is not None:
                changed_proof = (
                    kept
                    & ~settled
                    & (True if changes.blind is None else ~changes.blind)
                    & (smallest_change >= config.proof_change)
                    & bad
                    & ~(source > changes.distance)
                    & (seen_reading.slot_z.min(axis=-1) <= config.changed_proof_spreads)
                )
        # the slots this outcome changes: the photo must show the move surely
        moved = known & (before_states != UNKNOWN) & (states != before_states)
        weak = (((p < config.support) | (moved & (p < config.move_support))) & ~shown & ~ended & ~settled) | unexplained
        weak |= doubted
        # a pile the two frames count differently from how the outcome changes
        # it (piles are counted unsurely, but alike in both frames): a checker
        # laid on a pile or taken off it that the outcome does not move
        pile_moved = np.zeros((2, 12), np.bool_)
        seen_pile = (
            np.abs(seen_counts) if counted_before is None else np.maximum(np.abs(seen_counts), np.abs(counted_before))
        )
        pile = (np.maximum(np.abs(counts), np.abs(before_counts)) > LINE) | (seen_pile > LINE)
        # ... where piles of one colour lose what others gain (a miscount is
        # one pile's alone): in the photo against the outcome (a checker
        # moved on from pile to pile, one pip too far), or between the frames
        # (the frame before may have miscounted one of them), but not one
        # the outcome leaves alone whose junctions show that no checker was
        # laid on it or taken off: the frames count it differently, not the board
        colour = np.sign(np.where(counts != 0, counts, before_counts))
        gains = [np.where(pile, seen_counts - counts, 0) * colour]
        shares = (
            None
            if changes is None or changes.junctions is None or changes.junction_scale is None
            else _junction_shares(counts, before_counts, seen_counts, changes.junctions, changes.junction_scale)
        )
        if counted_before is not None:
            untouched = (
                np.zeros_like(pile)
                if shares is None
                else _untouched(counts, before_counts, seen_counts, counted_before, shares, config=config)
            )
            between = (seen_counts - counted_before) - (counts - before_counts)
            gains.append(np.where(pile & ~untouched, between, 0) * colour)
        for sign in (1, -1):
            for gained in gains:
                own = np.where(colour == sign, gained, 0)
                if (own > 0).any() and (own < 0).any() and int(own.sum()) == 0:
                    pile_moved |= own != 0
        # a pile the outcome counts otherwise than the reading, where every
        # junction of it that the two would change differently changed as the
        # reading has it (a checker laid on a pile or taken off it shows at a
        # junction: the reading's count and the change agree against the outcome);
        # with the photo alone, one the reading counts otherwise fairly
        # surely, or one the outcome changes (the move does not show there:
        # a checker borne off one pip too far, where the pile it should
        # have joined is counted as before the move, or miscounted), also
        # where the reading counts it as the outcome has it, but doubtfully
        # (a pile of eight read as nine, as a checker one pip short of the
        # tray would leave it: the count, not the picture, bears the move out)
        changed_pile = (counts != before_counts) & (np.maximum(np.abs(counts), np.abs(before_counts)) > LINE)
        # ... unless its combs of rims show the move: a squeezed pile's
        # junctions may look like a layer (bench seed 3, photo 751)
        squeeze = _squeeze_shown(counts, before_counts, None if changes is None else changes.combs, config=config)
        if shares is not None:
            pile_moved |= _pile_disagrees(counts, seen_counts, shares, config=config) & ~squeeze
        elif changes is None and seen_reading.pile_confidence is not None:
            fairly = seen_reading.pile_confidence >= config.pile_doubt
            pile_moved |= (
                (np.maximum(np.abs(counts), np.abs(seen_counts)) > LINE)
                & (counts != seen_counts)
                & (fairly | (counts != before_counts))
            ) | (changed_pile & ~fairly)
        # the piles whose junctions changed as the outcome changes them, as the reading counts them
        shown = squeeze | (
            np.zeros_like(pile) if shares is None else _pile_shown(counts, seen_counts, shares, config=config)
        )
        if changes is not None and changes.lines_alike is not None:
            # against the frame before, a pile the outcome changes whose line
            # looks as it did, rim for rim, unless its junctions show the change
            pile_moved |= changed_pile & (np.nan_to_num(changes.lines_alike, nan=-1.0) >= config.lines_alike) & ~shown
        # a pile the outcome changes only past the junctions measured (ten
        # checkers become eleven; nine become ten with the photo alone, whose
        # reading counts no junction past the line): no photo shows that,
        # unless it counts the pile surely
        measured = JUNCTIONS if changes is None or changes.junctions is None else changes.junctions.shape[-1]
        # ... or, against the frame before, where the slot its eleventh checker lies over changed
        topped = (
            np.zeros_like(pile) if changes is None else _topped(counts, before_counts, changes, measured, config=config)
        )
        pile_moved |= (
            (counts != before_counts)
            & (np.minimum(np.abs(counts), np.abs(before_counts)) >= LINE + measured)
            & ~(sure_piles & (counts == seen_counts))
            & ~topped
        )
        # a pile counted surely that differs
        piles = (np.abs(counts) >= LINE) & (np.abs(seen_counts) >= LINE) & (counts != seen_counts) & sure_piles
        # the tray counted surely as the outcome has it, colour by colour (+1 light, -1 dark)
        in_tray = {
            1: tray is not None and tray.light_sure and tray.light == layout.off_light,
            -1: tray is not None and tray.dark_sure and tray.dark == layout.off_dark,
        }
        # the bar read as the outcome has it, or as it was where it did not change and the outcome leaves it so
        bar_as = (
            bar_sure and (layout.bar_light, layout.bar_dark) == (seen_reading.bar_light, seen_reading.bar_dark)
        ) or (
            changes is not None
            and changes.bar_still
            and (layout.bar_light, layout.bar_dark) == (before_layout.bar_light, before_layout.bar_dark)
        )
        if bar_as:
            # a doubted pile the rest of the board counts (B4), unless the
            # reading counts it otherwise fairly surely
            disputed = (seen_counts != counts) & (pile_confidence >= config.pile_doubt)
            fixed = _counted_by_the_rest(
                pile_moved, weak.any(axis=-1), counts, before_counts, seen_counts, sure_piles, in_tray
            )
            pile_moved &= ~(fixed & ~disputed)
        # the move shows: a slot changes, a pile surely counted as the outcome has it (or counted so,
        # where its junctions changed as the outcome changes them), the bar or the tray
        pile_moves = (counts != before_counts) & (np.abs(counts) >= LINE) & (counts == seen_counts) & sure_piles
        pile_moves |= shown | topped
        bar_moves = (layout.bar_light, layout.bar_dark) != before_bar and (
            bar_sure or (bar_moved and (layout.bar_light, layout.bar_dark) == shown_bar)
        )
        tray_moves = (in_tray[1] and layout.off_light != before_layout.off_light) or (
            in_tray[-1] and layout.off_dark != before_layout.off_dark
        )
        visible = bool(moved.any() or pile_moves.any() or bar_moves or tray_moves) or layout == before_layout
        contradicted = np.asarray(bad.any(axis=-1), np.bool_) | piles
        differs = (
            np.minimum(np.abs(counts), LINE) * np.sign(counts)
            != np.minimum(np.abs(seen_counts), LINE) * np.sign(seen_counts)
        ) | piles
        scores.append(
            _Score(
                layout=layout,
                plays=members,
                contradicted=contradicted,
                proven=(
                    ((np.asarray(proof.any(axis=-1), np.bool_) | piles) & sure_points)
                    | np.asarray(changed_proof.any(axis=-1), np.bool_)
                )
                & differs,
                bar_contradicted=(bar_sure and (layout.bar_light, layout.bar_dark) != seen_bar)
                or (bar_counted and layout.bar_light + layout.bar_dark != sum(seen_bar)),
                tray_contradicted=tray is not None
                and (
                    (tray.light_sure and tray.light != layout.off_light)
                    or (tray.dark_sure and tray.dark != layout.off_dark)
                ),
                weak=np.asarray(weak.any(axis=-1), np.bool_) | pile_moved,
                unexplained=bool(unexplained.any() or unshown.any())
                or (bar_moved and (layout.bar_light, layout.bar_dark) == before_bar),
                log_likelihood=float(np.log(np.maximum(p, 1e-6)).sum()),
                visible=visible,
            )
        )
    consistent = sorted((s for s in scores if s.consistent), key=lambda s: -s.log_likelihood)
    if any(s.unexplained for s in consistent):
        # of outcomes the photo fits, one that explains every change beats one
        # that leaves as it was a slot that changed as a moving checker would,
        # or moves a checker where the slot changed less and reads as before
        consistent = [s for s in consistent if not s.unexplained] or consistent
    if len(consistent) > 1 and consistent[0].log_likelihood - consistent[1].log_likelihood >= config.likelier:
        consistent = consistent[:1]  # the photo fits one outcome far better than any other
    if len(consistent) == 1:
        chosen = consistent[0]
        if chosen.weak.any():
            names = tuple(place(int(r), int(c)) for r, c in zip(*np.nonzero(chosen.weak), strict=True))
            return PhotoVerdict(
                "refused",
                refusal=Refusal(
                    "ambiguous",
                    f"only {chosen.plays[0].play} fits, but {_listed(names, 'is', 'are')} not read surely",
                    names,
                ),
                reading=reading,
            )
        if not chosen.visible:
            return PhotoVerdict(
                "refused",
                refusal=Refusal(
                    "ambiguous",
                    f"only {chosen.plays[0].play} fits, but it changes only piles or the trays, which the photo cannot "
                    "tell from the board before the move",
                ),
                reading=reading,
            )
        return PhotoVerdict("legal", play=chosen.plays[0], reading=reading)
    if len(consistent) > 1:
        first, second = consistent[0].layout, consistent[1].layout
        names = tuple(
            place(r, c)
            for r, (row_a, row_b) in enumerate(((first.top, second.top), (first.bottom, second.bottom)))
            for c in range(12)
            if row_a[c] != row_b[c]
        )
        return PhotoVerdict(
            "refused",
            refusal=Refusal(
                "ambiguous",
                f"the photo fits {consistent[0].plays[0].play} and {consistent[1].plays[0].play}: "
                f"cannot tell {_listed(names) if names else 'them'} apart",
                names,
            ),
            reading=reading,
        )
    if not all(s.disproved for s in scores) or not allow_illegal:
        # every outcome is contradicted somewhere, but not everywhere surely:
        # the photo is unsure, not the move illegal
        unsure = [s for s in scores if not s.disproved] or list(scores)
        unsure.sort(key=lambda s: -s.log_likelihood)
        names = tuple(place(int(r), int(c)) for r, c in zip(*np.nonzero(unsure[0].contradicted), strict=True))
        reasons = []
        if names and allow_illegal:
            reasons.append(f"{_listed(names, 'is', 'are')} not read surely")
        elif names:
            reasons.append(
                f"{_listed(names, 'disagrees', 'disagree')}, but without a calibration the photo is not proof"
            )
        if unsure[0].tray_contradicted and tray is not None:
            outcome = unsure[0].layout
            held = [
                f"{count} {colour} checker{'' if count == 1 else 's'}"
                for count, sure, expected, colour in (
                    (tray.light, tray.light_sure, outcome.off_light, "light"),
                    (tray.dark, tray.dark_sure, outcome.off_dark, "dark"),
                )
                if sure and count != expected
            ]
            reasons.append(
                f"the tray holds {' and '.join(held)} borne off, which {unsure[0].plays[0].play} does not leave (B4)"
            )
        return PhotoVerdict(
            "refused",
            refusal=Refusal("ambiguous", f"no legal play fits the photo; {'; '.join(reasons)}", names),
            reading=reading,
        )
    fewest = min(s.contradictions for s in scores)
    nearest = [s for s in scores if s.contradictions == fewest]
    seen = seen_reading.layout()
    found: dict[tuple[int, int], Contradiction] = {}
    for s in nearest:
        for r, c in zip(*np.nonzero(s.proven), strict=True):
            expected = (s.layout.top, s.layout.bottom)[r][c]
            found.setdefault(
                (int(r), int(c)),
                Contradiction(
                    _mover_point(int(r), int(c), bottom_home),
                    place(int(r), int(c)),
                    int(expected),
                    int((seen.top, seen.bottom)[r][c]),
                ),
            )
        if s.bar_contradicted:
            found.setdefault(
                (-1, 0), Contradiction(0, "bar", s.layout.bar_light - s.layout.bar_dark, seen.bar_light - seen.bar_dark)
            )
    return PhotoVerdict(
        "illegal",
        contradictions=tuple(sorted(found.values(), key=lambda c: c.point)),
        nearest=tuple(s.plays[0] for s in nearest[:3]),
        reading=reading,
    )


def judge_photo(
    before: Position,
    dice: Dice,
    image: Image,
    *,
    calibration: Calibration | None = None,
    corners: npt.ArrayLike | None = None,
    mover: Mover = "light",
    home: Side = "bottom-right",
    before_image: Image | None = None,
    rules: Rules = STANDARD,
    config: JudgeConfig = JudgeConfig(),
) -> PhotoVerdict:
    """Judge the photo ``image`` (h, w, 3) BGR uint8 of the board after the
    mover played ``dice`` from ``before``. Give a ``calibration`` (best) or the
    playing area's ``corners`` (the colours are then learned from the photo
    itself, and the verdict is legal or refused, never illegal: a guess at
    the colours is no proof). ``before_image``: the frame from before the
    move, same camera (used with a calibration; where it is refused, a hand
    over it, the photo is judged alone)."""
    if calibration is None:
        if corners is None:
            raise GeometryError("judge_photo needs a calibration or the corners of the playing area")
        geometry = geometry_from_corners(image, corners)
        reading = read_with_corners(image, geometry)
        return judge_reading(
            before, dice, reading, mover=mover, home=home, rules=rules, config=config, allow_illegal=False
        )
    calibration.check_frame_size(image, what="the photo")
    if before_image is not None:
        calibration.check_frame_size(before_image, what="the frame before")
    before_reading = None if before_image is None else read_board(before_image, calibration, hold=False)
    if before_reading is not None and before_reading.refusal is not None:
        # no change can be measured against it: the photo must do alone
        log.info("the frame before the move is refused (%s): judging the photo alone", before_reading.refusal.reason)
        before_reading = None
    reading = read_board(image, calibration, since=before_reading, hold=False)
    changes = changes_since(before_reading, reading, calibration, config=config)
    return judge_reading(
        before,
        dice,
        reading,
        mover=mover,
        home=home,
        rules=rules,
        config=config,
        changes=changes,
        before_reading=before_reading if changes is not None else None,
    )
