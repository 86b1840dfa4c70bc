"""The electronic dice: fair, from an injected source (secrets by default)."""

from __future__ import annotations

import random
import secrets
from collections import Counter

from engine.dice import Dice
from firmware.dice import DiceRoller


def test_dice_default_source_is_the_os_secrets() -> None:
    roller = DiceRoller()
    assert isinstance(roller._rng, secrets.SystemRandom)
    for _ in range(50):
        dice = roller.roll()
        assert 1 <= dice.first <= 6 and 1 <= dice.second <= 6


def test_dice_same_seed_same_rolls() -> None:
    a, b = DiceRoller(rng=random.Random(5)), DiceRoller(rng=random.Random(5))
    assert [a.roll() for _ in range(20)] == [b.roll() for _ in range(20)]
    assert a.opening() == b.opening()


def test_dice_faces_are_fair() -> None:
    roller = DiceRoller(rng=random.Random(11))
    counts: Counter[int] = Counter()
    n = 6000
    for _ in range(n):
        dice = roller.roll()
        assert isinstance(dice, Dice)
        counts[dice.first] += 1
        counts[dice.second] += 1
    expected = 2 * n / 6
    chi2 = sum((counts[face] - expected) ** 2 / expected for face in range(1, 7))
    assert set(counts) == set(range(1, 7))
    assert chi2 < 20.5  # 5 degrees of freedom, p = 0.001
