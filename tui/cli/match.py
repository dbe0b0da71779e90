"""Play a match between two brains (sides alternate) and report the score and Elo difference."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any, TextIO

from engine.protocol import ParlorError
from tui.cli.common import (
    MAX_SEED,
    add_scheduler_argument,
    int_range,
    jobs_type,
    max_jobs,
    seconds_type,
    seed_type,
)

MAX_GAMES = 100_000
"""Most games in a match, or per pairing in a tournament."""
MAX_OPENING = 100
"""Most random opening plies."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `parlor games`)")
    parser.add_argument("a", metavar="A",
                        help="brain spec, e.g. alphabeta:medium (first in game 1)")
    parser.add_argument("b", metavar="B", help="brain spec of the opponent")
    add_arena_arguments(parser, games=20, what="games in the match")
    parser.add_argument("--json", action="store_true",
                        help="end with one line of JSON: counts, score and Elo difference")
    parser.add_argument("--save", metavar="DIR",
                        help="write each game as a record file DIR/GAME-NNN.pgn")


def add_arena_arguments(parser: argparse.ArgumentParser, games: int, what: str) -> None:
    """The options that matches and tournaments share."""
    parser.add_argument("-n", "--games", type=int_range(1, MAX_GAMES), default=games,
                        help=f"{what}, 1 to {MAX_GAMES} (default {games})")
    parser.add_argument("--seed", type=seed_type, default=0,
                        help=f"seed of the openings and the brains' tie-breaks, 0 to {MAX_SEED} "
                             "(default 0)")
    parser.add_argument("-j", "--jobs", type=jobs_type, default=1,
                        help=f"games played at once in worker processes, 1 to {max_jobs()} "
                             "(4 per CPU; default 1; with --scheduler the cluster's "
                             "workers set the pace)")
    add_scheduler_argument(parser)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option, e.g. -o variant=flipcolor (repeatable)")
    parser.add_argument("--opening", type=int_range(0, MAX_OPENING), default=None, metavar="N",
                        help="random opening plies before the brains play "
                             "(default per game: tictactoe 1, connect4 2, morris 2, "
                             "reversi 4, checkers 4)")
    parser.add_argument("--seconds", type=seconds_type, default=None, metavar="T",
                        help="time per move for every brain (default: each brain's own; "
                             "timed games are not exactly reproducible)")


class ProgressReporter:
    """Shows games done on a stream: a rich progress bar on a terminal, else a few lines."""

    def __init__(self, label: str, total: int, stream: TextIO | None = None):
        self.label = label
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self._bar: Any = None
        self._task: Any = None
        self._shown = 0

    def __enter__(self) -> ProgressReporter:
        if self.stream.isatty():
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(),
                                 MofNCompleteColumn(), TimeElapsedColumn(),
                                 TimeRemainingColumn(), console=Console(file=self.stream),
                                 transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=self.total)
        return self

    def __call__(self, done: int, total: int, result: object = None) -> None:
        if self._bar is not None:
            self._bar.update(self._task, completed=done)
            return
        step = max(1, total // 10)
        if done == total or done - self._shown >= step:
            self._shown = done
            print(f"{self.label}: {done}/{total} games", file=self.stream, flush=True)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()


def safe_name(text: str) -> str:
    """``text`` with anything but letters, digits, dot, dash and underscore made ``_``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text)


def run(args: argparse.Namespace) -> int:
    from brains.arena import ArenaError, default_opening_plies, match
    from engine.record import save_records
    from tui.cli.common import cluster, one_line, parse_options

    try:
        options = parse_options(args.option)
        with cluster(args.scheduler), \
                ProgressReporter(f"{args.game}: {args.a} vs {args.b}", args.games) as progress:
            result = match(args.game, args.a, args.b, args.games, seed=args.seed,
                           jobs=args.jobs, options=options, opening_plies=args.opening,
                           budget_seconds=args.seconds, progress=progress)
    except ArenaError as exc:
        print(f"parlor match: {one_line(exc)}", file=sys.stderr)
        return 1
    except (ParlorError, OSError) as exc:
        print(f"parlor match: {one_line(exc)}", file=sys.stderr)
        return 2
    opening = default_opening_plies(result.game) if args.opening is None else args.opening
    print_match(result, opening)
    if args.save:
        folder = Path(args.save)
        try:
            for r in result.results:
                save_records(folder / f"{safe_name(result.game)}-{r.index + 1:03d}.pgn",
                             r.record)
        except OSError as exc:
            print(f"parlor match: cannot write to {folder}: {exc.strerror or exc}",
                  file=sys.stderr)
            return 1
        print(f"saved {len(result.results)} records in {folder}")
    if args.json:
        print(json.dumps(result.summary()))
    return 0


def print_match(result: Any, opening: int) -> None:
    """The match as a readable table on stdout."""
    from engine.registry import get_game

    sides = get_game(result.game).initial(**result.options).PLAYERS
    options = " ".join(f"{k}={v}" for k, v in result.options.items())
    print(f"{result.game}{' ' + options if options else ''}: {result.a} vs {result.b}, "
          f"{result.games} games, seed {result.seed}, "
          f"{opening} random opening {'ply' if opening == 1 else 'plies'}")
    width = max(len(result.a), len(result.b), len(sides[0]) + 5, len(sides[1]) + 5, 6)
    print(f"{'':<{width}}  {'wins':>5} {'draws':>5} {'losses':>6} {'score':>6}")

    def row(name: str, counts: tuple[int, int, int]) -> None:
        wins, draws, losses = counts
        games = wins + draws + losses
        score = f"{(wins + draws / 2) / games:.3f}" if games else "-"
        print(f"{name:<{width}}  {wins:>5} {draws:>5} {losses:>6} {score:>6}")

    a_wins, draws, b_wins = result.counts()
    row(result.a, (a_wins, draws, b_wins))
    for a_first, side in ((True, sides[0]), (False, sides[1])):
        row(f"  as {side}", result.counts(a_first))
    row(result.b, (b_wins, draws, a_wins))
    elo = result.elo()
    print(f"Elo difference ({result.a} - {result.b}): {signed(elo.diff)}, "
          f"95% CI [{signed(elo.lo)}, {signed(elo.hi)}]")


def signed(value: float) -> str:
    """``value`` rounded to a whole number with its sign; never ``-0`` (a rounded zero
    is ``0``)."""
    rounded = round(value)
    return f"{rounded:+d}" if rounded else "0"
