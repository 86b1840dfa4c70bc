"""The referee's event loop: one queue, one clock, frames in, LEDs and journal out.

Everything that happens reaches :class:`RefereeLoop` as an event on one
queue: driver callbacks (buttons) only :meth:`~RefereeLoop.post`; the loop
alone changes state, by :func:`firmware.referee.step`, and carries out the
effects the referee returns (journal, dice, verdicts, buzzer, announcements).

Time comes from one injected :class:`Clock`: :class:`MonotonicClock` is the
only place in the firmware that reads real time; :class:`FakeClock` (tests,
``nardref demo --fast``) moves only when told, so a whole match with a 90 s
reserve runs in moments; :class:`ScaledClock` is real time sped up (the live demo).

Frames go through the stability gate (:class:`vision.stability.StabilityGate`)
while the referee needs a view (the set-up check, checking a move): a view
counts once the board inside its corners has held still for ``window_s`` and
reads without a refusal. After the mover's press the gate starts afresh, so
the verdict comes from the steady view after the press (a slapped button
shakes a camera arm: those frames are not still), and the LEDs are held still
meanwhile (``DisplayState.steady``) so their own light does not change the
picture. A refused picture (a hand over the board, the board moved, too
dark) shows the fault and the referee waits for the next steady view; one
that never clears goes to the players to confirm (``give_up_s``). Otherwise
frames are only taken slowly (``idle_fps``), to notice a lost camera.

Faults never stop the loop: a camera that cannot be read shows
``CAMERA_LOST`` on the LEDs (and pauses the clock) until it is back; an LED
strip that fails is reported and retried. sd_notify ``READY``/``WATCHDOG``
are sent from the loop itself, so a hung loop is restarted by systemd.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from engine.match import Played
from engine.position import Position
from engine.position import status as position_status
from firmware import referee as ref
from firmware.dice import DiceRoller
from firmware.display import DEFAULT_STYLE, DisplayStyle, Fault, render_frame
from firmware.hardware.buttons import ButtonHeld, ButtonPressed
from firmware.journal import JournalError, JournalWriter, load, make_header, rebuild
from vision.stability import StabilityConfig, StabilityGate

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from firmware.hardware.buzzer import Buzzer
    from firmware.hardware.leds import Strip
    from firmware.led_layout import LedLayout
    from firmware.sdnotify import Notifier
    from vision.calibration import Calibration
    from vision.capture import Frame, FrameSource
    from vision.judge import PhotoVerdict
    from vision.read import Reading

__all__ = [
    "Actor",
    "Clock",
    "FakeClock",
    "GateSettings",
    "MonotonicClock",
    "RefereeLoop",
    "ScaledClock",
    "Stop",
]

log = logging.getLogger(__name__)

#: Refusals that mean "not yet": the referee waits for the next steady view, showing the fault.
_WAIT_FAULTS: dict[str, Fault] = {
    "hand_over_board": Fault.HAND_OVER_BOARD,
    "board_moved": Fault.BOARD_MOVED,
    "too_dark": Fault.TOO_DARK,
    "blown_out": Fault.TOO_DARK,
    "blurred": Fault.HAND_OVER_BOARD,
    "no_board": Fault.BOARD_MOVED,
}
#: Faults that only a good reading clears.
_READ_FAULTS = frozenset(_WAIT_FAULTS.values())


# ---- clocks ---------------------------------------------------------------------


class Clock(Protocol):
    """The loop's one source of time (seconds, monotonic)."""

    def now(self) -> float: ...

    def wait(self, events: queue.SimpleQueue[Any], timeout_s: float) -> Any | None:
        """The next event on ``events``, or None once ``timeout_s`` has passed."""


class MonotonicClock:
    """Real time: :func:`time.monotonic`; waiting blocks on the queue."""

    def now(self) -> float:
        return time.monotonic()

    def wait(self, events: queue.SimpleQueue[Any], timeout_s: float) -> Any | None:
        try:
            return events.get(timeout=max(0.0, timeout_s))
        except queue.Empty:
            return None


class ScaledClock:
    """Real time sped up ``speed`` times (the live demo: a match in a minute)."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self._origin = time.monotonic()

    def now(self) -> float:
        return (time.monotonic() - self._origin) * self.speed

    def wait(self, events: queue.SimpleQueue[Any], timeout_s: float) -> Any | None:
        try:
            return events.get(timeout=max(0.0, timeout_s) / self.speed)
        except queue.Empty:
            return None


class FakeClock:
    """Time that moves only by :meth:`advance` (and by waiting, which advances to the deadline)."""

    def __init__(self, start_s: float = 0.0) -> None:
        self._now = start_s

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds < 0:
            raise ValueError(f"advance({seconds!r}): time does not run backwards")
        self._now += seconds

    def wait(self, events: queue.SimpleQueue[Any], timeout_s: float) -> Any | None:
        try:
            return events.get_nowait()
        except queue.Empty:
            self.advance(max(0.0, timeout_s))
            return None


# ---- frame pacing ---------------------------------------------------------------------


@dataclass(frozen=True)
class GateSettings:
    """How often frames are taken, and when a view counts as steady."""

    #: Frames per second taken while a move is checked.
    fps: float = 15.0
    #: Frames per second during the set-up check (people setting up the board).
    setup_fps: float = 4.0
    #: Frames per second while no view is needed (moving, waiting for a roll): enough to notice a lost camera.
    idle_fps: float = 2.0
    #: The stability gate's window (how long the board must hold still) and motion threshold.
    stability: StabilityConfig = StabilityConfig(window_s=0.1)
    #: A view refused this long (even a "hand" that never moves) goes to the players to confirm (DOUBT).
    give_up_s: float = 20.0


def _board_box(calibration: Calibration | None) -> tuple[int, int, int, int] | None:
    """The bounding box (x0, y0, x1, y1) of the playing area in the frame: motion elsewhere does not count."""
    if calibration is None:
        return None
    xs = [x for x, _ in calibration.geometry.corners]
    ys = [y for _, y in calibration.geometry.corners]
    return (max(0, int(min(xs))), max(0, int(min(ys))), int(max(xs)) + 1, int(max(ys)) + 1)


# ---- the loop -----------------------------------------------------------------------


@dataclass(frozen=True)
class Stop:
    """Posted to end the loop (SIGTERM, the demo's end)."""

    reason: str = "stop"


class Actor(Protocol):
    """Something that acts on the world from the loop's thread (the demo's simulated players)."""

    def act(self, loop: RefereeLoop, now_s: float) -> float | None:
        """Do what is due at ``now_s``; return when to be called next (None: only after an event)."""


class RefereeLoop:
    """The referee's loop. Backends are passed in, picked once by the command.

    ``source`` None (or one that fails) is a camera fault, ``strip`` None a
    strip fault: shown, logged, never a crash. ``on_announce`` receives every
    line for people; ``last_frame`` is the latest camera frame taken.
    """

    def __init__(
        self,
        *,
        settings: ref.RefereeSettings,
        layout: LedLayout,
        journal_path: str | Path,
        clock: Clock,
        roller: DiceRoller,
        source: FrameSource | None,
        calibration: Calibration | None,
        strip: Strip | None,
        buzzer: Buzzer | None = None,
        notifier: Notifier | None = None,
        gate: GateSettings = GateSettings(),
        style: DisplayStyle = DEFAULT_STYLE,
        led_interval_s: float = 0.1,
        actors: Sequence[Actor] = (),
        on_announce: Callable[[str], None] | None = None,
        reopen_source: Callable[[], FrameSource] | None = None,
        journal_sync: bool = True,
    ) -> None:
        self.settings = settings
        self.layout = layout
        self.journal_path = Path(journal_path)
        self.clock = clock
        self.roller = roller
        self.source = source
        self.calibration = calibration
        self.strip = strip
        self.buzzer = buzzer
        self.notifier = notifier
        self.gate_settings = gate
        self.gate = StabilityGate(reader=self._read, config=gate.stability, crop=_board_box(calibration))
        self._feeding = False
        self.style = style
        self.led_interval_s = led_interval_s
        self.actors = list(actors)
        self.on_announce = on_announce
        self.reopen_source = reopen_source
        self.journal_sync = journal_sync
        self.events: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.writer: JournalWriter | None = None
        self.announcements: list[str] = []
        self.shown: tuple[tuple[int, int, int], ...] | None = None
        self.verdict_latency_s: list[float] = []
        self._stopped: str | None = None
        self._origin_s = clock.now()
        self._base_ns = 0
        self._last_ns = 0
        self._next_frame_s = self._origin_s
        self._next_led_s = self._origin_s
        self._next_watchdog_s = self._origin_s
        self._next_reopen_s = self._origin_s
        self._check: ref.TakeVerdict | None = None
        self._check_started_s = 0.0
        self._told_unsteady = False
        self._refused_since_s: float | None = None
        # the frame before the move and its reading (None: not read yet), and the last judged frame's
        self._before_image: npt.NDArray[np.uint8] | None = None
        self._before_reading: Reading | None = None
        self._judged_image: npt.NDArray[np.uint8] | None = None
        self._judged_reading: Reading | None = None
        self.last_frame: Frame | None = None
        self._camera_faults: frozenset[Fault] = frozenset() if source is not None else frozenset({Fault.CAMERA_LOST})
        if calibration is None:
            self._camera_faults |= {Fault.NO_CALIBRATION}
        self._strip_fault = strip is None
        self.state = self._boot()

    # ---- time ----------------------------------------------------------------------

    def now_ns(self) -> int:
        """The referee's time: the journal's time line, continued across restarts; never runs back."""
        ns = self._base_ns + int(round((self.clock.now() - self._origin_s) * 1e9))
        self._last_ns = max(self._last_ns, ns)
        return self._last_ns

    # ---- start-up and the journal ---------------------------------------------------------

    def _boot(self) -> ref.RefereeState:
        state = ref.start(self.settings)
        if self.journal_path.exists():
            try:
                loaded = load(self.journal_path)
                seating_data = (loaded.header or {}).get("seating")
                if loaded.header is not None and seating_data is not None:
                    timed = rebuild(loaded)
                    if loaded.records:  # the time line goes on from the last record: downtime is no one's
                        self._base_ns = max(self._last_ns, int(loaded.records[-1]["t_ns"]))
                        self._origin_s = self.clock.now()
                        self._last_ns = self._base_ns
                    if timed.state.winner is None:
                        seating = ref.Seating.from_json(seating_data)
                        self.writer = JournalWriter(self.journal_path, loaded.header, sync=self.journal_sync)
                        state, effects = ref.resume(self.settings, timed, seating, self.now_ns())
                        state = dataclasses.replace(state, faults=self._camera_faults)
                        self._carry_out(effects)
                        return self._blind(state)
            except (JournalError, ValueError, KeyError) as exc:
                log.error(
                    "journal %s cannot be resumed (%s); it is kept and a new match starts", self.journal_path, exc
                )
            self._archive()
        return self._blind(dataclasses.replace(state, faults=self._camera_faults))

    def _blind(self, state: ref.RefereeState) -> ref.RefereeState:
        """Apply the camera faults known at start (pausing the clock if a game is on)."""
        faults = state.faults
        state, effects = ref.step(
            dataclasses.replace(state, faults=frozenset()), ref.FaultsChanged(faults), self.now_ns()
        )
        self._carry_out(effects)
        return state

    def _archive(self) -> None:
        """Move a finished (or unusable) journal aside: ``journal.1.jsonl``, ``journal.2.jsonl``, ..."""
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        if not self.journal_path.exists():
            return
        number = 1
        while True:
            target = self.journal_path.with_name(f"{self.journal_path.stem}.{number}{self.journal_path.suffix}")
            if not target.exists():
                break
            number += 1
        self.journal_path.rename(target)
        log.info("journal %s kept as %s", self.journal_path, target)

    # ---- the outside world posts here ------------------------------------------------------

    def post(self, event: Any) -> None:
        """Put an event on the queue (safe from any thread: button callbacks, signal handlers)."""
        self.events.put(event)

    def stop(self, reason: str = "stop") -> None:
        self.post(Stop(reason))

    # ---- running -----------------------------------------------------------------------------

    @property
    def stopped(self) -> bool:
        return self._stopped is not None

    def run(self, *, until: Callable[[RefereeLoop], bool] | None = None, max_s: float | None = None) -> str:
        """Run until :class:`Stop` (or ``until`` says so, or ``max_s`` of loop time); returns why it ended."""
        if self.notifier is not None:
            self.notifier.ready(f"refereeing: {self.state.mode.value}")
        self._stopped = None
        started = self.clock.now()
        while self._stopped is None:
            now = self.clock.now()
            if until is not None and until(self):
                self._stopped = "done"
                break
            if max_s is not None and now - started >= max_s:
                self._stopped = "time"
                break
            next_actor_s: float | None = None
            for actor in self.actors:
                wanted = actor.act(self, now)
                if wanted is not None:
                    next_actor_s = wanted if next_actor_s is None else min(next_actor_s, wanted)
            self.service(now)
            if self._stopped is not None:
                break
            deadline = self._next_deadline(next_actor_s)
            event = self.clock.wait(self.events, max(0.0, deadline - self.clock.now()))
            if event is not None:
                self.handle(event)
        self._shutdown()
        return self._stopped or "stop"

    def _frame_interval_s(self) -> float:
        """Full speed while a move is checked, less for the set-up check, slow otherwise."""
        gate = self.gate_settings
        mode = self.state.mode
        if mode == ref.Mode.CHECKING or self._camera_faults & ref.CAMERA_FAULTS:
            return 1.0 / gate.fps
        if mode in (ref.Mode.SETUP, ref.Mode.GAME_OVER):
            return 1.0 / gate.setup_fps
        return 1.0 / gate.idle_fps

    def _next_deadline(self, next_actor_s: float | None) -> float:
        candidates = [self._next_led_s, self._next_frame_s]
        if next_actor_s is not None:
            candidates.append(next_actor_s)
        if self.notifier is not None and self.notifier.watchdog_interval_s() is not None:
            candidates.append(self._next_watchdog_s)
        return min(candidates)

    def service(self, now: float) -> None:
        """One turn of the loop's chores: queued events, the clock, a frame, the LEDs, the watchdog."""
        while True:
            try:
                event = self.events.get_nowait()
            except queue.Empty:
                break
            self.handle(event)
            if self._stopped is not None:
                return
        self.dispatch(ref.Tick())
        if now >= self._next_frame_s:
            self._pump_frame(now)
            self._next_frame_s = max(self._next_frame_s + self._frame_interval_s(), now)
        if self.buzzer is not None:
            self.buzzer.tick(now)
        if now >= self._next_led_s:
            self._next_led_s = max(self._next_led_s + self.led_interval_s, now)
            self.refresh_leds()
        interval = self.notifier.watchdog_interval_s() if self.notifier is not None else None
        if interval is not None and now >= self._next_watchdog_s:
            self._next_watchdog_s = now + interval
            assert self.notifier is not None
            self.notifier.watchdog()

    def handle(self, event: Any) -> None:
        """One event from the queue."""
        if isinstance(event, Stop):
            self._stopped = event.reason
            return
        if isinstance(event, (ButtonPressed, ButtonHeld)):
            log.debug("button %s", event)
        self.dispatch(event)

    def dispatch(self, event: ref.RefereeEvent) -> None:
        """Step the referee and carry out its effects; the unexpected goes to the failsafe state."""
        now_ns = self.now_ns()
        try:
            self.state, effects = ref.step(self.state, event, now_ns)
            self._carry_out(effects)
        except Exception as exc:  # the one place the unexpected is caught: the board stays up
            log.exception("referee failed on %r", event)
            self.state, effects = ref.failsafe(self.state, now_ns, f"{type(exc).__name__}: {exc}")
            try:
                self._carry_out(effects)
            except Exception:
                log.exception("failsafe effects failed")
        if event.__class__ in (ButtonPressed, ButtonHeld, ref.VerdictReady, ref.DiceRolled):
            self.refresh_leds()

    # ---- effects ------------------------------------------------------------------------------

    def _carry_out(self, effects: Sequence[ref.Effect]) -> None:
        for effect in effects:
            if isinstance(effect, ref.JournalEvent):
                if isinstance(effect.event, Played):
                    # what stands on the board now
                    self._before_image, self._before_reading = self._judged_image, self._judged_reading
                if self.writer is not None:
                    written = self.writer.event(effect.event, effect.now_ns, effect.timed)
                    if effect.durable:
                        written.result(timeout=3.0)  # on disk before it is shown (well inside the watchdog)
            elif isinstance(effect, ref.JournalClock):
                if self.writer is not None:
                    self.writer.clock(effect.op, effect.now_ns, effect.timed, reason=effect.reason)
            elif isinstance(effect, ref.OpenJournal):
                self._archive()
                header = make_header(self.settings.match, self.settings.clock)
                header["seating"] = effect.seating.to_json()
                self.writer = JournalWriter(self.journal_path, header, sync=self.journal_sync)
                self._before_image = self.last_frame.image if self.last_frame is not None else None
                self._before_reading = None
            elif isinstance(effect, ref.RollDice):
                dice = self.roller.opening() if effect.opening else self.roller.roll()
                self.dispatch(ref.DiceRolled(dice))
            elif isinstance(effect, ref.TakeVerdict):
                self._check = effect
                self._told_unsteady = False
                self._check_started_s = self.clock.now()
                self._refused_since_s = None
                self.gate.reset()
                self._feeding = True
                self._next_frame_s = self.clock.now()
            elif isinstance(effect, ref.Buzz):
                if self.buzzer is not None:
                    self.buzzer.play(effect.sound, self.clock.now())
            elif isinstance(effect, ref.Announce):
                self._announce(effect.text)
            elif isinstance(effect, ref.NewMatch):
                self._archive()
            elif isinstance(effect, ref.RestartFromJournal):
                if self.writer is not None:
                    self.writer.close()
                    self.writer = None
                self.state = self._boot()

    def _announce(self, text: str) -> None:
        log.info("%s", text)
        self.announcements.append(text)
        if self.on_announce is not None:
            self.on_announce(text)
        if self.notifier is not None:
            self.notifier.status(text[:200])

    # ---- frames -----------------------------------------------------------------------------------

    def _set_camera_faults(self, faults: frozenset[Fault]) -> None:
        if faults != self._camera_faults:
            self._camera_faults = faults
            self.dispatch(ref.FaultsChanged(faults | ({Fault.STRIP} if self._strip_fault else frozenset())))

    def _pump_frame(self, now: float) -> None:
        from vision.capture import CameraError

        if self.source is None:
            if self.reopen_source is not None and now >= self._next_reopen_s:
                self._next_reopen_s = now + 2.0
                try:
                    self.source = self.reopen_source()
                    log.info("camera is back")
                except CameraError as exc:
                    log.debug("camera still missing: %s", exc)
            if self.source is None:
                self._set_camera_faults(self._camera_faults | {Fault.CAMERA_LOST})
                return
        try:
            frame = self.source.read()
        except CameraError as exc:
            if Fault.CAMERA_LOST not in self._camera_faults:
                log.warning("camera lost: %s", exc)
            self._feeding = False  # what the gate saw before the loss proves nothing after it
            if self.reopen_source is not None:
                self.source.close()
                self.source = None
            self._set_camera_faults(self._camera_faults | {Fault.CAMERA_LOST})
            return
        if frame is None:
            return
        self._set_camera_faults(self._camera_faults - {Fault.CAMERA_LOST})
        self.last_frame = frame
        mode = self.state.mode
        if mode not in (ref.Mode.SETUP, ref.Mode.GAME_OVER, ref.Mode.CHECKING) or self.calibration is None:
            self._feeding = False  # no view needed: the frame only shows the camera is there
            return
        if not self._fits_calibration(frame.image):
            return
        if not self._feeding:  # the gate has not seen the frames in between
            self.gate.reset()
            self._feeding = True
        status = self.gate.feed(frame.image, frame.timestamp_s)
        if status.state in ("moving", "settling"):
            if self._check is not None and not self._told_unsteady and now - self._check_started_s > 1.0:
                self._told_unsteady = True
                self._announce("waiting for the board to hold still (hands off the board)")
            return
        reading = status.reading
        refusal = reading.refusal if reading is not None else None
        self._reading_faults(refusal.reason if refusal is not None else None)
        if mode == ref.Mode.CHECKING and self._check is not None:
            if refusal is not None:
                from vision.judge import PhotoVerdict

                self._wait_or_give_up(PhotoVerdict("refused", refusal=refusal, reading=reading), frame)
            elif reading is not None:
                self._judge(frame, reading)
        elif reading is not None and refusal is None:
            self.dispatch(ref.BoardSeen(reading.layout()))
            if self.state.mode == ref.Mode.OPENING:
                self._before_image, self._before_reading = frame.image, None  # read as the judge reads

    def _fits_calibration(self, image: npt.NDArray[np.uint8]) -> bool:
        """Whether the camera's frame is of the size the calibration was made on; where it is
        not (another camera or resolution), the fault that there is no calibration for it,
        said once, until it is."""
        from vision.errors import ImageError

        assert self.calibration is not None
        try:
            self.calibration.check_frame_size(image, what="the camera's frame")
        except ImageError as exc:
            if Fault.NO_CALIBRATION not in self._camera_faults:
                log.warning("%s", exc)
            self._feeding = False
            self._set_camera_faults(self._camera_faults | {Fault.NO_CALIBRATION})
            return False
        self._set_camera_faults(self._camera_faults - {Fault.NO_CALIBRATION})
        return True

    def _read(self, image: npt.NDArray[np.uint8]) -> Reading | None:
        """The stability gate's reader; while a move is checked, against the frame before it
        (only what changed since can be a hand over the board), and as the photo shows the
        checkers: every outcome the judge weighs holds each side's (B4)."""
        from vision.read import read_board

        if self.calibration is None:
            return None
        if self.state.mode == ref.Mode.CHECKING and self._check is not None:
            return read_board(image, self.calibration, since=self._before(), hold=False)
        return read_board(image, self.calibration)

    def _before(self) -> Reading | None:
        """The reading of the frame before the move, as the judge reads it (read once, where
        the loop has none)."""
        from vision.read import read_board

        if self._before_image is not None and self._before_reading is None and self.calibration is not None:
            self._before_reading = read_board(self._before_image, self.calibration, hold=False)
        return self._before_reading

    def _reading_faults(self, reason: str | None) -> None:
        faults = self._camera_faults - _READ_FAULTS
        if reason in _WAIT_FAULTS:
            faults |= {_WAIT_FAULTS[reason]}
        self._set_camera_faults(faults)

    def _judge(self, frame: Frame, reading: Reading) -> None:
        """Judge the gate's steady reading of ``frame``, with the frame before the move: the
        changes since, and its reading (piles are counted alike in both)."""
        from vision.judge import changes_since, judge_reading

        check = self._check
        assert check is not None and self.calibration is not None
        rules = self.settings.match.rules
        before = self._before()
        changes = changes_since(before, reading, self.calibration)
        verdict = judge_reading(
            check.before,
            check.dice,
            reading,
            mover=check.colour,
            home=check.home,
            rules=rules,
            changes=changes,
            before_reading=before if changes is not None else None,
        )
        if verdict.verdict == "illegal" and changes is not None:
            # A false "illegal" is the one thing players do not forgive. Against the frame before,
            # a slot proves a checker moved that no legal play moves only where it changed as a
            # checker laid or taken away would and the reading too is sure of it (vision.judge):
            # proof the photo alone may lack, so a refusal of the reading alone does not undo it.
            # But where the reading alone names a legal play, the two disagree: that play stands.
            alone = judge_reading(check.before, check.dice, reading, mover=check.colour, home=check.home, rules=rules)
            if alone.verdict == "legal":
                log.info("illegal only against the frame before the move; the reading alone says legal")
                verdict = alone
        reason = verdict.refusal.reason if verdict.refusal is not None else None
        self._reading_faults(reason)
        if verdict.verdict == "refused" and reason in _WAIT_FAULTS:
            self._wait_or_give_up(verdict, frame)
        else:
            self._deliver(verdict, frame)

    def _wait_or_give_up(self, verdict: PhotoVerdict, frame: Frame) -> None:
        """A refused view: wait for a clear one (showing why); after ``give_up_s`` the players decide."""
        now = self.clock.now()
        if self._refused_since_s is None:
            self._refused_since_s = now
            assert verdict.refusal is not None
            self._announce(f"waiting for a clear view: {verdict.refusal.message}")
        if now - self._refused_since_s >= self.gate_settings.give_up_s:
            self._deliver(verdict, frame)

    def _deliver(self, verdict: PhotoVerdict, frame: Frame) -> None:
        check = self._check
        assert check is not None
        self._check = None
        self.verdict_latency_s.append(self.clock.now() - self._check_started_s)
        readable = verdict.reading is not None and verdict.reading.refusal is None
        # the next move's "before" frame
        self._judged_image, self._judged_reading = (frame.image, verdict.reading) if readable else (None, None)
        self.dispatch(ref.VerdictReady(verdict, self._seen(verdict, check)))

    def _seen(self, verdict: PhotoVerdict, check: ref.TakeVerdict) -> Position | None:
        """The board as read, from the mover's side, when it can be a position."""
        if verdict.reading is None or verdict.reading.refusal is not None or self.state.seating is None:
            return None
        rules = self.settings.match.rules
        try:
            seat0 = ref.seat_position(verdict.reading.layout(), self.state.seating, checkers=rules.checkers)
        except ValueError:
            return None
        seen = seat0 if check.mover == 0 else seat0.swap()
        return None if position_status(seen, rules) else seen

    # ---- LEDs ---------------------------------------------------------------------------------------

    def refresh_leds(self) -> None:
        """Draw the referee's state on the strip (only when the frame changed)."""
        from firmware.hardware.leds import StripError

        pixels = render_frame(ref.display(self.state, self.now_ns()), self.clock.now(), self.layout, style=self.style)
        if pixels == self.shown or self.strip is None:
            return
        try:
            self.strip.show(pixels)
            self.shown = pixels
            if self._strip_fault:
                self._strip_fault = False
                self.dispatch(ref.FaultsChanged(self._camera_faults))
        except StripError as exc:
            if not self._strip_fault:
                log.error("LED strip failed: %s", exc)
                self._strip_fault = True
                self.dispatch(ref.FaultsChanged(self._camera_faults | {Fault.STRIP}))

    # ---- ending -------------------------------------------------------------------------------------

    def _shutdown(self) -> None:
        if self.notifier is not None:
            self.notifier.stopping()
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    def close(self) -> None:
        """Release the journal, camera, strip and buzzer; safe to call twice."""
        self._shutdown()
        for part in (self.source, self.strip, self.buzzer):
            if part is not None:
                try:
                    part.close()
                except Exception:  # closing one part must not keep the others open
                    log.exception("closing %r failed", part)
        self.source = None
        self.strip = None
        self.buzzer = None
