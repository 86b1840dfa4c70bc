"""``nardref replay FILE.mat``: replay a match record through the referee.

Every game is set up, every roll, play and cube action applied and judged,
every ``Wins N point(s)`` line checked against the points the referee
computes. Exit 0 when the record is consistent, 1 at the first inconsistency
(game, move number, what is wrong, rule ID), 2 for a file it cannot read
(with the line number). ``--journal OUT`` also writes the replayed match as
a referee journal (docs/journal.md), with the clock off and every time 0.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.errors import NardrefError
from engine.mat import MatchRecord, Replayed, ReplayError, parse, replay


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("replay", help="replay a .mat match record and check it move by move")
    parser.add_argument("file", help="a Jellyfish .mat match record (GNU Backgammon, XG, Backgammon Studio)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--journal", metavar="OUT", help="also write the replayed match as a referee journal")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        text = Path(args.file).read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return _bad_input(args, f"cannot read {args.file!r}: {exc.strerror or exc}")
    try:
        record = parse(text)
        replayed = replay(record)
    except ReplayError as exc:
        if args.json:
            print(
                json.dumps(
                    {
                        "file": args.file,
                        "consistent": False,
                        "error": str(exc),
                        "game": exc.game,
                        "move": exc.move,
                        "rule": exc.rule,
                        "line": exc.line,
                    }
                )
            )
        else:
            print(f"nardref replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    except NardrefError as exc:
        return _bad_input(args, f"{args.file}: {exc}")
    if args.journal:
        try:
            _write_journal(args.journal, record, replayed)
        except OSError as exc:
            return _bad_input(args, f"cannot write journal {args.journal!r}: {exc.strerror or exc}")
    _report(args, record, replayed)
    return 0


def _bad_input(args: argparse.Namespace, message: str) -> int:
    if args.json:
        print(json.dumps({"file": args.file, "consistent": False, "error": message}))
    else:
        print(f"nardref replay: {message}", file=sys.stderr)
    return 2


def _report(args: argparse.Namespace, record: MatchRecord, replayed: Replayed) -> None:
    state = replayed.state
    games = len(record.games)
    from engine.match import Pass, Played

    moves = sum(1 for game in replayed.events for event in game if isinstance(event, (Played, Pass)))
    if args.json:
        print(
            json.dumps(
                {
                    "file": args.file,
                    "consistent": True,
                    "length": record.length,
                    "players": list(record.players),
                    "score": list(state.score),
                    "games": games,
                    "plays": moves,
                    "winner": state.winner,
                }
            )
        )
        return
    length = f"{record.length}-point match" if record.length else "money session"
    names = record.players
    print(f"{args.file}: consistent ({length}, {games} games, {moves} plays)")
    print(f"final score: {names[0] or 'player 0'} {state.score[0]} - {names[1] or 'player 1'} {state.score[1]}")


def _write_journal(path: str, record: MatchRecord, replayed: Replayed) -> None:
    from engine.clock import ClockSettings
    from engine.match import TimedMatch
    from firmware.journal import JournalWriter, make_header

    settings = record.settings()
    clock = ClockSettings.off()
    Path(path).unlink(missing_ok=True)
    timed = TimedMatch.start(settings, clock)
    with JournalWriter(path, make_header(settings, clock, players=record.players)) as writer:
        for game in replayed.events:
            for event in game:
                timed = timed.apply(event, 0)
                writer.event(event, 0, timed)
        writer.flush()
