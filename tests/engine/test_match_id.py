"""GNU Backgammon Match ID: the manual's example and IDs printed by gnubg 1.07 itself."""

from __future__ import annotations

import pytest

from engine.dice import Dice
from engine.errors import NotationError
from engine.match import Double, MatchRules, OpeningRoll, apply, new_match
from engine.match_id import GameState, MatchKey, match_id
from tests.engine.matchplay import start_game

# Printed by `gnubg -t` (1.07.001): `set jacoby off`, `new session` (player 0 opens 4-1);
# `set jacoby on`, `new session` (player 1 opens 6-4); `new match 5` (player 1 opens 6-5;
# and before the roll).
GNUBG_IDS = {
    "MAEGAAAAAAAE": (0, False, 0, (4, 1)),
    "cAkTAAAAAAAA": (0, True, 1, (6, 4)),
    "cAm3AAAAAAAE": (5, False, 1, (6, 5)),
    "MAGgAAAAAAAE": (5, False, 0, (0, 0)),
}


def test_match_id_manual_example() -> None:
    key = MatchKey.decode("QYkqASAAIAAA")
    assert (key.cube, key.cube_owner, key.dice_owner, key.turn) == (2, 0, 1, 1)
    assert (key.dice, key.length, key.score, key.state) == ((5, 2), 9, (2, 4), GameState.PLAYING)
    assert key.encode() == "QYkqASAAIAAA"


@pytest.mark.parametrize("text", sorted(GNUBG_IDS))
def test_match_id_gnubg_ids_decode_and_encode(text: str) -> None:
    length, jacoby, mover, dice = GNUBG_IDS[text]
    key = MatchKey.decode(text)
    assert (key.length, key.jacoby, key.dice_owner, key.dice) == (length, jacoby, mover, dice)
    assert key.cube == 1 and key.cube_owner is None
    assert key.encode() == text


def test_match_id_of_referee_state_matches_gnubg() -> None:
    money_jacoby = apply(new_match(MatchRules(jacoby=True)), OpeningRoll(Dice(4, 6)))
    assert match_id(money_jacoby) == "cAkTAAAAAAAA"
    money = apply(new_match(MatchRules()), OpeningRoll(Dice(4, 1)))
    assert match_id(money) == "MAEGAAAAAAAE"
    five = apply(new_match(MatchRules(length=5)), OpeningRoll(Dice(5, 6)))
    assert match_id(five) == "cAm3AAAAAAAE"


def test_match_id_double_offered_turns_the_decision() -> None:
    state = apply(start_game(new_match(MatchRules(length=7))), Double(1))
    key = MatchKey.decode(match_id(state))
    assert key.doubled and key.dice_owner == 1 and key.turn == 0 and key.dice == (0, 0)


@pytest.mark.parametrize("text", ["", "QYkqASAAIAA", "QYkqASAAIAA!", "/////////////"[:12]])
def test_match_id_rejects_what_is_not_one(text: str) -> None:
    with pytest.raises(NotationError):
        MatchKey.decode(text)


def test_match_state_xgid_has_every_field() -> None:
    from engine.xgid import Xgid

    state = apply(start_game(new_match(MatchRules(length=7, max_cube=16))), Double(1))
    text = state.xgid()
    parsed = Xgid.parse(text)
    assert (parsed.cube_action, parsed.bottom_on_roll, parsed.match_length, parsed.max_cube) == ("double", False, 7, 16)
    assert parsed.position == state.position_of(1)
    rolled = apply(new_match(MatchRules(jacoby=True)), OpeningRoll(Dice(6, 2)))
    money = Xgid.parse(rolled.xgid())
    assert money.dice == (6, 2) and money.jacoby and money.bottom_on_roll and money.position == rolled.position
