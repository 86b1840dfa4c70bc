"""Where the checkers of each line stand along their point.

The slots are laid out for checkers that touch, one pitch apart from the
board's edge, as tidy players leave them. A hurried hand leaves gaps: the
third checker of a line may stand a third of a checker farther than its
slot, and each slot then shows half of one checker and half of the next,
like nothing learned. So each point's slots follow its line, from the
edge: a slot where no checker's look fits closely moves up to
:data:`MOST_GAP_ROWS` ninths of a pitch farther than the one before it,
to where one fits best (each row moved costs a little) if one fits
closely there, and the slots past the line keep the line's last shift.
Past the first slot, a slot whose place fits the bare point better than a
checker's look fits anywhere it may move ends the line there: the tip of
the point beyond may look a little like a checker. A pile's checkers
overlap: where a checker lies across the end of the line so far (one of a
pile's upper layer, or of a pile squeezed into one long line), the slots
stay; and where the line then finds no checker ahead, it was a pile from
the first slot (its upper layer, seen at a slant, lies past the slots it
rests between and drew them out): all its slots stay where they were. The
empty look moves with the slot (the slots' empty looks lie end to end
along the point), so a bare point reads as bare wherever its slots lie.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from vision.colours import DARK, EMPTY, LIGHT, LINE, ColourModel
from vision.features import PATCH, SlotFeatures

if TYPE_CHECKING:
    from collections.abc import Callable

FloatArray = npt.NDArray[np.float32]
ShiftArray = npt.NDArray[np.int64]

#: A checker of a line stands at most this many ninths of a pitch (rows of
#: a slot's patch) farther from the one before it than touching: a gap of
#: two thirds of a checker's radius.
MOST_GAP_ROWS = 3

#: A slot moves only where a checker's look fits it better there by this
#: many spreads for each row moved: the noise of a tidy line's slots must
#: not walk them off their checkers.
SHIFT_COST_SPREADS = 0.3

#: Where a checker fits this closely (in spreads) half a pitch before a
#: slot, the line there is a pile: its slots stay where they are. Of the
#: slots moved on ``bench/loose.py`` (seed 1), the piles' fitted within
#: 2.33 there, nine in ten of the lines' farther than 2.69.
PILED_SPREADS = 2.6

#: Rows of a slot's patch grow away from the board's edge: down the top row's points, up the bottom row's.
AWAY = np.array([1.0, -1.0], np.float32)[:, None, None]
BOTTOM = np.array([False, True])[:, None, None]


class _Strips(NamedTuple):
    """Each point's looks along it, rows (2, 12, R, T, C) from the board's
    edge on, turned like the slots' patches: as seen, empty, and empty on
    the empty board (or None)."""

    seen: FloatArray
    background: FloatArray
    bare: FloatArray | None


def _strips(features: SlotFeatures, model: ColourModel) -> _Strips:
    """The points' strips, long enough for every slot moved by as much as
    a line allows (the empty looks past the last slot repeat its last row)."""
    slots = features.patches.shape[2]
    beyond = -(-MOST_GAP_ROWS * LINE // PATCH)  # patches past the last slot
    onwards = np.arange(1, beyond + 1, dtype=np.float32)[:, None] * [0, PATCH] * AWAY[..., None]
    xy = np.concatenate([features.slot_xy, features.slot_xy[:, :, -1:] + onwards], axis=2).astype(np.float32)
    seen = features.cut(xy, np.broadcast_to(BOTTOM, xy.shape[:3]))
    rows = (slots + beyond) * PATCH

    def laid(looks: FloatArray) -> FloatArray:
        strip = looks.reshape(2, 12, slots * PATCH, *looks.shape[4:])
        return np.concatenate([strip, np.repeat(strip[:, :, -1:], rows - slots * PATCH, axis=2)], axis=2)

    return _Strips(
        seen.reshape(2, 12, rows, *seen.shape[4:]),
        laid(model.background),
        None if model.bare is None else laid(model.bare),
    )


def _cut(strip: FloatArray, first: ShiftArray) -> FloatArray:
    """Patches (2, 12, K, T, T, C) of ``strip`` (2, 12, R, T, C), T rows from rows ``first`` (2, 12, K) on."""
    rows = first[..., None] + np.arange(PATCH)  # (2, 12, K, T)
    return np.asarray(strip[np.arange(2)[:, None, None, None], np.arange(12)[None, :, None, None], rows], np.float32)


def _moved(
    features: SlotFeatures, model: ColourModel, strips: _Strips, slots: npt.NDArray[np.intp], shifts: ShiftArray
) -> tuple[SlotFeatures, ColourModel]:
    """The slots ``slots`` (K,) of every point, moved ``shifts`` (2, 12, K)
    rows along it, as features and a model of K slots."""
    first = slots * PATCH + shifts
    slot_xy = features.slot_xy[:, :, slots].copy()
    slot_xy[..., 1] += AWAY * shifts
    return replace(features, patches=_cut(strips.seen, first), slot_xy=slot_xy), replace(
        model,
        background=_cut(strips.background, first),
        background_spread=model.background_spread[:, :, slots],
        bare=None if strips.bare is None else _cut(strips.bare, first),
        # the kin's looks lie where their own slots do: a slot moved keeps its own
        kin=None if model.kin is None else model.kin[:, :, slots] & (shifts == 0),
    )


def line_shifts(
    features: SlotFeatures,
    model: ColourModel,
    z_scores: Callable[[SlotFeatures, ColourModel], FloatArray],
    *,
    fits: float,
) -> ShiftArray:
    """How far (2, 12, S) each slot of every point moves along it onto the
    checkers of its line, in rows of its patch (see the module's docs and
    :func:`shifted`). ``z_scores`` gives the distances in spreads
    (2, 12, K, 3) of every slot of the features and model it is given
    from its empty look and a light and a dark checker's; a checker's look
    fits a slot closely within ``fits`` spreads."""
    slots = features.patches.shape[2]
    model = model.resized(slots)
    strips = _strips(features, model)
    shifts = np.zeros((2, 12, slots), np.int64)
    following = np.ones((2, 12), np.bool_)
    steps = np.arange(MOST_GAP_ROWS + 1)
    line = min(slots, LINE)
    pile = np.zeros((2, 12), np.bool_)
    for k in range(line):
        so_far = shifts[:, :, k - 1] if k else shifts[:, :, 0]
        # the shifts slot k may take, and half a pitch before it: where the
        # line so far ends, a checker of a pile's upper layer (or of a pile
        # squeezed into one long line) lies, and its slots must stay
        at = np.concatenate([so_far[..., None] - PATCH // 2, so_far[..., None] + steps], axis=-1)
        at[..., 0] = np.maximum(at[..., 0], -k * PATCH)  # (none before the first)
        z = z_scores(*_moved(features, model, strips, np.full(at.shape[-1], k), at))
        checker = np.minimum(z[..., LIGHT], z[..., DARK])
        piled = (checker[..., 0] <= PILED_SPREADS) & (k > 0)
        z, checker, at = z[..., 1:, :], checker[..., 1:], at[..., 1:]
        best = np.argmin(checker + SHIFT_COST_SPREADS * steps, axis=-1)[..., None]
        # where a checker fits closely where it stands, it stays; elsewhere
        # it moves only to where one does, and fits better than the bare
        # point where it stands (past the line's first slot: there the line
        # ends)
        fit = np.take_along_axis(checker, best, axis=-1)[..., 0]
        nowhere = fit > fits
        bare = (fit >= z[..., 0, EMPTY]) & (k > 0)
        best[(checker[..., 0] <= fits) | piled | nowhere | bare] = 0
        following &= np.take_along_axis(checker < z[..., EMPTY], best, axis=-1)[..., 0]
        # a checker across the end of the line so far, and none closely
        # ahead while the line goes on: the slots followed a pile's upper layer
        pile |= piled & nowhere & following
        shifts[:, :, k:] = np.where(following, np.take_along_axis(at, best, axis=-1)[..., 0], so_far)[..., None]
        if not following.any():
            break
    shifts[pile] = 0
    return shifts


def shifted(features: SlotFeatures, model: ColourModel, shifts: ShiftArray) -> tuple[SlotFeatures, ColourModel]:
    """``features`` and ``model`` with every slot (2, 12, S) moved ``shifts``
    rows of its patch along its point, away from the board's edge: its
    patch cut there, its empty looks taken from those of the point's slots
    laid end to end, its junction halfway to the next slot."""
    slots = features.patches.shape[2]
    model = model.resized(slots)
    if not shifts.any():
        return features, model
    moved, model = _moved(features, model, _strips(features, model), np.arange(slots), shifts)
    if features.junction_xy is not None:
        # a junction lies where two checkers of the line meet: halfway between their slots
        count = features.junction_xy.shape[2]
        junction_xy = features.junction_xy.copy()
        following_slot = np.minimum(np.arange(count) + 1, slots - 1)
        junction_xy[..., 1] += AWAY * (shifts[:, :, :count] + shifts[:, :, following_slot]) / 2
        junctions = features.cut(junction_xy, np.broadcast_to(BOTTOM, junction_xy.shape[:3]))
        moved = replace(moved, junction_xy=junction_xy, junctions=junctions)
    return moved, model
