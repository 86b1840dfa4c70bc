"""The empty board made at calibration, and where it is only a guess."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from tests.vision.vision_boards import START, calibrated, plain_board
from vision.colours import DISC, EMPTY, LIGHT, layout_states
from vision.features import PATCH, measure
from vision.geometry import rectify
from vision.occlusion import (
    NUDGE,
    bar_middle,
    between_bar_checkers,
    blobs,
    borrowed_area,
    care_mask,
    checker_rooms,
    empty_board,
    line_area,
    only_light,
    paste_checkers,
)
from vision.relight import same_surface


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
    care = care_mask(features, checker_rooms(features, checkers, counts))
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


def test_a_checker_a_little_off_its_place_is_pasted_where_it_lies() -> None:
    """Players leave checkers a little off their places: the checker the
    frame is compared with moves (up to ``NUDGE`` px) to where the frame
    shows it, so that only what no checker explains departs from it."""
    board = plain_board("tournament")
    calibration = calibrated(board)
    geometry = calibration.geometry
    assert calibration.empty_board is not None
    features = measure(rectify(board.shoot(START, 1000).image, geometry), geometry)
    model = calibration.colours
    row, col, k = 0, 8, 2  # a bare point's third slot, in the board's open field
    light, _ = model.checker_templates(features.on_board(features.slot_xy))
    template = light[row, col, k, :, :, :3]
    x, y = np.rint(features.slot_xy[row, col, k]).astype(int)
    colours = np.zeros(features.slot_xy.shape[:3], np.int8)
    colours[row, col, k] = LIGHT
    inner = DISC > 0
    for dx, dy in ((0, 0), (2, 0), (-1, 2), (NUDGE, -NUDGE)):
        frame = np.array(calibration.empty_board, np.float32)
        lies = np.zeros(frame.shape[:2], np.bool_)
        x0, y0 = x - PATCH // 2 + dx, y - PATCH // 2 + dy
        frame[y0 : y0 + PATCH, x0 : x0 + PATCH][inner] = template[inner]
        lies[y0 : y0 + PATCH, x0 : x0 + PATCH] = inner
        expected, discs = paste_checkers(
            calibration.empty_board, replace(features, thumbnail=frame), model, colours, np.zeros(0, np.int8)
        )
        assert (discs == lies).all(), (dx, dy)
        assert np.abs(expected - frame).max() < 1e-3, (dx, dy)


def _lab(bgr: np.ndarray) -> np.ndarray:
    return np.asarray(cv2.cvtColor(np.clip(np.rint(bgr), 0, 255).astype(np.uint8), cv2.COLOR_BGR2Lab), np.float32)


def _in_light(bgr: np.ndarray, light: np.ndarray) -> np.ndarray:
    """``bgr`` (sRGB) with its linear light scaled by ``light`` (h, w)."""
    return np.asarray(((bgr / 255) ** 2.2 * light[..., None]) ** (1 / 2.2) * 255, np.float32)


def test_only_light_keeps_the_boards_colour_and_its_edges() -> None:
    """Where a frame departs from the board faintly over a hand's area, the
    band along a sharp shadow's edge is the board in less light, its colour
    and its edges kept; a hand the board's colour hides its edges and
    brings a sharp outline; a hand of another colour is no light at all."""
    wood = np.float32([150, 185, 215])
    board = np.tile(wood, (64, 128, 1))
    board[:, ::16] = board[:, 1::16] = (40, 40, 140)  # a point's edge every 16 px
    expected = _lab(board)
    band = np.zeros(board.shape[:2], np.bool_)
    band[16:48, 40:88] = True
    ramp = np.clip((np.arange(128, dtype=np.float32) - 64) / 8 + 0.5, 0, 1)  # sharp: 8 px
    shadow = _in_light(board, np.tile(1 - 0.5 * ramp, (64, 1)))
    assert only_light(_lab(shadow), expected, band)
    for hand_colour in (wood * 0.75, np.float32([120, 160, 215])):
        hand = board.copy()
        hand[band] = hand_colour
        assert not only_light(_lab(hand), expected, band), hand_colour
    # the band's colour alone does not tell the brown hand: it keeps the wood's
    assert same_surface(_lab(wood[None, None] * 0.75)[0], _lab(wood[None, None])[0])[0]


def test_blobs_come_largest_first_and_count_the_pieces_a_joining_mask_connects_as_one() -> None:
    """What departs between checker after checker read on the bar comes in
    pieces the pasted discs cut apart; joined, they are one region, whose
    area is theirs alone."""
    mask = np.zeros((30, 10), np.bool_)
    mask[2:6, 2:6] = True  # 16 px
    mask[12:15, 2:6] = True  # 12 px
    mask[22:27, 2:7] = True  # 25 px
    found = blobs(mask)
    assert [area for area, _ in found] == [25, 16, 12]
    assert [int(region.sum()) for _, region in found] == [25, 16, 12] and found[0][1][24, 4]
    assert [area for area, _ in blobs(mask, least=16)] == [25, 16]
    joined = np.zeros_like(mask)
    joined[:, 4] = True
    [(area, region)] = blobs(mask, joined)
    assert area == 53 and (region == mask).all()
    assert blobs(np.zeros_like(mask), joined) == []


def test_only_the_bar_between_two_checkers_read_there_joins_what_departs() -> None:
    """What departs between checker after checker read on the bar is one
    thing; past the first and the last, or beside a lone checker (others
    there read on a second look, not pasted), it is not joined."""
    board = plain_board("wood")
    geometry = calibrated(board).geometry
    features = measure(rectify(board.shoot(START, 1000).image, geometry), geometry)
    probes = len(features.bar_xy)
    lone = np.zeros(probes, np.bool_)
    lone[probes // 2] = True
    assert not between_bar_checkers(features, lone).any()
    two = lone.copy()
    two[probes // 2 + 8] = True
    between = between_bar_checkers(features, two)
    rows = np.flatnonzero(between.any(axis=1))
    top, bottom = features.bar_xy[probes // 2, 1], features.bar_xy[probes // 2 + 8, 1]
    assert top <= rows.min() <= top + 1 and bottom - 1 <= rows.max() <= bottom
    assert not (between & ~bar_middle(features)).any()
