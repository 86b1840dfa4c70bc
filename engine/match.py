"""A match as one state machine: opening, turns, the cube, resignations, scores.

:func:`apply` takes a :class:`MatchState` and one typed event and returns the
next state, or raises :class:`MatchError` naming the rule the event breaks;
the state is immutable, so a refused event changes nothing. Time and dice
are arguments: nothing here reads a clock or rolls.

Players are ``0`` and ``1`` (player 0 is the first player of a ``.mat``
record and the bottom player of an XGID). ``state.position`` is seen from
the player whose turn it is (``state.turn``), and from player 0 between
games. ``state.options()`` says what may happen next and who acts.

>>> from engine.dice import Dice
>>> from engine.play import Play
>>> s = new_match(MatchRules(length=3))
>>> s = apply(s, OpeningRoll(Dice(3, 1)))  # player 0 rolled 3, player 1 rolled 1
>>> s.phase, s.turn, s.dice
(<Phase.MOVE: 'move'>, 0, Dice(3, 1))
>>> s = apply(s, Played(0, Play.parse("8/5 6/5")))
>>> s.turn, [str(o) for o in s.options()]
(1, ['1 may double', '1 may roll', '0 may resign', '1 may resign'])
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.clock import Clock, ClockSettings
from engine.dice import Dice
from engine.errors import NardrefError
from engine.judge import judge
from engine.legal import LegalPlay, find_play, legal_plays, literal_after
from engine.play import Play
from engine.position import Position, status
from engine.rules import APP, OFF, STANDARD, Rules
from engine.scoring import (
    GAMMON,
    MULTIPLIER_NAMES,
    Ending,
    FlagOutcome,
    app_resign_multiplier,
    bear_off_multiplier,
    counted_multiplier,
)

log = logging.getLogger(__name__)

_legal_plays = functools.lru_cache(maxsize=64)(legal_plays)
"""The legal plays, remembered for the last positions: a replay resolves each play twice."""

Player = int
"""0 or 1."""


class MatchError(NardrefError, ValueError):
    """An event the rules do not allow now; ``rule`` is its rule ID from rules.md."""

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(message)
        self.rule = rule


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRules:
    """Everything that decides how a match is played and scored.

    ``length`` 0 is money play. Jacoby (S5), beavers (C4) and automatic
    doubles (O2) are money-play options; Crawford (C5) is a match-play option,
    on by default. ``app_resign`` is the seed-000 profile of S3: a resignation
    ends the game at once and counts 2 if the resigner has borne off none,
    else 1. ``flag`` is what a flag fall costs (T3, S4).
    """

    rules: Rules = STANDARD
    length: int = 0
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0
    max_cube: int = 64
    app_resign: bool = False
    flag: FlagOutcome = FlagOutcome.GAMMON

    def __post_init__(self) -> None:
        if self.length < 0:
            raise MatchError(f"match length {self.length!r}: expected 0 (money play) or more points", rule="C5")
        if self.length and (self.jacoby or self.beavers or self.automatic_doubles):
            raise MatchError(
                f"Jacoby (S5), beavers (C4) and automatic doubles (O2) are money-play options; "
                f"this is a {self.length}-point match",
                rule="C5",
            )
        if self.max_cube < 1 or self.max_cube & (self.max_cube - 1):
            raise MatchError(f"maximum cube {self.max_cube!r}: expected a power of two", rule="C3")
        if self.automatic_doubles < 0:
            raise MatchError(f"automatic doubles limit {self.automatic_doubles!r}: expected 0 or more", rule="O2")


#: The seed-000 app: least waste, no backgammons, resignations counted as S3, a flag fall a gammon.
APP_MATCH = MatchRules(rules=APP, app_resign=True)


class Phase(enum.Enum):
    """What the match waits for."""

    OPENING = "opening"  #: both players roll one die (O1, O2)
    ROLL = "roll"  #: the player on turn may double (C1) or roll (D1)
    MOVE = "move"  #: the dice are out; the player on turn plays them
    DOUBLED = "doubled"  #: the opponent takes, drops or beavers (C2, C4)
    BEAVERED = "beavered"  #: the doubler takes or drops the beaver (C4)
    RESIGNING = "resigning"  #: the opponent accepts or refuses a resignation (S3)
    MATCH_OVER = "match-over"  #: nothing more may happen


# ---- events -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OpeningRoll:
    """O1: each player rolls one die; ``dice.first`` is player 0's, ``dice.second`` player 1's."""

    dice: Dice


@dataclass(frozen=True, slots=True)
class Roll:
    """D1: the player on turn rolls."""

    player: Player
    dice: Dice


@dataclass(frozen=True, slots=True)
class Played:
    """The player on turn played ``play``.

    ``after`` (seen from the mover) is what stands on the board; it must be
    the outcome of ``play`` unless ``accepted_illegal`` says the opponent
    accepted an illegal play (X1), in which case ``after`` is what counts.
    """

    player: Player
    play: Play
    after: Position | None = None
    accepted_illegal: bool = False


@dataclass(frozen=True, slots=True)
class Pass:
    """M7: the player on turn has no legal move and the turn passes."""

    player: Player


@dataclass(frozen=True, slots=True)
class Double:
    """C1: the player on turn offers the cube before rolling."""

    player: Player


@dataclass(frozen=True, slots=True)
class Take:
    """C2: the doubled player takes; after a beaver, the doubler takes the beaver (C4)."""

    player: Player


@dataclass(frozen=True, slots=True)
class Drop:
    """C2: the doubled player drops; after a beaver, the doubler refuses it (C4)."""

    player: Player


@dataclass(frozen=True, slots=True)
class Beaver:
    """C4: the doubled player takes and at once redoubles, keeping the cube."""

    player: Player


@dataclass(frozen=True, slots=True)
class Resign:
    """S3: ``player`` resigns a single (1), gammon (2) or backgammon (3)."""

    player: Player
    level: int = 1


@dataclass(frozen=True, slots=True)
class AcceptResign:
    """S3: the opponent accepts the resignation offered."""

    player: Player


@dataclass(frozen=True, slots=True)
class RefuseResign:
    """S3: the opponent refuses it; play goes on."""

    player: Player


@dataclass(frozen=True, slots=True)
class TimeOut:
    """T3: ``player``'s flag fell."""

    player: Player


Event = (
    OpeningRoll | Roll | Played | Pass | Double | Take | Drop | Beaver | Resign | AcceptResign | RefuseResign | TimeOut
)
EVENT_TYPES: tuple[type, ...] = (
    OpeningRoll,
    Roll,
    Played,
    Pass,
    Double,
    Take,
    Drop,
    Beaver,
    Resign,
    AcceptResign,
    RefuseResign,
    TimeOut,
)


@dataclass(frozen=True, slots=True)
class Option:
    """One thing that may happen next: ``player`` (None: the referee, for both) may send ``event``."""

    player: Player | None
    event: type

    def __str__(self) -> str:
        who = "both" if self.player is None else str(self.player)
        return f"{who} may {_VERBS[self.event]}"


_VERBS: dict[type, str] = {
    OpeningRoll: "roll the opening",
    Roll: "roll",
    Played: "play",
    Pass: "pass",
    Double: "double",
    Take: "take",
    Drop: "drop",
    Beaver: "beaver",
    Resign: "resign",
    AcceptResign: "accept the resignation",
    RefuseResign: "refuse the resignation",
    TimeOut: "time out",
}


@dataclass(frozen=True, slots=True)
class GameResult:
    """One finished game: who won, how, and the points (multiplier x cube)."""

    game: int
    winner: Player
    points: int
    multiplier: int
    cube: int
    ending: Ending
    match_over: bool = False

    def __str__(self) -> str:
        name = MULTIPLIER_NAMES.get(self.multiplier, "match")
        return f"game {self.game}: player {self.winner} wins {self.points} ({name}, {self.ending.value})"


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchState:
    """The whole match at one moment. Build the first with :func:`new_match`."""

    settings: MatchRules
    phase: Phase
    score: tuple[int, int] = (0, 0)
    game: int = 1
    crawford: bool = False  #: this game is the Crawford game (C5)
    crawford_played: bool = False
    turn: Player | None = None
    position: Position
    dice: Dice | None = None
    cube: int = 1
    cube_owner: Player | None = None  #: None: centred
    cube_turned: bool = False  #: a double has been taken this game (S5)
    automatic_doubles: int = 0  #: automatic doubles this game (O2)
    offered_cube: int = 0  #: the value offered while DOUBLED or BEAVERED
    resign_level: int = 0
    resigner: Player | None = None
    resume: Phase | None = None  #: the phase a refused resignation returns to
    results: tuple[GameResult, ...] = ()

    @property
    def post_crawford(self) -> bool:
        """A game after the Crawford game (C5)."""
        return self.crawford_played and not self.crawford

    @property
    def actor(self) -> Player | None:
        """The player who must act now (and whose clock runs, T2); None between games."""
        if self.phase in (Phase.ROLL, Phase.MOVE, Phase.BEAVERED):
            return self.turn
        if self.phase == Phase.DOUBLED:
            return _other(self.turn)
        if self.phase == Phase.RESIGNING:
            return _other(self.resigner)
        return None

    def position_of(self, player: Player) -> Position:
        """The board seen from ``player``."""
        seen_by = self.turn if self.turn is not None else 0
        return self.position if seen_by == player else self.position.swap()

    def options(self) -> tuple[Option, ...]:
        """Everything that may happen next, with who may do it."""
        phase, turn = self.phase, self.turn
        if phase == Phase.MATCH_OVER:
            return ()
        if phase == Phase.OPENING:
            return (Option(None, OpeningRoll),)
        assert turn is not None
        other = _other(turn)
        found: list[Option] = []
        if phase == Phase.ROLL:
            if _double_refusal(self, turn) is None:
                found.append(Option(turn, Double))
            found.append(Option(turn, Roll))
        elif phase == Phase.MOVE:
            assert self.dice is not None
            plays = _legal_plays(self.position, self.dice, self.settings.rules)
            found.append(Option(turn, Pass if not plays[0].play else Played))
        elif phase == Phase.DOUBLED:
            found += [Option(other, Take), Option(other, Drop)]
            if _beaver_refusal(self) is None:
                found.append(Option(other, Beaver))
        elif phase == Phase.BEAVERED:
            found += [Option(turn, Take), Option(turn, Drop)]
        elif phase == Phase.RESIGNING:
            answerer = _other(self.resigner)
            found += [Option(answerer, AcceptResign), Option(answerer, RefuseResign)]
        if phase in (Phase.ROLL, Phase.MOVE):
            found += [Option(0, Resign), Option(1, Resign)]
        return tuple(found)

    def xgid(self) -> str:
        """The XGID of this moment, player 0 at the bottom: board, cube, owner, turn,
        dice (or ``D``/``B`` for a pending double or beaver, from the doubler's
        side), score, Crawford or Jacoby and beaver, match length, cube limit."""
        from engine.xgid import Xgid

        mover = self.turn if self.turn is not None else 0
        action = {Phase.DOUBLED: "double", Phase.BEAVERED: "beaver"}.get(self.phase)
        dice = (self.dice.first, self.dice.second) if self.dice is not None and self.phase == Phase.MOVE else None
        owner = 0 if self.cube_owner is None else (1 if self.cube_owner == 0 else -1)
        settings = self.settings
        return str(
            Xgid(
                position=self.position_of(mover),
                bottom_on_roll=mover == 0,
                cube=self.cube,
                cube_owner=owner,
                dice=dice,
                cube_action=action,
                score_bottom=self.score[0],
                score_top=self.score[1],
                crawford=self.crawford,
                jacoby=settings.jacoby,
                beaver=settings.beavers,
                match_length=settings.length,
                max_cube=settings.max_cube,
            )
        )

    @property
    def winner(self) -> Player | None:
        """The winner of the match once it is over."""
        if self.phase != Phase.MATCH_OVER or not self.results:
            return None
        return self.results[-1].winner


def new_match(settings: MatchRules, *, score: tuple[int, int] = (0, 0), crawford_played: bool = False) -> MatchState:
    """A match waiting for the opening roll of its first game (or of a game at ``score``)."""
    state = MatchState(
        settings=settings,
        phase=Phase.OPENING,
        score=score,
        crawford_played=crawford_played,
        position=Position.start(settings.rules),
    )
    return state


def _other(player: Player | None) -> Player:
    assert player is not None
    return 1 - player


def _refuse(message: str, rule: str) -> MatchError:
    return MatchError(f"{message} ({rule})", rule=rule)


def apply(state: MatchState, event: Event) -> MatchState:
    """The state after ``event``, or :class:`MatchError` with the rule it breaks."""
    if state.phase == Phase.MATCH_OVER:
        raise _refuse(f"{_describe(event)}: the match is over", "C5")
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise MatchError(f"{event!r} is not a match event", rule="D1")
    actor = getattr(event, "player", None)
    if actor is not None and actor not in (0, 1):
        raise MatchError(f"{_describe(event)}: player must be 0 or 1", rule="D1")
    new = handler(state, event)
    log.info("game %d: %s", state.game, _describe(event))
    return new


def _describe(event: Event) -> str:
    name = type(event).__name__
    player = getattr(event, "player", None)
    who = "" if player is None else f"player {player} "
    detail = ""
    if isinstance(event, (OpeningRoll, Roll)):
        detail = f" {event.dice}"
    elif isinstance(event, Played):
        detail = f" {str(event.play) or '(nothing)'}"
    elif isinstance(event, Resign):
        detail = f" {MULTIPLIER_NAMES.get(event.level, event.level)}"
    return f"{who}{name}{detail}"


def _expect(state: MatchState, event: Event, phases: tuple[Phase, ...], player: Player | None, rule: str) -> None:
    if state.phase not in phases:
        wanted = ", ".join(str(o) for o in state.options())
        raise _refuse(f"{_describe(event)} now: the match waits for {state.phase.value} ({wanted})", rule)
    if player is not None and getattr(event, "player", player) != player:
        raise _refuse(f"{_describe(event)}: it is player {player}'s to act", rule)


def _opening(state: MatchState, event: OpeningRoll) -> MatchState:
    _expect(state, event, (Phase.OPENING,), None, "O1")
    settings = state.settings
    first, second = event.dice.first, event.dice.second
    if first == second:  # O2: roll again, maybe doubling the cube (money play)
        if state.automatic_doubles < settings.automatic_doubles and state.cube * 2 <= settings.max_cube:
            return dataclasses.replace(state, cube=state.cube * 2, automatic_doubles=state.automatic_doubles + 1)
        return state
    mover = 0 if first > second else 1
    start = Position.start(settings.rules)
    dice = Dice(max(first, second), min(first, second))  # the mover's die first, as gnubg shows it
    return dataclasses.replace(state, phase=Phase.MOVE, turn=mover, position=start, dice=dice)


def _roll(state: MatchState, event: Roll) -> MatchState:
    _expect(state, event, (Phase.ROLL,), state.turn, "D4")
    return dataclasses.replace(state, phase=Phase.MOVE, dice=event.dice)


def _double_refusal(state: MatchState, player: Player) -> MatchError | None:
    settings = state.settings
    if not settings.rules.cube:
        return _refuse(f"player {player} doubles: {settings.rules.name} is played without a cube", "V3")
    if state.crawford:
        return _refuse(f"player {player} doubles in the Crawford game", "C5")
    if state.cube_owner not in (None, player):
        return _refuse(f"player {player} doubles: the cube belongs to player {state.cube_owner}", "C1")
    if state.cube * 2 > settings.max_cube:
        return _refuse(f"player {player} doubles: the cube is at its maximum {settings.max_cube}", "C3")
    return None


def _double(state: MatchState, event: Double) -> MatchState:
    _expect(state, event, (Phase.ROLL,), state.turn, "C1")
    refusal = _double_refusal(state, event.player)
    if refusal is not None:
        raise refusal
    return dataclasses.replace(state, phase=Phase.DOUBLED, offered_cube=state.cube * 2)


def _beaver_refusal(state: MatchState) -> MatchError | None:
    settings = state.settings
    if not settings.beavers or settings.length:
        return _refuse("beaver: beavers are off (a money-play option)", "C4")
    if state.offered_cube * 2 > settings.max_cube:
        return _refuse(f"beaver: the cube would pass its maximum {settings.max_cube}", "C3")
    return None


def _take(state: MatchState, event: Take) -> MatchState:
    if state.phase == Phase.BEAVERED:
        _expect(state, event, (Phase.BEAVERED,), state.turn, "C4")
        owner = _other(state.turn)
        cube = state.offered_cube * 2
    else:
        _expect(state, event, (Phase.DOUBLED,), _other(state.turn) if state.turn is not None else None, "C2")
        owner = event.player
        cube = state.offered_cube
    return dataclasses.replace(state, phase=Phase.ROLL, cube=cube, cube_owner=owner, cube_turned=True, offered_cube=0)


def _drop(state: MatchState, event: Drop) -> MatchState:
    if state.phase == Phase.BEAVERED:
        _expect(state, event, (Phase.BEAVERED,), state.turn, "C4")
        return _end(
            state, winner=_other(state.turn), multiplier=1, cube=state.offered_cube, ending=Ending.BEAVER_REFUSED
        )
    _expect(state, event, (Phase.DOUBLED,), _other(state.turn) if state.turn is not None else None, "C2")
    assert state.turn is not None
    return _end(state, winner=state.turn, multiplier=1, cube=state.cube, ending=Ending.DROP)


def _beaver(state: MatchState, event: Beaver) -> MatchState:
    _expect(state, event, (Phase.DOUBLED,), _other(state.turn) if state.turn is not None else None, "C4")
    refusal = _beaver_refusal(state)
    if refusal is not None:
        raise refusal
    return dataclasses.replace(state, phase=Phase.BEAVERED)


def _resign(state: MatchState, event: Resign) -> MatchState:
    _expect(state, event, (Phase.ROLL, Phase.MOVE), None, "S3")
    if event.level not in MULTIPLIER_NAMES:
        raise _refuse(f"player {event.player} resigns {event.level!r}: expected 1, 2 or 3", "S3")
    if state.settings.app_resign:
        off = state.position_of(event.player).me[OFF]
        return _end(
            state,
            winner=_other(event.player),
            multiplier=app_resign_multiplier(off),
            cube=state.cube,
            ending=Ending.RESIGN,
        )
    return dataclasses.replace(
        state, phase=Phase.RESIGNING, resign_level=event.level, resigner=event.player, resume=state.phase
    )


def _accept_resign(state: MatchState, event: AcceptResign) -> MatchState:
    _expect(state, event, (Phase.RESIGNING,), _other(state.resigner) if state.resigner is not None else None, "S3")
    return _end(state, winner=event.player, multiplier=state.resign_level, cube=state.cube, ending=Ending.RESIGN)


def _refuse_resign(state: MatchState, event: RefuseResign) -> MatchState:
    _expect(state, event, (Phase.RESIGNING,), _other(state.resigner) if state.resigner is not None else None, "S3")
    assert state.resume is not None
    return dataclasses.replace(state, phase=state.resume, resign_level=0, resigner=None, resume=None)


def _timeout(state: MatchState, event: TimeOut) -> MatchState:
    in_game = (Phase.ROLL, Phase.MOVE, Phase.DOUBLED, Phase.BEAVERED, Phase.RESIGNING)
    _expect(state, event, in_game, state.actor, "T3")
    winner = _other(event.player)
    if state.settings.flag == FlagOutcome.MATCH:
        return _end(state, winner=winner, multiplier=GAMMON, cube=state.cube, ending=Ending.TIMEOUT, forfeit=True)
    return _end(state, winner=winner, multiplier=GAMMON, cube=state.cube, ending=Ending.TIMEOUT)


def resolve_play(position: Position, dice: Dice, play: Play, rules: Rules = STANDARD) -> LegalPlay | None:
    """The legal outcome of a written play (see :func:`engine.legal.find_play`), or None."""
    return find_play(position, dice, play, rules, plays=_legal_plays(position, dice, rules))


def _played(state: MatchState, event: Played | Pass) -> MatchState:
    _expect(state, event, (Phase.MOVE,), state.turn, "D1")
    assert state.dice is not None
    rules = state.settings.rules
    play = event.play if isinstance(event, Played) else Play()
    if isinstance(event, Played) and event.accepted_illegal:
        if event.after is None:
            raise _refuse(
                f"player {event.player} played {str(play)!r}: an accepted illegal play needs the board after it", "X1"
            )
        problems = status(event.after, rules)
        if problems:
            raise _refuse(
                f"the board {event.after.position_id()!r} after an accepted play cannot exist: {problems!r}", "X1"
            )
        after = event.after
    else:
        found = resolve_play(state.position, state.dice, play, rules)
        if found is None:
            seen = event.after if isinstance(event, Played) and event.after is not None else None
            if seen is None:
                seen = literal_after(state.position, play, rules)
            reason = "M1 a move starts where the player has no checker"
            rule = "M1"
            if seen is not None:
                verdict = judge(state.position, state.dice, seen, rules)
                if verdict.reasons:
                    reason, rule = str(verdict.reasons[0]), verdict.reasons[0].rule
            written = str(play) or "no move"
            raise MatchError(f"player {event.player} plays {written!r} with {state.dice}: {reason}", rule=rule)
        if isinstance(event, Played) and event.after is not None and event.after != found.after:
            raise _refuse(
                f"player {event.player} plays {str(play)!r} with {state.dice}, but the board after it "
                f"{event.after.position_id()!r} is not what that play gives ({found.after.position_id()!r})",
                "D1",
            )
        after = found.after
    if after.me[OFF] >= rules.checkers:
        multiplier = bear_off_multiplier(after, rules)
        return _end(
            dataclasses.replace(state, position=after),
            winner=state.turn if state.turn is not None else event.player,
            multiplier=multiplier,
            cube=state.cube,
            ending=Ending.BORE_OFF,
        )
    return dataclasses.replace(state, phase=Phase.ROLL, turn=_other(state.turn), position=after.swap(), dice=None)


def _end(
    state: MatchState, *, winner: Player, multiplier: int, cube: int, ending: Ending, forfeit: bool = False
) -> MatchState:
    settings = state.settings
    jacoby_single = settings.jacoby and not settings.length and not state.cube_turned
    counted = counted_multiplier(multiplier, backgammons=settings.rules.backgammons, jacoby_single=jacoby_single)
    if ending in (Ending.DROP, Ending.BEAVER_REFUSED):
        counted = 1
    points = counted * cube
    score = list(state.score)
    if forfeit and settings.length:
        points = max(points, settings.length - score[winner])
    score[winner] += points
    match_over = forfeit or bool(settings.length and score[winner] >= settings.length)
    result = GameResult(state.game, winner, points, counted, cube, ending, match_over)
    log.info("%s; score %d-%d", result, score[0], score[1])
    if match_over:
        return dataclasses.replace(
            state,
            phase=Phase.MATCH_OVER,
            score=(score[0], score[1]),
            dice=None,
            offered_cube=0,
            resign_level=0,
            resigner=None,
            resume=None,
            results=state.results + (result,),
        )
    reached = settings.length - 1
    crawford_next = (
        settings.crawford
        and bool(settings.length)
        and not state.crawford_played
        and not state.crawford
        and score[winner] == reached
        and state.score[winner] < reached
    )
    return MatchState(
        settings=settings,
        phase=Phase.OPENING,
        score=(score[0], score[1]),
        game=state.game + 1,
        crawford=crawford_next,
        crawford_played=state.crawford_played or state.crawford,
        position=Position.start(settings.rules),
        results=state.results + (result,),
    )


_HANDLERS: dict[type, Callable[[MatchState, Any], MatchState]] = {
    OpeningRoll: _opening,
    Roll: _roll,
    Played: _played,
    Pass: _played,
    Double: _double,
    Take: _take,
    Drop: _drop,
    Beaver: _beaver,
    Resign: _resign,
    AcceptResign: _accept_resign,
    RefuseResign: _refuse_resign,
    TimeOut: _timeout,
}


@dataclass(frozen=True, slots=True)
class TimedMatch:
    """A match with its clock: the one object a referee drives (T1-T3).

    :meth:`apply` charges the time up to ``now_ns`` to whoever's clock ran,
    applies the event, then runs the clock of the player who must act next:
    a turn starts a fresh delay when the opponent ends theirs (T2), a cube
    offer or a resignation runs the answering player's clock with a fresh
    delay, and the answer hands the rest of the stint back to the mover.
    """

    state: MatchState
    clock: Clock

    @classmethod
    def start(cls, settings: MatchRules, clock: ClockSettings, *, score: tuple[int, int] = (0, 0)) -> TimedMatch:
        """A match and a stopped clock, waiting for the opening roll."""
        return cls(new_match(settings, score=score), Clock.start(clock))

    def apply(self, event: Event, now_ns: int) -> TimedMatch:
        """The match after ``event`` at ``now_ns``; refused (T3) if a flag fell before it."""
        clock = self.clock.charged(now_ns)
        if clock.flagged is not None and not isinstance(event, TimeOut):
            raise _refuse(f"{_describe(event)}: player {clock.flagged}'s flag fell at {self.clock.flag_ns()} ns", "T3")
        old = self.state
        new = apply(old, event)
        if new.game != old.game:
            clock = clock.new_game()
        actor = new.actor
        answering = (Phase.DOUBLED, Phase.BEAVERED, Phase.RESIGNING)
        fresh = (new.phase in answering and new.phase != old.phase) or (
            new.phase in (Phase.ROLL, Phase.MOVE) and (old.phase == Phase.OPENING or new.turn != old.turn)
        )
        return TimedMatch(new, clock.run(actor, now_ns, fresh_delay=fresh))

    def pause(self, now_ns: int) -> TimedMatch:
        """Stop the clock, charging no one, from ``now_ns``."""
        return TimedMatch(self.state, self.clock.pause(now_ns))

    def resume(self, now_ns: int) -> TimedMatch:
        """Run the clock again from ``now_ns``."""
        return TimedMatch(self.state, self.clock.resume(now_ns))

    def flag_fall(self, now_ns: int) -> TimeOut | None:
        """The :class:`TimeOut` to apply if the acting player's flag has fallen by ``now_ns``."""
        flagged = self.clock.charged(now_ns).flagged
        return None if flagged is None else TimeOut(flagged)
