"""The camera of a rendered photo: pose (perspective), light, lens and sensor.

The pose maps board space to image pixels through a pinhole camera; the light
is a low-resolution gain map (gradient, a window's spot, colour cast); the lens
adds barrel distortion (OpenCV's radial model, so :func:`lens_calibration`
gives what ``cv2.undistort`` needs) and blur; the sensor adds noise and the
encoder JPEG artefacts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
Floats = npt.NDArray[np.float32]
Doubles = npt.NDArray[np.float64]


@dataclass(frozen=True)
class CameraPose:
    """Where the camera looks from.

    ``rotation_deg`` turns the board in the image (90 = seen sideways, the
    TL->TR edge running down the image); ``tilt_deg`` leans the camera away
    from straight overhead towards ``tilt_azimuth_deg`` (board-space degrees,
    90 = from beyond the bottom edge); ``distance`` is the camera's distance
    in board widths (small = strong perspective); ``fill`` is the share of the
    image the board spans; ``offset`` shifts it, as fractions of the image size.
    ``fold_deg`` turns the right half of a folding board up about the hinge
    under the bar (positive: toward the camera), so each half needs its own mapping.
    """

    rotation_deg: float = 0.0
    tilt_deg: float = 0.0
    tilt_azimuth_deg: float = 90.0
    distance: float = 2.0
    fill: float = 0.85
    offset: tuple[float, float] = (0.0, 0.0)
    fold_deg: float = 0.0

    @classmethod
    def overhead(cls) -> CameraPose:
        """Straight down, board upright and centred."""
        return cls()

    @classmethod
    def random(cls, rng: np.random.Generator) -> CameraPose:
        """A camera on a mount or a phone held by a player: tilted up to 40
        degrees, turned a little, upside down or seen sideways, 75-98 % of the image."""
        turn = float(rng.choice([0.0, 0.0, 0.0, 90.0, -90.0, 180.0]))
        fill = float(rng.uniform(0.75, 0.98))
        spare = (1 - fill) / 2
        return cls(
            rotation_deg=turn + float(rng.normal(0, 5)),
            tilt_deg=min(40.0, abs(float(rng.normal(0, 15)))),
            tilt_azimuth_deg=float(rng.uniform(0, 360)),
            distance=float(rng.uniform(1.1, 3.5)),
            fill=fill,
            offset=(float(rng.uniform(-spare, spare)), float(rng.uniform(-spare, spare))),
            fold_deg=float(rng.uniform(-5, 5)) if rng.random() < 0.25 else 0.0,
        )

    def _rotation(self) -> Doubles:
        az = math.radians(self.tilt_azimuth_deg)
        tilt = math.radians(self.tilt_deg)
        turn = math.radians(self.rotation_deg)

        def rz(a: float) -> Doubles:
            return np.array([[math.cos(a), -math.sin(a), 0], [math.sin(a), math.cos(a), 0], [0, 0, 1]])

        rx = np.array([[1, 0, 0], [0, math.cos(tilt), math.sin(tilt)], [0, -math.sin(tilt), math.cos(tilt)]])
        # tilt about the axis perpendicular to the azimuth, then turn the picture
        result: Doubles = rz(turn) @ rz(az - math.pi / 2) @ rx @ rz(math.pi / 2 - az)
        return result

    def homographies(
        self, board_size: tuple[float, float], size: tuple[int, int], hinge_x: float
    ) -> tuple[Doubles, Doubles]:
        """The 3x3 maps from board-space pixels (a board of ``board_size``
        (w, h), origin top-left) to image pixels of ``size`` (w, h): one for
        the part left of ``hinge_x`` and one for the part right of it, which
        differ when the board is folded (``fold_deg``)."""
        bw, bh = board_size
        left = np.array([[0, 0], [hinge_x, 0], [hinge_x, bh], [0, bh]], np.float64)
        right = np.array([[hinge_x, 0], [bw, 0], [bw, bh], [hinge_x, bh]], np.float64)
        centre = np.array([bw / 2, bh / 2])
        flat_left = self._pinhole((left - centre) / bw, hinge=None)
        flat_right = self._pinhole((right - centre) / bw, hinge=(hinge_x - bw / 2) / bw)
        both = np.vstack([flat_left, flat_right])
        w, h = size
        lo, hi = both.min(axis=0), both.max(axis=0)
        scale = self.fill * min(w / (hi[0] - lo[0]), h / (hi[1] - lo[1]))
        target = np.array([w / 2 + self.offset[0] * w, h / 2 + self.offset[1] * h])
        out = []
        for board, flat in ((left, flat_left), (right, flat_right)):
            image = (flat - (lo + hi) / 2) * scale + target
            out.append(
                cv2.getPerspectiveTransform(board.astype(np.float32), image.astype(np.float32)).astype(np.float64)
            )
        return out[0], out[1]

    def homography(self, board_size: tuple[float, float], size: tuple[int, int]) -> Doubles:
        """The 3x3 map from board-space pixels to image pixels of a flat board (``fold_deg`` ignored)."""
        flat = CameraPose(
            self.rotation_deg, self.tilt_deg, self.tilt_azimuth_deg, self.distance, self.fill, self.offset
        )
        return flat.homographies(board_size, size, board_size[0])[0]

    def _pinhole(self, points: Doubles, *, hinge: float | None) -> Doubles:
        """Board points (N, 2) in board widths, centred, to the normalised
        image plane (N, 2); points right of ``hinge`` are turned up by ``fold_deg``."""
        world = np.column_stack([points, np.zeros(len(points))])
        if hinge is not None and self.fold_deg:
            fold = math.radians(self.fold_deg)
            past = world[:, 0] - hinge
            world[:, 0] = hinge + past * math.cos(fold)
            world[:, 2] = -past * math.sin(fold)
        cam = (self._rotation() @ world.T).T
        depth = self.distance + cam[:, 2]
        result: Doubles = cam[:, :2] / depth[:, None]
        return result

    def nadir(self) -> tuple[float, float, float]:
        """The camera's centre over the board, in board widths from the
        board's centre: (x, y, height), board-space axes (y down)."""
        centre = -self._rotation().T @ np.array([0.0, 0.0, self.distance])
        return float(centre[0]), float(centre[1]), float(abs(centre[2]))


def _random_spot(rng: np.random.Generator) -> tuple[float, float, float, float]:
    """A window's or a lamp's pool of light anywhere in the image: centre x,
    y, radius and strength, as :attr:`Lighting.spot`."""
    return (
        float(rng.uniform(0, 1)),
        float(rng.uniform(0, 1)),
        float(rng.uniform(0.15, 0.6)),
        float(rng.uniform(0, 0.35)),
    )


@dataclass(frozen=True)
class Lighting:
    """The light on the board: overall ``gain``; a linear ``gradient``
    (strength, direction in image degrees); a ``spot`` of extra light, as from
    a window or a lamp's reflection (centre x, y as fractions of the image,
    radius as a fraction of its width, strength); a colour ``tint`` (BGR
    multipliers); the main light's azimuth in board space
    (``light_azimuth_deg``, 0 = from the right) and elevation, which set
    where highlights and shadows fall; ``shadow`` is how dark shadows are;
    ``glare`` is a lamp's or window's reflection on a lacquered board, added
    as white light (centre x, y as fractions of the image, radius as a
    fraction of its width, strength 0..1)."""

    gain: float = 1.0
    gradient: tuple[float, float] = (0.0, 0.0)
    spot: tuple[float, float, float, float] = (0.5, 0.5, 0.5, 0.0)
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)
    light_azimuth_deg: float = 225.0
    light_elevation_deg: float = 60.0
    shadow: float = 0.0
    glare: tuple[float, float, float, float] = (0.5, 0.5, 0.1, 0.0)

    @classmethod
    def even(cls) -> Lighting:
        """Flat white light, no shadows."""
        return cls()

    @classmethod
    def random(cls, rng: np.random.Generator) -> Lighting:
        """Room light: a window on one side, lamps of several colours, dim to bright."""
        warm = float(rng.normal(0, 0.07))
        return cls(
            gain=float(rng.uniform(0.7, 1.15)),
            gradient=(float(rng.uniform(0, 0.5)), float(rng.uniform(0, 360))),
            spot=_random_spot(rng),
            tint=(1.0 - warm, 1.0 + float(rng.normal(0, 0.02)), 1.0 + warm),
            light_azimuth_deg=float(rng.uniform(0, 360)),
            light_elevation_deg=float(rng.uniform(35, 80)),
            shadow=float(rng.uniform(0.25, 0.6)),
            glare=(
                float(rng.uniform(0.2, 0.8)),
                float(rng.uniform(0.2, 0.8)),
                float(rng.uniform(0.04, 0.15)),
                float(rng.uniform(0.1, 0.4)),
            )
            if rng.random() < 0.3
            else (0.5, 0.5, 0.1, 0.0),
        )

    def changed(self, rng: np.random.Generator) -> Lighting:
        """The same room a little later: the light dimmer or brighter (a
        cloud, a lamp switched on or off) and a lamp's pool of light
        elsewhere; the window, the shadows and any glare as they were."""
        return replace(
            self,
            gain=self.gain * float(rng.uniform(0.8, 1.25)),
            spot=_random_spot(rng),
        )

    def glare_map(self, size: tuple[int, int]) -> Floats:
        """White light to add (grey levels) at 1/4 resolution, like :meth:`gain_map`."""
        w, h = (size[0] + 3) // 4, (size[1] + 3) // 4
        gx, gy, radius, strength = self.glare
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        dist2 = (xx / np.float32(w) - gx) ** 2 + ((yy / np.float32(h) - gy) * (h / w)) ** 2
        out: Floats = (255 * strength * np.exp(-dist2 / np.float32(radius**2))).astype(np.float32)
        return out

    def shadow_shift(self, height: float) -> tuple[float, float]:
        """How far (board-space x, y) a thing ``height`` above the board casts its shadow."""
        length = height / math.tan(math.radians(self.light_elevation_deg))
        az = math.radians(self.light_azimuth_deg)
        return -length * math.cos(az), -length * math.sin(az)

    def gain_map(self, size: tuple[int, int]) -> Floats:
        """Brightness factor over the image at 1/4 resolution, (ceil(H/4), ceil(W/4)) float32."""
        w, h = (size[0] + 3) // 4, (size[1] + 3) // 4
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        xx /= np.float32(w)
        yy /= np.float32(h)
        strength, direction = self.gradient
        a = math.radians(direction)
        ramp = (xx - 0.5) * math.cos(a) + (yy - 0.5) * math.sin(a)
        gain = self.gain * (1 + strength * ramp)
        sx, sy, radius, spot = self.spot
        if spot > 0:
            aspect = h / w
            dist2 = (xx - sx) ** 2 + ((yy - sy) * aspect) ** 2
            gain = gain * (1 + spot * np.exp(-dist2 / np.float32(radius**2)))
        out: Floats = gain.astype(np.float32)
        return out


@dataclass(frozen=True)
class Effects:
    """What the lens and sensor do: Gaussian ``blur_sigma`` (pixels),
    ``motion_px`` of linear motion blur at ``motion_deg``, ``noise_sigma`` of
    sensor noise (grey levels), ``vignette`` (darkening of the corners, 0..1),
    JPEG ``jpeg_quality`` (None = lossless), ``barrel`` distortion
    (``-k1`` of OpenCV's radial model with the focal length set to the image's
    half-diagonal; 0 = none, 0.15 = a wide lens), the camera's tone curve
    ``gamma`` (1 = linear; above 1 brightens the mid-tones) and a
    broadcaster's score ``overlay`` along the top or bottom edge (kept off
    the playing area)."""

    blur_sigma: float = 0.0
    motion_px: float = 0.0
    motion_deg: float = 0.0
    noise_sigma: float = 0.0
    vignette: float = 0.0
    jpeg_quality: int | None = None
    barrel: float = 0.0
    gamma: float = 1.0
    overlay: bool = False

    @classmethod
    def none(cls) -> Effects:
        """A perfect camera."""
        return cls()

    @classmethod
    def random(cls, rng: np.random.Generator) -> Effects:
        """A phone or a Pi camera: some blur and noise, JPEG, sometimes a wide lens or a shake."""
        shaken = rng.random() < 0.12
        return cls(
            blur_sigma=float(rng.uniform(0, 1.3)),
            motion_px=float(rng.uniform(1, 5)) if shaken else 0.0,
            motion_deg=float(rng.uniform(0, 180)),
            noise_sigma=float(rng.uniform(1, 7)),
            vignette=float(rng.uniform(0, 0.35)),
            jpeg_quality=int(rng.integers(50, 96)) if rng.random() < 0.8 else None,
            barrel=round(float(rng.uniform(0.03, 0.15)), 2) if rng.random() < 0.3 else 0.0,
            gamma=float(rng.uniform(0.8, 1.25)),
            overlay=bool(rng.random() < 0.08),
        )

    def vignette_map(self, size: tuple[int, int]) -> Floats:
        """Brightness factor of the lens's fall-off at 1/4 resolution, like :meth:`Lighting.gain_map`."""
        w, h = (size[0] + 3) // 4, (size[1] + 3) // 4
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        r2 = ((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / np.float32((w / 2) ** 2 + (h / 2) ** 2)
        out: Floats = (1 - self.vignette * r2**1.5).astype(np.float32)
        return out


def lens_calibration(size: tuple[int, int], barrel: float) -> tuple[Doubles, Doubles]:
    """The camera matrix (3, 3) and distortion coefficients (5,) of a frame of
    ``size`` (w, h) rendered with ``Effects(barrel=barrel)``, for ``cv2.undistort``."""
    w, h = size
    focal = math.hypot(w, h) / 2
    matrix = np.array([[focal, 0, w / 2], [0, focal, h / 2], [0, 0, 1]], np.float64)
    return matrix, np.array([-barrel, 0, 0, 0, 0], np.float64)


def distort_points(points: Floats, size: tuple[int, int], barrel: float) -> Floats:
    """Where undistorted image points (N, 2) land in the distorted frame, (N, 2) float32."""
    w, h = size
    focal = math.hypot(w, h) / 2
    centre = np.array([w / 2, h / 2], np.float32)
    norm = (points - centre) / np.float32(focal)
    r2 = (norm**2).sum(axis=1, keepdims=True)
    out: Floats = (norm * (1 - barrel * r2) * focal + centre).astype(np.float32)
    return out


@lru_cache(maxsize=4)
def _undistort_maps(size: tuple[int, int], barrel: float) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]]:
    """For each distorted pixel, where to sample the undistorted frame, in
    OpenCV's fixed-point map format (fast to remap); solved by fixed-point
    iteration of x_d = x_u (1 - barrel r_u^2) on a coarse grid (the map is
    smooth) and resized to the frame."""
    w, h = size
    focal = math.hypot(w, h) / 2
    gw, gh = w // 8 + 1, h // 8 + 1
    # cv2.resize puts coarse node k at pixel (k + 0.5) * w / gw - 0.5
    xs = ((np.arange(gw, dtype=np.float32) + 0.5) * np.float32(w / gw) - 0.5).astype(np.float32)
    ys = ((np.arange(gh, dtype=np.float32) + 0.5) * np.float32(h / gh) - 0.5).astype(np.float32)
    xd = (xs[None, :] - np.float32(w / 2)) / np.float32(focal) + np.zeros((gh, 1), np.float32)
    yd = (ys[:, None] - np.float32(h / 2)) / np.float32(focal) + np.zeros((1, gw), np.float32)
    xu, yu = xd.copy(), yd.copy()
    for _ in range(10):
        factor = 1 - np.float32(barrel) * (xu * xu + yu * yu)
        xu, yu = xd / factor, yd / factor
    coarse_x = xu * np.float32(focal) + np.float32(w / 2)
    coarse_y = yu * np.float32(focal) + np.float32(h / 2)
    map_x = cv2.resize(coarse_x, (w, h), interpolation=cv2.INTER_LINEAR)
    map_y = cv2.resize(coarse_y, (w, h), interpolation=cv2.INTER_LINEAR)
    packed = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)
    fixed = np.asarray(packed[0], np.int16)
    fraction = np.asarray(packed[1], np.uint16)
    fixed.setflags(write=False)
    fraction.setflags(write=False)
    return fixed, fraction


def distort(image: Image, barrel: float, *, background: Image) -> Image:
    """Barrel distortion of an (H, W, 3) frame (cached maps per size and
    strength); where the lens looks past the frame's edge (the corners) it
    sees ``background`` (H, W, 3), e.g. more table."""
    h, w = image.shape[:2]
    map_x, map_y = _undistort_maps((w, h), round(barrel, 3))
    out = background.copy()
    cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, dst=out, borderMode=cv2.BORDER_TRANSPARENT)
    return out


def score_overlay(image: Image, area: Floats, rng: np.random.Generator) -> None:
    """A tournament broadcast's banner (names, score, clock) along the top or
    bottom edge of ``image`` (H, W, 3), translucent, drawn in place; it stays
    clear of the playing area ``area`` (4, 2) and is left out where there is no room."""
    h, w = image.shape[:2]
    band = max(12, int(h * rng.uniform(0.05, 0.09)))
    top_free = int(area[:, 1].min()) - 2
    bottom_free = h - int(np.ceil(area[:, 1].max())) - 2
    at_top = bool(rng.random() < 0.5)
    if max(top_free, bottom_free) < band:
        return
    if (top_free if at_top else bottom_free) < band:
        at_top = not at_top
    y0 = int(rng.integers(0, max(1, (top_free if at_top else bottom_free) - band + 1)))
    y0 = y0 if at_top else h - y0 - band
    x0 = int(rng.uniform(0, 0.3) * w)
    x1 = w - int(rng.uniform(0, 0.3) * w)
    region = image[y0 : y0 + band, x0:x1]
    tint = np.array([rng.uniform(60, 140), rng.uniform(20, 60), rng.uniform(10, 40)], np.float32)
    region[:] = np.clip(region.astype(np.float32) * 0.35 + tint, 0, 255).astype(np.uint8)
    names = ("SMITH  3", "GARCIA  5", "to 11", "0:42", "CRAWFORD")
    text = "   ".join(str(rng.choice(names)) for _ in range(3))
    scale = band / 40
    cv2.putText(
        image,
        text,
        (x0 + band // 3, y0 + int(band * 0.7)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        (235, 235, 235),
        max(1, round(scale * 2)),
        cv2.LINE_AA,
    )


def tone_curve(image: Image, gamma: float) -> Image:
    """The camera's tone curve: out = 255 * (in / 255) ** (1 / gamma), by lookup table."""
    table = np.clip(255 * (np.arange(256) / 255) ** (1 / gamma) + 0.5, 0, 255).astype(np.uint8)
    return np.asarray(cv2.LUT(image, table), np.uint8)


def motion_kernel(length_px: float, angle_deg: float) -> Floats:
    """A normalised line kernel for motion blur, (k, k) float32."""
    k = max(3, int(math.ceil(length_px)) | 1)
    kernel = np.zeros((k, k), np.float32)
    c = k // 2
    dx, dy = math.cos(math.radians(angle_deg)) * length_px / 2, math.sin(math.radians(angle_deg)) * length_px / 2
    cv2.line(kernel, (round(c - dx), round(c - dy)), (round(c + dx), round(c + dy)), 1.0, 1, cv2.LINE_AA)
    out: Floats = kernel / np.float32(kernel.sum())
    return out


@lru_cache(maxsize=2)
def _noise_tile(size: tuple[int, int]) -> npt.NDArray[np.int16]:
    """Unit Gaussian sensor noise (x16) a little larger than a frame of ``size`` (w, h); fixed seed."""
    w, h = size
    tile = (np.random.default_rng(0).standard_normal((h + 64, w + 64, 3), dtype=np.float32) * 16).astype(np.int16)
    tile.setflags(write=False)
    return tile


def add_noise(image: Image, sigma: float, rng: np.random.Generator) -> Image:
    """Gaussian sensor noise of ``sigma`` grey levels; a random window of one
    fixed noise tile, so it costs one addition per pixel."""
    h, w = image.shape[:2]
    tile = _noise_tile((w, h))
    dy, dx = int(rng.integers(0, 64)), int(rng.integers(0, 64))
    out = np.asarray(
        cv2.addWeighted(image, 1.0, tile[dy : dy + h, dx : dx + w], sigma / 16, 0.0, dtype=cv2.CV_8U), np.uint8
    )
    return out


def jpeg(image: Image, quality: int) -> Image:
    """The frame after a JPEG round trip at ``quality`` (1..100)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise ValueError(f"JPEG quality {quality!r}: OpenCV could not encode the frame")
    out = np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), np.uint8)
    return out
