"""Print the legal moves after each line of moves read from a file or stdin."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `parlor games`)")
    parser.add_argument("file", nargs="?", default="-",
                        help="file of move sequences, one per line, from the start "
                             "(default or '-': standard input)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option, e.g. -o size=6 (repeatable)")


MAX_BYTES = 2_000_000
"""Largest move file read (as for records)."""


def run(args: argparse.Namespace) -> int:
    from engine import ParlorError, new_game
    from engine.files import LineError, read_capped, read_lines, stream_reader
    from tui.cli.common import one_line, parse_options

    try:
        start = new_game(args.game, **parse_options(args.option))
    except ParlorError as exc:
        print(f"parlor moves: {one_line(exc)}", file=sys.stderr)
        return 2
    if args.file == "-":
        lines: Iterable[str | LineError] = read_lines(stream_reader(sys.stdin))
    else:
        try:
            data = read_capped(args.file, MAX_BYTES)
        except ParlorError as exc:
            print(f"parlor moves: {one_line(exc)}", file=sys.stderr)
            return 2
        try:
            lines = data.decode("utf-8-sig").splitlines()
        except UnicodeDecodeError:
            print(f"parlor moves: {args.file}: not UTF-8 text", file=sys.stderr)
            return 2
    failed = False
    for lineno, line in enumerate(lines, start=1):
        if isinstance(line, LineError):
            print(f"error: line {lineno}: {line}")
            failed = True
            continue
        try:
            state = start.play_line(line)
        except ParlorError as exc:
            print(f"error: line {lineno}: {one_line(exc)}")
            failed = True
            continue
        print(" ".join(state.format_move(m) for m in state.legal_moves()))
    return 1 if failed else 0
