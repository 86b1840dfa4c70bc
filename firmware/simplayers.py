"""Two simulated players at a synthetic table, for ``nardref demo`` and the tests.

:class:`SimPlayers` is an :class:`~firmware.loop.Actor`: each time the loop
calls it, it looks at what the referee shows (its state, as the LEDs show
it) and acts as two people would, after a moment to think: it sets up the
board, presses the buttons through the simulated :class:`ButtonPanel` (the
real gpiozero code on a ``MockFactory``), moves checkers on the table by
showing the new board to the :class:`~vision.capture.SyntheticSource` (with a
hand over the board while moving), doubles and takes now and then.

Scripted once per match, so the demo shows what the referee is for:

- the first set-up has one checker on the wrong point, fixed a moment later;
- one illegal move (a checker one pip off), which the referee catches; the
  mover then corrects it;
- one turn where the mover presses "done" with a hand still over the board,
  which the referee waits out;
- one camera drop-out (:class:`FlakyCamera`): the clock pauses until it is back.

Everything random comes from ``rng``.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.dice import Dice
from engine.judge import judge
from engine.legal import LegalPlay, legal_plays
from engine.match import Phase
from engine.position import Position
from engine.rules import BAR, OFF
from firmware import referee as ref
from vision.capture import CameraError
from vision.layout import Layout, layout_from_position

if TYPE_CHECKING:
    from firmware.hardware.buttons import ButtonPanel
    from firmware.loop import RefereeLoop
    from vision.capture import Frame, SyntheticSource

__all__ = ["FlakyCamera", "SimPlayers", "choose_play", "near_miss"]

log = logging.getLogger(__name__)


#: How the demo's players sit: player 0 light at the bottom, home boards on the right.
DEMO_SEATING = ref.Seating(("light", "dark"), "right")


class FlakyCamera:
    """A frame source that can be unplugged for a while (a loose ribbon cable)."""

    def __init__(self, source: SyntheticSource, *, clock: Callable[[], float]) -> None:
        self.source = source
        self._clock = clock
        self._gone_until_s = -1.0

    def unplug(self, seconds: float) -> None:
        self._gone_until_s = self._clock() + seconds

    def read(self) -> Frame | None:
        if self._clock() < self._gone_until_s:
            raise CameraError("synthetic camera: cable pulled (simulated)")
        return self.source.read()

    def close(self) -> None:
        self.source.close()

    def __enter__(self) -> FlakyCamera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _blots(side: tuple[int, ...]) -> int:
    return sum(1 for point in range(1, 25) if side[point] == 1)


def choose_play(plays: tuple[LegalPlay, ...], rng: random.Random) -> LegalPlay:
    """A plausible play: hit, make points, bear off, leave few blots, race (a tiny heuristic)."""

    def score(lp: LegalPlay) -> float:
        me, them = lp.after.me, lp.after.them
        made = sum(1 for point in range(1, 25) if me[point] >= 2)
        pips = sum(i * n for i, n in enumerate(me))
        return 6 * them[BAR] + 2 * made - 3 * _blots(me) + 4 * me[OFF] - pips / 20 + rng.random()

    return max(plays, key=score)


def near_miss(before: Position, dice: Dice, after: Position, rules: Any) -> Position | None:
    """``after`` with one checker one pip short or long: a believable illegal move, or None."""
    for point in range(24, 1, -1):
        for target in (point - 1, point + 1):
            if not after.me[point] or not 1 <= target <= 24 or after.them[25 - target]:
                continue
            me = list(after.me)
            me[point] -= 1
            me[target] += 1
            wrong = Position(tuple(me), after.them)
            if not judge(before, dice, wrong, rules).legal:
                return wrong
    return None


@dataclass
class _Script:
    """What happens once per match, and when."""

    illegal_turn: int = 3
    hand_turn: int = 5
    camera_turn: int = 7
    done: set[str] = field(default_factory=set)


class SimPlayers:
    """Both players of the demo (see the module docstring)."""

    def __init__(
        self,
        *,
        source: SyntheticSource,
        buttons: ButtonPanel,
        rng: random.Random,
        camera: FlakyCamera | None = None,
        think_s: tuple[float, float] = (0.5, 1.5),
        seating: ref.Seating = DEMO_SEATING,
        script: bool = True,
    ) -> None:
        self.source = source
        self.buttons = buttons
        self.rng = rng
        self.camera = camera
        self.think_s = think_s
        self.seating = seating
        self.script = _Script() if script else None
        self.table: Position | None = None  #: the board as it stands, seen from seat 0
        self.hand = False
        self.turns = 0
        self._plan: list[tuple[float, Callable[[], None]]] = []
        self._situation: tuple[Any, ...] | None = None
        self._intended: Position | None = None
        self._doubled_game = 0

    # ---- the table ------------------------------------------------------------------

    def layout(self) -> Layout | None:
        """What lies on the table now (for the terminal view)."""
        if self.table is None:
            return None
        return layout_from_position(self.table, mover=self.seating.colours[0], home=f"bottom-{self.seating.side}")  # type: ignore[arg-type]

    def _show(self, table: Position | None = None, *, hand: bool = False) -> None:
        if table is not None:
            self.table = table
        self.hand = hand
        layout = self.layout()
        if layout is not None:
            self.source.show(layout, occlusion="hand" if hand else "none")

    def restore(self, state: ref.RefereeState) -> None:
        """After the referee resumed from its journal: the board stands as the journal says."""
        if state.mode not in (ref.Mode.SETUP, ref.Mode.GAME_OVER, ref.Mode.MATCH_OVER):
            self._show(state.timed.state.position_of(0))
            if self.script is not None:
                self.script.done |= {"setup"}

    # ---- acting ---------------------------------------------------------------------------

    def act(self, loop: RefereeLoop, now_s: float) -> float | None:
        while self._plan and self._plan[0][0] <= now_s:
            _, action = self._plan.pop(0)
            action()
        if self._plan:
            return self._plan[0][0]
        state = loop.state
        match = state.timed.state
        again = len(loop.announcements) if state.mode == ref.Mode.ILLEGAL else state.candidate
        situation = (state.mode, match.game, match.turn, match.dice, match.phase, again, state.shown_dice)
        if situation == self._situation:
            return None
        self._situation = situation
        self._plan_for(state, now_s)
        return self._plan[0][0] if self._plan else None

    def _at(self, when_s: float, action: Callable[[], None]) -> None:
        self._plan.append((when_s, action))
        self._plan.sort(key=lambda item: item[0])

    def _think(self) -> float:
        return self.rng.uniform(*self.think_s)

    def _press(self, role: str, player: int) -> Callable[[], None]:
        return lambda: self.buttons.press(role, player)  # type: ignore[arg-type]

    def _plan_for(self, state: ref.RefereeState, now: float) -> None:
        mode = state.mode
        match = state.timed.state
        start = Position.start(match.settings.rules)
        if mode == ref.Mode.SETUP:
            if self.script is not None and "setup" not in self.script.done:
                self.script.done.add("setup")
                me = list(start.me)
                me[6] -= 1
                me[5] += 1  # one checker on the wrong point
                self._at(now + 0.1, lambda: self._show(Position(tuple(me), start.them)))
                self._at(now + 1.5, lambda: self._show(start, hand=True))
                self._at(now + 2.2, lambda: self._show(start))
            elif self.table != start:
                self._at(now + 0.1, lambda: self._show(start))
        elif mode == ref.Mode.GAME_OVER:
            self._at(now + 2.0, lambda: self._show(hand=True))
            self._at(now + 3.0, lambda: self._show(start))
        elif mode == ref.Mode.OPENING:
            self._at(now + self._think(), self._press("main", 0))
        elif mode == ref.Mode.CUBE and match.turn is not None:
            self._cube_or_roll(state, now)
        elif mode == ref.Mode.DOUBLED and match.turn is not None:
            taker = 1 - match.turn
            lead = match.position.pips()[1] - match.position.pips()[0]
            self._at(now + self._think(), self._press("second" if lead > 45 else "main", taker))
        elif mode == ref.Mode.MOVING and match.turn is not None and match.dice is not None:
            self._move(state, now)
        elif mode == ref.Mode.ILLEGAL and match.turn is not None:
            mover = match.turn
            fixed = self._intended
            board = None if fixed is None else (fixed if mover == 0 else fixed.swap())
            if board is not None and board != self.table:
                self._at(now + 1.0, lambda: self._show(hand=True))
                self._at(now + 1.6, lambda: self._show(board))
                self._at(now + 2.0, self._press("main", mover))
            else:  # the board already stands as meant: the opponent accepts it (X1)
                self._at(now + 1.0, self._press("main", 1 - mover))
        elif mode == ref.Mode.DOUBT and match.turn is not None:
            mover = match.turn
            mine = None if self.table is None else (self.table if mover == 0 else self.table.swap())
            shown = state.candidates[state.candidate].after
            if shown != mine and any(lp.after == mine for lp in state.candidates):
                self._at(now + 0.6, self._press("second", mover))  # step to the play on the board
            else:
                self._at(now + 1.0, self._press("main", 0))
                self._at(now + 1.3, self._press("main", 1))
        elif mode == ref.Mode.RESIGNING and match.resigner is not None:
            self._at(now + self._think(), self._press("main", 1 - match.resigner))

    def _cube_or_roll(self, state: ref.RefereeState, now: float) -> None:
        match = state.timed.state
        mover = match.turn
        assert mover is not None
        mine, theirs = match.position.pips()
        may_double = (
            match.settings.rules.cube
            and not match.crawford
            and match.cube_owner in (None, mover)
            and self._doubled_game != match.game
            and theirs - mine >= 12
            and match.cube * 2 <= match.settings.max_cube
        )
        if may_double and self.rng.random() < 0.7:
            self._doubled_game = match.game
            self._at(now + self._think(), self._press("second", mover))
        else:
            self._at(now + self._think(), self._press("main", mover))

    def _move(self, state: ref.RefereeState, now: float) -> None:
        match = state.timed.state
        mover, dice = match.turn, match.dice
        assert mover is not None and dice is not None
        rules = match.settings.rules
        self.turns += 1
        lp = choose_play(legal_plays(match.position, dice, rules), self.rng)
        self._intended = lp.after
        after = lp.after
        script = self.script
        t = now + self._think()
        if script is not None and "camera" not in script.done and self.turns >= script.camera_turn and self.camera:
            script.done.add("camera")
            camera = self.camera
            self._at(now + 0.2, lambda: camera.unplug(4.0))
            t += 5.0
        if script is not None and "illegal" not in script.done and self.turns >= script.illegal_turn:
            wrong = near_miss(match.position, dice, after, rules)
            if wrong is not None:
                script.done.add("illegal")
                after = wrong
        board = after if mover == 0 else after.swap()
        self._at(t, lambda: self._show(hand=True))
        if script is not None and "hand" not in script.done and self.turns >= script.hand_turn:
            script.done.add("hand")
            self._at(t + 0.5, lambda: self._show(board, hand=True))
            self._at(t + 0.8, self._press("main", mover))  # "done" with the hand still over the board
            for k in range(1, 19):  # ... which goes on moving about for a while
                self._at(t + 0.8 + 0.1 * k, lambda: self._show(hand=True))
            self._at(t + 2.8, lambda: self._show(board))
            return
        self._at(t + 0.5, lambda: self._show(board))
        self._at(t + 0.9, self._press("main", mover))


def ended(loop: RefereeLoop) -> bool:
    """The match is over (the demo's stopping condition)."""
    return loop.state.timed.state.phase == Phase.MATCH_OVER
