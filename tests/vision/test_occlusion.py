"""The empty board made at calibration, and where it is only a guess."""

from __future__ import annotations

import numpy as np

from tests.vision.vision_boards import START, calibrated, plain_board
from vision.colours import EMPTY, layout_states
from vision.features import measure
from vision.geometry import rectify
from vision.occlusion import borrowed_area, care_mask, empty_board


def test_the_empty_board_borrows_only_where_checkers_stood() -> None:
    board = plain_board("tournament")
    calibration = calibrated(board)
    geometry = calibration.geometry
    features = measure(rectify(board.shoot(START, 1000).image, geometry), geometry)
    occupied = layout_states(calibration.start_layout, geometry.slots, exact=True) != EMPTY
    empty = empty_board(features, occupied)
    area = borrowed_area(features, occupied)
    changed = np.abs(empty - features.thumbnail).max(axis=-1) > 0
    assert changed.any()
    assert not (changed & ~area).any()
    # every checker of the starting position lies in the borrowed area
    xs = np.rint(features.slot_xy[..., 0]).astype(int)
    ys = np.rint(features.slot_xy[..., 1]).astype(int)
    assert area[ys[occupied], xs[occupied]].all()
    assert not area[ys[~occupied.any(axis=-1)][:, 0], xs[~occupied.any(axis=-1)][:, 0]].any()


def test_half_a_checker_past_a_line_is_not_judged() -> None:
    """Players leave the last checker of a line loosely placed, and a tall
    checker's face leans away from a camera that is not straight above: the
    frame is not compared with the empty board there, but a checker further
    on still is."""
    board = plain_board("tournament")
    calibration = calibrated(board)
    geometry = calibration.geometry
    features = measure(rectify(board.shoot(START, 1000).image, geometry), geometry)
    checkers = np.zeros(features.slot_xy.shape[:3], np.bool_)
    checkers[0, 3, :2] = True
    counts = np.zeros((2, 12), np.int64)
    counts[0, 3] = 2
    care = care_mask(features, checkers, counts, np.zeros(len(features.bar_xy), np.bool_))
    xy = features.slot_xy[0, 3]

    def cared(point: np.ndarray) -> bool:
        return bool(care[int(round(float(point[1]))), int(round(float(point[0])))])

    # the last checker half a checker further out covers up to the next slot's middle
    assert not cared(xy[1]) and not cared(xy[1] + 0.9 * (xy[2] - xy[1]))
    assert cared(xy[3]) and cared(features.slot_xy[0, 5, 1])
