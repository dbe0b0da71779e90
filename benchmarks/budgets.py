"""Budgets kept by time: how far past a short budget each search returns, in real time.

Usage: python -m benchmarks.budgets [--seconds 0.1] [--positions 12] [--json]
For each game and search (alpha-beta with the game's evaluation and with its learned
MLP evaluation where one is shipped, plain minimax, MCTS) it asks for a move in
``--positions`` positions reached by random play, each with a ``Budget(seconds=…)``, and
prints the median and worst wall-clock time taken as a multiple of the budget and the
worst overshoot in milliseconds. The goal: every overshoot within 20 ms on a quiet
machine (a busy one adds whatever the scheduler takes; the CPU column shows it).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

SEARCHES = ("alphabeta", "alphabeta,eval=mlp", "minimax", "mcts")
"""The searches timed (a spec whose evaluation a game lacks is skipped for it)."""


def positions(game: str, count: int, seed: int) -> list[Any]:
    """``count`` unfinished positions of ``game`` after 4 to 16 random plies."""
    from engine.registry import new_game

    rng = random.Random(seed)
    found: list[Any] = []
    while len(found) < count:
        state = new_game(game)
        for _ in range(rng.randint(4, 16)):
            moves = state.legal_moves()
            if state.outcome() is not None or not moves:
                break
            state = state.play(rng.choice(moves))
        if state.outcome() is None and len(state.legal_moves()) > 1:
            found.append(state)
    return found


def measure(spec: str, game: str, states: list[Any], seconds: float) -> dict[str, Any] | None:
    """Wall and CPU time of each move under a ``seconds`` budget (None: no such brain)."""
    from brains.protocol import Budget
    from brains.registry import make_brain

    try:
        brain = make_brain(spec, game, seed=1)
    except Exception:  # noqa: BLE001 - a game without that evaluation is skipped
        return None
    brain.choose(states[0], Budget(seconds=seconds))  # warm caches and first imports
    walls, cpus = [], []
    for state in states:
        wall, cpu = time.perf_counter(), time.process_time()
        brain.choose(state, Budget(seconds=seconds))
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return {"game": game, "spec": spec, "median": statistics.median(walls) / seconds,
            "worst": max(walls) / seconds, "over_ms": max(0.0, max(walls) - seconds) * 1000,
            "cpu_median": statistics.median(cpus) / seconds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.budgets",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--positions", type=int, default=12)
    parser.add_argument("--games", default="")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    from engine.registry import GAMES

    games = args.games.split(",") if args.games else list(GAMES)
    rows = []
    for game in games:
        states = positions(game, args.positions, seed=7)
        for spec in SEARCHES:
            row = measure(spec, game, states, args.seconds)
            if row is not None:
                rows.append(row)
                if not args.json:
                    print(f"{game:10} {spec:20} median {row['median']:.2f}x  worst "
                          f"{row['worst']:.2f}x  over {row['over_ms']:6.1f} ms  "
                          f"cpu {row['cpu_median']:.2f}x", flush=True)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        worst = max(rows, key=lambda r: r["over_ms"])
        print(f"worst overshoot: {worst['over_ms']:.1f} ms ({worst['spec']} in {worst['game']}) "
              f"of a {args.seconds:g} s budget")
    return 0


if __name__ == "__main__":
    sys.exit(main())
