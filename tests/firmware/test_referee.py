"""The referee state machine, driven by typed events and injected time (no vision, no hardware)."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from engine.clock import SECOND, ClockSettings
from engine.dice import Dice
from engine.legal import legal_plays
from engine.match import MatchRules, Phase, TimedMatch
from engine.position import Position
from firmware import referee as ref
from firmware.display import Fault
from firmware.hardware.buttons import ButtonHeld, ButtonPressed
from firmware.journal import JournalWriter, load, make_header, rebuild
from vision.judge import Contradiction, PhotoVerdict
from vision.layout import layout_from_position

START = Position.start()
SETTINGS = ref.RefereeSettings(match=MatchRules(length=3), clock=ClockSettings.app())
SEATING = ref.Seating(("light", "dark"), "right")
OPENING = Dice(3, 1)


class Drive:
    """Feeds events at advancing times and keeps every effect."""

    def __init__(self, settings: ref.RefereeSettings = SETTINGS) -> None:
        self.state = ref.start(settings)
        self.t = 0
        self.effects: list[ref.Effect] = []

    def __call__(self, event: ref.RefereeEvent, dt_s: float = 0.5) -> tuple[ref.Effect, ...]:
        self.t += round(dt_s * SECOND)
        self.state, effects = ref.step(self.state, event, self.t)
        self.effects += effects
        for effect in effects:
            if isinstance(effect, ref.RollDice):
                raise AssertionError("roll requests are answered by the test")
        return effects

    def press(self, player: int, role: str = "main", dt_s: float = 0.5) -> tuple[ref.Effect, ...]:
        self.t += round(dt_s * SECOND)
        self.state, effects = ref.step(self.state, ButtonPressed(role, player), self.t)  # type: ignore[arg-type]
        self.effects += effects
        return effects

    def set_up(self) -> None:
        self(ref.BoardSeen(layout_from_position(START, mover="light", home="bottom-right")))
        assert self.state.mode == ref.Mode.OPENING

    def roll(self, dice: Dice, *, player: int | None = None) -> None:
        who = self.state.timed.state.turn if player is None else player
        assert who is not None
        effects = self.press(who)
        assert any(isinstance(e, ref.RollDice) for e in effects), effects
        self(ref.DiceRolled(dice), 0.0)

    @property
    def match(self):  # type: ignore[no-untyped-def]
        return self.state.timed.state


def legal(before: Position, dice: Dice, index: int = 0) -> PhotoVerdict:
    return PhotoVerdict("legal", play=legal_plays(before, dice)[index])


def opened(dice: Dice = OPENING) -> Drive:
    drive = Drive()
    drive.set_up()
    drive.press(0)
    drive(ref.DiceRolled(dice), 0.0)
    return drive


def test_referee_setup_check_lights_wrong_points_then_reads_the_seating() -> None:
    drive = Drive()
    me = list(START.me)
    me[6] -= 1
    me[5] += 1
    wrong = layout_from_position(Position(tuple(me), START.them), mover="dark", home="bottom-left")
    effects = drive(ref.BoardSeen(wrong))
    assert drive.state.mode == ref.Mode.SETUP
    assert (
        len(drive.state.setup_wrong) == 2 and ref.display(drive.state, drive.t).setup_wrong == drive.state.setup_wrong
    )
    assert any(isinstance(e, ref.Announce) and "B4" in e.text for e in effects)
    effects = drive(ref.BoardSeen(layout_from_position(START, mover="dark", home="bottom-left")))
    assert drive.state.mode == ref.Mode.OPENING
    assert drive.state.seating == ref.Seating(("dark", "light"), "left")
    assert ref.OpenJournal(ref.Seating(("dark", "light"), "left")) in effects
    assert ref.display(drive.state, drive.t).colours == ("dark", "light")


def test_referee_home_side_override_wins_over_the_board() -> None:
    drive = Drive(dataclasses.replace(SETTINGS, home_side="left"))
    drive(ref.BoardSeen(layout_from_position(START, mover="light", home="bottom-right")))
    assert drive.state.mode == ref.Mode.SETUP and drive.state.setup_wrong
    drive(ref.BoardSeen(layout_from_position(START, mover="light", home="bottom-left")))
    assert drive.state.mode == ref.Mode.OPENING and drive.state.seating == ref.Seating(("light", "dark"), "left")


def test_referee_opening_tie_rolls_again_and_dice_are_journaled_durably() -> None:
    drive = Drive()
    drive.set_up()
    drive.press(1)
    effects = drive(ref.DiceRolled(Dice(4, 4)), 0.0)
    assert drive.state.mode == ref.Mode.OPENING
    journaled = [e for e in effects if isinstance(e, ref.JournalEvent)]
    assert journaled and journaled[0].durable
    drive.press(0)
    drive(ref.DiceRolled(Dice(2, 6)), 0.0)
    assert drive.state.mode == ref.Mode.MOVING and drive.match.turn == 1
    assert ref.display(drive.state, drive.t).dice == ((2,), (6,))


def test_referee_roll_only_by_the_player_on_turn_d4() -> None:
    drive = opened()
    drive.press(0)
    drive(ref.VerdictReady(legal(START, Dice(3, 1))))
    assert drive.state.mode == ref.Mode.CUBE and drive.match.turn == 1
    assert not any(isinstance(e, ref.RollDice) for e in drive.press(0))  # D4: not player 0's turn
    drive.roll(Dice(6, 5))
    assert drive.state.mode == ref.Mode.MOVING
    # the dice stay shown until the opponent rolls
    assert ref.display(drive.state, drive.t).dice == ((), (6, 5))


def test_referee_checking_time_is_on_no_ones_clock() -> None:
    drive = opened()
    left_before = drive.state.timed.clock.left_ns(0, drive.t)
    effects = drive.press(0, dt_s=0.0)
    check = next(e for e in effects if isinstance(e, ref.TakeVerdict))
    assert (check.mover, check.colour, check.home, check.dice) == (0, "light", "bottom-right", Dice(3, 1))
    assert drive.state.mode == ref.Mode.CHECKING and ref.display(drive.state, drive.t).steady
    drive(ref.Tick(), 5.0)
    assert drive.state.timed.clock.left_ns(0, drive.t) == left_before
    drive(ref.VerdictReady(legal(START, Dice(3, 1))), 0.0)
    assert drive.match.turn == 1 and drive.state.timed.clock.runner == 1
    assert drive.state.timed.clock.reserve_ns[0] == left_before[1]


def test_referee_illegal_move_flags_points_keeps_the_clock_running_then_correction() -> None:
    drive = opened()
    drive.press(0)
    nearest = legal_plays(START, Dice(3, 1))[:1]
    verdict = PhotoVerdict("illegal", contradictions=(Contradiction(4, "bottom 9", 0, 1),), nearest=nearest)
    effects = drive(ref.VerdictReady(verdict))
    assert drive.state.mode == ref.Mode.ILLEGAL
    assert ref.Buzz("illegal") in effects
    clock = drive.state.timed.clock
    assert clock.runner == 0 and not clock.paused  # the mover's clock keeps running
    shown = ref.display(drive.state, drive.t).illegal
    assert shown is not None and shown.wrong == (("bottom", 8),) and shown.nearest_from and shown.nearest_to
    drive(ref.Tick(), 3.0)
    assert drive.state.timed.clock.left_ns(0, drive.t)[0] < clock.left_ns(0, drive.t - 3 * SECOND)[0]
    drive.press(0)
    assert drive.state.mode == ref.Mode.CHECKING
    drive(ref.VerdictReady(legal(START, Dice(3, 1))))
    assert drive.state.mode == ref.Mode.CUBE and drive.match.turn == 1


def test_referee_opponent_accepts_an_illegal_move_x1() -> None:
    drive = opened()
    drive.press(0)
    me = list(START.me)
    me[8] -= 1
    me[4] += 1  # 8/4 with 3-1: illegal
    seen = Position(tuple(me), START.them)
    drive(ref.VerdictReady(PhotoVerdict("illegal", contradictions=(Contradiction(4, "bottom 9", 0, 1),)), seen))
    assert drive.state.mode == ref.Mode.ILLEGAL
    effects = drive.press(1)
    assert any(isinstance(e, ref.Announce) and "X1" in e.text for e in effects)
    assert drive.state.mode == ref.Mode.CUBE and drive.match.turn == 1
    assert drive.match.position == seen.swap()
    played = [e.event for e in effects if isinstance(e, ref.JournalEvent)]
    assert played and played[0].accepted_illegal  # type: ignore[union-attr]


def test_referee_x1_refuses_a_board_that_does_not_add_up() -> None:
    drive = opened()
    drive.press(0)
    drive(ref.VerdictReady(PhotoVerdict("illegal"), None))
    drive.press(1)
    assert drive.state.mode == ref.Mode.ILLEGAL


def test_referee_doubt_lets_both_players_confirm_one_of_the_nearest_plays() -> None:
    drive = opened()
    drive.press(0)
    drive(ref.VerdictReady(PhotoVerdict("refused")))
    assert drive.state.mode == ref.Mode.DOUBT and drive.state.candidates
    first = ref.display(drive.state, drive.t).illegal
    drive.press(1, "second")
    assert drive.state.candidate == 1
    second = ref.display(drive.state, drive.t).illegal
    assert first != second
    drive.press(0)
    assert drive.state.mode == ref.Mode.DOUBT
    drive.press(1)
    assert drive.state.mode == ref.Mode.CUBE
    assert drive.match.position == legal_plays(START, Dice(3, 1))[1].after.swap()


def test_referee_cube_double_take_then_drop_scores_the_cube() -> None:
    drive = opened()
    drive.press(0)
    drive(ref.VerdictReady(legal(START, Dice(3, 1))))
    drive.press(1, "second")
    assert drive.state.mode == ref.Mode.DOUBLED
    cube = ref.display(drive.state, drive.t).cube
    assert cube is not None and cube.offered_by == 1
    drive.press(0)  # take
    assert drive.state.mode == ref.Mode.CUBE and drive.match.cube == 2 and drive.match.cube_owner == 0
    drive.roll(Dice(5, 2))
    drive.press(1)
    drive(ref.VerdictReady(legal(drive.match.position, Dice(5, 2))))
    drive.press(0, "second")  # player 0 owns the cube: redouble
    assert drive.state.mode == ref.Mode.DOUBLED
    drive.press(1, "second")  # drop
    assert drive.state.mode == ref.Mode.GAME_OVER
    assert drive.match.score == (2, 0)
    assert ref.display(drive.state, drive.t).score is not None


def test_referee_flag_fall_ends_the_game_t3() -> None:
    drive = opened()
    effects = drive(ref.Tick(), 11 + 80)
    assert ref.Buzz("low_time") in effects
    effects = drive(ref.Tick(), 11)
    assert ref.Buzz("flag_fall") in effects
    assert drive.state.mode == ref.Mode.GAME_OVER
    result = drive.match.results[-1]
    assert result.winner == 1 and result.points == 2  # S4: a gammon


def test_referee_camera_fault_pauses_the_clock_until_the_view_is_back() -> None:
    drive = opened()
    drive(ref.Tick(), 2.0)
    left = drive.state.timed.clock.left_ns(0, drive.t)
    drive(ref.FaultsChanged(frozenset({Fault.CAMERA_LOST})), 0.0)
    assert drive.state.timed.clock.paused
    assert Fault.CAMERA_LOST in ref.display(drive.state, drive.t).faults
    drive(ref.Tick(), 500.0)  # far past the flag: no fall while paused
    assert drive.state.mode == ref.Mode.MOVING
    drive(ref.FaultsChanged(frozenset()), 0.0)
    assert not drive.state.timed.clock.paused
    assert drive.state.timed.clock.left_ns(0, drive.t) == left


def test_referee_hand_fault_does_not_pause_the_clock() -> None:
    drive = opened()
    drive(ref.FaultsChanged(frozenset({Fault.HAND_OVER_BOARD})))
    assert not drive.state.timed.clock.paused


def test_referee_forced_pass_happens_by_itself_m7() -> None:
    closed = Position(
        (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 10, 1),
        (3, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    )
    timed = TimedMatch.start(SETTINGS.match, SETTINGS.clock)
    timed = dataclasses.replace(
        timed, state=dataclasses.replace(timed.state, phase=Phase.ROLL, turn=0, position=closed)
    )
    state, _ = ref.resume(SETTINGS, timed, SEATING, 0)
    drive = Drive()
    drive.state = state
    drive.roll(Dice(3, 1))
    assert drive.state.mode == ref.Mode.CUBE and drive.match.turn == 1
    shown = ref.display(drive.state, drive.t)
    assert shown.forced_pass and shown.dice == ((3, 1), ())


def test_referee_resign_offer_and_acceptance_s3() -> None:
    drive = opened()
    drive(ButtonHeld("second", 1))
    assert drive.state.mode == ref.Mode.RESIGNING
    assert ref.display(drive.state, drive.t).resign_offered_by == 1
    drive.press(0)
    assert drive.state.mode == ref.Mode.GAME_OVER and drive.match.score == (1, 0)


def test_referee_pause_button_stops_the_clock_and_the_buttons() -> None:
    drive = opened()
    drive(ButtonPressed("pause"))
    assert drive.state.timed.clock.paused and ref.display(drive.state, drive.t).paused
    assert not any(isinstance(e, ref.TakeVerdict) for e in drive.press(0))
    drive(ButtonPressed("pause"))
    assert not drive.state.timed.clock.paused


def test_referee_failsafe_pauses_and_new_game_hold_restarts_from_the_journal() -> None:
    drive = opened()
    drive.state, effects = ref.failsafe(drive.state, drive.t, "boom")
    assert drive.state.mode == ref.Mode.FAILSAFE and drive.state.timed.clock.paused
    assert ref.display(drive.state, drive.t).paused
    assert not drive.press(0)
    assert ref.RestartFromJournal() in drive(ButtonHeld("new_game"))


def _journal(drive: Drive, path: Path) -> TimedMatch:
    with JournalWriter(path, make_header(SETTINGS.match, SETTINGS.clock), sync=False) as writer:
        for effect in drive.effects:
            if isinstance(effect, ref.JournalEvent):
                writer.event(effect.event, effect.now_ns, effect.timed)
            elif isinstance(effect, ref.JournalClock):
                writer.clock(effect.op, effect.now_ns, effect.timed, reason=effect.reason)
    return rebuild(load(path))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_referee_whole_match_from_setup_to_match_end_replays_from_its_journal(seed: int, tmp_path: Path) -> None:
    """Whole matches with illegal moves (corrected or accepted, X1), cube actions, camera faults,
    verdicts in doubt and a flag fall; the journal of effects replays to the same match and clock."""
    rng = random.Random(seed)
    drive = Drive()
    drive.set_up()
    seen_events: set[str] = set()
    for _ in range(5000):
        mode = drive.state.mode
        if mode == ref.Mode.MATCH_OVER:
            break
        if mode == ref.Mode.GAME_OVER:
            drive(ref.BoardSeen(layout_from_position(START, mover="light", home="bottom-right")))
        elif mode == ref.Mode.OPENING:
            drive.press(rng.randrange(2))
            drive(ref.DiceRolled(Dice(rng.randint(1, 6), rng.randint(1, 6))), 0.0)
        elif mode == ref.Mode.CUBE:
            turn = drive.match.turn
            assert turn is not None
            may_double = not drive.match.crawford and drive.match.cube_owner in (None, turn)
            if may_double and ("double" not in seen_events or rng.random() < 0.05):
                drive.press(turn, "second")
                seen_events.add("double")
            else:
                drive.roll(Dice(rng.randint(1, 6), rng.randint(1, 6)))
        elif mode == ref.Mode.DOUBLED:
            taker = 1 - drive.match.turn  # type: ignore[operator]
            drive.press(taker, "main" if rng.random() < 0.7 else "second")
        elif mode == ref.Mode.MOVING:
            _move(drive, rng, seen_events)
        else:
            raise AssertionError(f"unexpected mode {mode}")
    assert drive.state.mode == ref.Mode.MATCH_OVER
    assert max(drive.match.score) >= 3
    assert {"double", "illegal", "x1", "camera", "doubt", "flag"} <= seen_events
    replayed = _journal(drive, tmp_path / "journal.jsonl")
    assert replayed.state == drive.state.timed.state
    assert replayed.clock == drive.state.timed.clock


def _move(drive: Drive, rng: random.Random, seen_events: set[str]) -> None:
    """One turn of a player who sometimes errs, thinks too long, or meets a camera fault."""
    from firmware.simplayers import near_miss

    mover, dice, before = drive.match.turn, drive.match.dice, drive.match.position
    assert mover is not None and dice is not None
    plays = legal_plays(before, dice)
    chosen = rng.choice(plays)
    if "flag" not in seen_events and {"camera", "illegal", "x1", "doubt", "double"} <= seen_events:
        seen_events.add("flag")
        drive(ref.Tick(), 200.0)  # thinks far too long: the flag falls (T3)
        assert drive.state.mode in (ref.Mode.GAME_OVER, ref.Mode.MATCH_OVER)
        return
    # every kind of trouble happens early once, then now and then
    if "camera" not in seen_events or rng.random() < 0.05:
        seen_events.add("camera")
        drive(ref.FaultsChanged(frozenset({Fault.CAMERA_LOST})), 1.0)
        drive(ref.Tick(), 300.0)  # no flag falls while the referee cannot see
        drive(ref.FaultsChanged(frozenset()), 1.0)
    drive.press(mover, dt_s=rng.uniform(0.2, 3.0))
    erring = "x1" not in seen_events or rng.random() < 0.1
    wrong = near_miss(before, dice, chosen.after, SETTINGS.match.rules) if erring else None
    if wrong is not None:
        drive(ref.VerdictReady(PhotoVerdict("illegal", nearest=(chosen,)), wrong), 0.2)
        assert drive.state.mode == ref.Mode.ILLEGAL
        if "illegal" in seen_events and ("x1" not in seen_events or rng.random() < 0.5):
            seen_events.add("x1")
            drive.press(1 - mover)  # accepted as it stands
            assert drive.state.mode == ref.Mode.GAME_OVER or drive.match.position_of(mover) == wrong
            return
        seen_events.add("illegal")
        drive.press(mover)  # corrected
    if "doubt" not in seen_events or rng.random() < 0.05:
        seen_events.add("doubt")
        drive(ref.VerdictReady(PhotoVerdict("refused"), chosen.after), 0.2)
        drive.press(0)
        drive.press(1)
        return
    drive(ref.VerdictReady(PhotoVerdict("legal", play=chosen)), 0.2)
