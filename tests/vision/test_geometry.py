"""Geometry: corners, rectification, the bar, slots, lens and folding boards,
checked against independent computations."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.vision.vision_boards import START, game_position, light_layout, plain_board, random_board
from vision.errors import GeometryError
from vision.geometry import (
    WORKING_SIDE,
    BoardGeometry,
    Lens,
    bar_slot_centres,
    check_turn,
    find_bar,
    format_corners,
    make_geometry,
    parse_corners,
    point_x_ranges,
    rectify,
    slot_centres,
    to_image,
    working_frame,
)

BGR = tuple[int, int, int]


def _pattern(
    width: int = 480,
    height: int = 400,
    bar: tuple[int, int] = (216, 264),
    *,
    field: BGR = (60, 120, 40),
    points: tuple[BGR, BGR] = ((210, 215, 215), (40, 40, 150)),
    bar_colour: BGR = (30, 50, 80),
    trim: BGR | None = None,
) -> np.ndarray:
    """A flat board drawn in rectified coordinates: felt, alternating
    triangles, a bar (edged with a ``trim`` 3 px wide, if given)."""
    board = np.full((height, width, 3), field, np.uint8)
    u = bar[0] / 6
    for i in range(12):
        x0 = i * u if i < 6 else bar[1] + (i - 6) * u
        for top in (True, False):
            colour = points[(i + top) % 2]
            base, tip = (0, 0.42 * height) if top else (height, 0.58 * height)
            tri = np.array([[x0, base], [x0 + u, base], [x0 + u / 2, tip]], np.int32)
            cv2.fillPoly(board, [tri], colour)
    if trim is not None:
        cv2.rectangle(board, (bar[0], 0), (bar[1] - 1, height - 1), trim, -1)
    inset = 0 if trim is None else 3
    cv2.rectangle(board, (bar[0] + inset, 0), (bar[1] - 1 - inset, height - 1), bar_colour, -1)
    return board


def _project(board: np.ndarray, corners: np.ndarray, size: tuple[int, int] = (1280, 720)) -> np.ndarray:
    h, w = board.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    matrix = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    image = np.full((size[1], size[0], 3), (90, 90, 90), np.uint8)
    cv2.warpPerspective(board, matrix, size, dst=image, borderMode=cv2.BORDER_TRANSPARENT)
    return image


CORNERS = np.float32([[300, 120], [1010, 90], [1060, 650], [250, 610]])


def test_parse_corners_round_trip() -> None:
    corners = parse_corners("10,20 110,25 115,90 5,95")
    assert corners.shape == (4, 2)
    assert parse_corners(format_corners(corners)).tolist() == corners.tolist()


@pytest.mark.parametrize(
    "text",
    ["", "1,2 3,4", "a,b c,d e,f g,h", "0,0 100,0 100,100", "0,0 0,100 100,100 100,0", "0,0 1,0 1,1 0,1"],
)
def test_parse_corners_rejects_bad_input_naming_it(text: str) -> None:
    with pytest.raises(GeometryError) as err:
        parse_corners(text)
    assert repr(text) in str(err.value) or "corners" in str(err.value)


def test_a_corner_given_twice_is_named() -> None:
    """Two corners a pixel apart (one clicked twice) still make a convex
    quadrilateral of a fair area, which is a triangle: the corners name the
    two and say what is wrong, instead of a board read off its place."""
    with pytest.raises(GeometryError) as err:
        parse_corners("399.5,247.9 400,248 970.6,590.5 471.1,668.9")
    assert "TL and TR are 1 px apart" in str(err.value) and "given twice" in str(err.value)
    parse_corners(format_corners(CORNERS))  # a board seen from the side keeps its far side long enough


def test_rectify_inverts_a_known_homography() -> None:
    board = _pattern()
    image = _project(board, CORNERS)
    geometry = BoardGeometry(tuple(map(tuple, CORNERS.tolist())), (480, 400), (216.0, 264.0), 36.0)
    rectified = rectify(image, geometry)
    # independent check: compare with the drawn board away from the edges
    inner = (slice(8, -8), slice(8, -8))
    diff = np.abs(rectified[inner].astype(int) - board[inner].astype(int)).mean()
    assert diff < 12


def test_a_frame_larger_than_the_reader_works_on_is_shrunk_with_its_corners() -> None:
    """A 12-megapixel photo of the board is read as the frame of the size
    the reader's thresholds in camera pixels were set on: its corners
    still lie on the board's corners, and it rectifies to the same board."""
    board = _pattern()
    image = _project(board, CORNERS)
    big = cv2.resize(image, None, fx=4.0, fy=4.0, interpolation=cv2.INTER_CUBIC)
    small, corners = working_frame(big, (CORNERS + 0.5) * 4.0 - 0.5)  # pixel centres
    assert max(small.shape[:2]) == WORKING_SIDE
    scale = small.shape[1] / big.shape[1]
    assert np.allclose(corners, (CORNERS + 0.5) * 4.0 * scale - 0.5, atol=1e-3)
    rectified = rectify(small, BoardGeometry(tuple(map(tuple, corners.tolist())), (480, 400), (216.0, 264.0), 36.0))
    inner = (slice(8, -8), slice(8, -8))
    assert np.abs(rectified[inner].astype(int) - board[inner].astype(int)).mean() < 12
    # a frame no larger is left as it is
    same, kept = working_frame(image, CORNERS)
    assert same is image
    assert np.array_equal(kept, CORNERS)


def test_to_image_maps_rectified_corners_to_the_image_corners() -> None:
    geometry = BoardGeometry(tuple(map(tuple, CORNERS.tolist())), (480, 400), (216.0, 264.0), 36.0)
    back = to_image(geometry, [[0, 0], [480, 0], [480, 400], [0, 400]])
    assert np.allclose(back, CORNERS, atol=0.5)


def test_find_bar_finds_the_drawn_bar() -> None:
    for bar in ((216, 264), (222, 258), (205, 275)):
        x0, x1 = find_bar(_pattern(bar=bar))
        assert abs(x0 - bar[0]) <= 3 and abs(x1 - bar[1]) <= 3, (bar, x0, x1)


def test_find_bar_finds_a_bar_of_the_fields_colour_by_its_edges() -> None:
    """A dark bar edged with a darker trim on a dark field, between gold and
    grey points (bench photos of gold-and-white boards): the columns beside
    the bar are mostly field, so a band a third of a point wider, reaching
    the light triangles, differs far more from what lies beside it. Its
    sides are no straight edges, and the bar's are."""
    for bar in ((216, 264), (222, 258), (205, 275)):
        board = _pattern(
            bar=bar,
            field=(46, 45, 40),
            points=((68, 167, 212), (185, 188, 188)),
            bar_colour=(51, 41, 33),
            trim=(25, 22, 20),
        )
        x0, x1 = find_bar(board)
        assert abs(x0 - bar[0]) <= 3 and abs(x1 - bar[1]) <= 3, (bar, x0, x1)


def test_make_geometry_finds_the_bar_of_a_rendered_board() -> None:
    shot = plain_board("felt-green").shoot(START, 1)
    geometry = make_geometry(shot.corners, shot.image)
    width = geometry.size[0]
    expected = (shot.bar_fraction[0] * width, shot.bar_fraction[1] * width)
    assert abs(geometry.bar[0] - expected[0]) < 0.02 * width
    assert abs(geometry.bar[1] - expected[1]) < 0.02 * width


@pytest.mark.parametrize(("seed", "style"), [(3, "wood"), (5, "felt-green"), (11, "tournament"), (2, "red-white")])
def test_corners_a_quarter_turn_off_are_named_with_the_order_that_fits(seed: int, style: str) -> None:
    """The edge TL->TR runs along a row of twelve points: corners given a
    quarter turn off (either way) are bad input, named with the order that
    fits, which passes; the corners as given right, or half a turn off
    (the two rows swapped, which reads as well), pass. (Read as given, a
    quarter turn off is refused as something over the middle of the board.)"""
    position, mover = game_position(seed, 12)
    shot = random_board(seed, style).shoot(light_layout(position, mover), seed)
    right = np.asarray(shot.corners, np.float32)
    check_turn(shot.image, right)
    check_turn(shot.image, np.roll(right, 2, axis=0))
    for turned in (np.roll(right, 1, axis=0), np.roll(right, -1, axis=0)):
        with pytest.raises(GeometryError, match="seem a quarter turn off") as caught:
            check_turn(shot.image, turned)
        given = parse_corners(str(caught.value).split('--corners "')[1].rstrip('"'))
        check_turn(shot.image, given)
        assert not np.allclose(given, turned, atol=0.1)


def test_slots_lie_on_their_points_and_stack_from_the_edges() -> None:
    geometry = BoardGeometry(((0, 0), (480, 0), (480, 400), (0, 400)), (480, 400), (216.0, 264.0), 33.0)
    ranges = point_x_ranges(geometry)
    centres = slot_centres(geometry)
    assert centres.shape == (2, 12, geometry.slots, 2)
    assert np.all((centres[0, :, 0, 0] > ranges[:, 0]) & (centres[0, :, 0, 0] < ranges[:, 1]))
    assert np.all(ranges[:6, 1] <= 216.0 + 1e-3) and np.all(ranges[6:, 0] >= 264.0 - 1e-3)
    assert centres[0, 0, 0, 1] == pytest.approx(16.5) and centres[1, 0, 0, 1] == pytest.approx(400 - 16.5)
    assert np.allclose(np.diff(centres[0, 0, :, 1]), 33.0)
    bar = bar_slot_centres(geometry)
    assert np.allclose(bar[:, 0], 240.0) and np.all(np.diff(bar[:, 1]) > 0)


def _barrel(image: np.ndarray, matrix: np.ndarray, coeffs: np.ndarray) -> np.ndarray:
    """What a lens with ``coeffs`` makes of ``image`` (OpenCV's own undistortPoints, per pixel)."""
    h, w = image.shape[:2]
    grid = np.stack(np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32)), axis=-1)
    ideal = cv2.undistortPoints(grid.reshape(-1, 1, 2), matrix, coeffs, P=matrix).reshape(h, w, 2)
    return cv2.remap(image, ideal[..., 0], ideal[..., 1], cv2.INTER_LINEAR)


def test_lens_undistortion_straightens_the_board() -> None:
    focal = float(np.hypot(1280, 720) / 2)
    matrix = np.array([[focal, 0, 640], [0, focal, 360], [0, 0, 1]], np.float64)
    coeffs = np.array([-0.12, 0, 0, 0, 0], np.float64)
    board = _pattern()
    image = _barrel(_project(board, CORNERS), matrix, coeffs)
    objects = np.concatenate([(CORNERS - [640, 360]) / focal, np.ones((4, 1))], axis=1)
    corners = cv2.projectPoints(objects, np.zeros(3), np.zeros(3), matrix, coeffs)[0].reshape(4, 2)
    lens = Lens(tuple(tuple(float(v) for v in r) for r in matrix), tuple(float(v) for v in coeffs))  # type: ignore[arg-type]
    bent = BoardGeometry(tuple(map(tuple, corners.tolist())), (480, 400), (216.0, 264.0), 36.0)
    straight = BoardGeometry(bent.corners, bent.size, bent.bar, bent.pitch_px, lens=lens)
    inner = (slice(10, -10), slice(10, -10))
    err_without = np.abs(rectify(image, bent)[inner].astype(int) - board[inner].astype(int)).mean()
    err_with = np.abs(rectify(image, straight)[inner].astype(int) - board[inner].astype(int)).mean()
    assert err_with < 12 and err_with < err_without / 2


def test_folding_board_gets_a_mapping_per_half() -> None:
    board = _pattern()
    # each half seen under its own homography (the hinge bends the board)
    hinge_top, hinge_bottom = np.float32([650, 95]), np.float32([660, 640])
    left = np.float32([CORNERS[0], hinge_top, hinge_bottom, CORNERS[3]])
    right = np.float32([hinge_top + [0, 10], CORNERS[1], CORNERS[2], hinge_bottom + [0, 10]])
    image = np.full((720, 1280, 3), (90, 90, 90), np.uint8)
    for quad, part in ((left, board[:, :240]), (right, board[:, 240:])):
        h, w = part.shape[:2]
        matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad)
        cv2.warpPerspective(
            np.ascontiguousarray(part), matrix, (1280, 720), dst=image, borderMode=cv2.BORDER_TRANSPARENT
        )
    six = (
        tuple(CORNERS[0]),
        tuple(hinge_top),
        tuple(CORNERS[1]),
        tuple(CORNERS[2]),
        tuple(hinge_bottom),
        tuple(CORNERS[3]),
    )
    geometry = BoardGeometry(tuple((float(x), float(y)) for x, y in six), (480, 400), (216.0, 264.0), 36.0)
    rectified = rectify(image, geometry)
    left_err = np.abs(rectified[10:-10, 10:230].astype(int) - board[10:-10, 10:230].astype(int)).mean()
    assert left_err < 12
    flat = BoardGeometry(tuple(map(tuple, CORNERS.tolist())), (480, 400), (216.0, 264.0), 36.0)
    flat_err = np.abs(rectify(image, flat)[10:-10, 10:230].astype(int) - board[10:-10, 10:230].astype(int)).mean()
    assert left_err < flat_err


def _smooth_frame_and(kind: str) -> tuple[np.ndarray, BoardGeometry]:
    """A camera frame of smooth ramps (interpolation keeps its values) and
    a geometry on it: ``flat``, through a ``lens``, or ``folding``."""
    ys, xs = np.mgrid[0:720, 0:1280]
    image = np.dstack([xs * 255 // 1279, ys * 255 // 719, np.full_like(xs, 128)]).astype(np.uint8)
    flat = BoardGeometry(tuple(map(tuple, CORNERS.tolist())), (480, 400), (216.0, 264.0), 36.0)
    if kind == "lens":
        lens = Lens(((900.0, 0.0, 640.0), (0.0, 900.0, 360.0), (0.0, 0.0, 1.0)), (-0.1, 0.0, 0.0, 0.0, 0.0))
        return image, replace(flat, lens=lens)
    if kind == "folding":
        hinge = ((650.0, 95.0), (660.0, 640.0))
        return image, replace(flat, corners=(flat.corners[0], hinge[0], *flat.corners[1:3], hinge[1], flat.corners[3]))
    return image, flat


@pytest.mark.parametrize("kind", ["flat", "lens", "folding"])
def test_rectify_with_a_margin_keeps_the_board_pixel_for_pixel(kind: str) -> None:
    image, geometry = _smooth_frame_and(kind)
    around = rectify(image, geometry, margin=20)
    assert around.shape == (440, 520, 3)
    assert np.array_equal(around[20:-20, 20:-20], rectify(image, geometry))


@pytest.mark.parametrize("kind", ["flat", "lens"])
def test_rectify_with_a_margin_shows_what_lies_around_the_playing_area(kind: str) -> None:
    image, geometry = _smooth_frame_and(kind)
    around = rectify(image, geometry, margin=20)
    outside = np.array([[-10.0, 200.0], [240.0, -10.0], [489.0, 200.0], [240.0, 409.0]], np.float32)
    for (x, y), (u, v) in zip(outside, to_image(geometry, outside), strict=True):
        seen = around[int(y) + 20, int(x) + 20].astype(int)
        assert np.abs(seen - image[int(round(v)), int(round(u))].astype(int)).max() <= 4


def test_geometry_rejects_a_bar_outside_the_board() -> None:
    with pytest.raises(GeometryError):
        BoardGeometry(((0, 0), (480, 0), (480, 400), (0, 400)), (480, 400), (300.0, 200.0), 33.0)
