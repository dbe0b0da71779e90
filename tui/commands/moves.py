"""Print the legal moves after each line of moves read from a file or stdin."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `parlor games`)")
    parser.add_argument("file", nargs="?", default="-",
                        help="file of move sequences, one per line, from the start "
                             "(default or '-': standard input)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option, e.g. -o size=6 (repeatable)")


def run(args: argparse.Namespace) -> int:
    from engine import ParlorError, new_game
    from tui.commands.common import parse_options

    try:
        start = new_game(args.game, **parse_options(args.option))
    except ParlorError as exc:
        print(f"parlor moves: {exc}", file=sys.stderr)
        return 2
    try:
        stream = sys.stdin if args.file == "-" else open(args.file, encoding="utf-8")
    except OSError as exc:
        print(f"parlor moves: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    failed = False
    with stream:
        try:
            for lineno, line in enumerate(stream, start=1):
                try:
                    state = start.play_line(line)
                except ParlorError as exc:
                    print(f"error: line {lineno}: {exc}")
                    failed = True
                    continue
                print(" ".join(state.format_move(m) for m in state.legal_moves()))
        except UnicodeDecodeError:
            print("error: input is not UTF-8 text")
            failed = True
    return 1 if failed else 0
