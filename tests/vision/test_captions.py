"""A broadcast's caption over the picture (vision/captions.py): found where
the renderer lays one, not taken for a board's own frame, and no arm
reaching over the frame when it moves between frames."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from tests.vision.vision_boards import START, game_position, light_layout, plain_board, uncalibrated_bench_photo
from vision.calibration import calibrate
from vision.captions import Box, along_outline, caption_boxes
from vision.geometry import to_image
from vision.layout import Layout
from vision.read import geometry_from_corners, read_board
from vision.refusal import outline_points
from vision.render import CameraPose, Effects
from vision.render_style import STYLES


def _outline(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    return outline_points(geometry_from_corners(image, corners))[0]


@pytest.mark.parametrize("seed", [3, 8, 21, 34])
def test_a_caption_laid_over_the_picture_is_found(seed: int) -> None:
    """The caption is where the picture with it differs from the same
    picture without; one box found holds all of it."""
    board = replace(plain_board("tournament"), camera=CameraPose.random(np.random.default_rng(seed)))
    plain = board.shoot(START, seed)
    captioned = replace(board, effects=Effects(overlay=True)).shoot(START, seed)
    ys, xs = np.nonzero(np.abs(captioned.image.astype(np.int16) - plain.image).max(axis=2) > 8)
    assert len(ys), "the renderer laid no caption here"
    boxes = caption_boxes(captioned.image)
    assert any(
        x0 - 4 <= xs.min() and xs.max() <= x1 + 4 and y0 - 4 <= ys.min() and ys.max() <= y1 + 4
        for x0, y0, x1, y1 in boxes
    ), boxes
    assert caption_boxes(plain.image) == []


def test_a_caption_whose_edge_runs_on_along_the_frame_is_found_to_its_ends() -> None:
    """A caption along the picture's top whose lower edge lines up with the
    top of a board's frame, which begins a little before the caption does:
    the edge runs on past the caption's left end, and its side is found
    where the caption ends (bench/vision.py seed 1 photo 616, refused as an
    arm over the frame before)."""
    picture = np.full((720, 1280, 3), 95, np.uint8)
    cv2.rectangle(picture, (230, 60), (1000, 640), (40, 80, 160), -1)  # the frame, its top at row 60
    cv2.rectangle(picture, (245, 0), (1075, 59), (120, 60, 40), -1)  # the caption, down to row 59
    cv2.putText(picture, "SMITH  3  to 11  GARCIA  5", (265, 42), cv2.FONT_HERSHEY_SIMPLEX, 1.1, (235, 235, 235), 2)
    boxes = caption_boxes(picture)
    # (found in the picture shrunk by half, each side within a column or two)
    assert any(abs(x0 - 245) <= 6 and y0 == 0 and abs(x1 - 1075) <= 6 and abs(y1 - 60) <= 4 for x0, y0, x1, y1 in boxes)


@pytest.mark.parametrize(
    ("seed", "photo", "layout", "caption"),
    [
        # its lower edge runs on along the top of the frame, 90 px past its left end
        (
            3,
            202,
            Layout(top=(4, 0, 0, -2, 0, 1, -5, 1, 1, -2, -2, 1), bottom=(0, 0, 0, 0, 1, 1, 4, -1, -2, 0, 1, -1)),
            (365, 18, 952, 66),
        ),
        # along the picture's bottom, over a wall about as dark as itself: its upper edge fades out before its side
        (
            7,
            199,
            Layout(
                top=(3, -1, 0, -1, 0, 0, 1, 0, -3, -2, -5, -1),
                bottom=(0, 0, 0, 1, 0, -1, 0, 0, 3, -1, 2, 4),
                bar_light=1,
            ),
            (205, 658, 1232, 719),
        ),
    ],
)
def test_a_bench_caption_is_found_to_its_ends(seed: int, photo: int, layout: Layout, caption: Box) -> None:
    """Photos of bench/uncalibrated.py, each refused before as an arm
    reaching over the frame where its caption lies: its box is found, each
    side within a few pixels of the caption's (measured on the photo)."""
    boxes = caption_boxes(uncalibrated_bench_photo(seed, photo, layout).image)
    assert any(max(abs(a - b) for a, b in zip(box, caption, strict=True)) <= 6 for box in boxes), boxes


@pytest.mark.parametrize("style", sorted(STYLES))
def test_the_frame_of_a_board_square_to_the_picture_runs_along_its_playing_area(style: str) -> None:
    """Seen straight from above, a side of the frame may look like a caption,
    a box square to the picture: the playing area's outline runs along it."""
    shot = plain_board(style).shoot(START, 5)
    outline = _outline(shot.image, shot.corners)
    assert all(along_outline(box, outline) for box in caption_boxes(shot.image))


def test_some_board_square_to_the_picture_shows_a_box_on_its_frame() -> None:
    """Why the outline (and the calibration's record of such boxes) is needed."""
    assert any(caption_boxes(plain_board(style).shoot(START, 5).image) for style in sorted(STYLES))


def _with_caption(image: np.ndarray, corners: np.ndarray, *, share: float) -> np.ndarray:
    """``image`` with a caption square to the picture over the top side of
    the board's frame, from beyond its left end over ``share`` of its
    length, its lower edge across the ring just outside the playing area:
    on a board seen turned a little, the caption covers the ring where it
    runs above that edge; on one seen square, all along it."""
    near = outline_points(geometry_from_corners(image, corners))[1]
    top = near[: len(near) // 4]  # the outline's top side, TL to TR
    y1 = int(np.median(top[:, 1]))
    x0 = int(top[:, 0].min()) - 20
    x1 = x0 + 20 + int(share * np.ptp(top[:, 0])) + 20
    out = image.copy()
    band = out[y1 - 40 : y1 + 1, x0 : x1 + 1]
    band[:] = np.clip(band * 0.35 + np.array([120.0, 40.0, 20.0]), 0, 255).astype(np.uint8)
    cv2.putText(out, "SMITH  3   GARCIA  5", (x0 + 12, y1 - 12), cv2.FONT_HERSHEY_SIMPLEX, 0.9, (235, 235, 235), 2)
    return out


@pytest.mark.parametrize(("turn", "share"), [(4.0, 1.0), (0.0, 0.5)])
def test_a_caption_over_the_frame_now_or_at_calibration_is_no_arm_reaching_in(turn: float, share: float) -> None:
    """A board seen turned a little or square to the picture: a caption over
    its frame in the frame read, or in the one calibrated on and gone
    since, is read through; an arm reaching over the frame beside the
    caption is still refused (also where a board seen square shows a
    caption-like box on its frame)."""
    board = replace(plain_board("wood"), camera=replace(CameraPose.overhead(), rotation_deg=turn, fill=0.8))
    start = board.shoot(START, 1000)
    position, mover = game_position(3, 14)
    shot = board.shoot(light_layout(position, mover), 7)
    plain = calibrate(start.image, start.corners)
    assert read_board(shot.image, plain).refusal is None
    captioned = read_board(_with_caption(shot.image, shot.corners, share=share), plain)
    assert captioned.refusal is None, captioned.refusal
    calibrated_with_caption = calibrate(_with_caption(start.image, start.corners, share=share), start.corners)
    gone = read_board(shot.image, calibrated_with_caption)
    assert gone.refusal is None, gone.refusal
    # an arm: a navy sleeve from beyond the picture's bottom, or its top,
    # over that side of the frame and a little way in, beside the caption
    geometry = plain.geometry
    width, height = geometry.size
    for inner, outer in ((0.9, 1.5), (0.1, -0.5)):
        sleeve = np.array(
            [
                [0.65 * width, inner * height],
                [0.8 * width, inner * height],
                [0.8 * width, outer * height],
                [0.65 * width, outer * height],
            ],
            np.float32,
        )
        arm = _with_caption(shot.image, shot.corners, share=share)
        cv2.fillConvexPoly(arm, np.rint(to_image(geometry, sleeve)).astype(np.int32), (110, 60, 40))
        refused = read_board(arm, plain).refusal
        assert refused is not None and refused.reason == "hand_over_board", (inner, refused)
