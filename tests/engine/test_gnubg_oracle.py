"""Cross-check of the legal-play generator against GNU Backgammon's own
(gnubg-nn): 20,000 seeded random positions of every shape, zero disagreements."""

from __future__ import annotations

import random

import pytest

from engine.dice import Dice
from engine.legal import count_legal, legal_plays
from engine.position import Position, status
from tests.engine.randpos import SHAPES, random_position

gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn is a test dependency: pip install -e '.[dev]'")

CASES_PER_SHAPE = 4000


def gnubg_results(position: Position, dice: Dice) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    board = [list(position.them[1:26]), list(position.me[1:26])]
    results = set()
    for key in gnubg_nn.moves(board, dice.first, dice.second):
        theirs, mine = gnubg_nn.board_from_position_key(key)
        results.add((tuple(theirs), tuple(mine)))
    return results or {(position.them[1:26], position.me[1:26])}


@pytest.mark.parametrize("shape", SHAPES)
def test_legal_plays_agree_with_gnubg(shape: str) -> None:
    rng = random.Random(f"gnubg-{shape}")
    disagreements = []
    doubles = 0
    for _ in range(CASES_PER_SHAPE):
        position = random_position(rng, shape)
        assert not status(position)
        dice = Dice(rng.randint(1, 6), rng.randint(1, 6))
        doubles += dice.is_double
        ours = {(lp.after.them[1:26], lp.after.me[1:26]) for lp in legal_plays(position, dice)}
        if ours != gnubg_results(position, dice) or len(ours) != count_legal(position, dice):
            disagreements.append(f"{position.position_id()} {dice}")
    assert doubles > CASES_PER_SHAPE // 10
    assert disagreements == []


def test_position_id_agrees_with_gnubg() -> None:
    rng = random.Random("ids")
    for _ in range(2000):
        position = random_position(rng)
        board = [list(position.them[1:26]), list(position.me[1:26])]
        assert position.position_id() == gnubg_nn.position_id(board)
        assert Position.from_id(gnubg_nn.position_id(board)) == position
