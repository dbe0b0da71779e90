"""The ``parlor`` command: the Textual app by default, and non-interactive subcommands.

Each subcommand is a module of this package (``tui/cli/<name>.py``) with
``add_arguments(parser)`` and ``run(args) -> int``; its docstring's first line is its
help. Those modules import
only ``argparse`` (and the light ``tui.cli.common``) at the top, so ``parlor perft``
starts without loading Textual, scikit-learn or numpy.

Every failure the user can cause reaches them as one line on stderr and exit status 2:
a bad argument (each number has a range, see ``tui.cli.common``), any error a
command raises from what it reads (a record, a model, a manifest, a brain spec: all
:class:`engine.protocol.ParlorError`) and what the system refuses (an ``OSError``).
Anything else is a bug: one line says so and names the file its traceback went to
(Parlor's log folder), exit status 70.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from engine.protocol import ParlorError

COMMANDS: dict[str, str] = {
    "play": "tui.cli.play",
    "replay": "tui.cli.replay",
    "serve": "tui.cli.serve",
    "host": "tui.cli.host",
    "games": "tui.cli.games",
    "perft": "tui.cli.perft",
    "moves": "tui.cli.moves",
    "validate": "tui.cli.validate",
    "export": "tui.cli.export",
    "brains": "tui.cli.brains",
    "solve": "tui.cli.solve",
    "analyse": "tui.cli.analyse",
    "explore": "tui.cli.explore",
    "puzzles": "tui.cli.puzzles",
    "match": "tui.cli.match",
    "tournament": "tui.cli.tournament",
    "calibrate": "tui.cli.calibrate",
    "engine": "tui.cli.engine",
    "train": "tui.cli.train",
}
"""Subcommand name -> module, in the order ``parlor --help`` lists them."""


class UsageError(ParlorError):
    """A bad command line; its message is printed as one line."""


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (``--help`` shows the usage)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        from tui.cli.common import one_line

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


def _report_bug(command: str, exc: BaseException) -> str:
    """Write ``exc``'s traceback to a file in Parlor's log folder and return the one line
    that tells the user about it (the traceback itself when no file can be written)."""
    import datetime
    import os
    import traceback

    import platformdirs

    from tui.cli.common import one_line

    text = "".join(traceback.format_exception(exc))
    what = f"{type(exc).__name__}: {one_line(exc)}"
    head = f"parlor {command}: internal error (a bug in Parlor): {what}"
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    folder = platformdirs.user_log_path("parlor", appauthor=False)
    path = folder / f"crash-{stamp}-{os.getpid()}.txt"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        path.write_text(f"parlor {command}\n{text}", encoding="utf-8")
    except OSError:
        return f"{head}\n{text}"
    return f"{head}\nThe traceback is in {path}; please include it when you report this."


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
    except (ParlorError, OSError) as exc:
        from tui.cli.common import one_line

        # Expected failures: what a command read or was given (ParlorError and its
        # subclasses) and what the system refused (a missing file, a full disk).
        print(f"parlor {args.command}: {one_line(exc)}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - anything else is a bug: say so, keep the traceback
        print(_report_bug(args.command, exc), file=sys.stderr)
        return 70

