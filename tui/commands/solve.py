"""Solve Connect Four positions exactly: one `MOVES SCORE` line each (Pons' scores)."""

from __future__ import annotations

import argparse
import sys
from typing import Iterable, Iterator

SOLVABLE = ("connect4",)
"""Games this command can solve."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id; only connect4 can be solved")
    parser.add_argument("moves", nargs="*", metavar="MOVES",
                        help="columns played from the start, 1-7, e.g. 4453 "
                             "('' is the empty board, far too slow to solve here)")
    parser.add_argument("--stdin", action="store_true",
                        help="also read positions from standard input, one per line; only "
                             "the first field counts, so Pons' 'MOVES SCORE' files work; "
                             "blank lines are skipped")
    parser.add_argument("--analyse", "--analyze", action="store_true",
                        help="print the score of each column 1-7 instead ('-' if full)")
    parser.add_argument("--weak", action="store_true",
                        help="only win (1), draw (0) or loss (-1): faster")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print nodes and seconds per position on stderr")


def _stdin_positions(stream: Iterable[str]) -> Iterator[str]:
    for line in stream:
        fields = line.split()
        if fields:
            yield fields[0]


def run(args: argparse.Namespace) -> int:
    if args.game not in SOLVABLE:
        print(f"parlor solve: cannot solve {args.game!r}; solvable: {', '.join(SOLVABLE)}",
              file=sys.stderr)
        return 2
    if not args.moves and not args.stdin:
        print("parlor solve: give MOVES or --stdin", file=sys.stderr)
        return 2

    import itertools
    import time

    from brains.c4solver import Position, Solver

    solver = Solver()
    positions: Iterable[str] = args.moves
    if args.stdin:
        positions = itertools.chain(args.moves, _stdin_positions(sys.stdin))
    failed = False
    try:
        for moves in positions:
            try:
                position = Position.from_moves(moves)
            except ValueError as exc:
                print(f"{moves} error: {exc}", flush=True)
                failed = True
                continue
            nodes, start = solver.nodes, time.perf_counter()
            if args.analyse:
                scores = solver.analyse(position, weak=args.weak)
                text = " ".join("-" if s is None else str(s) for s in scores)
            else:
                text = str(solver.solve(position, weak=args.weak))
            print(f"{moves} {text}", flush=True)
            if args.verbose:
                print(f"{moves}: {solver.nodes - nodes} nodes, "
                      f"{time.perf_counter() - start:.3f} s", file=sys.stderr)
    except UnicodeDecodeError:
        print("error: input is not UTF-8 text", flush=True)
        failed = True
    return 1 if failed else 0
