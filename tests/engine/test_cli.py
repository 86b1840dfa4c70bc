"""The engine's command line: show, legal and judge, one case and --batch."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from engine.dice import Dice
from engine.legal import legal_plays
from engine.position import Position
from engine.rules import LONG_NARDY
from firmware.cli import main

START = "4HPwATDgc/ABMA"


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        code = main(list(argv))
    finally:
        sys.stdin = sys.__stdin__
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_show_prints_diagram_ids_and_pips(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", START)
    assert code == 0
    assert "Position ID: 4HPwATDgc/ABMA" in out and "XGID=-b----E-C---eE---c-e----B-" in out
    assert "pips X 167, O 167" in out


def test_cli_show_reads_xgid(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "--json", "XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0:10")
    assert code == 0 and json.loads(out)["position_id"] == START


def test_cli_legal_lists_each_play_with_its_position_id(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "legal", START, "3-1")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 16
    assert any(line.split()[:2] == ["8/5", "6/5"] for line in lines)


def test_cli_legal_then_judge_agree(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "legal", START, "52", "--json")
    for entry in json.loads(out)["plays"]:
        code, verdict, _ = run(capsys, "judge", START, "52", entry["position_id"], "--json")
        assert code == 0 and json.loads(verdict) == {"legal": True, "play": entry["play"]}


def test_cli_legal_forced_pass_gives_the_empty_play(capsys: pytest.CaptureFixture[str]) -> None:
    closed = Position(
        (0, 0, 0, 0, 0, 0, 14, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
        (0, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    )
    code, out, _ = run(capsys, "legal", closed.position_id(), "65", "--json")
    assert code == 0
    assert json.loads(out) == {"plays": [{"play": "", "position_id": closed.position_id()}]}


def test_cli_judge_illegal_exits_1_with_rule_ids(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "judge", START, "31", START)
    assert code == 1
    assert "M6" in out and "nearest legal plays" in out


def test_cli_bad_input_exits_2_and_names_it(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "judge", "notanid", "31", START)
    assert code == 2 and "'notanid'" in err
    code, _, err = run(capsys, "legal", START, "71")
    assert code == 2 and "'71'" in err
    code, _, err = run(capsys, "legal", START, "31", "--variant", "chess")
    assert code == 2 and "'chess'" in err


def test_cli_legal_batch_keeps_order_and_survives_bad_lines(capsys: pytest.CaptureFixture[str]) -> None:
    stdin = f"{START} 31\nnonsense\n{START} 66\n\n{START} 7-1\n"
    code, out, _ = run(capsys, "legal", "--batch", "--count", stdin=stdin)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert rows[0] == {"count": 16} and "error" in rows[1] and rows[2] == {"count": 11} and "error" in rows[3]
    code, out, _ = run(capsys, "legal", "--batch", stdin=f"{START} 31\n")
    plays = json.loads(out)["plays"]
    assert len(plays) == 16 and set(plays[0]) == {"play", "position_id"}


def test_cli_judge_batch(capsys: pytest.CaptureFixture[str]) -> None:
    good = legal_plays(Position.start(), Dice(3, 1))[0]
    stdin = f"{START} 31 {good.after.position_id()}\n{START} 31 {START}\n{START} 31\n"
    code, out, _ = run(capsys, "judge", "--batch", stdin=stdin)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert rows[0] == {"legal": True, "play": str(good.play)}
    assert rows[1]["legal"] is False and rows[1]["reasons"][0]["rule"] == "M6" and rows[1]["nearest"]
    assert "error" in rows[2]


def test_cli_variant_and_rule_options(capsys: pytest.CaptureFixture[str]) -> None:
    long_start = Position.start(LONG_NARDY)
    code, out, _ = run(capsys, "legal", long_start.position_id(), "65", "--variant", "long-nardy")
    assert code == 0 and out.split()[0] == "24/13"
    code, _, err = run(capsys, "legal", START, "31", "--rule", "sideways")
    assert code == 2 and "'sideways'" in err


def test_cli_runs_as_a_console_script() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "firmware.cli", "legal", START, "31"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0 and len(done.stdout.splitlines()) == 16


def test_cli_judge_explains_an_impossible_board_seen_after(capsys: pytest.CaptureFixture[str]) -> None:
    """A checker put on a blocked point leaves both colours on it: the judge says M2, not 'bad input'."""
    code, out, _ = run(capsys, "judge", START, "66", "4HPwATDg26EDIA")
    assert code == 1
    assert "M2 point 12 is blocked" in out and "24/18(2) 13/7(2)" in out
    code, _, err = run(capsys, "judge", "4HPwATDg26EDIA", "66", START)
    assert code == 2 and "BEFORE" in err and "shared point" in err
