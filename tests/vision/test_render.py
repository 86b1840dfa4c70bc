"""The synthetic board renderer: determinism, ground truth, styles, geometry."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

from engine.position import Position
from vision.layout import Layout, layout_from_position
from vision.render import STYLES, CameraPose, Effects, Lighting, StyleError, random_style, render

START = layout_from_position(Position.start())
SMALL = (480, 320)


def test_render_same_seed_same_image() -> None:
    a = render(START, rng=np.random.default_rng(7), size=SMALL, style="random", occlusion="hand", dice=(3, 1))
    b = render(START, rng=np.random.default_rng(7), size=SMALL, style="random", occlusion="hand", dice=(3, 1))
    c = render(START, rng=np.random.default_rng(8), size=SMALL, style="random", occlusion="hand", dice=(3, 1))
    assert np.array_equal(a.image, b.image) and np.array_equal(a.corners, b.corners)
    assert not np.array_equal(a.image, c.image)


def test_render_shape_dtype_and_ground_truth() -> None:
    shot = render(START, rng=np.random.default_rng(1), size=(640, 400))
    assert shot.image.shape == (400, 640, 3) and shot.image.dtype == np.uint8
    assert shot.corners.shape == (4, 2) and shot.corners.dtype == np.float32
    assert shot.layout == START
    assert not shot.occluded


@pytest.mark.parametrize("seed", range(12))
def test_render_corners_inside_image(seed: int) -> None:
    shot = render(START, rng=np.random.default_rng(seed), size=SMALL, style="random")
    w, h = SMALL
    assert (shot.corners >= 0).all() and (shot.corners[:, 0] <= w).all() and (shot.corners[:, 1] <= h).all()


@pytest.mark.parametrize("name", sorted(STYLES))
def test_render_every_style(name: str) -> None:
    shot = render(START, rng=np.random.default_rng(2), size=SMALL, style=name)
    assert shot.style_name == name
    assert shot.image.std() > 10  # not a blank frame


def test_render_overhead_corners_and_bar_match_geometry() -> None:
    shot = render(
        START,
        rng=np.random.default_rng(3),
        size=(800, 600),
        camera=CameraPose.overhead(),
        lighting=Lighting.even(),
        effects=Effects.none(),
    )
    tl, tr, br, bl = shot.corners
    assert tl[1] == pytest.approx(tr[1], abs=0.5) and bl[1] == pytest.approx(br[1], abs=0.5)
    assert tl[0] == pytest.approx(bl[0], abs=0.5) and tr[0] == pytest.approx(br[0], abs=0.5)
    left, right = shot.bar_fraction
    style = STYLES["wood"]
    assert left == pytest.approx(6 / (12 + style.bar_width))
    assert right - left == pytest.approx(style.bar_width / (12 + style.bar_width))


@pytest.mark.parametrize("occlusion", ["hand", "arm", "cup"])
def test_render_occlusion_sets_flag(occlusion: str) -> None:
    clear = render(START, rng=np.random.default_rng(4), size=SMALL)
    covered = render(START, rng=np.random.default_rng(4), size=SMALL, occlusion=occlusion)  # type: ignore[arg-type]
    assert covered.occluded and not clear.occluded


@pytest.mark.parametrize("reach", [(0.04, 0.96), (0.5, 0.5), (0.9, 0.05)])
def test_render_puts_a_cup_where_it_is_asked_to_reach(reach: tuple[float, float]) -> None:
    flat = {"size": SMALL, "camera": CameraPose.overhead(), "lighting": Lighting.even(), "effects": Effects.none()}
    clear = render(START, rng=np.random.default_rng(4), clutter=False, **flat)  # type: ignore[arg-type]
    covered = render(START, rng=np.random.default_rng(4), clutter=False, occlusion="cup", reach=reach, **flat)  # type: ignore[arg-type]
    target = clear.area_maps[0] @ np.array([reach[0], reach[1], 1.0])
    x, y = np.rint(target[:2] / target[2]).astype(int)
    changed = np.abs(covered.image.astype(int) - clear.image.astype(int)).max(axis=-1) > 30
    ys, xs = np.nonzero(changed)
    assert len(xs) > 1000 and np.hypot(xs.mean() - x, ys.mean() - y) < 0.02 * SMALL[0]  # the cup stands there


def test_render_refuses_a_reach_off_the_playing_area() -> None:
    with pytest.raises(ValueError, match="reach"):
        render(START, rng=np.random.default_rng(0), occlusion="hand", reach=(1.2, 0.5))


def test_render_unknown_style_names_it() -> None:
    with pytest.raises(StyleError, match="'plaid'"):
        render(START, rng=np.random.default_rng(0), style="plaid")


def test_random_style_varies_with_seed() -> None:
    styles = {random_style(np.random.default_rng(s)) for s in range(8)}
    assert len(styles) == 8


def test_render_empty_board() -> None:
    empty = Layout(top=(0,) * 12, bottom=(0,) * 12)
    shot = render(empty, rng=np.random.default_rng(0), size=SMALL)
    assert shot.layout == empty


def test_render_effects_barrel_moves_corners_inward() -> None:
    flat = dict(camera=CameraPose.overhead(), lighting=Lighting.even())
    straight = render(START, rng=np.random.default_rng(5), size=SMALL, effects=Effects.none(), **flat)  # type: ignore[arg-type]
    bent = render(START, rng=np.random.default_rng(5), size=SMALL, effects=Effects(barrel=0.15), **flat)  # type: ignore[arg-type]
    centre = np.array(SMALL, np.float32) / 2
    assert bent.barrel == 0.15
    assert (np.linalg.norm(bent.corners - centre, axis=1) < np.linalg.norm(straight.corners - centre, axis=1)).all()


def test_render_barrel_corners_undistort_back() -> None:
    import cv2

    from vision.render import lens_calibration

    flat = dict(camera=CameraPose.overhead(), lighting=Lighting.even())
    straight = render(START, rng=np.random.default_rng(5), size=SMALL, effects=Effects.none(), **flat)  # type: ignore[arg-type]
    bent = render(START, rng=np.random.default_rng(5), size=SMALL, effects=Effects(barrel=0.12), **flat)  # type: ignore[arg-type]
    matrix, coeffs = lens_calibration(SMALL, bent.barrel)
    back = cv2.undistortPoints(bent.corners[:, None, :], matrix, coeffs, P=matrix)[:, 0, :]
    assert np.abs(back - straight.corners).max() < 0.5


def test_render_checkers_stand_where_the_layout_says() -> None:
    """Independent check: sample the rectified image at each point's first
    checker and compare its brightness with the empty point's."""
    import cv2

    plain = dict(
        camera=CameraPose(rotation_deg=90, tilt_deg=20, distance=2.5), lighting=Lighting.even(), effects=Effects.none()
    )
    empty = Layout(top=(0,) * 12, bottom=(0,) * 12)
    board = Layout(top=(1, -2, 0, 3, 0, 0, -1, 0, 0, 5, 0, 0), bottom=(0, 0, -5, 0, 0, 2, 0, 0, 0, 0, 1, -1))
    for layout in (empty, board):
        shot = render(layout, rng=np.random.default_rng(6), size=(800, 800), style="felt-green", **plain)  # type: ignore[arg-type]
        style = STYLES["felt-green"]
        rect_w, rect_h = 12 * 40 + style.bar_width * 40, style.board_height * 40
        target = np.array([[0, 0], [rect_w, 0], [rect_w, rect_h], [0, rect_h]], np.float32)
        top_down = cv2.warpPerspective(
            shot.image, cv2.getPerspectiveTransform(shot.corners, target), (int(rect_w), int(rect_h))
        )
        grey = cv2.cvtColor(top_down, cv2.COLOR_BGR2GRAY).astype(float)
        for row, counts in (("top", layout.top), ("bottom", layout.bottom)):
            for index, count in enumerate(counts):
                x = (index + 0.5 + (style.bar_width if index >= 6 else 0)) * 40
                y = style.checker_radius * 40 if row == "top" else rect_h - style.checker_radius * 40
                value = grey[int(y) - 3 : int(y) + 4, int(x) - 3 : int(x) + 4].mean()
                if count > 0:
                    assert value > 170, (row, index, value)
                elif count < 0:
                    assert value < 70, (row, index, value)


def test_render_command_writes_image_and_corners(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    import cv2

    from firmware.cli import main

    out = tmp_path / "board.png"
    code = main(
        ["render", "4HPwATDgc/ABMA", "-o", str(out), "--seed", "2", "--size", "320x240", "--dice", "31", "--json"]
    )
    assert code == 0
    reply = json.loads(capsys.readouterr().out)
    assert len(reply["corners"]) == 4 and reply["occluded"] is False
    assert reply["layout"]["top"] == list(START.top)
    image = cv2.imread(str(out))
    assert image is not None and image.shape == (240, 320, 3)
    shot = render(START, rng=np.random.default_rng(2), size=(320, 240), dice=(3, 1))
    assert np.allclose(np.array(reply["corners"]), shot.corners, atol=0.01)
    assert shot.tray is not None and np.allclose(np.array(reply["tray"]), shot.tray, atol=0.01)
    loose = tmp_path / "loose.png"
    assert (
        main(["render", "4HPwATDgc/ABMA", "-o", str(loose), "--seed", "2", "--size", "320x240", "--gaps", "0.5"]) == 0
    )
    spread = render(START, rng=np.random.default_rng(2), size=(320, 240), gaps=0.5)
    assert np.array_equal(cv2.imread(str(loose)), spread.image)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["render", "nonsense", "-o", "{out}"], "'nonsense'"),
        (["render", "4HPwATDgc/ABMA", "-o", "{out}", "--style", "plaid"], "'plaid'"),
        (["render", "4HPwATDgc/ABMA", "-o", "{out}", "--size", "12"], "'12'"),
        (["render", "4HPwATDgc/ABMA", "-o", "{out}", "--dice", "71"], "'71'"),
        (["render", "4HPwATDgc/ABMA", "-o", "{out}", "--cube", "3"], "C3"),
        (["render", "4HPwATDgc/ABMA", "-o", "{out}", "--gaps", "-0.2"], "gaps -0.2"),
        (["render", "4HPwATDgc/ABMA", "-o", "{out}", "--gaps", "nan"], "gaps nan"),
        (["render", "4HPwATDgc/ABMA", "-o", "{missing}"], "cannot write"),
    ],
)
def test_render_command_bad_input_exits_2(
    argv: list[str], message: str, tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from firmware.cli import main

    filled = [a.format(out=tmp_path / "x.png", missing=tmp_path / "no" / "x.png") for a in argv]
    assert main(filled) == 2
    assert message in capsys.readouterr().err


def test_render_folded_board_bends_the_right_half() -> None:
    flat_pose = CameraPose(tilt_deg=10, distance=2.0)
    folded_pose = CameraPose(tilt_deg=10, distance=2.0, fold_deg=8)
    plain = dict(lighting=Lighting.even(), effects=Effects.none())
    flat = render(START, rng=np.random.default_rng(1), size=(800, 600), camera=flat_pose, **plain)  # type: ignore[arg-type]
    folded = render(START, rng=np.random.default_rng(1), size=(800, 600), camera=folded_pose, **plain)  # type: ignore[arg-type]

    # flat: the top and bottom edges are straight lines through the bar; folded: the right half turns
    # toward the camera, so its edge is longer relative to the left one than on the flat board
    def ratio(c: np.ndarray) -> float:
        return float(np.linalg.norm(c[2] - c[1]) / np.linalg.norm(c[3] - c[0]))

    assert ratio(folded.corners) > ratio(flat.corners) * 1.02


def test_render_glare_brightens_part_of_the_board() -> None:
    plain = dict(camera=CameraPose.overhead(), effects=Effects.none())
    dull = render(START, rng=np.random.default_rng(2), size=SMALL, lighting=Lighting.even(), **plain)  # type: ignore[arg-type]
    shiny = render(
        START, rng=np.random.default_rng(2), size=SMALL, lighting=Lighting(glare=(0.5, 0.5, 0.1, 0.4)), **plain
    )  # type: ignore[arg-type]
    diff = shiny.image.astype(int) - dull.image.astype(int)
    assert diff.min() >= 0 and diff[SMALL[1] // 2, SMALL[0] // 2].mean() > 60 and diff[0, 0].mean() < 2


def test_changed_light_keeps_the_room_and_moves_a_lamps_pool_of_light() -> None:
    room = Lighting.random(np.random.default_rng(3))
    for seed in range(20):
        later = room.changed(np.random.default_rng(seed))
        assert 0.8 * room.gain <= later.gain <= 1.25 * room.gain
        assert later.spot != room.spot and 0 <= later.spot[3] <= 0.35
        kept = ("gradient", "tint", "light_azimuth_deg", "light_elevation_deg", "shadow", "glare")
        assert all(getattr(later, name) == getattr(room, name) for name in kept)
    brighter = Lighting.even().changed(np.random.default_rng(0))
    plain = dict(camera=CameraPose.overhead(), effects=Effects.none())
    before = render(START, rng=np.random.default_rng(2), size=SMALL, lighting=Lighting.even(), **plain)  # type: ignore[arg-type]
    after = render(START, rng=np.random.default_rng(2), size=SMALL, lighting=brighter, **plain)  # type: ignore[arg-type]
    assert not np.array_equal(before.image, after.image)


def test_render_command_long_nardy(tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from engine.rules import LONG_NARDY
    from firmware.cli import main

    position = Position.start(LONG_NARDY).position_id()
    code = main(
        [
            "render",
            position,
            "-o",
            str(tmp_path / "n.png"),
            "--variant",
            "long-nardy",
            "--plain",
            "--json",
            "--size",
            "320x240",
        ]
    )
    assert code == 0
    layout = json.loads(capsys.readouterr().out)["layout"]
    assert layout["top"] == [0] * 11 + [15] and layout["bottom"] == [-15] + [0] * 11


@pytest.mark.parametrize("seed", range(4))
def test_render_clutter_stays_off_the_board(seed: int) -> None:
    import cv2

    plain = dict(camera=CameraPose(fill=0.6), lighting=Lighting.even(), effects=Effects.none())
    bare = render(START, rng=np.random.default_rng(seed), size=SMALL, clutter=False, **plain)  # type: ignore[arg-type]
    busy = render(START, rng=np.random.default_rng(seed), size=SMALL, clutter=True, **plain)  # type: ignore[arg-type]
    inside = np.zeros(bare.image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, bare.corners.round().astype(np.int32), 1)
    changed = np.any(bare.image != busy.image, axis=2)
    assert changed.any() and not (changed & (inside > 0)).any()


@pytest.mark.parametrize("seed", range(6))
def test_render_to_image_finds_every_checker(seed: int) -> None:
    """Independent of the drawing code: project each point's first checker
    through ``to_image`` (fold and lens included) and check its colour."""
    rng = np.random.default_rng(100 + seed)
    camera = CameraPose(
        rotation_deg=float(rng.choice([0, 90, 180, -90])) + float(rng.normal(0, 4)),
        tilt_deg=float(rng.uniform(0, 18)),
        tilt_azimuth_deg=float(rng.uniform(0, 360)),
        distance=float(rng.uniform(2.2, 3.5)),
        fold_deg=float(rng.uniform(-5, 5)),
    )
    effects = Effects(barrel=0.1 if seed % 2 else 0.0)
    layout = Layout(top=(2, 0, -3, 0, 1, 0, 0, -1, 0, 4, 0, -2), bottom=(-5, 0, 0, 3, 0, -1, 2, 0, 0, 0, 1, 0))
    style = STYLES["felt-green"]
    shot = render(
        layout, rng=rng, size=(960, 720), style="felt-green", camera=camera, lighting=Lighting.even(), effects=effects
    )
    assert np.allclose(shot.to_image([[0, 0], [1, 0], [1, 1], [0, 1]]), shot.corners, atol=0.05)
    width = 12 + style.bar_width
    grey = shot.image.astype(float).mean(axis=2)
    for row, counts in (("top", layout.top), ("bottom", layout.bottom)):
        for index, count in enumerate(counts):
            if count == 0:
                continue
            u = (index + 0.5 + (style.bar_width if index >= 6 else 0)) / width
            v = style.checker_radius / style.board_height
            x, y = shot.to_image([[u, v if row == "top" else 1 - v]])[0]
            value = grey[round(y) - 1 : round(y) + 2, round(x) - 1 : round(x) + 2].mean()
            assert (value > 150) if count > 0 else (value < 80), (row, index, count, value)


@pytest.mark.parametrize("over_checkers", [False, True])
def test_render_dice_and_cube_keep_off_checkers_unless_asked(over_checkers: bool) -> None:
    layout = Layout(top=(5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2), bottom=(-5, 3, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2))
    plain = dict(
        size=(800, 600), camera=CameraPose.overhead(), lighting=Lighting.even(), effects=Effects.none(), clutter=False
    )
    bare = render(layout, rng=np.random.default_rng(8), **plain)  # type: ignore[arg-type]
    props = render(
        layout, rng=np.random.default_rng(8), dice=(6, 6), cube=8, props_over_checkers=over_checkers, **plain
    )  # type: ignore[arg-type]
    changed = np.argwhere(np.any(bare.image != props.image, axis=2))[:, ::-1].astype(np.float32)
    assert len(changed) > 0
    style = STYLES["wood"]
    width = 12 + style.bar_width
    centres = []
    for row, counts in (("top", layout.top), ("bottom", layout.bottom)):
        for index, count in enumerate(counts):
            for k in range(min(abs(count), 5)):
                u = (index + 0.5 + (style.bar_width if index >= 6 else 0)) / width
                v = (2 * k + 1) * style.checker_radius / style.board_height
                centres.append((u, v if row == "top" else 1 - v))
    pixels = props.to_image(centres)
    radius = style.checker_radius / width * float(np.linalg.norm(props.corners[1] - props.corners[0]))
    nearest = np.min(np.linalg.norm(changed[:, None, :] - pixels[None, :, :], axis=2), axis=1)
    covered = bool((nearest < 0.8 * radius).any())
    assert covered == over_checkers


@pytest.mark.parametrize("seed", range(4))
def test_render_broadcast_overlay_stays_off_the_playing_area(seed: int) -> None:
    import cv2

    common = dict(size=SMALL, camera=CameraPose(fill=0.75), lighting=Lighting.even(), clutter=False)
    bare = render(START, rng=np.random.default_rng(seed), effects=Effects(), **common)  # type: ignore[arg-type]
    shown = render(START, rng=np.random.default_rng(seed), effects=Effects(overlay=True), **common)  # type: ignore[arg-type]
    inside = np.zeros(bare.image.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, bare.corners.round().astype(np.int32), 1)
    changed = np.any(bare.image != shown.image, axis=2)
    assert changed.any() and not (changed & (inside > 0)).any()


def test_styles_light_checkers_are_the_brighter() -> None:
    from vision.render_style import luminance

    styles = list(STYLES.values()) + [random_style(np.random.default_rng(s)) for s in range(200)]
    assert all(luminance(s.light_bgr) > luminance(s.dark_bgr) for s in styles)


def test_render_gaps_leave_each_line_apart_and_piles_as_they_are() -> None:
    """With ``gaps``, the checkers of a line of five or fewer stand apart:
    the line grows longer than touching checkers' and no two of it come
    closer than touching; a pile of six keeps its place; without gaps,
    every checker stands touching, where :func:`stack` has it."""
    from vision.render_board import Geometry, pieces, stack

    style = STYLES["wood"]
    geo = Geometry.of(style, 40.0)
    r = geo.radius
    layout = Layout(top=(5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -6), bottom=(0, 0, -3, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    points = [("top", 0, 5), ("bottom", 2, 3), ("top", 11, 6)]

    def from_edge(gaps: float, row: str, index: int) -> np.ndarray:
        """How far from the board's edge the checkers of one point stand, nearest first."""
        drawn = pieces(style, geo, layout, light_bar_upper=True, rng=np.random.default_rng(3), gaps=gaps)
        ys = [p.centre[1] for p in drawn if abs(p.centre[0] - geo.point_x(index)) < r]
        return np.sort([y - geo.y0 if row == "top" else geo.y0 + geo.height - y for y in ys])

    for row, index, count in points:
        ideal = np.sort(
            [
                y - geo.y0 if row == "top" else geo.y0 + geo.height - y
                for (_, y), _ in stack(style, geo, row, index, count)
            ]
        )
        assert np.abs(from_edge(0.0, row, index) - ideal).max() < 0.1 * r
    for row, index, _ in points[:2]:
        apart = from_edge(0.3, row, index)
        assert np.diff(apart).min() > 1.9 * r  # touching is 2 r, less a hand's nudge
        assert apart[-1] - from_edge(0.0, row, index)[-1] > 0.2 * r
    assert np.abs(from_edge(0.3, "top", 11) - from_edge(0.0, "top", 11)).max() < 0.1 * r


def test_render_gaps_of_one_seed_leave_the_checkers_not_moved_where_they_stood() -> None:
    """Two frames of one game drawn with the same ``gaps_seed``: a fifth
    checker joins the four on top 1 and the outermost of three leaves
    bottom 3; the rest stand where they stood (give or take a hand's
    nudge), the fifth after the four. Another seed leaves them elsewhere."""
    from vision.render_board import Geometry, pieces

    style = STYLES["wood"]
    geo = Geometry.of(style, 40.0)
    r = geo.radius
    before = Layout(top=(4,) + (0,) * 11, bottom=(0, 0, -3) + (0,) * 9)
    after = Layout(top=(5,) + (0,) * 11, bottom=(0, 0, -2) + (0,) * 9)

    def from_edge(layout: Layout, seed: int, frame: int, row: str, index: int) -> np.ndarray:
        """How far from the board's edge the checkers of one point stand in one frame, nearest first."""
        drawn = pieces(
            style, geo, layout, light_bar_upper=True, rng=np.random.default_rng(frame), gaps=0.3, gaps_seed=seed
        )
        ys = [p.centre[1] for p in drawn if abs(p.centre[0] - geo.point_x(index)) < r]
        return np.sort([y - geo.y0 if row == "top" else geo.y0 + geo.height - y for y in ys])

    top, bottom = from_edge(before, 7, 1, "top", 0), from_edge(before, 7, 1, "bottom", 2)
    top_after, bottom_after = from_edge(after, 7, 2, "top", 0), from_edge(after, 7, 2, "bottom", 2)
    assert np.abs(top_after[:4] - top).max() < 0.1 * r and top_after[4] - top[3] > 1.9 * r
    assert np.abs(bottom_after - bottom[:2]).max() < 0.1 * r
    assert np.abs(from_edge(before, 8, 1, "top", 0) - top).max() > 0.1 * r
