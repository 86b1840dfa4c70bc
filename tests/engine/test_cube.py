"""The doubling cube: offers, takes, drops, beavers, limits, automatic doubles (C1-C5, O2)."""

from __future__ import annotations

import dataclasses

import pytest

from engine.dice import Dice
from engine.match import (
    Beaver,
    Double,
    Drop,
    MatchError,
    MatchRules,
    OpeningRoll,
    Phase,
    Roll,
    Take,
    apply,
    new_match,
)
from engine.scoring import Ending
from tests.engine.matchplay import start_game


def test_cube_take_doubles_and_gives_ownership() -> None:
    state = start_game(new_match(MatchRules(length=7)))
    state = apply(apply(state, Double(1)), Take(0))
    assert (state.cube, state.cube_owner, state.phase, state.turn) == (2, 0, Phase.ROLL, 1)
    with pytest.raises(MatchError) as caught:
        apply(state, Double(1))  # C1: the cube belongs to player 0 now
    assert caught.value.rule == "C1"


def test_cube_drop_loses_the_stake_before_the_double() -> None:
    state = start_game(new_match(MatchRules(length=7)))
    state = dataclasses.replace(state, cube=2, cube_owner=1)
    state = apply(apply(state, Double(1)), Drop(0))
    result = state.results[-1]
    assert (result.winner, result.points, result.ending) == (1, 2, Ending.DROP)
    assert state.score == (0, 2) and state.phase == Phase.OPENING


def test_cube_only_before_rolling() -> None:
    state = start_game(new_match(MatchRules(length=7)))
    rolled = apply(state, Roll(1, Dice(5, 2)))
    with pytest.raises(MatchError) as caught:
        apply(rolled, Double(1))
    assert caught.value.rule == "C1"


def test_cube_maximum_value() -> None:
    state = start_game(new_match(MatchRules(max_cube=4)))
    state = dataclasses.replace(state, cube=4, cube_owner=1)
    with pytest.raises(MatchError) as caught:
        apply(state, Double(1))
    assert caught.value.rule == "C3"


def test_cube_beaver_taken_by_doubler() -> None:
    state = start_game(new_match(MatchRules(beavers=True)))
    state = apply(apply(state, Double(1)), Beaver(0))
    assert state.phase == Phase.BEAVERED and state.actor == 1
    state = apply(state, Take(1))
    assert (state.cube, state.cube_owner, state.phase, state.turn) == (4, 0, Phase.ROLL, 1)


def test_cube_beaver_refused_by_doubler_loses_the_doubled_stake() -> None:
    state = start_game(new_match(MatchRules(beavers=True)))
    state = apply(apply(apply(state, Double(1)), Beaver(0)), Drop(1))
    result = state.results[-1]
    assert (result.winner, result.points, result.ending) == (0, 2, Ending.BEAVER_REFUSED)


def test_cube_beaver_needs_the_option() -> None:
    state = apply(start_game(new_match(MatchRules())), Double(1))
    with pytest.raises(MatchError) as caught:
        apply(state, Beaver(0))
    assert caught.value.rule == "C4"


def test_cube_automatic_doubles_up_to_the_limit() -> None:
    state = new_match(MatchRules(automatic_doubles=2))
    for _ in range(3):
        state = apply(state, OpeningRoll(Dice(5, 5)))
    assert (state.cube, state.cube_owner, state.phase) == (4, None, Phase.OPENING)
    state = apply(state, OpeningRoll(Dice(6, 1)))
    assert state.cube == 4 and state.turn == 0
    assert not state.cube_turned  # automatic doubles are not a turned cube (S5)
