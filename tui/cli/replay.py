"""Replay a game record in the app: step through it, or play on from any position.

A file of several games opens on the list of its games (filters, search); ``--game N``
goes straight to game N."""

from __future__ import annotations

import argparse

MAX_GAME = 10_000_000
"""No file Parlor reads holds more games (the size cap allows far fewer)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from tui.cli.common import int_range

    parser.add_argument("file", help="a game file in any format Parlor reads (records, PDN, "
                                     "GGF, WTHOR .wtb, Othello transcripts, Connect Four "
                                     "columns)")
    parser.add_argument("--game", "-g", type=int_range(1, MAX_GAME), metavar="N",
                        help="replay game N of the file (from 1); default: its only game, "
                             "or the list of its games")
    parser.add_argument("--ascii", action="store_true", help="draw boards in plain ASCII")


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from engine.formats import load_chunks
    from engine.protocol import ParlorError
    from tui.cli.common import one_line

    try:  # a bad file, or a game it lacks or cannot read, is one line here
        chunks = load_chunks(args.file)
        if args.game is not None and not 1 <= args.game <= len(chunks):
            print(f"parlor replay: {one_line(args.file)} holds {len(chunks)} "
                  f"game{'s' if len(chunks) != 1 else ''}; --game takes 1 to {len(chunks)}",
                  file=sys.stderr)
            return 2
        if args.game is not None or len(chunks) == 1:
            chunks[(args.game or 1) - 1].parse()
    except ParlorError as exc:
        print(f"parlor replay: {_message(exc, args.game)}", file=sys.stderr)
        return 2

    from tui.app.main import Launch, ParlorApp

    ParlorApp(Launch(kind="replay", path=Path(args.file), number=args.game),
              ascii_board=args.ascii or None).run()
    return 0


def _message(exc: Exception, number: int | None) -> str:
    """The error on one line: ``FILE: game N: line L: reason`` for a damaged game."""
    from engine.formats import GameError
    from tui.cli.common import one_line

    if isinstance(exc, GameError):
        where = f"line {exc.line}: " if exc.line is not None else ""
        return one_line(f"{exc.source}: game {number or 1}: {where}{exc.reason}")
    return one_line(exc)
