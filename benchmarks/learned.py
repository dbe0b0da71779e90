"""Strength of the shipped learned models, played through the arena.

Usage: python -m benchmarks.learned [--games N] [--jobs J] [--seed S] [--seconds T]
    [--game G ...] [--kind K ...] [--no-search] [--json]

For every model in ``saved/models/manifest.json`` (its brain from the registry, the
shipped hash-checked file): a seeded match against ``random`` (goal: score >= 0.8)
and against ``greedy`` (goal for ``mlp``: >= 0.5; shown for the others). Then, where
the ``mlp`` kind and its models exist, alpha-beta with the MLP evaluation against
alpha-beta with the hand-written heuristic at the same seconds per move, in Reversi
and Connect Four (no fixed goal: learning should beat the hand-written evaluation).

Prints a table (score, W/D/L, Elo difference, seconds a game, the goal and whether it
is met) and, with ``--json``, one last JSON line with every row. The exit status is 0
even when a goal is missed: the figures are the output.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

SEARCH_GAMES = ("reversi", "connect4")
"""The games of the MLP-versus-heuristic alpha-beta comparison (a chosen pair: the
comparison is costly, and these two have the documented figures)."""
GOALS: dict[tuple[str, str], float] = {("*", "random"): 0.8, ("mlp", "greedy"): 0.5}
"""(kind, opponent) -> the score the learned brain should reach."""


def goal_for(kind: str, opponent: str) -> float | None:
    """The goal score of ``kind`` against ``opponent``, or None."""
    return GOALS.get((kind, opponent), GOALS.get(("*", opponent)))


def rows_to_play(games: list[str] | None, kinds: list[str] | None, search: bool,
                 seconds: float) -> list[dict[str, Any]]:
    """The matches: (game, A spec, B spec, goal) for every shipped model and the search
    comparison."""
    from brains.learned.store import list_models

    rows = []
    for name, entry in sorted(list_models().items(),
                              key=lambda kv: (kv[1]["game"], kv[1]["kind"])):
        game, kind = entry["game"], entry["kind"]
        if (games and game not in games) or (kinds and kind not in kinds):
            continue
        for opponent in ("random", "greedy"):
            rows.append({"game": game, "a": kind, "b": opponent, "model": name,
                         "goal": goal_for(kind, opponent)})
    if search:
        shipped = {(e["game"], e["kind"]) for e in list_models().values()}
        for game in SEARCH_GAMES:
            if (games and game not in games) or (game, "mlp") not in shipped:
                continue
            rows.append({"game": game, "a": f"alphabeta,depth=none,seconds={seconds},eval=mlp",
                         "b": f"alphabeta,depth=none,seconds={seconds}", "model": None,
                         "goal": None, "seconds_per_move": seconds})
    return rows


def play(row: dict[str, Any], games: int, seed: int, jobs: int) -> dict[str, Any]:
    """Play one row's match; its summary plus timing and the goal."""
    from brains.arena import match

    start = time.perf_counter()
    result = match(row["game"], row["a"], row["b"], games, seed=seed, jobs=jobs)
    took = time.perf_counter() - start
    summary = result.summary()
    goal = row["goal"]
    return {**row, **{k: summary[k] for k in ("games", "a_wins", "draws", "b_wins",
                                              "a_score", "elo_diff", "elo_ci95")},
            "seconds_per_game": round(took / games, 3),
            "met": None if goal is None else summary["a_score"] >= goal}


def print_table(rows: list[dict[str, Any]]) -> None:
    """The results as a readable table on stdout."""
    def short(spec: str) -> str:
        return spec.replace("alphabeta,depth=none,", "ab,").replace(",eval=mlp", "+mlp")

    width = max([len(short(r["a"])) for r in rows] + [10])
    print(f"{'game':<10} {'brain':<{width}} {'vs':<{width}} {'score':>6} {'W':>4} {'D':>4} "
          f"{'L':>4} {'Elo':>6} {'s/game':>7}  goal")
    for r in rows:
        goal = "-" if r["goal"] is None else f">={r['goal']:.2f} " + ("met" if r["met"]
                                                                     else "MISSED")
        print(f"{r['game']:<10} {short(r['a']):<{width}} {short(r['b']):<{width}} "
              f"{r['a_score']:>6.3f} {r['a_wins']:>4} {r['draws']:>4} {r['b_wins']:>4} "
              f"{r['elo_diff']:>+6.0f} {r['seconds_per_game']:>7.2f}  {goal}", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.learned",
                                     description=__doc__.strip().splitlines()[0])
    parser.add_argument("-n", "--games", type=int, default=40, help="games a match (default 40)")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="match seed (default 0)")
    parser.add_argument("--seconds", type=float, default=0.1,
                        help="seconds per move in the alpha-beta comparison (default 0.1)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--kind", action="append", help="only this learned kind (repeatable)")
    parser.add_argument("--no-search", action="store_true",
                        help="skip the alpha-beta MLP-evaluation comparison")
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    todo = rows_to_play(args.game, args.kind, not args.no_search, args.seconds)
    if not todo:
        print("no shipped learned models (run `make models`)")
        return 0
    print(f"learned models: {args.games} games a match, seed {args.seed}, "
          f"sides alternating", flush=True)
    done = []
    for row in todo:
        try:
            done.append(play(row, args.games, args.seed, args.jobs))
        except ValueError as exc:  # a model that does not load: say so, go on
            print(f"{row['game']} {row['a']} vs {row['b']}: {exc}", flush=True)
            continue
        r = done[-1]
        print(f"  {r['game']} {r['a']} vs {r['b']}: {r['a_score']:.3f}", flush=True)
    print()
    print_table(done)
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "rows": done}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
