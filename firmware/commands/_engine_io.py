"""Reading positions and dice from the command line, shared by the engine commands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from engine.dice import Dice
from engine.errors import NardrefError, NotationError
from engine.position import Position, check
from engine.rules import Rules, find_variant, with_named_options


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        default="standard",
        metavar="NAME",
        help="standard (default), nackgammon, hypergammon, long-nardy, app (seed 000 rules)",
    )
    parser.add_argument(
        "--rule",
        action="append",
        default=[],
        metavar="OPTION",
        help="switch on a rule option: least-waste (E5), no-hit-and-run (H1); may be repeated",
    )


def rules_from(args: argparse.Namespace) -> Rules:
    return with_named_options(find_variant(args.variant), args.rule)


def read_position(text: str, rules: Rules, *, what: str = "position", seen: bool = False) -> Position:
    """A Position ID or XGID, checked to be a position that can exist; a
    ``seen`` position (what is on the board after a move) may be impossible,
    and the judge says why (a checker on a blocked point, a checker missing)."""
    position = Position.parse(text, checkers=rules.checkers)
    return position if seen else check(position, rules, what=what)


def read_dice(text: str) -> Dice:
    return Dice.parse(text)


def run_batch(shape: str, answer: Callable[[list[str]], str]) -> int:
    """Answer one case per line of standard input, one JSON line each, in order.

    ``shape`` names the fields (``"POSITION DICE"``); ``answer`` turns a line's
    fields into its JSON text. A bad line gets ``{"error": "line N: ..."}`` and
    the rest go on; blank lines are skipped.
    """
    expected = len(shape.split())
    out = sys.stdout
    for number, line in enumerate(sys.stdin, 1):
        fields = line.split()
        if not fields:
            continue
        try:
            if len(fields) != expected:
                raise NotationError(f"expected {shape!r}, got {line.strip()!r}")
            text = answer(fields)
        except NardrefError as exc:
            text = json.dumps({"error": f"line {number}: {exc}"})
        out.write(text + "\n")
    out.flush()
    return 0
