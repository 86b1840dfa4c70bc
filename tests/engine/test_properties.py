"""Hypothesis properties of positions, formats and legal plays."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.dice import Dice
from engine.legal import legal_plays
from engine.play import Play
from engine.position import Position
from engine.rules import BAR, OFF
from engine.xgid import Xgid
from tests.engine.randpos import SHAPES, random_position

positions = st.builds(
    lambda seed, shape: random_position(random.Random(seed), shape),
    st.integers(0, 2**32),
    st.sampled_from(SHAPES),
)
dice = st.builds(Dice, st.integers(1, 6), st.integers(1, 6))


@given(positions)
def test_position_id_round_trip(position: Position) -> None:
    assert Position.from_id(position.position_id()) == position


@given(positions, st.booleans(), st.integers(0, 6), st.integers(0, 6))
def test_xgid_round_trip(position: Position, bottom: bool, cube_log: int, score: int) -> None:
    x = Xgid(position=position, bottom_on_roll=bottom, cube=1 << cube_log, score_bottom=score, match_length=7)
    again = Xgid.parse(str(x))
    assert again == x
    assert Position.parse(str(x)) == position


@given(positions)
def test_xgid_mirror_gives_the_same_position(position: Position) -> None:
    """The board written with top and bottom exchanged, the other player on roll."""
    text = str(Xgid(position=position))
    fields = text[5:].split(":")
    fields[0] = fields[0][::-1].swapcase()
    fields[3] = "-1"
    assert Position.parse("XGID=" + ":".join(fields)) == position


@given(positions, dice)
@settings(max_examples=300)
def test_every_play_conserves_checkers_and_moves_the_dice(position: Position, roll: Dice) -> None:
    plays = legal_plays(position, roll)
    most = max(len(lp.play.moves) for lp in plays)
    for lp in plays:
        assert sum(lp.after.me) == 15 and sum(lp.after.them) == 15
        assert lp.after.them[OFF] == position.them[OFF]
        hits = sum(1 for m in lp.play.moves if m.hit)
        assert lp.after.them[BAR] == position.them[BAR] + hits
        used = len(lp.play.moves)
        assert used == most  # M6: every play uses as many dice as any other
        pips = position.pips()[0] - lp.after.pips()[0]
        if not lp.after.me[OFF] - position.me[OFF]:
            dice_used = sum(m.start - m.end for m in lp.play.moves)
            assert pips == dice_used
            assert sorted(m.start - m.end for m in lp.play.moves) == sorted(roll.moves[:used]) or not roll.is_double
        assert Play.parse(str(lp.play)) is not None


@given(positions, dice)
@settings(max_examples=300)
def test_no_play_leaves_a_playable_die(position: Position, roll: Dice) -> None:
    """M6 maximality: after a play that leaves a die unused, that die cannot be played."""
    for lp in legal_plays(position, roll):
        used = len(lp.play.moves)
        if used == len(roll.moves):
            continue
        if roll.is_double:
            left = roll.first
        elif used == 0:
            left = roll.high
        else:
            move = lp.play.moves[0]
            step = move.start - move.end
            played_high = step == roll.high or (move.end == 0 and roll.high > step)  # E2 over-bear
            left = roll.low if played_high else roll.high
            assert played_high or not legal_plays(position, Dice(roll.high, roll.high))[0].play  # larger die first
        assert not legal_plays(lp.after, Dice(left, left))[0].play


@given(positions, dice)
@settings(max_examples=200)
def test_play_text_round_trips(position: Position, roll: Dice) -> None:
    for lp in legal_plays(position, roll):
        assert str(Play.parse(str(lp.play))) == str(lp.play)
