"""A dice cup on the board: something round and bigger than any checker.

A cup standing on the board, open side up or upside down, shows a circle
one and a half to four checkers across. Where it stands on the dark bar or
on a dark point its inside can look like the board or like checkers, and
the comparison with the empty board (:mod:`vision.occlusion`) finds too
little of it; its outline is still a clean circle, which nothing else in
play draws: a checker's rim is smaller, and arcs of a line or a pile of
checkers, wood grain or marble veins are no whole circle.

A board may carry round things of its own (a medallion on the bar, a logo
in the felt): the circles seen at calibration are kept in its reference and
do not count later. Nor does a circle the empty board draws as well: where
the edges along it are those of the empty board, it is the edge of a lamp's
glare, of the bar and the points' tips, met by chance; a cup's rim draws an
edge of its own along part of it at least.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.features import edge_magnitude, to_lab
from vision.geometry import BoardGeometry, Image, slot_centres

#: Circles are looked for on the rectified board shrunk by this factor (speed).
SCALE = 0.35
#: Places along a circle where its edges are compared with the empty board's.
OUTLINE_SAMPLES = 64
#: An edge at a place is new where it is this many times the empty board's there, and ...
NEW_EDGE_RATIO = 2.0
#: ... this much stronger (Lab units of :func:`vision.features.edge_magnitude`).
NEW_EDGE_MARGIN = 10.0


@dataclass(frozen=True)
class Circle:
    """A circle on the rectified board: centre and radius in rectified px."""

    x: float
    y: float
    radius: float

    def near(self, other: Circle, pitch: float) -> bool:
        """The same round thing as ``other``: centres within half a checker,
        radii within a third."""
        return bool(
            np.hypot(self.x - other.x, self.y - other.y) < 0.5 * pitch
            and abs(self.radius - other.radius) < other.radius / 3
        )


def round_things(
    rectified: Image, geometry: BoardGeometry, *, min_radius: float, max_radius: float, roundness: float
) -> list[Circle]:
    """Whole circles on the rectified board (height, width, 3) BGR uint8 with
    radii from ``min_radius`` to ``max_radius`` checker pitches, drawn so
    cleanly that OpenCV's gradient Hough transform rates them at least
    ``roundness`` (0..1, 1 a perfect circle; at 1 or more none is)."""
    if roundness >= 1.0:
        return []
    grey = cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(grey, None, fx=SCALE, fy=SCALE, interpolation=cv2.INTER_AREA)
    pitch = geometry.pitch_px * SCALE
    found = cv2.HoughCircles(
        small,
        cv2.HOUGH_GRADIENT_ALT,
        dp=1.0,
        minDist=pitch,
        param1=150,
        param2=roundness,
        minRadius=max(1, int(min_radius * pitch)),
        maxRadius=max(2, int(np.ceil(max_radius * pitch))),
    )
    if found is None:
        return []
    return [Circle(float(x) / SCALE, float(y) / SCALE, float(r) / SCALE) for x, y, r in found[0]]


def unknown_round_things(
    rectified: Image,
    geometry: BoardGeometry,
    known: list[Circle],
    *,
    min_radius: float,
    max_radius: float,
    roundness: float,
) -> list[Circle]:
    """:func:`round_things` on the board that are none of the ``known`` ones
    (the board's own, seen at calibration)."""
    seen = round_things(rectified, geometry, min_radius=min_radius, max_radius=max_radius, roundness=roundness)
    return [c for c in seen if not any(c.near(k, geometry.pitch_px) for k in known)]


def new_outline(rectified: Image, circle: Circle, empty: npt.NDArray[np.float32]) -> float:
    """The share of ``circle``'s outline on the rectified board (height,
    width, 3) BGR uint8 where it shows an edge that the calibration's
    thumbnail of the empty board (h, w, 3) Lab (:mod:`vision.occlusion`)
    does not: within a thumbnail pixel of the circle, the strongest edge
    is :data:`NEW_EDGE_RATIO` times the empty board's and
    :data:`NEW_EDGE_MARGIN` more."""
    h, w = empty.shape[:2]
    frame = np.asarray(cv2.resize(to_lab(rectified), (w, h), interpolation=cv2.INTER_AREA), np.float32)
    scale = np.array([w / rectified.shape[1], h / rectified.shape[0]], np.float32)
    angle = np.linspace(0, 2 * np.pi, OUTLINE_SAMPLES, endpoint=False)
    along = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    centre = np.array([circle.x, circle.y], np.float32) * scale
    strongest = []
    for edges in (edge_magnitude(frame), edge_magnitude(np.asarray(empty, np.float32))):
        band = []
        for step in (-1.0, 0.0, 1.0):
            xy = np.rint(centre + along * (circle.radius * scale + step)).astype(np.intp)
            band.append(edges[np.clip(xy[:, 1], 0, h - 1), np.clip(xy[:, 0], 0, w - 1)])
        strongest.append(np.max(band, axis=0))
    now, before = strongest
    return float(np.mean(now > NEW_EDGE_RATIO * before + NEW_EDGE_MARGIN))


def points_under(circle: Circle, geometry: BoardGeometry) -> list[tuple[int, int]]:
    """(row, col) of the points with a slot inside ``circle``."""
    centres = slot_centres(geometry)
    inside = np.hypot(centres[..., 0] - circle.x, centres[..., 1] - circle.y) < circle.radius
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(inside.any(axis=-1)), strict=True)]
