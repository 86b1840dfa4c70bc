"""The empty board made at calibration, and where it is only a guess."""

from __future__ import annotations

import numpy as np

from tests.vision.vision_boards import START, calibrated, plain_board
from vision.colours import EMPTY, layout_states
from vision.features import measure
from vision.geometry import rectify
from vision.occlusion import borrowed_area, empty_board


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
