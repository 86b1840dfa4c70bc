"""Reading positions and dice from the command line, shared by the engine commands."""

from __future__ import annotations

import argparse

from engine.dice import Dice
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


def read_position(text: str, rules: Rules, *, what: str = "position") -> Position:
    """A Position ID or XGID, checked to be a position that can exist."""
    return check(Position.parse(text, checkers=rules.checkers), rules, what=what)


def read_dice(text: str) -> Dice:
    return Dice.parse(text)
