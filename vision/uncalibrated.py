"""Reading a board no calibration has seen (``nardref detect --corners``,
``nardref judge --image --corners``): what its checkers and points look
like is learned from the very photo.

Nothing labels such a photo, but a board's structure does:

- an empty slot looks as the same slot of every other point of its colour
  does (the patches are turned so that the board's edge is up on both
  rows, so a slot k of the top row and of the bottom row show the same
  part of the triangle);
- a checker looks the same on whatever point and slot it stands;
- checkers stand in a line from the edge, all of one colour on a point;
- a checker shows a round rim, a bare slot straight edges at most (its
  triangle's sides): a slot's rim is measured against the bare slots of
  its kind in the same photo (:func:`vision.rims.above_bare`).

Corners given by hand miss the playing area's by a few pixels: the
photo is read from them and from them snapped to its edges
(:mod:`vision.corners`), and the reading whose best layout explains it
better is kept. The checker pitch is found first, from the period of the
lines of checkers near the diameter of the circles of a checker's size
(:func:`vision.features.line_pitch`); a board seen askew, whose
checkers' steps along the points differ from their circles, is first
rectified to the aspect they show (:func:`vision.features.stretch_along`).
:func:`learn_layouts` then fits that structure to the slots as k-means
fits clusters, by turns: each point takes the colour and count whose
looks explain its slots best, then every look is the median of the
slots that took it. Where a point colour looks like a checker (white
checkers on white points, gold on gold), no look of its own may stand
for it: the empty look of a slot is learned from the slots of its kind
left empty, and the rims weigh in:
from the second turn on, a layout pays for each checker it lays where no
rim stands out and for each bare slot it leaves where one does
(:data:`RIM_CHECKER`), against the bare slots of the turn before, or
where a circle of a checker's size is centred on it (:data:`CIRCLED`,
:func:`vision.rims.circled_slots`). It
starts from several guesses (the slots least like their kind's typical
look, and those circles stand on; and again from each fit with every point
colour's least checker-like slots as its empty looks, where checkers
stand on most points of a colour at the edge, and again with each
slot's empty look learned from the slots of its kind whose rims are
weakest) and keeps the fit that explains the photo best, or one nearly
as good where that one's reading misses checkers (below). A bar found
as wide as the search for it goes from every corners tried (an arm
across it: no band looked like a bar), a circle
bigger than a checker over the board (a dice cup, a hand's palm) and
something crossing the board's frame (an arm reaching in,
:func:`vision.refusal.check_frame_crossed`) are refused before any of
that (:func:`vision.refusal.check_cup`), and so, once the best layout
is found (whose lines may reach into it), is a patch of the field
between the rows unlike the rest of it, with a sharp outline (a hand
reaching for a checker, :mod:`vision.field`). Two neighbouring slots that fit
their looks far worse than the rest are something reaching in, and the
photo is refused (not on a full line: a pile's upper layer lies over its
slots, and the reader judges piles junction by junction).
:func:`read_with_corners` hands the layout found to the reader as if it
were a calibration's
(:func:`vision.colours.learn_from_layout`), with every empty look
borrowed from another point so that no slot confirms itself, which reads
the piles, the bar and how sure each point is.

The points' count leaves the bar its room (B4): where the bar seemed to
hold checkers of a colour past it, each unlike the bare bar, and the
points hold more of that colour than the layout learned lets them, the
bar holds those checkers and the points what the layout lets them, not
surely (:func:`_onto_bar`; a second checker read past a lone one is the
misreading, a checker plain on the bar is none), unless that colour looks
like the bare bar (dark checkers on a dark bar, whose shadows pass for
them).

A reading that holds more checkers of a colour than a side has (B4) has
something on the board, or counted a pile long, or read a point or two
wrong: it is refused where its piles leave more of the excess than
misread points explain (``ReadConfig.extra_checkers``, as with a
calibration), and where the layout that holds the checkers (below) still
reads too many. Where the reading is short of checkers a side cannot
have borne off (B4, E1; most often a lone checker at the edge of a point
of its own colour), or over them by its piles or a point or two, the
layout that explains the photo best of those that hold them (a dynamic
programme over every point's colours and counts, :func:`_balanced`)
teaches the reader again, and points that still hold more than it lets
them are cut to it (:func:`_trimmed`). A side still short has borne
checkers off (or something that crosses no frame hides them). A point
where the layout and the reading disagree, or where another colour and
count explains it nearly as well, is not read surely; nor is any point
where a side seems short of checkers it cannot have borne off (a bar
that seemed to hold more of a side than it has counts none of it), nor
any checker's colour where both kinds are about equally bright (which is
light, only a calibration knows). A reading still short of checkers
reports, unsurely, the layout that holds them (white checkers lined up
on a white point, most often), where a full line not counted surely may
hold a few more (a pile counted short). Where a colour's lone checkers
stand on most first slots of one point colour, the best fit may take
them for those slots' empty look and read short: a fit nearly as good
(``NEARLY``) that sees every checker of each side the first saw, piles
none more, and holds them all is read instead, none of its points
surely."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import NamedTuple

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
    SAME_BRIGHTNESS,
    UNKNOWN,
    ColourModel,
    borrowed,
    learn_from_layout,
    point_kind,
    template_distance,
)
from vision.corners import second_guess
from vision.errors import CalibrationError, GeometryError
from vision.features import JUNCTIONS, SlotFeatures, measure, to_lab
from vision.field import check_field
from vision.geometry import BAR_MOST, BoardGeometry, Image, as_points, rectify, working_frame
from vision.layout import Layout
from vision.read import (
    ReadConfig,
    Reading,
    bar_room,
    bearing_off,
    geometry_from_corners,
    not_sure,
    read_bar,
    read_rectified,
    refused_reading,
)
from vision.refusal import Refusal, RefusalConfig, check_cup, check_frame_crossed, check_occlusion
from vision.rims import above_bare, circled_slots, gradients, rim_strength

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
Counts = npt.NDArray[np.int64]

#: What a point may hold in a layout: nothing, or a line from the edge of
#: 1 to ``LINE`` checkers of the first look (+) or of the second (-).
OPTIONS = np.array([0, *range(1, LINE + 1), *range(-1, -LINE - 1, -1)], np.int64)
#: The first guesses at the checkers' looks: the slots least like their
#: kind's typical look, past each of these percentiles of that distance.
STARTS = (60.0, 75.0, 90.0)
#: ... and, where circles of a checker's size stand on this many slots at
#: least (:func:`vision.rims.circled_slots`), those slots.
LEAST_CIRCLED = 6
#: Turns of :func:`learn_layouts`, and of :func:`_two_colours`, at most
#: (each stops where a turn changes nothing).
TURNS = 12
#: What a side short of checkers (B4) pays, in mean slot distances, for
#: each checker laid on a full line it holds past what the reading counts
#: there (a pile counted short, or not seen as one), up to
#: ``PILE_MISSED_MOST`` on a line. (A lone checker missed costs about as
#: much, and a phantom one saves as much: 1 to 2.6 on bench photos. Where
#: a side is short by more, lone checkers missed on several points of its
#: own colour are as likely as one pile counted that short.)
PILE_MISSED = 1.0
PILE_MISSED_MOST = 3
#: A point is read no surer than ``DOUBT_CONFIDENCE`` where the layout found
#: and the reading count it otherwise, or where another colour and count
#: explains its slots less than this many mean slot distances worse.
MARGIN = 3.0
DOUBT_CONFIDENCE = 0.5
#: A slot this many mean slot distances from its look fits nothing the
#: photo shows of checkers or points; two side by side are something
#: reaching in (a hand, an arm, a dice cup).
MISFIT = 5.0
#: A checker's rim stands out from the bare slots' of its kind
#: (:func:`vision.rims.above_bare`) at least this many times over, and a
#: bare slot's no more than ``RIM_BARE`` times: a layout that gives a slot
#: a look its rim speaks against pays ``RIM_WEIGHT`` mean slot distances
#: for each unit of the logarithm it falls short or goes over, up to
#: ``RIM_CAP`` units. (Bench photos: the rim of a checker read by its look
#: stands out 5 times over in half of them and less than twice in one in
#: ten; a bare point's wide base read as a checker, 0.7 times in half.)
RIM_CHECKER = 2.0
RIM_BARE = 3.0
RIM_WEIGHT = 2.0
RIM_CAP = 2.0
#: A layout that leaves a slot bare where a checker's round outline is
#: centred on it (:func:`vision.rims.circled_slots`: on bench photos, a
#: bare slot in two thousand) pays this many mean slot distances.
CIRCLED = 4.0
#: A reading that sees fewer checkers of a colour than this, on the
#: points and the bar (a board all but borne off), learned that colour's
#: look from too few to read any point surely: a shadow may have passed
#: for them, and a checker of that colour for a bare point.
LEAST_LEARNED = 3
#: Where the best layout found reads short of checkers a side cannot have
#: borne off, the next ones are read too, while they explain the photo
#: no more than this share worse (:func:`read_with_corners`).
NEARLY = 0.05


@dataclass(frozen=True)
class Learned:
    """What :func:`learn_layouts` found: ``counts`` (2, 12) signed, + for the
    brighter checkers; ``cost`` the mean template distance per slot of the
    photo from the looks of that layout (lower explains it better);
    ``costs`` (2, 12, K) what each of the K ``options`` (signed counts, +
    for the brighter checkers) costs at each point with those looks, and
    ``misfit`` (2, 12, S) how far each slot lies from its look, in mean
    distances per slot (0 past a full line, where the checkers pile as
    they will)."""

    counts: Counts
    cost: float
    costs: FloatArray
    options: Counts
    misfit: FloatArray

    def margin(self, counts: Counts) -> FloatArray:
        """(2, 12) how much worse than ``counts`` (each an option) the next
        best colour and count explains each point, in mean distances per
        slot: below 0 where another explains it better."""
        chosen = self.options[None, None, :] == counts[:, :, None]
        own = np.where(chosen, self.costs, np.inf).min(axis=2)
        other = np.where(chosen, np.inf, self.costs).min(axis=2)
        return np.asarray((other - own) / max(self.cost, 1e-6), np.float32)


def _groups(slots: int) -> npt.NDArray[np.intp]:
    """(2, 12, slots) which empty look each slot shares: its point's colour
    and its distance from the edge, on both rows."""
    return np.asarray(point_kind()[:, :, None] * slots + np.arange(slots)[None, None, :], np.intp)


def _bare(counts: Counts, slots: int) -> npt.NDArray[np.bool_]:
    """(2, 12, slots) the slots ``counts`` leaves empty, save the one just
    past each line (it shows that line's side and shadow) and those past
    a full line (its pile lies there as it will)."""
    k = np.arange(slots)[None, None, :]
    n = np.abs(counts)[:, :, None]
    return np.asarray((_states(counts, slots) == EMPTY) & ~((k == n) & (n > 0)), np.bool_)


def _rim_costs(
    rims: FloatArray, counts: Counts, groups: npt.NDArray[np.intp], scale: float, circled: BoolArray | None
) -> tuple[FloatArray, FloatArray]:
    """(2, 12, S) each: what a checker's look and an empty look cost at
    every slot besides the looks' distances, from the slots' rim strength
    (2, 12, L) against that of the slots ``counts`` leaves bare (see
    :data:`RIM_CHECKER`; ``scale``: the mean distance of a slot from its
    look), and where a checker's round outline is ``circled`` (2, 12, L)
    (:data:`CIRCLED`). A photo's own bare slots are the measure: no
    calibration kept them."""
    slots, reach = groups.shape[2], rims.shape[2]
    rise = above_bare(rims, _bare(counts, slots)[:, :, :reach], groups[:, :, :reach])
    checker = np.zeros(groups.shape, np.float32)
    empty = np.zeros(groups.shape, np.float32)
    checker[:, :, :reach] = scale * RIM_WEIGHT * np.clip(np.log(RIM_CHECKER) - rise, 0, RIM_CAP)
    empty[:, :, :reach] = scale * RIM_WEIGHT * np.clip(rise - np.log(RIM_BARE), 0, RIM_CAP)
    if circled is not None:
        empty[:, :, :reach] += scale * CIRCLED * circled[:, :, :reach]
    return checker, empty


def _distances(
    patches: FloatArray,
    checkers: tuple[FloatArray, FloatArray],
    empty: FloatArray,
    groups: npt.NDArray[np.intp],
    rim_costs: tuple[FloatArray, FloatArray] | None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Every slot's distance (2, 12, S, 2) from the two checker looks, and
    (2, 12, S) from its empty look: over the disc, and over its far half
    alone, as the slot just past a line is judged (the line's last checker
    casts its shadow and shows its side over the near half); with
    ``rim_costs`` (:func:`_rim_costs`) added to the first two."""
    looks = empty[groups]
    to_checker, to_empty = rim_costs if rim_costs is not None else (np.zeros(groups.shape, np.float32),) * 2
    return (
        np.stack([template_distance(patches, look) for look in checkers], axis=-1) + to_checker[..., None],
        template_distance(patches, looks) + to_empty,
        template_distance(patches, looks, weights=FAR_HALF),
    )


def _option_costs(
    patches: FloatArray,
    checkers: tuple[FloatArray, FloatArray],
    empty: FloatArray,
    groups: npt.NDArray[np.intp],
    rim_costs: tuple[FloatArray, FloatArray] | None = None,
) -> FloatArray:
    """(2, 12, len(OPTIONS)) the cost of each of :data:`OPTIONS` at every
    point: the sum of its slots' distances from the looks it gives them
    (:func:`_distances`, with ``rim_costs``); inf for a line longer than a
    point has slots.
    Past a full line, a slot is either empty or a checker of the line's
    pile."""
    slots = patches.shape[2]
    to_checker, to_empty, to_empty_far = _distances(patches, checkers, empty, groups, rim_costs)
    before = np.concatenate([np.zeros((2, 12, 1, 2), np.float32), np.cumsum(to_checker, axis=2)], axis=2)
    after = np.concatenate([np.cumsum(to_empty[:, :, ::-1], axis=2)[:, :, ::-1], np.zeros((2, 12, 1), np.float32)], 2)
    costs = np.full((2, 12, len(OPTIONS)), np.inf, np.float32)
    for k, option in enumerate(OPTIONS):
        n, colour = abs(int(option)), int(option < 0)
        if n > slots:
            continue
        cost = before[:, :, n, colour].copy()
        if n < slots:
            cost += to_empty_far[:, :, n] if n else to_empty[:, :, 0]
            if n == LINE:
                cost += np.minimum(to_empty[:, :, n + 1 :], to_checker[:, :, n + 1 :, colour]).sum(axis=2)
            else:
                cost += after[:, :, n + 1]
        costs[:, :, k] = cost
    return costs


def _assign(
    patches: FloatArray,
    checkers: tuple[FloatArray, FloatArray],
    empty: FloatArray,
    groups: npt.NDArray[np.intp],
    rim_costs: tuple[FloatArray, FloatArray] | None = None,
) -> tuple[Counts, FloatArray]:
    """Each point's colour and count (2, 12) (+ the first checker look, - the
    second) whose looks explain its slots best (:func:`_option_costs`), and
    that cost (2, 12)."""
    costs = _option_costs(patches, checkers, empty, groups, rim_costs)
    return np.asarray(OPTIONS[np.argmin(costs, axis=2)], np.int64), costs.min(axis=2)


def _slot_costs(
    patches: FloatArray,
    counts: Counts,
    checkers: tuple[FloatArray, FloatArray],
    empty: FloatArray,
    groups: npt.NDArray[np.intp],
) -> FloatArray:
    """(2, 12, S) each slot's distance from the look ``counts`` gives it, as
    :func:`_assign` weighs it; 0 past a full line."""
    to_checker, to_empty, to_empty_far = _distances(patches, checkers, empty, groups, None)
    k = np.arange(patches.shape[2])[None, None, :]
    n = np.abs(counts)[:, :, None]
    own = np.where(counts[:, :, None] > 0, to_checker[..., 0], to_checker[..., 1])
    cost = np.where(k < n, own, np.where((k == n) & (n > 0), to_empty_far, to_empty))
    return np.asarray(np.where((n >= LINE) & (k >= LINE), 0.0, cost), np.float32)


def _states(counts: Counts, slots: int) -> npt.NDArray[np.int8]:
    """(2, 12, slots) what ``counts`` puts in each slot: EMPTY, 1 (a checker
    of the first look) or 2 (of the second); UNKNOWN past a full line,
    where the checkers pile as they will."""
    k = np.arange(slots)[None, None, :]
    n = np.abs(counts)[:, :, None]
    state = np.where(k < n, np.where(counts[:, :, None] > 0, 1, 2), EMPTY)
    return np.asarray(np.where((n >= LINE) & (k >= LINE), UNKNOWN, state), np.int8)


def _relearn(
    patches: FloatArray,
    counts: Counts,
    groups: npt.NDArray[np.intp],
    checkers: tuple[FloatArray, FloatArray],
    empty: FloatArray,
) -> tuple[tuple[FloatArray, FloatArray], FloatArray]:
    """The looks as the medians of the slots ``counts`` gives them; a look no
    slot takes stays as it was. The slot just past a line shows that line's
    shadow, and past a full line its pile: neither teaches an empty look."""
    state = _states(counts, patches.shape[2])
    learned = []
    for code, look in zip((1, 2), checkers, strict=True):
        taken = patches[state == code]
        learned.append(np.median(taken, axis=0).astype(np.float32) if len(taken) else look)
    empty = empty.copy()
    bare = _bare(counts, patches.shape[2])
    for group in range(len(empty)):
        taken = patches[bare & (groups == group)]
        if len(taken):
            empty[group] = np.median(taken, axis=0)
    return (learned[0], learned[1]), empty


def _two_colours(colours: FloatArray) -> npt.NDArray[np.bool_]:
    """Two clusters of ``colours`` (N, 3) Lab by k-means, begun from the
    split at their median lightness: True for the members of the one begun
    as the brighter half. The slots least like their points are not half
    of each checker colour: split by brightness alone, red checkers on
    black points fall in with the points' narrowing tips, and red and
    blue, about equally bright, share both halves."""
    bright = colours[:, 0] >= np.median(colours[:, 0])
    for _ in range(TURNS):
        if bright.all() or not bright.any():
            break
        centres = np.stack([colours[bright].mean(axis=0), colours[~bright].mean(axis=0)])
        nearer = ((colours[:, None, :] - centres[None]) ** 2).sum(axis=2)
        again = nearer[:, 0] <= nearer[:, 1]
        if (again == bright).all():
            break
        bright = again
    return np.asarray(bright, np.bool_)


def _typical(patches: FloatArray, groups: npt.NDArray[np.intp]) -> FloatArray:
    """The first guess at each group's empty look: its most typical slot
    (the one nearest the others, most of them empty)."""
    empty = np.zeros((int(groups.max()) + 1, *patches.shape[3:]), np.float32)
    for group in range(len(empty)):
        members = patches[groups == group]
        spread = np.stack([template_distance(members, m) for m in members])
        empty[group] = members[int(np.argmin(np.median(spread, axis=1)))]
    return empty


def _start(
    patches: FloatArray, groups: npt.NDArray[np.intp], percentile: float, empty: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """A first guess at the checkers' looks: the slots within a line's
    reach least like their ``empty`` looks (:func:`_typical`), past
    ``percentile`` of them (:func:`_split`)."""
    reach = min(patches.shape[2], LINE)
    distance = template_distance(patches, empty[groups])[:, :, :reach].ravel()
    slots = patches[:, :, :reach].reshape(-1, *patches.shape[3:])
    return _split(slots[distance >= np.percentile(distance, percentile)])


def _split(checkers: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Two checker looks from slots (N, T, T, C) taken for checkers: the
    medians of their two colours (:func:`_two_colours`; one look twice
    where they are of one)."""
    bright = _two_colours((checkers[..., :3] * DISC[..., None]).sum(axis=(1, 2)))
    if bright.all() or not bright.any():
        return checkers.mean(axis=0), checkers.mean(axis=0)
    return np.median(checkers[bright], axis=0), np.median(checkers[~bright], axis=0)


def _fit(
    patches: FloatArray,
    groups: npt.NDArray[np.intp],
    checkers: tuple[FloatArray, FloatArray],
    empty: FloatArray,
    rims: FloatArray,
    circled: BoolArray | None,
) -> tuple[float, Counts, tuple[FloatArray, FloatArray], FloatArray]:
    """Assign and relearn by turns from these looks until nothing changes:
    the mean cost per slot, the counts and the looks learned. Past the
    first turn the slots' ``rims`` (2, 12, L) weigh in too,
    against the bare slots of the layout the turn before found, and the
    ``circled`` ones (:func:`_rim_costs`)."""
    counts, cost = _assign(patches, checkers, empty, groups)
    for _ in range(TURNS):
        checkers, empty = _relearn(patches, counts, groups, checkers, empty)
        rim_costs = _rim_costs(rims, counts, groups, float(cost.mean()) / patches.shape[2], circled)
        again, cost = _assign(patches, checkers, empty, groups, rim_costs)
        if (again == counts).all():
            break
        counts = again
    return float(cost.mean()) / patches.shape[2], counts, checkers, empty


def _least_like(
    patches: FloatArray, groups: npt.NDArray[np.intp], checkers: tuple[FloatArray, FloatArray]
) -> FloatArray:
    """Each group's slot least like either checker look: where checkers
    stand on most points of a colour at some slot, the typical slot there
    is a checker, and the point's own look is the odd one out."""
    nearest = np.minimum(*(template_distance(patches, look) for look in checkers))
    empty = np.zeros((int(groups.max()) + 1, *patches.shape[3:]), np.float32)
    for group in range(len(empty)):
        members = groups == group
        empty[group] = patches[members][int(np.argmax(nearest[members]))]
    return empty


def _calmest(patches: FloatArray, groups: npt.NDArray[np.intp], rims: FloatArray, empty: FloatArray) -> FloatArray:
    """Each group's empty look: the median of its slots whose ``rims`` (2,
    12, L) are its weakest quarter (a bare slot shows no round rim, however
    many of its group a colour's checkers cover); past a rim's reach, as
    ``empty`` has it."""
    calm = empty.copy()
    reach = rims.shape[2]
    for group in range(len(calm)):
        members = groups[:, :, :reach] == group
        if members.any():
            strength = rims[members]
            calm[group] = np.median(patches[:, :, :reach][members][strength <= np.percentile(strength, 25)], axis=0)
    return calm


def learn_layouts(features: SlotFeatures, rims: FloatArray, circled: BoolArray | None = None) -> Iterator[Learned]:
    """The layouts (and how well each explains the photo) that the board's
    structure fits to ``features``, the rim strength ``rims`` (2, 12, L;
    :func:`vision.rims.rim_strength`) and the slots a checker's outline is
    ``circled`` on (:func:`vision.rims.circled_slots`) of a board never
    calibrated (see the module's docstring): from each of the first
    guesses (:func:`_start`, and the circled slots' two colours: gold
    checkers on gold points are seldom least like their points), and
    again from the checker looks found with each point colour's least
    checker-like slots as its empty looks, and with each group's slots of
    the weakest rims as its empty look (:func:`_calmest`); each layout
    once, the one that explains the slots best first, each worked out as
    it is asked for (most photos need only the first)."""
    patches = features.patches
    groups = _groups(patches.shape[2])
    typical = _typical(patches, groups)
    starts = [_start(patches, groups, percentile, typical) for percentile in STARTS]
    if circled is not None and circled.sum() >= LEAST_CIRCLED:
        starts.append(_split(patches[:, :, : circled.shape[2]][circled]))
    fits = []
    for checkers in starts:
        fit = _fit(patches, groups, checkers, typical, rims, circled)
        fits += [
            fit,
            _fit(patches, groups, fit[2], _least_like(patches, groups, fit[2]), rims, circled),
            _fit(patches, groups, fit[2], _calmest(patches, groups, rims, fit[3]), rims, circled),
        ]
    found: list[Counts] = []
    for mean, counts, checkers, empty in sorted(fits, key=lambda f: f[0]):
        first, second = checkers
        sign = -1 if (second[..., 0] * DISC).sum() > (first[..., 0] * DISC).sum() else 1
        if any((layout == counts * sign).all() for layout in found):
            continue
        found.append(counts * sign)
        misfit = _slot_costs(patches, counts, checkers, empty, groups) / max(mean, 1e-6)
        costs = _option_costs(patches, checkers, empty, groups, _rim_costs(rims, counts, groups, mean, circled))
        yield Learned(counts * sign, mean, costs, OPTIONS * sign, misfit)


def _sides(reading: Reading) -> tuple[int, int]:
    """How many light and dark checkers ``reading`` sees, on the points and the bar."""
    counts = reading.counts
    return int(counts[counts > 0].sum()) + reading.bar_light, int(-counts[counts < 0].sum()) + reading.bar_dark


def _piled(counts: Counts) -> FloatArray:
    """(2,) the light and dark checkers ``counts`` (2, 12) piles past full lines."""
    past = np.maximum(np.abs(counts) - LINE, 0)
    return np.array([past[counts > 0].sum(), past[counts < 0].sum()])


def _balanced(learned: Learned, reading: Reading, config: ReadConfig, *, grow: bool = True) -> Counts | None:
    """The layout (2, 12) that explains the photo best (``learned.costs``,
    its options signed as ``reading`` is) and holds each side's checkers
    (B4), with its piles: with the bar and the piles past a full line as
    ``reading`` counts them, each side has ``config.checkers``, or fewer
    only where it may have borne the rest off (none on the bar, all in one
    quarter of the board: E1). Where ``grow``, a side short of them may
    have a pile counted short, or not seen as one: a full line of it that
    ``reading`` does not count surely as a pile (``config.pile_known``) may
    hold up to ``PILE_MISSED_MOST`` more, at ``PILE_MISSED`` mean slot
    distances each. A side ``reading`` sees more of may have its piles
    counted long, or a point or two misread: its full lines then hold at
    least a line each, and the rest of its checkers between them. None if
    no layout does."""
    bar = np.array([reading.bar_light, reading.bar_dark])
    room = config.checkers - bar
    sides = np.array(_sides(reading))
    least = sides - bar
    if (room < 0).any():
        return None
    over = sides > config.checkers
    slack = np.where(over, _piled(reading.counts), 0)
    counts = reading.counts.ravel()
    colour = np.where(counts > 0, 0, 1)
    piled = np.where(over[colour], 0, np.maximum(np.abs(counts) - LINE, 0))
    # a full line may hold more than the reading counts there, light (+) or dark (-), where a side is short
    grown = np.arange(1, PILE_MISSED_MOST + 1) if grow else np.arange(0)
    options = np.concatenate([learned.options, LINE + grown, -LINE - grown])
    costs = learned.costs.reshape(24, -1)
    full = [int(np.flatnonzero(learned.options == line)[0]) for line in (LINE, -LINE)]
    extra = np.repeat(costs[:, full], len(grown), axis=1) + np.tile(grown, 2) * PILE_MISSED * learned.cost
    counted = np.zeros(24, np.bool_) if reading.pile_confidence is None else reading.pile_confidence.ravel()
    surely = (np.abs(counts) >= LINE) & (counted >= config.pile_known)
    costs = np.concatenate(
        [costs, np.where(surely[:, None] | np.repeat(over, len(grown))[None, :], np.inf, extra)], axis=1
    )
    same = np.sign(options)[None, :] == np.sign(counts)[:, None]
    # (24, K, 2) the light and dark checkers each option puts on each point, its pile as read
    held = np.abs(options)[None, :] + np.where(same & (np.abs(options) >= LINE)[None, :], piled[:, None], 0)
    held = np.stack([np.where(options > 0, held, 0), np.where(options < 0, held, 0)], axis=-1)
    total = np.full(room + 1, np.inf)
    total[0, 0] = 0.0
    choice = np.zeros((24, *total.shape), np.intp)
    for point in range(24):
        after = np.full_like(total, np.inf)
        for k in np.flatnonzero(np.isfinite(costs[point]) & (held[point] <= room).all(axis=1)):
            light, dark = held[point, k]
            moved = total[: room[0] + 1 - light, : room[1] + 1 - dark] + costs[point, k]
            into = after[light:, dark:]
            better = moved < into
            into[better] = moved[better]
            choice[point, light:, dark:][better] = k
        total = after
    for end in np.argsort(total, axis=None):
        if not np.isfinite(total.flat[end]):
            break
        seen = np.array(np.unravel_index(end, total.shape))
        left, picked = seen.copy(), np.zeros(24, np.intp)
        for point in range(23, -1, -1):
            picked[point] = choice[point, left[0], left[1]]
            left -= held[point, picked[point]]
        layout = options[picked].reshape(2, 12)
        quarters = layout.reshape(2, 2, 6)
        spread = [int((quarters * sign > 0).any(axis=2).sum()) for sign in (1, -1)]
        if all(
            (room[c] - slack[c] <= seen[c] <= room[c])
            if over[c]
            else (seen[c] == room[c] or (bar[c] == 0 and spread[c] <= 1 and seen[c] >= least[c]))
            for c in range(2)
        ):
            light, dark = held[np.arange(24), picked].T
            return np.asarray((light - dark).reshape(2, 12), np.int64)
    return None


def _missing_some(reading: Reading, config: ReadConfig, *, full_bar_counts: bool = True) -> bool:
    """Whether ``reading`` seems to have missed checkers: a side with fewer
    than it has (B4) has borne the rest off, which it may only do with
    all of them in its home board (E1), one quarter of the board; a side
    short of checkers spread over more than one quarter, or on the bar,
    is seldom seen (a checker hit after its side began to bear off).
    Unless ``full_bar_counts``, a side's checkers on a bar that seemed to
    hold more of them than the points leave room for are not counted:
    shadows pass for checkers there, and the count is only that room."""
    for sign, on_bar, full in (
        (1, reading.bar_light, reading.bar_full[0]),
        (-1, reading.bar_dark, reading.bar_full[1]),
    ):
        mine = np.maximum(reading.counts * sign, 0)
        counted = on_bar if full_bar_counts or not full else 0
        if mine.sum() + counted < config.checkers and not bearing_off(reading.counts, sign, on_bar):
            return True
    return False


def _read_as(
    rectified: Image,
    geometry: BoardGeometry,
    features: SlotFeatures,
    counts: Counts,
    config: ReadConfig,
    *,
    positive_is_light: bool | None = None,
) -> tuple[Reading, ColourModel, bool]:
    """Read ``rectified`` as a calibration learned from the layout
    ``counts`` (2, 12) would: the reading, its model and whether ``counts``'
    positive checkers are the light ones. Every empty look is borrowed from
    another point, so that no slot confirms itself; raises
    :class:`vision.errors.CalibrationError` where the layout cannot teach
    two kinds of checker."""
    line = np.clip(counts, -LINE, LINE)
    layout = Layout(top=tuple(int(v) for v in line[0]), bottom=tuple(int(v) for v in line[1]))
    # a line of five the layout found may be a pile: the rims between two checkers come from shorter lines
    model, positive_light = learn_from_layout(
        features, layout, positive_is_light=positive_is_light, unpiled=np.abs(line) < LINE
    )
    model = borrowed(model, features, _states(counts, geometry.slots) == EMPTY)
    # the bar's own look: most of it is bare, whatever stands on it
    model = replace(model, bar=np.repeat(np.median(features.bar, axis=0)[None], len(features.bar), axis=0))
    return read_rectified(rectified, geometry, model, config=config), model, positive_light


def _trimmed(reading: Reading, layout: Counts, checkers: int) -> Reading:
    """``reading`` where it sees more of a side than ``checkers`` (B4): its
    points that hold more of that side than ``layout`` (2, 12) does hold
    as many as there, and its piles where ``layout`` has a full line are
    counted shorter, the longest first and none shorter than the line,
    until the side holds its checkers. A point so cut is not read surely."""
    counts, confidence = reading.counts.copy(), reading.confidence.copy()
    for index, sign in enumerate((1, -1)):
        if _sides(replace(reading, counts=counts))[index] <= checkers:
            continue
        mine, allowed = counts * sign, np.maximum(layout * sign, 0)
        cut = (mine > allowed) & (allowed < LINE)
        counts[cut] = sign * allowed[cut]
        confidence[cut] = np.minimum(confidence[cut], DOUBT_CONFIDENCE)
        for _ in range(max(_sides(replace(reading, counts=counts))[index] - checkers, 0)):
            mine = counts * sign
            if mine.max() <= LINE:
                break
            row, col = np.unravel_index(int(np.argmax(mine)), mine.shape)
            counts[row, col] -= sign
            confidence[row, col] = min(confidence[row, col], DOUBT_CONFIDENCE)
    return replace(reading, counts=counts, confidence=confidence)


def _rebalanced(
    rectified: Image,
    geometry: BoardGeometry,
    features: SlotFeatures,
    learned: Learned,
    reading: Reading,
    model: ColourModel,
    config: ReadConfig,
) -> tuple[Reading, ColourModel, Counts]:
    """Where ``reading`` misses checkers a side cannot have borne off, or
    holds more than a side has (B4, E1), the photo read again as the
    layout that holds them would teach it (:func:`_balanced`), its points
    cut to that layout where they hold too many (:func:`_trimmed`), if
    that reading holds each side's checkers and keeps all the first one
    saw of a side it did not see too many of: the reading, its model and
    the layout it was taught by. Where the first saw too many of a side,
    the reading again may still miss a few checkers (no more than a
    layer on a line holds, ``JUNCTIONS``: a line on a point of its own
    colour read short), filled in unsurely afterwards; missing more, some
    of what the first saw was something over the board."""
    # the piles as read: a pile grown would leave the lines the same, and
    # the photo unread again (read again, a pile is often counted right)
    balanced = _balanced(learned, reading, config, grow=False)
    if balanced is None:
        return reading, model, learned.counts
    line = np.clip(balanced, -LINE, LINE)
    again, retaught = reading, model
    if not (line == learned.counts).all():
        try:
            again, retaught, _ = _read_as(rectified, geometry, features, line, config, positive_is_light=True)
        except CalibrationError:  # a layout that cannot teach two kinds of checker: the first reading stands
            return reading, model, learned.counts
        again = _onto_bar(again, balanced, retaught, config)
    again = _trimmed(again, balanced, config.checkers)
    first, held = _sides(reading), _sides(again)
    kept = all(b >= a or a > config.checkers for a, b in zip(first, held, strict=True))
    missing = _missing_some(again, config)
    if missing and max(first) > config.checkers:
        missing = config.checkers - min(held) > JUNCTIONS
    if again.refusal is None and kept and max(held) <= config.checkers and not missing:
        return again, retaught, line
    return reading, model, learned.counts


def _onto_bar(reading: Reading, layout: Counts, model: ColourModel, config: ReadConfig) -> Reading:
    """``reading`` where the bar seemed to hold checkers of a colour past
    the room its points leave (B4), each unlike the empty bar, and its
    points hold more of that colour than ``layout`` (2, 12) lets them on
    lines: there are the checkers too many, misread on the points (a
    second checker past a lone one), and the bar holds them. Those points
    hold what ``layout`` lets them, not surely, and the bar is read again
    with the room they leave, where it then holds every checker cut."""
    if not any(reading.bar_full) or reading.features is None:
        return reading
    features = reading.features
    counts = reading.counts.copy()
    cut = np.zeros(counts.shape, np.bool_)
    first = read_bar(features, model, bar_room(counts, None, config=config), config=config)
    gained = {LIGHT: 0, DARK: 0}
    templates = model.checker_templates(features.on_board(features.bar_xy))
    for colour, sign, template in zip((LIGHT, DARK), (1, -1), templates, strict=True):
        # a checker that looks like the bare bar (dark on a dark bar) is no proof: its shadows pass for one
        apart = np.median(template_distance(model.bar, template, max_gain=CHECKER_GAIN)) / model.spread[colour]
        mine, allowed = counts * sign, np.maximum(layout * sign, 0)
        over = (mine > allowed) & (mine <= LINE)
        gained[colour] = int((mine - allowed)[over].sum())
        if apart > config.unexplained_spreads and 0 < gained[colour] <= first.beyond[colour]:
            counts[over] = sign * allowed[over]
            cut |= over
        else:
            gained[colour] = 0
    if not cut.any():
        return reading
    bar = read_bar(features, model, bar_room(counts, None, config=config), config=config)
    if bar.light - first.light < gained[LIGHT] or bar.dark - first.dark < gained[DARK]:
        return reading
    moved = replace(
        reading,
        counts=counts,
        bar_light=bar.light,
        bar_dark=bar.dark,
        bar_confidence=bar.confidence,
        bar_counted=bar.counted,
        bar_full=(bar.past[LIGHT] > 0, bar.past[DARK] > 0),
        bar_beyond=(bar.beyond[LIGHT], bar.beyond[DARK]),
    )
    return _doubted(moved, cut, config)


def _doubted(reading: Reading, doubt: npt.NDArray[np.bool_], config: ReadConfig, *, bar: bool = False) -> Reading:
    """``reading`` with the points ``doubt`` (2, 12), and the ``bar``, read
    no more surely than ``DOUBT_CONFIDENCE``."""
    confidence = np.where(doubt, np.minimum(reading.confidence, DOUBT_CONFIDENCE), reading.confidence)
    bar_confidence = min(reading.bar_confidence, DOUBT_CONFIDENCE) if bar else reading.bar_confidence
    bar_counted = min(reading.bar_counted, DOUBT_CONFIDENCE) if bar else reading.bar_counted
    return replace(
        reading,
        confidence=confidence.astype(np.float32),
        bar_confidence=bar_confidence,
        bar_counted=bar_counted,
        uncertain=not_sure(confidence, bar_confidence, config=config),
    )


def _too_many(sides: tuple[int, int], config: ReadConfig) -> Refusal:
    """``hand_over_board``: a reading sees more light and dark checkers (``sides``) than a side has (B4)."""
    name, held = max(zip(("light", "dark"), sides, strict=True), key=lambda side: side[1])
    return Refusal(
        "hand_over_board",
        f"{held} {name} checkers seem to stand on the board, but a side has {config.checkers} (B4): "
        "something lies on it, or this board cannot be read without a calibration",
    )


def read_with_corners(
    image: Image, geometry: BoardGeometry, *, config: ReadConfig | None = None, snap: bool = True
) -> Reading:
    """Read a frame (h, w, 3) BGR uint8 of an uncalibrated board (see
    :func:`vision.read.geometry_from_corners`): the layout is learned from
    the frame (:func:`learn_layouts`), then read as a calibration learned
    from that layout would read it (``config``: the reader's thresholds,
    by default :class:`vision.read.ReadConfig`'s). A board whose checkers
    cannot be told from its points is refused, and so is one with
    something over it; one that shows too few of a colour to learn its
    look (:data:`LEAST_LEARNED`) is read, but no point of it surely.

    Corners given by hand miss the playing area's by a few pixels, and the
    slots laid out from them miss the checkers: the frame is read from the
    corners given and from them snapped to the playing area's edges nearby
    (:func:`vision.corners.snap_corners`, its bar and checker pitch found
    again), and the reading whose best layout explains the frame better
    (the lower ``Learned.cost``) is kept; a point (or the bar) the other
    reading counts otherwise is not read surely. A dice cup or an arm reaching in
    seen from the corners given is refused; corners snapped from which one
    is seen are not tried (they may have caught another edge, and put the
    frame's band on the field). Where the corners given find no bar (one
    as wide as the search goes), the snapped ones are tried alone, and
    where neither do, the frame is refused (:func:`_bar_unfound`).
    Corners known exactly (not ``snap``) are read as given.

    Where that reading is short of checkers a side cannot have borne off
    (B4, E1), a layout found nearly as good (``NEARLY``) may hold them: a
    colour's lone checkers on most first slots of a point colour pass for
    those slots' empty look in the best. Read as that layout teaches, the
    photo must show every checker of each side the first reading saw, and
    pile none more; it is read so, and no point surely: the photo chose
    between two layouts."""
    # the junctions' looks are learned on this photo, not at a calibration:
    # a bare one may look much like a face, so a layer's step needs none
    # past it to look bare, and a gap in a layer stays a gap
    # (ReadConfig.pile_bare_least, pile_gap_face)
    config = config or ReadConfig(pile_bare_least=0.0, pile_gap_face=0.0)
    tries = [geometry]
    if geometry.lens is None:  # a lens calibration is of the camera's own pixels
        image, corners = working_frame(image, geometry.corners)
        tries = [replace(geometry, corners=as_points(corners))]
        snapped = second_guess(image, corners) if snap and len(corners) == 4 else None
        if snapped is not None:
            try:
                tries.append(geometry_from_corners(image, snapped, check_order=False))  # (snapped, not turned)
            except GeometryError:  # sides that caught other edges may cross, or leave the picture
                pass
    fitted: list[_Fitted] = []
    unfound: Reading | None = None  # the refusal where no corners tried find a bar
    for tried in tries:
        rectified = rectify(image, tried)
        # no bar found from these corners: others may find it (corners clicked a few px off)
        no_bar = _bar_unfound(tried)
        if no_bar is not None:
            unfound = unfound or refused_reading(no_bar, tried, rectified)
            continue
        # a circle bigger than a checker: a dice cup (or a hand's palm); a board of one's own is calibrated
        refusal = check_cup(rectified, tried, reference={}, config=RefusalConfig())
        if refusal is None:  # an arm reaching in over the frame
            refusal = check_frame_crossed(image, tried, config=RefusalConfig())
        if refusal is None:
            lab = to_lab(rectified)
            features = measure(rectified, tried, lab=lab)
            grads = gradients(rectified, lab=lab)
            fits = learn_layouts(features, rim_strength(grads, tried), circled_slots(rectified, tried))
            best = next(fits)
            # a hand reaching for a checker, over the field between the lines
            refusal = check_field(lab, grads, tried, best.counts, config=RefusalConfig())
            if refusal is None:
                fitted.append(_Fitted(best, fits, rectified, tried, features))
        if refusal is not None and not fitted:  # the corners given (snapped ones may have caught another edge)
            return refused_reading(refusal, tried, rectified)
    if not fitted and unfound is not None:
        return unfound
    fitted.sort(key=lambda fit: fit.best.cost)
    reading = _read_fitted(fitted[0], config)
    if len(fitted) == 1 or reading.refusal is not None:
        return reading
    # read from the other corners too: where the two readings differ, the corners decided, and not surely
    other = _read_fitted(fitted[1], config)
    if other.refusal is not None:
        return reading
    differ = reading.counts != other.counts
    bar_differs = (reading.bar_light, reading.bar_dark) != (other.bar_light, other.bar_dark)
    if not differ.any() and not bar_differs:
        return reading
    return _doubted(reading, differ, config, bar=bar_differs)


def _bar_unfound(geometry: BoardGeometry) -> Refusal | None:
    """``hand_over_board`` where the bar found is as wide as the search
    for it goes (:data:`vision.geometry.BAR_MOST` of the playing area):
    no band between the halves looked like a bar, and the widest won. An
    arm lying across the bar does that (bench/uncalibrated.py seed 1,
    photo 81: the bar found twice as wide as it is, and every point read
    off its place); of the 900 clean photos of seeds 1, 3 and 7, none
    reached the bound from the renderer's corners (the widest 0.196, seed
    7 photo 42, a bar found wrongly; the next 0.138), and from corners
    clicked 3 px off one did: seed 1 photo 124, whose corners snapped to
    the playing area's edges find the bar."""
    if geometry.bar[1] - geometry.bar[0] < int(BAR_MOST * geometry.size[0]):
        return None
    return Refusal(
        "hand_over_board", "no bar shows between the halves (something lies over it?): wait until it is clear"
    )


def _read_fitted(fitted: _Fitted, config: ReadConfig) -> Reading:
    """The frame ``fitted`` read as its best layout teaches, or as one
    nearly as good (see :func:`read_with_corners`)."""
    best, fits, rectified, geometry, features = fitted
    first = _read_learned(rectified, geometry, features, best, config)
    if first.short:
        for other in fits:
            if other.cost > (1 + NEARLY) * best.cost:
                break
            again = _read_learned(rectified, geometry, features, other, config)
            kept = all(b >= a for a, b in zip(first.sides, again.sides, strict=True))
            if again.reading.refusal is None and not again.short and kept and again.piled <= first.piled:
                return _doubted(again.reading, np.ones((2, 12), np.bool_), config)
    return first.reading


class _Fitted(NamedTuple):
    """A frame rectified by ``geometry``, its slots' ``features``, and the
    ``best`` layout learned from them, the rest to come from ``fits``
    (:func:`learn_layouts`)."""

    best: Learned
    fits: Iterator[Learned]
    rectified: Image
    geometry: BoardGeometry
    features: SlotFeatures


class _Read(NamedTuple):
    """What :func:`_read_learned` read: ``reading``; whether it was
    ``short`` of checkers a side cannot have borne off (filled in from the
    layout that holds them); the light and dark checkers it saw
    (``sides``) and piled past full lines (``piled``) before that."""

    reading: Reading
    short: bool = False
    sides: tuple[int, int] = (0, 0)
    piled: int = 0


def _read_learned(
    rectified: Image, geometry: BoardGeometry, features: SlotFeatures, learned: Learned, config: ReadConfig
) -> _Read:
    """Read ``rectified`` as the layout ``learned`` teaches (see the module's docstring)."""
    # a full line may be a pile, whose upper layer lies over its slots as
    # no look learned from lines does: the reader judges it junction by junction
    refusal = check_occlusion(
        (learned.misfit > MISFIT) & (np.abs(learned.counts) < LINE)[:, :, None],
        learned.counts,
        occluded_slots=config.occluded_slots,
        what="something unlike the board or its checkers",
    )
    if refusal is not None:
        return _Read(refused_reading(refusal, geometry, rectified))
    line = np.clip(learned.counts, -LINE, LINE)
    if not (line > 0).any() or not (line < 0).any():
        return _Read(
            refused_reading(
                Refusal("colours_unknown", "cannot tell two kinds of checker from the points in this picture"),
                geometry,
                rectified,
            )
        )
    try:
        reading, model, positive_light = _read_as(rectified, geometry, features, learned.counts, config)
    except CalibrationError as exc:
        return _Read(refused_reading(Refusal("colours_unknown", str(exc)), geometry, rectified))
    if reading.refusal is not None:
        return _Read(reading)
    if not positive_light:
        learned = replace(learned, counts=-learned.counts, options=-learned.options)
    reading = _onto_bar(reading, learned.counts, model, config)
    sides = _sides(reading)
    misread = False
    if max(sides) > config.checkers:
        # more checkers than a side has (B4): something lies on the board, unless its piles were counted
        # long or a point or two misread (the layout that holds them is tried below)
        beyond = np.array(sides) - config.checkers - _piled(reading.counts)
        if beyond.max() > config.extra_checkers:  # past a misread point or two
            return _Read(refused_reading(_too_many(sides, config), geometry, rectified))
        misread = bool(beyond.max() > 0)
    reading, model, found = _rebalanced(rectified, geometry, features, learned, reading, model, config)
    if max(_sides(reading)) > config.checkers:
        return _Read(refused_reading(_too_many(_sides(reading), config), geometry, rectified))
    missing = _missing_some(reading, config, full_bar_counts=False)
    if misread and missing and not _missing_some(reading, config):
        # too many checkers, and, held to a side's, too few save on a bar that seemed to hold too many:
        # no misread point does both, something over the board does (a side short on the points is a
        # checker missed there, filled in below)
        return _Read(refused_reading(_too_many(sides, config), geometry, rectified))
    seen = np.minimum(np.abs(reading.counts), LINE) * np.sign(reading.counts)
    doubt = (seen != found) | (learned.margin(found) < MARGIN) | missing
    # checkers about equally bright (red and blue) are named light and dark
    # by a calibration (which side's home is where); a photo alone names
    # them by a guess, and no checker's colour is sure
    doubt |= (reading.counts != 0) & (abs(float(model.light_lab[0] - model.dark_lab[0])) < SAME_BRIGHTNESS)
    doubt |= min(_sides(reading)) < LEAST_LEARNED
    unfilled = reading
    if missing:
        # a reading short of checkers is wrong somewhere: the layout that holds them is the better guess
        balanced = _balanced(learned, reading, config)
        if balanced is not None:
            piled = (np.abs(reading.counts) > LINE) & (reading.counts * balanced > 0) & (np.abs(balanced) == LINE)
            reading = replace(reading, counts=np.where(piled, reading.counts, balanced))
    return _Read(
        _doubted(reading, doubt, config),
        short=missing,
        sides=_sides(unfilled),
        piled=int(_piled(unfilled.counts).sum()),
    )
