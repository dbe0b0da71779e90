"""Re-prove every shipped puzzle by the exact solvers, and time it.

Usage: python -m benchmarks.puzzles [--game ID] [--limit N] [--json]
For each shipped puzzle file (``saved/puzzles/``, checked against its manifest), every
puzzle (or the first N) is solved again from its position text: its solution must be the
one move that keeps its goal (a win, or a draw when everything else loses), and every
move it lists as wrong must lose value (:func:`brains.puzzles.prove`). Prints one line per
game (puzzles, failures, seconds, puzzles a second) and the first failures; the exit
status is 1 if any puzzle fails.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from brains import puzzles


def check_game(game: str, limit: int | None = None) -> dict[str, Any]:
    """Re-prove ``game``'s shipped puzzles: counts, seconds and the first failures."""
    found = puzzles.load_shipped(game)
    if limit is not None:
        found = found[:limit]
    cache: dict[str, Any] = {}
    failures: list[str] = []
    started = time.perf_counter()
    for puzzle in found:
        problem = puzzles.prove(puzzle, cache)
        if problem is not None:
            failures.append(problem)
    seconds = time.perf_counter() - started
    return {"game": game, "puzzles": len(found), "failures": len(failures),
            "first_failures": failures[:5], "seconds": round(seconds, 2),
            "per_second": round(len(found) / seconds, 1) if seconds > 0 else None,
            "distinct": len({p.id for p in found}) == len(found)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.puzzles",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--game", help="one game (default: every shipped puzzle file)")
    parser.add_argument("--limit", type=int, help="the first N puzzles of each file")
    parser.add_argument("--json", action="store_true", help="print JSON lines")
    args = parser.parse_args(argv)
    games = [args.game] if args.game else puzzles.shipped_games()
    status = 0
    for game in games:
        result = check_game(game, args.limit)
        if result["failures"] or not result["distinct"]:
            status = 1
        if args.json:
            print(json.dumps(result), flush=True)
            continue
        print(f"{game:10s} {result['puzzles']:6d} puzzles  {result['failures']:4d} failures  "
              f"{result['seconds']:8.2f} s  {result['per_second']} a second"
              f"{'' if result['distinct'] else '  DUPLICATE IDS'}", flush=True)
        for line in result["first_failures"]:
            print(f"  {line}")
    return status


if __name__ == "__main__":
    sys.exit(main())
