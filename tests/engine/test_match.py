"""Whole scripted matches through the match state machine (O1-O2, S1-S5, C5, T3, V1-V3, X1)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.dice import Dice
from engine.match import (
    APP_MATCH,
    AcceptResign,
    Double,
    Drop,
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
    TimeOut,
    apply,
    new_match,
)
from engine.play import Play
from engine.position import Position
from engine.rules import HYPERGAMMON, LONG_NARDY, NACKGAMMON, STANDARD
from engine.scoring import Ending, FlagOutcome
from tests.engine.matchplay import board, play_game, side, start_game


def test_match_opening_higher_die_moves_first_with_both_dice() -> None:
    state = apply(new_match(MatchRules(length=5)), OpeningRoll(Dice(2, 6)))
    assert (state.phase, state.turn, state.dice) == (Phase.MOVE, 1, Dice(6, 2))


def test_match_opening_tie_is_rolled_again_without_doubling_in_match_play() -> None:
    state = new_match(MatchRules(length=5))
    after = apply(state, OpeningRoll(Dice(4, 4)))
    assert after == state  # O2: roll again, nothing else changes


def test_match_refused_event_names_rule_and_changes_nothing() -> None:
    state = start_game(new_match(MatchRules(length=5)))
    assert state.turn == 1
    with pytest.raises(MatchError) as caught:
        apply(state, Roll(0, Dice(3, 2)))
    assert caught.value.rule == "D4"
    assert "player 1" in str(caught.value)
    assert apply(state, Roll(1, Dice(3, 2))).phase == Phase.MOVE


def test_match_illegal_play_refused_with_the_broken_rule() -> None:
    state = apply(new_match(MatchRules(length=5)), OpeningRoll(Dice(6, 5)))
    with pytest.raises(MatchError) as caught:
        apply(state, Played(0, Play.parse("6/off 6/1")))
    assert caught.value.rule == "E1"
    assert "6/off" in str(caught.value)


def test_match_unmarked_hit_at_a_written_stop_is_the_hitting_play() -> None:
    state = new_match(MatchRules(length=5))
    state = apply(state, OpeningRoll(Dice(4, 1)))
    # player 1 has a blot on their 11 (player 0's 14): 18/14 14/11 stops there and hits.
    state = board(state, {18: 1, 6: 14}, {11: 1, 6: 14})
    after = apply(state, Played(0, Play.parse("18/14 14/13")))
    assert after.position.me[25] == 1  # the hit checker is on player 1's bar


def test_match_pass_only_when_no_legal_move() -> None:
    state = start_game(new_match(MatchRules(length=5)))
    state = apply(state, Roll(1, Dice(6, 6)))
    with pytest.raises(MatchError) as caught:
        apply(state, Pass(1))
    assert caught.value.rule == "M6"
    closed = board(state, {25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 7: 3})
    assert apply(closed, Pass(1)).turn == 0  # M7


def test_match_single_gammon_backgammon_counted_times_cube() -> None:
    base = start_game(new_match(MatchRules(length=0)))
    base = apply(base, Roll(1, Dice(2, 1)))
    cases = [
        ({OFF_: 1, 20: 14}, 1),  # loser has borne off one: single
        ({13: 15}, 2),  # none off: gammon
        ({13: 14, 25: 1}, 3),  # none off, one on the bar: backgammon
        ({13: 14, 22: 1}, 3),  # none off, one in the winner's home board
    ]
    for loser, multiplier in cases:
        state = board(dataclasses.replace(base, cube=2, cube_owner=0), {1: 1, 2: 1}, _without_off(loser))
        end = apply(state, Played(1, Play.parse("2/off 1/off")))
        result = end.results[-1]
        assert (result.winner, result.multiplier, result.points) == (1, multiplier, 2 * multiplier)
        assert end.score == (0, 2 * multiplier)
        assert end.phase == Phase.OPENING and end.game == 2


OFF_ = 0


def _without_off(points: dict[int, int]) -> dict[int, int]:
    return {p: n for p, n in points.items() if p != OFF_}


def test_match_seed_000_profile_scores_no_backgammon() -> None:
    state = start_game(new_match(APP_MATCH))
    state = apply(state, Roll(1, Dice(2, 1)))
    state = board(state, {1: 1, 2: 1}, {13: 14, 25: 1})
    end = apply(state, Played(1, Play.parse("2/off 1/off")))
    assert end.results[-1].multiplier == 2  # S2 profile of 000: 1 or 2 only


def test_match_jacoby_counts_gammon_single_until_cube_turned() -> None:
    rules = MatchRules(jacoby=True)
    state = start_game(new_match(rules))
    state = apply(state, Roll(1, Dice(2, 1)))
    state = board(state, {1: 1, 2: 1}, {13: 15})
    assert apply(state, Played(1, Play.parse("2/off 1/off"))).results[-1].points == 1  # S5
    turned = dataclasses.replace(state, cube=2, cube_owner=0, cube_turned=True)
    assert apply(turned, Played(1, Play.parse("2/off 1/off"))).results[-1].points == 4


def test_match_crawford_game_has_no_cube_then_post_crawford_does() -> None:
    state = new_match(MatchRules(length=3))
    state = start_game(state, first=0)
    state = apply(state, Roll(1, Dice(6, 5)))
    state = board(state, {1: 1}, {13: 15})  # player 1 bears off a gammon: 2 points = 3 - 1
    state = apply(state, Played(1, Play.parse("1/off")))
    assert state.score == (0, 2) and state.crawford
    state = start_game(state, first=1)
    with pytest.raises(MatchError) as caught:
        apply(state, Double(0))
    assert caught.value.rule == "C5"
    state = apply(state, Resign(0, 1))
    state = apply(state, AcceptResign(1))
    assert state.phase == Phase.MATCH_OVER and state.winner == 1 and state.score == (0, 3)


def test_match_post_crawford_trailer_may_double() -> None:
    state = new_match(MatchRules(length=3), score=(0, 2), crawford_played=True)
    state = start_game(state, first=1)
    assert state.post_crawford and not state.crawford
    state = apply(state, Double(0))
    state = apply(state, Take(1))
    assert (state.cube, state.cube_owner) == (2, 1)


def test_match_crawford_off_allows_double_at_match_point() -> None:
    state = new_match(MatchRules(length=3, crawford=False), score=(0, 2))
    state = start_game(state, first=1)
    assert apply(state, Double(0)).phase == Phase.DOUBLED


def test_match_resignation_refused_then_accepted() -> None:
    state = start_game(new_match(MatchRules(length=7)))
    state = apply(state, Resign(1, 2))
    assert state.phase == Phase.RESIGNING and state.actor == 0
    refused = apply(state, RefuseResign(0))
    assert refused.phase == Phase.ROLL and refused.turn == 1
    with pytest.raises(MatchError) as caught:
        apply(state, AcceptResign(1))
    assert caught.value.rule == "S3"
    accepted = apply(apply(refused, Resign(1, 3)), AcceptResign(0))
    assert accepted.results[-1].ending == Ending.RESIGN and accepted.score == (3, 0)


def test_match_app_resignation_counts_gammon_when_none_borne_off() -> None:
    state = start_game(new_match(APP_MATCH))
    state = apply(state, Resign(1, 1))  # S3 of 000: no offer, counted at once
    assert state.score == (2, 0)
    state = start_game(state)
    state = board(state, {6: 14}, {6: 14})
    state = apply(state, Resign(1, 1))
    assert state.score == (3, 0)


def test_match_time_out_gives_gammon_or_match() -> None:
    state = start_game(new_match(MatchRules(length=7)))
    out = apply(state, TimeOut(1))
    assert out.results[-1].points == 2 and out.results[-1].ending == Ending.TIMEOUT
    with pytest.raises(MatchError) as caught:
        apply(state, TimeOut(0))  # player 0's clock is not running
    assert caught.value.rule == "T3"
    tournament = start_game(new_match(MatchRules(length=7, flag=FlagOutcome.MATCH)))
    over = apply(tournament, TimeOut(1))
    assert over.phase == Phase.MATCH_OVER and over.winner == 0 and over.score == (7, 0)


def test_match_accepted_illegal_play_keeps_what_is_on_the_board() -> None:
    state = apply(new_match(MatchRules(length=5)), OpeningRoll(Dice(3, 1)))
    start = state.position
    me = list(start.me)
    me[8] -= 1
    me[3] += 1  # 8/3 with 3-1: illegal, accepted by the opponent (X1)
    seen = Position(tuple(me), start.them)
    with pytest.raises(MatchError):
        apply(state, Played(0, Play.parse("8/3"), after=seen))
    after = apply(state, Played(0, Play.parse("8/3"), after=seen, accepted_illegal=True))
    assert after.position == seen.swap() and after.turn == 1


def test_match_options_say_who_acts() -> None:
    state = new_match(MatchRules(length=5))
    assert [str(o) for o in state.options()] == ["both may roll the opening"]
    state = start_game(state)
    assert state.actor == 1
    assert {(o.player, o.event) for o in state.options()} >= {(1, Double), (1, Roll)}
    state = apply(state, Double(1))
    assert state.actor == 0 and {o.event for o in state.options() if o.player == 0} == {Take, Drop}


@pytest.mark.parametrize("rules", [STANDARD, NACKGAMMON, HYPERGAMMON, LONG_NARDY], ids=lambda r: r.name)
def test_match_each_variant_plays_whole_games(rules: object) -> None:
    assert rules is not None
    settings = MatchRules(rules=rules, length=3)  # type: ignore[arg-type]
    rng = random.Random(3)
    state = new_match(settings)
    while state.phase != Phase.MATCH_OVER:
        state = play_game(state, rng)
    assert max(state.score) >= 3
    multipliers = {r.multiplier for r in state.results}
    allowed = {1, 2} if not settings.rules.backgammons else {1, 2, 3}
    assert multipliers <= allowed
    assert sum(r.points for r in state.results) == sum(state.score)


def test_match_long_nardy_has_no_cube_unless_turned_on() -> None:
    state = start_game(new_match(MatchRules(rules=LONG_NARDY, length=5)))
    with pytest.raises(MatchError) as caught:
        apply(state, Double(1))
    assert caught.value.rule == "V3"
    with_cube = dataclasses.replace(LONG_NARDY, cube=True)
    state = start_game(new_match(MatchRules(rules=with_cube, length=5)))
    assert apply(state, Double(1)).phase == Phase.DOUBLED


def test_match_long_nardy_mars_scores_two() -> None:
    state = start_game(new_match(MatchRules(rules=LONG_NARDY, length=5)))
    state = apply(state, Roll(1, Dice(2, 1)))
    state = board(state, {1: 1, 2: 1}, {20: 15})
    end = apply(state, Played(1, Play.parse("2/off 1/off")))
    assert end.results[-1].points == 2


def test_match_settings_refuse_money_options_in_match_play() -> None:
    with pytest.raises(MatchError) as caught:
        MatchRules(length=5, beavers=True)
    assert caught.value.rule == "C5"


def test_match_side_helper_counts_off() -> None:
    assert side({6: 5})[0] == 10
