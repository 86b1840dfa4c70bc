"""A synthetic camera photo of a backgammon board, with its ground truth.

The board is drawn once in *board space* (a flat, rectified canvas in which
the playing area is an axis-aligned rectangle) and warped into the image with
one :func:`cv2.warpPerspective` from a camera pose. Every random choice comes
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
from dataclasses import dataclass
from typing import Literal

import cv2
import numpy as np
import numpy.typing as npt

from vision.layout import Layout
from vision.render_style import STYLES, Style, StyleError, find_style, random_style

__all__ = [
    "STYLES",
    "CameraPose",
    "Effects",
    "Lighting",
    "Occlusion",
    "Rendered",
    "Style",
    "StyleError",
    "random_style",
    "render",
]

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Occlusion = Literal["none", "hand", "arm", "cup"]


@dataclass(frozen=True)
class CameraPose:
    """Where the camera looks from.

    ``rotation_deg`` turns the board in the image (90 = seen sideways, the
    TL->TR edge running down the image); ``tilt_deg`` leans the camera away
    from straight overhead towards ``tilt_azimuth_deg`` (0 = from the bottom
    edge's side); ``distance`` is the camera's distance in board widths
    (small = strong perspective); ``fill`` is the share of the image the board
    spans; ``offset`` shifts it, as fractions of the image size.
    """

    rotation_deg: float = 0.0
    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 0.0
    distance: float = 2.0
    fill: float = 0.85
    offset: tuple[float, float] = (0.0, 0.0)

    @classmethod
    def overhead(cls) -> CameraPose:
        """Straight down, board upright and centred."""
        return cls()

    @classmethod
    def random(cls, rng: np.random.Generator) -> CameraPose:
        """A camera over a table or a phone held by a player: tilted up to
        35 degrees, turned a little or seen sideways, 60-95 % of the image."""
        sideways = rng.random() < 0.25
        rotation = float(rng.normal(0, 6)) + (float(rng.choice([90.0, -90.0])) if sideways else 0.0)
        if rng.random() < 0.1:
            rotation += 180.0
        fill = float(rng.uniform(0.6, 0.95))
        spare = (1 - fill) / 2
        return cls(
            rotation_deg=rotation,
            tilt_deg=min(35.0, abs(float(rng.normal(0, 14)))),
            tilt_azimuth_deg=float(rng.uniform(0, 360)),
            distance=float(rng.uniform(1.2, 3.5)),
            fill=fill,
            offset=(float(rng.uniform(-spare, spare)), float(rng.uniform(-spare, spare))),
        )


@dataclass(frozen=True)
class Lighting:
    """The light on the board: overall ``gain``; a linear ``gradient``
    (strength, direction in degrees); a ``spot`` of extra light (centre as
    fractions of the image, radius as a fraction of its width, strength);
    a colour ``tint`` (BGR multipliers); and the direction of the main light
    (``light_azimuth_deg``, for highlights and shadows, 0 = from the right)."""

    gain: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)
    spot: tuple[float, float, float, float] = (0.5, 0.5, 0.5, 0.0)
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    light_azimuth_deg: float = 45.0
    shadow: float = 0.0

    @classmethod
    def even(cls) -> Lighting:
        """Flat white light, no shadows."""
        return cls()

    @classmethod
    def random(cls, rng: np.random.Generator) -> Lighting:
        """Room light: a window on one side, lamps of several colours, dim to bright."""
        warm = float(rng.normal(0, 0.06))
        return cls(
            gain=float(rng.uniform(0.65, 1.2)),
            gradient=(float(rng.uniform(0, 0.45)), float(rng.uniform(0, 360))),
            spot=(float(rng.uniform(0, 1)), float(rng.uniform(0, 1)), float(rng.uniform(0.2, 0.7)), float(rng.uniform(0, 0.4))),
            tint=(1.0 - warm, 1.0, 1.0 + warm),
            light_azimuth_deg=float(rng.uniform(0, 360)),
            shadow=float(rng.uniform(0.2, 0.6)),
        )


@dataclass(frozen=True)
class Effects:
    """What the lens and sensor do: Gaussian ``blur_sigma`` (pixels),
    ``motion_px`` of linear motion blur, ``noise_sigma`` of sensor noise (grey
    levels), JPEG ``jpeg_quality`` (None = lossless) and ``barrel`` distortion
    (k1 of the radial model on coordinates normalised by the half-diagonal;
    0 = none, 0.1 = a wide lens)."""

    blur_sigma: float = 0.0
    motion_px: float = 0.0
    noise_sigma: float = 0.0
    jpeg_quality: int | None = None
    barrel: float = 0.0

    @classmethod
    def none(cls) -> Effects:
        """A perfect camera."""
        return cls()

    @classmethod
    def random(cls, rng: np.random.Generator) -> Effects:
        """A phone or a Pi camera: a little blur and noise, JPEG, sometimes a wide lens."""
        return cls(
            blur_sigma=float(rng.uniform(0, 1.4)),
            motion_px=float(rng.uniform(0, 4)) if rng.random() < 0.15 else 0.0,
            noise_sigma=float(rng.uniform(1, 6)),
            jpeg_quality=int(rng.integers(55, 96)) if rng.random() < 0.8 else None,
            barrel=float(rng.uniform(0.0, 0.12)) if rng.random() < 0.3 else 0.0,
        )


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


@dataclass(frozen=True)
class _Geometry:
    """Board-space lengths in canvas pixels; the playing area's top-left is (x0, y0)."""

    unit: float  # one point width
    x0: float
    y0: float
    width: float  # playing area
    height: float
    bar_left: float  # bar's left edge, from x0
    bar_width: float
    canvas_w: int
    canvas_h: int

    def point_x(self, index: int) -> float:
        """Centre x of the point at ``index`` (0..11, left to right)."""
        x = self.x0 + (index + 0.5) * self.unit
        return x + self.bar_width if index >= 6 else x


def _geometry(style: Style, unit: float) -> _Geometry:
    frame = style.frame_width * unit
    tray = 1.3 * unit + frame if style.trays else 0.0
    bar = style.bar_width * unit
    width = 12 * unit + bar
    height = style.board_height * unit
    return _Geometry(
        unit=unit,
        x0=frame,
        y0=frame,
        width=width,
        height=height,
        bar_left=6 * unit,
        bar_width=bar,
        canvas_w=int(np.ceil(width + 2 * frame + tray)),
        canvas_h=int(np.ceil(height + 2 * frame)),
    )


def _project(pose: CameraPose, points: npt.NDArray[np.float64], size: tuple[int, int]) -> npt.NDArray[np.float64]:
    """Board-space points (N, 2), centred and scaled to the board's width,
    to image pixels (N, 2) through a pinhole camera, then fitted to ``fill``."""
    az = np.radians(pose.tilt_azimuth_deg)
    tilt = np.radians(pose.tilt_deg)
    rot = np.radians(pose.rotation_deg)

    def rz(a: float) -> npt.NDArray[np.float64]:
        return np.array([[np.cos(a), -np.sin(a), 0], [np.sin(a), np.cos(a), 0], [0, 0, 1]])

    rx = np.array([[1, 0, 0], [0, np.cos(tilt), -np.sin(tilt)], [0, np.sin(tilt), np.cos(tilt)]])
    world = np.column_stack([points, np.zeros(len(points))])
    cam = (rz(rot + az) @ rx @ rz(-az) @ world.T).T
    depth = pose.distance + cam[:, 2]
    flat = cam[:, :2] / depth[:, None]
    w, h = size
    lo, hi = flat.min(axis=0), flat.max(axis=0)
    scale = pose.fill * min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
    centre = (lo + hi) / 2
    target = np.array([w / 2 + pose.offset[0] * w, h / 2 + pose.offset[1] * h])
    result: npt.NDArray[np.float64] = (flat - centre) * scale + target
    return result


def _canvas(style: Style, geo: _Geometry, layout: Layout, rng: np.random.Generator) -> Image:
    """The rectified board, (canvas_h, canvas_w, 3) uint8 BGR."""
    canvas = np.empty((geo.canvas_h, geo.canvas_w, 3), np.uint8)
    canvas[:] = style.frame_bgr
    x0, y0, u = geo.x0, geo.y0, geo.unit
    left = (x0, x0 + geo.bar_left)
    right = (x0 + geo.bar_left + geo.bar_width, x0 + geo.width)
    for a, b in (left, right):
        cv2.rectangle(canvas, (round(a), round(y0)), (round(b) - 1, round(y0 + geo.height) - 1), style.field_bgr, -1)
    cv2.rectangle(
        canvas, (round(left[1]), round(y0)), (round(right[0]) - 1, round(y0 + geo.height) - 1), style.bar_bgr, -1
    )
    length = style.point_length * geo.height
    for index in range(12):
        cx = geo.point_x(index)
        for row, base, tip in (("top", y0, y0 + length), ("bottom", y0 + geo.height, y0 + geo.height - length)):
            colour = style.point_bgr[(index + (row == "bottom")) % 2]
            tri = np.array([[cx - u / 2, base], [cx + u / 2, base], [cx, tip]]) * 16
            cv2.fillPoly(canvas, [tri.round().astype(np.int32)], colour, cv2.LINE_AA, shift=4)
    radius = style.checker_radius * u
    for row, counts in (("top", layout.top), ("bottom", layout.bottom)):
        for index, count in enumerate(counts):
            colour = style.light_bgr if count > 0 else style.dark_bgr
            for cx, cy in _stack(style, geo, row, index, abs(count)):
                _checker(canvas, (cx, cy), radius, colour)
    light_on_top = bool(rng.random() < 0.5)
    for count, colour, on_top in ((layout.bar_light, style.light_bgr, light_on_top), (layout.bar_dark, style.dark_bgr, not light_on_top)):
        for centre in _bar_stack(style, geo, count, on_top=on_top):
            _checker(canvas, centre, radius, colour)
    return canvas


def _bar_stack(style: Style, geo: _Geometry, count: int, *, on_top: bool) -> list[tuple[float, float]]:
    """Centres of ``count`` checkers on one half of the bar, from the middle outward."""
    radius = style.checker_radius * geo.unit
    cx = geo.x0 + geo.bar_left + geo.bar_width / 2
    mid = geo.y0 + geo.height / 2
    room = geo.height / 2 - radius * 1.2
    step = min(2 * radius, (room - radius) / max(count - 1, 1))
    sign = -1 if on_top else 1
    return [(cx, mid + sign * (radius * 1.2 + k * step)) for k in range(count)]


def _stack(style: Style, geo: _Geometry, row: str, index: int, count: int) -> list[tuple[float, float]]:
    """Centres of ``count`` checkers on a point, from the edge outward: five
    touching, then (``pile="layer"``) a second layer between them, or
    (``"squeeze"``) all of them closer together."""
    radius = style.checker_radius * geo.unit
    cx = geo.point_x(index)
    step = 2 * radius
    offsets: list[float] = []
    if count <= 5 or style.pile == "layer":
        for k in range(count):
            layer, slot = divmod(k, 5)
            offsets.append(radius + slot * step + (layer % 2) * radius)
    else:
        step = 4 * step / (count - 1)
        offsets = [radius + k * step for k in range(count)]
    if row == "top":
        return [(cx, geo.y0 + off) for off in offsets]
    return [(cx, geo.y0 + geo.height - off) for off in offsets]


def _checker(canvas: Image, centre: tuple[float, float], radius: float, colour: tuple[int, int, int]) -> None:
    c = (round(centre[0] * 16), round(centre[1] * 16))
    r = round(radius * 16)
    rim = tuple(int(v * 0.7) for v in colour)
    cv2.circle(canvas, c, r, rim, -1, cv2.LINE_AA, shift=4)
    cv2.circle(canvas, c, round(r * 0.9), colour, -1, cv2.LINE_AA, shift=4)


def render(
    layout: Layout,
    *,
    rng: np.random.Generator,
    style: Style | str = "wood",
    size: tuple[int, int] = (1280, 720),
    camera: CameraPose | None = None,
    occlusion: Occlusion = "none",
    dice: tuple[int, int] | None = None,
    cube: int | None = None,
    lighting: Lighting | None = None,
    effects: Effects | None = None,
) -> Rendered:
    """Render ``layout`` as a camera photo of ``size`` (width, height).

    ``style`` is a :class:`Style`, a name in :data:`STYLES` or ``"random"``.
    ``camera``, ``lighting`` and ``effects`` left as None are drawn from
    ``rng`` (pass :meth:`CameraPose.overhead`, :meth:`Lighting.even` and
    :meth:`Effects.none` for a clean, flat picture).
    """
    if isinstance(style, str):
        style = random_style(rng) if style == "random" else find_style(style)
    camera = CameraPose.random(rng) if camera is None else camera
    lighting = Lighting.random(rng) if lighting is None else lighting
    effects = Effects.random(rng) if effects is None else effects
    w, h = size
    probe = _geometry(style, 1.0)
    outline = np.array([[0, 0], [probe.canvas_w, 0], [probe.canvas_w, probe.canvas_h], [0, probe.canvas_h]], float)
    centred = (outline - [probe.canvas_w / 2, probe.canvas_h / 2]) / probe.canvas_w
    image_outline = _project(camera, centred, size)
    extent = float(np.max(np.ptp(image_outline, axis=0)))
    geo = _geometry(style, max(8.0, extent / probe.canvas_w * 1.05))
    canvas = _canvas(style, geo, layout, rng)
    src = np.array([[0, 0], [geo.canvas_w, 0], [geo.canvas_w, geo.canvas_h], [0, geo.canvas_h]], np.float32)
    homography = cv2.getPerspectiveTransform(src, image_outline.astype(np.float32))
    image = np.empty((h, w, 3), np.uint8)
    image[:] = style.table_bgr
    cv2.warpPerspective(canvas, homography, (w, h), dst=image, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    area = np.array(
        [[geo.x0, geo.y0], [geo.x0 + geo.width, geo.y0], [geo.x0 + geo.width, geo.y0 + geo.height], [geo.x0, geo.y0 + geo.height]],
        np.float32,
    )
    corners = cv2.perspectiveTransform(area[None], homography)[0]
    bar = (geo.bar_left / geo.width, (geo.bar_left + geo.bar_width) / geo.width)
    return Rendered(
        image=image,
        corners=corners.astype(np.float32),
        layout=layout,
        occluded=occlusion != "none",
        bar_fraction=bar,
        style_name=style.name,
    )
