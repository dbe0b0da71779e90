"""Exact Reversi endgame solver: how many empties it settles in 1 s and 10 s.

Usage: python -m benchmarks.reversi_endgame [--size 8] [--games G] [--empties A-B]
    [--seed S] [--play random|greedy] [--cap SECONDS] [--threads N] [--wall] [--start]
    [--json]

Plays G seeded games from the standard start (random moves, or greedy: the most flips)
and solves the position of each game at A, A+1, ... B empties (the same game, earlier and
earlier), each solve capped at ``--cap`` seconds; a game stops growing once a solve hits
the cap. Prints per empty count the median and max seconds over the games, and per game
its reach: the most empties up to which every solve took at most 1 s (and 10 s); then the
median, min and max reach over the games. A solve stopped at the cap counts with the cap's
time in the medians (the ``past cap`` column says how many). Times are CPU seconds of
this process (the same on a loaded machine), or with ``--wall`` wall-clock seconds (for
``--threads 2``, the solver's default where the machine has two cores: run it on an
otherwise idle machine); the cap is wall-clock.

``--start`` instead solves the standard start position of ``--size`` within the cap.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from typing import Any

from brains.reversi_endgame import empties_of, solve
from engine import new_game

PYTHON_NODES_PER_S = 100_000
PYTHON_REACH_1S = 14
"""The figures of the Python search before the compiled kernels (measured with this
benchmark, 8 random games, 8x8; docs/STRENGTH-NOTEBOOK.md's history)."""
LIMITS = (1.0, 10.0)
"""The times whose reach is reported."""


def discs_after(state: Any, move: int) -> int:
    """The mover's discs after ``move`` (the greedy player's choice)."""
    return int(state.play(move).counts()[state.to_move])


def play_game(size: int, rng: random.Random, how: str) -> list[Any]:
    """The states of one seeded game from the standard start to its end."""
    state = new_game("reversi", size=size)
    states = [state]
    while state.outcome() is None:
        moves = state.legal_moves()
        if how == "greedy" and len(moves) > 1:
            gains = {m: discs_after(state, m) for m in moves}
            top = max(gains.values())
            move = rng.choice([m for m in moves if gains[m] == top])
        else:
            move = rng.choice(moves)
        state = state.play(move)
        states.append(state)
    return states


def timed(state: Any, cap: float, threads: int = 1,
          wall: bool = False) -> tuple[float, int | None, int]:
    """(CPU seconds, or wall-clock ones with ``wall``; score or None past the cap; nodes)
    of one solve on ``threads`` threads (the cap is wall-clock: the solver's budget)."""
    clock = time.perf_counter if wall else time.process_time
    start = clock()
    result = solve(state, budget_seconds=cap, threads=threads)
    seconds = clock() - start
    return seconds, result.score if result.exact else None, result.nodes


def run(size: int, games: int, low: int, high: int, seed: int, how: str, cap: float,
        verbose: bool, threads: int = 1, wall: bool = False) -> dict[str, Any]:
    """Solve every game's positions from ``low`` to ``high`` empties; times and reach."""
    # the first solve in a process compiles (or loads) the kernel: no figure counts it
    warm = [s for s in play_game(size, random.Random(seed), how) if s.outcome() is None]
    timed(warm[-1], cap)
    solve(warm[0], budget_seconds=0)  # 8x8: loads the pattern model (stopped at once)
    rng = random.Random(seed)
    per_count: dict[int, list[float]] = {}
    capped: dict[int, int] = {}
    reach: dict[float, list[int]] = {limit: [] for limit in LIMITS}
    rows = []
    nodes = 0
    seconds_total = 0.0
    for game in range(games):
        states = play_game(size, rng, how)
        by_empties = {empties_of(s): s for s in states if s.outcome() is None}
        best = {limit: low - 1 for limit in LIMITS}
        for count in range(low, high + 1):
            state = by_empties.get(count)
            if state is None:  # a pass keeps the count; a game may skip none, but be safe
                continue
            seconds, score, n = timed(state, cap, threads, wall)
            nodes += n
            seconds_total += seconds
            per_count.setdefault(count, []).append(seconds)
            rows.append({"game": game, "empties": count, "seconds": round(seconds, 3),
                         "score": score, "nodes": n})
            if verbose:
                shown = "past cap" if score is None else f"{score:+d}"
                print(f"  game {game} {count:2d} empties {seconds:8.3f} s {shown:>8} "
                      f"{n:>9} nodes", flush=True)
            for limit in LIMITS:
                if score is not None and seconds <= limit and best[limit] == count - 1:
                    best[limit] = count
            if score is None:
                capped[count] = capped.get(count, 0) + 1
                break
        for limit in LIMITS:
            reach[limit].append(best[limit])
    table = {count: {"positions": len(ts), "past_cap": capped.get(count, 0),
                     "median_s": round(statistics.median(ts), 3), "max_s": round(max(ts), 3)}
             for count, ts in sorted(per_count.items())}
    return {"size": size, "games": games, "seed": seed, "play": how, "cap_s": cap,
            "threads": threads, "clock": "wall" if wall else "cpu",
            "times": table, "positions": rows,
            "reach": {f"{limit:g}s": {"per_game": reach[limit],
                                      "median": statistics.median(reach[limit]),
                                      "min": min(reach[limit]), "max": max(reach[limit])}
                      for limit in LIMITS},
            "nodes_per_s": round(nodes / max(seconds_total, 1e-9))}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reversi_endgame",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=8, choices=(8, 6, 4))
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--empties", default="8-20", metavar="A-B")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--play", choices=("random", "greedy"), default="random")
    parser.add_argument("--cap", type=float, default=12.0,
                        help="seconds allowed to one solve (default 12)")
    parser.add_argument("--start", action="store_true",
                        help="solve the standard start position of --size within --cap")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads a solve uses (default 1: CPU seconds mean the same "
                             "on a loaded machine)")
    parser.add_argument("--wall", action="store_true",
                        help="time in wall-clock seconds (meaningful on an idle machine; "
                             "how to read more than one thread)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.threads < 1:
        parser.error("--threads: at least 1")
    if args.start:
        timed(new_game("reversi", size=4), args.cap)  # compile (or load) first, untimed
        state = new_game("reversi", size=args.size)
        seconds, score, nodes = timed(state, args.cap)
        report: dict[str, Any] = {"size": args.size, "start": True, "cap_s": args.cap,
                                  "seconds": round(seconds, 1), "score": score,
                                  "nodes": nodes}
        if args.json:
            print(json.dumps(report))
        elif score is None:
            print(f"{args.size}x{args.size} start: not settled within {args.cap:g} s "
                  f"({nodes} nodes)")
        else:
            print(f"{args.size}x{args.size} start: {score:+d} for Black (discs, empties to "
                  f"nobody) in {seconds:.1f} CPU s, {nodes} nodes")
        return 0
    low, _, high = args.empties.partition("-")
    if not args.json:
        print(f"{args.size}x{args.size}, {args.games} {args.play} games (seed {args.seed}), "
              f"{args.empties} empties, cap {args.cap:g} s a solve:")
    report = run(args.size, args.games, int(low), int(high or low), args.seed, args.play,
                 args.cap, not args.json, args.threads, args.wall)
    if args.json:
        print(json.dumps(report))
        return 0
    clock = "wall-clock" if args.wall else "CPU"
    print(f"empties  positions  past cap  median s    max s   ({clock} seconds, "
          f"{args.threads} thread(s) a solve)")
    for count, row in report["times"].items():
        print(f"{count:7d}  {row['positions']:9d}  {row['past_cap']:8d}  {row['median_s']:8.3f}"
              f"  {row['max_s']:7.3f}")
    for limit, row in report["reach"].items():
        print(f"settled within {limit}: median {row['median']} empties, "
              f"min {row['min']}, max {row['max']} (per game {row['per_game']})")
    print(f"{report['nodes_per_s']} nodes/s (the Python search the compiled one replaced: "
          f"about {PYTHON_NODES_PER_S:,} nodes/s and a 1 s reach of {PYTHON_REACH_1S} empties "
          f"on 8x8, docs/STRENGTH-NOTEBOOK.md)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
