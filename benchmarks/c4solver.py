"""Connect Four solver speed: Pons' end-game positions, then middle-game positions.

Usage: python -m benchmarks.c4solver [--file PATH] [--middle N] [--stones A-B] [--seed S]
    [--json]
Part 1 solves every line of an end-game set (a fresh solver per position, as in Pons'
benchmark): by default the repository's sample of his ``Test_L3_R1`` (every tenth of its
1,000 positions); ``--file`` takes the whole file, or any ``MOVES SCORE`` file. It
prints the total time, positions/s, nodes/s and how many scores are exact.
Part 2 plays N seeded random games to A..B stones (never into an immediate win), solves
each position exactly and prints per-position times and the median.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

from brains.c4solver import Position, Solver

SAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "c4" / "end_easy_sample.txt"
"""Every tenth position of Pons' ``Test_L3_R1``, with its exact score."""


def end_game(path: Path) -> dict[str, float | int]:
    """Solve every ``MOVES SCORE`` line of ``path`` (``#`` starts a comment line); totals
    and the number exact."""
    lines = [line.split() for line in path.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    solver = Solver()
    nodes = correct = 0
    times = []
    start = time.perf_counter()
    for moves, score in lines:
        begun = time.perf_counter()
        solver.reset()
        correct += solver.solve(Position.from_moves(moves)) == int(score)
        nodes += solver.nodes
        times.append(time.perf_counter() - begun)
    seconds = time.perf_counter() - start
    return {"positions": len(lines), "correct": correct, "seconds": round(seconds, 3),
            "median_ms": round(1000 * statistics.median(times), 2),
            "max_ms": round(1000 * max(times), 1),
            "positions_per_s": round(len(lines) / seconds), "nodes": nodes,
            "nodes_per_s": round(nodes / seconds)}


def random_position(rng: random.Random, stones: int) -> Position:
    """A random unfinished position of ``stones`` stones where the mover cannot win now."""
    while True:
        pos = Position()
        for _ in range(stones):
            cols = [c for c in range(7) if pos.can_play(c) and not pos.is_winning_move(c)]
            if not cols:
                break
            pos = pos.play(rng.choice(cols))
        else:
            if not pos.can_win_next():
                return pos


def middle_game(count: int, low: int, high: int, seed: int,
                verbose: bool) -> list[dict[str, object]]:
    """Solve ``count`` seeded random positions of ``low``..``high`` stones."""
    rng = random.Random(seed)
    rows: list[dict[str, object]] = []
    for _ in range(count):
        pos = random_position(rng, rng.randint(low, high))
        solver = Solver()
        start = time.perf_counter()
        score = solver.solve(pos)
        seconds = time.perf_counter() - start
        row = {"moves": pos.history, "score": score, "seconds": round(seconds, 3),
               "nodes": solver.nodes}
        rows.append(row)
        if verbose:
            print(f"  {pos.history:<18} {score:>4}  {seconds:7.3f} s  {solver.nodes:>9} nodes",
                  flush=True)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.c4solver", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, default=SAMPLE,
                        help="MOVES SCORE lines to solve (default: the repository's sample)")
    parser.add_argument("--middle", type=int, default=10, metavar="N",
                        help="middle-game positions to time (default 10; 0 skips)")
    parser.add_argument("--stones", default="14-16", metavar="A-B")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    low, _, high = args.stones.partition("-")
    report: dict[str, object] = {}
    status = 0
    if not args.file.is_file():
        parser.error(f"--file: no such file: {str(args.file)[:60]}")
    end = end_game(args.file)
    report["end_game"] = end
    status |= end["correct"] != end["positions"]
    if not args.json:
        print(f"{args.file.name}: {end['correct']}/{end['positions']} exact in "
              f"{end['seconds']:.2f} s (median {end['median_ms']} ms, max {end['max_ms']} ms a "
              f"position), {end['positions_per_s']} positions/s, "
              f"{end['nodes']} nodes, {end['nodes_per_s']} nodes/s", flush=True)
    if args.middle > 0:
        if not args.json:
            print(f"middle game, {args.middle} random positions of {args.stones} stones "
                  f"(seed {args.seed}):")
        rows = middle_game(args.middle, int(low), int(high or low), args.seed, not args.json)
        times = [float(str(r["seconds"])) for r in rows]
        nodes = sum(int(str(r["nodes"])) for r in rows)
        report["middle_game"] = {"positions": rows, "median_s": round(statistics.median(times), 3),
                                 "max_s": max(times),
                                 "nodes_per_s": round(nodes / max(sum(times), 1e-9))}
        if not args.json:
            print(f"  median {statistics.median(times):.3f} s, max {max(times):.3f} s, "
                  f"{nodes / max(sum(times), 1e-9):.0f} nodes/s")
    if args.json:
        print(json.dumps(report))
    return status


if __name__ == "__main__":
    sys.exit(main())
