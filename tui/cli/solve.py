"""Solve positions exactly, each game by its own exact solver (the ``EXACT`` hook of its
brains module, :mod:`brains.exact`), one line per position: Connect Four by Pons' solver
(`MOVES SCORE`, Pons' scores), Five Men's Morris from its database (the position's value
and the value of every legal move), Reversi endgames by the exact endgame solver (the
final disc difference, FFO's count, the best move and every move's value). This module
only reads the arguments and prints."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tui.cli.common import MAX_SECONDS, int_range, seconds_type


class _Intermixed(argparse.ArgumentParser):
    """A subcommand parser that takes options among the positions as well as before and
    after them (``solve connect4 --seconds 60 4453``): argparse's plain parsing fills a
    ``*`` positional only once, before the first option."""

    _mixing = False

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        if self._mixing:  # parse_known_intermixed_args calls back here
            return super().parse_known_args(args, namespace)
        self._mixing = True
        try:
            return self.parse_known_intermixed_args(args, namespace)
        finally:
            self._mixing = False


def add_arguments(parser: argparse.ArgumentParser) -> None:
    base = type(parser)
    if not issubclass(base, _Intermixed):
        parser.__class__ = type("SolveParser", (_Intermixed, base), {})
    parser.add_argument("game", help="game id: connect4, morris or reversi")
    parser.add_argument("moves", nargs="*", metavar="MOVES",
                        help="connect4: columns played from the start, 1-7, e.g. 4453 "
                             "('' is the empty board: answered from the opening book where "
                             "it settles the position, else searched, which takes very long "
                             "below about 10 stones); morris: "
                             "the moves of one position as one argument, e.g. 'c2 a1 d2' "
                             "('' is the start); reversi: a position as docs/RULES.md "
                             "writes it, e.g. '8/8/8/3ox3/3xo3/8/8/8 x'")
    parser.add_argument("--stdin", action="store_true",
                        help="also read positions from standard input, one per line; only "
                             "the first field counts, so Pons' 'MOVES SCORE' files work; "
                             "blank lines are skipped")
    parser.add_argument("--analyse", "--analyze", action="store_true",
                        help="print the score of each column 1-7 instead ('-' if full)")
    parser.add_argument("--weak", action="store_true",
                        help="only win (1), draw (0) or loss (-1): faster")
    parser.add_argument("--best", action="store_true",
                        help="reversi: only the score and a best move, not every move's value")
    parser.add_argument("--seconds", type=seconds_type, default=None, metavar="T",
                        help=f"give up on a position after T seconds (above 0 to {MAX_SECONDS:g}; "
                             "default: no limit)")
    parser.add_argument("--build", action="store_true",
                        help="morris: build the database (about a minute and 1 GB; the "
                             "shipped one is used otherwise)")
    parser.add_argument("--build-book", action="store_true",
                        help="connect4: build the exact opening book (solves every position "
                             "of --depth stones, one of each mirror pair, then the shallower "
                             "ones from them; resumable, the same bytes every time)")
    parser.add_argument("--depth", type=int_range(0, 20), default=None, metavar="D",
                        help="connect4 --build-book: stones in the solved layer (default 8)")
    parser.add_argument("--limit", type=int_range(0, 10**9), default=None, metavar="N",
                        help="connect4 --build-book: solve only the layer's first N positions")
    parser.add_argument("--jobs", type=int_range(1, 256), default=1, metavar="J",
                        help="connect4 --build-book: positions solved at once (threads; "
                             "default 1)")
    parser.add_argument("--out", default=None, metavar="FILE",
                        help="connect4 --build-book: where to write the book (default: the "
                             "shipped one, brains/data/connect4-book-exact.txt)")
    parser.add_argument("--no-book", action="store_true",
                        help="connect4: search without the opening book")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="print nodes and seconds per position on stderr")


def _inputs(args: argparse.Namespace,
            position_of: Callable[[str], str | None]) -> Iterable[str | Exception]:
    """The positions given as arguments, then (with ``--stdin``) one from each line of
    standard input as ``position_of`` reads it (None: the line holds none); a line that
    cannot be read comes as its error."""
    import itertools

    from engine.files import read_lines, stream_reader

    if not args.stdin:
        return list(args.moves)

    def from_stdin() -> Iterator[str | Exception]:
        for line in read_lines(stream_reader(sys.stdin)):
            if isinstance(line, Exception):
                yield line
                continue
            position = position_of(line)
            if position is not None:
                yield position

    return itertools.chain(args.moves, from_stdin())


def run(args: argparse.Namespace) -> int:
    from brains.exact import BuildOptions, SolveOptions
    from brains.heuristics import exact_solver, solvable_games
    from engine.protocol import ParlorError, quote
    from engine.registry import GAMES

    hook = exact_solver(args.game) if args.game in GAMES else None
    if hook is None or not hook.solves:  # only now every game's hook is looked at
        print(f"parlor solve: cannot solve {quote(args.game)}; "
              f"solvable: {', '.join(solvable_games())}", file=sys.stderr)
        return 2
    flag = "--build" if args.build else "--build-book" if args.build_book else ""
    if flag:
        if hook.build_flag != flag:
            builders = [g for g in GAMES if (h := exact_solver(g)) is not None
                        and h.build_flag == flag]
            print(f"parlor solve: {flag} is for {' and '.join(builders)}", file=sys.stderr)
            return 2
        if args.moves or args.stdin:
            print(f"parlor solve: {flag} takes no positions", file=sys.stderr)
            return 2
        status, line = hook.build(BuildOptions(args.depth, args.limit, args.jobs, args.out),
                                  lambda note: print(note, file=sys.stderr, flush=True))
        if line:
            print(line)
        return status
    if not args.moves and not args.stdin:
        print("parlor solve: give MOVES or --stdin", file=sys.stderr)
        return 2
    if sys.stderr.isatty():  # "preparing the … solver…" for a person waiting
        from brains.kernels import listen

        listen(say)
    options = SolveOptions(analyse=args.analyse, weak=args.weak, best=args.best,
                           seconds=args.seconds, book=not args.no_book)
    try:
        solve = hook.solver(options, say)
    except ParlorError as exc:
        print(f"parlor solve: {exc}", file=sys.stderr)
        return 2
    failed = False
    for text in _inputs(args, hook.position_of):
        if isinstance(text, Exception):
            print(f"error: {text}", flush=True)
            failed = True
            continue
        solved = solve(text)
        print(solved.line, flush=True)
        failed = failed or solved.failed
        if args.verbose and solved.verbose:
            print(solved.verbose, file=sys.stderr)
    return 1 if failed else 0


def say(message: str) -> None:
    """A note for the person waiting, on standard error at once."""
    print(f"parlor solve: {message}", file=sys.stderr, flush=True)
