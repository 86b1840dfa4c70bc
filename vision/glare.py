"""A lamp's reflection on the board: white light added over a patch of it.

A lamp or a window mirrored in a lacquered board, glossy checkers or a
tournament board's felt under broadcast light adds white light over a
patch of the board: every surface there grows lighter by the same amount,
where a change of light (a shadow, the evening, a lamp's pool:
:mod:`vision.relight`) scales it. The dark checkers show it most: under a
strong reflection a black checker looks grey, and a checker's look learned
under the board's smooth light (:mod:`vision.colours`) fits it no more.

The camera and the lamp stay put, so the reflection falls on the same
place in every frame. Calibration measures it once, on the starting
position, whose surfaces it knows: each point's slots look as those of the
points of its colour further along its row, and the checkers of a colour
alike. Each of those surfaces, under a smooth light (one quadratic gain
over the board), plus one round patch of white light fading as a Gaussian
(:class:`Glare`), must explain what the photo shows; where such a patch
explains most of what the smooth light leaves (``EXPLAINED``) and is strong
enough to matter (``MIN_STRENGTH``), every frame has it taken away
(:meth:`Glare.remove`) before it is read. A lamp moved since calibration
leaves the reflection elsewhere: calibrate again.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.colours import EMPTY, layout_states, point_kind
from vision.geometry import BoardGeometry, Image, bar_slot_centres, rectify, slot_centres
from vision.layout import Layout

FloatArray = npt.NDArray[np.float64]

#: A reflection is taken away where it explains this share of what the
#: board's surfaces under a smooth light leave unexplained. On the rendered
#: starting positions of ``bench/vision.py --seed 3``, 23 of the 29 boards
#: with a reflection had one explaining 0.61 to 0.97 of it (the others' lay
#: mostly off the points, or was faint), and no board without one had one
#: explaining more than 0.50.
EXPLAINED = 0.6
#: ... and where it adds at least this much light (8-bit grey levels) on the board.
MIN_STRENGTH = 15.0
#: A pixel this bright in a channel is clipped: the photo does not say how much light was added there.
CLIPPED = 250
#: The reflection's radii tried, in board widths (a lamp's, a window's).
RADII = (0.08, 0.12, 0.17, 0.25, 0.35)
#: Its centres tried, every this many board widths over the board, then half as far around the best.
STEP = 0.1
#: Rounds of fitting the surfaces' looks and the light over the board in turn.
ROUNDS = 4


@dataclass(frozen=True)
class Glare:
    """White light added over the rectified board: ``strength`` 8-bit grey
    levels at ``centre`` (x, y), fading as exp(-d² / ``radius``²), where d
    and the centre are in board widths from the playing area's top-left."""

    centre: tuple[float, float]
    radius: float
    strength: float

    def field(self, size: tuple[int, int], *, margin: int = 0) -> npt.NDArray[np.float32]:
        """(height + 2 margin, width + 2 margin) the light added to a
        rectified board of ``size`` (width, height) px, with ``margin`` px
        around it (as :func:`vision.geometry.rectify` cuts it)."""
        width, height = size
        ys, xs = np.mgrid[-margin : height + margin, -margin : width + margin].astype(np.float32)
        d2 = (xs / width - self.centre[0]) ** 2 + (ys / width - self.centre[1]) ** 2
        return np.asarray(self.strength * np.exp(-d2 / self.radius**2), np.float32)

    def remove(self, rectified: Image, size: tuple[int, int], *, margin: int = 0) -> Image:
        """``rectified`` (a board of ``size``, with ``margin``) without the
        reflection. Where the photo clipped a channel, the surface may have
        been anything from 255 less the light added up to 255: it keeps the
        least, so that a surface reads the same under any light (the board's
        own light changes; the reflection, and so that ceiling, does not)."""
        return np.asarray(cv2.subtract(rectified, _added(self, size, margin)), np.uint8)

    def to_json(self) -> dict[str, Any]:
        return {
            "centre": [round(v, 4) for v in self.centre],
            "radius": self.radius,
            "strength": round(self.strength, 1),
        }

    @classmethod
    def from_json(cls, data: Any) -> Glare:
        return cls(
            centre=(float(data["centre"][0]), float(data["centre"][1])),
            radius=float(data["radius"]),
            strength=float(data["strength"]),
        )


@functools.lru_cache(maxsize=4)
def _added(glare: Glare, size: tuple[int, int], margin: int) -> Image:
    """The light ``glare`` adds (see :meth:`Glare.field`), in whole grey
    levels on three channels: made once for every frame of a camera."""
    added = np.round(glare.field(size, margin=margin)).astype(np.uint8)
    return np.ascontiguousarray(np.repeat(added[..., None], 3, axis=-1))


def rectify_without(image: Image, geometry: BoardGeometry, glare: Glare | None, *, margin: int = 0) -> Image:
    """:func:`vision.geometry.rectify` of a camera frame, without ``glare`` where there is one."""
    rectified = rectify(image, geometry, margin=margin)
    return rectified if glare is None else glare.remove(rectified, geometry.size, margin=margin)


def find_glare(rectified: Image, geometry: BoardGeometry, layout: Layout) -> Glare | None:
    """The reflection on a rectified board (height, width, 3) BGR uint8
    showing ``layout`` (the starting position as it lies there), or None
    where it shows none that matters (see the module's doc)."""
    groups, xy, values = _surfaces(rectified, geometry, layout)
    width, height = geometry.size
    if len(values) <= len(np.unique(groups)) + 6:  # no more samples than looks and light terms to fit
        return None
    # each channel of each sample is one observation of its surface's look in that channel
    group = (3 * groups[:, None] + np.arange(3)[None, :]).reshape(-1)
    observed = values.reshape(-1).astype(np.float64)
    x, y = np.repeat(xy[:, 0] / width, 3), np.repeat(xy[:, 1] / width, 3)
    fit = _Fit(group, observed, x, y)
    smooth = fit.residual(np.zeros((1, 3)))[0][0]
    if smooth <= 0:
        return None
    coarse = np.array(
        [
            (cx, cy, r)
            for r in RADII
            for cx in np.arange(0.0, 1.0 + 1e-6, STEP)
            for cy in np.arange(0.0, height / width + 1e-6, STEP)
        ]
    )
    _, best, _ = fit.best(coarse)
    near = [r for r in RADII if abs(np.log(r / best[2])) < 0.5]
    half = (-STEP / 2, 0.0, STEP / 2)
    fine = np.array([(best[0] + dx, best[1] + dy, r) for r in near for dx in half for dy in half])
    left, best, strength = fit.best(fine)
    glare = Glare(centre=(float(best[0]), float(best[1])), radius=float(best[2]), strength=float(strength))
    if 1 - left / smooth < EXPLAINED or float(glare.field(geometry.size).max()) < MIN_STRENGTH:
        return None
    return glare


class _Fit:
    """The surfaces' looks (one per ``group`` of observations), a smooth
    light over the board (1 + a quadratic in x, y) and a reflection, fitted
    to the ``observed`` values at board positions ``x``, ``y``."""

    def __init__(self, group: npt.NDArray[np.int64], observed: FloatArray, x: FloatArray, y: FloatArray) -> None:
        self.group, self.observed, self.x, self.y = group, observed, x, y
        n = int(group.max()) + 1
        self.one_hot = np.zeros((len(group), n))
        self.one_hot[np.arange(len(group)), group] = 1.0
        dx, dy = x - 0.5, y - 0.5
        self.basis = np.stack([dx, dy, dx * dx, dy * dy, dx * dy], axis=1)
        self.start = (self.one_hot.T @ observed) / np.maximum(self.one_hot.sum(axis=0), 1)

    def residual(self, candidates: FloatArray) -> tuple[FloatArray, FloatArray]:
        """For each candidate reflection (C, 3) (centre x, y, radius; radius
        0: none), what the fit leaves (C,) (sum of squares) and the
        reflection's strength (C,)."""
        cx, cy, r = candidates[:, :1], candidates[:, 1:2], candidates[:, 2:]
        shape = np.where(r > 0, np.exp(-((self.x - cx) ** 2 + (self.y - cy) ** 2) / np.maximum(r, 1e-6) ** 2), 0.0)
        looks = np.broadcast_to(self.start, (len(candidates), len(self.start))).copy()
        columns = self.basis.shape[1] + 1
        for _ in range(ROUNDS):
            look = looks[:, self.group]
            design = np.concatenate([self.basis[None] * look[:, :, None], shape[:, :, None]], axis=2)
            target = self.observed[None] - look
            normal = np.einsum("cni,cnj->cij", design, design) + 1e-6 * np.eye(columns)
            solution = np.linalg.solve(normal, np.einsum("cni,cn->ci", design, target)[:, :, None])[:, :, 0]
            light = 1 + solution[:, :-1] @ self.basis.T
            strength = solution[:, -1]
            looks = (
                ((self.observed[None] - strength[:, None] * shape) * light)
                @ self.one_hot
                / np.maximum((light * light) @ self.one_hot, 1e-9)
            )
        left = self.observed[None] - looks[:, self.group] * light - strength[:, None] * shape
        return np.asarray((left**2).sum(axis=1)), np.asarray(strength)

    def best(self, candidates: FloatArray) -> tuple[float, FloatArray, float]:
        """The candidate that leaves least, adding light: what it leaves, it, and its strength."""
        left, strength = self.residual(candidates)
        left = np.where(strength > 0, left, np.inf)
        i = int(np.argmin(left))
        return float(left[i]), candidates[i], float(strength[i])


def _surfaces(
    rectified: Image, geometry: BoardGeometry, layout: Layout
) -> tuple[npt.NDArray[np.int64], FloatArray, FloatArray]:
    """Samples of the board's surfaces in the starting position: for each,
    its surface (n,) (a slot's row, point colour and place from the edge;
    a checker's colour; the bar), its rectified position (n, 2) px and its
    mean BGR (n, 3) about it; those the photo clipped are left out."""
    side = max(3, int(geometry.pitch_px * 0.45) | 1)
    mean = cv2.blur(rectified.astype(np.float32), (side, side))
    clipped = cv2.blur((rectified.max(axis=-1) >= CLIPPED).astype(np.float32), (side, side))
    centres = slot_centres(geometry)
    states = layout_states(layout, geometry.slots, exact=True).astype(np.int64)
    kind = np.broadcast_to(point_kind()[:, :, None], states.shape)
    rows = np.broadcast_to(np.arange(2)[:, None, None], states.shape)
    places = np.broadcast_to(np.arange(geometry.slots)[None, None, :], states.shape)
    # an empty slot's surface: its row, its point's colour, its place; a checker's: its colour
    surface = np.where(states == EMPTY, (rows * 2 + kind) * geometry.slots + places, 4 * geometry.slots + states)
    bar = bar_slot_centres(geometry)
    xy = np.concatenate([centres.reshape(-1, 2), bar])
    groups = np.concatenate([surface.reshape(-1), np.full(len(bar), 4 * geometry.slots + 3)])
    h, w = rectified.shape[:2]
    xi = np.clip(np.round(xy[:, 0]).astype(np.int64), 0, w - 1)
    yi = np.clip(np.round(xy[:, 1]).astype(np.int64), 0, h - 1)
    unclipped = clipped[yi, xi] < 0.02
    _, dense = np.unique(groups[unclipped], return_inverse=True)
    return dense.astype(np.int64), xy[unclipped].astype(np.float64), mean[yi, xi][unclipped].astype(np.float64)
