"""Slots that follow the checkers of a line left apart (vision.lines)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from tests.vision.vision_boards import START, bench_board, calibrated, game_position, light_layout, plain_board
from vision.calibration import Calibration, calibrate
from vision.features import PATCH, SlotFeatures, measure
from vision.geometry import rectify
from vision.layout import Layout
from vision.lines import line_shifts, shifted
from vision.read import line_z_scores, read_board
from vision.render import render


def _features(calibration: Calibration, image: np.ndarray) -> SlotFeatures:
    geometry = calibration.geometry
    return measure(rectify(image, geometry), geometry, empty=calibration.empty_board)


def _shifts(calibration: Calibration, features: SlotFeatures) -> np.ndarray:
    z_scores = functools.partial(line_z_scores, config=calibration.read)
    return line_shifts(features, calibration.colours, z_scores, fits=calibration.read.loose_fit_spreads)


def test_a_slot_moved_a_whole_pitch_along_its_point_is_the_next_slot() -> None:
    """The slots of a point lie end to end, a patch's height apart: moved
    that far, a slot's patch, its empty looks and its place are the next
    slot's, on both rows (the bottom row's patches are turned)."""
    calibration = calibrated(plain_board("wood"))
    features = _features(calibration, plain_board("wood").shoot(START, 1).image)
    model = calibration.colours.resized(features.patches.shape[2])
    shifts = np.zeros(features.patches.shape[:3], np.int64)
    shifts[:, :, 1] = PATCH
    moved, moved_model = shifted(features, model, shifts)
    np.testing.assert_allclose(moved.patches[:, :, 1], features.patches[:, :, 2], atol=0.01)
    np.testing.assert_allclose(moved.slot_xy[:, :, 1], features.slot_xy[:, :, 2], atol=0.01)
    np.testing.assert_array_equal(moved_model.background[:, :, 1], model.background[:, :, 2])
    np.testing.assert_allclose(moved.patches[:, :, 0], features.patches[:, :, 0], atol=0.01)
    np.testing.assert_array_equal(moved_model.background[:, :, 0], model.background[:, :, 0])


@pytest.mark.parametrize("style", ["felt-green", "wood", "dark-felt"])
def test_a_tidy_board_and_its_piles_keep_their_slots(style: str) -> None:
    """Touching checkers fit their slots: none moves, on lines nor piles
    (a pile's upper layer lies half a pitch past each slot, and the slots
    must not walk onto it)."""
    calibration = calibrated(plain_board(style))
    piles = Layout(top=(-7, 0, 0, 0, 0, 0, 0, -3, 0, 0, 0, 6), bottom=(5, 0, 0, 0, 0, -5, 0, 0, 0, 4, 0, 0))
    for layout in (START, piles):
        shifts = _shifts(calibration, _features(calibration, plain_board(style).shoot(layout, 2).image))
        assert not shifts.any(), np.argwhere(shifts.any(axis=-1))


def test_a_line_that_ends_on_bare_board_is_not_followed_onto_the_tip_of_its_point() -> None:
    """A line of four on top 7; its fifth slot fits the bare point better
    than any checker's look fits anywhere the slot may move: the line ends
    there, and the slots are not walked a third of a pitch on, onto a
    point's tip that looks a little like a checker (bench seed 3, photo
    47: a wooden board's line of four was read as five). The looks here
    are given as distances in spreads along the point, one row of a
    slot's patch at a time."""
    calibration = calibrated(plain_board("wood"))
    features = _features(calibration, plain_board("wood").shoot(START, 1).image)
    start = features.slot_xy[0, 6, 0, 1]
    rows = np.arange(60)
    line = np.abs(rows[:, None] - np.array([0, 9, 18, 27])).min(axis=1)
    checker = np.where(rows < 32, 0.5 + 0.6 * line, np.interp(rows, [32, 36, 39, 60], [3.4, 3.3, 2.2, 2.2]))
    empty = np.where((rows >= 32) & (rows <= 37), 1.9, 5.0)

    def z_scores(moved: SlotFeatures, _model: object) -> np.ndarray:
        z = np.zeros(moved.slot_xy.shape[:3] + (3,), np.float32)
        z[..., 0], z[..., 1:] = 0.5, 6.0  # every other point bare
        at = np.clip(np.rint(moved.slot_xy[0, 6, :, 1] - start).astype(int), 0, len(rows) - 1)
        z[0, 6] = np.stack([empty[at], checker[at], checker[at] + 1.0], axis=-1)
        return z

    shifts = line_shifts(features, calibration.colours, z_scores, fits=calibration.read.loose_fit_spreads)
    assert not shifts.any(), shifts[0, 6]


def test_a_pile_whose_upper_layer_lies_where_a_line_left_apart_would_go_keeps_its_slots() -> None:
    """Seven light checkers on bottom 11 of a dark felt board (bench seed
    1, board 49): a line of five with two on top. Seen at a slant, the
    second layer lies a third of a pitch past the slots it rests between,
    and the second slot, half over it, fit no checker closely: the slots
    followed it a third of a pitch out, then found no checker there further
    on, and half a pitch back, where the line's own checkers lie. The line
    was a pile, and the point was read as six. The slots stay, and the pile
    is read as seven (not surely: its second layer is seen at a slant)."""
    look, start, _ = bench_board(1, 49)
    calibration = calibrate(start.image, start.corners)
    layout = Layout(
        top=(0, 0, 0, 0, -1, 0, 0, 1, -2, 0, -4, -1),
        bottom=(-1, 0, 0, 0, 0, 0, -2, -1, 0, 2, 7, -3),
        bar_light=1,
        off_light=4,
    )
    for seed in (1, 4, 8):
        image = render(layout, rng=np.random.default_rng(seed), **look).image
        shifts = _shifts(calibration, _features(calibration, image))
        assert not shifts[1, 10].any(), shifts[1, 10]
        reading = read_board(image, calibration)
        assert reading.refusal is None, reading.refusal
        assert (reading.layout().top, reading.layout().bottom) == (layout.top, layout.bottom)


def test_checkers_left_well_apart_are_read_and_their_slots_follow_them() -> None:
    """A hand left the checkers of each line well apart (0.4 of a radius
    between them on average): the slots laid out for touching checkers each
    showed part of one, the lines were read long, and the frame was refused
    as 21 dark checkers on the board (B4). The slots of each line now follow
    its checkers, each no nearer the edge than the one before it, and the
    board is read right."""
    calibration = calibrated(plain_board("felt-green"))
    position, mover = game_position(3, 14)
    layout = light_layout(position, mover)
    image = plain_board("felt-green").shoot(layout, 3, gaps=0.4, gaps_seed=2).image
    shifts = _shifts(calibration, _features(calibration, image))
    assert (np.diff(shifts, axis=-1) >= 0).all()
    lines = np.abs(np.array([layout.top, layout.bottom])) >= 3
    assert (shifts[lines].max(axis=-1) > 0).sum() >= lines.sum() // 2
    reading = read_board(image, calibration)
    assert reading.refusal is None, reading.refusal
    assert (reading.layout().top, reading.layout().bottom) == (layout.top, layout.bottom)
