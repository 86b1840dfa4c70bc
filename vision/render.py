"""A synthetic camera photo of a backgammon board, with its ground truth.

The board is drawn in *board space* (a flat, rectified canvas in which the
playing area is an axis-aligned rectangle; :mod:`vision.render_board`), warped
into the image with one :func:`cv2.warpPerspective` per half of the board
(one in all when it is not folded) from a :class:`CameraPose`, joined by
hands, a cup or a clock (:mod:`vision.render_props`), lit, and passed through
the lens and sensor (:mod:`vision.render_camera`). Every random choice comes
from the ``rng`` argument, so one seed gives one image.

>>> import numpy as np
>>> from vision.layout import Layout
>>> empty = Layout(top=(0,) * 12, bottom=(0,) * 12)
>>> shot = render(empty, rng=np.random.default_rng(1), size=(320, 240))
>>> shot.image.shape, shot.image.dtype.name, shot.corners.shape
((240, 320, 3), 'uint8', (4, 2))
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

from vision.layout import Layout
from vision.render_board import (
    CHECKER_HEIGHT,
    FRAME_HEIGHT,
    Geometry,
    Piece,
    base_canvas,
    checker_sprite,
    paste,
    pieces,
    side_colour,
)
from vision.render_camera import (
    CameraPose,
    Effects,
    Lighting,
    add_noise,
    distort,
    distort_points,
    jpeg,
    lens_calibration,
    motion_kernel,
    score_overlay,
    tone_curve,
)
from vision.render_props import DICE_BGR, Block, Occluder, draw_block, draw_clutter, draw_occluder
from vision.render_style import STYLES, Style, StyleError, Surface, find_style, random_style
from vision.render_texture import surface

__all__ = [
    "STYLES",
    "CameraPose",
    "Effects",
    "Lighting",
    "Occlusion",
    "Rendered",
    "Style",
    "StyleError",
    "find_style",
    "lens_calibration",
    "random_style",
    "render",
]

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Doubles = npt.NDArray[np.float64]
Occlusion = Literal["none", "hand", "arm", "cup"]
OCCLUSIONS: tuple[Occlusion, ...] = ("none", "hand", "arm", "cup")


@dataclass(frozen=True)
class Rendered:
    """A rendered photo and its ground truth."""

    image: Image
    """(H, W, 3) uint8, BGR (OpenCV order)."""
    corners: Floats
    """(4, 2) float32: TL, TR, BR, BL of the playing area in image pixels."""
    layout: Layout
    """What stands where (ground truth)."""
    occluded: bool
    """A hand, arm or dice cup covers part of the playing area."""
    bar_fraction: tuple[float, float]
    """The bar's left and right edges as fractions of the rectified playing-area width."""
    style_name: str
    barrel: float = 0.0
    """The lens's barrel distortion (:func:`lens_calibration` gives ``cv2.undistort``'s inputs); 0 = none."""
    area_maps: tuple[Doubles, Doubles] = (np.eye(3), np.eye(3))
    """3x3 maps from playing-area fractions (u across TL->TR, v down TL->BL,
    both 0..1) to image pixels before the lens: one for each side of the
    hinge at ``hinge_fraction`` (equal unless the board is folded)."""
    hinge_fraction: float = 0.5
    """Where the board folds (the bar's middle), as a fraction of the playing-area width."""
    tray: Floats | None = None
    """(4, 2) float32: the bear-off tray's corners in image pixels, the first
    two along one end and the last two along the other, or None (no tray)."""

    def to_image(self, uv: npt.ArrayLike) -> Floats:
        """Ground truth: where playing-area fractions (N, 2) (u, v) appear in
        the image, (N, 2) float32, fold and lens included."""
        points = np.asarray(uv, np.float32).reshape(-1, 2)
        left = cv2.perspectiveTransform(points[None], self.area_maps[0])[0]
        right = cv2.perspectiveTransform(points[None], self.area_maps[1])[0]
        mapped: Floats = np.asarray(np.where((points[:, 0] <= self.hinge_fraction)[:, None], left, right), np.float32)
        if self.barrel > 0:
            h, w = self.image.shape[:2]
            mapped = distort_points(mapped, (w, h), self.barrel)
        return mapped


@dataclass(frozen=True)
class _Scene:
    """Board-space facts the drawing steps share."""

    style: Style
    geo: Geometry
    lighting: Lighting
    nadir: tuple[float, float, float]
    """The camera's centre above the board, canvas pixels (x, y, height)."""
    thickness: float
    """A checker's thickness in canvas pixels."""

    def lift(self, point: tuple[float, float], height: float) -> tuple[float, float]:
        """How far the top of something ``height`` tall at ``point`` appears
        shifted on the board plane (radially away from the camera's nadir)."""
        nx, ny, nh = self.nadir
        k = height / max(nh - height, 1e-6)
        return (point[0] - nx) * k, (point[1] - ny) * k


def _unit_for(style: Style, camera: CameraPose, size: tuple[int, int]) -> float:
    """A point width (canvas pixels) so that a canvas pixel is about an image pixel."""
    probe = Geometry.of(style, 10.0)
    homography = camera.homography((probe.canvas_w, probe.canvas_h), size)
    outline = cv2.perspectiveTransform(probe.outline()[None], homography)[0]
    sides = np.linalg.norm(outline - np.roll(outline, 1, axis=0), axis=1)
    longest = max(sides[0], sides[2]) / probe.canvas_w, max(sides[1], sides[3]) / probe.canvas_h
    # in steps of 2^(1/8), so frames from similar poses share one cached board
    wanted = 10.0 * float(max(longest))
    return float(max(4.0, 2 ** (math.ceil(8 * math.log2(max(wanted, 1.0))) / 8)))


def _draw_checkers(canvas: Image, shadow: Floats, scene: _Scene, board: list[Piece]) -> None:
    """Each checker's shadow into ``shadow`` (1/4 of the canvas), then its
    edge and its lit top face, lifted toward the camera by its height."""
    style, geo, t = scene.style, scene.geo, scene.thickness
    az = round(scene.lighting.light_azimuth_deg / 15) * 15 % 360
    r = geo.radius
    sprites = {
        light: checker_sprite(
            round(r * 4) / 4, style.light_bgr if light else style.dark_bgr, round(style.gloss, 2), style.embossed, az
        )
        for light in (True, False)
    }
    for piece in board:
        top = (piece.level + 1) * t
        sx, sy = scene.lighting.shadow_shift(top)
        for k in (0.5, 1.0):
            cx, cy = piece.centre[0] + sx * k, piece.centre[1] + sy * k
            cv2.circle(shadow, (round(cx * 4), round(cy * 4)), round(r * 4), 1.0, -1, cv2.LINE_AA, shift=4)
    for piece in board:
        bx, by = scene.lift(piece.centre, piece.level * t)
        tx, ty = scene.lift(piece.centre, (piece.level + 1) * t)
        bgr = style.light_bgr if piece.light else style.dark_bgr
        base = (piece.centre[0] + bx, piece.centre[1] + by)
        cv2.circle(
            canvas,
            (round(base[0] * 16), round(base[1] * 16)),
            round(r * 16),
            side_colour(bgr),
            -1,
            cv2.LINE_AA,
            shift=4,
        )
        colour, alpha = sprites[piece.light]
        paste(canvas, colour, alpha, (piece.centre[0] + tx, piece.centre[1] + ty))


def _draw_off(canvas: Image, scene: _Scene, layout: Layout, light_upper: bool) -> None:
    """Borne-off checkers standing on edge in the trays beside the frame."""
    if scene.geo.tray is None:
        return
    tx, ty, tw, th = scene.geo.tray
    style = scene.style
    slab = min(th / 2 / 16, scene.thickness)
    for count, bgr, upper in (
        (layout.off_light, style.light_bgr, light_upper),
        (layout.off_dark, style.dark_bgr, not light_upper),
    ):
        start = ty + slab if upper else ty + th - slab
        sign = 1 if upper else -1
        for k in range(count):
            y = start + sign * k * slab
            top = (tx + tw * 0.1, y - slab * 0.45)
            bottom = (tx + tw * 0.9, y + slab * 0.45)
            cv2.rectangle(
                canvas, (round(top[0]), round(top[1])), (round(bottom[0]), round(bottom[1])), bgr, -1, cv2.LINE_AA
            )
            cv2.rectangle(
                canvas,
                (round(top[0]), round(top[1])),
                (round(bottom[0]), round(bottom[1])),
                side_colour(bgr),
                1,
                cv2.LINE_AA,
            )


def _place(
    rng: np.random.Generator,
    scene: _Scene,
    side: float,
    board: list[Piece],
    placed: list[Block],
    *,
    over_checkers: bool,
) -> Block:
    """Somewhere for a die or the cube: on a checker if asked, else in a half's
    free middle or on the bar clear of every checker; failing that, on the frame."""
    geo = scene.geo
    circles = [(p.centre, geo.radius) for p in board]
    angle = float(rng.uniform(0, 90))
    if over_checkers and board:
        target = board[int(rng.integers(len(board)))].centre
        return Block(target, side, angle)
    for _ in range(40):
        where = rng.random()
        if where < 0.75:
            half_x0 = geo.x0 + (
                geo.bar_left + geo.bar_width if rng.random() < 0.7 else 0.0
            )  # mostly the right half (X2)
            x = half_x0 + float(rng.uniform(side, 6 * geo.unit - side))
            y = geo.y0 + geo.height / 2 + float(rng.uniform(-1, 1)) * geo.height * 0.3
        else:
            x = geo.x0 + geo.bar_left + geo.bar_width / 2
            y = geo.y0 + geo.height / 2 + float(rng.uniform(-0.35, 0.35)) * geo.height
        block = Block((x, y), side, angle)
        if block.clear_of(circles, placed):
            return block
    frame_y = geo.y0 + geo.height + geo.x0 / 2
    return Block((geo.x0 + float(rng.uniform(0.2, 0.8)) * geo.width, frame_y), min(side, geo.x0 * 0.9), angle)


def _draw_blocks(
    canvas: Image,
    shadow: Floats,
    rng: np.random.Generator,
    scene: _Scene,
    board: list[Piece],
    dice: tuple[int, int] | None,
    cube: int | None,
    *,
    over_checkers: bool,
) -> list[Block]:
    """Place and draw the dice and the cube, with their shadows; return where they lie."""
    placed: list[Block] = []
    jobs: list[tuple[float, tuple[tuple[int, int, int], tuple[int, int, int]], int | str]] = []
    if dice is not None:
        colours = DICE_BGR[int(rng.integers(len(DICE_BGR)))]
        jobs += [(0.45 * scene.geo.unit, colours, die) for die in dice]
    if cube is not None:
        jobs.append((0.7 * scene.geo.unit, ((225, 232, 235), (30, 30, 30)), str(64 if cube == 1 else cube)))
    for side, (body, ink), face in jobs:
        block = _place(rng, scene, side, board, placed, over_checkers=over_checkers)
        placed.append(block)
        sx, sy = scene.lighting.shadow_shift(side)
        shade = block.corners((sx * 0.6, sy * 0.6)) * 4
        hull = cv2.convexHull(np.vstack([block.corners() * 4, shade]))
        cv2.fillConvexPoly(shadow, hull.round().astype(np.int32), 1.0, cv2.LINE_AA, shift=4)
        draw_block(canvas, block, scene.lift(block.centre, side), body, ink, face)
    return placed


def _rim_shadow(shadow: Floats, scene: _Scene) -> None:
    """The frame's shadow on the playing surface, on the side the light comes from."""
    geo = scene.geo
    sx, sy = scene.lighting.shadow_shift(FRAME_HEIGHT * geo.unit)
    x0, y0, x1, y1 = geo.x0, geo.y0, geo.x0 + geo.width, geo.y0 + geo.height
    strips = []
    if sy > 0:
        strips.append((x0, y0, x1, y0 + sy))
    if sy < 0:
        strips.append((x0, y1 + sy, x1, y1))
    if sx > 0:
        strips.append((x0, y0, x0 + sx, y1))
    if sx < 0:
        strips.append((x1 + sx, y0, x1, y1))
    for a, b, c, d in strips:
        cv2.rectangle(shadow, (round(a / 4), round(b / 4)), (round(c / 4), round(d / 4)), 0.8, -1)


def _punch_tops(shadow: Floats, scene: _Scene, board: list[Piece], blocks: list[Block]) -> None:
    """Checkers', dice's and the cube's top faces stand above the shadows around them."""
    for block in blocks:
        top = block.corners(scene.lift(block.centre, block.side)) * 4
        cv2.fillConvexPoly(shadow, top.round().astype(np.int32), 0.0, cv2.LINE_AA, shift=4)
    for piece in board:
        tx, ty = scene.lift(piece.centre, (piece.level + 1) * scene.thickness)
        centre = (round((piece.centre[0] + tx) * 4), round((piece.centre[1] + ty) * 4))
        cv2.circle(shadow, centre, round(scene.geo.radius * 0.97 * 4), 0.0, -1, cv2.LINE_AA, shift=4)


def _occluder(
    kind: Occlusion, rng: np.random.Generator, geo: Geometry, homography: Doubles, reach: tuple[float, float] | None
) -> Occluder:
    """Where a hand, arm or cup covers the playing area: a target inside it,
    reached from beyond one of the long edges (where the players sit); at
    ``reach`` (see :func:`render`) from the nearer one, else drawn in the
    middle of the area from either."""
    if reach is None:
        u, v = float(rng.uniform(0.12, 0.88)), float(rng.uniform(0.15, 0.85))
        from_bottom = rng.random() < 0.5
    else:
        u, v = reach
        from_bottom = v > 0.5
    target = (geo.x0 + u * geo.width, geo.y0 + v * geo.height)
    outside = (
        target[0] + float(rng.normal(0, 0.3)) * geo.width,
        geo.y0 + (geo.height * 2 if from_bottom else -geo.height),
    )
    step = (target[0] + 2 * geo.radius, target[1])
    mapped = cv2.perspectiveTransform(np.array([[target, outside, step]], np.float32), homography)[0]
    direction = mapped[0] - mapped[1]
    direction /= max(float(np.linalg.norm(direction)), 1e-6)
    return Occluder(
        kind=kind,
        target=(float(mapped[0][0]), float(mapped[0][1])),
        direction=(float(direction[0]), float(direction[1])),
        scale=float(np.linalg.norm(mapped[2] - mapped[0])),
    )


def _warp_halves(
    source: npt.NDArray[Any], halves: tuple[Doubles, Doubles], hinge: float, dst: npt.NDArray[Any]
) -> None:
    """Warp ``source`` (board space) into ``dst`` (the image), the part left
    of ``hinge`` with ``halves[0]`` and the rest with ``halves[1]`` (one warp
    when they agree); the parts overlap by two pixels so no seam shows."""
    h, w = dst.shape[:2]
    if np.allclose(halves[0], halves[1]):
        cv2.warpPerspective(
            source, halves[0], (w, h), dst=dst, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT
        )
        return
    split = round(hinge)
    for part, homography, start in (
        (source[:, : split + 2], halves[0], 0),
        (source[:, max(0, split - 2) :], halves[1], max(0, split - 2)),
    ):
        moved = homography @ np.array([[1.0, 0.0, start], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])
        cv2.warpPerspective(part, moved, (w, h), dst=dst, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)


def _corners(quad: Floats, halves: tuple[Doubles, Doubles]) -> Floats:
    """A board-space quadrilateral TL, TR, BR, BL (4, 2) in the image: the
    left corners through the left half's map, the right ones through the right's."""
    left = cv2.perspectiveTransform(quad[None], halves[0])[0]
    right = cv2.perspectiveTransform(quad[None], halves[1])[0]
    return np.array([left[0], right[1], right[2], left[3]], np.float32)


@lru_cache(maxsize=4)
def _table(bgr: tuple[int, int, int], size: tuple[int, int], seed: int) -> Image:
    """The table under the board, (H, W, 3) uint8 for ``size`` (w, h): a
    wooden top, a cloth or a plain top by ``seed``; cached, read-only."""
    w, h = size
    kind: Surface = ("wood", "felt", "plain")[seed % 3]
    small = surface(kind, bgr, ((h + 3) // 4, (w + 3) // 4), strength=0.35, seed=seed)
    table = np.asarray(cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR), np.uint8)
    table.setflags(write=False)
    return table


def _light(image: Image, lighting: Lighting, shade: Floats, vignette: Floats | None) -> Image:
    """``image`` (H, W, 3) under ``lighting``: gain, shadows (``shade``, 1/4
    resolution, 0..1), the lens's ``vignette`` (1/4 resolution, or None),
    colour cast and glare."""
    h, w = image.shape[:2]
    if lighting != Lighting.even() or vignette is not None:
        gain = lighting.gain_map((w, h)) * (1 - lighting.shadow * shade)
        if vignette is not None:
            gain *= vignette
        tinted = cv2.merge([gain * np.float32(t) for t in lighting.tint])
        full = cv2.resize(tinted, (w, h), interpolation=cv2.INTER_LINEAR)
        image = np.asarray(cv2.multiply(image, full, dtype=cv2.CV_8U), np.uint8)
    if lighting.glare[3] > 0:
        glare = cv2.resize(lighting.glare_map((w, h)), (w, h), interpolation=cv2.INTER_LINEAR)
        image = np.asarray(cv2.add(image, cv2.merge([glare, glare, glare]), dtype=cv2.CV_8U), np.uint8)
    return image


def _scale(homography: Doubles, geo: Geometry) -> float:
    """Image pixels per board-space pixel at the board's centre."""
    centre = (geo.canvas_w / 2, geo.canvas_h / 2)
    ends = cv2.perspectiveTransform(np.array([[centre, (centre[0] + geo.unit, centre[1])]], np.float32), homography)[0]
    return float(np.linalg.norm(ends[1] - ends[0])) / geo.unit


def _image_direction(homography: Doubles, at: tuple[float, float], shift: tuple[float, float]) -> tuple[float, float]:
    """The image direction (unit) of a board-space ``shift`` at ``at``."""
    a = cv2.perspectiveTransform(np.array([[at, (at[0] + shift[0], at[1] + shift[1])]], np.float32), homography)[0]
    d = a[1] - a[0]
    n = max(float(np.linalg.norm(d)), 1e-6)
    return float(d[0] / n), float(d[1] / n)


def render(
    layout: Layout,
    *,
    rng: np.random.Generator,
    style: Style | str = "wood",
    size: tuple[int, int] = (1280, 720),
    camera: CameraPose | None = None,
    occlusion: Occlusion = "none",
    reach: tuple[float, float] | None = None,
    dice: tuple[int, int] | None = None,
    cube: int | None = None,
    lighting: Lighting | None = None,
    effects: Effects | None = None,
    board_seed: int | None = None,
    props_over_checkers: bool = False,
    clutter: bool | None = None,
    gaps: float = 0.0,
    gaps_seed: int | None = None,
) -> Rendered:
    """Render ``layout`` as a camera photo of ``size`` (width, height).

    ``style`` is a :class:`Style`, a name in :data:`STYLES` or ``"random"``.
    ``camera``, ``lighting`` and ``effects`` left as None are drawn from
    ``rng`` (pass :meth:`CameraPose.overhead`, :meth:`Lighting.even` and
    :meth:`Effects.none` for a clean, flat picture). ``dice`` and ``cube``
    (its face: 2..64, or 1 for a centred cube showing 64) lie on the board,
    clear of the checkers unless ``props_over_checkers``. ``board_seed`` fixes
    the board's grain (a physical board keeps it between frames; drawn from
    ``rng`` when None). ``clutter`` puts a dice cup or a game clock on the
    table beside the board, never over the playing area (None: in 30 % of
    frames, drawn from ``rng``). ``occlusion`` puts a hand, an arm or a dice cup over
    part of the playing area and sets ``Rendered.occluded``; ``reach``: where
    it reaches to, as fractions (x, y) of the playing area's width and height
    from its top-left corner (drawn in its middle when None). ``gaps`` leaves
    the checkers of each line apart, by that many checker radii each (a
    standard deviation), as ``gaps_seed`` places them (see
    :func:`vision.render_board.pieces`).
    """
    if occlusion not in OCCLUSIONS:
        raise ValueError(f"occlusion {occlusion!r}: expected one of {', '.join(OCCLUSIONS)}")
    if reach is not None and not all(0.0 <= f <= 1.0 for f in reach):
        raise ValueError(f"reach {reach!r}: expected two fractions 0..1 of the playing area")
    if dice is not None and not all(1 <= d <= 6 for d in dice):
        raise ValueError(f"dice {dice!r}: expected two faces 1..6")
    if isinstance(style, str):
        style = random_style(rng) if style == "random" else find_style(style)
    camera = CameraPose.random(rng) if camera is None else camera
    lighting = Lighting.random(rng) if lighting is None else lighting
    effects = Effects.random(rng) if effects is None else effects
    seed = int(rng.integers(2**31)) if board_seed is None else board_seed
    w, h = size

    geo = Geometry.of(style, _unit_for(style, camera, size))
    hinge = geo.x0 + geo.bar_left + geo.bar_width / 2
    halves = camera.homographies((geo.canvas_w, geo.canvas_h), size, hinge)
    homography = halves[0]
    nx, ny, nh = camera.nadir()
    scene = _Scene(
        style=style,
        geo=geo,
        lighting=lighting,
        nadir=(geo.canvas_w / 2 + nx * geo.canvas_w, geo.canvas_h / 2 + ny * geo.canvas_w, nh * geo.canvas_w),
        thickness=CHECKER_HEIGHT * geo.radius,
    )

    canvas = base_canvas(style, geo.unit, seed % 1000).copy()
    shadow = np.zeros(((geo.canvas_h + 3) // 4, (geo.canvas_w + 3) // 4), np.float32)
    light_bar_upper = bool(rng.random() < 0.5)
    board = pieces(style, geo, layout, light_bar_upper=light_bar_upper, rng=rng, gaps=gaps, gaps_seed=gaps_seed)
    _draw_checkers(canvas, shadow, scene, board)
    _draw_off(canvas, scene, layout, bool(rng.random() < 0.5))
    blocks = _draw_blocks(canvas, shadow, rng, scene, board, dice, cube, over_checkers=props_over_checkers)
    _rim_shadow(shadow, scene)
    shadow = np.asarray(cv2.GaussianBlur(shadow, (0, 0), max(0.8, geo.radius / 12)), np.float32)
    _punch_tops(shadow, scene, board, blocks)

    table_image = _table(style.table_bgr, size, seed % 12)
    image = table_image.copy()
    _warp_halves(canvas, halves, hinge, image)
    small = ((w + 3) // 4, (h + 3) // 4)
    shade = np.zeros((small[1], small[0]), np.float32)
    scale_down, scale_up = np.diag([0.25, 0.25, 1.0]), np.diag([4.0, 4.0, 1.0])
    quarters = (scale_down @ halves[0] @ scale_up, scale_down @ halves[1] @ scale_up)
    _warp_halves(shadow, quarters, hinge / 4, shade)
    # the board's own shadow on the table
    outline = _corners(geo.outline(), quarters)
    drop = np.zeros_like(shade)
    offset = (
        np.array(_image_direction(homography, (geo.canvas_w / 2, geo.canvas_h / 2), lighting.shadow_shift(1.0)))
        * geo.unit
        * 0.15
    )
    cv2.fillConvexPoly(drop, (outline + offset).round().astype(np.int32), 0.8)
    cv2.fillConvexPoly(drop, outline.round().astype(np.int32), 0.0)
    shade = np.maximum(shade, np.asarray(cv2.GaussianBlur(drop, (0, 0), 2.0), np.float32))

    light_img = _image_direction(homography, (geo.canvas_w / 2, geo.canvas_h / 2), lighting.shadow_shift(1.0))
    if rng.random() < 0.3 if clutter is None else clutter:
        board_outline = _corners(geo.outline(), halves)
        draw_clutter(image, shade, board_outline, 2 * geo.radius * _scale(homography, geo), rng, light_img)
    occluded = occlusion != "none"
    if occluded:
        occ = _occluder(occlusion, rng, geo, homography, reach)
        draw_occluder(image, shade, occ, rng, light_img)

    vignette = effects.vignette_map(size) if effects.vignette > 0 else None
    corners = _corners(geo.area(), halves)
    tray_quad = geo.tray_corners()
    tray = None if tray_quad is None else cv2.perspectiveTransform(tray_quad[None], halves[1])[0]
    if effects.barrel > 0:
        # past the rendered frame's edge the lens sees more table, lit like the rest;
        # the vignette belongs to the lens, so it darkens the distorted frame's corners
        image = distort(
            _light(image, lighting, shade, None), effects.barrel, background=_light(table_image, lighting, shade, None)
        )
        if vignette is not None:
            full = cv2.resize(vignette, (w, h), interpolation=cv2.INTER_LINEAR)
            image = np.asarray(cv2.multiply(image, cv2.merge([full, full, full]), dtype=cv2.CV_8U), np.uint8)
        corners = distort_points(corners, size, effects.barrel)
        tray = None if tray is None else distort_points(tray, size, effects.barrel)
    else:
        image = _light(image, lighting, shade, vignette)
    if effects.gamma != 1.0:
        image = tone_curve(image, effects.gamma)
    if effects.blur_sigma > 0.2:
        image = np.asarray(cv2.GaussianBlur(image, (0, 0), effects.blur_sigma), np.uint8)
    if effects.motion_px > 1:
        image = np.asarray(cv2.filter2D(image, -1, motion_kernel(effects.motion_px, effects.motion_deg)), np.uint8)
    if effects.overlay:
        score_overlay(image, corners, rng)
    if effects.noise_sigma > 0:
        image = add_noise(image, effects.noise_sigma, rng)
    if effects.jpeg_quality is not None:
        image = jpeg(image, effects.jpeg_quality)

    bar = (geo.bar_left / geo.width, (geo.bar_left + geo.bar_width) / geo.width)
    from_fractions = np.array([[geo.width, 0, geo.x0], [0, geo.height, geo.y0], [0, 0, 1]], np.float64)
    log.debug("rendered style %s at unit %.1f px, occlusion %s", style.name, geo.unit, occlusion)
    return Rendered(
        image=image,
        corners=corners.astype(np.float32),
        layout=layout,
        occluded=occluded,
        bar_fraction=bar,
        style_name=style.name,
        barrel=effects.barrel,
        area_maps=(halves[0] @ from_fractions, halves[1] @ from_fractions),
        hinge_fraction=(hinge - geo.x0) / geo.width,
        tray=None if tray is None else tray.astype(np.float32),
    )
