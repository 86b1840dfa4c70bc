"""A lamp's reflection on the board (vision.glare): found once at
calibration on the starting position, and taken away from every frame."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.dice import Dice
from engine.legal import legal_plays
from engine.position import Position
from tests.vision.vision_boards import Board, bench_board, light_layout, relit_bench_photo
from vision.calibration import Calibration, calibrate
from vision.geometry import BoardGeometry, rectify
from vision.glare import Glare, find_glare
from vision.judge import JudgeConfig, judge_photo
from vision.layout import Layout
from vision.read import read_board
from vision.render import Lighting, render


def _added(lighting: Lighting, image: np.ndarray, geometry: BoardGeometry) -> np.ndarray:
    """The white light the renderer added (grey levels) over the rectified board."""
    h, w = image.shape[:2]
    glare = cv2.resize(lighting.glare_map((w, h)), (w, h), interpolation=cv2.INTER_LINEAR)
    return rectify(np.clip(cv2.merge([glare, glare, glare]), 0, 255).astype(np.uint8), geometry)[..., 0].astype(float)


def _calibrated(seed: int, board: int) -> tuple[dict, Calibration, np.ndarray]:
    look, start, _ = bench_board(seed, board)
    calibration = calibrate(start.image, start.corners, lens=Board(**look).lens, tray=start.tray)
    return look, calibration, start.image


@pytest.mark.parametrize(
    ("board", "style"), [(39, "felt-green"), (12, "tournament"), (30, "red-white"), (14, "gold-white")]
)
def test_a_lamp_s_reflection_is_found_where_it_lies_and_as_strong(board: int, style: str) -> None:
    # bench seed 3: a reflection of 54 to 89 grey levels on each of these boards
    look, calibration, image = _calibrated(3, board)
    assert look["style"].name == style
    truth = _added(look["lighting"], image, calibration.geometry)
    assert calibration.glare is not None
    found = calibration.glare.field(calibration.geometry.size)
    assert abs(found.max() - truth.max()) <= 0.35 * truth.max()
    assert np.abs(found - truth).mean() <= 5.0
    # the brightest place found lies within a checker's pitch of the brightest one added
    at = np.unravel_index(np.argmax(found), found.shape)
    brightest = truth >= truth.max() - 1
    ys, xs = np.nonzero(brightest)
    assert np.hypot(ys - at[0], xs - at[1]).min() <= calibration.geometry.pitch_px


@pytest.mark.parametrize(("board", "style"), [(5, "wood"), (9, "red-white"), (20, "dark-felt"), (13, "marble")])
def test_a_board_without_a_reflection_has_none_taken_away(board: int, style: str) -> None:
    # bench seed 3: a window's light from one side, a lamp's pool, shadows, but no reflection
    look, calibration, _ = _calibrated(3, board)
    assert look["style"].name == style and look["lighting"].glare[3] == 0
    assert calibration.glare is None


def test_a_photo_clipped_white_all_over_shows_no_reflection_it_can_measure() -> None:
    _, calibration, _ = _calibrated(3, 39)
    width, height = calibration.geometry.size
    blown = np.full((height, width, 3), 255, np.uint8)
    assert find_glare(blown, calibration.geometry, calibration.start_layout) is None


def test_checkers_under_a_lamp_s_reflection_read_as_they_stand() -> None:
    """Bench seed 3, board 39 (felt-green), under a reflection of 75 grey
    levels over the top right: photo 371's nine dark checkers there looked
    grey, neither a checker's face nor two rims where the second layer
    lies, and the photo was refused as something over the board."""
    look, calibration, _ = _calibrated(3, 39)
    layout = Layout(top=(1, -1, 1, 2, 0, 0, 0, 0, -3, -2, 0, -9), bottom=(0, 0, 1, 1, 0, 0, 2, 0, 1, 3, 2, 1))
    for shot in (0, 1):
        reading = read_board(render(layout, rng=np.random.default_rng(shot), **look).image, calibration)
        assert reading.refusal is None, reading.refusal
        assert reading.layout() == layout


def test_a_slot_the_reflection_washed_out_proves_no_checker_laid_as_the_light_changes() -> None:
    """Bench seed 3, board 39, photo 375 in changed light: the camera
    clipped the reflection over the white top 10 at calibration; as the
    light changed, what it clipped changed, and the bare point read as a
    white checker that the right play (bar/18*) does not lay. Shown here
    with every faint change of state let prove (``proof_change`` 0)."""
    look, calibration, _ = _calibrated(3, 39)
    assert calibration.reference.get("washed_out") is not None
    unwashed = replace(calibration, reference={k: v for k, v in calibration.reference.items() if k != "washed_out"})
    position, dice = Position.from_id("vu0EDADv5wEAQA"), Dice(6, 1)
    play = next(lp for lp in legal_plays(position, dice) if str(lp.play) == "bar/18*")
    after = relit_bench_photo(look, 3, 39, 375, light_layout(play.after, "dark"))
    before = render(light_layout(position, "dark"), rng=np.random.default_rng(3), **look).image
    config = JudgeConfig(proof_change=0.0)
    for used, verdicts in ((unwashed, {"illegal"}), (calibration, {"legal", "refused"})):
        verdict = judge_photo(
            position, dice, after, calibration=used, mover="dark", home="top-right", before_image=before, config=config
        )
        assert verdict.verdict in verdicts


def test_a_lamp_switched_off_since_calibration_makes_the_referee_wait_not_misread() -> None:
    # the reflection taken away where there is none leaves a dark patch: no board looks so
    look, calibration, _ = _calibrated(3, 39)
    off = dict(look, lighting=replace(look["lighting"], glare=(0.5, 0.5, 0.1, 0.0)))
    layout = Layout(top=(1, -1, 1, 2, 0, 0, 0, 0, -3, -2, 0, -9), bottom=(0, 0, 1, 1, 0, 0, 2, 0, 1, 3, 2, 1))
    for shot in (0, 2):
        reading = read_board(render(layout, rng=np.random.default_rng(shot), **off).image, calibration)
        assert reading.refusal is not None and reading.refusal.reason == "hand_over_board"


def test_the_reflection_is_taken_away_and_what_it_clipped_kept_at_the_least_it_held() -> None:
    glare = Glare(centre=(0.5, 0.5), radius=0.3, strength=80.0)
    size = (200, 160)
    added = glare.field(size)[..., None]
    board = np.zeros((160, 200, 3), np.float32)
    board[:] = (60, 140, 50)  # green felt
    board[:, 90:110] = 200  # a grey point, clipped where the reflection is strongest
    board[:, 150:] = 235  # a white surface
    for light in (1.0, 0.8):  # the board's light changes, the reflection does not
        seen = np.clip(light * board + added, 0, 255).astype(np.uint8)
        out = glare.remove(seen, size).astype(float)
        # what the photo did not clip is as it was; what it clipped held
        # anything from 255 less the light added: it keeps that least
        expected = np.minimum(light * board, 255 - added)
        assert np.abs(out - expected).max() <= 1.0
        assert (seen[:, 94:106] == 255).any() == (light == 1.0)
    # with a margin around the board, the reflection continues into it
    framed = np.pad(seen, ((4, 4), (4, 4), (0, 0)), mode="edge")
    assert np.array_equal(glare.remove(framed, size, margin=4)[4:-4, 4:-4], glare.remove(seen, size))


def test_the_reflection_is_saved_with_the_calibration(tmp_path: Path) -> None:
    _, calibration, _ = _calibrated(3, 39)
    assert calibration.glare is not None
    path = tmp_path / "board.json"
    calibration.save(path)
    loaded = Calibration.load(path)
    assert loaded.glare is not None
    assert (
        np.abs(loaded.glare.field(calibration.geometry.size) - calibration.glare.field(calibration.geometry.size)).max()
        < 0.1
    )
    # a calibration saved before reflections were looked for has none
    data = json.loads(path.read_text())
    del data["glare"]
    assert Calibration.from_json(data).glare is None
