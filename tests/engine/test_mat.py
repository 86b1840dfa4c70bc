"""Jellyfish .mat records: reading what real exporters write, replaying, writing back."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.mat import (
    DOUBLE,
    DROP,
    ROLL,
    TAKE,
    WIN,
    MatFormatError,
    ReplayError,
    format_record,
    parse,
    record_from_events,
    replay,
)
from engine.match import MatchState, Phase, apply, new_match

DATA = Path(__file__).resolve().parents[1] / "data" / "mat"
GNUBG_FILES = sorted(DATA.glob("gnubg-selfplay-*.mat"))

OVERFLOW = """\
; [Crawford "On"]
; [CubeLimit "1024"]

 3 point match

 Game 1
 Alice : 0                          Bob : 0
  1)                                31: 8/5 6/5
  2) 42: 8/4 6/4                    66: 24/18(2) 13/7(2)
  3) 62: Cannot Move                 Doubles => 2
  4)  Takes                          55: 13/3(2)
  5) 33: 25/22 25/22 24/21 24/21  Doubles => 4
  6)  Drops                         Wins 2 points
"""


def test_mat_reads_cells_by_what_they_say_even_when_columns_overflow() -> None:
    record = parse(OVERFLOW)
    assert record.length == 3 and record.players == ("Alice", "Bob") and record.tag("crawford") == "On"
    kinds = [(a.player, a.kind) for a in record.games[0].actions]
    assert kinds == [
        (1, ROLL),
        (0, ROLL),
        (1, ROLL),
        (0, ROLL),
        (1, DOUBLE),
        (0, TAKE),
        (1, ROLL),
        (0, ROLL),
        (1, DOUBLE),
        (0, DROP),
        (1, WIN),
    ]
    actions = record.games[0].actions
    assert actions[4].play == ""  # 'Cannot Move'
    assert actions[8].value == 4


def test_mat_gnubg_row_that_overflows_into_the_other_column() -> None:
    record = parse((DATA / "gnubg-selfplay-7pt-seed11.mat").read_text())
    row = [a for a in record.games[0].actions if a.number == 15]
    assert [(a.player, str(a.dice), a.play) for a in row] == [
        (0, "55", "22/17 22/17 17/12 17/12"),
        (1, "43", "7/3 7/4"),
    ]


@pytest.mark.parametrize("path", GNUBG_FILES, ids=lambda p: p.name)
def test_mat_gnubg_selfplay_replays_consistent(path: Path) -> None:
    record = parse(path.read_text())
    replayed = replay(record)
    assert replayed.state.phase == Phase.MATCH_OVER
    assert max(replayed.state.score) >= record.length


def test_mat_wrong_move_is_named_with_game_move_and_rule() -> None:
    with pytest.raises(ReplayError) as caught:
        replay(parse((DATA / "broken-wrong-move.mat").read_text()))
    error = caught.value
    assert (error.game, error.move, error.rule) == (1, 9, "D1")
    assert "13/9 7/1" in str(error)


def test_mat_wrong_score_is_named() -> None:
    with pytest.raises(ReplayError) as caught:
        replay(parse((DATA / "broken-wrong-score.mat").read_text()))
    assert (caught.value.game, caught.value.rule) == (1, "S2")
    assert "Wins 4" in str(caught.value)


def test_mat_unreadable_line_is_named() -> None:
    with pytest.raises(MatFormatError) as caught:
        parse((DATA / "broken-unreadable.mat").read_text())
    assert caught.value.line == 10


def test_mat_resignation_accepted_when_points_fit_the_cube() -> None:
    text = """ 5 point match

 Game 1
 a : 0                          b : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Takes                      42: 8/4 6/4
  3)                             Wins 4 points
"""
    state = replay(parse(text)).state
    assert state.score == (0, 4) and state.results[-1].multiplier == 2
    with pytest.raises(ReplayError) as caught:
        replay(parse(text.replace("Wins 4 points", "Wins 3 points")))
    assert caught.value.rule == "S3"


def test_mat_score_line_must_follow_the_games() -> None:
    text = """ 5 point match

 Game 1
 a : 0                          b : 0
  1) 31: 8/5 6/5                 Doubles => 2
  2)  Drops                      Wins 1 point

 Game 2
 a : 2                          b : 0
  1) 31: 8/5 6/5
"""
    with pytest.raises(ReplayError) as caught:
        replay(parse(text))
    assert (caught.value.game, caught.value.rule) == (2, "C5")


def _states(record_text: str) -> list[tuple[object, ...]]:
    """Every state of a replay: (game, phase, score, position from player 0, cube, owner)."""
    record = parse(record_text)
    state: MatchState = new_match(record.settings())
    out = []
    for game in replay(record).events:
        for event in game:
            state = apply(state, event)
            out.append((state.game, state.phase, state.score, state.position_of(0), state.cube, state.cube_owner))
    return out


@pytest.mark.parametrize("path", GNUBG_FILES, ids=lambda p: p.name)
def test_mat_written_record_replays_to_the_same_games(path: Path) -> None:
    text = path.read_text()
    record = parse(text)
    replayed = replay(record)
    written, substitutions = record_from_events(record.settings(), replayed.events, players=record.players)
    assert not substitutions
    again = format_record(written)
    assert _states(again) == _states(text)


def test_mat_money_session_with_beaver_round_trips() -> None:
    from engine.dice import Dice
    from engine.match import AcceptResign, Beaver, Double, MatchRules, OpeningRoll, Played, Resign, Roll, Take
    from engine.play import Play

    events = [
        OpeningRoll(Dice(3, 1)),
        Played(0, Play.parse("8/5 6/5")),
        Double(1),
        Beaver(0),
        Take(1),
        Roll(1, Dice(6, 5)),
        Played(1, Play.parse("24/13")),
        Resign(0, 1),
        AcceptResign(1),
    ]
    record, _ = record_from_events(MatchRules(beavers=True, jacoby=True), [events])
    text = format_record(record)
    assert " 0 point match" in text and "Beavers => 4" in text and "Wins 4 points" in text
    again = replay(parse(text))
    assert again.state.score == (0, 4) and again.state.results[-1].cube == 4


def test_mat_reads_a_byte_order_mark_and_crlf() -> None:
    text = "\ufeff" + (DATA / "gnubg-selfplay-7pt-seed11.mat").read_text().replace("\n", "\r\n")
    assert replay(parse(text)).state.phase == Phase.MATCH_OVER
