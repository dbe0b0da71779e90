"""Cost per node of the learned search evaluation against the hand-written heuristic.

Usage: python -m benchmarks.learned_eval [--game G ...] [--seconds T] [--json]

For each game with a shipped value network: the microseconds one evaluation takes
(the default heuristic, the heuristic features alone, and ``eval=mlp`` through its fast
path), then the nodes per second ``alphabeta`` searches with each evaluation over the
same positions at ``--seconds`` a move. A learned evaluation has to be nearly as cheap
per node as the heuristic, or clearly more accurate, to win at equal time; the match
figures themselves are in docs/STRENGTH-NOTEBOOK.md.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

GAMES = ("reversi", "checkers", "connect4")
"""The games whose shipped network serves as alpha-beta's learned evaluation."""


def positions(game_id: str, count: int, seed: int = 0) -> list[Any]:
    """``count`` positions, not finished, from random games (seeded)."""
    from engine.registry import get_game

    rng = random.Random(seed)
    game = get_game(game_id)
    out: list[Any] = []
    while len(out) < count:
        state = game.initial()
        while state.legal_moves() and len(out) < count:
            state = state.play(rng.choice(state.legal_moves()))
            if state.legal_moves():
                out.append(state)
    return out


def eval_costs(game_id: str, count: int = 200, rounds: int = 15) -> dict[str, float]:
    """Microseconds per call of the heuristic, its features and the learned evaluation:
    the best of ``rounds`` passes over the same positions, the three taking turns, so
    that a shared machine's load shifts them alike."""
    from brains.evaluation import evaluation
    from brains.heuristics import game_module, get_heuristic

    states = positions(game_id, count)
    functions = {"heuristic": get_heuristic(game_id), "features": game_module(game_id).features,
                 "learned": evaluation(game_id, "mlp")}
    best = dict.fromkeys(functions, float("inf"))
    for _ in range(rounds):
        for name, function in functions.items():
            started = time.perf_counter()
            for state in states:
                function(state)
            best[name] = min(best[name], time.perf_counter() - started)
    return {name: round(seconds / count * 1e6, 2) for name, seconds in best.items()}


def search_rates(game_id: str, seconds: float, count: int = 12) -> dict[str, int]:
    """Nodes per second of alpha-beta on the heuristic and on the learned evaluation,
    the two taking turns position by position."""
    from brains.registry import make_brain

    states = positions(game_id, 4 * count, seed=3)[count::3][:count]
    brains = {"heuristic": make_brain(f"alphabeta,seconds={seconds}", game_id, seed=1),
              "learned": make_brain(f"alphabeta,eval=mlp,seconds={seconds}", game_id, seed=1)}
    nodes = dict.fromkeys(brains, 0)
    spent = dict.fromkeys(brains, 0.0)
    for state in states:
        for name, brain in brains.items():
            started = time.perf_counter()
            thoughts = list(brain.think(state, brain.default_budget()))
            spent[name] += time.perf_counter() - started
            nodes[name] += thoughts[-1].nodes if thoughts else 0
    return {name: int(nodes[name] / spent[name]) for name in brains}


def main(argv: list[str] | None = None) -> int:
    """Print the table (and one JSON line with ``--json``)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.learned_eval",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=GAMES)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for game_id in args.game or GAMES:
        costs = eval_costs(game_id)
        rates = search_rates(game_id, args.seconds)
        rows.append({"game": game_id, "eval_us": costs, "nodes_per_s": rates})
        print(f"{game_id:9} eval µs: heuristic {costs['heuristic']:7.2f}  features "
              f"{costs['features']:7.2f}  learned {costs['learned']:7.2f}   nodes/s: "
              f"heuristic {rates['heuristic']:7d}  learned {rates['learned']:7d}")
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
