"""``nardref export JOURNAL --mat OUT``: write a referee journal as a ``.mat`` record.

The record imports into GNU Backgammon and eXtreme Gammon. A journal cut by
a power cut exports up to its last whole event. An illegal play the opponent
accepted (X1) cannot stand in a ``.mat`` record, which holds only legal
plays: it is written as the nearest legal play and named in a ``;`` comment
(see docs/journal.md).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.errors import NardrefError


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("export", help="export a referee journal as a .mat match record")
    parser.add_argument("journal", help="a referee journal (JSON lines, docs/journal.md)")
    parser.add_argument("--mat", metavar="OUT", required=True, help="the .mat file to write ('-' for standard output)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from engine.mat import format_record, record_from_events
    from firmware.journal import decode_settings, events_by_game, load

    try:
        loaded = load(args.journal)
        if loaded.note:
            print(f"nardref export: {loaded.note}", file=sys.stderr)
        if loaded.header is None:
            print(f"nardref export: {args.journal}: no whole header line, nothing to export", file=sys.stderr)
            return 2
        settings, _ = decode_settings(loaded.header)
        players = tuple(str(p) for p in loaded.header.get("players", ("Player 0", "Player 1")))
        record, substitutions = record_from_events(settings, events_by_game(loaded), players=(players[0], players[1]))
    except NardrefError as exc:
        print(f"nardref export: {args.journal}: {exc}", file=sys.stderr)
        return 2
    for substitution in substitutions:
        print(
            f"nardref export: game {substitution.game}: accepted illegal play (X1) written as "
            f"{substitution.written or 'no move'}",
            file=sys.stderr,
        )
    text = format_record(record)
    if args.mat == "-":
        sys.stdout.write(text)
        return 0
    try:
        Path(args.mat).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"nardref export: cannot write {args.mat!r}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
