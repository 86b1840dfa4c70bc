"""A seeded random money game through a TimedMatch, as a referee would drive it."""

from __future__ import annotations

import random
from collections.abc import Iterator

from engine.dice import Dice
from engine.legal import legal_plays
from engine.match import Event, OpeningRoll, Pass, Phase, Played, Roll, TimedMatch


def random_events(timed: TimedMatch, rng: random.Random) -> Iterator[Event]:
    """Endless legal events for ``timed`` as it is updated by the caller (send nothing back)."""
    state = timed.state
    while True:
        if state.phase == Phase.OPENING:
            event: Event = OpeningRoll(Dice(rng.randint(1, 6), rng.randint(1, 6)))
        elif state.phase == Phase.ROLL:
            assert state.turn is not None
            event = Roll(state.turn, Dice(rng.randint(1, 6), rng.randint(1, 6)))
        else:
            assert state.turn is not None and state.dice is not None
            choice = rng.choice(legal_plays(state.position, state.dice, state.settings.rules))
            event = Played(state.turn, choice.play) if choice.play else Pass(state.turn)
        state = yield event
