"""The board in board space: a flat, rectified canvas of the whole board
(frame, playing area, bar, trays) with its checkers, dice and cube, and the
shadows they cast.

Board space is in canvas pixels; the playing area is the axis-aligned
rectangle from (``x0``, ``y0``) of ``width`` x ``height``. One point's base is
``unit`` pixels wide. The renderer warps the canvas into the camera image.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.layout import Layout
from vision.render_style import BGR, Style
from vision.render_texture import apply_shading, shading

Image = npt.NDArray[np.uint8]
Field = npt.NDArray[np.float32]
Point = tuple[float, float]

#: Thickness of a checker, in checker radii (a 38 mm checker is about 7.5 mm thick).
CHECKER_HEIGHT = 0.4
#: Height of the frame above the playing surface, in point widths.
FRAME_HEIGHT = 0.35


@dataclass(frozen=True)
class Geometry:
    """Board-space lengths in canvas pixels."""

    unit: float
    """One point's width."""
    x0: float
    y0: float
    width: float
    """Playing area, bar included."""
    height: float
    bar_left: float
    """The bar's left edge, from ``x0``."""
    bar_width: float
    tray: tuple[float, float, float, float] | None
    """The bear-off trays' outer rectangle (x, y, w, h), right of the frame, or None."""
    canvas_w: int
    canvas_h: int
    radius: float
    """Checker radius."""

    @classmethod
    def of(cls, style: Style, unit: float) -> Geometry:
        frame = style.frame_width * unit
        bar = style.bar_width * unit
        width = 12 * unit + bar
        height = style.board_height * unit
        tray_w = 1.25 * unit
        tray = (2 * frame + width, frame, tray_w, height) if style.trays else None
        total_w = width + 2 * frame + (tray_w + frame if style.trays else 0.0)
        return cls(
            unit=unit,
            x0=frame,
            y0=frame,
            width=width,
            height=height,
            bar_left=6 * unit,
            bar_width=bar,
            tray=tray,
            canvas_w=math.ceil(total_w),
            canvas_h=math.ceil(height + 2 * frame),
            radius=style.checker_radius * unit,
        )

    def point_x(self, index: int) -> float:
        """Centre x of the point at ``index`` (0..11, left to right)."""
        x = self.x0 + (index + 0.5) * self.unit
        return x + self.bar_width if index >= 6 else x

    def area(self) -> npt.NDArray[np.float32]:
        """The playing area's corners TL, TR, BR, BL, (4, 2) float32."""
        x0, y0, x1, y1 = self.x0, self.y0, self.x0 + self.width, self.y0 + self.height
        return np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)

    def tray_corners(self) -> npt.NDArray[np.float32] | None:
        """The trays' corners TL, TR, BR, BL, (4, 2) float32 (its ends at the
        top and bottom: each side bears off from one end), or None."""
        if self.tray is None:
            return None
        x, y, w, h = self.tray
        return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)

    def outline(self) -> npt.NDArray[np.float32]:
        """The whole canvas's corners TL, TR, BR, BL, (4, 2) float32."""
        w, h = self.canvas_w, self.canvas_h
        return np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)


@dataclass(frozen=True)
class Piece:
    """One checker as drawn: its centre on the board, how high its top face
    stands (in checker thicknesses) and its colour."""

    centre: Point
    level: int
    light: bool


def stack(style: Style, geo: Geometry, row: str, index: int, count: int) -> list[tuple[Point, int]]:
    """Centres and levels of the checkers of one point, from the edge
    outward: five touching, then (``pile="layer"``) a second layer lying
    between them and a third on the first, or (``"squeeze"``) all of them
    closer together in the length of five."""
    r = geo.radius
    step = 2 * r
    offsets: list[tuple[float, int]] = []
    if count <= 5 or style.pile == "layer":
        for k in range(count):
            layer, slot = divmod(k, 5)
            offsets.append((r + slot * step + (layer % 2) * r, layer))
    else:
        squeezed = 4 * step / (count - 1)
        offsets = [(r + k * squeezed, 0) for k in range(count)]
    cx = geo.point_x(index)
    if row == "top":
        return [((cx, geo.y0 + off), level) for off, level in offsets]
    return [((cx, geo.y0 + geo.height - off), level) for off, level in offsets]


def bar_stack(geo: Geometry, count: int, *, upper: bool) -> list[tuple[Point, int]]:
    """Centres and levels of ``count`` checkers on one half of the bar, from
    the middle outward; past what fits, they pile in a second layer."""
    r = geo.radius
    cx = geo.x0 + geo.bar_left + geo.bar_width / 2
    mid = geo.y0 + geo.height / 2
    gap = 0.25 * r
    fits = max(1, int((geo.height / 2 - gap) // (2 * r)))
    sign = -1 if upper else 1
    out: list[tuple[Point, int]] = []
    for k in range(count):
        layer, slot = divmod(k, fits)
        out.append(((cx, mid + sign * (gap + r + slot * 2 * r + (layer % 2) * r)), layer))
    return out


def pieces(
    style: Style,
    geo: Geometry,
    layout: Layout,
    *,
    light_bar_upper: bool,
    rng: np.random.Generator,
    gaps: float = 0.0,
    gaps_seed: int | None = None,
) -> list[Piece]:
    """Every checker on the points and the bar, bottom layer first, each a
    little off its ideal place as hands leave them (across the line more
    than along it, so touching checkers stay touching). With ``gaps``, the
    checkers of a line of five or fewer are left apart: each stands off
    the one before it (the first, off the board's edge) by ``|N(0, gaps)|``
    checker radii more, as a hurried hand leaves them. The gaps of each
    point are drawn from ``gaps_seed`` (from ``rng`` where None) and the
    point alone: two frames of one game with the same seed leave the
    checkers not moved where they stood, and a checker added to a line
    after the rest."""
    placement = int(rng.integers(2**31)) if gaps > 0 and gaps_seed is None else gaps_seed
    placed: list[tuple[Point, int, bool]] = []
    for side, (row, counts) in enumerate((("top", layout.top), ("bottom", layout.bottom))):
        for index, count in enumerate(counts):
            line = stack(style, geo, row, index, abs(count))
            if gaps > 0 and abs(count) <= 5:
                hand = np.random.default_rng([placement or 0, side, index])
                apart = np.cumsum(np.abs(hand.normal(0, gaps * geo.radius, len(line))))
                outward = 1 if row == "top" else -1
                line = [((x, y + outward * float(d)), level) for ((x, y), level), d in zip(line, apart, strict=True)]
            placed += [(centre, level, count > 0) for centre, level in line]
    for count, light, upper in (
        (layout.bar_light, True, light_bar_upper),
        (layout.bar_dark, False, not light_bar_upper),
    ):
        placed += [(centre, level, light) for centre, level in bar_stack(geo, count, upper=upper)]
    shifts = rng.normal(0, 1, (len(placed), 2)) * [0.06 * geo.radius, 0.02 * geo.radius]
    out = [
        Piece((x + float(dx), y + float(dy)), level, light)
        for ((x, y), level, light), (dx, dy) in zip(placed, shifts, strict=True)
    ]
    out.sort(key=lambda p: p.level)
    return out


@lru_cache(maxsize=8)
def base_canvas(style: Style, unit: float, seed: int) -> Image:
    """The empty board (frame, field, points, bar, trays) in board space,
    (canvas_h, canvas_w, 3) uint8 BGR; cached, read-only.

    Drawn in flat colours, then multiplied by each material's pattern
    (the points are painted on the field, so its pattern shows through them).
    """
    geo = Geometry.of(style, unit)
    shape = (geo.canvas_h, geo.canvas_w)
    canvas = np.empty((*shape, 3), np.uint8)
    canvas[:] = style.frame_bgr
    x0, y0 = round(geo.x0), round(geo.y0)
    x1, y1 = round(geo.x0 + geo.width), round(geo.y0 + geo.height)
    bl, br = round(geo.x0 + geo.bar_left), round(geo.x0 + geo.bar_left + geo.bar_width)
    factor = shading(style.frame_surface, shape, strength=style.texture, seed=seed)
    factor[y0:y1, x0:x1] = shading(style.field_surface, (y1 - y0, x1 - x0), strength=style.texture, seed=seed + 1)
    factor[y0:y1, bl:br] = shading(style.bar_surface, (y1 - y0, br - bl), strength=style.texture, seed=seed + 2)
    canvas[y0:y1, x0:x1] = style.field_bgr
    canvas[y0:y1, bl:br] = style.bar_bgr
    length = style.point_length * geo.height
    u = geo.unit
    for index in range(12):
        cx = geo.point_x(index)
        for row, base, tip in (
            ("top", geo.y0, geo.y0 + length),
            ("bottom", geo.y0 + geo.height, geo.y0 + geo.height - length),
        ):
            colour = style.point_bgr[(index + (row == "bottom")) % 2]
            tri = (np.array([[cx - u / 2, base], [cx + u / 2, base], [cx, tip]]) * 16).round().astype(np.int32)
            cv2.fillPoly(canvas, [tri], colour, cv2.LINE_AA, shift=4)
            if style.point_outline:
                dim = tuple(int(c * 0.55) for c in colour)
                cv2.polylines(canvas, [tri], True, dim, max(1, round(u / 40)), cv2.LINE_AA, shift=4)
    # the frame's inner edge: a dark groove where the frame meets the field, and the bar's edges
    groove = max(1, round(u / 30))
    edge = tuple(int(c * 0.45) for c in style.frame_bgr)
    cv2.rectangle(canvas, (x0, y0), (x1 - 1, y1 - 1), edge, groove, cv2.LINE_AA)
    for x in (bl, br):
        cv2.line(canvas, (x, y0), (x, y1), edge, groove, cv2.LINE_AA)
    if geo.tray is not None:
        tx, ty, tw, th = (round(v) for v in geo.tray)
        inner = tuple(int(c * 0.7) for c in style.frame_bgr)
        half = th // 2 - round(u * 0.15)
        for top in (ty, ty + th - half):
            cv2.rectangle(canvas, (tx, top), (tx + tw, top + half), inner, -1)
            cv2.rectangle(canvas, (tx, top), (tx + tw, top + half), edge, groove, cv2.LINE_AA)
    out = apply_shading(canvas, factor)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=64)
def checker_sprite(
    radius: float, bgr: BGR, gloss: float, embossed: bool, light_deg: int
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """A checker's top face lit from ``light_deg`` (board-space azimuth):
    colour (S, S, 3) float32 and coverage (S, S) float32 in [0, 1], S = 2*ceil(radius)+3.

    Shading comes from a height field (a rounded bevel, a shallow dish, an
    embossed ring) lit by a Lambert term and a glossy reflection of the
    light, plus a faint moulding texture.
    """
    half = math.ceil(radius) + 1
    yy, xx = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    d = np.sqrt(xx * xx + yy * yy) / np.float32(radius)
    height = 0.10 * np.clip((1.0 - d) / 0.14, 0, 1) ** 0.5  # rounded edge
    height -= 0.025 * np.clip(1 - (d / 0.8) ** 2, 0, 1)  # dished face
    if embossed:
        height += 0.012 * np.exp(-(((d - 0.62) / 0.035) ** 2))
        height += 0.008 * np.exp(-(((d - 0.30) / 0.03) ** 2))
    gy, gx = np.gradient(height * np.float32(radius))
    normal = np.stack([-gx, -gy, np.ones_like(gx)], axis=-1)
    normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
    az = math.radians(light_deg)
    elevation = math.radians(50)
    light = np.array(
        [math.cos(az) * math.cos(elevation), math.sin(az) * math.cos(elevation), math.sin(elevation)], np.float32
    )
    lambert = np.clip(normal @ light, 0, 1) / light[2]
    halfway = light + np.array([0, 0, 1], np.float32)
    halfway /= np.linalg.norm(halfway)
    specular = np.clip(normal @ halfway, 0, 1) ** (10 + 60 * gloss) * (d > 0.7)
    # the reflection of a window or lamp on the flat face, toward the light
    hx, hy = math.cos(az) * 0.42 * radius, math.sin(az) * 0.42 * radius
    spot = np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / np.float32((0.28 * radius) ** 2))
    rng = np.random.default_rng(round(radius * 4))
    mould = cv2.GaussianBlur(rng.random(d.shape, dtype=np.float32), (0, 0), max(0.6, radius / 25))
    base = np.asarray(bgr, np.float32)
    shade = (0.55 + 0.45 * lambert) * (1 + 0.06 * (mould - 0.5))
    rim = 1 - 0.35 * np.exp(-(((d - 0.985) / 0.03) ** 2))  # the dark line of the edge
    colour = base * (shade * rim)[:, :, None]
    shine = (gloss * (0.55 * specular + 0.35 * spot))[:, :, None]
    colour = colour + shine * (255 - colour) * 0.8
    alpha = np.clip((1.0 - d) * np.float32(radius) + 0.5, 0, 1)
    colour = colour.astype(np.float32)
    colour.setflags(write=False)
    alpha = alpha.astype(np.float32)
    alpha.setflags(write=False)
    return colour, alpha


def paste(canvas: Image, sprite: npt.NDArray[np.float32], alpha: npt.NDArray[np.float32], centre: Point) -> None:
    """Alpha-blend a sprite (S, S, 3) centred at ``centre`` into ``canvas`` (clipped at its borders)."""
    size = sprite.shape[0]
    x = round(centre[0]) - size // 2
    y = round(centre[1]) - size // 2
    h, w = canvas.shape[:2]
    sx0, sy0 = max(0, -x), max(0, -y)
    sx1, sy1 = min(size, w - x), min(size, h - y)
    if sx0 >= sx1 or sy0 >= sy1:
        return
    region = canvas[y + sy0 : y + sy1, x + sx0 : x + sx1].astype(np.float32)
    a = alpha[sy0:sy1, sx0:sx1, None]
    blended = region + (sprite[sy0:sy1, sx0:sx1] - region) * a
    canvas[y + sy0 : y + sy1, x + sx0 : x + sx1] = np.clip(blended, 0, 255).astype(np.uint8)


def side_colour(bgr: BGR) -> BGR:
    """The colour of a checker's edge, in its own shade."""
    return (int(bgr[0] * 0.62), int(bgr[1] * 0.62), int(bgr[2] * 0.62))
