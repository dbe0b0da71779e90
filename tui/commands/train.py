"""Train a learned brain (table, qlearn, linear, mlp) and save its model with a manifest entry."""

from __future__ import annotations

import argparse
import json
import sys
import time


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", nargs="?", help="game id (see `parlor games`)")
    parser.add_argument("kind", nargs="?", help="learned kind: table, qlearn, linear or mlp")
    parser.add_argument("-n", "--games", type=int, default=None,
                        help="training games (default: the kind's default for the game)")
    parser.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    parser.add_argument("-j", "--jobs", type=int, default=1,
                        help="worker processes for self-play and the strength matches "
                             "(the model does not depend on it; default 1)")
    parser.add_argument("--out", metavar="DIR", default=None,
                        help="models folder to write (default: the shipped saved/models)")
    parser.add_argument("--no-eval", action="store_true",
                        help="skip the strength matches against random and greedy")
    parser.add_argument("--all", action="store_true",
                        help="retrain every shipped model in turn (what `make models` runs)")
    parser.add_argument("--json", action="store_true",
                        help="print the manifest entry as one line of JSON instead")


def run(args: argparse.Namespace) -> int:
    from brains.learned.store import ModelError
    from brains.train import (TrainError, check_request, strength_text, train_all,
                              train_and_save, train_command)
    from tui.commands.match import ProgressReporter

    if args.all:
        if args.game or args.kind:
            print("parlor train: give either GAME KIND or --all", file=sys.stderr)
            return 2
        start = time.perf_counter()
        try:
            rows = train_all(args.out, jobs=max(1, args.jobs), evaluate=not args.no_eval,
                             stream=sys.stderr if args.json else sys.stdout)
        except (ValueError, ImportError) as exc:
            print(f"parlor train: {exc}", file=sys.stderr)
            return 1
        took = time.perf_counter() - start
        if args.json:
            print(json.dumps({"models": rows, "seconds": round(took, 2)}))
        else:
            print(f"all models trained in {took:.1f} s")
        return 0
    if not args.game or not args.kind:
        print("parlor train: give GAME and KIND (e.g. `parlor train tictactoe linear`) "
              "or --all", file=sys.stderr)
        return 2
    if args.games is not None and args.games < 1:
        print("parlor train: --games must be at least 1", file=sys.stderr)
        return 2
    if args.jobs < 1:
        print("parlor train: --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        game, module = check_request(args.game, args.kind)
        kind = module.KIND
        total = args.games or module.DEFAULTS.get(game, {}).get("games", 0)
        command = train_command(game, kind, total, args.seed, args.jobs, args.out)
        with ProgressReporter(f"training {game} {kind}", total) as progress:
            path, entry = train_and_save(game, kind, games=args.games, seed=args.seed,
                                         jobs=args.jobs, out=args.out, progress=progress,
                                         command=command, evaluate=not args.no_eval)
    except (TrainError, ModelError, ValueError, ImportError) as exc:
        print(f"parlor train: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"parlor train: cannot write the model: {exc.strerror or exc}", file=sys.stderr)
        return 1
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
