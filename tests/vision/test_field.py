"""Something over the field of a board never calibrated (:mod:`vision.field`)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.vision.vision_boards import game_position, light_layout, plain_board, uncalibrated_bench_photo
from vision.features import to_lab
from vision.field import FIELD_FROM, check_field
from vision.geometry import rectify
from vision.layout import Layout
from vision.read import geometry_from_corners
from vision.refusal import RefusalConfig
from vision.rims import gradients
from vision.uncalibrated import read_with_corners


def _looks(rectified: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """A rectified board's Lab and their gradients, as :func:`check_field` takes them."""
    lab = to_lab(rectified)
    return lab, gradients(rectified, lab=lab)


@pytest.mark.parametrize(
    ("seed", "photo", "occlusion", "layout"),
    [
        # dark felt: a grey sleeve over the dark frame, the hand over the field and the points beside it
        (
            1,
            5,
            "arm",
            Layout(
                top=(-1, 0, -1, 0, -1, 0, 1, 4, 1, -1, -3, -2),
                bottom=(0, 1, 2, 0, 0, -2, 3, -2, -1, 2, 1, 0),
                bar_dark=1,
            ),
        ),
        # gold and white: a dark sleeve across the field
        (
            1,
            157,
            "hand",
            Layout(
                top=(2, 0, 0, 0, 0, 0, -3, 3, -1, -1, -2, -2),
                bottom=(0, 1, 0, 1, 1, 2, -1, 2, -1, -1, -2, -1),
                bar_light=3,
            ),
        ),
        # felt green: an arm in a red sleeve, the hand over the field
        (
            3,
            82,
            "arm",
            Layout(top=(0, 0, 0, -1, 0, 0, -2, -2, -1, -1, -3, -1), bottom=(0, -1, -1, 0, 0, 0, -2, 0, 0, 0, 2, 5)),
        ),
    ],
)
def test_a_hand_over_the_field_is_refused(seed: int, photo: int, occlusion: str, layout: Layout) -> None:
    """Bench photos (``bench/uncalibrated.py``) read before with the hand
    over them: the sleeve crosses the frame in its colour, and the slots
    the hand covers fit the looks learned from the photo itself (which
    learned them with it). The field it crosses is unlike itself there
    (whether or not another check refuses the photo first)."""
    shot = uncalibrated_bench_photo(seed, photo, layout, occlusion=occlusion)
    geometry = geometry_from_corners(shot.image, shot.corners)
    reading = read_with_corners(shot.image, geometry)
    assert reading.refusal is not None and reading.refusal.reason == "hand_over_board"
    counts = np.array([layout.top, layout.bottom])
    refusal = check_field(*_looks(rectify(shot.image, geometry)), geometry, counts, config=RefusalConfig())
    assert refusal is not None and "middle of the board" in refusal.message


@pytest.mark.parametrize(
    ("seed", "photo", "layout"),
    [
        (
            1,
            139,
            Layout(
                top=(0, -1, -1, 0, -2, 2, -3, 6, -1, 0, 1, -2),
                bottom=(-1, 0, 0, 0, -1, -2, 0, 0, 2, -1, 3, 0),
                bar_light=1,
            ),
        ),
        (7, 294, Layout(top=(0, 0, 1, -1, 0, -3, -3, 0, 0, -5, 5, 2), bottom=(1, 1, 0, 0, 0, 0, 2, 1, 1, 1, 0, -3))),
    ],
)
def test_a_pool_of_light_on_pale_wood_is_no_hand(seed: int, photo: int, layout: Layout) -> None:
    """Bench photos of pale wood boards under a lamp: a pool of light on
    the field is unlike the rest of it over a hand's area (refused if
    outlines did not count), but it fades into the rest."""
    shot = uncalibrated_bench_photo(seed, photo, layout)
    geometry = geometry_from_corners(shot.image, shot.corners)
    rectified = rectify(shot.image, geometry)
    counts = np.array([layout.top, layout.bottom])
    looks = _looks(rectified)
    assert check_field(*looks, geometry, counts, config=RefusalConfig()) is None
    assert check_field(*looks, geometry, counts, config=replace(RefusalConfig(), field_edge=0.0)) is not None


@pytest.mark.parametrize("style", ["wood", "felt-green", "marble"])
def test_a_sharp_patch_on_the_field_is_refused_and_the_same_patch_blurred_is_not(style: str) -> None:
    """A grey patch two checkers wide on the field, with a sharp outline
    (a sleeve), is something reaching in; blurred into the field as a pool
    of light is, it is not. The field alone is not."""
    position, mover = game_position(21, 14)
    layout = light_layout(position, mover)
    shot = plain_board(style).shoot(layout, 22)
    geometry = geometry_from_corners(shot.image, shot.corners)
    rectified = rectify(shot.image, geometry)
    counts = np.array([layout.top, layout.bottom])
    config = RefusalConfig()
    assert check_field(*_looks(rectified), geometry, counts, config=config) is None
    pitch = geometry.pitch_px
    middle = geometry.size[1] / 2
    left = int(geometry.bar[1] + 2 * pitch)
    patch = np.zeros(rectified.shape[:2], np.float32)
    top = int(max(FIELD_FROM * pitch, middle - pitch))
    patch[top : int(middle + pitch), left : int(left + 2 * pitch)] = 1.0
    grey = np.full_like(rectified, 128)
    for softness, refused in ((0.0, True), (pitch, False)):
        weight = cv2.GaussianBlur(patch, (0, 0), softness) if softness else patch
        covered = (rectified * (1 - weight[..., None]) + grey * weight[..., None]).astype(np.uint8)
        refusal = check_field(*_looks(covered), geometry, counts, config=config)
        assert (refusal is not None) == refused, softness
