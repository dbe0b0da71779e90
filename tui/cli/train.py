"""Train a learned brain (table, qlearn, linear, mlp, patterns) and save its model with a
manifest entry."""

from __future__ import annotations

import argparse
import json
import sys
import time

from engine.protocol import ParlorError
from tui.cli.common import (
    MAX_SEED,
    int_range,
    jobs_type,
    max_jobs,
    scheduler_type,
    seed_type,
)

MAX_TRAIN_GAMES = 10_000_000
"""Most training games."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", help="game id (see `parlor games`)")
    parser.add_argument("kind", nargs="?",
                        help="learned kind: table, qlearn, linear, mlp or patterns")
    parser.add_argument("-n", "--games", type=int_range(1, MAX_TRAIN_GAMES), default=None,
                        help=f"training games, 1 to {MAX_TRAIN_GAMES} "
                             "(default: the kind's default for the game)")
    parser.add_argument("--seed", type=seed_type, default=None,
                        help=f"master seed, 0 to {MAX_SEED} (default 0)")
    parser.add_argument("-j", "--jobs", type=jobs_type, default=1,
                        help=f"worker processes for self-play and the strength matches, 1 to "
                             f"{max_jobs()} (the model does not depend on it; default 1)")
    parser.add_argument("--scheduler", type=scheduler_type, default=None, metavar="ADDRESS",
                        help="play the self-play games on the Dask cluster whose scheduler is "
                             "at ADDRESS (e.g. tcp://10.0.0.5:8786; needs parlor[dask]); the "
                             "model is the same as locally, the strength matches run here")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="models folder to write (default: the shipped saved/models)")
    parser.add_argument("--data", metavar="DIR", default=None,
                        help="folder of real games to learn from, for the kinds that do "
                             "(patterns: WTHOR *.wtb files)")
    parser.add_argument("--no-eval", action="store_true",
                        help="skip the strength matches against random and greedy")
    parser.add_argument("--all", action="store_true",
                        help="retrain every shipped model in turn (what `make models` runs)")
    parser.add_argument("--json", action="store_true",
                        help="print the manifest entry as one line of JSON instead")


def run(args: argparse.Namespace) -> int:
    from tui.cli.common import cluster

    try:
        with cluster(args.scheduler):
            return _train_all(args) if args.all else _train_one(args)
    except ParlorError as exc:  # TrainError, ModelError, …
        from tui.cli.common import one_line

        print(f"parlor train: {one_line(exc)}", file=sys.stderr)
        return 2
    except OSError as exc:
        where = f" {exc.filename}" if exc.filename else ""
        print(f"parlor train: cannot write the model:{where} {exc.strerror or exc}",
              file=sys.stderr)
        return 1


def _train_all(args: argparse.Namespace) -> int:
    from brains.train import TrainError, train_all

    if args.game or args.kind:
        raise TrainError("give either GAME KIND or --all")
    if args.data is not None:
        raise TrainError("--data is for one kind that learns from real games; drop it "
                         "with --all")
    if args.games is not None or args.seed is not None:
        raise TrainError("--all trains each model with its own games and seed; "
                         "drop --games and --seed")
    start = time.perf_counter()
    rows = train_all(args.out, jobs=args.jobs, evaluate=not args.no_eval,
                     stream=sys.stderr if args.json else sys.stdout)
    took = time.perf_counter() - start
    if args.json:
        print(json.dumps({"models": rows, "seconds": round(took, 2)}))
    else:
        print(f"all models trained in {took:.1f} s")
    return 0


def _train_one(args: argparse.Namespace) -> int:
    from brains.train import (
        TrainError,
        check_request,
        strength_text,
        train_and_save,
        training_games,
    )
    from tui.cli.match import ProgressReporter

    if not args.game or not args.kind:
        raise TrainError("give GAME and KIND (e.g. `parlor train tictactoe linear`) or --all")
    game, module = check_request(args.game, args.kind)
    total = training_games(module, game, args.games)
    seed = 0 if args.seed is None else args.seed
    with ProgressReporter(f"training {game} {module.KIND}", total) as progress:
        path, entry = train_and_save(game, module.KIND, games=total, seed=seed,
                                     jobs=args.jobs, out=args.out, progress=progress,
                                     evaluate=not args.no_eval, data=args.data)
    if args.json:
        print(json.dumps({"path": str(path), **entry}))
        return 0
    print(f"model     {path}")
    print(f"sha256    {entry['sha256']}")
    print(f"size      {entry['bytes']} bytes")
    print(f"trained   {entry['games']} games, seed {entry['seed']}, "
          f"{entry['data']} positions learned from, {entry['train_seconds']:.1f} s")
    print(f"strength  {strength_text(entry.get('strength'))}")
    print(f"command   {entry['command']}")
    return 0
