"""Replay a game record in the app: step through it, or play on from any position."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record (.pgn)")
    parser.add_argument("--ascii", action="store_true", help="draw boards in plain ASCII")


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from engine.protocol import ParlorError
    from engine.record import load_records
    from tui.commands.common import one_line

    try:  # a bad file is one line here, before the app starts
        load_records(args.file)
    except ParlorError as exc:
        print(f"parlor replay: {one_line(exc)}", file=sys.stderr)
        return 2

    from tui.app import Launch, ParlorApp

    ParlorApp(Launch(kind="replay", path=Path(args.file)), ascii_board=args.ascii or None).run()
    return 0
