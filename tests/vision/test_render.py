"""The synthetic board renderer: determinism, ground truth, styles, geometry."""

from __future__ import annotations

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
