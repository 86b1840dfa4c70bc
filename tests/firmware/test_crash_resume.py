"""A power cut mid-game: the referee process is killed with SIGKILL and restarted; it resumes from the journal.

The demo is the referee process here (real vision, referee, loop and journal,
simulated players and table). It is killed mid-game, restarted, and killed
again a few moves later. The journal must then replay as one match: every
clock figure stored after the restart follows exactly from the figures before
the kill (rebuild checks each), so the clock was resumed, not reset, and the
game went on from where it stopped.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from engine.match import Phase
from firmware.journal import load, rebuild


def _demo(journal: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "firmware.cli",
        "demo",
        "--headless",
        "--length",
        "1",
        "--seed",
        "4",
        "--journal",
        str(journal),
    ]


def test_crash_resume_after_sigkill_mid_game(tmp_path: Path) -> None:
    journal = tmp_path / "journal.jsonl"
    # TMPDIR: a killed demo cannot remove its scratch folder; keep it in the test's own.
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "TMPDIR": str(tmp_path)}
    first = subprocess.Popen(_demo(journal), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    _kill_after(first, journal, lines=20)

    before = load(journal)
    at_kill = rebuild(before)
    assert at_kill.state.phase != Phase.MATCH_OVER and at_kill.state.game == 1
    assert at_kill.state.position != type(at_kill.state.position).start()  # mid-game, checkers moved

    second = subprocess.Popen(_demo(journal), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env, text=True)
    _kill_after(second, journal, lines=len(before.records) + 1 + 8)
    assert second.stdout is not None
    said = second.stdout.read()
    assert "resumed game 1 from the journal" in said
    assert "board set up" not in said  # no new set-up check: the game goes on

    after = load(journal)
    assert after.records[: len(before.records)] == before.records  # nothing confirmed was lost
    resumed = after.records[len(before.records) :]
    assert len(resumed) >= 8 and resumed[0]["t_ns"] >= before.records[-1]["t_ns"]
    final = rebuild(after)  # raises if a stored clock figure does not follow from the replay
    assert final.state.game == 1 and len(final.state.position.me) == 26


def _kill_after(process: subprocess.Popen[bytes] | subprocess.Popen[str], journal: Path, *, lines: int) -> None:
    """SIGKILL ``process`` once ``journal`` holds ``lines`` lines (a power cut, as far as the program knows)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if journal.exists() and journal.read_bytes().count(b"\n") >= lines:
            break
        assert process.poll() is None, "the demo ended before it could be killed"
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait(timeout=10)
    assert process.returncode == -signal.SIGKILL
