"""The bear-off tray: how many checkers each side has borne off (E1, E2).

Where the calibration includes the tray (``nardref calibrate --tray``), its
quadrilateral is rectified to a strip running from one end to the other.
Borne-off checkers stand on edge in a row from an end, one side's at each
end; the strip's rows are compared with the empty tray's look (from the
starting position, where nothing is borne off) and with the two checker
colours, and each end's run of checkers is measured in the spacing of the
grooves between its checkers (near a checker's thickness, which the
calibration estimates from the point width). A run that is no whole number
of checkers, a colour that fits neither side or hardly stands out from the
empty tray, a run no nearer its colour than the empty tray is (a
broadcast's caption laid over an end), or anything in the tray but the two
runs leaves a count unsure: the referee then relies on the board alone.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import CalibrationError
from vision.features import to_lab
from vision.geometry import BoardGeometry, Image, Lens, as_points, homography, ideal_points, raw_points, remap_tables

FloatArray = npt.NDArray[np.float32]

#: The rectified strip: (across, along) in pixels.
STRIP = (24, 384)
#: A checker's thickness in point widths: a checker is about 0.9 point widths
#: across and a fifth as thick as it is wide. Saved in the calibration, where it can be corrected.
CHECKER_THICKNESS = 0.18
#: A run of checkers is counted surely when its length is within this share
#: of a checker's thickness of a whole number of them.
WHOLE = 0.35
#: ... when the spacing of its grooves is within this share of a checker's thickness...
NEAR = 0.25
#: ... where both runs show it, their spacings within this share of each other...
AGREE = 0.04
#: ... and when at least this share of its rows is nearer one checker colour than the other.
PURE = 0.8
#: Grooves repeat where the run's autocorrelation peaks at least this high.
REPEATS = 0.25
#: A row of the strip this far from the empty tray's look (Lab) holds something.
STANDS_OUT = 12.0
#: A checker colour less than this far from the empty tray's look cannot be counted there.
CONTRAST = 20.0


@dataclass(frozen=True, eq=False)
class Tray:
    """Where the tray lies in the image and how it looks empty.

    ``corners`` (4, 2) in raw image pixels: the first two along one end of
    the tray, the last two along the other (TL, TR, BR, BL of a tray whose
    ends are its top and bottom); ``look`` (along, 3) the empty tray's
    strip in Lab, each row's median across the middle; ``thickness``: a
    checker's thickness as a share of the tray's length."""

    corners: FloatArray
    look: FloatArray
    thickness: float

    def to_json(self) -> dict[str, object]:
        return {
            "corners": [[round(float(x), 2), round(float(y), 2)] for x, y in self.corners],
            "look": np.round(self.look, 1).tolist(),
            "thickness": round(self.thickness, 5),
        }

    @classmethod
    def from_json(cls, data: object) -> Tray:
        if not isinstance(data, dict):
            raise CalibrationError("tray: expected an object with corners, look and thickness")
        corners = np.asarray(data["corners"], np.float32)
        look = np.asarray(data["look"], np.float32)
        thickness = float(data["thickness"])
        if corners.shape != (4, 2) or look.shape != (STRIP[1], 3) or not 0 < thickness < 0.5:
            raise CalibrationError(
                f"tray: expected 4 corners, a look of {STRIP[1]} Lab rows and a thickness in 0..0.5 of the "
                f"tray's length; got corners {corners.shape}, look {look.shape}, thickness {thickness}"
            )
        return cls(corners, look, thickness)


@dataclass(frozen=True)
class Off:
    """How many ``light`` and ``dark`` checkers stand in the tray, and
    whether each count is sure (``light_sure``, ``dark_sure``)."""

    light: int
    dark: int
    light_sure: bool
    dark_sure: bool

    @property
    def sure(self) -> bool:
        return self.light_sure and self.dark_sure


@functools.lru_cache(maxsize=8)
def _maps(
    corners: tuple[tuple[float, float], ...], lens: Lens | None
) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]]:
    """The remap tables (strip pixel -> raw image pixel) of the tray at
    ``corners``, computed once per tray and lens."""
    across, along = STRIP
    ideal = ideal_points(np.array(corners, np.float32), lens)
    square = np.array([[0, 0], [across, 0], [across, along], [0, along]], np.float32)
    to_ideal = cv2.getPerspectiveTransform(square, ideal)
    xs, ys = np.meshgrid(np.arange(across, dtype=np.float32) + 0.5, np.arange(along, dtype=np.float32) + 0.5)
    grid = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2)
    src = cv2.perspectiveTransform(grid, to_ideal).reshape(along, across, 2)
    return remap_tables(raw_points(np.asarray(src, np.float32), lens))


def _strip(image: Image, corners: FloatArray, geometry: BoardGeometry) -> FloatArray:
    """The tray rectified to a strip (along, across, 3) in Lab, without its
    walls: the middle three fifths across."""
    across = STRIP[0]
    map1, map2 = _maps(as_points(corners), geometry.lens)
    strip = cv2.remap(image, map1, map2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return to_lab(np.asarray(strip, np.uint8))[:, across // 5 : across - across // 5]


def _edges(strip: FloatArray, empty: FloatArray, first: int, end: int) -> tuple[int, int]:
    """A run's rows ``first:end`` of a strip (along, across, 3) from one
    end, moved to where the rows turn from the run's own face to the empty
    tray (``empty``: each row's distance from the empty look): halfway, as a
    blurred edge lies, whatever the two colours."""
    if end - first < 3:
        return first, end
    face = np.median(strip[first:end], axis=(0, 1))
    own = np.median(np.linalg.norm(strip - face, axis=-1), axis=1) < empty
    while first > 0 and own[first - 1]:
        first -= 1
    while first < end - 1 and not own[first]:
        first += 1
    while end < len(own) and own[end]:
        end += 1
    while end > first + 1 and not own[end - 1]:
        end -= 1
    return first, end


def _period(signal: npt.NDArray[np.float64], slab: float) -> float | None:
    """The spacing of the grooves between checkers in a run's signal (n,),
    near a checker's thickness ``slab``, from the signal's autocorrelation
    (refined at the longest lag that still overlaps half the run), or None
    where no groove repeats clearly."""
    n = len(signal)
    x = signal - signal.mean()
    power = float(x @ x)
    if power <= 0:
        return None
    ac = np.correlate(x, x, "full")[n - 1 :] / (n - np.arange(n)) * n / power  # per overlapping pair

    def peak(low: float, high: float) -> tuple[float, float] | None:
        lo, hi = max(1, int(np.floor(low))), min(n - 2, int(np.ceil(high)))
        if lo > hi:
            return None
        k = lo + int(np.argmax(ac[lo : hi + 1]))
        if ac[k] < ac[k - 1] or ac[k] < ac[k + 1]:  # the range's edge, not a peak
            return None
        bend = ac[k - 1] - 2 * ac[k] + ac[k + 1]
        shift = 0.5 * (ac[k - 1] - ac[k + 1]) / bend if bend < 0 else 0.0
        return k + shift, float(ac[k])

    first = peak(0.7 * slab, 1.4 * slab)
    if first is None or first[1] < REPEATS:
        return None
    period = first[0]
    times = int(n / 2 // period)
    if times > 1:
        longer = peak((times - 0.4) * period, (times + 0.4) * period)
        if longer is not None and longer[1] >= REPEATS:
            period = longer[0] / times
    return period


def _spacing(run: FloatArray, slab: float) -> float | None:
    """The spacing of the grooves between the checkers of a run of strip
    rows (n, across, 3), near a checker's thickness ``slab`` (in rows), or
    None where the run is too short to show it (up to about two checkers)
    or shows none."""
    rows = np.median(run, axis=1).astype(np.float64)
    # the grooves' signal: the rows along the direction in which they vary
    # most, clear of the run's blurred ends
    trim = int(np.ceil(0.3 * slab))
    inner = rows[trim : len(rows) - trim]
    if len(inner) < 2.5 * slab:
        return None
    centred = inner - inner.mean(axis=0)
    return _period(centred @ np.linalg.svd(centred, full_matrices=False)[2][0], slab)


def _counts(lengths: list[int], spacings: list[float | None], slab: float) -> list[tuple[int, bool]]:
    """Each run's number of checkers and whether it is sure, from its length
    (rows) in the spacing of the grooves: both runs' spacings must agree
    (one tray, one kind of checker) and lie near a checker's thickness
    ``slab``; a run without one is measured in the other's, or in
    ``slab`` where it holds up to three checkers."""
    shown = [(n, p) for n, p in zip(lengths, spacings, strict=True) if p is not None]
    spacing = sum(n * p for n, p in shown) / sum(n for n, _ in shown) if shown else None
    agree = all(abs(p - spacing) <= AGREE * spacing for _, p in shown) if spacing else True
    out = []
    for n, own in zip(lengths, spacings, strict=True):
        unit = spacing or slab
        count = int(round(n / unit))
        whole = abs(n / unit - count) <= WHOLE
        if own is None and spacing is None:
            out.append((count, whole and count <= 3))
        else:
            out.append((count, whole and agree and abs(unit - slab) <= NEAR * slab))
    return out


def tray_of(image: Image, corners: npt.ArrayLike, geometry: BoardGeometry) -> Tray:
    """The tray at ``corners`` (4, 2) of a frame with nothing borne off (the
    starting position), on the board of ``geometry``: its empty look, and a
    checker's thickness from the board's point width and the tray's length."""
    quad = np.asarray(corners, np.float32).reshape(-1, 2)
    if quad.shape != (4, 2):
        raise CalibrationError(f"tray corners: expected 4 points x,y; got {len(quad)}")
    h, w = image.shape[:2]
    if not ((quad >= 0).all() and (quad[:, 0] <= w).all() and (quad[:, 1] <= h).all()):
        raise CalibrationError(f"tray corners: expected points inside the {w}x{h} image")
    # the tray lies in the board's plane: its length in rectified pixels
    on_board = cv2.perspectiveTransform(ideal_points(quad, geometry.lens)[None], homography(geometry))[0]
    length = float(np.linalg.norm((on_board[2] + on_board[3]) / 2 - (on_board[0] + on_board[1]) / 2))
    if length < geometry.point_width_px:
        raise CalibrationError("tray corners: the tray is shorter than a point is wide; give its four corners")
    thickness = CHECKER_THICKNESS * geometry.point_width_px / length
    return Tray(quad, np.median(_strip(image, quad, geometry), axis=1).astype(np.float32), thickness)


def read_off(image: Image, tray: Tray, geometry: BoardGeometry, light: FloatArray, dark: FloatArray) -> Off:
    """Count the borne-off checkers in ``tray`` on a frame (h, w, 3) BGR,
    given the two checker colours ``light`` and ``dark`` (Lab, 3)."""
    along = STRIP[1]
    strip = _strip(image, tray.corners, geometry)
    empty = np.median(np.linalg.norm(strip - tray.look[:, None], axis=-1), axis=1)
    to_light = np.median(np.linalg.norm(strip - light, axis=-1), axis=1)
    to_dark = np.median(np.linalg.norm(strip - dark, axis=-1), axis=1)
    filled = empty > STANDS_OUT
    # how far the empty tray's look is from each colour, row by row
    look_to = {sign: np.linalg.norm(tray.look - colour, axis=-1) for sign, colour in ((1, light), (-1, dark))}
    # clearly empty: within the photo's own noise of the empty look, and well short of holding something
    noise = float(np.median(empty[~filled])) if not filled.all() else STANDS_OUT
    calm = min(0.75 * STANDS_OUT, max(STANDS_OUT / 2, 2 * noise))
    # a colour that hardly stands out from the empty tray may stand there unseen
    seen = {
        sign: float(np.median(np.linalg.norm(tray.look - colour, axis=-1))) >= CONTRAST
        for sign, colour in ((1, light), (-1, dark))
    }
    sure = {1: True, -1: True}
    clear = True  # nothing in the tray but whole runs of checkers of both colours
    slab = tray.thickness * along
    gap = max(1, int(round(0.6 * slab)))  # a checker's outline, or the space before the first one
    counts = {1: 0, -1: 0}
    runs: dict[int, tuple[int, float | None]] = {}  # colour: rows, spacing of its grooves
    ends = []
    for rows, index in ((filled, np.arange(along)), (filled[::-1], np.arange(along)[::-1])):
        first = int(np.argmax(rows)) if rows.any() else along
        if first > gap + slab:  # nothing against this end: the tray there clearly empty
            clear &= bool((empty[index[: gap + 2 * int(np.ceil(slab))]] < calm).all())
            ends.append(0)
            continue
        end = first + 1
        while (hits := np.nonzero(rows[end : end + gap + 1])[0]).size:
            end += int(hits[-1]) + 1
        ends.append(end)
        first, end = _edges(strip[index], empty[index], first, end)
        # past the run, the tray clearly empty for a checker's thickness
        clear &= bool((empty[index[end + gap : end + gap + int(np.ceil(slab))]] < calm).all())
        run = index[first:end]
        lighter = float(np.mean(to_light[run] < to_dark[run]))
        colour = 1 if lighter >= PURE else -1 if lighter <= 1 - PURE else 0
        # checkers of a colour bring the tray nearer that colour, where
        # something else over it (a broadcast's caption) need not
        if colour and np.mean((to_light if colour == 1 else to_dark)[run] < look_to[colour][run]) < PURE:
            colour = 0
        if end - first < slab * (1 - WHOLE) or colour == 0 or colour in runs:
            clear = False  # too thin for a checker, of no colour, or a second run of one colour
            continue
        runs[colour] = (end - first, _spacing(strip[run], slab))
    counted = _counts([n for n, _ in runs.values()], [p for _, p in runs.values()], slab)
    for colour, (count, whole) in zip(runs, counted, strict=True):
        counts[colour], sure[colour] = count, whole
    # the two runs apart, and nothing in the tray between them
    clear &= ends[0] + ends[1] < along and not filled[ends[0] : along - ends[1]].any()
    light_sure, dark_sure = (clear and seen[c] and sure[c] and counts[c] <= 15 for c in (1, -1))
    return Off(light=counts[1], dark=counts[-1], light_sure=light_sure, dark_sure=dark_sure)
