"""Count move sequences of each length from the start (the engine's speed benchmark)."""

from __future__ import annotations

import argparse
import sys

from engine.perft import MAX_DEPTH
from tui.cli.common import int_range


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `parlor games`)")
    parser.add_argument("depth", type=int_range(1, MAX_DEPTH),
                        help=f"deepest depth to count (1 to {MAX_DEPTH})")
    parser.add_argument("--divide", action="store_true",
                        help="also print the count below each first move at DEPTH")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option, e.g. -o size=6 (repeatable)")


def run(args: argparse.Namespace) -> int:
    from engine import ParlorError, new_game
    from engine.perft import divide, perft
    from tui.cli.common import one_line, parse_options

    try:
        state = new_game(args.game, **parse_options(args.option))
    except ParlorError as exc:
        print(f"parlor perft: {one_line(exc)}", file=sys.stderr)
        return 2
    for d, count in enumerate(perft(state, args.depth), start=1):
        print(d, count)
    if args.divide:
        for move, count in divide(state, args.depth):
            print(f"{move}: {count}")
    return 0
