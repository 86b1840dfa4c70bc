"""The journal: fsync'd JSON lines written off the caller's path, tolerant load, exact rebuild."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from engine.clock import SECOND, ClockSettings
from engine.dice import Dice
from engine.match import Double, MatchRules, OpeningRoll, Played, Roll, Take, TimedMatch
from engine.play import Play
from engine.position import Position
from firmware import journal
from firmware.journal import JournalError, JournalWriter, load, load_bytes, make_header, rebuild
from tests.firmware.journal_play import random_events

ROOT = Path(__file__).resolve().parents[2]


def _write_match(path: Path, events: int = 40) -> TimedMatch:
    settings, clock = MatchRules(length=0), ClockSettings.app()
    timed = TimedMatch.start(settings, clock)
    rng = random.Random(11)
    source = random_events(timed, rng)
    event = next(source)
    now = 0
    with JournalWriter(path, make_header(settings, clock, players=("Ann", "Ben"))) as writer:
        for index in range(events):
            now += 1_500_000_007  # 1.5 s and a few ns: every figure must stay exact
            timed = timed.apply(event, now)
            writer.event(event, now, timed)
            if index == 10:
                timed = timed.pause(now + 5)
                writer.clock(journal.PAUSE, now + 5, timed, reason="dispute")
                now += 60 * SECOND
                timed = timed.resume(now)
                writer.clock(journal.RESUME, now, timed)
            event = source.send(timed.state)
        writer.flush()
    return timed


def test_journal_rebuild_gives_the_exact_state_and_clock(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    final = _write_match(path)
    loaded = load(path)
    assert loaded.note == "" and loaded.header is not None and loaded.header["players"] == ["Ann", "Ben"]
    assert [r["seq"] for r in loaded.records] == list(range(1, 43))
    assert rebuild(loaded) == final


def test_journal_cut_at_every_byte_loads_the_whole_events_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    _write_match(path, events=12)
    data = path.read_bytes()
    full = load_bytes(data).records
    line_ends = [i + 1 for i, byte in enumerate(data) if byte == ord("\n")]
    for cut in range(len(data) + 1):
        loaded = load_bytes(data[:cut])
        whole_lines = sum(1 for end in line_ends if end <= cut)
        assert loaded.records == full[: max(0, whole_lines - 1)], cut
        assert (loaded.header is None) == (whole_lines == 0), cut
        assert bool(loaded.note) == (cut not in line_ends and cut != 0), cut
        assert loaded.whole_bytes == (line_ends[whole_lines - 1] if whole_lines else 0)
        if cut in line_ends:
            rebuild(loaded)  # every whole prefix replays


def test_journal_cut_note_names_the_last_whole_event(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    _write_match(path, events=5)
    data = path.read_bytes()
    loaded = load_bytes(data[:-3], name="j")
    assert "cut inside line 6" in loaded.note and "up to event 4" in loaded.note


def test_journal_reopened_after_a_cut_continues(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    _write_match(path, events=5)
    path.write_bytes(path.read_bytes()[:-3])
    loaded = load(path)
    timed = rebuild(loaded)
    with JournalWriter(path, {}) as writer:
        assert writer.seq == 4
        timed = timed.pause(10**12)
        writer.clock(journal.PAUSE, 10**12, timed)
        writer.flush()
    again = load(path)
    assert again.note == "" and [r["seq"] for r in again.records] == [1, 2, 3, 4, 5]
    assert rebuild(again) == timed


def test_journal_append_does_not_wait_for_the_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()
    real_fsync = os.fsync

    def slow_fsync(fd: int) -> None:
        gate.wait(10)
        real_fsync(fd)

    settings, clock = MatchRules(), ClockSettings.app()
    writer = JournalWriter(tmp_path / "j.jsonl", make_header(settings, clock))
    monkeypatch.setattr(journal.os, "fsync", slow_fsync)
    timed = TimedMatch.start(settings, clock).apply(OpeningRoll(Dice(3, 1)), 0)
    future = writer.event(OpeningRoll(Dice(3, 1)), 0, timed)
    assert not future.done()  # the caller goes on while the disk is busy
    gate.set()
    assert future.result(timeout=10) == 1
    writer.close()
    writer.close()  # idempotent


def test_journal_rejects_a_corrupt_middle_line(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    _write_match(path, events=5)
    lines = path.read_bytes().split(b"\n")
    lines[3] = b"{broken"
    with pytest.raises(JournalError, match="line 4"):
        load_bytes(b"\n".join(lines))


def test_journal_detects_a_clock_that_does_not_replay(tmp_path: Path) -> None:
    path = tmp_path / "match.jsonl"
    _write_match(path, events=5)
    lines = path.read_text().splitlines()
    record = json.loads(lines[3])
    record["clock"]["reserve_ns"][0] -= 1
    lines[3] = json.dumps(record)
    with pytest.raises(JournalError, match="clock"):
        rebuild(load_bytes(("\n".join(lines) + "\n").encode()))


WRITER = """
import random, sys
from engine.clock import ClockSettings
from engine.match import MatchRules, TimedMatch
from firmware.journal import JournalWriter, make_header
from tests.firmware.journal_play import random_events
settings, clock = MatchRules(), ClockSettings.app()
timed = TimedMatch.start(settings, clock)
source = random_events(timed, random.Random(5))
event = next(source)
writer = JournalWriter(sys.argv[1], make_header(settings, clock))
now = 0
while True:
    now += 1_000_000
    timed = timed.apply(event, now)
    print(writer.event(event, now, timed).result(), flush=True)
    event = source.send(timed.state)
"""


def test_journal_survives_sigkill_of_a_real_writer(tmp_path: Path) -> None:
    path = tmp_path / "killed.jsonl"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, env=env, cwd=ROOT)
    assert child.stdout is not None
    confirmed = 0
    for line in child.stdout:
        confirmed = int(line)
        if confirmed >= 60:
            break
    child.send_signal(signal.SIGKILL)
    child.wait(timeout=10)
    child.stdout.close()
    loaded = load(path)
    seqs = [r["seq"] for r in loaded.records]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= confirmed
    rebuild(loaded)


def test_journal_keeps_an_accepted_illegal_play_as_on_the_board(tmp_path: Path) -> None:
    settings, clock = MatchRules(length=3), ClockSettings.off()
    opening = OpeningRoll(Dice(3, 1))
    timed = TimedMatch.start(settings, clock).apply(opening, 0)
    me = list(timed.state.position.me)
    me[8] -= 1
    me[3] += 1  # 8/3 with 3-1 (X1)
    seen = Position(tuple(me), timed.state.position.them)
    event = Played(0, Play.parse("8/3"), after=seen, accepted_illegal=True)
    path = tmp_path / "x1.jsonl"
    with JournalWriter(path, make_header(settings, clock)) as writer:
        writer.event(opening, 0, timed)
        timed = timed.apply(event, 0)
        writer.event(event, 0, timed)
        for extra in (Double(1), Take(0), Roll(1, Dice(6, 5)), Played(1, Play.parse("24/13"))):
            timed = timed.apply(extra, 0)
            writer.event(extra, 0, timed)
        writer.flush()
    rebuilt = rebuild(load(path))
    assert rebuilt.state.position_of(0) == timed.state.position_of(0)
    assert rebuilt.state.position_of(0).me[3] == 1
