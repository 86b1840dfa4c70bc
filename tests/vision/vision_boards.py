"""Rendered boards for the vision tests: one board (style, camera, light,
lens) calibrated once on the starting position, then photographed in other
positions, as a referee is set up once and then watches a game."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np

from engine.dice import Dice
from engine.legal import LegalPlay, legal_plays
from engine.position import Position
from vision.calibration import Calibration, calibrate
from vision.features import JUNCTIONS
from vision.geometry import BoardGeometry, Lens, to_image
from vision.layout import Layout, layout_from_position
from vision.render import CameraPose, Effects, Lighting, Rendered, lens_calibration, random_style, render
from vision.render_props import Occluder, draw_occluder
from vision.render_style import Style

SIZE = (1280, 720)


@dataclass(frozen=True)
class Board:
    style: str
    camera: CameraPose
    lighting: Lighting
    effects: Effects
    board_seed: int

    def shoot(
        self, layout: Layout, seed: int, *, occlusion: str = "none", gaps: float = 0.0, gaps_seed: int | None = None
    ) -> Rendered:
        """A photo of ``layout``, drawn from ``seed``; ``gaps``: how far apart
        the checkers of a line stand, as ``gaps_seed`` places them (see :func:`render`)."""
        return render(
            layout,
            rng=np.random.default_rng(seed),
            style=self.style,
            camera=self.camera,
            lighting=self.lighting,
            effects=self.effects,
            board_seed=self.board_seed,
            occlusion=occlusion,  # type: ignore[arg-type]
            clutter=False,
            gaps=gaps,
            gaps_seed=gaps_seed,
        )

    @property
    def lens(self) -> Lens | None:
        if self.effects.barrel <= 0:
            return None
        matrix, coeffs = lens_calibration(SIZE, self.effects.barrel)
        return Lens(tuple(tuple(float(v) for v in row) for row in matrix), tuple(float(v) for v in coeffs))  # type: ignore[arg-type]


def plain_board(style: str = "wood") -> Board:
    """Straight overhead, even light, a perfect camera."""
    return Board(style, CameraPose.overhead(), Lighting.even(), Effects.none(), 7)


def random_board(seed: int, style: str) -> Board:
    """A camera over a table: tilted, turned, room light, sensor noise, JPEG."""
    rng = np.random.default_rng(seed)
    return Board(style, CameraPose.random(rng), Lighting.random(rng), Effects.random(rng), seed)


START = layout_from_position(Position.start())
EMPTY = Layout(top=(0,) * 12, bottom=(0,) * 12)


def _bench_look(rng: np.random.Generator) -> dict[str, Any]:
    """A look drawn as the benches draw one: style, camera, light, effects
    and the board's seed, as keyword arguments of :func:`render`."""
    return {
        "style": random_style(rng),
        "camera": CameraPose.random(rng),
        "lighting": Lighting.random(rng),
        "effects": Effects.random(rng),
        "board_seed": int(rng.integers(1 << 30)),
    }


def bench_board(seed: int, board: int) -> tuple[dict[str, Any], Rendered, np.ndarray]:
    """Board ``board`` of ``bench/vision.py``'s photo set ``seed``, drawn as
    the bench draws it: its look (style, camera, light, effects, board
    seed) as keyword arguments of :func:`render`, and its starting position
    and empty board rendered as the bench renders them (a bench photo read
    wrong can then be shot again)."""
    rng = np.random.default_rng([seed, board])
    look = _bench_look(rng)
    start = render(START, rng=rng, **look)
    empty = render(EMPTY, rng=np.random.default_rng(look["board_seed"]), **look).image
    return look, start, empty


def relit_bench_photo(look: dict[str, Any], seed: int, board: int, photo: int, layout: Layout) -> np.ndarray:
    """``layout`` photographed on the board of ``look`` (:func:`bench_board`)
    in the light ``bench/vision.py`` changed for its photo ``photo`` of
    board ``board`` of set ``seed`` (its changed-light judge), as it shot it."""
    light_rng = np.random.default_rng([seed, board, photo, 1])
    return render(layout, rng=light_rng, **dict(look, lighting=look["lighting"].changed(light_rng))).image


def hand_reaching(
    image: np.ndarray, geometry: BoardGeometry, target: tuple[float, float], towards: tuple[float, float], seed: int
) -> np.ndarray:
    """``image`` with a hand, as the renderer draws one (no shadow), reaching
    to ``target`` (rectified board px) moving ``towards`` (a rectified
    direction), its skin, sleeve and fingers drawn with ``seed``."""
    at = np.array(target, np.float32)
    step = np.array(towards, np.float32) / float(np.linalg.norm(towards)) * geometry.pitch_px
    aim, before, beside = to_image(geometry, np.array([at, at - 3 * step, at + (geometry.pitch_px, 0.0)], np.float32))
    direction = (aim - before) / np.linalg.norm(aim - before)
    hand = Occluder(
        "hand",
        (float(aim[0]), float(aim[1])),
        (float(direction[0]), float(direction[1])),
        float(np.linalg.norm(beside - aim)),
    )
    out = image.copy()
    shadow = np.zeros((out.shape[0] // 4 + 1, out.shape[1] // 4 + 1), np.float32)
    draw_occluder(out, shadow, hand, np.random.default_rng(seed), (0.0, 1.0))
    return out


def uncalibrated_bench_photo(seed: int, photo: int, layout: Layout, *, occlusion: str | None = None) -> Rendered:
    """Photo ``photo`` of ``bench/uncalibrated.py``'s set ``seed``, drawn as
    the bench draws it (each photo a new board), showing ``layout``, the
    position the bench played to there; with ``occlusion``, the bench's
    photo of the same board with that over it, drawn after the clean one."""
    rng = np.random.default_rng([seed, photo])
    look = _bench_look(rng)
    shot = render(layout, rng=rng, **look)
    return shot if occlusion is None else render(layout, rng=rng, occlusion=occlusion, **look)


def uncalibrated_bench_pitch(seed: int, photo: int, height_px: float) -> float:
    """The checker pitch (px of a playing area rectified ``height_px`` high) the
    renderer drew photo ``photo`` of ``bench/uncalibrated.py``'s set
    ``seed`` with (its style's sizes are drawn at random)."""
    style: Style = _bench_look(np.random.default_rng([seed, photo]))["style"]
    return style.checker_pitch(height_px)


def reach_bench_photo(
    seed: int, board: int, photo: int, layout: Layout, *, on_the_bar: bool = False
) -> tuple[Calibration, np.ndarray]:
    """Photo ``photo`` of board ``board`` of ``bench/reach.py``'s set
    ``seed``: something reaching to the board's edge, or ``on_the_bar``
    (drawn after the edge's photo), drawn as the bench draws it over
    ``layout`` (the position the bench played to there), and the board's
    calibration as the bench makes it (with its empty photo, read back
    from its file)."""
    look, start, empty = bench_board(seed, board)
    made = calibrate(start.image, start.corners, lens=Board(**look).lens, empty=empty, tray=start.tray)
    calibration = Calibration.from_json(json.loads(json.dumps(made.to_json())))
    rng = np.random.default_rng([seed, board, photo])
    # the bench's draws: how far in from the edge, where along it and which
    # edge; where on the bar; what reaches in
    depth, along, near = rng.uniform(0.02, 0.1), rng.uniform(0.02, 0.98), rng.random() < 0.5
    along_the_bar = float(rng.uniform(0.05, 0.95))
    kind = ("hand", "arm", "cup")[int(rng.integers(3))]
    reach = (float(along), float(depth if near else 1.0 - depth))
    image = render(layout, rng=rng, occlusion=kind, reach=reach, **look).image  # type: ignore[arg-type]
    if not on_the_bar:
        return calibration, image
    geometry = calibration.geometry
    kind = ("hand", "arm", "cup")[int(rng.integers(3))]
    reach = ((geometry.bar[0] + geometry.bar[1]) / 2 / geometry.size[0], along_the_bar)
    return calibration, render(layout, rng=rng, occlusion=kind, reach=reach, **look).image  # type: ignore[arg-type]


@lru_cache(maxsize=16)
def calibrated(board: Board, *, tray: bool = False) -> Calibration:
    """``board`` calibrated on the starting position, with its bear-off tray if ``tray``."""
    shot = board.shoot(START, 1000)
    assert not tray or shot.tray is not None, "this board has no tray"
    return calibrate(shot.image, shot.corners, lens=board.lens, tray=shot.tray if tray else None)


def without_junction_check(calibration: Calibration) -> Calibration:
    """``calibration`` with the check that a full line's junctions show
    checkers (not a hand or a cup read as a line of them) turned off."""
    return replace(calibration, read=replace(calibration.read, misfit_junctions=2 * 12 * JUNCTIONS + 1))


def game_position(seed: int, turns: int) -> tuple[Position, str]:
    """A position after ``turns`` random legal plays, and the colour on roll."""
    rng = random.Random(seed)
    position, mover = Position.start(), "light"
    for _ in range(turns):
        plays = legal_plays(position, Dice(rng.randint(1, 6), rng.randint(1, 6)))
        after = rng.choice(plays).after
        if sum(after.me[1:]) == 0:
            break
        position, mover = after.swap(), ("dark" if mover == "light" else "light")
    return position, mover


def light_layout(position: Position, mover: str) -> Layout:
    """The picture of ``position`` on a board where light's home is bottom-right."""
    return layout_from_position(position if mover == "light" else position.swap(), mover="light")


def with_medallion(image: np.ndarray, geometry: BoardGeometry, at: tuple[float, float] | None = None) -> np.ndarray:
    """``image`` (of a board photographed straight from above) with a dark
    round medallion 2.4 checkers across centred ``at`` (rectified px; in
    the middle of the left half if None)."""
    x, y = (geometry.bar[0] / 2, geometry.size[1] / 2) if at is None else at
    centre, rim = to_image(geometry, np.array([[x, y], [x + 1.2 * geometry.pitch_px, y]], np.float32))
    out = image.copy()
    radius = round(float(rim[0] - centre[0]))
    cv2.circle(out, (round(float(centre[0])), round(float(centre[1]))), radius, (30, 45, 70), -1, cv2.LINE_AA)
    return out


def bearing_off_a_pile() -> tuple[Position, Dice, LegalPlay]:
    """Light (on roll, home bottom-right) with ten checkers on the 1-point
    and five on the 3-point rolls 6-1: 3/off 1/off takes the tenth checker
    off the pile, past what a photo of it shows."""
    me = [0] * 26
    me[1], me[3] = 10, 5
    them = [0] * 26
    them[1], them[2], them[3] = 5, 5, 5
    before = Position(tuple(me), tuple(them))
    dice = Dice(6, 1)
    return before, dice, next(lp for lp in legal_plays(before, dice) if str(lp.play) == "3/off 1/off")
