"""The empty board made at calibration, and where it is only a guess."""

from __future__ import annotations

import numpy as np

from tests.vision.vision_boards import START, calibrated, plain_board
from vision.colours import EMPTY, layout_states
from vision.features import PATCH, measure
from vision.geometry import rectify
from vision.occlusion import borrowed_area, care_mask, empty_board, line_area


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


def test_the_side_of_a_lines_last_checker_is_not_judged_past_it() -> None:
    """A camera looking at a line of checkers from the board's middle sees
    the side of its last checker half a checker past it: the frame is not
    compared with the empty board there, but it is a slot further on."""
    board = plain_board("tournament")
    geometry = calibrated(board).geometry
    features = measure(rectify(board.shoot(START, 1000).image, geometry), geometry)
    counts = np.zeros((2, 12), np.int64)
    counts[0, 3] = 2
    checkers = np.zeros(features.slot_xy.shape[:3], np.bool_)
    checkers[0, 3, :2] = True
    care = care_mask(features, checkers, counts, np.zeros(len(features.bar_xy), np.bool_))
    last, beyond, further = features.slot_xy[0, 3, 1], features.slot_xy[0, 3, 2], features.slot_xy[0, 3, 3]
    side = last + 0.9 * (beyond - last)
    assert not care[int(round(float(side[1]))), int(round(float(side[0])))]
    assert care[int(round(float(further[1]))), int(round(float(further[0])))]


def test_a_piles_area_reaches_past_its_line_by_the_margin_asked() -> None:
    """A pile's upper layer stands higher than its line: the camera sees
    it, and its shadow, a little to the side, and the covered check leaves
    that out too."""
    board = plain_board("wood")
    geometry = calibrated(board).geometry
    features = measure(rectify(board.shoot(START, 1000).image, geometry), geometry)
    points = np.zeros((2, 12), np.bool_)
    points[1, 6] = True
    tight, wide = line_area(features, points), line_area(features, points, margin=PATCH // 2)
    x, y = (int(round(float(v))) for v in features.slot_xy[1, 6, 2])
    inside = np.flatnonzero(tight[y])
    assert inside.min() < x < inside.max()
    assert wide[y, inside.min() - PATCH // 2] and wide[y, inside.max() + PATCH // 2]  # a margin on either side...
    assert not wide[y, inside.min() - PATCH // 2 - 1] and not wide[y, inside.max() + PATCH // 2 + 1]  # ... no more
    assert tight.sum() < wide.sum() and not (tight & ~wide).any()
