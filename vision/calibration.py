"""Calibration: where the board is, its bar, its checkers' size and colours,
learned once from the starting position (rule B4), which labels itself, and
saved as versioned JSON that every later reading uses.

The board is found from ArUco markers at the corners of the playing area
(:mod:`vision.markers`), from corners given by hand, or, as a best effort, from
the board's own outline. The starting position is checked too: a calibration
from a board set up wrong names the points that are wrong and fails.
"""

from __future__ import annotations

import functools
import json
import logging
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

from vision.colours import EMPTY, ColourModel, borrowed, layout_states, learn_from_layout
from vision.errors import CalibrationError, GeometryError, ImageError, MarkerError
from vision.features import estimate_pitch, measure, stack_pitch
from vision.geometry import (
    DEFAULT_WIDTH_PX,
    BoardGeometry,
    Image,
    Lens,
    as_points,
    check_turn,
    make_geometry,
    rectify,
)
from vision.glare import Glare, find_glare
from vision.layout import Layout
from vision.occlusion import borrowed_area, decode, empty_board, encode
from vision.read import ReadConfig, check_frame, point_name, read_rectified, slot_probabilities, washed_out
from vision.refusal import RefusalConfig, reference_of
from vision.rims import (
    bar_rims,
    bare_rims,
    checker_rims,
    gradients,
    loaded,
    outlines,
    rim_strength,
    saved,
    start_junctions,
)
from vision.trays import Tray, tray_of

log = logging.getLogger(__name__)

#: Version 2: the junction of two checkers next to the board's edge has a
#: look of its own, which piles are counted with; with a version 1 file a
#: line of five could read as a pile, so it is refused (calibrate again).
CALIBRATION_VERSION = 2

#: A slot the starting position leaves bare holds a stray checker where a
#: circle of a checker's size stands on it and its rim is this many times
#: the middle of the photo's covered and bare slots' (:func:`vision.rims.outlines`):
#: on rendered boards, strays stood 2.5 to 14 times it, and the few bare
#: slots with a circle at most 1.1 times.
STRAY_RIM = 2.0

#: The starting position (B4) as seen with one colour's home bottom-right:
#: + is that colour, - the other. The mirror image is the other way round.
START = Layout(top=(5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2), bottom=(-5, 0, 0, 0, 3, 0, 5, 0, 0, 0, 0, -2))


def start_layouts() -> tuple[Layout, Layout]:
    """The two ways the starting position can lie in the rectified board
    (the other two are these with the colours swapped)."""
    mirror = Layout(top=START.top[::-1], bottom=START.bottom[::-1])
    return START, mirror


def _negated(layout: Layout) -> Layout:
    return Layout(top=tuple(-v for v in layout.top), bottom=tuple(-v for v in layout.bottom))


@dataclass(frozen=True, eq=False)
class Calibration:
    """One board under one camera: geometry, learned colours, what a good
    frame looks like (``reference``) and the thresholds used to read it."""

    geometry: BoardGeometry
    colours: ColourModel
    start_layout: Layout
    """The starting position as calibration saw it (+ light, - dark): says on
    which side each colour's home board lies."""
    reference: dict[str, Any] = field(default_factory=dict)
    empty_board: npt.NDArray[np.float32] | None = field(default=None, repr=False)
    """Thumbnail (h', w', 3) Lab of the board with no checker (:mod:`vision.occlusion`)."""
    empty_seen: bool = False
    """Whether a photo of the empty board was given: every slot's empty look
    is then seen, none borrowed from another point."""
    read: ReadConfig = ReadConfig()
    refusal: RefusalConfig = RefusalConfig()
    image_size: tuple[int, int] = (0, 0)
    version: int = CALIBRATION_VERSION
    tray: Tray | None = field(default=None, repr=False)
    """The bear-off tray, where the calibration includes it (:mod:`vision.trays`)."""
    glare: Glare | None = None
    """A lamp's reflection on the board, taken away from every frame (:mod:`vision.glare`)."""

    def check_frame_size(self, image: Image, *, what: str = "the frame") -> None:
        """Raise :class:`ImageError` where ``image`` is not of the size the
        calibration was made on (another camera or resolution: every place
        it knows would be wrong)."""
        height, width = image.shape[:2]
        if self.image_size != (0, 0) and (width, height) != self.image_size:
            raise ImageError(
                f"{what} is {width}x{height} px, the calibration was made on "
                f"{self.image_size[0]}x{self.image_size[1]}: use that camera and resolution, or calibrate again"
            )

    @property
    def light_home(self) -> str:
        """Where the light checkers' home board lies: ``"bottom-right"``,
        ``"bottom-left"``, ``"top-right"`` or ``"top-left"``."""
        five_on_six = [
            (r, c)
            for r, row in enumerate((self.start_layout.top, self.start_layout.bottom))
            for c, v in enumerate(row)
            if v == 5
        ]
        row, col = five_on_six[0] if five_on_six[0][1] in (5, 6) else five_on_six[1]
        return f"{('top', 'bottom')[row]}-{'left' if col == 5 else 'right'}"

    @property
    def covered_at_start(self) -> npt.NDArray[np.bool_]:
        """(2, 12, S) the slots the starting position's checkers hid."""
        return np.asarray(layout_states(self.start_layout, self.geometry.slots, exact=True) != EMPTY, np.bool_)

    @property
    def borrowed(self) -> npt.NDArray[np.bool_]:
        """(2, 12, S) the slots whose empty look was borrowed from another
        point: those the starting position's checkers hid, unless a photo of
        the empty board showed them."""
        return np.asarray(self.covered_at_start & (not self.empty_seen), np.bool_)

    def to_json(self) -> dict[str, Any]:
        g = self.geometry
        return {
            "format": "nardref-calibration",
            "version": self.version,
            "image_size": list(self.image_size),
            "geometry": {
                "corners": [list(c) for c in g.corners],
                "size": list(g.size),
                "bar": list(g.bar),
                "pitch_px": g.pitch_px,
                "lens": None
                if g.lens is None
                else {
                    "camera_matrix": [list(r) for r in g.lens.camera_matrix],
                    "dist_coeffs": list(g.lens.dist_coeffs),
                },
            },
            "colours": self.colours.to_json(),
            "start_layout": {"top": list(self.start_layout.top), "bottom": list(self.start_layout.bottom)},
            "reference": self.reference,
            "empty_board": None if self.empty_board is None else encode(self.empty_board),
            "empty_seen": self.empty_seen,
            "read": asdict(self.read),
            "refusal": asdict(self.refusal),
            "tray": None if self.tray is None else self.tray.to_json(),
            "glare": None if self.glare is None else self.glare.to_json(),
        }

    @classmethod
    def from_json(cls, data: Any) -> Calibration:
        if not isinstance(data, dict) or data.get("format") != "nardref-calibration":
            raise CalibrationError(
                "not a nardref calibration (expected a JSON object with format 'nardref-calibration')"
            )
        version = data.get("version")
        if version != CALIBRATION_VERSION:
            raise CalibrationError(
                f"calibration version {version!r}: this nardref reads version {CALIBRATION_VERSION}; calibrate again"
            )
        try:
            g = data["geometry"]
            lens = None
            if g.get("lens"):
                lens = Lens(
                    camera_matrix=tuple(tuple(float(v) for v in row) for row in g["lens"]["camera_matrix"]),  # type: ignore[arg-type]
                    dist_coeffs=tuple(float(v) for v in g["lens"]["dist_coeffs"]),
                )
            geometry = BoardGeometry(
                corners=as_points(g["corners"]),
                size=(int(g["size"][0]), int(g["size"][1])),
                bar=(float(g["bar"][0]), float(g["bar"][1])),
                pitch_px=float(g["pitch_px"]),
                lens=lens,
            )
            start = data["start_layout"]
            return cls(
                geometry=geometry,
                colours=ColourModel.from_json(data["colours"]),
                start_layout=Layout(top=tuple(start["top"]), bottom=tuple(start["bottom"])),
                reference=_reference(data.get("reference") or {}),
                empty_board=decode(data["empty_board"]) if data.get("empty_board") else None,
                empty_seen=bool(data.get("empty_seen", False)),
                read=_thresholds(ReadConfig, data.get("read") or {}),
                refusal=_thresholds(RefusalConfig, data.get("refusal") or {}),
                image_size=(int(data["image_size"][0]), int(data["image_size"][1])),
                version=int(version),
                tray=Tray.from_json(data["tray"]) if data.get("tray") else None,
                glare=Glare.from_json(data["glare"]) if data.get("glare") else None,
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            if isinstance(exc, CalibrationError):
                raise
            raise CalibrationError(f"calibration is incomplete or malformed: {type(exc).__name__}: {exc}") from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise CalibrationError(f"calibration file {str(path)!r}: cannot read it ({exc.strerror})") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CalibrationError(
                f"calibration file {str(path)!r}: not JSON ({exc.msg} at line {exc.lineno})"
            ) from None
        try:
            return cls.from_json(data)
        except CalibrationError as exc:
            raise CalibrationError(f"calibration file {str(path)!r}: {exc}") from None


def _fit(
    rectified: Image,
    geometry: BoardGeometry,
    layout: Layout,
    config: ReadConfig,
    *,
    positive_is_light: bool | None = None,
) -> tuple[float, ColourModel, bool]:
    """How well ``layout`` explains the board at this geometry: the mean log
    probability of the known slot states under colours learned from it."""
    features = measure(rectified, geometry)
    try:
        model, pos_light = learn_from_layout(features, layout, positive_is_light=positive_is_light)
    except CalibrationError:
        return -np.inf, None, True  # type: ignore[return-value]
    prob, _ = slot_probabilities(features, model, config=config)
    states = layout_states(layout, geometry.slots, exact=True)
    if not pos_light:
        states = np.where(states > 0, 3 - states, states).astype(np.int8)
    chosen = np.take_along_axis(prob, states[..., None].astype(np.intp), axis=-1)[..., 0]
    return float(np.log(np.maximum(chosen, 1e-6)).mean()), model, pos_light


def _misread(
    rectified: Image,
    geometry: BoardGeometry,
    model: ColourModel,
    layout: Layout,
    read: ReadConfig,
    refusal: RefusalConfig,
) -> list[tuple[int, int, int]]:
    """The points (row, col, count seen, signed as ``layout``) where the board
    does not read back as ``layout``, the layout it was learned from.

    The model read with alone would confirm a checker standing where the
    layout has none (it learned that slot's look as empty): so the board is
    also read with every empty look borrowed from another point, and a
    point that reading surely sees otherwise counts too, but where it sees
    checkers on slots the layout leaves bare, only if most of them show a
    checker's outline (:func:`vision.rims.outlines`: a circle of a
    checker's size, or a rim nearer the covered slots' than the bare
    ones'). A borrowed look is another point's, in other light (a lamp's
    pool, the frame's shadow), and may pass for checkers of a kind as pale
    or dark as the point; a checker standing there shows its round edge,
    whatever its colour. So a bare slot where a circle of a checker's size
    stands, its rim :data:`STRAY_RIM` times as strong as that middle, holds
    a checker however both readings see it (a stray one, of a colour its
    borrowed look passes for)."""
    counts = np.array([layout.top, layout.bottom], np.int64)
    states = layout_states(layout, geometry.slots, exact=True)
    direct = read_rectified(rectified, geometry, model, config=read, refusal_config=refusal)
    check = borrowed(model, measure(rectified, geometry), states == EMPTY)
    other = read_rectified(rectified, geometry, check, config=read, refusal_config=refusal)
    circled, rims = outlines(rectified, geometry, states != EMPTY)
    stray = circled & (rims >= STRAY_RIM) & (states[:, :, : rims.shape[2]] == EMPTY)
    found = []
    for r in range(2):
        for c in range(12):
            expected, seen = int(abs(counts[r, c])), int(abs(other.counts[r, c]))
            if np.abs(direct.counts[r, c]) != expected:
                seen = int(abs(direct.counts[r, c]))
            elif seen > expected and other.confidence[r, c] >= 0.5:
                extra = (circled | (rims >= 1.0))[r, c, expected:seen]
                if len(extra) and extra.mean() < 0.5 and not stray[r, c].any():
                    continue
            elif stray[r, c].any():
                seen = max(seen, expected + 1)
            elif seen == expected or other.confidence[r, c] < 0.5:
                continue
            found.append((r, c, int(np.sign(counts[r, c]) or 1) * seen))
    return found


def _orders(corners: npt.NDArray[np.float32], *, rotations: bool) -> list[npt.NDArray[np.float32]]:
    if not rotations:
        return [corners]
    return [corners, np.roll(corners, -1, axis=0)]


def calibrate(
    image: Image,
    corners: npt.ArrayLike | None = None,
    *,
    width_px: int = DEFAULT_WIDTH_PX,
    lens: Lens | None = None,
    light_home: str = "bottom-right",
    read: ReadConfig = ReadConfig(),
    refusal: RefusalConfig = RefusalConfig(),
    empty: Image | None = None,
    tray: npt.ArrayLike | None = None,
) -> Calibration:
    """Calibrate from a frame (h, w, 3) BGR uint8 showing the starting
    position (B4) on a clear board. ``corners`` (4, 2) TL, TR, BR, BL in image
    px, or 6 for a folding board; without them the ArUco markers are looked
    for, then the board's outline. The checker kinds are named light and dark
    by brightness; where both are about equally bright (red and blue), the
    kind whose home board lies at ``light_home`` ("bottom-right" or
    "bottom-left") in the rectified board is called light. ``empty``: a
    frame of the same board and camera with no checker on it, to see the
    empty look of the points the starting position covers (at a corner,
    the frame's shadow falls on them) instead of borrowing it from other
    points. ``tray``: the bear-off tray's corners (4, 2) in image px, the
    first two along one end (:class:`vision.trays.Tray`), to count the
    checkers borne off; ``corners`` that seem given a quarter turn off
    raise :class:`GeometryError` (:func:`vision.geometry.check_turn`). A
    lamp's reflection on the board is found and taken away from this and
    every later frame (:mod:`vision.glare`), unless the starting position
    no longer reads back without it. Raises
    :class:`CalibrationError` naming the points that are not set up as the
    starting position, or where the empty board is not empty."""
    from vision.markers import find_board_outline, find_marker_corners

    if image.ndim != 3 or image.shape[2] != 3:
        raise CalibrationError(f"image of shape {image.shape!r}: expected a colour frame (h, w, 3)")
    rotations = False
    if corners is None:
        try:
            quad = find_marker_corners(image)
        except MarkerError as exc:
            log.info("%s; trying the board's outline", exc)
            quad = find_board_outline(image)
            rotations = True
    else:
        quad = np.asarray(corners, np.float32).reshape(-1, 2)
        check_turn(image, quad)  # (markers name their corners; the outline is tried both ways below)
    best: tuple[tuple[int, float], BoardGeometry, Layout, ColourModel, bool, bool] | None = None
    for order in _orders(quad, rotations=rotations):
        try:
            base = make_geometry(order, image, width_px=width_px, lens=lens)
        except GeometryError:
            if rotations:
                continue
            raise
        rectified = rectify(image, base)
        for layout, positive_home in zip(start_layouts(), ("bottom-right", "bottom-left"), strict=True):
            counts = np.array([layout.top, layout.bottom], np.int64)
            measured = stack_pitch(rectified, base, counts)
            guesses = {round(estimate_pitch(rectified, base), 2)} | {
                round(base.point_width_px * f, 2) for f in (0.88, 0.92, 0.96)
            }
            if measured is not None:
                guesses |= {round(measured * f, 2) for f in (0.94, 0.97, 1.0)}
            for pitch in sorted(guesses):
                try:
                    geometry = replace(base, pitch_px=pitch)
                except GeometryError:
                    continue
                score, model, pos_light = _fit(
                    rectified, geometry, layout, read, positive_is_light=positive_home == light_home
                )
                if not np.isfinite(score):
                    continue
                # the starting position must read back as itself at this pitch
                # (with empty looks borrowed from other points: no slot confirms itself)
                wrong = len(_misread(rectified, geometry, model, layout, read, refusal))
                key = (-wrong, score)
                if best is None or key > best[0]:
                    best = (key, geometry, layout, model, pos_light, positive_home == light_home)
    if best is None:
        raise CalibrationError("could not lay out the board from the corners found")
    (_, score), geometry, layout, model, pos_light, positive_is_light = best
    log.info("calibration fit %.3f, pitch %.1f px, bar %s", score, geometry.pitch_px, geometry.bar)
    rectified = rectify(image, geometry)
    check = functools.partial(_checked, image, read=read, refusal=refusal, tray=tray, empty=empty)
    glare = find_glare(rectified, geometry, layout)
    if glare is not None:
        # the looks learned again without the lamp's reflection, as every frame will be read
        unglared = glare.remove(rectified, geometry.size)
        score, unglared_model, unglared_light = _fit(
            unglared, geometry, layout, read, positive_is_light=positive_is_light
        )
        if np.isfinite(score):
            # the slots it washed out to white: taken away, it leaves no look there
            washed = washed_out(measure(rectified, geometry).patches, read)
            try:
                calibration = check(unglared, geometry, layout, unglared_model, unglared_light, glare, washed)
            except CalibrationError as exc:
                # what the reflection clipped may pass for checkers once it is
                # taken away: the board is read as the photo shows it
                log.info("without the lamp's reflection the starting position does not read back: %s", exc)
            else:
                log.info("a lamp's reflection of %.0f grey levels at %s: taken away", glare.strength, glare.centre)
                return calibration
    return check(rectified, geometry, layout, model, pos_light, None, None)


def _checked(
    image: Image,
    rectified: Image,
    geometry: BoardGeometry,
    layout: Layout,
    model: ColourModel,
    pos_light: bool,
    glare: Glare | None,
    washed: npt.NDArray[np.bool_] | None,
    *,
    read: ReadConfig,
    refusal: RefusalConfig,
    tray: npt.ArrayLike | None,
    empty: Image | None,
) -> Calibration:
    """The calibration of the starting position ``layout`` (its positive
    checkers light if ``pos_light``) on the ``rectified`` board (without
    ``glare``, if any, which ``washed`` out the slots (2, 12, S) it names),
    once it reads back as itself (see :func:`calibrate`)."""
    seen = layout if pos_light else _negated(layout)
    reading = read_rectified(rectified, geometry, model, config=read, refusal_config=refusal)
    if reading.refusal is not None:
        raise CalibrationError(f"cannot calibrate: {reading.refusal.message}", reason=reading.refusal.reason)
    sign = 1 if pos_light else -1
    problems = [
        f"{point_name(r, c)} (expected {(seen.top, seen.bottom)[r][c]:+d}, saw {sign * seen_count:+d})"
        for r, c, seen_count in _misread(rectified, geometry, model, layout, read, refusal)
    ]
    if reading.bar_light or reading.bar_dark:
        problems.append(f"bar (expected empty, saw {reading.bar_light} light and {reading.bar_dark} dark)")
    if problems:
        raise CalibrationError(
            "the board is not set up as the starting position (B4: 2 checkers on the 24-point, 5 on the 13, "
            f"3 on the 8, 5 on the 6 for each side), or something lies on it: {'; '.join(problems)}",
            reason="not_start_position",
        )
    states = layout_states(seen, geometry.slots, exact=True)
    occupied = states != EMPTY
    reference = reference_of(image, geometry, rectified, config=refusal, glare=glare)
    # each slot's rim strength bare, where the starting position shows it,
    # each colour's checkers', and each junction's of its lines of five
    grads = gradients(rectified)
    strength = rim_strength(grads, geometry)
    reference["rims"] = saved(bare_rims(strength, occupied))
    reference["checkers"] = saved(checker_rims(strength, states), digits=3)
    reference["junctions"] = saved(start_junctions(grads, geometry, np.array([seen.top, seen.bottom], np.int64)))
    reference["bar"] = saved(bar_rims(grads, geometry))  # the bar is bare at the start
    if washed is not None:
        reference["washed_out"] = saved(washed.astype(float))
    calibration = Calibration(
        geometry=geometry,
        colours=model,
        start_layout=seen,
        reference=reference,
        empty_board=empty_board(measure(rectified, geometry), occupied),
        read=read,
        refusal=refusal,
        image_size=(int(image.shape[1]), int(image.shape[0])),
        tray=None if tray is None else tray_of(image, tray, geometry),
        glare=glare,
    )
    if empty is None:
        return calibration
    return _with_empty_board(calibration, empty, rectified)


def _with_empty_board(calibration: Calibration, image: Image, start: Image) -> Calibration:
    """``calibration`` with the empty look of the slots the starting
    position hid taken from ``image``, a frame of the empty board from the
    same camera, which must show no checker (read with the looks borrowed
    at calibration); ``start``: the rectified frame of the starting
    position, which must still read back as itself."""
    what = "the photo of the empty board"
    if image.shape[:2] != (calibration.image_size[1], calibration.image_size[0]):
        raise CalibrationError(
            f"{what} is {image.shape[1]}x{image.shape[0]} px, the starting position's "
            f"{calibration.image_size[0]}x{calibration.image_size[1]}: take both with the same camera"
        )
    geometry = calibration.geometry
    rectified, refusal = check_frame(image, calibration)
    if refusal is not None:
        raise CalibrationError(f"{what}: {refusal.message}", reason=refusal.reason)
    reading = read_rectified(
        rectified, geometry, calibration.colours, config=calibration.read, refusal_config=calibration.refusal
    )
    seen = [
        f"{point_name(r, c)} ({abs(int(reading.counts[r, c]))})"
        for r in range(2)
        for c in range(12)
        if reading.counts[r, c] and reading.confidence[r, c] >= calibration.read.confident
    ]
    if (reading.bar_light or reading.bar_dark) and reading.bar_confidence >= calibration.read.confident:
        seen.append(f"the bar ({reading.bar_light + reading.bar_dark})")
    if seen:
        raise CalibrationError(
            f"{what} shows checkers on {', '.join(seen)}: take it with every checker off the board",
            reason="not_empty",
        )
    # the slots the starting position's checkers covered, or shaded (the
    # slot past a line), take the empty photo's look; the others keep that
    # of the starting position, with its neighbours' checkers seen over them
    # and their shadows as they fall, and have the empty photo's look too
    features = measure(rectified, geometry)
    occupied = calibration.covered_at_start
    hidden = occupied.copy()
    hidden[:, :, 1:] |= occupied[:, :, :-1]
    model = calibration.colours
    colours = replace(
        model,
        background=np.where(hidden[..., None, None, None], features.patches, model.background).astype(np.float32),
        bare=features.patches.astype(np.float32),
        background_spread=np.where(hidden, model.background_spread.min(), model.background_spread).astype(np.float32),
    )
    thumbnail = calibration.empty_board
    if thumbnail is not None:
        thumbnail = np.where(borrowed_area(features, occupied)[..., None], features.thumbnail, thumbnail)
    # and their bare rims (vision.rims)
    reference = dict(calibration.reference)
    bare = loaded(reference)
    if bare is not None:
        reference["rims"] = saved(np.where(np.isnan(bare), rim_strength(gradients(rectified), geometry), bare))
    updated = replace(calibration, colours=colours, empty_board=thumbnail, empty_seen=True, reference=reference)
    # the starting position must still read back as itself: an empty board
    # taken elsewhere, or in other light, would not
    again = read_rectified(
        start,
        geometry,
        colours,
        config=calibration.read,
        refusal_config=calibration.refusal,
        empty=updated.empty_board,
        patched=occupied,
    )
    expected = np.array([calibration.start_layout.top, calibration.start_layout.bottom], np.int64)
    wrong = [
        f"{point_name(r, c)} (expected {expected[r, c]:+d}, saw {int(again.counts[r, c]):+d})"
        for r in range(2)
        for c in range(12)
        if again.counts[r, c] != expected[r, c]
    ]
    if again.refusal is not None:
        wrong.append(again.refusal.message)
    if wrong:
        raise CalibrationError(
            f"with the looks of {what}, the starting position does not read back as itself: {'; '.join(wrong)}; "
            "take both photos with the same camera, board and light, one right after the other",
            reason="empty_mismatch",
        )
    return updated


_Thresholds = TypeVar("_Thresholds", ReadConfig, RefusalConfig)


#: The shapes of the rims a calibration's reference keeps (:mod:`vision.rims`), by key, as
#: named in an error: the bare slots' (:func:`vision.rims.bare_rims`), the starting lines'
#: junctions' (:func:`vision.rims.start_junctions`), the checkers' (:func:`vision.rims.checker_rims`),
#: the bare bar's (:func:`vision.rims.bar_rims`); and the slots a lamp's reflection washed out to
#: white before it was taken away (:func:`vision.read.washed_out`).
_RIMS = {
    "rims": (2, 12, None),
    "junctions": (2, 2, None),
    "checkers": (2, 2),
    "bar": (None,),
    "washed_out": (2, 12, None),
}


def _reference(data: dict[str, Any]) -> dict[str, Any]:
    """A calibration's saved ``reference``, its rims checked: each an
    array of numbers of the shape kept (a ValueError naming it if not)."""
    reference = dict(data)
    for key, shape in _RIMS.items():
        if key in reference and not _numbers_shaped(reference[key], shape):
            expected = "x".join("(any)" if n is None else str(n) for n in shape)
            raise ValueError(f"reference {key!r}: expected {expected} numbers; calibrate again")
    return reference


def _numbers_shaped(value: Any, shape: tuple[int | None, ...]) -> bool:
    """Whether ``value`` is an array of finite numbers of ``shape`` (None: any length)."""
    try:
        array = np.asarray(value, np.float64)
    except (TypeError, ValueError):
        return False
    if array.ndim != len(shape) or any(n is not None and n != m for n, m in zip(shape, array.shape, strict=True)):
        return False
    return bool(np.isfinite(array).all())


def _thresholds(kind: type[_Thresholds], data: dict[str, Any]) -> _Thresholds:
    """A thresholds dataclass from its saved JSON: each value takes its field's
    default's type; unknown keys (from a newer nardref) are ignored."""
    defaults = kind()
    known = {f.name: type(getattr(defaults, f.name))(data[f.name]) for f in fields(kind) if f.name in data}
    return kind(**known)
