"""Measure a game's ladder of levels (random = 0) and write its ratings file, or check it:
the arguments and the printing (the work is :mod:`brains.calibrate`)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.protocol import ParlorError
from tui.cli.common import (
    MAX_SEED,
    add_scheduler_argument,
    int_range,
    jobs_type,
    max_jobs,
    seed_type,
)

MAX_GAMES = 10_000
"""Most games per pairing."""
MAX_BOOTSTRAP = 10_000
"""Most bootstrap resamples."""


def _pair(text: str) -> tuple[int, int]:
    """``3:5`` -> (3, 5): two different rungs."""
    a, sep, b = text.partition(":")
    try:
        pair = (int(a), int(b))
    except ValueError:
        pair = (0, 0)
    if not sep or min(pair) < 1 or pair[0] == pair[1] or max(pair) > 99:
        raise argparse.ArgumentTypeError(f"{text[:60]!r} is not two rungs such as 3:5")
    return pair


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `parlor games`)")
    parser.add_argument("-n", "--games", type=int_range(1, MAX_GAMES), default=20,
                        help=f"games per pairing, 1 to {MAX_GAMES} (default 20)")
    parser.add_argument("--seed", type=seed_type, default=0,
                        help=f"seed of the openings and tie-breaks, 0 to {MAX_SEED} (default 0)")
    parser.add_argument("-j", "--jobs", type=jobs_type, default=1,
                        help=f"games played at once in worker processes, 1 to {max_jobs()} "
                             "(default 1)")
    add_scheduler_argument(parser)
    parser.add_argument("--span", type=int_range(1, 99), default=None, metavar="K",
                        help="play only the pairings of rungs at most K apart (random is rung "
                             "0); default: every pairing (a full round robin)")
    parser.add_argument("--bootstrap", type=int_range(0, MAX_BOOTSTRAP), default=1000,
                        metavar="B", help="bootstrap resamples for the 95%% intervals "
                                          "(default 1000)")
    parser.add_argument("--out", metavar="FILE",
                        help="where to write the ratings (default: the shipped file "
                             "saved/ratings/GAME.json); with --check, a JSON report")
    parser.add_argument("--check", type=_pair, nargs="+", metavar="A:B",
                        help="instead of measuring: play rung A against rung B with this "
                             "seed and compare the score with the one the shipped ratings "
                             "predict (e.g. --check 1:3 4:6 --seed 7)")
    parser.add_argument("--reuse", metavar="FILE",
                        help="take up the games of an earlier ratings file played with the "
                             "same seed (the shipped file, or one written with --out): "
                             "pairings it has are extended to --games instead of replayed; "
                             "the result is the same as playing them all")
    parser.add_argument("--probe", nargs="+", metavar="SPEC",
                        help="instead of measuring: place each brain SPEC on the shipped "
                             "scale by playing it against rungs whose ratings stay fixed "
                             "(e.g. --probe alphabeta,depth=2,temperature=0.03 --against "
                             "4 5 6)")
    parser.add_argument("--against", type=int_range(0, 99), nargs="+", metavar="K",
                        help="with --probe: the rungs to play (0 = random); default: random "
                             "and every rung")


def run(args: argparse.Namespace) -> int:
    from brains.arena import ArenaError
    from tui.cli.common import cluster, one_line

    try:
        with cluster(args.scheduler):
            if args.check:
                return check(args)
            if args.probe:
                return probe(args)
            return calibrate(args)
    except ArenaError as exc:
        print(f"parlor calibrate: {one_line(exc)}", file=sys.stderr)
        return 1
    except (ParlorError, OSError) as exc:
        print(f"parlor calibrate: {one_line(exc)}", file=sys.stderr)
        return 2


def calibrate(args: argparse.Namespace) -> int:
    """Play the ladder, fit the ratings (random = 0) and write the ratings file."""
    from brains.calibrate import measure, ratings_path, write_ratings
    from engine.registry import get_game
    from tui.cli.match import ProgressReporter

    game = get_game(args.game).id
    done = measure(game, args.games, seed=args.seed, jobs=args.jobs, span=args.span,
                   bootstrap=args.bootstrap, reuse=args.reuse, reporter=ProgressReporter)
    if done.reused_games:
        print(f"{game}: {done.reused_games} games taken up from {args.reuse[:60]!r}, "
              f"{done.pairs * args.games - done.reused_games} played now")
    out = ratings_path(game, args.out)
    write_ratings(done.ratings, out)
    print(f"{game}: {done.pairs} pairings x {args.games} games, seed {args.seed}, "
          f"{done.wall:.0f} s; ratings (random = 0, 95% interval) written to {out}")
    print_ladder(done.ratings.levels)
    return 0


def print_ladder(levels: Any) -> None:
    """One line per rung: number, rating, interval, spec."""
    for r in levels:
        print(f"  {r.level:>2}  {round(r.rating):>6}  [{round(r.lo):>6}, {round(r.hi):>6}]  "
              f"{r.spec}")


def check(args: argparse.Namespace) -> int:
    """Play each ``--check`` pairing and print the observed score beside the prediction
    (``agree``, ``overlap`` or ``DISAGREE``: see :func:`brains.calibrate.check_pairs`)."""
    from brains.calibrate import check_pairs, write_json
    from engine.registry import get_game
    from tui.cli.match import ProgressReporter

    game = get_game(args.game).id
    rows = check_pairs(game, args.check, args.games, seed=args.seed, jobs=args.jobs,
                       bootstrap=args.bootstrap, reporter=ProgressReporter)
    print(f"{game}: score of rung A against rung B, predicted from the ratings file "
          f"(95% bootstrap interval) and observed (95% Wilson interval), seed {args.seed}")
    for r in rows:
        print(f"  {r['a']}:{r['b']}  predicted {r['predicted']:.2f} "
              f"[{r['predicted_ci95'][0]:.2f}, {r['predicted_ci95'][1]:.2f}]  observed "
              f"{r['observed']:.2f} [{r['observed_ci95'][0]:.2f}, {r['observed_ci95'][1]:.2f}]"
              f"  over {r['games']} games (+{r['a_wins']} ={r['draws']} -{r['b_wins']})  "
              f"{'agree' if r['agree'] else 'overlap' if r['overlap'] else 'DISAGREE'}")
    if args.out:
        write_json(args.out, {"game": game, "seed": args.seed, "checks": rows})
    return 0


def probe(args: argparse.Namespace) -> int:
    """Print each ``--probe`` spec's place on the shipped scale
    (:func:`brains.calibrate.probe`)."""
    from brains.calibrate import probe as place
    from brains.calibrate import write_json
    from engine.registry import get_game
    from tui.cli.match import ProgressReporter

    game = get_game(args.game).id
    against, rows = place(game, args.probe, args.games, against=args.against, seed=args.seed,
                          jobs=args.jobs, bootstrap=args.bootstrap, reporter=ProgressReporter)
    print(f"{game}: probes placed on the shipped scale (random = 0), {args.games} games "
          f"against each of rungs {', '.join(map(str, against))}, seed {args.seed}")
    for r in rows:
        scores = "  ".join(f"{a['rung']}:{a['score']:.2f}" for a in r["against"])
        print(f"  {round(r['rating']):>6}  [{round(r['ci95'][0]):>6}, "
              f"{round(r['ci95'][1]):>6}]  {r['spec']}   scores {scores}")
    if args.out:
        write_json(args.out, {"game": game, "seed": args.seed, "games": args.games,
                              "probes": rows})
    return 0
