"""The FFO endgame test #40-#49 by Parlor's exact Reversi solver.

Usage: python -m benchmarks.reversi_ffo [--only N ...] [--cap SECONDS] [--threads N] [--json]

Solves each position of tests/data/ffo/ffo-40-49.txt (the published scores and best
moves, FFO's count: empty squares to the winner) and prints per position the empties,
the score found and the published one, the best move found, nodes, CPU seconds, nodes
per CPU second and wall-clock seconds; then the totals. ``--threads`` (default 1) is the
solver's; on more than one, read the wall-clock seconds, on an otherwise idle machine.
A position past ``--cap`` seconds counts as not solved. Exit status 1 if any score or
best move differs from the published one.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "ffo" / "ffo-40-49.txt"


@dataclass(frozen=True)
class Problem:
    """One FFO position: its number, Parlor position, published score and best moves."""

    number: int
    position: str
    score: int
    best: tuple[str, ...]


def to_position(board: str, side: str) -> str:
    """Parlor's position (docs/RULES.md) of a 64-character FFO board and side."""
    if len(board) != 64 or set(board) - set("XO-") or side not in ("X", "O"):
        raise ValueError(f"not an FFO board and side: {board[:70]!r} {side[:4]!r}")
    cells = board.replace("-", ".").lower()
    return "/".join(cells[i:i + 8] for i in range(0, 64, 8)) + " " + side.lower()


def load(path: Path = DATA) -> list[Problem]:
    """The problems of a file in the format of tests/data/ffo/ffo-40-49.txt."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        number, board, side, score, best = fields
        out.append(Problem(int(number), to_position(board, side), int(score),
                           tuple(best.split(","))))
    return out


def run(problem: Problem, cap: float | None, threads: int = 1) -> dict[str, Any]:
    """Solve one problem: a row of the table."""
    from brains import reversi_endgame
    from engine.positions import parse_position

    state = parse_position("reversi", problem.position)
    cpu, wall = time.process_time(), time.perf_counter()
    result = reversi_endgame.solve(state, budget_seconds=cap, empties_to_winner=True,
                                   threads=threads)
    seconds, wall = time.process_time() - cpu, time.perf_counter() - wall
    best = None if result.best_move is None else state.format_move(result.best_move)
    return {"number": problem.number, "empties": reversi_endgame.empties_of(state),
            "score": result.score if result.exact else None, "published": problem.score,
            "best": best, "published_best": list(problem.best), "nodes": result.nodes,
            "cpu_s": round(seconds, 3), "wall_s": round(wall, 3),
            "ok": result.exact and result.score == problem.score and best in problem.best}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.reversi_ffo",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", type=int, nargs="*", metavar="N",
                        help="only these problem numbers")
    parser.add_argument("--cap", type=float, default=120.0,
                        help="wall-clock seconds allowed to one position (default 120; 0: no "
                             "limit)")
    parser.add_argument("--threads", type=int, default=1,
                        help="threads a solve uses (default 1)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.threads < 1:
        parser.error("--threads: at least 1")
    problems = [p for p in load() if not args.only or p.number in args.only]
    from brains import reversi_endgame
    from engine.positions import parse_position

    reversi_endgame.solve(parse_position("reversi", "4/4/4/4 x"))  # compile first, untimed
    # and load the pattern model the 8x8 solves sort by (stopped at once: nothing solved)
    reversi_endgame.solve(parse_position("reversi", "8/8/8/3ox3/3xo3/8/8/8 x"), budget_seconds=0)
    rows = []
    if not args.json:
        print("FFO  empties  score  published  best  published   nodes        CPU s  "
              "  nodes/s  wall s")
    for problem in problems:
        row = run(problem, args.cap or None, args.threads)
        rows.append(row)
        if not args.json:
            score = "past cap" if row["score"] is None else f"{row['score']:+d}"
            rate = row["nodes"] / max(row["cpu_s"], 1e-9)
            print(f"#{row['number']}  {row['empties']:7d}  {score:>5}  {row['published']:+9d}"
                  f"  {row['best'] or '-':>4}  {','.join(row['published_best']):>9}"
                  f"  {row['nodes']:>11,}  {row['cpu_s']:8.2f}  {rate:>11,.0f}"
                  f"  {row['wall_s']:6.2f}"
                  f"{'' if row['ok'] else '  WRONG'}", flush=True)
    nodes = sum(r["nodes"] for r in rows)
    cpu = sum(r["cpu_s"] for r in rows)
    wall = sum(r["wall_s"] for r in rows)
    if args.json:
        print(json.dumps({"rows": rows, "nodes": nodes, "cpu_s": round(cpu, 3),
                          "wall_s": round(wall, 3), "threads": args.threads}))
    else:
        print(f"total: {nodes:,} nodes, {cpu:.2f} CPU s ({nodes / max(cpu, 1e-9):,.0f} "
              f"nodes/s), {wall:.2f} s of wall clock on {args.threads} thread(s), "
              f"{sum(r['ok'] for r in rows)} of {len(rows)} as published; "
              f"slowest {max((r['cpu_s'] for r in rows), default=0):.2f} CPU s")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
