"""A dice cup on the board: something round and bigger than any checker.

A cup standing on the board, open side up or upside down, shows a circle
one and a half to four checkers across. Where it stands on the dark bar or
on a dark point its inside can look like the board or like checkers, and
the comparison with the empty board (:mod:`vision.occlusion`) finds too
little of it; its outline is still a clean circle, which nothing else in
play draws: a checker's rim is smaller, and arcs of a line or a pile of
checkers, wood grain or marble veins are no whole circle. A cup set down
at the board's edge stands over its frame too, and its outline is whole
only with the frame in view: the circles reaching past the playing area
are looked for on the board rectified with a margin around it
(:func:`vision.refusal.cup_margin`), and count where their centre lies on it.

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

    def crosses(self, size: tuple[int, int]) -> bool:
        """Whether it reaches past the playing area (``size``: width, height)."""
        width, height = size
        return bool(
            self.x < self.radius
            or self.y < self.radius
            or self.x + self.radius > width
            or self.y + self.radius > height
        )

    def near(self, other: Circle, pitch: float) -> bool:
        """The same round thing as ``other``: centres within half a checker,
        radii within a third."""
        return bool(
            np.hypot(self.x - other.x, self.y - other.y) < 0.5 * pitch
            and abs(self.radius - other.radius) < other.radius / 3
        )


def round_things(
    rectified: Image,
    geometry: BoardGeometry,
    *,
    min_radius: float,
    max_radius: float,
    roundness: float,
    margin: int = 0,
) -> list[Circle]:
    """Whole circles with their centre on the playing area, in its
    rectified px, seen on the board rectified with ``margin`` px around
    it (height + 2 margin, width + 2 margin, 3) BGR uint8, with radii from
    ``min_radius`` to ``max_radius`` checker pitches, drawn so cleanly that
    OpenCV's gradient Hough transform rates them at least ``roundness``
    (0..1, 1 a perfect circle; at 1 or more none is)."""
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
    width, height = geometry.size
    circles = (Circle(float(x) / SCALE - margin, float(y) / SCALE - margin, float(r) / SCALE) for x, y, r in found[0])
    return [c for c in circles if 0 <= c.x < width and 0 <= c.y < height]


def board_round_things(
    rectified: Image,
    around: Image | None,
    geometry: BoardGeometry,
    *,
    min_radius: float,
    max_radius: float,
    roundness: float,
) -> list[Circle]:
    """:func:`round_things` on the rectified board, and those that
    ``around`` (the board rectified with a margin around the playing area,
    as wide on every side) shows reaching past its edges, whole there."""
    seen = round_things(rectified, geometry, min_radius=min_radius, max_radius=max_radius, roundness=roundness)
    if around is None:
        return seen
    margin = (around.shape[1] - rectified.shape[1]) // 2
    wide = round_things(
        around, geometry, min_radius=min_radius, max_radius=max_radius, roundness=roundness, margin=margin
    )
    past = [c for c in wide if c.crosses(geometry.size) and not any(c.near(s, geometry.pitch_px) for s in seen)]
    return seen + past


def unknown_round_things(
    rectified: Image,
    around: Image | None,
    geometry: BoardGeometry,
    known: list[Circle],
    *,
    min_radius: float,
    max_radius: float,
    roundness: float,
) -> list[Circle]:
    """:func:`board_round_things` that are none of the ``known`` ones (the
    board's own, seen at calibration)."""
    seen = board_round_things(
        rectified, around, geometry, min_radius=min_radius, max_radius=max_radius, roundness=roundness
    )
    return [c for c in seen if not any(c.near(k, geometry.pitch_px) for k in known)]


def new_outline(rectified: Image, circle: Circle, empty: npt.NDArray[np.float32]) -> float:
    """The share of ``circle``'s outline on the rectified board (height,
    width, 3) BGR uint8, of the part on the board, where it shows an edge
    that the calibration's thumbnail of the empty board (h, w, 3) Lab
    (:mod:`vision.occlusion`) does not: within a thumbnail pixel of the
    circle, the strongest edge is :data:`NEW_EDGE_RATIO` times the empty
    board's and :data:`NEW_EDGE_MARGIN` more."""
    h, w = empty.shape[:2]
    frame = np.asarray(cv2.resize(to_lab(rectified), (w, h), interpolation=cv2.INTER_AREA), np.float32)
    scale = np.array([w / rectified.shape[1], h / rectified.shape[0]], np.float32)
    angle = np.linspace(0, 2 * np.pi, OUTLINE_SAMPLES, endpoint=False)
    along = np.stack([np.cos(angle), np.sin(angle)], axis=-1)
    centre = np.array([circle.x, circle.y], np.float32) * scale
    ring = centre + along * circle.radius * scale
    on_board = np.all((ring >= 0) & (ring < (w, h)), axis=1)
    if not on_board.any():
        return 0.0
    strongest = []
    for edges in (edge_magnitude(frame), edge_magnitude(np.asarray(empty, np.float32))):
        band = []
        for step in (-1.0, 0.0, 1.0):
            xy = np.rint(centre + along * (circle.radius * scale + step)).astype(np.intp)
            band.append(edges[np.clip(xy[:, 1], 0, h - 1), np.clip(xy[:, 0], 0, w - 1)])
        strongest.append(np.max(band, axis=0)[on_board])
    now, before = strongest
    return float(np.mean(now > NEW_EDGE_RATIO * before + NEW_EDGE_MARGIN))


def points_under(circle: Circle, geometry: BoardGeometry) -> list[tuple[int, int]]:
    """(row, col) of the points with a slot inside ``circle``."""
    centres = slot_centres(geometry)
    inside = np.hypot(centres[..., 0] - circle.x, centres[..., 1] - circle.y) < circle.radius
    return [(int(r), int(c)) for r, c in zip(*np.nonzero(inside.any(axis=-1)), strict=True)]
