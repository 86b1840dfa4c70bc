"""The event loop: one queue, injected time, the stability gate, faults that never stop it, sd_notify."""

from __future__ import annotations

import random
import socket
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from engine.clock import ClockSettings
from engine.match import MatchRules
from engine.position import Position
from firmware import referee as ref
from firmware.config import default_config
from firmware.dice import DiceRoller
from firmware.display import Fault
from firmware.hardware.buttons import ButtonHeld, ButtonPressed
from firmware.hardware.leds import SimulatedStrip, StripError
from firmware.led_layout import LedLayout
from firmware.loop import FakeClock, RefereeLoop, Stop
from firmware.sdnotify import Notifier
from vision.capture import CameraError, Frame
from vision.layout import layout_from_position

LAYOUT = LedLayout.from_config(default_config().layout)
SETTINGS = ref.RefereeSettings(match=MatchRules(length=1), clock=ClockSettings.app())
START = layout_from_position(Position.start(), mover="light", home="bottom-right")


def _image(seed: int) -> Any:
    return np.random.default_rng(seed).integers(0, 255, (120, 200, 3), dtype=np.uint8)


class FakeCamera:
    """Frames of a fixed picture; ``gone`` makes it fail as a lost camera."""

    def __init__(self, clock: FakeClock) -> None:
        self.clock = clock
        self.image = _image(0)
        self.gone = False
        self.index = 0

    def read(self) -> Frame | None:
        if self.gone:
            raise CameraError("fake camera unplugged")
        self.index += 1
        return Frame(self.image, self.clock.now(), self.index)

    def close(self) -> None:
        pass


#: Stands in for a calibration where nothing is read (the referee is driven past the set-up check).
NOT_READ = SimpleNamespace(geometry=SimpleNamespace(corners=((0.0, 0.0), (199.0, 0.0), (199.0, 119.0), (0.0, 119.0))))


def make_loop(tmp_path: Path, *, clock: FakeClock | None = None, **kwargs: Any) -> RefereeLoop:
    clock = clock or FakeClock()
    options: dict[str, Any] = {
        "source": None,
        "calibration": None,
        "strip": SimulatedStrip(LAYOUT.num_pixels, layout=LAYOUT, clock=clock.now),
    }
    options.update(kwargs)
    return RefereeLoop(
        settings=SETTINGS,
        layout=LAYOUT,
        journal_path=tmp_path / "journal.jsonl",
        clock=clock,
        roller=DiceRoller(rng=random.Random(3)),
        journal_sync=False,
        **options,
    )


def test_loop_without_camera_shows_the_fault_and_stays_up(tmp_path: Path) -> None:
    loop = make_loop(tmp_path)
    assert loop.run(max_s=30.0) == "time"
    assert {Fault.CAMERA_LOST, Fault.NO_CALIBRATION} <= loop.state.faults
    code = LAYOUT.indices(("bottom", Fault.CAMERA_LOST.value - 1))[0]
    assert loop.strip is not None and loop.strip.latest[code] != (0, 0, 0)  # type: ignore[attr-defined]


def test_loop_camera_lost_pauses_the_clock_and_resumes_when_back(tmp_path: Path) -> None:
    clock = FakeClock()
    camera = FakeCamera(clock)
    loop = make_loop(tmp_path, clock=clock, source=camera, calibration=NOT_READ)  # never read while moving
    loop.dispatch(ref.BoardSeen(START))
    loop.post(ButtonPressed("main", 0))
    loop.run(max_s=1.0)
    assert loop.state.mode == ref.Mode.MOVING and not loop.state.timed.clock.paused
    camera.gone = True
    loop.run(max_s=1.0)
    assert Fault.CAMERA_LOST in loop.state.faults and loop.state.timed.clock.paused
    mover = loop.state.timed.state.turn
    assert mover is not None
    left = loop.state.timed.clock.left_ns(mover, loop.now_ns())
    loop.run(max_s=200.0)  # longer than the whole reserve: no flag falls while the camera is lost
    assert loop.state.timed.clock.left_ns(mover, loop.now_ns()) == left
    camera.gone = False
    loop.run(max_s=1.0)
    assert Fault.CAMERA_LOST not in loop.state.faults
    assert not loop.state.timed.clock.paused and loop.state.mode == ref.Mode.MOVING
    loop.close()


def test_loop_a_camera_giving_frames_of_another_size_than_the_calibration_s_is_a_fault_not_a_crash(
    tmp_path: Path,
) -> None:
    """A camera set to another resolution (or another camera) puts every
    place the calibration knows elsewhere: its frames are not read, the
    referee shows that it has no calibration for them, and once frames of
    the calibration's size come again, the fault clears."""
    from tests.vision.vision_boards import calibrated, plain_board

    board = plain_board("wood")
    clock = FakeClock()
    camera = FakeCamera(clock)  # 200x120 frames
    loop = make_loop(tmp_path, clock=clock, source=camera, calibration=calibrated(board))
    assert loop.state.mode == ref.Mode.SETUP
    loop.run(max_s=1.0)
    assert Fault.NO_CALIBRATION in loop.state.faults
    camera.image = board.shoot(START, 7).image  # the calibration's 1280x720
    loop.run(max_s=1.0)
    assert Fault.NO_CALIBRATION not in loop.state.faults
    loop.close()


def test_loop_dice_are_on_disk_before_the_leds_show_them(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    dice_leds = [i for grid in LAYOUT.dice[0] + LAYOUT.dice[1] for row in grid for i in row]
    seen: list[bool] = []

    class CheckingStrip(SimulatedStrip):
        def show(self, frame: Any) -> None:
            if any(frame[i] != (0, 0, 0) for i in dice_leds):
                seen.append("opening-roll" in journal.read_text())
            super().show(frame)

    clock = FakeClock()
    loop = make_loop(tmp_path, clock=clock, strip=CheckingStrip(LAYOUT.num_pixels, layout=LAYOUT))
    loop.dispatch(ref.BoardSeen(START))
    loop.post(ButtonPressed("main", 1))
    loop.run(max_s=1.0)
    loop.close()
    assert seen and all(seen)


def test_loop_strip_failure_is_a_fault_not_a_crash(tmp_path: Path) -> None:
    class BrokenStrip(SimulatedStrip):
        broken = True

        def show(self, frame: Any) -> None:
            if self.broken:
                raise StripError("strip unplugged")
            super().show(frame)

    strip = BrokenStrip(LAYOUT.num_pixels, layout=LAYOUT)
    loop = make_loop(tmp_path, strip=strip)
    loop.run(max_s=2.0)
    assert Fault.STRIP in loop.state.faults
    strip.broken = False
    loop.run(max_s=2.0)
    assert Fault.STRIP not in loop.state.faults and strip.frames


def test_loop_unexpected_error_goes_to_the_failsafe_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loop = make_loop(tmp_path)
    loop.dispatch(ref.BoardSeen(START))
    real_step = ref.step

    def broken(state: ref.RefereeState, event: Any, now_ns: int) -> Any:
        if isinstance(event, ButtonPressed):
            raise RuntimeError("a bug")
        return real_step(state, event, now_ns)

    monkeypatch.setattr(ref, "step", broken)
    loop.post(ButtonPressed("main", 0))
    loop.run(max_s=1.0)
    assert loop.state.mode == ref.Mode.FAILSAFE
    assert any("failsafe" in text for text in loop.announcements)


def test_loop_stop_event_ends_the_run(tmp_path: Path) -> None:
    loop = make_loop(tmp_path)
    loop.post(Stop("SIGTERM"))
    assert loop.run(max_s=100.0) == "SIGTERM"


def test_loop_sends_ready_and_watchdog(tmp_path: Path) -> None:
    path = str(tmp_path / "notify")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.setblocking(False)
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "2000000"})
    loop = make_loop(tmp_path, notifier=notifier)
    loop.run(max_s=5.0)
    messages = []
    while True:
        try:
            messages.append(server.recv(4096).decode())
        except BlockingIOError:
            break
    notifier.close()
    server.close()
    ready = [i for i, m in enumerate(messages) if m.startswith("READY=1")]
    watchdogs = [i for i, m in enumerate(messages) if m == "WATCHDOG=1"]
    assert len(ready) == 1 and len(watchdogs) >= 4 and ready[0] < watchdogs[0]  # every 1 s over 5 s
    assert messages[-1] == "STOPPING=1"


def test_loop_failsafe_then_new_game_hold_rebuilds_from_the_journal(tmp_path: Path) -> None:
    clock = FakeClock()
    loop = make_loop(tmp_path, clock=clock, source=FakeCamera(clock), calibration=NOT_READ)
    loop.dispatch(ref.BoardSeen(START))
    loop.post(ButtonPressed("main", 0))
    loop.run(max_s=1.0)
    assert loop.state.mode == ref.Mode.MOVING
    match = loop.state.timed.state
    loop.state, effects = ref.failsafe(loop.state, loop.now_ns(), "test")
    assert loop.state.mode == ref.Mode.FAILSAFE
    before_ns = loop.now_ns()
    loop.post(ButtonHeld("new_game"))
    loop.run(max_s=1.0)
    assert loop.state.mode == ref.Mode.MOVING and loop.state.timed.state == match
    assert loop.now_ns() >= before_ns and not loop.state.timed.clock.paused
    loop.close()


def test_loop_reads_a_move_being_checked_as_the_photo_shows_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a move is checked the judge weighs outcomes that each hold every
    side's checkers (B4): the frame and the one before the move are read as
    the photo shows them (``hold=False``), not counted to fifteen a side as
    the set-up check reads the board."""
    from dataclasses import replace

    import vision.read

    calls: list[dict[str, Any]] = []

    def read_board(image: Any, calibration: Any, **kwargs: Any) -> None:
        calls.append(kwargs)

    monkeypatch.setattr(vision.read, "read_board", read_board)
    loop = make_loop(tmp_path, calibration=NOT_READ)
    loop._read(_image(1))
    assert calls == [{}]
    calls.clear()
    loop.state = replace(loop.state, mode=ref.Mode.CHECKING)
    loop._check = SimpleNamespace()  # type: ignore[assignment]
    loop._before_image = _image(2)
    loop._read(_image(3))
    assert [call.get("hold") for call in calls] == [False, False]  # the frame before, then this one


@pytest.mark.parametrize(
    ("alone", "delivered"),
    [("refused", "illegal"), ("illegal", "illegal"), ("legal", "legal")],
)
def test_loop_an_illegal_verdict_against_the_frame_before_stands_unless_the_photo_alone_names_a_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, alone: str, delivered: str
) -> None:
    """Against the frame before, a checker moved that no legal play moves
    shows where its slot changed as the reading has it: proof the photo
    alone may lack (it refuses), so the illegal verdict stands; where the
    photo alone names a legal play, that play stands."""
    import vision.judge
    from vision.judge import PhotoVerdict

    def judge_reading(*args: Any, changes: Any = None, **kwargs: Any) -> PhotoVerdict:
        return PhotoVerdict("illegal") if changes is not None else PhotoVerdict(alone)  # type: ignore[arg-type]

    monkeypatch.setattr(vision.judge, "changes_since", lambda before, reading, calibration: object())
    monkeypatch.setattr(vision.judge, "judge_reading", judge_reading)
    loop = make_loop(tmp_path, calibration=NOT_READ)
    loop._check = SimpleNamespace(before=Position.start(), dice=None, colour="light", home="bottom-right")  # type: ignore[assignment]
    monkeypatch.setattr(loop, "_before", lambda: None)
    verdicts: list[str] = []
    monkeypatch.setattr(loop, "_deliver", lambda verdict, frame: verdicts.append(verdict.verdict))
    loop._judge(Frame(_image(1), 0.0, 1), SimpleNamespace())  # type: ignore[arg-type]
    assert verdicts == [delivered]
