"""``nardref replay`` and ``nardref export`` end to end, and GNU Backgammon importing the export."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from engine.clock import ClockSettings
from engine.dice import Dice
from engine.match import MatchRules, OpeningRoll, Played, Roll, TimedMatch
from engine.play import Play
from engine.position import Position
from firmware.cli import main
from firmware.journal import JournalWriter, make_header

ROOT = Path(__file__).resolve().parents[2]
HUMAN = sorted(p for p in Path("/work/shared/matches/human").glob("*.txt"))
DATA = ROOT / "tests" / "data" / "mat"
GNUBG = shutil.which("gnubg") or shutil.which("/usr/games/gnubg")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.skipif(not HUMAN, reason="the 40 human records are not at /work/shared/matches/human")
@pytest.mark.parametrize("path", HUMAN, ids=lambda p: p.name)
def test_replay_cli_human_records_are_consistent(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "replay", str(path))
    assert code == 0, err
    assert "consistent" in out and "final score" in out


def test_replay_cli_json_reports_score(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "replay", str(DATA / "gnubg-selfplay-7pt-seed13.mat"), "--json")
    report = json.loads(out)
    assert code == 0 and report["consistent"] and report["length"] == 7 and max(report["score"]) >= 7


def test_replay_cli_inconsistent_record_exits_1_naming_game_move_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "replay", str(DATA / "broken-wrong-move.mat"), "--json")
    report = json.loads(out)
    assert code == 1 and (report["game"], report["move"], report["rule"]) == (1, 9, "D1")
    code, _, err = _run(capsys, "replay", str(DATA / "broken-wrong-score.mat"))
    assert code == 1 and "game 1, move 23" in err and "S2" in err


def test_replay_cli_unreadable_file_exits_2_with_line(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = _run(capsys, "replay", str(DATA / "broken-unreadable.mat"))
    assert code == 2 and "line 10" in err
    code, _, err = _run(capsys, "replay", str(tmp_path / "missing.mat"))
    assert code == 2 and "missing.mat" in err


def _games(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[str, object]]:
    code, out, _ = _run(capsys, "replay", str(path), "--json")
    return code, json.loads(out)


@pytest.mark.parametrize(
    "path",
    [DATA / "gnubg-selfplay-7pt-seed12.mat", *HUMAN[:3]],
    ids=lambda p: p.name,
)
def test_replay_cli_round_trip_replay_export_replay(
    path: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    journal = tmp_path / "match.jsonl"
    exported = tmp_path / "again.mat"
    assert _run(capsys, "replay", str(path), "--journal", str(journal))[0] == 0
    assert _run(capsys, "export", str(journal), "--mat", str(exported))[0] == 0
    code, again = _games(capsys, exported)
    _, first = _games(capsys, path)
    assert code == 0
    for key in ("score", "games", "plays", "winner", "length"):
        assert again[key] == first[key], key
    assert _moves(exported) == _moves(path)  # the same games, plays, cube actions and results


def _moves(path: Path) -> list[object]:
    """Per game: every play and cube action, then the result (a flag fall exports as a resignation)."""
    from engine.mat import parse, replay
    from engine.match import Beaver, Double, Drop, Pass, Played, Take

    replayed = replay(parse(path.read_text()))
    kept = (Played, Pass, Double, Take, Drop, Beaver)
    games: list[object] = [[e for e in game if isinstance(e, kept)] for game in replayed.events]
    results = [(r.game, r.winner, r.points, r.match_over) for r in replayed.state.results]
    return [games, results, replayed.state.score]


def _gnubg_import(mat: Path, tmp_path: Path) -> tuple[str, Path]:
    assert GNUBG is not None
    out = tmp_path / "gnubg-again.mat"
    commands = f"import mat {mat}\nexport match mat {out}\nquit\n"
    result = subprocess.run(
        [GNUBG, "-t", "-q"], input=commands, capture_output=True, text=True, timeout=120, check=False
    )
    return result.stdout + result.stderr, out


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed (Debian package 'gnubg')")
def test_replay_cli_gnubg_imports_the_export(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    journal = tmp_path / "match.jsonl"
    exported = tmp_path / "export.mat"
    source = HUMAN[0] if HUMAN else DATA / "gnubg-selfplay-7pt-seed12.mat"
    assert _run(capsys, "replay", str(source), "--journal", str(journal))[0] == 0
    assert _run(capsys, "export", str(journal), "--mat", str(exported))[0] == 0
    log, again = _gnubg_import(exported, tmp_path)
    assert "warning" not in log.lower() and "invalid" not in log.lower() and "error" not in log.lower(), log
    code, report = _games(capsys, again)
    _, first = _games(capsys, exported)
    assert code == 0 and report["plays"] == first["plays"] and report["games"] == first["games"]


@pytest.mark.skipif(GNUBG is None, reason="GNU Backgammon is not installed (Debian package 'gnubg')")
def test_replay_cli_gnubg_imports_an_accepted_illegal_play(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    settings, clock = MatchRules(length=3), ClockSettings.off()
    opening = OpeningRoll(Dice(3, 1))
    timed = TimedMatch.start(settings, clock).apply(opening, 0)
    me = list(timed.state.position.me)
    me[8] -= 1
    me[3] += 1  # 8/3 with 3-1, accepted by the opponent (X1)
    seen = Position(tuple(me), timed.state.position.them)
    journal = tmp_path / "x1.jsonl"
    events = [
        opening,
        Played(0, Play.parse("8/3"), after=seen, accepted_illegal=True),
        Roll(1, Dice(6, 5)),
        Played(1, Play.parse("24/13")),
        Roll(0, Dice(5, 2)),
        Played(0, Play.parse("13/8 6/4")),
    ]
    timed = TimedMatch.start(settings, clock)
    with JournalWriter(journal, make_header(settings, clock)) as writer:
        for event in events:
            timed = timed.apply(event, 0)
            writer.event(event, 0, timed)
    exported = tmp_path / "x1.mat"
    code, _, err = _run(capsys, "export", str(journal), "--mat", str(exported))
    assert code == 0 and "X1" in err
    text = exported.read_text()
    assert "; X1 game 1" in text
    log, again = _gnubg_import(exported, tmp_path)
    assert "warning" not in log.lower() and "invalid" not in log.lower(), log
    rows = [line for line in again.read_text().splitlines() if line.strip()[:3] in ("1) ", "2) ")]
    assert len(rows) == 2 and "31:" in rows[0] and "65:" in rows[0] and "52:" in rows[1]
