"""nardref demo end to end: rendered frames, the real reader and judge, the referee, the journal, the LEDs."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

import vision.judge
import vision.read
from firmware import referee as ref
from firmware.cli import main
from firmware.commands.demo import build
from firmware.journal import load, rebuild
from firmware.loop import FakeClock
from firmware.simplayers import ended
from firmware.terminal import TerminalView


def _spy(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[dict[str, Any]]:
    """Record the keyword arguments of every call of ``module.name`` (and its positional ones as ``args``)."""
    calls: list[dict[str, Any]] = []
    real = getattr(module, name)

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append({**kwargs, "args": args})
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls


def test_demo_whole_match_through_rendered_frames(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    judged = _spy(monkeypatch, vision.judge, "judge_reading")
    read = _spy(monkeypatch, vision.read, "read_board")
    journal = tmp_path / "journal.jsonl"
    clock = FakeClock()
    loop, players, strip = build(seed=1, length=1, journal=journal, clock=clock)
    try:
        loop.run(until=ended, max_s=3000.0)
    finally:
        players.buttons.close()
        loop.close()
    said = "\n".join(loop.announcements)
    assert loop.state.mode == ref.Mode.MATCH_OVER
    assert "set-up check: not the starting position" in said
    assert "illegal move by" in said  # the scripted mistake is caught ...
    assert "waiting for the board to hold still" in said  # ... the hand over the board is waited out ...
    assert "camera fault: camera_lost" in said and "the view is back" in said
    assert len(loop.verdict_latency_s) > 20  # every move judged from camera frames
    assert max(loop.verdict_latency_s) < 30.0
    # each move is judged with the frame before it: the changes since, and its reading
    with_before = [k for k in judged if k.get("changes") is not None]
    assert len(with_before) > 20 and all(k.get("before_reading") is not None for k in with_before)
    # ... and while a move is checked, frames are read against it (only what changed can be a hand)
    assert sum(k.get("since") is not None for k in read) > len(with_before)
    # the bear-off tray is read: the match ends bearing off, and the tray shows it surely
    offs = [k["args"][2].off for k in judged if k["args"][2].off is not None]  # judge_reading(before, dice, reading)
    assert any(off.light_sure and off.dark_sure and off.light + off.dark > 0 for off in offs)
    replayed = rebuild(load(journal))
    assert replayed.state == loop.state.timed.state
    assert len(strip.frames) == 1 and any(any(p) for p in strip.latest)


def test_demo_command_headless_prints_events_and_saves_frames(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    frames = tmp_path / "frames"
    code = main(
        [
            "demo",
            "--headless",
            "--length",
            "1",
            "--seed",
            "2",
            "--frames",
            str(frames),
            "--journal",
            str(tmp_path / "j.jsonl"),
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "board set up" in out and "match over" in out
    assert "\x1b[" not in out  # plain lines, no terminal drawing
    assert list(frames.glob("camera-*.png")) and list(frames.glob("leds-*.png"))


def test_demo_bad_length_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--headless", "--length", "0"]) == 2
    assert "--length 0" in capsys.readouterr().err


def test_terminal_view_draws_in_place_on_a_terminal(tmp_path: Path) -> None:
    clock = FakeClock()
    loop, players, strip = build(seed=3, length=1, journal=tmp_path / "j.jsonl", clock=clock, script=False)
    stream = io.StringIO()
    view = TerminalView(stream, strip=strip, table=lambda: (players.layout(), players.hand), live=True)
    loop.actors.append(view)
    loop.run(max_s=3.0)
    view.announce("hello")
    view.draw(loop, force=True)
    text = stream.getvalue()
    players.buttons.close()
    loop.close()
    assert text.startswith("\x1b[H\x1b[J") and "LEDs:" in text and "hello" in text
    plain = io.StringIO()
    TerminalView(plain, strip=strip, table=lambda: (None, False), live=False).announce("a line")
    assert plain.getvalue() == "a line\n"
