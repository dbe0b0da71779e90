"""Nodes per second of the compiled pattern search against alpha-beta in Python.

Usage: python -m benchmarks.pattern_search [--positions N] [--seconds T] [--json]

Over the same midgame 8x8 Reversi positions (from random games, 20 to 50 empties), each
search thinks ``--seconds`` a move: ``patterns,endgame=false`` (the compiled negascout
with the pattern evaluation, brains/kernels/reversi.py) and ``alphabeta,eval=mlp``
and ``alphabeta`` (Python, the learned and the hand-written evaluation, without a depth
cap). Reported: nodes a second (the nodes of the last thought over the time taken), the
mean depth finished, and the time the longest move took past its budget. The kernel's
first compilation (or load from numba's cache) happens before the timing.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from typing import Any

SPECS = ("patterns,endgame=false", "alphabeta,eval=mlp,depth=none",
         "alphabeta,depth=none")


def positions(count: int, seed: int = 0) -> list[Any]:
    """``count`` positions with 20 to 50 empty squares, from random games (seeded)."""
    from engine.registry import new_game

    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = new_game("reversi")
        for _ in range(rng.randint(10, 40)):
            if not state.legal_moves():
                break
            state = state.play(rng.choice(state.legal_moves()))
        if len(state.legal_moves()) > 1:
            out.append(state)
    return out


def measure(spec: str, states: list[Any], seconds: float) -> dict[str, float]:
    from brains.protocol import Budget
    from brains.registry import make_brain

    brain = make_brain(spec, "reversi", seed=0)
    brain.choose(states[0], Budget(seconds=0.05))  # compile or load the kernels
    nodes = 0
    spent = 0.0
    depths = []
    over = 0.0
    for state in states:
        budget = Budget(seconds=seconds).start()
        start = time.monotonic()
        last = None
        for thought in brain.think(state, budget):
            last = thought
        took = time.monotonic() - start
        spent += took
        over = max(over, took - seconds)
        if last is not None:
            nodes += last.nodes
            depths.append(last.depth)
    return {"nodes_per_second": round(nodes / spent), "mean_depth": round(
        sum(depths) / max(1, len(depths)), 2), "worst_overrun_ms": round(1000 * over, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.pattern_search",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    states = positions(args.positions)
    rows = {spec: measure(spec, states, args.seconds) for spec in SPECS}
    if args.json:
        print(json.dumps({"seconds": args.seconds, "positions": args.positions, **rows}))
        return 0
    print(f"{args.positions} positions, {args.seconds:g} s a move")
    for spec, row in rows.items():
        print(f"{spec:34} {row['nodes_per_second']:>10,} nodes/s  depth "
              f"{row['mean_depth']:5.2f}  worst overrun {row['worst_overrun_ms']:6.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
