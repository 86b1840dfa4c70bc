"""``nardref legal POSITION DICE``: every legal play and the Position ID it leads to.

With ``--batch``, one case per line (``POSITION DICE``) is read from standard
input and one JSON object per line written, in order; a bad line gives
``{"error": "..."}`` and the rest go on.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import NardrefError
from engine.legal import LegalPlay, count_legal, legal_plays
from engine.rules import Rules
from firmware.commands._engine_io import (
    add_rules_arguments,
    read_dice,
    read_position,
    rules_from,
    run_batch,
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("legal", help="list the legal plays of a position and dice")
    parser.add_argument("position", nargs="?", help="a Position ID or an 'XGID=...' string")
    parser.add_argument("dice", nargs="?", help="the roll, e.g. 31 or 3-1")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--batch", action="store_true", help="read 'POSITION DICE' lines from standard input")
    parser.add_argument("--count", action="store_true", help="with --batch: print only the number of plays")
    add_rules_arguments(parser)
    parser.set_defaults(handler=run)


def _plays_json(plays: tuple[LegalPlay, ...]) -> dict[str, object]:
    return {"plays": [{"play": str(lp.play), "position_id": lp.after.position_id()} for lp in plays]}


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from(args)
    except NardrefError as exc:
        print(f"nardref legal: {exc}", file=sys.stderr)
        return 2
    if args.batch:
        return _batch(rules, count=args.count)
    if args.position is None or args.dice is None:
        print("nardref legal: give POSITION and DICE, or --batch to read them from standard input", file=sys.stderr)
        return 2
    try:
        position = read_position(args.position, rules)
        dice = read_dice(args.dice)
    except NardrefError as exc:
        print(f"nardref legal: {exc}", file=sys.stderr)
        return 2
    plays = legal_plays(position, dice, rules)
    if args.json:
        print(json.dumps(_plays_json(plays)))
        return 0
    for lp in plays:
        print(f"{str(lp.play) or '(no legal move: M7)':<28} {lp.after.position_id()}")
    return 0


def _batch(rules: Rules, *, count: bool) -> int:
    def answer(fields: list[str]) -> str:
        position = read_position(fields[0], rules)
        dice = read_dice(fields[1])
        if count:
            return f'{{"count": {count_legal(position, dice, rules)}}}'
        return json.dumps(_plays_json(legal_plays(position, dice, rules)))

    return run_batch("POSITION DICE", answer)
