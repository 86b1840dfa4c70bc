"""The referee: a pure state machine from buttons, verdicts and time to match events and effects.

:func:`step` takes a :class:`RefereeState`, one typed event and the time
``now_ns`` (the loop's one injected clock) and returns the next state and the
:data:`Effect` values the loop carries out, in order: journal a record, roll
the dice, take a verdict frame, buzz, announce. Nothing here reads a clock,
rolls a die or touches hardware; every rule of play is the match state
machine's (:class:`engine.match.TimedMatch`), which also runs the clock
(T1-T3). What the LEDs show is :func:`display`, a pure function of the state.

The modes (:class:`Mode`) and the buttons that drive them:

- ``SETUP`` (set-up check): the loop sends each steady reading of the board
  (:class:`BoardSeen`); once it shows the starting position (B4) the seating is
  known: which colour each seat plays and at which end the home boards lie (B3;
  the config's ``home_side`` wins over what is seen). Points set up wrong light up.
- ``OPENING``: either main button rolls one die each (O1); a tie rolls again (O2).
- ``CUBE`` (a turn starts, cube decisions): the player on turn presses main to
  roll (D1, D4) or second to double (C1); a roll that cannot be played passes by
  itself (M7), shown on the LEDs.
- ``DOUBLED``: the opponent's main takes, second drops (C2).
- ``MOVING`` (rolled): the mover moves the checkers by hand and presses main when done.
- ``CHECKING``: the loop waits for a steady view after the press and judges it
  (:class:`VerdictReady`); the clock is paused, the checking time is on no
  one's clock, and the LEDs hold still so they do not fool the camera.
- ``ILLEGAL``: the points to fix flash with the nearest legal play; the mover's
  clock runs; the mover corrects and presses main again, or the opponent
  accepts what stands on the board with their main (X1).
- ``DOUBT``: the picture cannot decide; the second buttons step through the
  nearest legal plays on the LEDs and both mains confirm one together.
- ``RESIGNING``: second held offers to resign (S3); the opponent's main accepts,
  second refuses.
- ``GAME_OVER``: the score shows until the board is set up again (the set-up
  check runs here too); ``MATCH_OVER``: the score shows; new-game held starts anew.
- ``FAILSAFE``: the one state for the unexpected (see :func:`failsafe`): the
  clock stops and new-game held restarts from the journal.

A camera fault (camera lost, board moved, too dark, no calibration) pauses
the clock until the view is back; the pause button pauses it by hand.

Players are seats: 0 sits at the bottom edge of the camera picture, 1 at the
top, as in :mod:`firmware.display` and the buttons.
"""

from __future__ import annotations

import dataclasses
import enum
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from engine.clock import SECOND, ClockSettings
from engine.dice import Dice
from engine.legal import LegalPlay, legal_plays
from engine.match import (
    AcceptResign,
    Double,
    Drop,
    Event,
    MatchError,
    MatchRules,
    OpeningRoll,
    Pass,
    Phase,
    Played,
    RefuseResign,
    Resign,
    Roll,
    Take,
    TimedMatch,
)
from engine.play import Play
from engine.position import Position
from engine.position import status as position_status
from firmware.display import Checker, ClockView, CubeView, DisplayState, Fault, IllegalView, ScoreView
from firmware.hardware.buttons import ButtonHeld, ButtonPressed
from firmware.led_layout import Spot
from vision.judge import PhotoVerdict
from vision.judge import Side as PictureSide
from vision.layout import Home, Layout, layout_from_position, point_index

__all__ = [
    "CAMERA_FAULTS",
    "Announce",
    "BoardSeen",
    "Buzz",
    "DiceRolled",
    "Effect",
    "FaultsChanged",
    "JournalClock",
    "JournalEvent",
    "Mode",
    "NewMatch",
    "OpenJournal",
    "RefereeEvent",
    "RefereeSettings",
    "RefereeState",
    "RestartFromJournal",
    "RollDice",
    "Seating",
    "TakeVerdict",
    "Tick",
    "VerdictReady",
    "display",
    "failsafe",
    "resume",
    "seat_position",
    "spot_of",
    "start",
    "step",
]

if TYPE_CHECKING:
    from firmware.config import Config

log = logging.getLogger(__name__)

Side = Literal["right", "left"]

#: Faults that stop the referee from seeing the board: they pause the clock.
CAMERA_FAULTS = frozenset({Fault.CAMERA_LOST, Fault.BOARD_MOVED, Fault.TOO_DARK, Fault.NO_CALIBRATION})


class Mode(enum.Enum):
    """What the referee waits for (see the module docstring)."""

    SETUP = "set-up check"
    OPENING = "opening roll"
    CUBE = "cube decision"
    DOUBLED = "double offered"
    MOVING = "moving"
    CHECKING = "checking"
    ILLEGAL = "illegal"
    DOUBT = "in doubt"
    RESIGNING = "resigning"
    GAME_OVER = "game over"
    MATCH_OVER = "match over"
    FAILSAFE = "failsafe"


# ---- events ---------------------------------------------------------------------


@dataclass(frozen=True)
class Tick:
    """Time passes: flag falls (T3) and low-time warnings are checked."""


@dataclass(frozen=True)
class BoardSeen:
    """A steady reading of the whole board, for the set-up check (+ light, - dark)."""

    layout: Layout


@dataclass(frozen=True)
class DiceRolled:
    """The loop rolled the dice the referee asked for (:class:`RollDice`)."""

    dice: Dice


@dataclass(frozen=True)
class VerdictReady:
    """The loop judged the steady view after the mover's press.

    ``seen`` is the board as read, from the mover's side, when it is a
    possible position (needed to accept an illegal move, X1); else None.
    """

    verdict: PhotoVerdict
    seen: Position | None = None


@dataclass(frozen=True)
class FaultsChanged:
    """The set of things that stop the referee from seeing (or showing) changed."""

    faults: frozenset[Fault]


RefereeEvent = ButtonPressed | ButtonHeld | Tick | BoardSeen | DiceRolled | VerdictReady | FaultsChanged


# ---- effects --------------------------------------------------------------------


@dataclass(frozen=True)
class JournalEvent:
    """Write a match event (with the clock after it) to the journal; ``durable``: wait until it is on disk
    before anything is shown (rolled dice)."""

    event: Event
    now_ns: int
    timed: TimedMatch
    durable: bool = False


@dataclass(frozen=True)
class JournalClock:
    """Write a clock pause or resume, with its reason (check, camera, pause, failsafe)."""

    op: Literal["pause", "resume"]
    now_ns: int
    timed: TimedMatch
    reason: str


@dataclass(frozen=True)
class OpenJournal:
    """The first set-up check passed: start the match's journal with the seating in its header."""

    seating: Seating


@dataclass(frozen=True)
class RollDice:
    """Roll the electronic dice now and answer with :class:`DiceRolled`; ``opening``: one die each (O1)."""

    opening: bool


@dataclass(frozen=True)
class TakeVerdict:
    """Judge the next steady view (taken with the LEDs held still) and answer with :class:`VerdictReady`.

    ``before`` and ``dice`` are the mover's; ``home`` is where the mover's home
    board lies in the camera picture (``"bottom-right"`` ... ``"top-left"``).
    """

    before: Position
    dice: Dice
    mover: int
    colour: Checker
    home: PictureSide
    since_ns: int


@dataclass(frozen=True)
class Buzz:
    sound: Literal["illegal", "low_time", "flag_fall"]


@dataclass(frozen=True)
class Announce:
    """A line for people: the demo prints it, the service logs it."""

    text: str


@dataclass(frozen=True)
class NewMatch:
    """New-game was held after the match: close this match's journal and start a new one."""


@dataclass(frozen=True)
class RestartFromJournal:
    """New-game was held in the failsafe state: rebuild everything from the journal."""


Effect = (
    JournalEvent | JournalClock | OpenJournal | RollDice | TakeVerdict | Buzz | Announce | NewMatch | RestartFromJournal
)


# ---- state ----------------------------------------------------------------------


@dataclass(frozen=True)
class Seating:
    """Which colour each seat plays and at which end of the picture the home boards lie (B3)."""

    colours: tuple[Checker, Checker]
    side: Side

    def home_of(self, seat: int) -> PictureSide:
        """Where ``seat``'s home board lies in the camera picture."""
        if seat == 0:
            return "bottom-right" if self.side == "right" else "bottom-left"
        return "top-right" if self.side == "right" else "top-left"

    def to_json(self) -> dict[str, object]:
        return {"colours": list(self.colours), "side": self.side}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Seating:
        colours = data["colours"]
        side = data["side"]
        if not isinstance(colours, list) or sorted(colours) != ["dark", "light"] or side not in ("right", "left"):
            raise ValueError(f"seating {data!r}: expected colours light/dark and side right/left")
        return cls((colours[0], colours[1]), side)


@dataclass(frozen=True)
class RefereeSettings:
    """What the referee enforces: the match rules, the clock and the home-side override (B3)."""

    match: MatchRules
    clock: ClockSettings
    #: ``auto``: read from the starting position; ``right``/``left`` as seen from seat 0.
    home_side: str = "auto"
    warn_reserve_s: float = 15.0

    @classmethod
    def from_config(cls, config: Config) -> RefereeSettings:
        """The match rules (``[match]``), clock (``[clock]``, T1) and home side (``[board]``) of a config."""
        from engine.clock import ReserveScope
        from engine.rules import find_variant
        from engine.scoring import FlagOutcome

        m = config.match
        rules = find_variant(m.variant)
        if not m.cube:
            rules = dataclasses.replace(rules, cube=False)
        match = MatchRules(
            rules=rules,
            length=m.length,
            crawford=m.crawford,
            jacoby=m.jacoby,
            beavers=m.beaver,
            automatic_doubles=1 if m.automatic_doubles else 0,
            max_cube=m.max_cube,
        )
        resolved = config.clock.resolve(match_length=m.length)
        if resolved is None:
            clock = ClockSettings.off()
        else:
            delay_s, reserve_s, flag = resolved
            clock = ClockSettings(
                delay_ns=round(delay_s * SECOND),
                reserve_ns=(round(reserve_s * SECOND), round(reserve_s * SECOND)),
                scope=ReserveScope.GAME if config.clock.preset == "app" else ReserveScope.MATCH,
                flag=FlagOutcome(flag),
            )
            match = dataclasses.replace(match, flag=FlagOutcome(flag))
        return cls(
            match=match, clock=clock, home_side=config.board.home_side, warn_reserve_s=config.leds.warn_reserve_s
        )


@dataclass(frozen=True)
class Flagged:
    """What the ILLEGAL mode shows and what the opponent may accept (X1)."""

    wrong: tuple[Spot, ...]
    nearest: tuple[LegalPlay, ...]
    seen: Position | None


@dataclass(frozen=True)
class RefereeState:
    """Everything the referee knows; immutable."""

    settings: RefereeSettings
    mode: Mode
    timed: TimedMatch
    seating: Seating | None = None
    journal_open: bool = False
    #: Each seat's dice as shown; they stay until the opponent rolls.
    shown_dice: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    forced_pass: bool = False
    flagged: Flagged | None = None
    candidates: tuple[LegalPlay, ...] = ()
    candidate: int = 0
    confirmed: frozenset[int] = frozenset()
    setup_wrong: tuple[Spot, ...] = ()
    faults: frozenset[Fault] = frozenset()
    #: Why the clock is paused now; empty when it runs.
    paused_by: frozenset[str] = frozenset()
    warned: tuple[bool, bool] = (False, False)
    resume_mode: Mode | None = None

    @property
    def mover(self) -> int | None:
        return self.timed.state.turn


def start(settings: RefereeSettings) -> RefereeState:
    """A referee waiting for the board to be set up for a new match."""
    return RefereeState(settings=settings, mode=Mode.SETUP, timed=TimedMatch.start(settings.match, settings.clock))


def _mode_of(timed: TimedMatch) -> Mode:
    state = timed.state
    return {
        Phase.OPENING: Mode.GAME_OVER if state.results else Mode.OPENING,
        Phase.ROLL: Mode.CUBE,
        Phase.MOVE: Mode.MOVING,
        Phase.DOUBLED: Mode.DOUBLED,
        Phase.BEAVERED: Mode.DOUBLED,
        Phase.RESIGNING: Mode.RESIGNING,
        Phase.MATCH_OVER: Mode.MATCH_OVER,
    }[state.phase]


def resume(
    settings: RefereeSettings, timed: TimedMatch, seating: Seating, now_ns: int
) -> tuple[RefereeState, tuple[Effect, ...]]:
    """The referee after a restart, from the match and clock the journal rebuilt.

    A clock the journal left paused (a crash while checking, a camera fault)
    runs again: the referee checks afresh.
    """
    state = RefereeState(settings=settings, mode=_mode_of(timed), timed=timed, seating=seating, journal_open=True)
    dice = timed.state.dice
    if dice is not None and timed.state.turn is not None:
        shown: list[tuple[int, ...]] = [(), ()]
        shown[timed.state.turn] = (dice.first, dice.second)
        state = dataclasses.replace(state, shown_dice=(shown[0], shown[1]))
    effects: list[Effect] = [Announce(f"resumed game {timed.state.game} from the journal: {state.mode.value}")]
    if timed.clock.paused:
        timed = timed.resume(now_ns)
        state = dataclasses.replace(state, timed=timed)
        effects.append(JournalClock("resume", now_ns, timed, "restart"))
    return state, tuple(effects)


# ---- helpers ----------------------------------------------------------------------


def spot_of(point: int, seat: int, side: Side) -> Spot | None:
    """The LED place of ``seat``'s ``point`` (B2 numbering; 25 the bar, 0 off: no LED)."""
    if point == 25:
        return "bar"
    if point == 0:
        return None
    edge, index = point_index(point if seat == 0 else 25 - point, home=f"bottom-{side}")  # type: ignore[arg-type]
    return (edge, index)


def _place_spot(place: str) -> Spot:
    """``"top 3"`` (vision's 1-based place) as an LED spot; ``"bar"`` stays."""
    if place == "bar":
        return "bar"
    row, _, number = place.partition(" ")
    return ("top" if row == "top" else "bottom", int(number) - 1)


def _play_spots(lp: LegalPlay, seat: int, side: Side) -> tuple[tuple[Spot, ...], tuple[Spot, ...]]:
    starts: list[Spot] = []
    ends: list[Spot] = []
    for move in lp.play.moves:
        for point, into in ((move.start, starts), (move.end, ends)):
            spot = spot_of(point, seat, side)
            if spot is not None and spot not in into:
                into.append(spot)
    return tuple(starts), tuple(ends)


def seat_position(layout: Layout, seating: Seating, *, checkers: int = 15) -> Position:
    """The board a reading shows, seen from seat 0, with the borne-off checkers
    filled in (the camera does not read the trays)."""
    from vision.layout import position_from_layout

    position = position_from_layout(layout, mover=seating.colours[0], home=f"bottom-{seating.side}")  # type: ignore[arg-type]
    me, them = list(position.me), list(position.them)
    me[0] = max(0, checkers - sum(me[1:]))
    them[0] = max(0, checkers - sum(them[1:]))
    return Position(tuple(me), tuple(them))


def _start_layouts(settings: RefereeSettings) -> list[tuple[Seating, Layout]]:
    start_position = Position.start(settings.match.rules)
    sides: tuple[Side, ...] = ("right", "left") if settings.home_side == "auto" else (settings.home_side,)  # type: ignore[assignment]
    found = []
    for side in sides:
        for colour in ("light", "dark"):
            seating = Seating((colour, "dark" if colour == "light" else "light"), side)
            home: Home = "bottom-right" if side == "right" else "bottom-left"
            layout = layout_from_position(start_position, mover=colour, home=home, rules=settings.match.rules)
            found.append((seating, layout))
    return found


def _layout_wrong(seen: Layout, wanted: Layout) -> tuple[Spot, ...]:
    wrong: list[Spot] = []
    for edge, a, b in (("top", seen.top, wanted.top), ("bottom", seen.bottom, wanted.bottom)):
        wrong += [(edge, i) for i in range(12) if a[i] != b[i]]  # type: ignore[misc]
    if (seen.bar_light, seen.bar_dark) != (wanted.bar_light, wanted.bar_dark):
        wrong.append("bar")
    return tuple(wrong)


def _name(state: RefereeState, seat: int | None) -> str:
    if seat is None:
        return "both"
    colour = state.seating.colours[seat] if state.seating is not None else ""
    return f"player {seat}" + (f" ({colour})" if colour else "")


# ---- the clock ----------------------------------------------------------------------


def _pause(state: RefereeState, reason: str, now_ns: int) -> tuple[RefereeState, list[Effect]]:
    if reason in state.paused_by:
        return state, []
    effects: list[Effect] = []
    timed = state.timed
    if not state.paused_by:
        timed = timed.pause(now_ns)
        if state.journal_open:
            effects.append(JournalClock("pause", now_ns, timed, reason))
    return dataclasses.replace(state, timed=timed, paused_by=state.paused_by | {reason}), effects


def _unpause(state: RefereeState, reason: str, now_ns: int) -> tuple[RefereeState, list[Effect]]:
    if reason not in state.paused_by:
        return state, []
    effects: list[Effect] = []
    rest = state.paused_by - {reason}
    timed = state.timed
    if not rest:
        timed = timed.resume(now_ns)
        if state.journal_open:
            effects.append(JournalClock("resume", now_ns, timed, reason))
    return dataclasses.replace(state, timed=timed, paused_by=rest), effects


def _apply(
    state: RefereeState, event: Event, now_ns: int, *, durable: bool = False
) -> tuple[RefereeState, list[Effect]]:
    """Apply a match event; the mode follows the match's phase."""
    old = state.timed.state
    timed = state.timed.apply(event, now_ns)
    new = timed.state
    effects: list[Effect] = [JournalEvent(event, now_ns, timed, durable)]
    state = dataclasses.replace(
        state, timed=timed, mode=_mode_of(timed), flagged=None, candidates=(), confirmed=frozenset()
    )
    if new.game != old.game or new.phase == Phase.MATCH_OVER:
        result = new.results[-1]
        effects.append(Announce(f"{result}; score {new.score[0]}-{new.score[1]}"))
        state = dataclasses.replace(state, shown_dice=((), ()), forced_pass=False, warned=(False, False))
        if new.phase == Phase.MATCH_OVER:
            effects.append(Announce(f"match over: {_name(state, result.winner)} wins {new.score[0]}-{new.score[1]}"))
    return state, effects


# ---- step -------------------------------------------------------------------------------


def step(state: RefereeState, event: RefereeEvent, now_ns: int) -> tuple[RefereeState, tuple[Effect, ...]]:
    """The referee after ``event`` at ``now_ns``, and what the loop must do."""
    effects: list[Effect] = []
    if isinstance(event, Tick):
        state, effects = _tick(state, now_ns)
    elif isinstance(event, FaultsChanged):
        state, effects = _faults(state, event.faults, now_ns)
    elif isinstance(event, BoardSeen):
        state, effects = _board_seen(state, event.layout, now_ns)
    elif isinstance(event, DiceRolled):
        state, effects = _dice_rolled(state, event.dice, now_ns)
    elif isinstance(event, VerdictReady):
        state, effects = _verdict(state, event, now_ns)
    elif isinstance(event, (ButtonPressed, ButtonHeld)):
        state, effects = _button(state, event, now_ns)
    return state, tuple(effects)


def failsafe(state: RefereeState, now_ns: int, reason: str) -> tuple[RefereeState, tuple[Effect, ...]]:
    """The one state for the unexpected: the clock stops (journaled), the LEDs say paused,
    and new-game held rebuilds the referee from the journal."""
    if state.mode == Mode.FAILSAFE:
        return state, ()
    state, effects = _pause(state, "failsafe", now_ns)
    state = dataclasses.replace(state, mode=Mode.FAILSAFE)
    return state, (*effects, Announce(f"failsafe: {reason}; hold new-game to restart from the journal"))


def _tick(state: RefereeState, now_ns: int) -> tuple[RefereeState, list[Effect]]:
    timed = state.timed
    if timed.state.phase in (Phase.OPENING, Phase.MATCH_OVER) or state.mode == Mode.FAILSAFE:
        return state, []
    timeout = timed.flag_fall(now_ns)
    if timeout is not None:
        state, effects = _apply(state, timeout, now_ns)
        return state, [Buzz("flag_fall"), Announce(f"{_name(state, timeout.player)}'s flag fell (T3)"), *effects]
    runner = timed.clock.runner
    if runner is None or timed.clock.paused or not timed.clock.settings.enabled:
        return state, []
    _, reserve_ns = timed.clock.left_ns(runner, now_ns)
    if reserve_ns < state.settings.warn_reserve_s * SECOND and not state.warned[runner]:
        warned = list(state.warned)
        warned[runner] = True
        return dataclasses.replace(state, warned=(warned[0], warned[1])), [Buzz("low_time")]
    return state, []


def _faults(state: RefereeState, faults: frozenset[Fault], now_ns: int) -> tuple[RefereeState, list[Effect]]:
    effects: list[Effect] = []
    blind = bool(faults & CAMERA_FAULTS)
    was_blind = bool(state.faults & CAMERA_FAULTS)
    state = dataclasses.replace(state, faults=faults)
    if blind and not was_blind:
        state, effects = _pause(state, "camera", now_ns)
        effects.append(Announce(f"camera fault: {', '.join(sorted(f.name.lower() for f in faults))}; clock paused"))
    elif was_blind and not blind:
        state, effects = _unpause(state, "camera", now_ns)
        effects.append(Announce("the view is back; clock running"))
    return state, effects


def _board_seen(state: RefereeState, layout: Layout, now_ns: int) -> tuple[RefereeState, list[Effect]]:
    if state.mode not in (Mode.SETUP, Mode.GAME_OVER):
        return state, []
    candidates = _start_layouts(state.settings)
    if state.seating is not None:
        candidates = [(s, lay) for s, lay in candidates if s == state.seating]
    scored = sorted(candidates, key=lambda c: len(_layout_wrong(layout, c[1])))
    seating, wanted = scored[0]
    wrong = _layout_wrong(layout, wanted)
    if wrong:
        if state.mode != Mode.SETUP or wrong == state.setup_wrong:
            return state, []
        names = ", ".join(spot if isinstance(spot, str) else f"{spot[0]} {spot[1] + 1}" for spot in wrong)
        return dataclasses.replace(state, setup_wrong=wrong), [
            Announce(f"set-up check: not the starting position (B4) at {names}; lit on the LEDs")
        ]
    effects: list[Effect] = []
    if not state.journal_open:
        effects.append(OpenJournal(seating))
    effects.append(
        Announce(
            f"board set up: player 0 plays {seating.colours[0]}, player 1 {seating.colours[1]}, "
            f"home boards on the {seating.side} (B3); game {state.timed.state.game}: "
            "press main to roll the opening (O1)"
        )
    )
    state = dataclasses.replace(
        state, mode=Mode.OPENING, seating=seating, journal_open=True, setup_wrong=(), shown_dice=((), ())
    )
    return state, effects


def _dice_rolled(state: RefereeState, dice: Dice, now_ns: int) -> tuple[RefereeState, list[Effect]]:
    match = state.timed.state
    if state.mode == Mode.OPENING:
        state, effects = _apply(state, OpeningRoll(dice), now_ns, durable=True)
        state = dataclasses.replace(state, shown_dice=((dice.first,), (dice.second,)), forced_pass=False)
        if dice.first == dice.second:
            return state, [*effects, Announce(f"opening roll {dice.first}-{dice.second}: a tie, roll again (O2)")]
        mover = 0 if dice.first > dice.second else 1
        return state, [
            *effects,
            Announce(f"opening roll {dice.first}-{dice.second}: {_name(state, mover)} moves first (O1)"),
        ]
    if state.mode != Mode.CUBE or match.turn is None:
        return state, []
    player = match.turn
    state, effects = _apply(state, Roll(player, dice), now_ns, durable=True)
    shown: list[tuple[int, ...]] = [(), ()]
    shown[player] = (dice.first, dice.second)
    state = dataclasses.replace(state, shown_dice=(shown[0], shown[1]), forced_pass=False)
    effects.append(Announce(f"{_name(state, player)} rolls {dice.first}-{dice.second}"))
    assert state.timed.state.dice is not None
    if not legal_plays(state.timed.state.position, dice, state.settings.match.rules)[0].play:
        state, passed = _apply(state, Pass(player), now_ns)
        state = dataclasses.replace(state, forced_pass=True)
        effects += [*passed, Announce(f"{_name(state, player)} cannot move: the turn passes (M7)")]
    return state, effects


def _verdict(state: RefereeState, ready: VerdictReady, now_ns: int) -> tuple[RefereeState, list[Effect]]:
    if state.mode != Mode.CHECKING:
        return state, []
    match = state.timed.state
    mover = match.turn
    assert mover is not None and match.dice is not None and state.seating is not None
    verdict = ready.verdict
    if verdict.verdict == "legal" and verdict.play is not None:
        state, effects = _unpause(state, "check", now_ns)
        play = verdict.play
        said = Announce(f"{_name(state, mover)} plays {play.play or '(no move)'}: legal")
        state, applied = _apply(state, Played(mover, play.play), now_ns)
        return state, [*effects, said, *applied]
    if verdict.verdict == "illegal":
        state, effects = _unpause(state, "check", now_ns)
        wrong = tuple(dict.fromkeys(_place_spot(c.place) for c in verdict.contradictions))
        flagged = Flagged(wrong=wrong, nearest=verdict.nearest, seen=ready.seen)
        state = dataclasses.replace(state, mode=Mode.ILLEGAL, flagged=flagged)
        where = ", ".join(str(c) for c in verdict.contradictions) or "the board"
        nearest = " or ".join(str(lp.play) for lp in verdict.nearest) or "none"
        return state, [
            *effects,
            Buzz("illegal"),
            Announce(
                f"illegal move by {_name(state, mover)} with {match.dice}: {where}; nearest legal play {nearest}; "
                "fix it and press main, or the opponent accepts it with main (X1)"
            ),
        ]
    # refused: the players choose among the nearest legal plays together
    plays = legal_plays(match.position, match.dice, state.settings.match.rules)
    if ready.seen is not None:
        from engine.judge import nearest as nearest_plays

        ordered = nearest_plays(plays, ready.seen, state.settings.match.rules)
        plays = ordered + tuple(lp for lp in plays if lp not in ordered)
    reason = verdict.refusal.message if verdict.refusal is not None else "the picture cannot decide"
    state = dataclasses.replace(state, mode=Mode.DOUBT, candidates=plays[:6], candidate=0, confirmed=frozenset())
    return state, [
        Announce(
            f"cannot judge: {reason}; second steps through the nearest legal plays "
            f"({plays[0].play} first), both mains confirm one"
        )
    ]


def _button(state: RefereeState, event: ButtonPressed | ButtonHeld, now_ns: int) -> tuple[RefereeState, list[Effect]]:
    role, player = event.role, event.player
    held = isinstance(event, ButtonHeld)
    if role == "new_game":
        if held and state.mode == Mode.MATCH_OVER:
            return start(state.settings), [NewMatch(), Announce("new match: set up the board")]
        if held and state.mode == Mode.FAILSAFE:
            return state, [RestartFromJournal()]
        return state, []
    if role == "pause":
        if state.timed.state.phase in (Phase.OPENING, Phase.MATCH_OVER):
            return state, []
        if "pause" in state.paused_by:
            state, effects = _unpause(state, "pause", now_ns)
            return state, [*effects, Announce("clock running")]
        state, effects = _pause(state, "pause", now_ns)
        return state, [*effects, Announce("paused")]
    if player is None or state.mode == Mode.FAILSAFE or "pause" in state.paused_by:
        return state, []
    match = state.timed.state
    mover = match.turn
    mode = state.mode
    try:
        if held and role == "second" and match.phase in (Phase.ROLL, Phase.MOVE) and mode in (Mode.CUBE, Mode.MOVING):
            resign_state, effects = _apply(state, Resign(player, 1), now_ns)
            if resign_state.mode == Mode.RESIGNING:
                resign_state = dataclasses.replace(resign_state, resume_mode=mode)
            return resign_state, [*effects, Announce(f"{_name(state, player)} offers to resign (S3)")]
        if held:
            return state, []
        if mode == Mode.OPENING and role == "main":
            return state, [RollDice(opening=True)]
        if mode == Mode.CUBE and player == mover:
            if role == "main":
                return state, [RollDice(opening=False)]
            state, effects = _apply(state, Double(player), now_ns)
            return state, [
                *effects,
                Announce(f"{_name(state, player)} doubles to {state.timed.state.offered_cube} (C1)"),
            ]
        if mode == Mode.DOUBLED and match.actor == player:
            if role == "main":
                state, effects = _apply(state, Take(player), now_ns)
                return state, [
                    *effects,
                    Announce(f"{_name(state, player)} takes; cube at {state.timed.state.cube} (C2)"),
                ]
            state, effects = _apply(state, Drop(player), now_ns)
            return state, [Announce(f"{_name(state, player)} drops (C2)"), *effects]
        if mode == Mode.MOVING and player == mover and role == "main":
            return _check(state, now_ns)
        if mode == Mode.ILLEGAL and role == "main":
            if player == mover:
                return _check(state, now_ns)
            return _accept(state, now_ns)
        if mode == Mode.DOUBT:
            return _doubt_button(state, player, role, now_ns)
        if mode == Mode.RESIGNING and match.actor == player:
            if role == "main":
                state, effects = _apply(state, AcceptResign(player), now_ns)
                return state, [Announce(f"{_name(state, player)} accepts the resignation"), *effects]
            back = state.resume_mode or Mode.CUBE
            state, effects = _apply(state, RefuseResign(player), now_ns)
            return dataclasses.replace(state, mode=back), [
                *effects,
                Announce(f"{_name(state, player)} refuses the resignation"),
            ]
    except MatchError as exc:
        return state, [Announce(f"not now: {exc}")]
    return state, []


def _check(state: RefereeState, now_ns: int) -> tuple[RefereeState, list[Effect]]:
    match = state.timed.state
    assert match.turn is not None and match.dice is not None and state.seating is not None
    state, effects = _pause(state, "check", now_ns)
    state = dataclasses.replace(state, mode=Mode.CHECKING, flagged=None)
    mover = match.turn
    seating = state.seating
    assert seating is not None
    return state, [
        *effects,
        TakeVerdict(
            before=match.position,
            dice=match.dice,
            mover=mover,
            colour=seating.colours[mover],
            home=seating.home_of(mover),
            since_ns=now_ns,
        ),
    ]


def _accept(state: RefereeState, now_ns: int) -> tuple[RefereeState, list[Effect]]:
    """X1: the opponent accepts the flagged move; what stands on the board counts."""
    match = state.timed.state
    mover = match.turn
    assert mover is not None and state.flagged is not None
    seen = state.flagged.seen
    rules = state.settings.match.rules
    if seen is None or position_status(seen, rules):
        return state, [
            Announce("cannot accept: the board as read does not add up to 15 checkers each; fix it and press main")
        ]
    said = Announce(f"{_name(state, 1 - mover)} accepts the move as it stands (X1)")
    state, effects = _apply(state, Played(mover, Play(), after=seen, accepted_illegal=True), now_ns)
    return state, [said, *effects]


def _doubt_button(state: RefereeState, player: int, role: str, now_ns: int) -> tuple[RefereeState, list[Effect]]:
    if role == "second":
        index = (state.candidate + 1) % max(1, len(state.candidates))
        lp = state.candidates[index]
        return dataclasses.replace(state, candidate=index, confirmed=frozenset()), [Announce(f"showing {lp.play}")]
    confirmed = state.confirmed | {player}
    if confirmed != {0, 1}:
        return dataclasses.replace(state, confirmed=confirmed), []
    mover = state.timed.state.turn
    assert mover is not None
    lp = state.candidates[state.candidate]
    state, effects = _unpause(state, "check", now_ns)
    said = Announce(f"both players confirm {lp.play}")
    state, applied = _apply(state, Played(mover, lp.play), now_ns)
    return state, [*effects, said, *applied]


# ---- the LEDs ---------------------------------------------------------------------------


def display(state: RefereeState, now_ns: int) -> DisplayState:
    """What the LEDs show for ``state`` at ``now_ns`` (pure)."""
    timed = state.timed
    match = timed.state
    seating = state.seating
    colours: tuple[Checker, Checker] = seating.colours if seating is not None else ("light", "dark")
    clocks = None
    settings = timed.clock.settings
    if settings.enabled:
        views = []
        for player in (0, 1):
            delay_ns, reserve_ns = timed.clock.left_ns(player, max(now_ns, timed.clock.at_ns or now_ns))
            views.append(
                ClockView(
                    delay_ns / SECOND,
                    reserve_ns / SECOND,
                    settings.delay_ns / SECOND,
                    settings.reserve_ns[player] / SECOND,
                )
            )
        clocks = (views[0], views[1])
    cube: CubeView | None = None
    if match.settings.rules.cube and not match.crawford:
        offered = match.turn if match.phase in (Phase.DOUBLED, Phase.BEAVERED) else None
        cube = CubeView(match.cube, match.cube_owner, offered)  # type: ignore[arg-type]
    illegal = None
    side: Side = seating.side if seating is not None else "right"
    mover = match.turn
    if state.mode == Mode.ILLEGAL and state.flagged is not None and mover is not None:
        starts: tuple[Spot, ...] = ()
        ends: tuple[Spot, ...] = ()
        if state.flagged.nearest:
            starts, ends = _play_spots(state.flagged.nearest[0], mover, side)
        illegal = IllegalView(state.flagged.wrong, starts, ends)
    elif state.mode == Mode.DOUBT and state.candidates and mover is not None:
        starts, ends = _play_spots(state.candidates[state.candidate], mover, side)
        illegal = IllegalView((), starts, ends)
    score = None
    if state.mode in (Mode.GAME_OVER, Mode.MATCH_OVER) and match.results:
        score = ScoreView(match.score, match.settings.length, match.results[-1].winner)  # type: ignore[arg-type]
    turn = match.actor if match.phase not in (Phase.OPENING, Phase.MATCH_OVER) else None
    return DisplayState(
        turn=turn,  # type: ignore[arg-type]
        colours=colours,
        dice=state.shown_dice,
        forced_pass=state.forced_pass,
        clocks=clocks,
        cube=cube,
        illegal=illegal,
        setup_wrong=state.setup_wrong if state.mode == Mode.SETUP else (),
        score=score,
        faults=state.faults,
        paused="pause" in state.paused_by or state.mode == Mode.FAILSAFE,
        resign_offered_by=match.resigner if match.phase == Phase.RESIGNING else None,  # type: ignore[arg-type]
        steady=state.mode == Mode.CHECKING,
    )
