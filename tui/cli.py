"""The ``parlor`` command: the Textual app by default, and non-interactive subcommands.

Each subcommand is a module in ``tui/commands`` with ``add_arguments(parser)`` and
``run(args) -> int``; its docstring's first line is its help. Those modules import
only ``argparse`` (and the light ``tui.commands.common``) at the top, so ``parlor perft``
starts without loading Textual, scikit-learn or numpy.

Every failure the user can cause reaches them as one line on stderr and exit status 2:
a bad argument (each number has a range, see ``tui.commands.common``), and any error a
command raises from what it reads (a record, a model, a manifest, a brain spec).
"""

from __future__ import annotations

import argparse
import importlib
import sys

COMMANDS: dict[str, str] = {
    "play": "tui.commands.play",
    "replay": "tui.commands.replay",
    "serve": "tui.commands.serve",
    "host": "tui.commands.host",
    "games": "tui.commands.games",
    "perft": "tui.commands.perft",
    "moves": "tui.commands.moves",
    "validate": "tui.commands.validate",
    "export": "tui.commands.export",
    "brains": "tui.commands.brains",
    "solve": "tui.commands.solve",
    "analyse": "tui.commands.analyse",
    "match": "tui.commands.match",
    "tournament": "tui.commands.tournament",
    "calibrate": "tui.commands.calibrate",
    "engine": "tui.commands.engine",
    "train": "tui.commands.train",
}
"""Subcommand name -> module, in the order ``parlor --help`` lists them."""


class UsageError(Exception):
    """A bad command line; its message is printed as one line."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``--help`` shows the usage)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        from tui.commands.common import one_line

        raise UsageError(f"{self.prog}: {one_line(message)} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand (a missing command module is an error)."""
    parser = _Parser(
        prog="parlor",
        description="Classic board games in the terminal. With no command, opens the app.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, path in COMMANDS.items():
        module = importlib.import_module(path)
        doc = (module.__doc__ or name).strip().splitlines()[0]
        cmd = sub.add_parser(name, help=doc, description=doc)
        module.add_arguments(cmd)
        cmd.set_defaults(run=module.run)
    return parser


def _failure_classes() -> tuple[type[BaseException], ...]:
    """Errors that come from what a command read or was given (not from a bug):
    ParlorError, ModelError, UnknownBrainError and the like are ValueErrors."""
    import pickle

    return (ValueError, OSError, EOFError, RecursionError, MemoryError, LookupError,
            pickle.UnpicklingError, ImportError)


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``parlor`` console script."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0].startswith("-") and argv[0] not in ("-h", "--help"):
        argv = ["play", *argv]  # `parlor --ascii` means `parlor play --ascii`
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            args = parser.parse_args(["play"])
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        return int(args.run(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
    except _failure_classes() as exc:
        from tui.commands.common import one_line

        # ValueErrors (ParlorError, ModelError, …) and OSErrors say what went wrong;
        # other classes (a RecursionError from a deeply nested file, a KeyError from a
        # damaged pickle) need their name to mean anything.
        named = "" if isinstance(exc, (ValueError, OSError)) else f"{type(exc).__name__}: "
        print(f"parlor {args.command}: {named}{one_line(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
