"""Board geometry: from four image corners to a rectified board, its bar and
the regions of its 24 points.

The playing area is the quadrilateral TL, TR, BR, BL (image pixels) whose edge
TL->TR runs along one row of twelve points; a board seen sideways is handled
by the corner order alone. :func:`rectify` maps it to a canonical image of
``size = (width, height)`` pixels in which the top row of points hangs from
``y = 0``, the bottom row stands on ``y = height`` and the bar is a vertical
band ``bar = (x0, x1)``.

A folding board is not flat: give six corners (TL, hinge top, TR, BR, hinge
bottom, BL) and each half gets its own mapping. A wide lens bends straight
lines: give a :class:`Lens` and the mapping undistorts on the way.
"""

from __future__ import annotations

import functools
import logging
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import GeometryError, ImageError

log = logging.getLogger(__name__)

Image = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[np.float32]
Point = tuple[float, float]

POINTS_PER_ROW = 12
POINTS_PER_HALF = 6
#: Rectified width in pixels unless a caller asks otherwise (about 36 px per point).
DEFAULT_WIDTH_PX = 480
#: Probes along the bar per checker pitch.
BAR_PROBES_PER_PITCH = 4
#: How much a band's colour differing from the points beside it counts
#: towards its being the bar, at most (Lab units, 8-bit scale).
BAR_CONTRAST = 30.0
#: The widest bar looked for, as a share of the playing area's width.
BAR_MOST = 0.2
#: A frame no calibration fixed the size of (a phone's photo) is read
#: shrunk to this many px on its longer side, where it is longer: what the
#: reader measures in the camera's pixels (a caption's edges, samples of
#: the board's frame) was set on frames about this size, and shrinking by
#: area averages a large sensor's noise away.
WORKING_SIDE = 1280


@dataclass(frozen=True)
class Lens:
    """A lens calibration (OpenCV pinhole model): ``camera_matrix`` 3x3 row by
    row, ``dist_coeffs`` (k1, k2, p1, p2[, k3 ...])."""

    camera_matrix: tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]
    dist_coeffs: tuple[float, ...]

    def matrix(self) -> npt.NDArray[np.float64]:
        return np.asarray(self.camera_matrix, np.float64)

    def coeffs(self) -> npt.NDArray[np.float64]:
        return np.asarray(self.dist_coeffs, np.float64)


@dataclass(frozen=True)
class BoardGeometry:
    """Where the playing area is in the camera image and how it is divided.

    ``corners``: 4 points TL, TR, BR, BL, or 6 for a folding board (TL, hinge
    top, TR, BR, hinge bottom, BL), in raw image pixels. ``size``: rectified
    (width, height) px. ``bar``: the bar's left and right edge, rectified x px.
    ``pitch_px``: distance between the centres of two neighbouring checkers
    along a point, rectified px (the checker diameter).
    """

    corners: tuple[Point, ...]
    size: tuple[int, int]
    bar: tuple[float, float]
    pitch_px: float
    lens: Lens | None = None

    def __post_init__(self) -> None:
        if len(self.corners) not in (4, 6):
            raise GeometryError(f"corners {self.corners!r}: expected 4 (TL, TR, BR, BL) or 6 (folding board)")
        width, height = self.size
        if width < 48 or height < 48:
            raise GeometryError(f"rectified size {self.size!r}: expected at least 48x48 px")
        x0, x1 = self.bar
        if not 0 < x0 < x1 < width:
            raise GeometryError(f"bar {self.bar!r}: expected 0 < left < right < {width}")
        if not 2.0 <= self.pitch_px <= height / 4:
            raise GeometryError(f"checker pitch {self.pitch_px!r} px: expected 2..{height / 4:.0f}")

    @property
    def point_width_px(self) -> float:
        """Mean width of one point's base, rectified px."""
        x0, x1 = self.bar
        return (self.size[0] - (x1 - x0)) / POINTS_PER_ROW

    @property
    def slots(self) -> int:
        """How many checkers fit in a line from the edge to the middle."""
        return max(1, int((self.size[1] / 2) // self.pitch_px))


def parse_corners(text: str) -> FloatArray:
    """``"x,y x,y x,y x,y"`` (4 or 6 pairs) -> array (n, 2) float32.

    >>> parse_corners("10,20 110,20 110,90 10,90").tolist()
    [[10.0, 20.0], [110.0, 20.0], [110.0, 90.0], [10.0, 90.0]]
    """
    pairs = text.replace(";", " ").split()
    try:
        values = [tuple(float(v) for v in pair.split(",")) for pair in pairs]
    except ValueError:
        raise GeometryError(f"corners {text!r}: expected 'x,y x,y x,y x,y' (TL TR BR BL) in pixels") from None
    if len(values) not in (4, 6) or any(len(v) != 2 for v in values):
        raise GeometryError(f"corners {text!r}: expected 4 pairs 'x,y' (TL TR BR BL), or 6 for a folding board")
    corners = np.asarray(values, np.float32)
    check_corners(corners)
    return corners


def format_corners(corners: npt.ArrayLike) -> str:
    """The inverse of :func:`parse_corners`."""
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in np.asarray(corners, float).reshape(-1, 2))


def _outline(corners: FloatArray) -> FloatArray:
    """The four outer corners TL, TR, BR, BL of 4 or 6 corners, (4, 2)."""
    if len(corners) == 6:
        return corners[[0, 2, 3, 5]]
    return corners


#: No side of the playing area is shorter than this share of its longest in
#: a photo a board can be read from: one seen from low down shows its sides
#: foreshortened and its far side further away, but points no checker could
#: be read on come long before a tenth. Shorter: a corner given twice.
SHORTEST_SIDE = 0.1


def check_corners(corners: FloatArray, *, image_shape: tuple[int, ...] | None = None) -> None:
    """Raise :class:`GeometryError` unless ``corners`` (n, 2) form a convex,
    clockwise (TL, TR, BR, BL) quadrilateral of a useful size."""
    quad = _outline(np.asarray(corners, np.float32).reshape(-1, 2))
    if not np.all(np.isfinite(quad)):
        raise GeometryError(f"corners {quad.tolist()!r}: not finite numbers")
    cross = []
    for i in range(4):
        a, b, c = quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]
        cross.append(float((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])))
    if not all(c > 0 for c in cross):
        raise GeometryError(
            f"corners {quad.tolist()!r}: expected a convex quadrilateral in the order TL, TR, BR, BL "
            "(clockwise on the image)"
        )
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    if sides.min() < SHORTEST_SIDE * sides.max():
        i = int(sides.argmin())
        names = ("TL", "TR", "BR", "BL")
        raise GeometryError(
            f"corners {quad.tolist()!r}: {names[i]} and {names[(i + 1) % 4]} are {sides[i]:.0f} px apart, "
            f"less than {SHORTEST_SIDE:.0%} of the longest side ({sides.max():.0f} px): a corner given twice?"
        )
    area = 0.5 * abs(float(cv2.contourArea(quad)))
    if area < 48 * 48:
        raise GeometryError(f"corners {quad.tolist()!r}: the playing area is too small ({area:.0f} px^2)")
    if image_shape is not None:
        h, w = image_shape[:2]
        margin = 0.02 * max(h, w)
        if np.any(quad < -margin) or np.any(quad[:, 0] > w + margin) or np.any(quad[:, 1] > h + margin):
            raise GeometryError(f"corners {quad.tolist()!r}: outside the {w}x{h} image")


def rectified_size(corners: npt.ArrayLike, *, width_px: int = DEFAULT_WIDTH_PX) -> tuple[int, int]:
    """Rectified (width, height) keeping the board's apparent aspect: the mean
    of the opposite edges' lengths."""
    quad = _outline(np.asarray(corners, np.float32).reshape(-1, 2))
    top = np.linalg.norm(quad[1] - quad[0])
    bottom = np.linalg.norm(quad[2] - quad[3])
    left = np.linalg.norm(quad[3] - quad[0])
    right = np.linalg.norm(quad[2] - quad[1])
    aspect = float((left + right) / max(float(top + bottom), 1e-6))
    return width_px, int(round(width_px * min(max(aspect, 0.4), 2.5)))


def ideal_points(points: FloatArray, lens: Lens | None) -> FloatArray:
    """Raw image points (n, 2) -> undistorted (ideal pinhole) pixel coordinates."""
    if lens is None:
        return points
    pts = cv2.undistortPoints(
        points.reshape(-1, 1, 2).astype(np.float64), lens.matrix(), lens.coeffs(), P=lens.matrix()
    )
    return np.asarray(pts, np.float32).reshape(-1, 2)


def raw_points(points: FloatArray, lens: Lens | None) -> FloatArray:
    """Ideal pinhole pixel coordinates (..., 2) -> where the lens shows them in the raw image."""
    if lens is None:
        return points
    k = lens.matrix()
    normal = (points.reshape(-1, 2) - k[:2, 2]) / np.diag(k)[:2]
    objects = np.concatenate([normal, np.ones((len(normal), 1))], axis=1).astype(np.float64)
    raw, _ = cv2.projectPoints(objects, np.zeros(3), np.zeros(3), k, lens.coeffs())
    return np.asarray(raw, np.float32).reshape(points.shape)


def _pieces(geometry: BoardGeometry) -> list[tuple[FloatArray, FloatArray, tuple[int, int]]]:
    """(ideal image quad (4,2), rectified quad (4,2), x range) for each planar piece."""
    width, height = geometry.size
    corners = ideal_points(np.asarray(geometry.corners, np.float32), geometry.lens)
    if len(corners) == 4:
        dst = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
        return [(corners, dst, (0, width))]
    hinge = (geometry.bar[0] + geometry.bar[1]) / 2
    tl, tm, tr, br, bm, bl = corners
    left_dst = np.array([[0, 0], [hinge, 0], [hinge, height], [0, height]], np.float32)
    right_dst = np.array([[hinge, 0], [width, 0], [width, height], [hinge, height]], np.float32)
    split = int(round(hinge))
    return [
        (np.array([tl, tm, bm, bl], np.float32), left_dst, (0, split)),
        (np.array([tm, tr, br, bm], np.float32), right_dst, (split, width)),
    ]


def homography(geometry: BoardGeometry) -> npt.NDArray[np.float64]:
    """The 3x3 map from (ideal) image pixels to rectified pixels of a flat board."""
    src, dst, _ = _pieces(geometry)[0] if len(geometry.corners) == 4 else _flat(geometry)
    return np.asarray(cv2.getPerspectiveTransform(src, dst), np.float64)


def _flat(geometry: BoardGeometry) -> tuple[FloatArray, FloatArray, tuple[int, int]]:
    width, height = geometry.size
    outer = ideal_points(_outline(np.asarray(geometry.corners, np.float32)), geometry.lens)
    return outer, np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32), (0, width)


@functools.lru_cache(maxsize=8)
def _maps(geometry: BoardGeometry, margin: int) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]]:
    """Fixed-point remap tables (rectified pixel -> raw image pixel) for
    folding boards and lenses, with ``margin`` px around the playing area
    (each half's mapping carried on past its outer edges), computed once
    per geometry."""
    width, height = geometry.size
    xs, ys = np.meshgrid(
        np.arange(-margin, width + margin, dtype=np.float32) + 0.5,
        np.arange(-margin, height + margin, dtype=np.float32) + 0.5,
    )
    src = np.zeros((*xs.shape, 2), np.float32)
    pieces = _pieces(geometry)
    for i, (image_quad, rect_quad, (x0, x1)) in enumerate(pieces):
        inverse = cv2.getPerspectiveTransform(rect_quad, image_quad)
        lo = 0 if i == 0 else x0 + margin
        hi = xs.shape[1] if i == len(pieces) - 1 else x1 + margin
        grid = np.stack([xs[:, lo:hi], ys[:, lo:hi]], axis=-1).reshape(-1, 1, 2)
        src[:, lo:hi] = cv2.perspectiveTransform(grid, inverse).reshape(xs.shape[0], hi - lo, 2)
    return remap_tables(raw_points(src, geometry.lens))


def remap_tables(src: FloatArray) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]]:
    """Fixed-point ``cv2.remap`` tables from (h, w, 2) raw image pixel
    coordinates of each output pixel's centre."""
    map1, map2 = cv2.convertMaps(src - 0.5, None, cv2.CV_16SC2)  # type: ignore[call-overload]
    return np.asarray(map1, np.int16), np.asarray(map2, np.uint16)


def rectify(image: Image, geometry: BoardGeometry, *, margin: int = 0) -> Image:
    """Camera frame (h, w, 3) BGR uint8 -> rectified board (height, width, 3),
    with ``margin`` px of what lies around the playing area (its frame, the
    table) on every side as well: rectified pixel (x, y) is then at
    (x + margin, y + margin)."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        raise ImageError(f"image of shape {image.shape!r} and type {image.dtype}: expected (h, w, 3) uint8 BGR")
    width, height = geometry.size
    if len(geometry.corners) == 4 and geometry.lens is None:
        shift = np.array([[1.0, 0.0, margin], [0.0, 1.0, margin], [0.0, 0.0, 1.0]])
        size = (width + 2 * margin, height + 2 * margin)
        return np.asarray(
            cv2.warpPerspective(image, shift @ homography(geometry), size, flags=cv2.INTER_LINEAR), np.uint8
        )
    map1, map2 = _maps(geometry, margin)
    return np.asarray(cv2.remap(image, map1, map2, cv2.INTER_LINEAR), np.uint8)


def as_points(points: npt.ArrayLike) -> tuple[Point, ...]:
    """``points`` (n, 2) as a tuple of (x, y) floats, as a geometry keeps its corners."""
    return tuple((float(x), float(y)) for x, y in np.asarray(points, np.float64).reshape(-1, 2))


def working_frame(image: Image, corners: npt.ArrayLike) -> tuple[Image, FloatArray]:
    """``image`` (h, w, 3) shrunk by area to :data:`WORKING_SIDE` px on its
    longer side, where it is longer, and ``corners`` (n, 2) px where they
    lie in it (both as they are otherwise)."""
    points = np.asarray(corners, np.float32).reshape(-1, 2)
    h, w = image.shape[:2]
    scale = WORKING_SIDE / max(h, w)
    if scale >= 1.0:
        return image, points
    size = (max(round(w * scale), 1), max(round(h * scale), 1))
    small = np.asarray(cv2.resize(image, size, interpolation=cv2.INTER_AREA), np.uint8)
    factors = np.array([size[0] / w, size[1] / h], np.float32)
    return small, (points + 0.5) * factors - 0.5  # pixel centres on both


def to_image(geometry: BoardGeometry, points: npt.ArrayLike) -> FloatArray:
    """Rectified points (n, 2) -> raw image pixels (n, 2) (flat boards; the
    outline homography for folding ones)."""
    pts = np.asarray(points, np.float32).reshape(-1, 1, 2)
    inverse = np.linalg.inv(homography(geometry))
    ideal = cv2.perspectiveTransform(pts, inverse).reshape(-1, 2)
    return raw_points(np.asarray(ideal, np.float32), geometry.lens)


def find_bar(
    rectified: Image, *, min_fraction: float = 0.03, max_fraction: float = BAR_MOST, max_skew: float = 0.02
) -> tuple[float, float]:
    """The bar's left and right edges (rectified x px) in a rectified board
    (height, width, 3).

    The two halves hold six points of equal width, so the bar sits in the
    middle (up to ``max_skew`` of the width, for corners a little off). Among
    such bands, the one chosen has long straight vertical edges (a low
    percentile over rows of the horizontal gradient: a triangle's slanted
    side or a checker does not survive it), differs from the points beside
    it (up to :data:`BAR_CONTRAST`), and puts neighbouring points' centres
    on alternating point colours near the edges, where the triangles are
    widest.

    A bar of the field's colour (a dark bar on a dark field) differs little
    from the points beside it, whose edges are mostly field: a band
    reaching a third of a point past it, onto the light triangles, differs
    far more, though no straight edge bounds it. Past a clear difference,
    more is no more sign of the bar: its edges decide.
    """
    x0, x1, _ = _best_bar(rectified, min_fraction=min_fraction, max_fraction=max_fraction, max_skew=max_skew)
    return x0, x1


def _best_bar(
    rectified: Image, *, min_fraction: float = 0.03, max_fraction: float = BAR_MOST, max_skew: float = 0.02
) -> tuple[float, float, float]:
    """The bar :func:`find_bar` chooses, and how much the colours at
    neighbouring point centres differ near the two edges along which it
    lays the points out (Lab units): the points alternate in colour."""
    height, width = rectified.shape[:2]
    lab = cv2.cvtColor(cv2.GaussianBlur(rectified, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    grad = np.abs(cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=3)).sum(axis=2)
    rows = np.r_[int(0.04 * height) : int(0.96 * height)]
    edge = np.percentile(grad[rows], 15, axis=0).astype(np.float64)
    edge = np.convolve(edge, np.ones(3) / 3, mode="same")
    column = np.median(lab[rows], axis=0).astype(np.float64)  # (width, 3)
    bands = [
        np.median(lab[int(0.03 * height) : int(0.15 * height)], axis=0).astype(np.float64),
        np.median(lab[int(0.85 * height) : int(0.97 * height)], axis=0).astype(np.float64),
    ]
    cumulative = np.concatenate([np.zeros((1, 3)), np.cumsum(column, axis=0)])

    def mean(a: npt.NDArray[np.intp], b: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        """Mean column colour over [a, b), vectorised; (n, 3)."""
        a, b = np.clip(a, 0, width), np.clip(b, 0, width)
        return np.asarray((cumulative[b] - cumulative[a]) / np.maximum(b - a, 1)[:, None], np.float64)

    widths = np.arange(max(int(min_fraction * width), 3), int(max_fraction * width) + 1)
    skews = np.arange(-int(max_skew * width), int(max_skew * width) + 1)
    grid_w, grid_s = np.meshgrid(widths, skews)
    x0s = ((width - grid_w) // 2 + grid_s).ravel().astype(np.intp)
    x1s = (x0s + grid_w.ravel()).astype(np.intp)
    keep = (x0s > 12) & (x1s < width - 12)
    x0s, x1s = x0s[keep], x1s[keep]
    if len(x0s) == 0:
        raise GeometryError(f"rectified board {rectified.shape!r}: too small to find the bar")
    inside = mean(x0s + 2, x1s - 1)
    outside = (mean(x0s - 7, x0s - 1) + mean(x1s + 2, x1s + 8)) / 2
    contrast = np.linalg.norm(inside - outside, axis=1)
    # alternation of the point colours along both edges
    k = np.arange(POINTS_PER_HALF, dtype=np.float64)
    left_u = x0s / POINTS_PER_HALF
    right_u = (width - x1s) / POINTS_PER_HALF
    centres = np.concatenate([(k + 0.5) * left_u[:, None], x1s[:, None] + (k + 0.5) * right_u[:, None]], axis=1)
    idx = np.clip(np.rint(centres).astype(np.intp), 0, width - 1)
    alternation = np.zeros(len(x0s))
    for band in bands:
        colours = band[idx]  # (n, 12, 3)
        steps = np.linalg.norm(np.diff(colours, axis=1), axis=2)
        steps[:, POINTS_PER_HALF - 1] = 0  # across the bar
        alternation += steps.sum(axis=1) / (2 * (POINTS_PER_ROW - 2))
    skew = np.abs((x0s + x1s) / 2 - width / 2)
    score = np.minimum(edge[x0s], edge[x1s]) + 0.5 * np.minimum(contrast, BAR_CONTRAST) + alternation - 2.0 * skew
    i = int(np.argmax(score))
    log.debug("bar at x=%d..%d of %d (score %.1f)", x0s[i], x1s[i], width, score[i])
    return float(x0s[i]), float(x1s[i]), float(alternation[i])


#: Corners given a quarter turn off run TL->TR across the rows of points,
#: not along one, and the board so rectified alternates in colour from
#: point to point down its sides instead of along its edges. They are
#: taken for turned where the board, turned back, alternates at least this
#: many times as much as it does as given. In 240 rendered photos of random
#: boards and positions (corners 3 px off), corners given right reach 0.97
#: at most (and none of the 1,500 photos the benches read from corners
#: is taken for turned); a quarter turn off, 230 reach this, the other 10 (1.0
#: to 1.5) are read as given, and refused: as something over the middle
#: of the board, or no bar seen ...
TURNED = 1.5
#: ... and by at least this much (Lab units: those 230 alternate by 39 or
#: more): checkers on the end points alternate a little down the sides of a
#: board whose points hardly differ, which no turn explains.
TURNED_LEAST = 30.0


def check_turn(image: Image, corners: npt.ArrayLike) -> None:
    """Raise :class:`GeometryError` where four ``corners`` TL, TR, BR, BL
    (image px) seem given a quarter turn off: their TL->TR edge runs
    across the rows of points, and the points alternate along TR->BR
    instead; the message gives them in the order that fits. (Half a turn
    off only swaps the two rows: it reads as well.)"""
    quad = np.asarray(corners, np.float32).reshape(-1, 2)
    check_corners(quad, image_shape=image.shape)
    if len(quad) != 4:
        return  # a folding board's six corners name the hinge: no turn fits them
    width, height = rectified_size(quad)
    scale = DEFAULT_WIDTH_PX / max(width, height)  # both ways at one scale
    width, height = max(round(width * scale), 48), max(round(height * scale), 48)
    square = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    board = np.asarray(cv2.warpPerspective(image, cv2.getPerspectiveTransform(quad, square), (width, height)), np.uint8)
    try:
        as_given = _best_bar(board)[2]
        turned = _best_bar(np.ascontiguousarray(board.transpose(1, 0, 2)))[2]
    except GeometryError:
        return  # too small to tell: the reading says what it can
    if turned >= max(TURNED * as_given, TURNED_LEAST):
        raise GeometryError(
            f'corners "{format_corners(quad)}" seem a quarter turn off: the edge TL->TR must run along a row of '
            "twelve points, and the points here alternate in colour along TR->BR instead; give them starting "
            f'from TR: --corners "{format_corners(np.roll(quad, -1, axis=0))}"'
        )


def make_geometry(
    corners: npt.ArrayLike,
    image: Image | None = None,
    *,
    width_px: int = DEFAULT_WIDTH_PX,
    bar: tuple[float, float] | None = None,
    pitch_px: float | None = None,
    lens: Lens | None = None,
    stretch: float = 1.0,
) -> BoardGeometry:
    """A geometry from corners (4 or 6, image px). Without ``bar`` it is found
    in ``image``; without ``pitch_px`` the checker pitch is taken as the point
    width (a checker's diameter is about one point's base). The rectified
    board keeps the photo's apparent aspect (:func:`rectified_size`), its
    height times ``stretch``."""
    quad = np.asarray(corners, np.float32).reshape(-1, 2)
    check_corners(quad, image_shape=None if image is None else image.shape)
    width, height = rectified_size(quad, width_px=width_px)
    size = (width, int(round(height * stretch)))
    provisional_bar = bar or (size[0] * 0.46, size[0] * 0.54)
    geometry = BoardGeometry(
        corners=as_points(quad),
        size=size,
        bar=provisional_bar,
        pitch_px=(size[0] * 0.92) / POINTS_PER_ROW,
        lens=lens,
    )
    if bar is None:
        if image is None:
            raise GeometryError("no bar given and no image to find it in")
        geometry = replace(geometry, bar=find_bar(rectify(image, geometry)))
    pitch = pitch_px if pitch_px is not None else geometry.point_width_px
    return replace(geometry, pitch_px=float(pitch))


def point_x_ranges(geometry: BoardGeometry) -> FloatArray:
    """Left and right edge of each of the 12 point columns, (12, 2) rectified px."""
    width = geometry.size[0]
    x0, x1 = geometry.bar
    left = np.linspace(0, x0, POINTS_PER_HALF + 1, dtype=np.float32)
    right = np.linspace(x1, width, POINTS_PER_HALF + 1, dtype=np.float32)
    return np.concatenate([np.stack([left[:-1], left[1:]], axis=1), np.stack([right[:-1], right[1:]], axis=1)]).astype(
        np.float32
    )


def slot_centres(geometry: BoardGeometry) -> FloatArray:
    """Centres of the checker slots, (2, 12, slots, 2) rectified (x, y) px:
    row 0 = top (TL->TR), row 1 = bottom (BL->BR), each left to right; slot 0
    touches the edge, slot k is k pitches further towards the middle."""
    ranges = point_x_ranges(geometry)
    xs = ranges.mean(axis=1)
    pitch = geometry.pitch_px
    k = np.arange(geometry.slots, dtype=np.float32)
    ys_top = pitch / 2 + k * pitch
    ys_bottom = geometry.size[1] - pitch / 2 - k * pitch
    out = np.zeros((2, POINTS_PER_ROW, geometry.slots, 2), np.float32)
    out[:, :, :, 0] = xs[None, :, None]
    out[0, :, :, 1] = ys_top[None, :]
    out[1, :, :, 1] = ys_bottom[None, :]
    return out


def bar_slot_centres(geometry: BoardGeometry) -> FloatArray:
    """Probe centres along the middle of the bar, every quarter of a checker
    pitch from top to bottom, (n, 2) rectified px (checkers on the bar stand
    anywhere, so the probes are dense)."""
    x0, x1 = geometry.bar
    step = geometry.pitch_px / BAR_PROBES_PER_PITCH
    n = max(1, int((geometry.size[1] - geometry.pitch_px) // step) + 1)
    margin = (geometry.size[1] - geometry.pitch_px - (n - 1) * step) / 2
    ys = margin + geometry.pitch_px / 2 + np.arange(n, dtype=np.float32) * step
    return np.stack([np.full(n, (x0 + x1) / 2, np.float32), ys.astype(np.float32)], axis=1)
