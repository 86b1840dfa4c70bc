"""``nardref judge BEFORE DICE AFTER``: is the change from BEFORE to AFTER a legal play?

Exit 0 legal (prints the play), 1 illegal (prints the reasons with rule IDs
and the nearest legal plays), 2 unreadable input. AFTER is read from the same
player's side as BEFORE, so any line ``nardref legal`` prints is a legal AFTER.
With ``--image`` the AFTER position comes from a photo of the board instead.
"""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import NardrefError
from engine.judge import Judgement, describe, judge
from engine.rules import Rules
from firmware.commands import judge_photo
from firmware.commands._engine_io import (
    add_rules_arguments,
    read_dice,
    read_position,
    rules_from,
    run_batch,
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser(
        "judge",
        help="judge a move: BEFORE DICE AFTER, or BEFORE DICE --image PHOTO",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("before", nargs="?", help="the position before the move (Position ID or XGID)")
    parser.add_argument("dice", nargs="?", help="the roll, e.g. 31 or 3-1")
    parser.add_argument("after", nargs="?", help="the position after the move, same player's side")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--batch", action="store_true", help="read 'BEFORE DICE AFTER' lines from standard input")
    add_rules_arguments(parser)
    judge_photo.add_arguments(parser)
    parser.set_defaults(handler=run)


def judgement_json(judgement: Judgement) -> dict[str, object]:
    if judgement.legal:
        return {"legal": True, "play": str(judgement.play)}
    return {
        "legal": False,
        "reasons": [{"rule": r.rule, "message": r.message} for r in judgement.reasons],
        "nearest": [str(lp.play) for lp in judgement.nearest],
    }


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from(args)
    except NardrefError as exc:
        print(f"nardref judge: {exc}", file=sys.stderr)
        return 2
    if args.batch:
        return _batch(rules)
    if args.image:
        return judge_photo.run(args)
    if args.before is None or args.dice is None or args.after is None:
        print("nardref judge: give BEFORE DICE AFTER (or --image PHOTO, or --batch)", file=sys.stderr)
        return 2
    try:
        before = read_position(args.before, rules, what="BEFORE")
        dice = read_dice(args.dice)
        after = read_position(args.after, rules, what="AFTER", seen=True)
    except NardrefError as exc:
        print(f"nardref judge: {exc}", file=sys.stderr)
        return 2
    judgement = judge(before, dice, after, rules)
    if args.json:
        print(json.dumps(judgement_json(judgement)))
    else:
        print(describe(judgement))
    return 0 if judgement.legal else 1


def _batch(rules: Rules) -> int:
    def answer(fields: list[str]) -> str:
        before = read_position(fields[0], rules, what="BEFORE")
        after = read_position(fields[2], rules, what="AFTER", seen=True)
        return json.dumps(judgement_json(judge(before, read_dice(fields[1]), after, rules)))

    return run_batch("BEFORE DICE AFTER", answer)
