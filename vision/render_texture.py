"""Seeded surface textures for the renderer: wood grain, felt, leather, marble.

Each texture is a (H, W, 3) uint8 BGR image of a surface's base colour with
its pattern, built from smooth value noise (random lattices resized with
cubic interpolation), so it costs a few milliseconds even for a large board.
Textures depend only on their arguments and the ``seed``, and are cached: a
physical board keeps its grain from frame to frame.
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.render_style import BGR, Surface

Image = npt.NDArray[np.uint8]
Field = npt.NDArray[np.float32]


def value_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> Field:
    """Smooth noise in [0, 1] of ``shape`` (H, W) with about ``cells`` (rows, cols) features."""
    rows, cols = max(2, cells[0]), max(2, cells[1])
    lattice = rng.random((rows, cols), dtype=np.float32)
    out = cv2.resize(lattice, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)
    return np.clip(out, 0.0, 1.0)


def fractal_noise(rng: np.random.Generator, shape: tuple[int, int], cells: int, octaves: int = 3) -> Field:
    """Sum of ``octaves`` of :func:`value_noise`, each twice as fine, in [0, 1]; (H, W) float32."""
    total = np.zeros(shape, np.float32)
    weight_sum = 0.0
    aspect = shape[1] / max(shape[0], 1)
    for octave in range(octaves):
        n = cells * 2**octave
        weight = 0.5**octave
        total += weight * value_noise(rng, shape, (n, max(2, round(n * aspect))))
        weight_sum += weight
    out: Field = total / np.float32(weight_sum)
    return out


def _wood(rng: np.random.Generator, shape: tuple[int, int], strength: float) -> Field:
    """Grain running along x: growth rings bent by low-frequency noise, of
    uneven width, plus fibres and slow changes of tone."""
    h, w = shape
    narrow = (h, max(8, w // 8))  # grain changes slowly along its own direction
    warp = fractal_noise(rng, narrow, 3)
    y = np.linspace(0, 1, h, dtype=np.float32)[:, None]
    phase = (y * rng.uniform(10, 24) + warp * rng.uniform(2, 5)) * np.float32(2 * np.pi)
    rings = 0.5 + 0.5 * np.sin(phase + np.float32(0.8) * np.sin(phase * np.float32(0.37)))
    late = np.clip((rings - 0.55) / 0.45, 0, 1) ** 2  # dark latewood lines, sharper than the light bands
    grain = cv2.resize(late.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    fibres = cv2.resize(rng.random((h, max(8, w // 24)), dtype=np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    tone = fractal_noise(rng, shape, 2, 2)
    out: Field = (1 + strength * (-0.22 * grain + 0.07 * (fibres - 0.5) + 0.16 * (tone - 0.5) + 0.05)).astype(
        np.float32
    )
    return out


def _felt(rng: np.random.Generator, shape: tuple[int, int], strength: float) -> Field:
    """Fine fibres and soft blotches."""
    fine = rng.random(shape, dtype=np.float32)
    fine = np.asarray(cv2.GaussianBlur(fine, (3, 3), 0.6), np.float32)
    blotch = fractal_noise(rng, shape, 4, 2)
    out = (1 + strength * (0.10 * (fine - 0.5) + 0.10 * (blotch - 0.5))).astype(np.float32)
    return out


def _leather(rng: np.random.Generator, shape: tuple[int, int], strength: float) -> Field:
    """Pebbled grain: blurred speckle and a little shading."""
    speckle = np.asarray(cv2.GaussianBlur(rng.random(shape, dtype=np.float32), (5, 5), 1.2), np.float32)
    tone = fractal_noise(rng, shape, 3, 2)
    out = (1 + strength * (0.25 * (speckle - 0.5) + 0.12 * (tone - 0.5))).astype(np.float32)
    return out


def _marble(rng: np.random.Generator, shape: tuple[int, int], strength: float) -> Field:
    """Veins: a sine of a diagonal ramp bent by turbulence."""
    h, w = shape
    small = (max(8, h // 4), max(8, w // 4))
    turb = fractal_noise(rng, small, 3, 4)
    yy, xx = np.mgrid[0 : small[0], 0 : small[1]].astype(np.float32)
    ramp = (xx * rng.uniform(0.5, 1.5) + yy) / np.float32(max(small))
    veins = 1 - np.abs(np.sin((ramp * rng.uniform(4, 9) + turb * rng.uniform(3, 6)) * np.float32(np.pi))) ** 0.25
    veins = cv2.resize(veins.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    cloud = fractal_noise(rng, shape, 3, 2)
    out: Field = 1 + strength * (-0.45 * veins + 0.12 * (cloud - 0.5))
    return out


def _plain(rng: np.random.Generator, shape: tuple[int, int], strength: float) -> Field:
    return 1 + strength * 0.05 * (fractal_noise(rng, shape, 2, 2) - 0.5)


_PATTERNS = {"wood": _wood, "felt": _felt, "leather": _leather, "marble": _marble, "plain": _plain}


#: The size (H, W) at which patterns are made; they are resized to each use.
PATTERN_SHAPE = (600, 840)


@lru_cache(maxsize=16)
def pattern(kind: Surface, seed: int) -> Field:
    """A surface's pattern at full strength and :data:`PATTERN_SHAPE`, as a
    brightness factor around 1, (H, W) float32; cached, read-only."""
    field = _PATTERNS[kind](np.random.default_rng(seed), PATTERN_SHAPE, 1.0).astype(np.float32)
    field.setflags(write=False)
    return field


def shading(kind: Surface, shape: tuple[int, int], *, strength: float, seed: int) -> Field:
    """The pattern of ``kind`` resized to ``shape`` (H, W) at ``strength`` (0..1): (H, W) float32."""
    resized = cv2.resize(pattern(kind, seed % 8), (shape[1], shape[0]), interpolation=cv2.INTER_LINEAR)
    out = np.asarray(cv2.addWeighted(resized, strength, resized, 0.0, 1.0 - strength), np.float32)
    return out


def apply_shading(albedo: Image, factor: Field) -> Image:
    """``albedo`` (H, W, 3) uint8 times a brightness ``factor`` (H, W) float32, saturated."""
    out = np.asarray(cv2.multiply(albedo, cv2.merge([factor, factor, factor]), dtype=cv2.CV_8U), np.uint8)
    return out


def surface(kind: Surface, bgr: BGR, shape: tuple[int, int], *, strength: float, seed: int) -> Image:
    """``bgr`` with the pattern of ``kind`` over ``shape`` (H, W): (H, W, 3) uint8."""
    albedo = np.empty((shape[0], shape[1], 3), np.uint8)
    albedo[:] = bgr
    return apply_shading(albedo, shading(kind, shape, strength=strength, seed=seed))
