"""The ``nardref`` command line: one sub-command per job.

Each sub-command lives in its own module under :mod:`firmware.commands` and
exposes ``register(subparsers)``; heavy libraries (numpy, OpenCV) are imported
inside the command's handler, and only the command asked for is loaded, so
``nardref legal`` starts as fast as Python.

Exit codes shared by every command: 0 done (or legal), 1 illegal or
inconsistent, 2 unreadable input, 3 refused (vision could not see the board).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2
EXIT_REFUSED = 3

#: Command modules, in the order ``nardref --help`` lists them.
COMMANDS = (
    "demo",
    "run",
    "show",
    "legal",
    "judge",
    "replay",
    "export",
    "detect",
    "calibrate",
    "render",
    "markers",
)


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with ``only``, just that command's (so a batch job starts fast)."""
    parser = argparse.ArgumentParser(
        prog="nardref",
        description="A referee for real backgammon boards.",
        epilog="Exit codes: 0 ok/legal, 1 illegal/inconsistent, 2 bad input, 3 refused.",
    )
    parser.add_argument("-v", "--verbose", action="count", default=0, help="more log output (-vv for debug)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in (only,) if only in COMMANDS else COMMANDS:
        importlib.import_module(f"firmware.commands.{name}").register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    first = next((w for w in words if not w.startswith("-")), None)
    parser = build_parser(first if "-h" not in words and "--help" not in words else None)
    args = parser.parse_args(words)
    logging.basicConfig(
        level=(logging.WARNING, logging.INFO, logging.DEBUG)[min(args.verbose, 2)],
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return EXIT_OK
    return code


if __name__ == "__main__":
    sys.exit(main())
