"""Play a round robin between brains: a win-rate table and Bradley-Terry ratings (the
work is :mod:`brains.roundrobin`; this module reads the arguments and prints)."""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path
from typing import Any

from engine.protocol import ParlorError
from tui.cli.common import int_range
from tui.cli.match import ProgressReporter, add_arena_arguments

MAX_BOOTSTRAP = 10_000
"""Most bootstrap resamples (each holds one rating per player)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `parlor games`)")
    parser.add_argument("players", nargs="+", metavar="SPEC",
                        help="brain specs, at least two (e.g. random greedy alphabeta:easy)")
    add_arena_arguments(parser, games=10, what="games per pairing")
    parser.add_argument("--csv", metavar="FILE",
                        help="write one row per player: rating, interval and score against each")
    parser.add_argument("--json", metavar="FILE",
                        help="write every pairing's counts, the score table and the ratings")
    parser.add_argument("--variants", action="store_true",
                        help="run the tournament once per variant of the game "
                             "(Reversi: standard, randomstart, flipcolor)")
    parser.add_argument("--bootstrap", type=int_range(0, MAX_BOOTSTRAP), default=200,
                        metavar="B", help="bootstrap resamples for the rating intervals, "
                                          f"0 to {MAX_BOOTSTRAP} (default 200)")


def run(args: argparse.Namespace) -> int:
    from brains.arena import ArenaError
    from brains.roundrobin import round_robins, variant_runs
    from tui.cli.common import cluster, one_line, parse_options

    try:
        runs = variant_runs(args.game, parse_options(args.option), args.variants)
        with cluster(args.scheduler):
            results = round_robins(args.game, args.players, args.games, runs, seed=args.seed,
                                   jobs=args.jobs, opening_plies=args.opening,
                                   budget_seconds=args.seconds, reporter=ProgressReporter)
    except ArenaError as exc:
        print(f"parlor tournament: {one_line(exc)}", file=sys.stderr)
        return 1
    except (ParlorError, OSError) as exc:
        print(f"parlor tournament: {one_line(exc)}", file=sys.stderr)
        return 2
    ratings = [r.ratings(bootstrap=args.bootstrap) for r in results]
    for k, (result, rated) in enumerate(zip(results, ratings, strict=True)):
        if k:
            print()
        print_tournament(result, rated, args.games)
    try:
        if args.csv:
            write_csv(Path(args.csv), results, ratings)
        if args.json:
            summary = {"game": args.game, "players": args.players, "games": args.games,
                       "seed": args.seed,
                       "tournaments": [r.summary(rt)
                                       for r, rt in zip(results, ratings, strict=True)]}
            Path(args.json).write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    except OSError as exc:
        print(f"parlor tournament: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 1
    return 0


def print_tournament(result: Any, ratings: list[Any], games: int) -> None:
    """The score table and the ratings, readable on a terminal."""
    options = " ".join(f"{k}={v}" for k, v in result.options.items())
    players = result.players
    print(f"{result.game}{' ' + options if options else ''}: round robin of "
          f"{len(players)} brains, {games} games per pairing, seed {result.seed}")
    print("score of the row brain against the column brain (wins + draws/2 per game)")
    names = [f"{i + 1}" for i in range(len(players))]
    width = max(len(p) for p in players) + 4
    print(f"{'':<{width}}" + "".join(f"{n:>7}" for n in names) + f"{'all':>7}")
    totals = {r.player: r.score for r in ratings}
    for i, row in enumerate(players):
        cells = []
        for col in players:
            score = result.score(row, col)
            cells.append(f"{'-' if score is None else f'{score:.2f}':>7}")
        print(f"{names[i] + '. ' + row:<{width}}" + "".join(cells) + f"{totals[row]:>7.2f}")
    print()
    print("ratings: Bradley-Terry on the Elo scale (mean 0), 95% bootstrap interval")
    print(f"{'':<{width}}{'elo':>6}  {'interval':<15}{'games':>6}")
    for r in ratings:
        interval = f"[{_elo(r.lo)}, {_elo(r.hi)}]"
        print(f"{r.player:<{width}}{_elo(r.elo):>6}  {interval:<15}{r.games:>6}")


def _elo(value: float) -> str:
    """A rating rounded to a signed whole number, never ``-0``."""
    return f"{round(value) + 0:+d}"


def write_csv(path: Path, results: list[Any], ratings: list[list[Any]]) -> None:
    """One row per player and tournament: rating, interval, score, and score against each."""
    players = results[0].players
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(["game", "variant", "player", "elo", "elo_lo", "elo_hi", "games",
                         "score", *(f"vs {p}" for p in players)])
        for result, rated in zip(results, ratings, strict=True):
            for r in rated:
                scores = [result.score(r.player, p) for p in players]
                writer.writerow([result.game, result.options.get("variant", ""), r.player,
                                 f"{r.elo:.1f}", f"{r.lo:.1f}", f"{r.hi:.1f}", r.games,
                                 f"{r.score:.4f}",
                                 *("" if s is None else f"{s:.4f}" for s in scores)])
