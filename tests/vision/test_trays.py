"""The bear-off tray: checkers borne off are counted from each end (E1, E2),
and a count the tray cannot show surely is said to be unsure."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.cli import main
from tests.vision.vision_boards import (
    START,
    Board,
    bearing_off_a_pile,
    calibrated,
    light_layout,
    plain_board,
    random_board,
)
from vision.calibration import Calibration
from vision.errors import CalibrationError
from vision.geometry import format_corners
from vision.judge import judge_photo
from vision.layout import Layout
from vision.read import read_board
from vision.render import CameraPose, Lighting, render
from vision.trays import STRIP, read_off, tray_of

EMPTY_POINTS = (0,) * 12


def borne_off(light: int, dark: int) -> Layout:
    return Layout(top=EMPTY_POINTS, bottom=EMPTY_POINTS, off_light=light, off_dark=dark)


@pytest.mark.parametrize(
    ("board", "offs"),
    [
        (plain_board("wood"), [(0, 0), (1, 0), (2, 13), (7, 4), (15, 15)]),
        (plain_board("red-white"), [(3, 0), (0, 9), (12, 5)]),
        (random_board(6, "marble"), [(1, 1), (6, 11), (14, 2)]),
        (random_board(2, "gold-white"), [(5, 0), (0, 3), (10, 8)]),
    ],
    ids=["wood", "red-white", "marble-tilted", "gold-white-tilted"],
)
def test_borne_off_checkers_are_counted_from_each_end_of_the_tray(board: Board, offs: list[tuple[int, int]]) -> None:
    calibration = calibrated(board, tray=True)
    for seed, (light, dark) in enumerate(offs):
        reading = read_board(board.shoot(borne_off(light, dark), seed).image, calibration)
        assert reading.off is not None
        assert (reading.off.light, reading.off.dark, reading.off.sure) == (light, dark, True), (light, dark)


def test_a_checker_colour_that_looks_like_the_empty_tray_is_not_counted_surely() -> None:
    """Where the dark checkers look much like the empty tray, what stands
    there cannot be told from the tray: the count is unsure, never a guess."""
    board = plain_board("wood")
    calibration = calibrated(board, tray=True)
    assert calibration.tray is not None
    image = board.shoot(borne_off(4, 6), 1).image
    colours = calibration.colours
    sure = read_off(image, calibration.tray, calibration.geometry, colours.light_lab, colours.dark_lab)
    assert (sure.light, sure.dark, sure.sure) == (4, 6, True)
    tray_look = np.median(calibration.tray.look, axis=0) + np.float32(5)
    hidden = read_off(image, calibration.tray, calibration.geometry, colours.light_lab, tray_look)
    assert not hidden.sure


def test_dark_checkers_in_a_tray_nearly_as_dark_are_counted_unsurely_never_wrongly() -> None:
    """A tilted tournament board whose tray lies in the frame's shadow: a
    black checker there stands out from it by little more than the camera's
    noise, so the counts are unsure (the board alone then judges)."""
    board = random_board(3, "tournament")
    calibration = calibrated(board, tray=True)
    for seed, (light, dark) in enumerate([(1, 1), (6, 11), (14, 2), (0, 5)]):
        off = read_board(board.shoot(borne_off(light, dark), seed).image, calibration).off
        assert off is not None and not off.sure, (light, dark)


def test_something_in_the_tray_between_the_runs_leaves_the_count_unsure() -> None:
    board = plain_board("wood")
    calibration = calibrated(board, tray=True)
    assert calibration.tray is not None
    shot = board.shoot(borne_off(3, 3), 2)
    image = shot.image.copy()
    middle = shot.tray.mean(axis=0) if shot.tray is not None else None
    assert middle is not None
    cv2.circle(image, (int(middle[0]), int(middle[1])), 14, (40, 40, 40), -1)  # a die left in the tray
    off = read_board(image, calibration).off
    assert off is not None and not off.sure


@pytest.mark.parametrize("style", ["wood", "red-white"])
def test_a_caption_over_an_end_of_the_empty_tray_is_no_checker_borne_off(style: str) -> None:
    """Bench photo 74 (seed 3): a broadcast's caption, dark blue, lay over
    an end of the empty tray, a checker's thickness into it, and was
    counted surely as a dark checker borne off. Dark checkers make the
    tray look more like them; the caption makes it look less like a dark
    checker than the empty tray does: it is nothing counted."""
    board = plain_board(style)
    calibration = calibrated(board, tray=True)
    tray = calibration.tray
    assert tray is not None
    image = board.shoot(borne_off(0, 0), 3).image.copy()
    clean = read_board(image, calibration).off
    assert clean is not None and (clean.light, clean.dark, clean.sure) == (0, 0, True)
    p0, p1, p2, p3 = np.asarray(tray.corners, np.float32)
    into, out = tray.thickness, 0.5 * tray.thickness
    caption = np.array([p0 - out * (p3 - p0), p1 - out * (p2 - p1), p1 + into * (p2 - p1), p0 + into * (p3 - p0)])
    cv2.fillPoly(image, [np.rint(caption).astype(np.int32)], (90, 40, 30))
    off = read_board(image, calibration).off
    assert off is not None
    assert not (off.light_sure and off.light) and not (off.dark_sure and off.dark), off


def test_the_tray_is_saved_with_the_calibration_and_checked(tmp_path: Path) -> None:
    calibration = calibrated(plain_board("wood"), tray=True)
    path = tmp_path / "board.json"
    calibration.save(path)
    loaded = Calibration.load(path)
    assert loaded.tray is not None and calibration.tray is not None
    assert np.allclose(loaded.tray.corners, calibration.tray.corners, atol=0.01)
    assert np.allclose(loaded.tray.look, calibration.tray.look, atol=0.1)
    assert loaded.tray.thickness == pytest.approx(calibration.tray.thickness, abs=1e-4)
    data = json.loads(path.read_text())
    data["tray"]["look"] = data["tray"]["look"][:10]
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match=f"tray: expected 4 corners, a look of {STRIP[1]} Lab rows"):
        Calibration.load(path)
    data["tray"] = [1, 2]
    path.write_text(json.dumps(data))
    with pytest.raises(CalibrationError, match="tray: expected an object"):
        Calibration.load(path)


def test_tray_corners_outside_the_photo_or_too_short_are_refused() -> None:
    board = plain_board("wood")
    shot = board.shoot(START, 1000)
    geometry = calibrated(board, tray=True).geometry
    assert shot.tray is not None
    with pytest.raises(CalibrationError, match="inside the"):
        tray_of(shot.image, shot.tray + np.float32(5000), geometry)
    squeezed = shot.tray.copy()
    squeezed[2:] = squeezed[:2][::-1] + np.array([0, 5], np.float32)  # both ends a few pixels apart
    with pytest.raises(CalibrationError, match="shorter than a point is wide"):
        tray_of(shot.image, squeezed, geometry)


def test_bearing_off_from_a_pile_no_photo_counts_is_judged_by_the_tray() -> None:
    """3/off 1/off takes the tenth checker off the 1-point, past what a photo
    of a pile shows: with the photo alone and no tray the judge refuses;
    with the tray, the tray's two checkers and the rest of the board fix
    the pile, and the move is judged legal. A photo with a third checker in
    the tray is no such move."""
    before, dice, play = bearing_off_a_pile()
    board = plain_board("wood")
    calibration = calibrated(board, tray=True)
    frame_before = board.shoot(light_layout(before, "light"), 11).image
    photo = board.shoot(light_layout(play.after, "light"), 12).image
    plain = Calibration.from_json({**calibration.to_json(), "tray": None})
    assert judge_photo(before, dice, photo, calibration=plain).verdict == "refused"
    judged = judge_photo(before, dice, photo, calibration=calibration, before_image=frame_before)
    assert judged.verdict == "legal" and judged.play is not None and judged.play.after == play.after
    alone = judge_photo(before, dice, photo, calibration=calibration)
    assert alone.verdict == "legal" and alone.play is not None and alone.play.after == play.after
    after = light_layout(play.after, "light")
    one_more = Layout(top=after.top, bottom=after.bottom, off_light=3, off_dark=after.off_dark)
    extra = board.shoot(one_more, 13).image
    assert judge_photo(before, dice, extra, calibration=calibration, before_image=frame_before).verdict != "legal"


def test_calibrate_reads_the_tray_from_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = plain_board("wood")
    start = board.shoot(START, 1000)
    assert start.tray is not None
    cv2.imwrite(str(tmp_path / "start.png"), start.image)
    cv2.imwrite(str(tmp_path / "off.png"), board.shoot(borne_off(2, 5), 3).image)
    out = tmp_path / "board.json"
    base = ["calibrate", str(tmp_path / "start.png"), "--corners", format_corners(start.corners), "-o", str(out)]
    assert main([*base, "--tray", format_corners(start.tray)]) == 0
    assert "the bear-off tray is read" in capsys.readouterr().out
    assert main(["detect", str(tmp_path / "off.png"), "--calibration", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["off"] == {"light": 2, "dark": 5, "light_sure": True, "dark_sure": True}
    assert main(["detect", str(tmp_path / "off.png"), "--calibration", str(out)]) == 0
    assert "off    light 2, dark 5" in capsys.readouterr().out
    assert main([*base, "--tray", "1,2 3,4"]) == 2
    assert "--tray" in capsys.readouterr().err
    tl, tr, br, bl = start.tray
    folded = np.array([tl, (tl + tr) / 2, tr, br, (br + bl) / 2, bl])
    assert main([*base, "--tray", format_corners(folded)]) == 2
    assert "two along each end of the tray" in capsys.readouterr().err


def test_a_rendered_tray_lies_where_the_renderer_drew_it() -> None:
    """The tray's corners in the photo, against an independent computation:
    the tray's end meets the playing area's top edge extended."""
    shot = render(
        START,
        rng=np.random.default_rng(4),
        style="wood",
        camera=CameraPose.overhead(),
        lighting=Lighting.even(),
        clutter=False,
    )
    assert shot.tray is not None
    tl, tr, br, bl = shot.corners
    t_tl, t_tr, t_br, t_bl = shot.tray
    # overhead: the tray is an upright rectangle right of the playing area, as tall as it
    assert t_tl[0] > tr[0] and t_tl[1] == pytest.approx(tr[1], abs=3.0) and t_bl[1] == pytest.approx(br[1], abs=3.0)
    assert t_tr[0] - t_tl[0] == pytest.approx(t_br[0] - t_bl[0], abs=3.0)
