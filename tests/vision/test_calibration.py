"""Calibration from the starting position: colours, checks, markers, JSON."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.vision_boards import START, Board, bench_board, calibrated, plain_board, random_board
from vision.calibration import Calibration, calibrate
from vision.colours import ColourModel, _basis, _fit_light
from vision.errors import CalibrationError, MarkerError
from vision.features import CHANNELS, PATCH
from vision.layout import Layout
from vision.markers import MARKER_IDS, find_marker_corners, marker_sheet
from vision.read import read_board
from vision.render import CameraPose, Effects, Lighting
from vision.render_style import STYLES


@pytest.mark.parametrize("style", sorted(STYLES))
def test_calibrate_learns_every_style_and_names_light_by_brightness(style: str) -> None:
    calibration = calibrated(plain_board(style))
    assert calibration.start_layout == START
    light, dark = calibration.colours.light_lab, calibration.colours.dark_lab
    spec = STYLES[style]
    swatch = cv2.cvtColor(np.uint8([[spec.light_bgr, spec.dark_bgr]]), cv2.COLOR_BGR2Lab)[0].astype(float)
    # each learned colour is nearer its own checker than the other one
    assert np.linalg.norm(light - swatch[0]) < np.linalg.norm(light - swatch[1])
    assert np.linalg.norm(dark - swatch[1]) < np.linalg.norm(dark - swatch[0])


def _checkers(lightness: float, gain: np.ndarray) -> np.ndarray:
    """Checkers (n, T, T, 4) of one ``lightness`` seen under ``gain`` (n,)."""
    face = np.zeros((len(gain), PATCH, PATCH, CHANNELS), np.float32)
    face[..., 0] = lightness * gain[:, None, None]
    face[..., 1:3] = 128.0
    face[..., 3] = 4.0 * gain[:, None, None]
    return face


def test_a_white_checker_follows_a_lamp_less_than_a_black_one() -> None:
    # a camera compresses its highlights: under a lamp on one side the
    # black checkers there look much lighter, the white ones hardly so
    xy = np.random.default_rng(3).uniform(0.0, 1.0, (40, 2)).astype(np.float32)
    lamp = np.exp(0.6 * xy[:, 0] - 0.3 * xy[:, 1] ** 2).astype(np.float32)
    dark = _checkers(50.0, lamp)
    (white_look, _), field, response = _fit_light([_checkers(200.0, lamp**0.15), dark], [xy, xy])
    assert response[1] == 1.0 and 0.0 < response[0] <= 0.4
    # the white template shaded by its share of the field shows the white
    # checkers as seen far better than shaded by all of it
    log_gain = _basis(xy) @ field
    seen = 200.0 * lamp**0.15
    by_share = np.abs(float(white_look[4, 4, 0]) / np.exp(response[0] * log_gain) - seen).mean()
    by_all = np.abs(float(white_look[4, 4, 0]) / np.exp(log_gain) - seen).mean()
    assert by_share < 0.5 * by_all
    # where both follow the light alike, both follow it wholly
    _, _, alike = _fit_light([_checkers(200.0, lamp), dark], [xy, xy])
    assert alike.min() > 0.9


@pytest.mark.parametrize("style", ["tournament", "felt-green"])
def test_white_checkers_under_a_lamps_glare_are_read(style: str) -> None:
    # the glare of a lamp over the top left: the black checkers there looked
    # far lighter at calibration, the white ones hardly so; shaded by the
    # black ones' light, a white checker there looked like nothing learned
    # and single white checkers on the top row's white points were missed.
    # Calibration finds the reflection and every frame is read without it
    # (vision.glare); what it clips stays white, as white checkers do
    board = Board(
        style,
        CameraPose(rotation_deg=3.8, tilt_deg=4.5, tilt_azimuth_deg=136, distance=1.15, fill=0.78),
        Lighting(gain=0.79, glare=(0.45, 0.26, 0.09, 0.32)),
        Effects.none(),
        7,
    )
    start = board.shoot(START, 1000)
    calibration = calibrate(start.image, start.corners, empty=board.shoot(EMPTY, 999).image)
    assert calibration.glare is not None
    layout = Layout(top=(0, 1, 0, 0, -1, 1, -5, 1, 0, 1, 1, 0), bottom=(-5, -1, -1, -1, 3, 0, 5, -1, 0, 1, 1, 0))
    assert read_board(board.shoot(layout, 2001).image, calibration).layout() == layout


def test_the_light_response_is_saved_and_checked(tmp_path: Path) -> None:
    model = replace(calibrated(plain_board("wood")).colours, light_response=(0.4, 1.0))
    data = json.loads(json.dumps(model.to_json()))
    assert ColourModel.from_json(data).light_response == (0.4, 1.0)
    del data["light_response"]  # a file from before: both follow the light wholly
    assert ColourModel.from_json(data).light_response == (1.0, 1.0)
    data["light_response"] = [1.5, 1.0]
    with pytest.raises(CalibrationError, match="light response"):
        ColourModel.from_json(data)


def test_calibrate_names_the_points_set_up_wrong() -> None:
    board = plain_board("wood")
    wrong = Layout(top=(5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2), bottom=(-5, 0, 0, 0, 3, 0, 4, 1, 0, 0, 0, -2))
    shot = board.shoot(wrong, 3)
    with pytest.raises(CalibrationError) as err:
        calibrate(shot.image, shot.corners)
    assert err.value.reason == "not_start_position"
    assert ("bottom 7" in str(err.value) or "bottom 8" in str(err.value)) and "B4" in str(err.value)


@pytest.mark.parametrize(
    ("style", "seed", "row", "col", "count"),
    [
        ("dark-felt", 11, 0, 2, 1),
        ("gold-white", 11, 0, 2, -1),
        ("red-blue", 11, 0, 2, -1),
        ("gold-white", 3, 1, 9, 1),
    ],
)
def test_a_stray_checker_on_a_bare_point_is_named_by_its_outline(
    style: str, seed: int, row: int, col: int, count: int
) -> None:
    """A sixteenth checker on a point the starting position leaves bare,
    whose look passes for that point's (the colours learned read it as
    bare) and for the look borrowed from another point: its round outline
    shows, and the point is named (each of these calibrated before)."""
    rows = [list(START.top), list(START.bottom)]
    rows[row][col] = count
    board = random_board(seed, style)
    shot = board.shoot(Layout(top=tuple(rows[0]), bottom=tuple(rows[1])), 5)
    with pytest.raises(CalibrationError) as err:
        calibrate(shot.image, shot.corners, lens=board.lens)
    assert err.value.reason == "not_start_position"
    assert f"{('top', 'bottom')[row]} {col + 1} (expected +0" in str(err.value)


@pytest.mark.parametrize(("seed", "board"), [(7, 15), (7, 170), (3, 47)])
def test_a_bare_point_that_passes_for_checkers_only_in_a_borrowed_look_is_no_misread(seed: int, board: int) -> None:
    """bench/vision.py boards set up right (marble, wood, tournament): read
    with the empty looks borrowed from other points, top 3 held two or
    three checkers, surely, for a look borrowed from a point in other
    light; no checker's outline shows there, and they calibrate (each was
    refused as set up wrong before)."""
    _, start, _ = bench_board(seed, board)
    calibration = calibrate(start.image, start.corners)
    assert calibration.start_layout.top[2] == 0


def test_calibration_json_round_trip(tmp_path: Path) -> None:
    calibration = calibrated(plain_board("wood"))
    path = tmp_path / "board.json"
    calibration.save(path)
    data = json.loads(path.read_text())
    assert data["format"] == "nardref-calibration" and data["version"] == 2
    loaded = Calibration.load(path)
    assert loaded.geometry == calibration.geometry
    assert np.allclose(loaded.colours.light, calibration.colours.light, atol=0.06)
    assert loaded.start_layout == calibration.start_layout
    assert loaded.empty_board is not None and calibration.empty_board is not None
    assert np.abs(loaded.empty_board - calibration.empty_board).max() <= 0.5


EMPTY = Layout(top=(0,) * 12, bottom=(0,) * 12)


def test_a_photo_of_the_empty_board_shows_the_corner_points_as_they_are(tmp_path: Path) -> None:
    # a camera over a table in room light; at the corners the frame's shadow
    # falls on the points, which the starting position covers: their empty
    # look borrowed from other points has none, and one checker on the
    # 24-point (top right) may show as two, never surely (a shade as slight
    # as this board's, side to side, leaves the borrowed look as it is:
    # vision.colours, WALL_SHADE)
    board = random_board(4, "felt-green")
    start = board.shoot(START, 1000)
    alone = calibrated(board)
    with_empty = calibrate(start.image, start.corners, lens=board.lens, empty=board.shoot(EMPTY, 999).image)
    assert alone.borrowed.any() and not alone.empty_seen
    assert with_empty.empty_seen and not with_empty.borrowed.any()
    # the bare rims too (vision.rims): the start hid some, the empty photo shows every one
    assert (np.asarray(alone.reference["rims"]) < 0).any() and (np.asarray(with_empty.reference["rims"]) >= 0).all()
    layout = Layout(top=(5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 1), bottom=(-5, 0, 0, 0, 4, 0, 5, 0, 0, 0, 0, -2))
    photo = board.shoot(layout, 2001).image
    guessed = read_board(photo, alone)
    assert guessed.layout() == layout or "top 12" in guessed.uncertain
    for hold in (False, True):
        reading = read_board(photo, with_empty, hold=hold)
        assert reading.refusal is None and reading.layout() == layout
    path = tmp_path / "board.json"
    with_empty.save(path)
    assert Calibration.load(path).empty_seen
    data = json.loads(path.read_text())
    del data["empty_seen"]  # a file from before the empty photo: every covered point borrowed
    assert Calibration.from_json(data).borrowed.sum() == alone.borrowed.sum()


def test_a_point_the_starting_position_left_empty_reads_empty_with_or_without_its_neighbours(
    tmp_path: Path,
) -> None:
    # a camera from the side and a low lamp: at the start, the 13-point's
    # checkers are seen over the point next to them, and cast their shadow
    # on it; when they have left, that point looks as the empty board shows
    # it, and took a phantom checker, read with the start's look alone
    board = Board(
        "dark-felt",
        CameraPose(rotation_deg=10, tilt_deg=28, tilt_azimuth_deg=312, distance=2.55, fill=0.87),
        Lighting(light_azimuth_deg=152, light_elevation_deg=36, shadow=0.56),
        Effects.none(),
        7,
    )
    start = board.shoot(START, 1000)
    calibration = calibrate(start.image, start.corners, empty=board.shoot(EMPTY, 999).image)
    gone = Layout(top=(0, 0, 0, 0, -3, 0, 0, 0, -2, -3, 0, 2), bottom=(-5, 0, 0, 0, 3, 0, 5, 2, 3, 0, 0, -2))
    path = tmp_path / "board.json"
    calibration.save(path)  # both looks are kept in the file
    loaded = Calibration.load(path)
    for layout, seed in ((gone, 2001), (START, 2002)):
        assert read_board(board.shoot(layout, seed).image, loaded).layout() == layout


def test_a_checker_left_on_the_empty_board_is_named() -> None:
    board = plain_board("wood")
    start = board.shoot(START, 1000)
    left = Layout(top=(0,) * 11 + (-1,), bottom=(0,) * 12)
    with pytest.raises(CalibrationError) as err:
        calibrate(start.image, start.corners, empty=board.shoot(left, 5).image)
    assert err.value.reason == "not_empty" and "top 12 (1)" in str(err.value)


def test_an_empty_board_photo_of_another_board_is_refused() -> None:
    board = plain_board("wood")
    start = board.shoot(START, 1000)
    with pytest.raises(CalibrationError) as err:
        calibrate(start.image, start.corners, empty=plain_board("marble").shoot(EMPTY, 5).image)
    assert "the photo of the empty board" in str(err.value)
    with pytest.raises(CalibrationError) as err:
        calibrate(start.image, start.corners, empty=cv2.resize(board.shoot(EMPTY, 5).image, (640, 360)))
    assert "take both with the same camera" in str(err.value)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        ("not json", "not JSON"),
        ('{"format": "other"}', "not a nardref calibration"),
        ('{"format": "nardref-calibration", "version": 99}', "version 99"),
        # before the junction next to the edge had a look of its own
        ('{"format": "nardref-calibration", "version": 1}', "version 1: this nardref reads version 2; calibrate again"),
    ],
)
def test_calibration_load_names_bad_files(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(content)
    with pytest.raises(CalibrationError) as err:
        Calibration.load(path)
    assert words in str(err.value) and "bad.json" in str(err.value)


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("junctions", [[1.0, 2.0]]),
        ("rims", "many"),
        ("junctions", None),
        ("checkers", [[[4.5, 0.2]] * 2]),
        ("bar", [[3.0]]),
    ],
)
def test_a_calibration_whose_rims_are_broken_is_named(tmp_path: Path, key: str, value: object) -> None:
    data = json.loads(json.dumps(calibrated(plain_board("wood")).to_json()))  # (not the cached calibration's own)
    assert np.asarray(data["reference"]["junctions"]).shape[:2] == (2, 2)
    data["reference"][key] = value
    path = tmp_path / "edited.json"
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError) as err:
        Calibration.load(path)
    assert f"reference '{key}'" in str(err.value) and "edited.json" in str(err.value)


def test_markers_give_the_playing_area_corners() -> None:
    sheet = marker_sheet(dpi=100)
    assert sheet.shape[2] == 3 and sheet.dtype == np.uint8
    image = np.full((720, 1280, 3), 200, np.uint8)
    corners = np.float32([[300, 150], [980, 140], [1000, 600], [280, 610]])
    from vision.markers import _dictionary

    side = 60
    for marker_id, (x, y) in zip(MARKER_IDS, corners, strict=True):
        marker = cv2.aruco.generateImageMarker(_dictionary(), marker_id, side)
        # each marker lies outside the playing area, its inner corner on the area's corner
        dx = -side if marker_id in (0, 3) else 0
        dy = -side if marker_id in (0, 1) else 0
        x0, y0 = int(x) + dx, int(y) + dy
        image[y0 : y0 + side, x0 : x0 + side] = marker[:, :, None]
    found = find_marker_corners(image)
    assert np.allclose(found, corners, atol=2.0)


def test_missing_markers_are_named() -> None:
    with pytest.raises(MarkerError) as err:
        find_marker_corners(np.full((480, 640, 3), 255, np.uint8))
    assert "0 (top-left (TL))" in str(err.value)
