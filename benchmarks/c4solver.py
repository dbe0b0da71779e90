"""Connect Four solver speed: the compiled solver against the pure-Python one it replaced,
on Pons' end-game positions and middle-game positions; then exact analysis of random
positions of the opening and middle game.

Usage: python -m benchmarks.c4solver [--file PATH ...] [--middle N] [--stones A-B]
    [--seed S] [--p95 N] [--cap T] [--no-python] [--pons PATH] [--json]
Part 1 solves every line of each end-game set (a fresh table per position, as in Pons'
benchmark, no opening book): by default the repository's sample of his ``Test_L3_R1``
(every tenth of its 1,000 positions); ``--file`` takes whole sets, or any ``MOVES
SCORE`` files (his ``Test_L2_R1``, ``Test_L2_R2``, ``Test_L1_R1``, ``Test_L1_R2`` are
not in this repository). It prints how many scores are exact, CPU seconds per position
(mean, median, max) and nodes per CPU second, for the compiled solver and (unless
``--no-python``) for the pure-Python oracle of tests/brains/c4_oracle.py ("before").
Part 2 plays N seeded random games to A..B stones (never into an immediate win) and
solves each position with both, printing CPU seconds and nodes per second.
With ``--pons PATH`` (Pascal Pons' own solver, ``c4solver`` built with make from his
public repository, PascalPons/connect4; by default ``build/pons/c4solver``) the same
middle-game positions are also solved by it, one process a position (so a fresh table,
as ours; its start-up, the CPU time of a one-move position, is taken off), without its
opening book: the CPU time of the two solvers on the same positions, their ratio, and
whether every score agrees. Without the program it says so and measures nothing more.
Part 3 analyses (every column's exact score) N seeded random positions of 0..20 stones,
the number of stones drawn uniformly, as the app does: the opening book where it settles
a position, else the compiled search, given up after T CPU seconds. It prints the median,
p95 and max CPU seconds a position (a position given up counts as above T) and how many
were settled, by stones.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from brains.c4solver import Position, Solver, SolverStopped, exact_book

DEEP = 10
"""The opening analysis also reports positions of at least this many stones on their own
(what the search alone must answer, beyond an opening book of up to 9 stones)."""
PONS = Path("build/pons/c4solver")
"""Where ``make bench`` looks for Pons' compiled solver."""
SAMPLE = Path(__file__).resolve().parent.parent / "tests" / "data" / "c4" / "end_easy_sample.txt"
"""Every tenth position of Pons' ``Test_L3_R1``, with its exact score."""


def _oracle() -> Any:
    """The pure-Python solver (the product's before the compiled kernel), from tests/."""
    from tests.brains.c4_oracle import OracleSolver

    return OracleSolver()


def end_game(path: Path, python: bool) -> dict[str, Any]:
    """Solve every ``MOVES SCORE`` line of ``path`` (``#`` starts a comment line) with a
    fresh table each, by the compiled solver and optionally the Python one."""
    lines = [line.split() for line in path.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    report: dict[str, Any] = {"positions": len(lines)}
    solvers = [("compiled", Solver(book=False))]
    if python:
        solvers.append(("python", _oracle()))
    for name, solver in solvers:
        nodes = correct = 0
        times = []
        for moves, score in lines:
            solver.reset()
            position = Position.from_moves(moves)
            begun = time.process_time()
            correct += solver.solve(position) == int(score)
            times.append(time.process_time() - begun)
            nodes += solver.nodes
        cpu = sum(times)
        report[name] = {"correct": correct, "cpu_s": round(cpu, 3),
                        "mean_ms": round(1000 * cpu / len(lines), 3),
                        "median_ms": round(1000 * statistics.median(times), 3),
                        "max_ms": round(1000 * max(times), 2), "nodes": nodes,
                        "nodes_per_s": round(nodes / max(cpu, 1e-9))}
    return report


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


def middle_game(count: int, low: int, high: int, seed: int, python: bool,
                verbose: bool) -> dict[str, Any]:
    """Solve ``count`` seeded random positions of ``low``..``high`` stones with both."""
    rng = random.Random(seed)
    positions = [random_position(rng, rng.randint(low, high)) for _ in range(count)]
    report: dict[str, Any] = {}
    solvers: list[tuple[str, Any]] = [("compiled", lambda: Solver(book=False))]
    if python:
        solvers.append(("python", _oracle))
    for name, make in solvers:
        rows = []
        for pos in positions:
            solver = make()
            begun = time.process_time()
            score = solver.solve(pos)
            rows.append({"moves": pos.history, "score": score,
                         "cpu_s": round(time.process_time() - begun, 4),
                         "nodes": solver.nodes})
            if verbose:
                print(f"  {name:<8} {pos.history:<18} {score:>4}  {rows[-1]['cpu_s']:8.4f} s"
                      f"  {solver.nodes:>10} nodes", flush=True)
        times = [float(r["cpu_s"]) for r in rows]
        nodes = sum(int(r["nodes"]) for r in rows)
        report[name] = {"positions": rows, "median_s": round(statistics.median(times), 4),
                        "max_s": max(times), "cpu_s": round(sum(times), 3),
                        "nodes_per_s": round(nodes / max(sum(times), 1e-9))}
    if python:
        report["same_scores"] = all(a["score"] == b["score"] for a, b in
                                    zip(report["compiled"]["positions"],
                                        report["python"]["positions"], strict=True))
    return report


def _child_cpu() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


QUICK = "121212"
"""A position Pons' solver answers at once (the mover wins now): its start-up time."""


def pons_time(program: Path, line: str) -> tuple[int, float]:
    """(score, CPU seconds) of Pons' solver on one position (``line``: the columns played,
    1 to 7, his format and ours), in a process of its own, without its opening book."""
    begun = _child_cpu()
    out = subprocess.run([str(program), "-b", os.devnull], input=line + "\n",
                         capture_output=True, text=True, timeout=3600, check=True).stdout
    spent = _child_cpu() - begun
    fields = out.split()
    if len(fields) != 2 or fields[0] != line:
        raise ValueError(f"Pons' solver answered {out[:60]!r} to {line!r}")
    return int(fields[1]), spent


def against_pons(program: Path, middle: dict[str, Any]) -> dict[str, Any]:
    """Pons' solver on the middle-game positions ours solved: CPU seconds, the ratio of
    the totals (ours / his) and whether the scores agree."""
    start_up = statistics.median(pons_time(program, QUICK)[1] for _ in range(5))
    rows = []
    for row in middle["compiled"]["positions"]:
        score, spent = pons_time(program, row["moves"])
        rows.append({"moves": row["moves"], "score": score,
                     "cpu_s": round(max(0.0, spent - start_up), 4)})
    ours = [float(r["cpu_s"]) for r in middle["compiled"]["positions"]]
    his = [float(r["cpu_s"]) for r in rows]
    return {"start_up_s": round(start_up, 4), "positions": rows,
            "median_s": round(statistics.median(his), 4), "cpu_s": round(sum(his), 3),
            "ours_cpu_s": round(sum(ours), 3),
            "ratio": round(sum(ours) / max(sum(his), 1e-9), 2),
            "same_scores": all(a["score"] == b["score"] for a, b in
                               zip(middle["compiled"]["positions"], rows, strict=True))}


LAST_CELLS = "71255763773133525731261364622167124446454"
"""A position of 41 stones (from Pons' tests): a search of a few nodes."""


def opening_analysis(count: int, cap: float, seed: int, verbose: bool,
                     threads: int | None = None) -> dict[str, Any]:
    """Analyse ``count`` random positions of 0..20 stones (uniform), each given up after
    ``cap`` CPU seconds; CPU seconds a position (of all the analysis' ``threads``
    together), a given-up one counted as infinite, and the wall-clock seconds beside them
    (which mean something only on an otherwise idle machine)."""
    rng = random.Random(seed)
    solver = Solver(threads=threads)
    exact_book().kernel_arrays()  # read the book (once a process) before the clock runs
    solver.solve(Position.from_moves(LAST_CELLS))  # and load the compiled search
    times: list[float] = []
    walls: list[float] = []
    deep: list[float] = []  # positions of DEEP stones or more
    by_stones: dict[int, list[int]] = {}
    for _ in range(count):
        stones = rng.randint(0, 20)
        pos = random_position(rng, stones)
        solver.reset()
        begun = time.process_time()  # the cap is CPU time: the figure is the same under load
        clock = time.perf_counter()
        solver.stop = lambda end=begun + cap: time.process_time() > end
        try:
            solver.analyse(pos)
            spent = time.process_time() - begun
            wall = time.perf_counter() - clock
        except SolverStopped:
            spent = wall = float("inf")
        times.append(spent)
        walls.append(wall)
        if stones >= DEEP:
            deep.append(spent)
        tally = by_stones.setdefault(stones, [0, 0])
        tally[0] += 1
        tally[1] += spent != float("inf")
        if verbose:
            shown = "given up" if spent == float("inf") else f"{spent:.3f} s"
            print(f"  {pos.history or '-':<22} {shown}", flush=True)
    ranked = sorted(times)

    def percentile95(values: list[float]) -> float:
        ordered = sorted(values)
        return ordered[max(0, round(0.95 * len(ordered)) - 1)] if ordered else 0.0

    p95 = percentile95(times)

    def finite(value: float) -> float | None:  # None: given up (JSON has no infinity)
        return None if value == float("inf") else round(value, 4)

    return {"positions": count, "cap_s": cap, "seed": seed, "threads": solver.threads,
            "wall_median_s": finite(sorted(walls)[len(walls) // 2]),
            "wall_p95_s": finite(percentile95(walls)),
            "wall_within_1s": sum(t <= 1.0 for t in walls),
            "settled": sum(t != float("inf") for t in times),
            "median_s": finite(ranked[len(ranked) // 2]), "p95_s": finite(p95),
            "max_s": finite(ranked[-1]),
            "within_1s": sum(t <= 1.0 for t in times),
            "deep_positions": len(deep), "deep_p95_s": finite(percentile95(deep)),
            "deep_within_1s": sum(t <= 1.0 for t in deep),
            "by_stones": {str(k): {"positions": v[0], "settled": v[1]}
                          for k, v in sorted(by_stones.items())}}


def _seconds(value: float | None) -> str:
    return "given up" if value is None else f"{value:.3f} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.c4solver", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--file", type=Path, nargs="+", default=[SAMPLE],
                        help="MOVES SCORE files to solve (default: the repository's sample)")
    parser.add_argument("--middle", type=int, default=10, metavar="N",
                        help="middle-game positions to time (default 10; 0 skips)")
    parser.add_argument("--stones", default="14-16", metavar="A-B")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--p95", type=int, default=200, metavar="N",
                        help="random positions of 0-20 stones to analyse (default 200; 0 skips)")
    parser.add_argument("--cap", type=float, default=2.0, metavar="T",
                        help="CPU seconds before a position of --p95 is given up (default 2)")
    parser.add_argument("--threads", type=int, default=None, metavar="N",
                        help="threads the --p95 analysis uses (default: the solver's, "
                             "two where the machine has them)")
    parser.add_argument("--no-python", action="store_true",
                        help="skip the pure-Python solver (the 'before' figures)")
    parser.add_argument("--pons", type=Path, default=PONS, metavar="PATH",
                        help="Pons' compiled solver, to time on the middle-game positions "
                             "(default build/pons/c4solver)")
    parser.add_argument("-v", "--verbose", action="store_true")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    low, _, high = args.stones.partition("-")
    python = not args.no_python
    report: dict[str, Any] = {}
    status = 0
    Solver(book=False).solve(Position.from_moves("4455"))  # compile (or load) first
    for path in args.file:
        if not path.is_file():
            parser.error(f"--file: no such file: {str(path)[:60]}")
        end = end_game(path, python)
        report[path.name] = end
        for name in ("compiled", "python"):
            if name not in end:
                continue
            row = end[name]
            status |= row["correct"] != end["positions"]
            if not args.json:
                print(f"{path.name} ({name}): {row['correct']}/{end['positions']} exact, "
                      f"{row['cpu_s']:.3f} CPU s (mean {row['mean_ms']} ms, median "
                      f"{row['median_ms']} ms, max {row['max_ms']} ms a position), "
                      f"{row['nodes']} nodes, {row['nodes_per_s']} nodes/s", flush=True)
    if args.middle > 0:
        if not args.json:
            print(f"middle game, {args.middle} random positions of {args.stones} stones "
                  f"(seed {args.seed}), fresh table each:")
        middle = middle_game(args.middle, int(low), int(high or low), args.seed, python,
                             args.verbose and not args.json)
        report["middle_game"] = middle
        status |= not middle.get("same_scores", True)
        if not args.json:
            for name in ("compiled", "python"):
                if name in middle:
                    row = middle[name]
                    print(f"  {name}: median {row['median_s']:.4f} s, max {row['max_s']:.4f} s, "
                          f"{row['cpu_s']:.3f} CPU s in all, {row['nodes_per_s']} nodes/s")
            if python:
                speed = (report["middle_game"]["compiled"]["nodes_per_s"]
                         / max(1, report["middle_game"]["python"]["nodes_per_s"]))
                print(f"  nodes/s compiled / python: {speed:.1f}x; same scores: "
                      f"{middle['same_scores']}")
        if not args.pons.is_file():
            if not args.json:
                print(f"  Pons' solver not measured: no program at {args.pons} (build "
                      "c4solver from his public repository, PascalPons/connect4, with make, "
                      "and pass --pons PATH)")
        else:
            peer = against_pons(args.pons, middle)
            report["pons"] = peer
            status |= not peer["same_scores"]
            if not args.json:
                print(f"  Pons' solver (C++, start-up {peer['start_up_s']:.3f} s taken off): "
                      f"median {peer['median_s']:.4f} s, {peer['cpu_s']:.3f} CPU s in all; "
                      f"ours / his: {peer['ratio']:.2f}; same scores: {peer['same_scores']}")
    if args.p95 > 0:
        if not args.json:
            print(f"analysis of {args.p95} random positions of 0-20 stones (seed {args.seed}, "
                  f"given up after {args.cap:g} CPU s), opening book on:", flush=True)
        opening = opening_analysis(args.p95, args.cap, args.seed,
                                   args.verbose and not args.json, args.threads)
        report["opening_analysis"] = opening
        if not args.json:
            unsettled = {k: v["positions"] - v["settled"] for k, v in
                         opening["by_stones"].items() if v["settled"] < v["positions"]}
            print(f"  settled {opening['settled']}/{opening['positions']}, within 1 s "
                  f"{opening['within_1s']}; CPU a position: median "
                  f"{_seconds(opening['median_s'])}, p95 {_seconds(opening['p95_s'])}, "
                  f"max {_seconds(opening['max_s'])}")
            print(f"  wall clock on {opening['threads']} thread(s): median "
                  f"{_seconds(opening['wall_median_s'])}, p95 "
                  f"{_seconds(opening['wall_p95_s'])}, within 1 s "
                  f"{opening['wall_within_1s']} (meaningful on an idle machine only)")
            print(f"  given up, by stones: {unsettled or 'none'}")
            print(f"  the {opening['deep_positions']} of {DEEP} stones or more: p95 "
                  f"{_seconds(opening['deep_p95_s'])}, within 1 s "
                  f"{opening['deep_within_1s']}")
    if args.json:
        print(json.dumps(report))
    return status


if __name__ == "__main__":
    sys.exit(main())
