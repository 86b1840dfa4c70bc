"""What the LEDs show: a pure function from display state and time to a frame.

:func:`render_frame` takes a :class:`DisplayState` (filled in by the referee),
the time ``now_s`` and the :class:`~firmware.led_layout.LedLayout`, and returns
one ``(r, g, b)`` per pixel. Nothing here reads a clock or touches hardware:
blinking and pulsing derive from ``now_s`` only, and ``steady=True`` (a verdict
frame is being taken) freezes them so the camera sees a board that does not
flicker.

The pictures, in drawing order (later ones cover earlier ones):

- **turn**: the rail of the player on turn glows dimly in their checker
  colour, and their status LED is lit in it;
- **set-up check**: points set up wrong are lit magenta, steady;
- **illegal move**: the points to fix flash red; the nearest legal play's
  from-points are dim cyan and its to-points bright cyan, steady;
- **fault** (camera lost, board moved, ...): every rail dim amber, the status
  LEDs pulse amber, and the fault's code (:class:`Fault` value *n*) lights
  point *n - 1* of both rails bright amber. Red flashing always means a wrong
  move, amber always means the referee cannot see;
- **clock bars**: each player's bar spends the turn delay first (green, the
  far ``clock_delay_leds`` LEDs), then the reserve (their checker colour);
  below ``warn_reserve_s`` the reserve turns orange and blinks while that
  player is on turn; an empty reserve (flag fall, T3) blinks red;
- **dice**: each player's matrix shows their dice as die faces (pips as on a
  real die); a forced pass (M7) shows them in red;
- **cube**: log2(value) LEDs lit in the owner's colour (white while centred);
  an offer waiting for an answer blinks the offered value in the doubler's
  colour and the taker's status LED blinks white;
- **resignation offered**: the opponent's status LED blinks white;
- **paused**: both status LEDs blink white;
- **game over**: the clock bars show each player's score (a dim white mark at
  the match length) and the winner's rail pulses in their colour.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from firmware.led_layout import DieGrid, LedLayout, Spot

if TYPE_CHECKING:
    from firmware.config import LedsConfig

__all__ = [
    "DEFAULT_STYLE",
    "PIPS",
    "Checker",
    "ClockView",
    "CubeView",
    "DisplayState",
    "DisplayStyle",
    "Fault",
    "IllegalView",
    "Player",
    "Rgb",
    "ScoreView",
    "render_frame",
]

Player = Literal[0, 1]
Checker = Literal["light", "dark"]
Rgb = tuple[int, int, int]

OFF: Rgb = (0, 0, 0)
WHITE: Rgb = (255, 255, 255)


class Fault(enum.Enum):
    """Why the referee cannot judge; the value is the code shown on the rails."""

    CAMERA_LOST = 1
    BOARD_MOVED = 2
    TOO_DARK = 3
    HAND_OVER_BOARD = 4
    NO_CALIBRATION = 5
    STRIP = 6


@dataclass(frozen=True)
class ClockView:
    """One player's clock (T1, T2): what is left and what there was."""

    delay_left_s: float
    reserve_left_s: float
    delay_total_s: float
    reserve_total_s: float


@dataclass(frozen=True)
class CubeView:
    """The cube (C1-C3): ``owner`` None while centred; ``offered_by`` a pending double."""

    value: int = 1
    owner: Player | None = None
    offered_by: Player | None = None


@dataclass(frozen=True)
class IllegalView:
    """An illegal move: points to fix, and the nearest legal play's from/to points."""

    wrong: tuple[Spot, ...]
    nearest_from: tuple[Spot, ...] = ()
    nearest_to: tuple[Spot, ...] = ()


@dataclass(frozen=True)
class ScoreView:
    """Game over: match score (``match_length`` 0 in money play) and the game's winner."""

    scores: tuple[int, int]
    match_length: int
    winner: Player | None = None


@dataclass(frozen=True)
class DisplayState:
    """Everything the LEDs show; the referee builds one per change.

    Players are seats: 0 at the bottom edge of the rectified board, 1 at the
    top. Points are :data:`~firmware.led_layout.Spot` values.
    """

    turn: Player | None = None
    colours: tuple[Checker, Checker] = ("light", "dark")
    #: Each player's dice faces shown (0, 1 or 2 values; one each at the opening roll, O1).
    dice: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    #: The dice shown cannot be played (M7): the turn passes by itself.
    forced_pass: bool = False
    clocks: tuple[ClockView, ClockView] | None = None
    #: None when no cube is in play (cube off, Crawford game).
    cube: CubeView | None = CubeView()
    illegal: IllegalView | None = None
    setup_wrong: tuple[Spot, ...] = ()
    score: ScoreView | None = None
    faults: frozenset[Fault] = frozenset()
    paused: bool = False
    #: The player who offered to resign (S3), waiting for the opponent.
    resign_offered_by: Player | None = None
    #: A verdict frame is being taken: no blinking, no pulsing.
    steady: bool = False


@dataclass(frozen=True)
class DisplayStyle:
    """Colours and timings of the pictures."""

    checker: Mapping[str, Rgb] = field(default_factory=lambda: {"light": (255, 160, 70), "dark": (40, 90, 255)})
    delay: Rgb = (0, 220, 60)
    warning: Rgb = (255, 90, 0)
    flag: Rgb = (255, 0, 0)
    wrong: Rgb = (255, 0, 0)
    nearest_from: Rgb = (0, 70, 90)
    nearest_to: Rgb = (0, 220, 255)
    setup: Rgb = (200, 0, 200)
    fault: Rgb = (255, 110, 0)
    fault_rail_level: float = 0.15
    turn_rail_level: float = 0.06
    blink_period_s: float = 0.6
    pulse_period_s: float = 2.0
    warn_reserve_s: float = 15.0

    @classmethod
    def from_config(cls, config: LedsConfig) -> DisplayStyle:
        """The default colours with the timings of ``[leds]``."""
        return cls(blink_period_s=config.blink_period_s, warn_reserve_s=config.warn_reserve_s)


DEFAULT_STYLE = DisplayStyle()

#: Pips of each die face on a 3x3 grid, as (row, column).
PIPS: Mapping[int, tuple[tuple[int, int], ...]] = {
    1: ((1, 1),),
    2: ((0, 2), (2, 0)),
    3: ((0, 2), (1, 1), (2, 0)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)),
}


def _scale(colour: Rgb, level: float) -> Rgb:
    level = min(max(level, 0.0), 1.0)
    r, g, b = colour
    return (round(r * level), round(g * level), round(b * level))


class _Canvas:
    def __init__(self, layout: LedLayout, now_s: float, style: DisplayStyle, steady: bool) -> None:
        self.pixels: list[Rgb] = [OFF] * layout.num_pixels
        self.layout = layout
        self.now_s = now_s
        self.style = style
        self.steady = steady

    def blink(self) -> bool:
        """On for the first half of each blink period; always on when steady."""
        return self.steady or (self.now_s % self.style.blink_period_s) < self.style.blink_period_s / 2

    def pulse(self) -> float:
        """A level going 0.3 -> 1 -> 0.3 over the pulse period; 0.65 when steady."""
        if self.steady:
            return 0.65
        phase = (self.now_s % self.style.pulse_period_s) / self.style.pulse_period_s
        return 0.3 + 0.7 * (1.0 - abs(2.0 * phase - 1.0))

    def paint(self, indices: Iterable[int], colour: Rgb) -> None:
        for index in indices:
            self.pixels[index] = colour

    def paint_spots(self, spots: Iterable[Spot], colour: Rgb) -> None:
        for spot in spots:
            self.paint(self.layout.indices(spot), colour)


def _bar_fill(canvas: _Canvas, indices: tuple[int, ...], fraction: float, colour: Rgb) -> None:
    """Light ``fraction`` of a bar from its first LED, the last lit LED partly."""
    amount = min(max(fraction, 0.0), 1.0) * len(indices)
    for k, index in enumerate(indices):
        canvas.pixels[index] = _scale(colour, amount - k) if amount > k else OFF


def _draw_clock(canvas: _Canvas, player: Player, clock: ClockView, colour: Rgb, on_turn: bool) -> None:
    bar = canvas.layout.clocks[player]
    if not bar:
        return
    style = canvas.style
    if clock.reserve_left_s <= 0 and clock.delay_left_s <= 0:
        canvas.paint(bar, style.flag if canvas.blink() else OFF)
        return
    delay_leds = canvas.layout.clock_delay_leds if clock.delay_total_s > 0 else 0
    reserve_part, delay_part = bar[: len(bar) - delay_leds], bar[len(bar) - delay_leds :]
    if delay_part:
        _bar_fill(canvas, delay_part, clock.delay_left_s / clock.delay_total_s, style.delay)
    reserve_colour = colour
    if clock.reserve_left_s < style.warn_reserve_s:
        reserve_colour = style.warning if (canvas.blink() or not on_turn) else OFF
    fraction = clock.reserve_left_s / clock.reserve_total_s if clock.reserve_total_s > 0 else 0.0
    _bar_fill(canvas, reserve_part, fraction, reserve_colour)


def _draw_die(canvas: _Canvas, grid: DieGrid, value: int, colour: Rgb) -> None:
    if value not in PIPS:
        raise ValueError(f"die value {value!r} is not 1..6")
    for row, col in PIPS[value]:
        canvas.pixels[grid[row][col]] = colour


def _draw_cube(canvas: _Canvas, cube: CubeView, colours: tuple[Rgb, Rgb]) -> None:
    leds = canvas.layout.cube
    if not leds:
        return
    if cube.offered_by is not None:
        count = min(len(leds), int(math.log2(cube.value * 2)))
        canvas.paint(leds[:count], colours[cube.offered_by] if canvas.blink() else OFF)
        return
    if cube.value <= 1:
        canvas.pixels[leds[0]] = _scale(WHITE, 0.15)
        return
    count = min(len(leds), int(math.log2(cube.value)))
    canvas.paint(leds[:count], WHITE if cube.owner is None else colours[cube.owner])


def _draw_score(canvas: _Canvas, score: ScoreView, colours: tuple[Rgb, Rgb]) -> None:
    for player in (0, 1):
        bar = canvas.layout.clocks[player]
        if 0 < score.match_length <= len(bar):
            canvas.pixels[bar[score.match_length - 1]] = _scale(WHITE, 0.2)
        canvas.paint(bar[: min(score.scores[player], len(bar))], colours[player])
    if score.winner is not None:
        canvas.paint(canvas.layout.rails[score.winner], _scale(colours[score.winner], canvas.pulse()))


def render_frame(
    state: DisplayState, now_s: float, layout: LedLayout, *, style: DisplayStyle = DEFAULT_STYLE
) -> tuple[Rgb, ...]:
    """The LED frame for ``state`` at time ``now_s`` (see the module docstring).

    Pure: the same arguments give the same frame. Raises ValueError for a spot
    or die value the layout cannot show.
    """
    canvas = _Canvas(layout, now_s, style, state.steady)
    colours = (style.checker[state.colours[0]], style.checker[state.colours[1]])

    if state.turn is not None and state.score is None:
        canvas.paint(layout.rails[state.turn], _scale(colours[state.turn], style.turn_rail_level))
    canvas.paint_spots(state.setup_wrong, style.setup)
    if state.illegal is not None:
        canvas.paint_spots(state.illegal.nearest_from, style.nearest_from)
        canvas.paint_spots(state.illegal.nearest_to, style.nearest_to)
        canvas.paint_spots(state.illegal.wrong, style.wrong if canvas.blink() else OFF)

    if state.score is not None:
        _draw_score(canvas, state.score, colours)
    elif state.clocks is not None:
        for player in (0, 1):
            _draw_clock(canvas, player, state.clocks[player], colours[player], state.turn == player)

    for player in (0, 1):
        grids = layout.dice[player]
        for grid, value in zip(grids, state.dice[player], strict=False):
            _draw_die(canvas, grid, value, style.flag if state.forced_pass else colours[player])

    if state.cube is not None:
        _draw_cube(canvas, state.cube, colours)

    status = list(layout.status)
    if state.turn is not None:
        canvas.pixels[status[state.turn]] = colours[state.turn]
    blink_white = WHITE if canvas.blink() else OFF
    if state.cube is not None and state.cube.offered_by is not None:
        canvas.pixels[status[1 - state.cube.offered_by]] = blink_white
    if state.resign_offered_by is not None:
        canvas.pixels[status[1 - state.resign_offered_by]] = blink_white
    if state.paused:
        canvas.paint(status, blink_white)

    if state.faults:
        for rail in layout.rails:
            canvas.paint(rail, _scale(style.fault, style.fault_rail_level))
        for fault in state.faults:
            code_point = (fault.value - 1) % 12
            canvas.paint_spots((("bottom", code_point), ("top", code_point)), style.fault)
        canvas.paint(status, _scale(style.fault, canvas.pulse()))
    return tuple(canvas.pixels)
