"""Named refusals: why a frame cannot be read. A refusal is a result, never a
guess: ``hand_over_board`` (a hand, arm or dice cup hides part of the playing
area), ``board_moved`` (the board is no longer where the calibration put it),
``too_dark``, ``blown_out`` and ``blurred``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal, get_args

import cv2
import numpy as np
import numpy.typing as npt

from vision.captions import Box, along_outline, caption_boxes, inside, unknown
from vision.cups import Circle, board_round_things, new_outline, points_under, unknown_round_things
from vision.geometry import BoardGeometry, Image, to_image
from vision.glare import Glare, rectify_without
from vision.relight import same_surface

FloatArray = npt.NDArray[np.float32]

Reason = Literal["hand_over_board", "board_moved", "too_dark", "blown_out", "blurred", "ambiguous", "colours_unknown"]
REASONS: tuple[str, ...] = get_args(Reason)

_OUTLINE_SAMPLES = 24
_OUTLINE_STEP_PX = 4.0
#: Where something reaching over the frame is looked for again, in outline steps.
_FRAME_REACH = 3.0


@dataclass(frozen=True)
class Refusal:
    """Why a frame was not read: ``reason`` (one of :data:`REASONS`), a
    message for people and the points concerned (``"top 3"``...)."""

    reason: Reason
    message: str
    points: tuple[str, ...] = ()


@dataclass(frozen=True)
class RefusalConfig:
    """Thresholds of the refusals (saved in the calibration)."""

    #: The brightest twentieth of the playing area below this lightness (0..255): too dark.
    min_lightness: float = 60.0
    #: Median lightness below this share of the calibration's: too dark.
    min_lightness_ratio: float = 0.45
    #: Share of the playing area's pixels clipped at white above this: blown out.
    max_clipped: float = 0.25
    #: Median lightness this share or more above or below the calibration's:
    #: a refusal of something over the board says the light changed too.
    light_changed_share: float = 0.15
    #: Edge sharpness below this share of the calibration's: blurred.
    min_sharpness_ratio: float = 0.55
    #: Edge sharpness below this with no calibration reference: blurred.
    min_sharpness: float = 0.12
    #: Outline contrast below this share of the calibration's: the board moved.
    min_outline_ratio: float = 0.45
    #: Colour just outside the outline changed by more than this (Lab): moved.
    max_outline_shift: float = 30.0
    #: This many neighbouring samples just outside the outline changed by more
    #: than ``frame_crossing`` (Lab), as they are and in the board's new
    #: light: something reaches over the frame (a dark sleeve over a dark
    #: frame changes it by 20 to 30).
    frame_crossing: float = 20.0
    frame_crossing_samples: float = 3
    #: ... but a side where at least this share of the samples changed was
    #: relit (or something lay along it at calibration): no hand is that long.
    frame_side_changed: float = 0.9
    #: A frame departs from the expected board where it differs by more than this (Lab).
    occlusion_residual: float = 32.0
    #: ... (this much where checkers were read, or where the empty look was borrowed
    #: from another point at calibration: both are less sure) ...
    occlusion_checker_residual: float = 50.0
    #: ... over an area at least this many checker discs: something covers the board.
    occlusion_area: float = 0.8
    #: ... unless it fits in a square this many checker pitches wide: one
    #: checker misread (in glare, leaning on the next point) leaves its
    #: point unsure, no more.
    occlusion_compact: float = 1.35
    #: Where the frame departs from the expected board by more than this
    #: (Lab) over at least ``occlusion_faint_area`` checker discs in one
    #: place, something covers the board: a hand the colour of a pale wood
    #: board departs from it faintly, but over a hand's area.
    occlusion_faint_residual: float = 12.0
    occlusion_faint_area: float = 3.0
    #: With the frame before (a fixed camera), only what changed since by more
    #: than this (Lab) can be something reaching in: the rest was there when
    #: that frame was read and not refused.
    occlusion_change: float = 16.0
    #: Without a calibration, the frame is sampled from ``frame_band_near`` to
    #: ``frame_band_far`` checker pitches outside the playing area (a side
    #: with fewer than ``frame_band_least`` samples in the picture is not
    #: judged) ...
    frame_band_near: float = 0.3
    frame_band_far: float = 0.7
    frame_band_least: int = 6
    #: ... and a run of samples longer than this many checker pitches, unlike
    #: the side's usual colour by this chroma (Lab) or, by this log ratio, the
    #: light that falls off smoothly along it (a lamp's pool of light on a
    #: dark frame), is something reaching over it ...
    frame_band_run: float = 1.0
    frame_band_chroma: float = 10.0
    frame_band_light: float = 0.4
    #: ... where it has an edge: somewhere from one sample to the next (a
    #: third of a pitch), its colour and light change by this share of those
    #: two at least, and by ``frame_band_sharp`` of how unlike the side the
    #: run is at most. A pool of light, or a shine on a varnished frame,
    #: grows brighter and paler over a checker or more, a little at each
    #: sample (a strong pool by more than a faint arm's edge, where samples
    #: lie farther apart on a board seen larger); an arm's edge is sharp:
    #: most of how unlike it is shows in one step.
    frame_band_edge: float = 0.7
    frame_band_sharp: float = 0.4
    #: The run reaches on over the samples beside it at least this share as
    #: unlike the side: its edges are sought where it fades out.
    frame_band_fading: float = 0.5
    #: Without a calibration, a patch of the field (:mod:`vision.field`)
    #: unlike its usual colour by this chroma (Lab) or its light by this
    #: log ratio ...
    field_chroma: float = 12.0
    field_light: float = 0.35
    #: ... over at least this many checker pitches squared (the dice and
    #: the cube are smaller) ...
    field_area: float = 1.5
    #: ... whose outline is this sharp at least (Lab units per pixel of the
    #: rectified board, the median along it) is something reaching in; a
    #: lamp's pool of light, or the grain of pale wood, fades into the rest.
    field_edge: float = 6.0
    #: A circle with a radius of this many checker pitches or more (a checker's
    #: is half of one) ...
    cup_min_radius: float = 0.8
    #: ... up to this many ...
    cup_max_radius: float = 2.0
    #: ... drawn at least this cleanly (OpenCV's Hough rating, 0..1) is a dice cup ...
    cup_roundness: float = 0.92
    #: ... where at least this share of its outline shows an edge the empty
    #: board does not (a cup's rim; not the edge of a lamp's glare).
    cup_new_outline: float = 0.08


def sharpness(rectified: Image) -> float:
    """How sharp the strong edges are, independent of how many there are:
    the mean over the strongest edge pixels of the gradient divided by the
    local contrast (a perfect step gives about 0.5, a blurred one less)."""
    grey = cv2.cvtColor(rectified, cv2.COLOR_BGR2GRAY)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    kernel = np.ones((7, 7), np.uint8)
    # (dilated minus eroded never goes below zero: uint8 holds it, and is faster)
    contrast = cv2.subtract(cv2.dilate(grey, kernel), cv2.erode(grey, kernel))
    strong = contrast > 40
    if np.count_nonzero(strong) < 50:
        return 0.0
    magnitude = np.abs(gx) + np.abs(gy)
    ratio = magnitude[strong] / (8.0 * contrast[strong].astype(np.float32))
    (cut,) = _percentiles(ratio, (0.9,))
    return float(ratio[ratio >= cut].mean())


def exposure(rectified: Image) -> tuple[float, float, float]:
    """(median lightness 0..255, lightness of the brightest twentieth, share
    of clipped pixels) of a rectified board."""
    small = np.ascontiguousarray(rectified[::4, ::4])
    grey = np.asarray(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), np.uint8).ravel()
    clipped = cv2.countNonZero(cv2.inRange(small, (250, 250, 250), (255, 255, 255))) / len(grey)
    median, bright = _percentiles(grey, (0.5, 0.95))
    return median, bright, clipped


def _percentiles(values: npt.NDArray[Any], shares: tuple[float, ...]) -> list[float]:
    """``np.percentile(values, 100 * share)`` for each of ``shares`` (linear
    between the two values around it), from one partial sort."""
    last = len(values) - 1
    where = [share * last for share in shares]
    ranked = np.partition(values, sorted({min(int(w) + d, last) for w in where for d in (0, 1)})).astype(np.float64)
    return [float(ranked[int(w)] + (w - int(w)) * (ranked[min(int(w) + 1, last)] - ranked[int(w)])) for w in where]


@functools.lru_cache(maxsize=8)
def outline_points(geometry: BoardGeometry, *, reach: float = 1.0) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Where the outline is sampled in the camera frame: (n, 2) points on the
    playing area's outline, and just outside and just inside it (``reach``
    times the usual distance away); read-only, computed once per geometry
    (every frame samples them twice)."""
    width, height = geometry.size
    t = (np.arange(_OUTLINE_SAMPLES, dtype=np.float32) + 0.5) / _OUTLINE_SAMPLES
    edges = [
        (np.stack([t * width, np.zeros_like(t)], 1), (0.0, -1.0)),
        (np.stack([np.full_like(t, width), t * height], 1), (1.0, 0.0)),
        (np.stack([t * width, np.full_like(t, height)], 1), (0.0, 1.0)),
        (np.stack([np.zeros_like(t), t * height], 1), (-1.0, 0.0)),
    ]
    on = np.concatenate([e for e, _ in edges])
    normal = np.concatenate([np.tile(np.array(n, np.float32), (len(e), 1)) for e, n in edges])
    scale = width / max(np.ptp(np.asarray(geometry.corners)[:, 0]), 1.0)
    step = _OUTLINE_STEP_PX * float(scale) * reach
    points = to_image(geometry, on), to_image(geometry, on + normal * step), to_image(geometry, on - normal * step)
    for array in points:
        array.setflags(write=False)
    return points


def outline_profile(
    image: Image, geometry: BoardGeometry, *, reach: float = 1.0
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Samples along the playing area's outline in the camera frame: (n,)
    colour contrast across the edge, and (n, 3) the Lab colour just outside
    and just inside it (``reach`` times the usual distance away)."""
    _, outside, inside = outline_points(geometry, reach=reach)
    h, w = image.shape[:2]

    def sample(points: FloatArray) -> FloatArray:
        xs = np.clip(np.rint(points[:, 0]).astype(np.intp), 0, w - 1)
        ys = np.clip(np.rint(points[:, 1]).astype(np.intp), 0, h - 1)
        # only the sampled pixels to Lab: the whole frame costs several milliseconds a ring
        return np.asarray(
            cv2.cvtColor(np.ascontiguousarray(image[ys, xs][:, None]), cv2.COLOR_BGR2Lab)[:, 0], np.float32
        )

    out, inn = sample(outside), sample(inside)
    return np.linalg.norm(out - inn, axis=1).astype(np.float32), out, inn


def captioned(boxes: list[Box], geometry: BoardGeometry, *, known: list[Box] | None) -> npt.NDArray[np.bool_]:
    """The outline's samples (n,) that a broadcast's caption covers, just
    outside the playing area or farther out, of the caption-like ``boxes``
    of a frame (:func:`vision.captions.caption_boxes`). A box ``known``
    from calibration is the board's own or stayed; without that record, a
    box the playing area runs along may be the board's own."""
    on, outside, _ = outline_points(geometry)
    _, far, _ = outline_points(geometry, reach=_FRAME_REACH)
    if known is None:
        boxes = [box for box in boxes if not along_outline(box, on)]
    else:
        boxes = unknown(boxes, known)
    return inside(outside, boxes) | inside(far, boxes)


def reference_of(
    image: Image,
    geometry: BoardGeometry,
    rectified: Image,
    *,
    config: RefusalConfig = RefusalConfig(),
    glare: Glare | None = None,
) -> dict[str, Any]:
    """What a good frame of this board looks like, for later refusals
    (``rectified`` without the ``glare`` found on it, and so the frame
    around the playing area)."""
    around = rectify_without(image, geometry, glare, margin=cup_margin(geometry, config))
    contrast, outside, inside = outline_profile(image, geometry)
    _, far, _ = outline_profile(image, geometry, reach=_FRAME_REACH)
    boxes = caption_boxes(image)
    light, _, _ = exposure(rectified)
    # the board's own round things, looked for as check_cup looks for cups
    own = board_round_things(
        rectified,
        around,
        geometry,
        min_radius=config.cup_min_radius,
        max_radius=config.cup_max_radius,
        roundness=config.cup_roundness,
    )
    return {
        "sharpness": round(sharpness(rectified), 4),
        "lightness": round(light, 2),
        "outline_contrast": np.round(contrast, 2).tolist(),
        "outline_outside": np.round(outside, 2).tolist(),
        "outline_inside": np.round(inside, 2).tolist(),
        "outline_far": np.round(far, 2).tolist(),
        # what looks like a caption at calibration (a board seen square shows its frame so), and the
        # samples under those that cannot be the board's own
        "captions": [list(box) for box in boxes],
        "outline_captioned": captioned(boxes, geometry, known=None).tolist(),
        "round_things": [[round(c.x, 1), round(c.y, 1), round(c.radius, 1)] for c in own],
    }


def check_exposure(
    rectified: Image, *, config: RefusalConfig, reference: dict[str, Any] | None = None
) -> Refusal | None:
    """``too_dark`` (nothing on the board is bright: a dark felt board is
    fine, a dim room is not; or much darker than at calibration) or
    ``blown_out``, or None."""
    light, bright, clipped = exposure(rectified)
    if bright < config.min_lightness:
        return Refusal(
            "too_dark",
            "the board is too dark to read "
            f"(its brightest parts reach lightness {bright:.0f} < {config.min_lightness:.0f})",
        )
    if reference and reference.get("lightness") and light < config.min_lightness_ratio * float(reference["lightness"]):
        return Refusal(
            "too_dark",
            "the board is much darker than at calibration "
            f"(median lightness {light:.0f}, was {float(reference['lightness']):.0f})",
        )
    if clipped > config.max_clipped:
        return Refusal("blown_out", f"the board is blown out ({clipped:.0%} of it clipped white)")
    return None


def light_changed(rectified: Image, *, config: RefusalConfig, reference: dict[str, Any] | None) -> str:
    """Where the board is much brighter or darker than at calibration (its
    median lightness by ``config.light_changed_share`` or more), a hint for
    a refusal of something over the board: the change of light may be all
    that departs from the board (a lamp switched on, the evening), which
    calibrating again under it takes away; else ""."""
    if not reference or not reference.get("lightness"):
        return ""
    change = exposure(rectified)[0] / float(reference["lightness"]) - 1
    if abs(change) < config.light_changed_share:
        return ""
    how = "brighter" if change > 0 else "darker"
    return (
        f"; the board is also {abs(change):.0%} {how} than at calibration: "
        "if that is all that changed, calibrate again in this light"
    )


def check_sharpness(rectified: Image, *, reference: dict[str, Any] | None, config: RefusalConfig) -> Refusal | None:
    """``blurred`` when the edges are much softer than at calibration."""
    value = sharpness(rectified)
    floor = config.min_sharpness
    if reference and reference.get("sharpness"):
        floor = max(floor, config.min_sharpness_ratio * float(reference["sharpness"]))
    if value < floor:
        return Refusal(
            "blurred", f"the picture is blurred (edge sharpness {value:.2f} < {floor:.2f}); hold the camera still"
        )
    return None


def cup_margin(geometry: BoardGeometry, config: RefusalConfig) -> int:
    """How far (rectified px) around the playing area :func:`check_cup`
    looks: a cup standing on a point at the board's edge stands over its
    frame as well, and its outline is a whole circle only there."""
    return int(np.ceil(config.cup_max_radius * geometry.pitch_px))


def check_cup(
    rectified: Image,
    geometry: BoardGeometry,
    *,
    reference: dict[str, Any],
    config: RefusalConfig,
    empty: npt.NDArray[np.float32] | None = None,
    around: Image | None = None,
) -> Refusal | None:
    """``hand_over_board`` where a circle bigger than a checker stands on the
    board (its centre on the playing area) that was not there at calibration
    and, given the calibration's thumbnail of the ``empty`` board, draws an
    edge of its own along its outline (:mod:`vision.cups`). ``around``: the
    board rectified with :func:`cup_margin` px around the playing area, where
    a cup reaching past it shows its whole outline."""
    from vision.read import point_name

    known = [Circle(float(x), float(y), float(r)) for x, y, r in reference.get("round_things") or []]
    cups = unknown_round_things(
        rectified,
        around,
        geometry,
        known,
        min_radius=config.cup_min_radius,
        max_radius=config.cup_max_radius,
        roundness=config.cup_roundness,
    )
    if empty is not None:
        cups = [c for c in cups if new_outline(rectified, c, empty) >= config.cup_new_outline]
    if not cups:
        return None
    points = tuple(point_name(r, c) for r, c in points_under(cups[0], geometry))
    where = f"over {', '.join(points)}" if points else "in the middle of the board"
    # a board's own medallion is learned by calibrating it
    again = "calibrate again" if reference else "calibrate the board (nardref calibrate) and read it with --calibration"
    return Refusal(
        "hand_over_board",
        f"something round and bigger than a checker (a dice cup, a hand?) lies {where}: wait until it is clear; "
        f"if it belongs to the board, {again}",
        points,
    )


def check_board_moved(
    image: Image, geometry: BoardGeometry, *, reference: dict[str, Any] | None, config: RefusalConfig
) -> Refusal | None:
    """``board_moved`` when the outline of the playing area is no longer where
    the calibration saw it (its edge gone, or other colours just outside);
    ``hand_over_board`` when something reaches over the frame."""
    if not reference or "outline_inside" not in reference:
        return None
    contrast, outside, inside = outline_profile(image, geometry)
    ref_contrast = np.asarray(reference["outline_contrast"], np.float32)
    ref_outside = np.asarray(reference["outline_outside"], np.float32)
    ref_inside = np.asarray(reference["outline_inside"], np.float32)
    if ref_contrast.shape != contrast.shape:
        return None
    # checkers stand at the top and bottom edges: judge the outline on the
    # sides' middle thirds only, where no checker can be
    n = _OUTLINE_SAMPLES
    middle = np.zeros(4 * n, np.bool_)
    for side in (1, 3):
        middle[side * n + n // 3 : side * n + 2 * n // 3] = True
    ratio = float(np.median(contrast[middle])) / max(float(np.median(ref_contrast[middle])), 1.0)
    # the light may have changed, on the board as much as there or not at all
    # beside it (a lamp over the board): the colour outside is the same when
    # it matches either way
    gain = float(np.median(ref_inside[middle, 0])) / max(float(np.median(inside[middle, 0])), 1.0)

    def relit(seen: FloatArray) -> FloatArray:
        scaled = seen.copy()
        scaled[:, 0] *= gain
        return scaled

    shift = min(
        float(np.median(np.linalg.norm(relit(outside) - ref_outside, axis=1))),
        float(np.median(np.linalg.norm(outside - ref_outside, axis=1))),
    )
    if ratio < config.min_outline_ratio or shift > config.max_outline_shift:
        return Refusal(
            "board_moved",
            f"the board has moved since calibration (outline contrast {ratio:.0%} of calibration, "
            f"colour outside it changed by {shift:.0f}); calibrate again or put it back",
        )

    # a hand or an arm reaching in crosses the frame: a few neighbouring
    # samples just outside the playing area that changed a lot, either way
    # (a lamp over the board lights its frame as much; not along the sides
    # beside the lines of the points there: their checkers may lie over the
    # edge, now or at calibration), and not only as a shadow or a lamp
    # would change them (the frame's own colour in other light)
    def changed_from(seen: FloatArray, then: FloatArray) -> npt.NDArray[np.bool_]:
        moved = np.minimum(np.linalg.norm(seen - then, axis=1), np.linalg.norm(relit(seen) - then, axis=1))
        return np.asarray((moved > config.frame_crossing) & ~same_surface(seen, then), np.bool_)

    changed = changed_from(outside, ref_outside)
    # a side that changed all along was relit, or something lay along it at
    # calibration (a sleeve, a broadcast's caption): no hand reaches that far
    relit_side = changed.reshape(4, n).mean(axis=1) >= config.frame_side_changed
    if len(reference.get("outline_far") or ()) == len(outside):
        # a checker standing at the top or bottom edge leans over the frame's
        # inner rim (the camera sees its side), and so does the line of a
        # point beside a side, the farther along it the longer the line (or
        # the more askew the camera sees a pile on it); a hand reaching in
        # crosses the frame farther out as well
        _, far, _ = outline_profile(image, geometry, reach=_FRAME_REACH)
        ref_far = np.asarray(reference["outline_far"], np.float32)
        changed &= changed_from(far, ref_far)
    changed[n : 2 * n] &= middle[n : 2 * n]
    changed[3 * n :] &= middle[3 * n :]
    changed &= ~np.repeat(relit_side, n)
    if _longest_run(changed) < config.frame_crossing_samples:
        return None
    # a broadcast's caption, over the frame now or at calibration, is no hand
    at_calibration = np.asarray(reference.get("outline_captioned") or np.zeros(len(changed)), np.bool_)
    if len(at_calibration) == len(changed):
        changed &= ~at_calibration
    known = reference.get("captions")
    changed &= ~captioned(
        caption_boxes(image), geometry, known=None if known is None else [tuple(box) for box in known]
    )
    if _longest_run(changed) >= config.frame_crossing_samples:
        return Refusal("hand_over_board", "something reaches over the board's frame: wait until it is clear")
    return None


#: The sides of the frame, by number (:func:`frame_band`).
_SIDES = ("top", "right", "bottom", "left")
#: Samples along each side of the frame per checker pitch (:func:`frame_band`).
_FRAME_SAMPLES_PER_PITCH = 3
#: A sample is seen where the nearest this many of its five points out from the playing area are
#: in the picture and under no caption.
_FRAME_NEAREST_SEEN = 2


def frame_band(geometry: BoardGeometry, side: int, *, near: float, far: float) -> FloatArray:
    """Where one ``side`` (0 top, 1 right, 2 bottom, 3 left) of the board's
    frame is sampled with no calibration: (n, 5, 2) points in the camera
    frame, every third of a checker pitch along the side and at five
    distances from ``near`` to ``far`` pitches outside the playing area."""
    width, height = geometry.size
    pitch = geometry.pitch_px
    length = width if side % 2 == 0 else height
    step = pitch / _FRAME_SAMPLES_PER_PITCH
    along = np.arange(step / 2, length, step, dtype=np.float32)
    out = np.linspace(near, far, 5, dtype=np.float32) * pitch
    a, o = np.meshgrid(along, out, indexing="ij")
    x, y = {
        0: (a, -o),
        1: (width + o, a),
        2: (a, height + o),
        3: (-o, a),
    }[side]
    return to_image(geometry, np.stack([x, y], -1).reshape(-1, 2)).reshape(*a.shape, 2)


def check_frame_crossed(image: Image, geometry: BoardGeometry, *, config: RefusalConfig) -> Refusal | None:
    """``hand_over_board`` where, with no calibration, something reaches
    over the board's frame: along a side, a run of samples just outside
    the playing area unlike the rest of that side's frame (of the whole
    frame, where less than half of the side is seen), in colour or in
    light (against a smooth fall of light along the side, fitted to the
    rest), longer than a checker (an arm is wider; a caption is no arm)
    and with a sharp edge (a pool of light has none)."""
    h, w = image.shape[:2]
    boxes = caption_boxes(image)
    sides: list[tuple[int, npt.NDArray[np.bool_], FloatArray]] = []
    for side in range(4):
        points = frame_band(geometry, side, near=config.frame_band_near, far=config.frame_band_far)
        flat = points.reshape(-1, 2)
        visible = (flat[:, 0] >= 0) & (flat[:, 0] < w - 1) & (flat[:, 1] >= 0) & (flat[:, 1] < h - 1)
        visible = (visible & ~inside(flat, boxes)).reshape(points.shape[:2])
        # a sample is seen where the frame nearest the playing area is: a
        # caption over the frame's outer part may hide none of an arm
        seen = visible[:, :_FRAME_NEAREST_SEEN].all(axis=1)
        if seen.sum() < config.frame_band_least:
            continue
        sampled = cv2.cvtColor(cv2.remap(image, points[..., 0], points[..., 1], cv2.INTER_LINEAR), cv2.COLOR_BGR2Lab)
        lab = np.zeros((len(seen), 3), np.float32)
        lab[seen] = np.nanmedian(np.where(visible[seen, :, None], sampled[seen].astype(np.float32), np.nan), axis=1)
        sides.append((side, seen, lab))
    if not sides:
        return None
    # a side mostly hidden (by what seems a caption: the board's own frame
    # seen square may seem one) is measured against the rest of the frame:
    # its own few samples may all lie on an arm
    everywhere = np.median(np.concatenate([lab[seen] for _, seen, lab in sides]), axis=0)
    for side, seen, lab in sides:
        usual = np.median(lab[seen], axis=0) if seen.sum() >= len(seen) / 2 else everywhere
        chroma = np.linalg.norm(lab[:, 1:] - usual[1:], axis=1)
        level = np.log(lab[:, 0] + 8.0)
        place = np.arange(len(level), dtype=np.float64)
        keep = seen.copy()
        for _ in range(3):  # light falls off smoothly along a side; an arm does not
            fit = np.polyval(np.polyfit(place[keep], level[keep], 2), place)
            near = seen & (np.abs(level - fit) <= config.frame_band_light)
            if near.sum() < config.frame_band_least:
                break
            keep = near
        light = np.abs(level - fit)
        unlike = seen & ((chroma > config.frame_band_chroma) | (light > config.frame_band_light))
        scaled = np.column_stack([level / config.frame_band_light, lab[:, 1:] / config.frame_band_chroma])
        edges = np.linalg.norm(np.diff(scaled, axis=0), axis=1) * (seen[1:] & seen[:-1])
        how_unlike = np.maximum(light / config.frame_band_light, chroma / config.frame_band_chroma)
        for start, stop in _runs(unlike):
            if (stop - start) / _FRAME_SAMPLES_PER_PITCH <= config.frame_band_run:
                continue
            sharp = max(config.frame_band_edge, config.frame_band_sharp * float(how_unlike[start:stop].max()))
            # its edges lie where it fades into the frame: an arm's sleeve
            # less unlike the frame than its middle is still the arm
            while start > 0 and seen[start - 1] and how_unlike[start - 1] > config.frame_band_fading:
                start -= 1
            while stop < len(seen) and seen[stop] and how_unlike[stop] > config.frame_band_fading:
                stop += 1
            # where neither end is seen (a corner, a caption), nor is whether it is sharp
            ends_seen = (start > 0 and seen[start - 1]) or (stop < len(seen) and seen[stop])
            if not ends_seen or edges[max(start - 1, 0) : stop].max() >= sharp:
                return Refusal(
                    "hand_over_board",
                    f"something reaches over the {_SIDES[side]} of the board's frame: wait until it is clear",
                )
    return None


def _runs(flags: npt.NDArray[np.bool_]) -> list[tuple[int, int]]:
    """Where neighbouring ``flags`` are set, as (start, stop) indices."""
    change = np.flatnonzero(np.diff(np.concatenate([[False], flags, [False]]).astype(np.int8)))
    return list(zip(change[::2].tolist(), change[1::2].tolist(), strict=True))


def _longest_run(flags: npt.NDArray[np.bool_]) -> int:
    """The most neighbouring ``flags`` set along the outline, a loop."""
    longest = max((stop - start for start, stop in _runs(np.concatenate([flags, flags]))), default=0)
    return min(longest, len(flags))


def _largest_group(strange: npt.NDArray[np.bool_], joined: npt.NDArray[np.bool_]) -> int:
    """The most ``strange`` slots (2, 12, S) in one group of neighbours
    (along a point, or side by side on neighbouring points of a row),
    where ``joined`` slots join groups without counting."""
    if not strange.any():
        return 0
    grid = [np.pad((strange[r] | joined[r]).T.astype(np.uint8), ((0, 1), (0, 0))) for r in range(2)]
    count, labels = cv2.connectedComponents(np.vstack(grid), connectivity=8)
    counted = np.vstack([np.pad(strange[r].T, ((0, 1), (0, 0))) for r in range(2)])
    return int(np.bincount(labels[counted], minlength=count).max())


def straighten_hint(points: list[tuple[int, int]], counts: npt.NDArray[np.int64]) -> str:
    """What to do where a refusal names ``points`` (row, col) with checkers
    read (``counts`` (2, 12)): checkers that fit no look (leaning, askew, in
    odd light) depart from the board as a hand does, frame after frame,
    until someone straightens them. A hand that hides the checkers leaves
    none read, and gets no hint."""
    from vision.read import point_name

    with_checkers = [point_name(r, c) for r, c in points if counts[r, c] != 0]
    return f"; if nothing is there, straighten the checkers on {', '.join(with_checkers)}" if with_checkers else ""


def check_occlusion(
    strange: npt.NDArray[np.bool_],
    counts: npt.NDArray[np.int64],
    *,
    occluded_slots: int,
    what: str,
    joined: npt.NDArray[np.bool_] | None = None,
) -> Refusal | None:
    """``hand_over_board`` when at least ``occluded_slots`` slots (2, 12, S)
    are ``strange`` in one group of neighbours (a hand is one thing; strange
    slots far apart are two misread checkers), where ``joined`` slots (that
    fit their look only loosely) join groups; ``what`` says what lies there,
    and :func:`straighten_hint` what to do where checkers are read
    (``counts`` (2, 12))."""
    from vision.read import point_name

    if _largest_group(strange, np.zeros_like(strange) if joined is None else joined) < occluded_slots:
        return None
    covered = [(int(r), int(c)) for r in range(2) for c in range(12) if strange[r, c].any()]
    points = tuple(point_name(r, c) for r, c in covered)
    hint = straighten_hint(covered, counts)
    return Refusal("hand_over_board", f"{what} covers {', '.join(points)}: wait until the board is clear{hint}", points)
