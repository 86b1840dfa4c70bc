"""Golden legal-play cases for every rule ID and option (tests/engine/golden.txt);
standard-rule cases are also confirmed against GNU Backgammon."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.dice import Dice
from engine.legal import legal_plays
from engine.rules import find_variant, with_named_options
from tests.engine.boards import board

GOLDEN = Path(__file__).with_name("golden.txt")


def cases() -> list[tuple[str, ...]]:
    rows = []
    for line in GOLDEN.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            rows.append(tuple(field.strip() for field in line.split(";")))
    return rows


@pytest.mark.parametrize("case", cases(), ids=lambda c: f"{c[0]}-{c[5]}-{c[3]}")
def test_golden_legal_plays(case: tuple[str, ...]) -> None:
    variant, options, text, dice, count, _rule, *plays = case
    rules = with_named_options(find_variant(variant), options.split() if options else [])
    position = board(text, rules)
    found = {str(lp.play) for lp in legal_plays(position, Dice.parse(dice), rules)}
    assert len(found) == int(count), sorted(found)
    for play in filter(None, plays):
        if play.startswith("!"):
            assert play[1:] not in found
        else:
            assert play in found, sorted(found)


@pytest.mark.parametrize("case", [c for c in cases() if c[0] in ("standard", "nackgammon", "hypergammon") and not c[1]])
def test_golden_counts_agree_with_gnubg(case: tuple[str, ...]) -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn", reason="gnubg-nn is a test dependency: pip install -e '.[dev]'")
    rules = find_variant(case[0])
    position = board(case[2], rules)
    dice = Dice.parse(case[3])
    results = gnubg_nn.moves([list(position.them[1:26]), list(position.me[1:26])], dice.first, dice.second)
    assert max(len(results), 1) == int(case[4])
