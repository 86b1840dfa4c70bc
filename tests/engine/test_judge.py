"""Judging moves: legal plays are recognised, illegal ones carry every reason
with its rule ID and the nearest legal plays."""

from __future__ import annotations

import pytest

from engine.dice import Dice
from engine.judge import differing_points, judge
from engine.legal import find_play, legal_plays
from engine.play import Play
from engine.position import Position
from engine.rules import LONG_NARDY, STANDARD, Rules, find_variant
from tests.engine.boards import board

START = Position.start()


def moved(position: Position, text: str, *, hits: tuple[int, ...] = ()) -> Position:
    """The board after moving checkers as written, whatever the rules say."""
    me = list(position.me)
    them = list(position.them)
    for move in Play.parse(text).moves:
        me[move.start] -= 1
        me[move.end] += 1
    for point in hits:
        them[25 - point] -= 1
        them[25] += 1
    return Position(tuple(me), tuple(them))


def rules_of(judgement_reasons: tuple[object, ...]) -> list[str]:
    return [r.rule for r in judgement_reasons]  # type: ignore[attr-defined]


def test_judge_legal_play_is_named() -> None:
    j = judge(START, Dice(3, 1), moved(START, "8/5 6/5"))
    assert j.legal and str(j.play) == "8/5 6/5" and not j.reasons


def test_judge_every_legal_outcome_is_legal() -> None:
    for dice in ("31", "66", "52", "41"):
        for lp in legal_plays(START, Dice.parse(dice)):
            assert judge(START, Dice.parse(dice), lp.after).legal


@pytest.mark.parametrize(
    ("text", "before", "dice", "after_play", "rule"),
    [
        ("blocked landing point", "24:2,13:5,8:3,6:5 | 24:2,13:5,8:3,6:5", "66", "24/12 24/18 13/7", "M2"),
        ("jumped a blocked stop", "24:2,13:5,8:3,6:5 | 24:2,13:5,8:3,6:5", "66", "24/6 13/7", "D3"),
        ("moved while on the bar", "bar:1,13:5,8:4,6:5 | 24:2,13:5,8:3,6:5", "31", "13/10 8/7", "M4"),
        ("die left unused", "24:2,13:5,8:3,6:5 | 24:2,13:5,8:3,6:5", "31", "13/10", "M6"),
        ("smaller die played", "12:1 | 24:2,6:13", "65", "12/7", "M6"),
        ("bore off from outside", "13:1,6:14 | 13:15", "61", "6/off 13/12", "E1"),
        ("over-bore with a higher point", "6:1,2:1,1:13 | 13:15", "54", "2/off 1/off", "E2"),
    ],
)
def test_judge_names_the_broken_rule(text: str, before: str, dice: str, after_play: str, rule: str) -> None:
    position = board(before)
    j = judge(position, Dice.parse(dice), moved(position, after_play))
    assert not j.legal, text
    assert rule in rules_of(j.reasons), (text, j.reasons)
    assert j.nearest


def test_judge_smaller_die_message_says_larger_was_required() -> None:
    position = board("12:1 | 24:2,6:13")
    j = judge(position, Dice(6, 5), moved(position, "12/7"))
    assert "larger (6) was required" in j.reasons[0].message
    assert [str(lp.play) for lp in j.nearest] == ["12/6"]


def test_judge_checker_count_changed() -> None:
    me = list(START.me)
    me[6] -= 1  # a checker vanished from the board
    j = judge(START, Dice(3, 1), Position(tuple(me), START.them))
    assert rules_of(j.reasons) == ["B4"]


def test_judge_opponent_checkers_moved() -> None:
    them = list(START.them)
    them[6] -= 1
    them[5] += 1
    j = judge(START, Dice(3, 1), Position(moved(START, "8/5 6/5").me, tuple(them)))
    assert rules_of(j.reasons) == ["D1"]
    assert "not on roll" in j.reasons[0].message


def test_judge_move_that_matches_no_dice() -> None:
    j = judge(START, Dice(3, 1), moved(START, "13/8"))
    assert rules_of(j.reasons) == ["D1"]
    assert "3-1" in j.reasons[0].message


def test_judge_nearest_plays_differ_least() -> None:
    seen = moved(START, "8/5 6/4")  # 6/5 mistaken for 6/4
    j = judge(START, Dice(3, 1), seen)
    best = differing_points(j.nearest[0].after, seen)
    assert all(differing_points(lp.after, seen) >= best for lp in legal_plays(START, Dice(3, 1)))
    assert "8/5 6/5" in {str(lp.play) for lp in j.nearest}


@pytest.mark.parametrize(
    ("rules", "before", "dice", "after_play", "rule"),
    [
        (find_variant("app"), "4:1,1:1 | 13:15", "62", "4/2/off", "E5"),
        (STANDARD.with_options(no_hit_and_run=True), "13:14,9:1 | 24:14,19:1", "32", "9/6*/4", "H1"),
        (LONG_NARDY, "24:15 | 24:15", "65", "24/18 24/19", "V3"),
    ],
)
def test_judge_options_and_variants(rules: Rules, before: str, dice: str, after_play: str, rule: str) -> None:
    position = board(before, rules)
    hits = tuple(m.end for m in Play.parse(after_play).moves if m.hit)
    j = judge(position, Dice.parse(dice), moved(position, after_play, hits=hits), rules)
    assert not j.legal
    assert rule in rules_of(j.reasons), j.reasons


def test_find_play_reads_what_programs_write() -> None:
    assert str(find_play(START, Dice(6, 5), "24/13").play) == "24/13"  # type: ignore[union-attr]
    assert str(find_play(START, Dice(3, 3), "13/10(2) 6/3(2)").play) == "13/10(2) 6/3(2)"  # type: ignore[union-attr]
    assert find_play(START, Dice(3, 3), "8/5 8/5 6/3 6/3") is not None
    assert find_play(START, Dice(6, 5), "24/14") is None
    entering = board("bar:1,6:14 | 13:15")
    assert find_play(entering, Dice(3, 1), "25/22 6/5") is not None
    assert find_play(entering, Dice(3, 1), "Bar/22 6/5") is not None
