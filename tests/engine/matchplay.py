"""Helpers for scripted matches: set up boards near the end, play whole games."""

from __future__ import annotations

import dataclasses
import random

from engine.dice import Dice
from engine.legal import legal_plays
from engine.match import MatchState, OpeningRoll, Pass, Phase, Played, Roll, apply
from engine.position import Position
from engine.rules import OFF, STANDARD, Rules


def side(points: dict[int, int], rules: Rules = STANDARD) -> tuple[int, ...]:
    """A 26-slot side with ``points`` ({point: checkers}, 25 = bar); the rest borne off."""
    slots = [0] * 26
    for point, count in points.items():
        slots[point] = count
    slots[OFF] = rules.checkers - sum(slots)
    return tuple(slots)


def board(state: MatchState, me: dict[int, int], them: dict[int, int]) -> MatchState:
    """``state`` with the board set to ``me`` (the player on turn) and ``them``."""
    rules = state.settings.rules
    return dataclasses.replace(state, position=Position(side(me, rules), side(them, rules)))


def start_game(state: MatchState, *, first: int = 0) -> MatchState:
    """Roll the opening so ``first`` moves with 3-1, and play 8/5 6/5 (or the first legal play)."""
    dice = Dice(3, 1) if first == 0 else Dice(1, 3)
    state = apply(state, OpeningRoll(dice))
    assert state.dice is not None
    play = legal_plays(state.position, state.dice, state.settings.rules)[0].play
    return apply(state, Played(first, play))


def play_game(state: MatchState, rng: random.Random, *, max_turns: int = 2000) -> MatchState:
    """Play the current game to its end with random legal plays and no cube."""
    game = state.game
    while state.phase == Phase.OPENING and state.game == game:
        state = apply(state, OpeningRoll(Dice(rng.randint(1, 6), rng.randint(1, 6))))
    for _ in range(max_turns):
        if state.game != game or state.phase == Phase.MATCH_OVER:
            return state
        assert state.turn is not None
        if state.phase == Phase.ROLL:
            state = apply(state, Roll(state.turn, Dice(rng.randint(1, 6), rng.randint(1, 6))))
        assert state.dice is not None
        plays = legal_plays(state.position, state.dice, state.settings.rules)
        choice = rng.choice(plays)
        state = apply(state, Played(state.turn, choice.play) if choice.play else Pass(state.turn))
    raise AssertionError(f"game {game} did not end in {max_turns} turns")
