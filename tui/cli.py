"""The ``parlor`` command: the Textual app by default, and non-interactive subcommands.

Each subcommand is a module in ``tui/commands`` with ``add_arguments(parser)`` and
``run(args) -> int``; its docstring's first line is its help. Those modules import
only ``argparse`` at the top, so ``parlor perft`` starts without loading Textual,
scikit-learn or numpy.
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, str] = {
    "play": "tui.commands.play",
    "replay": "tui.commands.replay",
    "serve": "tui.commands.serve",
    "games": "tui.commands.games",
    "perft": "tui.commands.perft",
    "moves": "tui.commands.moves",
    "validate": "tui.commands.validate",
    "bench": "tui.commands.bench",
    "brains": "tui.commands.brains",
    "solve": "tui.commands.solve",
    "match": "tui.commands.match",
    "tournament": "tui.commands.tournament",
    "engine": "tui.commands.engine",
    "train": "tui.commands.train",
}
"""Subcommand name -> module, in the order ``parlor --help`` lists them."""


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every available subcommand."""
    parser = argparse.ArgumentParser(
        prog="parlor",
        description="Classic board games in the terminal. With no command, opens the app.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, path in COMMANDS.items():
        try:
            module = importlib.import_module(path)
        except ModuleNotFoundError as exc:
            if exc.name == path:  # that command is not written yet
                continue
            raise
        doc = (module.__doc__ or name).strip().splitlines()[0]
        cmd = sub.add_parser(name, help=doc, description=doc)
        module.add_arguments(cmd)
        cmd.set_defaults(run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``parlor`` console script."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["play", *argv]  # `parlor --ascii` means `parlor play --ascii`
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["play"])
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
