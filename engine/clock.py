"""The game clock (T1-T3), pure: every call is given the time.

Times are integer nanoseconds from any fixed origin (the firmware passes
``time.monotonic_ns()``), so every figure stays exact across any number of
pauses. A :class:`Clock` is immutable; each operation returns a new one.

A player's stint starts with a fresh delay (T1): the delay is spent first,
then the reserve (T2); delay left unused is lost when the next stint starts.
When the reserve reaches zero the player's flag falls (T3). The clock runs
for one player at a time (``runner``); :meth:`Clock.pause` stops it without
charging anyone (a dispute, a camera fault, the referee's own checking) and
:meth:`Clock.resume` starts it again.

>>> clock = Clock.start(ClockSettings.app())
>>> clock = clock.run(0, 0, fresh_delay=True)
>>> clock = clock.charged(100 * SECOND)  # 11 s of delay, then 89 s of reserve
>>> clock.reserve_ns[0] // SECOND, clock.flagged
(1, None)
>>> clock.flag_ns()
101000000000
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass

from engine.errors import NardrefError
from engine.scoring import FlagOutcome

SECOND = 1_000_000_000
MINUTE = 60 * SECOND


class ClockError(NardrefError, ValueError):
    """A clock operation that cannot be: time running backwards, an unknown player."""


class ReserveScope(enum.Enum):
    """How long one reserve lasts."""

    GAME = "game"  #: seed 000: a fresh reserve each game
    MATCH = "match"  #: tournament clocks: one reserve for the whole match


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockSettings:
    """Delay per stint, reserve per player, how long a reserve lasts, what a flag fall costs.

    ``enabled`` False is the ``off`` preset: nothing is charged, no flag falls.
    """

    delay_ns: int
    reserve_ns: tuple[int, int]
    scope: ReserveScope = ReserveScope.GAME
    flag: FlagOutcome = FlagOutcome.GAMMON
    enabled: bool = True

    def __post_init__(self) -> None:
        if self.delay_ns < 0 or min(self.reserve_ns) < 0:
            raise ClockError(
                f"clock delay {self.delay_ns!r} ns and reserves {self.reserve_ns!r} ns must not be negative"
            )

    @classmethod
    def app(cls) -> ClockSettings:
        """Seed 000 (T1, S4): 11 s per turn, 90 s reserve per game, a flag fall loses a gammon."""
        return cls(delay_ns=11 * SECOND, reserve_ns=(90 * SECOND, 90 * SECOND))

    @classmethod
    def tournament(cls, *, length: int, score: tuple[int, int] = (0, 0)) -> ClockSettings:
        """U.S. Backgammon Clock Rules (2013, rule 2.1; T1): 12 s delay and, for
        each player, 2 min per match point for the whole match, less 1 min per
        point already scored by either player when clocks come in mid-match
        (at the start of a game). A flag fall loses the match."""
        if length < 1:
            raise ClockError(f"tournament clock for match length {length!r}: expected a match of 1 or more points")
        reserve = max(0, 2 * MINUTE * length - MINUTE * (score[0] + score[1]))
        return cls(
            delay_ns=12 * SECOND,
            reserve_ns=(reserve, reserve),
            scope=ReserveScope.MATCH,
            flag=FlagOutcome.MATCH,
        )

    @classmethod
    def off(cls) -> ClockSettings:
        """No clock."""
        return cls(delay_ns=0, reserve_ns=(0, 0), enabled=False)

    @classmethod
    def preset(cls, name: str, *, length: int = 0, score: tuple[int, int] = (0, 0)) -> ClockSettings:
        """``app``, ``tournament`` or ``off`` by name."""
        key = name.strip().lower()
        if key == "app":
            return cls.app()
        if key == "tournament":
            return cls.tournament(length=length, score=score)
        if key == "off":
            return cls.off()
        raise ClockError(f"clock preset {name!r}: expected 'app', 'tournament' or 'off'")


@dataclass(frozen=True, slots=True, kw_only=True)
class Clock:
    """Both players' clocks at the last time they were charged (``at_ns``)."""

    settings: ClockSettings
    reserve_ns: tuple[int, int]
    delay_ns: tuple[int, int] = (0, 0)  #: delay left in each player's current stint
    runner: int | None = None  #: whose clock runs (None: stopped)
    paused: bool = False
    at_ns: int | None = None  #: when the figures were last brought up to date
    flagged: int | None = None  #: whose flag has fallen

    @classmethod
    def start(cls, settings: ClockSettings) -> Clock:
        """A stopped clock with full reserves."""
        return cls(settings=settings, reserve_ns=settings.reserve_ns)

    def charged(self, now_ns: int) -> Clock:
        """The clock with the time since ``at_ns`` charged to the runner: delay first, then reserve."""
        if self.at_ns is not None and now_ns < self.at_ns:
            raise ClockError(f"time {now_ns!r} ns is before the clock's last time {self.at_ns!r} ns")
        runner = self.runner
        if runner is None or self.paused or self.at_ns is None or not self.settings.enabled or self.flagged is not None:
            return dataclasses.replace(self, at_ns=now_ns)
        elapsed = now_ns - self.at_ns
        delay = list(self.delay_ns)
        reserve = list(self.reserve_ns)
        from_delay = min(elapsed, delay[runner])
        delay[runner] -= from_delay
        from_reserve = elapsed - from_delay
        flagged: int | None = None
        if from_reserve >= reserve[runner] and from_reserve > 0:
            reserve[runner] = 0
            flagged = runner
        else:
            reserve[runner] -= from_reserve
        return dataclasses.replace(
            self, delay_ns=(delay[0], delay[1]), reserve_ns=(reserve[0], reserve[1]), at_ns=now_ns, flagged=flagged
        )

    def run(self, player: int | None, now_ns: int, *, fresh_delay: bool) -> Clock:
        """Charge up to ``now_ns``, then run ``player``'s clock (None stops it).

        ``fresh_delay`` starts a new stint (T2): a turn that begins, or an
        answer to a cube offer or a resignation. Returning to the mover after
        the answer continues the mover's stint where it stopped.
        """
        if player not in (0, 1, None):
            raise ClockError(f"player {player!r}: expected 0 or 1")
        clock = self.charged(now_ns)
        delay = list(clock.delay_ns)
        if player is not None and fresh_delay:
            delay[player] = self.settings.delay_ns
        return dataclasses.replace(clock, runner=player, delay_ns=(delay[0], delay[1]))

    def pause(self, now_ns: int) -> Clock:
        """Stop charging anyone from ``now_ns`` (a dispute, a fault, the referee checking)."""
        return dataclasses.replace(self.charged(now_ns), paused=True)

    def resume(self, now_ns: int) -> Clock:
        """Charge the runner again from ``now_ns``."""
        return dataclasses.replace(self.charged(now_ns), paused=False)

    def new_game(self) -> Clock:
        """Reserves for the next game: fresh with a per-game reserve, kept with a match reserve."""
        if self.settings.scope == ReserveScope.GAME:
            return dataclasses.replace(self, reserve_ns=self.settings.reserve_ns, delay_ns=(0, 0), flagged=None)
        return self

    def flag_ns(self) -> int | None:
        """When the runner's flag falls if nothing happens first; None if no clock runs."""
        if (
            self.runner is None
            or self.paused
            or self.at_ns is None
            or not self.settings.enabled
            or self.flagged is not None
        ):
            return None
        return self.at_ns + self.delay_ns[self.runner] + self.reserve_ns[self.runner]

    def left_ns(self, player: int, now_ns: int) -> tuple[int, int]:
        """``player``'s (delay, reserve) left at ``now_ns``, for a display."""
        clock = self.charged(now_ns)
        return clock.delay_ns[player], clock.reserve_ns[player]
