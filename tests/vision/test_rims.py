"""A checker's round rim as evidence besides its look (:mod:`vision.rims`):
measured where a checker stands and not on a bare point, kept per bare
slot at calibration, and weighing only slots the looks leave in doubt,
only towards a checker; circles of a checker's size where checkers stand."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from tests.vision.vision_boards import game_position, light_layout, plain_board
from vision.colours import DARK, EMPTY, LIGHT
from vision.geometry import make_geometry, rectify, slot_centres
from vision.read import geometry_from_corners
from vision.rims import (
    bar_light,
    bare_junctions,
    bare_rims,
    checker_rims,
    circled_slots,
    gradients,
    in_doubt,
    layer_rims,
    line_rims,
    loaded,
    rim_strength,
    rimless,
    saved,
    start_junctions,
    weigh_rims,
)

CORNERS = [(0, 0), (480, 0), (480, 400), (0, 400)]


def _board() -> tuple[np.ndarray, object]:
    """A flat green board (BGR) with cream triangles, and its geometry."""
    geometry = make_geometry(CORNERS, bar=(228.0, 252.0), pitch_px=33.0)
    board = np.full((400, 480, 3), (60, 140, 40), np.uint8)
    xs = slot_centres(geometry)[0, :, 0, 0]
    half = geometry.point_width_px / 2
    for x in xs:
        for base, tip in ((0, 160), (400, 240)):
            triangle = np.array([(x - half, base), (x + half, base), (x, tip)], np.int32)
            cv2.fillPoly(board, [triangle], (200, 225, 235))
    return board, geometry


def test_a_checker_shows_a_rim_a_bare_point_does_not() -> None:
    board, geometry = _board()
    centre = slot_centres(geometry)[0, 3, 0]
    radius = int(geometry.pitch_px / 2) - 1
    # a cream checker on the cream base of its point: alike in colour, but round
    cv2.circle(board, (int(centre[0]), int(centre[1])), radius, (210, 232, 240), -1, cv2.LINE_AA)
    cv2.circle(board, (int(centre[0]), int(centre[1])), radius, (120, 140, 150), 2, cv2.LINE_AA)
    strength = rim_strength(gradients(board), geometry)
    assert strength.shape == (2, 12, 5)
    bare = np.delete(strength[0, :, 0], 3)
    assert strength[0, 3, 0] > 2 * bare.max()


def test_calibration_keeps_only_slots_no_checker_hid_or_stood_before() -> None:
    strength = np.arange(2 * 12 * 5, dtype=np.float32).reshape(2, 12, 5)
    covered = np.zeros((2, 12, 6), np.bool_)
    covered[0, 0, :2] = True  # two checkers on top 1
    bare = bare_rims(strength, covered)
    assert np.isnan(bare[0, 0, :3]).all()  # under them, and just past them
    assert (bare[0, 0, 3:] == strength[0, 0, 3:]).all()
    assert (bare[1] == strength[1]).all()


def _frame() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Slot probabilities of a frame with sure bare slots and sure light
    checkers (top 1..8: a lone light checker each), rims measured as at
    calibration, light checkers' rims ten times stronger."""
    prob = np.zeros((2, 12, 6, 3), np.float32)
    prob[..., EMPTY] = 1.0
    prob[0, :8, 0] = (0.0, 1.0, 0.0)
    bare = np.random.default_rng(1).uniform(20, 30, (2, 12, 5)).astype(np.float32)
    strength = bare.copy()
    strength[0, :8, 0] = 250.0
    return prob, strength, bare


def test_a_doubtful_slot_with_a_rim_leans_to_a_checker() -> None:
    prob, strength, bare = _frame()
    prob[1, 4, 0] = (0.9, 0.1, 0.0)  # the looks say: most likely bare
    strength[1, 4, 0] = 150.0
    weighed = weigh_rims(prob, strength, bare, in_doubt(prob, bare, doubt=0.02), cap=20.0)
    assert weighed[1, 4, 0, LIGHT] > weighed[1, 4, 0, EMPTY]
    assert abs(weighed[1, 4, 0].sum() - 1.0) < 1e-5
    assert (
        np.delete(weighed.reshape(-1, 3), 4 * 6 + 12 * 6, axis=0)
        == np.delete(prob.reshape(-1, 3), 4 * 6 + 12 * 6, axis=0)
    ).all()


def test_where_no_checker_reads_surely_the_starting_position_s_rims_in_this_light_stand_in() -> None:
    prob, strength, bare = _frame()
    prob[0, :8, 0] = (0.03, 0.97, 0.0)  # a blurred frame: no checker read surely
    prob[1, 4, 0] = (0.9, 0.1, 0.0)
    strength[1, 4, 0] = 150.0
    doubtful = in_doubt(prob, bare, doubt=0.02)
    assert (weigh_rims(prob, strength, bare, doubtful, cap=20.0) == prob).all()
    states = np.zeros((2, 12, 6), np.int8)
    states[0, :8, 0] = LIGHT  # the starting position's light checkers, their rims as this frame's
    checkers = checker_rims(strength, states)
    assert np.isfinite(checkers[0]).all() and np.isnan(checkers[1]).all()  # no dark checker stood there
    weighed = weigh_rims(prob, strength, bare, doubtful, cap=20.0, checkers=checkers)
    assert weighed[1, 4, 0, LIGHT] > weighed[1, 4, 0, EMPTY]
    # in a frame whose every rim stands eight times calibration's (its light
    # or its sharpness changed), so do the checkers', far from the bare slots'
    weighed = weigh_rims(prob, 8 * strength, bare, doubtful, cap=20.0, checkers=checkers)
    assert weighed[1, 4, 0, LIGHT] > weighed[1, 4, 0, EMPTY]


def test_no_rim_never_makes_a_slot_bare() -> None:
    prob, strength, bare = _frame()
    prob[1, 4, 0] = (0.1, 0.9, 0.0)  # a light checker by its look, with no rim to see
    weighed = weigh_rims(prob, strength, bare, in_doubt(prob, bare, doubt=0.02), cap=20.0)
    assert (weighed == prob).all()


def test_past_a_checker_hidden_at_calibration_or_without_a_reference_nothing_is_weighed() -> None:
    prob, strength, bare = _frame()
    prob[0, 0, 1] = (0.9, 0.1, 0.0)  # past top 1's checker: its side and shadow
    strength[0, 0, 1] = 150.0
    prob[1, 5, 0] = (0.9, 0.1, 0.0)  # a slot the starting position hid
    strength[1, 5, 0] = 150.0
    bare[1, 5, 0] = np.nan
    assert (weigh_rims(prob, strength, bare, in_doubt(prob, bare, doubt=0.02), cap=20.0) == prob).all()
    assert (weigh_rims(prob, strength, bare, in_doubt(prob, bare, doubt=0.02), cap=20.0) == prob).all()


def test_a_colour_whose_rims_do_not_stand_out_gives_no_evidence() -> None:
    prob, strength, bare = _frame()
    prob[..., [LIGHT, DARK]] = prob[..., [DARK, LIGHT]]  # dark checkers on dark felt...
    strength[0, :8, 0] = 30.0  # ... whose rims stand out no more than the bare slots'
    prob[1, 4, 0] = (0.9, 0.0, 0.1)
    strength[1, 4, 0] = 150.0
    assert (weigh_rims(prob, strength, bare, in_doubt(prob, bare, doubt=0.02), cap=20.0) == prob).all()
    strength[0, :8, 0] = 250.0
    assert weigh_rims(prob, strength, bare, in_doubt(prob, bare, doubt=0.02), cap=20.0)[1, 4, 0, DARK] > 0.5


def test_a_line_with_a_slot_showing_no_rim_is_a_hand_read_as_checkers() -> None:
    """A hand or a sleeve of the checkers' colour read as checkers shows no
    round rim: a slot of a line far weaker than the frame's lines of that
    colour marks its point. A pile's upper layer lies over its rims, and a
    colour with too few checkers in lines sets no level."""
    counts = np.zeros((2, 12), np.int64)
    counts[0, [0, 4, 7]] = (3, 2, 7)  # light: two lines and a pile
    counts[1, [2, 9]] = (-2, -1)  # dark: three checkers only
    strength = np.full((2, 12, 5), 100.0, np.float32)
    strength[0, 4, 1] = 12.0  # a finger read as the second checker of a line
    strength[0, 7, 2] = 5.0  # the pile's third slot, under its upper layer
    strength[1, 9, 0] = 5.0  # dark: too few to tell
    flagged = rimless(strength, counts, share=0.15)
    assert np.argwhere(flagged).tolist() == [[0, 4]]
    strength[0, 4, 1] = 20.0  # a fifth of the rest: a checker's rim, faint
    assert not rimless(strength, counts, share=0.15).any()
    strength[0, 4, 2] = 1.0  # past the line: a bare slot
    assert not rimless(strength, counts, share=0.15).any()


def test_the_rims_of_lines_are_measured_on_their_slots_alone() -> None:
    board, geometry = _board()
    grads = gradients(board)
    counts = np.zeros((2, 12), np.int64)
    counts[0, [0, 5]] = (2, -7)  # a line of two, and a pile (not judged: rimless)
    counts[1, 3] = -5
    lines = line_rims(grads, geometry, counts)
    held = ~np.isnan(lines)
    assert held.sum() == 7 and held[0, 0, :2].all() and held[1, 3].all()
    assert np.allclose(lines[held], rim_strength(grads, geometry)[held])


def test_glare_raising_a_bare_points_edges_by_half_is_no_rim() -> None:
    prob, strength, bare = _frame()
    prob[1, 4, 0] = (0.8, 0.2, 0.0)  # the wide base of a light point in a lamp's glare
    strength[1, 4, 0] = 1.5 * bare[1, 4, 0]
    assert (weigh_rims(prob, strength, bare, in_doubt(prob, bare, doubt=0.02), cap=20.0) == prob).all()


def test_a_calibration_keeps_the_bare_rims_and_one_from_before_them_has_none() -> None:
    bare = np.array([[[20.0, np.nan, 31.25]]], np.float32)
    kept = json.loads(json.dumps({"rims": saved(bare)}))
    np.testing.assert_allclose(loaded(kept), [[[20.0, np.nan, 31.2]]], rtol=1e-3)
    assert loaded({"sharpness": 0.4}) is None and loaded(None) is None


def test_the_bar_s_rims_in_this_light_are_those_of_the_probes_read_as_the_bare_bar() -> None:
    rise = np.array([1.5, 1.4, 9.0, 1.6, 1.5, 1.7], np.float32)  # a checker's rim at the third probe
    bare = np.array([True, True, False, True, True, True])
    assert bar_light(rise, bare) == pytest.approx(1.5)
    assert bar_light(rise, bare & (np.arange(6) < 3)) is None  # too few to tell


def _checker(board: np.ndarray, centre: np.ndarray, radius: int) -> None:
    """A dark checker on dark felt: alike in colour, with a rim a little
    lighter than its face."""
    x, y = int(round(float(centre[0]))), int(round(float(centre[1])))
    cv2.circle(board, (x, y), radius, (45, 50, 55), -1, cv2.LINE_AA)
    cv2.circle(board, (x, y), radius, (95, 100, 105), 2, cv2.LINE_AA)


def test_a_layer_on_a_full_line_shows_its_rims() -> None:
    geometry = make_geometry(CORNERS, bar=(228.0, 252.0), pitch_px=33.0)
    board = np.full((400, 480, 3), (40, 45, 50), np.uint8)
    centres = slot_centres(geometry)[0, 4]
    radius = int(geometry.pitch_px / 2) - 1
    noise = np.random.default_rng(4).normal(0, 4, board.shape)

    def photo(board: np.ndarray) -> np.ndarray:
        return np.clip(board + noise, 0, 255).astype(np.uint8)

    for k in range(5):
        _checker(board, centres[k], radius)
    assert layer_rims(gradients(photo(board)), geometry, 0, 4) == 0  # two touching rims at each junction
    # a sixth over the first junction, then a seventh over the second
    _checker(board, (centres[0] + centres[1]) / 2, radius)
    assert layer_rims(gradients(photo(board)), geometry, 0, 4) == 1
    _checker(board, (centres[1] + centres[2]) / 2, radius)
    assert layer_rims(gradients(photo(board)), geometry, 0, 4) == 2
    # the same line on the bottom row, its edge below
    assert layer_rims(gradients(photo(board)[::-1].copy()), geometry, 1, 4) == 2


@pytest.mark.parametrize("style", ["gold-white", "dark-felt", "wood"])
def test_circles_of_a_checkers_size_stand_on_checkers_and_on_no_bare_slot(style: str) -> None:
    """Rendered boards: a circle of a checker's size is centred on most
    slots a checker covers (gold checkers on gold points too), and on none
    left bare."""
    position, mover = game_position(21, 14)
    layout = light_layout(position, mover)
    shot = plain_board(style).shoot(layout, 22)
    geometry = geometry_from_corners(shot.image, shot.corners)
    circled = circled_slots(rectify(shot.image, geometry), geometry)
    counts = np.abs(np.array([layout.top, layout.bottom]))[:, :, None]
    covered = np.arange(circled.shape[2])[None, None, :] < counts
    assert not (circled & ~covered).any()
    assert (circled & covered).sum() >= 0.8 * covered.sum()


def test_a_layer_stands_out_from_its_junctions_bare_where_one_past_it_shows_more_rim_bare() -> None:
    """A bare junction's rims depend on its place (on bench boards, beside
    a line's far end the point narrows and the felt shows): here a ring of
    glare on the last junction, in every frame, stands out more than the
    first junction under a layer's checker. Against the junctions past it,
    that checker is not seen; against the same junctions bare (the
    starting position's line of five on that point), it is."""
    geometry = make_geometry(CORNERS, bar=(228.0, 252.0), pitch_px=33.0)
    board = np.full((400, 480, 3), (40, 45, 50), np.uint8)
    centres = slot_centres(geometry)[0, 4]
    radius = int(geometry.pitch_px / 2) - 1
    noise = np.random.default_rng(4).normal(0, 4, board.shape)

    def grads(board: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        far = np.rint((centres[3] + centres[4]) / 2).astype(int)
        glared = board.copy()
        cv2.circle(glared, (int(far[0]), int(far[1])), radius, (230, 235, 240), 3, cv2.LINE_AA)
        return gradients(np.clip(glared + noise, 0, 255).astype(np.uint8))

    for k in range(5):
        _checker(board, centres[k], radius)
    counts = np.zeros((2, 12), np.int64)
    counts[0, 4] = 5
    bare = bare_junctions(start_junctions(grads(board), geometry, counts), 0, 4, LIGHT, 0.0)
    assert bare is not None and bare[3] > 3 * bare[0]
    _checker(board, (centres[0] + centres[1]) / 2, radius)  # a sixth over the first junction
    assert layer_rims(grads(board), geometry, 0, 4) == 0
    assert layer_rims(grads(board), geometry, 0, 4, bare=bare) == 1


def test_a_bare_line_s_junctions_are_those_of_the_starting_line_of_its_colours_in_the_frame_s_light() -> None:
    geometry = make_geometry(CORNERS, bar=(228.0, 252.0), pitch_px=33.0)
    rng = np.random.default_rng(5)
    grads = gradients(rng.integers(0, 255, (400, 480, 3), dtype=np.uint8))
    counts = np.zeros((2, 12), np.int64)
    counts[0, 4], counts[1, 0] = 5, -5  # light on a point of the first colour, dark on one of the second
    start = start_junctions(grads, geometry, counts)
    assert np.isfinite(start[0, 0]).all() and np.isfinite(start[1, 1]).all()
    assert np.isnan(start[0, 1]).all() and np.isnan(start[1, 0]).all()
    # bottom 10, on the other row, is a point of top 5's colour
    np.testing.assert_allclose(bare_junctions(start, 1, 9, LIGHT, 0.0), start[0, 0], rtol=1e-5)
    assert bare_junctions(start, 0, 5, LIGHT, 0.0) is None  # no light line of five on that colour
    np.testing.assert_allclose(bare_junctions(start, 0, 3, DARK, np.log(2.0)), 2 * start[1, 1] + 1, rtol=1e-5)
    kept = json.loads(json.dumps({"junctions": saved(start)}))
    np.testing.assert_allclose(loaded(kept, "junctions"), start, rtol=1e-2)


@pytest.mark.parametrize(("rims", "layer"), [((100.0, 45.0, 20.0, 20.0), 1), ((100.0, 80.0, 20.0, 20.0), 2)])
def test_the_junction_past_a_layer_s_checker_holds_one_only_with_a_rim_near_that_checker_s(
    monkeypatch: pytest.MonkeyPatch, rims: tuple[float, ...], layer: int
) -> None:
    """A layer's checker, raised, lends the junction past it part of its
    rim: more than twice that junction's bare rim, but well short of the
    checker's own (a second checker of the layer shows one as strong)."""
    monkeypatch.setattr("vision.rims.junction_rims", lambda *args: np.array(rims, np.float32))
    geometry = make_geometry(CORNERS, bar=(228.0, 252.0), pitch_px=33.0)
    bare = np.full(4, 20.0, np.float32)
    assert layer_rims((np.zeros(1), np.zeros(1)), geometry, 0, 4, bare=bare) == layer
