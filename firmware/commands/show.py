"""``nardref show POSITION``: the board diagram, Position ID, XGID and pip counts."""

from __future__ import annotations

import argparse
import json
import sys

from engine.errors import NardrefError
from firmware.commands._engine_io import add_rules_arguments, read_position, rules_from


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = sub.add_parser("show", help="draw a position and print its IDs and pip counts")
    parser.add_argument("position", help="a GNU Backgammon Position ID or an 'XGID=...' string")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the diagram")
    add_rules_arguments(parser)
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        rules = rules_from(args)
        position = read_position(args.position, rules)
    except NardrefError as exc:
        print(f"nardref show: {exc}", file=sys.stderr)
        return 2
    mine, theirs = position.pips()
    if args.json:
        print(
            json.dumps(
                {
                    "position_id": position.position_id(),
                    "xgid": position.xgid(),
                    "pips": {"on_roll": mine, "opponent": theirs},
                    "on_roll": list(position.me),
                    "opponent": list(position.them),
                }
            )
        )
        return 0
    print(position.diagram(rules))
    print(f" Position ID: {position.position_id()}")
    print(f" XGID: {position.xgid()}")
    print(f" X is on roll; pips X {mine}, O {theirs}")
    return 0
