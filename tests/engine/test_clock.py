"""The clock (T1-T3): delay then reserve, who runs, pause, presets; time is injected."""

from __future__ import annotations

import pytest

from engine.clock import MINUTE, SECOND, Clock, ClockError, ClockSettings
from engine.dice import Dice
from engine.match import Double, MatchError, MatchRules, OpeningRoll, Phase, Played, Roll, Take, TimedMatch, TimeOut
from engine.play import Play
from engine.scoring import FlagOutcome


def test_clock_app_reserve_runs_out_after_delay_and_reserve() -> None:
    clock = Clock.start(ClockSettings.app()).run(0, 0, fresh_delay=True)
    assert clock.flag_ns() == 101 * SECOND
    just_before = clock.charged(101 * SECOND - 1)
    assert just_before.flagged is None and just_before.reserve_ns[0] == 1
    assert clock.charged(101 * SECOND).flagged == 0
    assert clock.charged(500 * SECOND).reserve_ns == (0, 90 * SECOND)


def test_clock_unused_delay_is_lost() -> None:
    clock = Clock.start(ClockSettings.app()).run(0, 0, fresh_delay=True)
    clock = clock.run(1, 5 * SECOND, fresh_delay=True)  # 6 s of delay unused
    clock = clock.run(0, 6 * SECOND, fresh_delay=True)
    clock = clock.charged(6 * SECOND + 12 * SECOND)
    assert clock.reserve_ns[0] == 89 * SECOND  # a fresh 11 s, then 1 s of reserve


def test_clock_pause_charges_no_one_and_stays_exact() -> None:
    clock = Clock.start(ClockSettings.app()).run(0, 0, fresh_delay=True)
    now = 0
    for _ in range(1000):  # a thousand checks of 7 ns charged, 13 ns paused
        now += 7
        clock = clock.pause(now)
        now += 13
        clock = clock.resume(now)
    clock = clock.charged(now + 11 * SECOND)
    assert clock.delay_ns[0] == 0
    assert clock.reserve_ns[0] == 90 * SECOND - 7000


def test_clock_tournament_reserve_per_match_point() -> None:
    fresh = ClockSettings.tournament(length=7)
    assert fresh.reserve_ns == (14 * MINUTE, 14 * MINUTE) and fresh.delay_ns == 12 * SECOND
    midway = ClockSettings.tournament(length=7, score=(3, 1))
    assert midway.reserve_ns == (10 * MINUTE, 10 * MINUTE)  # less 1 min per point scored by either player
    assert fresh.flag == FlagOutcome.MATCH


def test_clock_off_never_flags() -> None:
    clock = Clock.start(ClockSettings.off()).run(0, 0, fresh_delay=True)
    assert clock.charged(10**15).flagged is None and clock.flag_ns() is None


def test_clock_time_may_not_run_backwards() -> None:
    clock = Clock.start(ClockSettings.app()).run(0, 100, fresh_delay=True)
    with pytest.raises(ClockError):
        clock.charged(99)


def test_clock_preset_by_name() -> None:
    assert ClockSettings.preset("app") == ClockSettings.app()
    with pytest.raises(ClockError):
        ClockSettings.preset("blitz")


def _opened(clock: ClockSettings, rules: MatchRules) -> TimedMatch:
    timed = TimedMatch.start(rules, clock)
    timed = timed.apply(OpeningRoll(Dice(3, 1)), 0)
    return timed.apply(Played(0, Play.parse("8/5 6/5")), 2 * SECOND)


def test_clock_turn_runs_from_the_opponents_end_of_turn() -> None:
    timed = _opened(ClockSettings.app(), MatchRules(length=5))
    assert timed.clock.runner == 1 and timed.clock.delay_ns[1] == 11 * SECOND
    timed = timed.apply(Roll(1, Dice(6, 4)), 20 * SECOND)  # 18 s: 11 delay + 7 reserve
    assert timed.clock.reserve_ns[1] == 83 * SECOND
    assert timed.clock.reserve_ns[0] == 90 * SECOND  # player 0 used 2 s of delay only


def test_clock_cube_offer_runs_the_takers_clock() -> None:
    timed = _opened(ClockSettings.app(), MatchRules(length=5))
    timed = timed.apply(Double(1), 5 * SECOND)  # 3 s of player 1's delay
    assert timed.clock.runner == 0 and timed.clock.delay_ns[0] == 11 * SECOND
    timed = timed.apply(Take(0), 20 * SECOND)  # 15 s: 11 delay + 4 reserve
    assert timed.clock.reserve_ns[0] == 86 * SECOND
    assert timed.clock.runner == 1 and timed.clock.delay_ns[1] == 8 * SECOND  # the rest of the stint


def test_clock_flag_fall_app_loses_a_gammon_and_refuses_late_events() -> None:
    timed = _opened(ClockSettings.app(), MatchRules(length=5))
    late = 2 * SECOND + 101 * SECOND
    assert timed.flag_fall(late - 1) is None
    assert timed.flag_fall(late) == TimeOut(1)
    with pytest.raises(MatchError) as caught:
        timed.apply(Roll(1, Dice(2, 1)), late)
    assert caught.value.rule == "T3"
    timed = timed.apply(TimeOut(1), late)
    assert timed.state.score == (2, 0) and timed.state.phase == Phase.OPENING
    assert timed.clock.reserve_ns == (90 * SECOND, 90 * SECOND)  # a new game, a new reserve


def test_clock_flag_fall_tournament_loses_the_match() -> None:
    rules = MatchRules(length=3, flag=FlagOutcome.MATCH)
    timed = _opened(ClockSettings.tournament(length=3), rules)
    late = 2 * SECOND + 12 * SECOND + 6 * MINUTE
    event = timed.flag_fall(late)
    assert event == TimeOut(1)
    timed = timed.apply(event, late)
    assert timed.state.phase == Phase.MATCH_OVER and timed.state.winner == 0


def test_clock_pause_in_timed_match_charges_no_one() -> None:
    timed = _opened(ClockSettings.app(), MatchRules(length=5))
    timed = timed.pause(3 * SECOND).resume(600 * SECOND)  # 1 s used of player 1's 11 s delay
    assert timed.flag_fall(600 * SECOND + 100 * SECOND - 1) is None
    assert timed.flag_fall(600 * SECOND + 100 * SECOND) == TimeOut(1)
