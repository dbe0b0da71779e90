"""Solve positions exactly: Connect Four by Pons' solver (one `MOVES SCORE` line each, Pons'
scores), Five Men's Morris from its database (one line each: the position's value and
the value of every legal move), Reversi endgames by the exact endgame solver (one line
each: the final disc difference, FFO's count, the best move and every move's value)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from tui.cli.common import MAX_SECONDS, int_range, seconds_type

SOLVABLE = ("connect4", "morris", "reversi")
"""Games this command can solve."""
SLOW_BELOW = 10
"""Positions with fewer stones than this may take very long to solve (a warning says so),
unless the opening book settles them."""


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


def _first_field(line: str) -> str | None:
    """The first field of a line (Pons' ``MOVES SCORE`` files), None for a blank line."""
    fields = line.split()
    return fields[0] if fields else None


def run(args: argparse.Namespace) -> int:
    if args.game not in SOLVABLE:
        from engine.protocol import quote

        print(f"parlor solve: cannot solve {quote(args.game)}; solvable: {', '.join(SOLVABLE)}",
              file=sys.stderr)
        return 2
    if args.build:
        if args.game != "morris":
            print("parlor solve: --build is for morris", file=sys.stderr)
            return 2
        from brains.morrisdb.__main__ import main as morrisdb

        return morrisdb(["build"])
    if args.build_book and args.game != "connect4":
        print("parlor solve: --build-book is for connect4", file=sys.stderr)
        return 2
    if args.game in ("morris", "reversi"):
        if not args.moves and not args.stdin:
            print("parlor solve: give MOVES or --stdin", file=sys.stderr)
            return 2
        return _solve_morris(args) if args.game == "morris" else _solve_reversi(args)
    if sys.stderr.isatty():  # "preparing the Connect Four solver…" for a person waiting
        from brains.kernels import listen

        listen(lambda message: print(f"parlor solve: {message}", file=sys.stderr, flush=True))
    if args.build_book:
        return _build_book(args)
    if not args.moves and not args.stdin:
        print("parlor solve: give MOVES or --stdin", file=sys.stderr)
        return 2

    import time

    from brains.c4solver import Position, Solver, SolverStopped
    from engine.protocol import quote

    deadline: list[float] = [float("inf")]
    solver = Solver(stop=lambda: time.monotonic() >= deadline[0], book=not args.no_book)
    positions = _inputs(args, _first_field)
    failed = False
    for moves in positions:
        if isinstance(moves, Exception):
            print(f"error: {moves}", flush=True)
            failed = True
            continue
        try:
            position = Position.from_moves(moves)
        except ValueError as exc:
            print(f"{_shown(moves)} error: {exc}", flush=True)
            failed = True
            continue
        if position.moves < SLOW_BELOW and not _in_book(position, args):
            limit = (f"stopping after {args.seconds:g} s" if args.seconds
                     else "no time limit; --seconds T sets one")
            print(f"parlor solve: {quote(moves)} has {position.moves} stones; solving it "
                  f"may take very long ({limit})", file=sys.stderr, flush=True)
        nodes, start = solver.nodes, time.perf_counter()
        if args.seconds:
            deadline[0] = time.monotonic() + args.seconds
        try:
            if args.analyse:
                scores = solver.analyse(position, weak=args.weak)
                text = " ".join("-" if s is None else str(s) for s in scores)
            else:
                text = str(solver.solve(position, weak=args.weak))
        except SolverStopped:
            text = f"stopped: not solved within {args.seconds:g} s"
            failed = True
        finally:
            deadline[0] = float("inf")
        print(f"{moves} {text}", flush=True)
        if args.verbose:
            print(f"{moves}: {solver.nodes - nodes} nodes, "
                  f"{time.perf_counter() - start:.3f} s", file=sys.stderr)
    return 1 if failed else 0


def _in_book(position: Any, args: argparse.Namespace) -> bool:
    """Whether the exact opening book settles ``position`` (for --analyse, its children)."""
    if args.no_book:
        return False
    from brains.c4solver import exact_book

    book = exact_book()
    if not args.analyse:
        return book.score(position.current, position.mask) is not None
    children = [position.play(c) for c in range(7)
                if position.can_play(c) and not position.is_winning_move(c)]
    return all(book.score(c.current, c.mask) is not None for c in children)


def _build_book(args: argparse.Namespace) -> int:
    """``--build-book``: the exact Connect Four opening book (brains.c4book.build_exact)."""
    from pathlib import Path

    from brains import c4book

    if args.moves or args.stdin:
        print("parlor solve: --build-book takes no positions", file=sys.stderr)
        return 2
    depth = c4book.EXACT_DEPTH if args.depth is None else args.depth
    out = Path(args.out) if args.out else c4book.EXACT_PATH
    manifest = c4book.build_exact(depth, args.limit, out, jobs=args.jobs,
                                  say=lambda line: print(line, file=sys.stderr, flush=True))
    entry = manifest["files"][out.name]
    print(f"{out.name}: {entry['positions']} positions ({entry['layer_solved']} of the "
          f"{entry['layer_positions']} of {depth} stones solved), {entry['bytes']} bytes, "
          f"sha256 {entry['sha256']}")
    return 0


def _solve_morris(args: argparse.Namespace) -> int:
    """One line per position: ``MOVES: VALUE; MOVE VALUE, …`` (best moves first), values
    from the side to move's view, ignoring the 100-ply and repetition draws."""

    from brains.morrisdb import MorrisDBError, shared
    from engine.games.morris import MorrisState
    from engine.protocol import ParlorError
    from engine.registry import new_game

    try:
        db = shared()
    except MorrisDBError as exc:
        print(f"parlor solve: {exc}", file=sys.stderr)
        return 2
    positions = _inputs(args, str.strip)  # a blank line is the start
    failed = False
    for moves in positions:
        if isinstance(moves, Exception):
            print(f"error: {moves}", flush=True)
            failed = True
            continue
        shown = _shown(" ".join(moves.split())) or "start"
        try:
            state = new_game("morris").play_line(moves)
            assert isinstance(state, MorrisState)
            value = db.value(state)
            values = db.move_values(state)
        except (ParlorError, MorrisDBError) as exc:
            print(f"{shown} error: {exc}", flush=True)
            failed = True
            continue
        ranked = sorted(values.items(), key=lambda mv: mv[1].rank, reverse=True)
        listed = ", ".join(f"{state.format_move(m)} {v}" for m, v in ranked)
        print(f"{shown}: {value}" + (f"; {listed}" if listed else ""), flush=True)
    return 1 if failed else 0


REVERSI_SLOW_ABOVE = 24
"""Reversi positions with more empty squares than this may take very long (a warning)."""


def _solve_reversi(args: argparse.Namespace) -> int:
    """One line per position: ``POSITION: SCORE; best MOVE; MOVE SCORE, …`` (best moves
    first). SCORE is the final disc difference for the side to move with best play, the
    empty squares of a game that ends early counted for the winner (as the FFO test and
    WTHOR count; Parlor's own result counts discs only, and has the same sign)."""
    import time

    from brains import reversi_endgame
    from engine.positions import parse_position
    from engine.protocol import ParlorError, quote

    positions = _inputs(args, lambda line: line.strip() or None)
    failed = False
    for text in positions:
        if isinstance(text, Exception):
            print(f"error: {text}", flush=True)
            failed = True
            continue
        shown = _shown(" ".join(text.split()), 120)
        try:
            state = parse_position("reversi", text)
        except ParlorError as exc:
            print(f"{shown} error: {exc}", flush=True)
            failed = True
            continue
        empties = reversi_endgame.empties_of(state)
        if empties > REVERSI_SLOW_ABOVE:
            limit = (f"stopping after {args.seconds:g} s" if args.seconds
                     else "no time limit; --seconds T sets one")
            print(f"parlor solve: {quote(shown)} has {empties} empty squares; solving it may "
                  f"take very long ({limit})", file=sys.stderr, flush=True)
        start = time.perf_counter()
        deadline = None if not args.seconds else time.monotonic() + args.seconds
        result = reversi_endgame.solve(state, budget_seconds=args.seconds,
                                       empties_to_winner=True)
        values: dict[int, int] | None = {}
        nodes = result.nodes
        if result.exact and not args.best:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            found = reversi_endgame.move_values(state, budget_seconds=left,
                                                empties_to_winner=True)
            values = None if found is None else found[0]
            nodes += 0 if found is None else found[1]
        if not result.exact or result.score is None or values is None:
            print(f"{shown} stopped: not solved within {args.seconds:g} s", flush=True)
            failed = True
            continue
        line = f"{shown}: {result.score:+d}"
        if result.best_move is not None:
            line += f"; best {state.format_move(result.best_move)}"
        if values:
            ranked = sorted(values.items(), key=lambda mv: (-mv[1], mv[0]))
            line += "; " + ", ".join(f"{state.format_move(m)} {v:+d}" for m, v in ranked)
        print(line, flush=True)
        if args.verbose:
            print(f"{shown}: {nodes} nodes, {time.perf_counter() - start:.3f} s",
                  file=sys.stderr)
    return 1 if failed else 0


def _shown(moves: str, limit: int = 60) -> str:
    """``moves`` as echoed before an error: cut to ``limit`` characters."""
    return moves if len(moves) <= limit else moves[:limit] + "…"
