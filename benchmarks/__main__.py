"""Run every benchmark in turn (``make bench``)."""

from __future__ import annotations

import importlib
import sys

MODULES = ["benchmarks.perft", "benchmarks.deep_perft", "benchmarks.c4solver",
           "benchmarks.strength", "benchmarks.openspiel_mcts", "benchmarks.learned",
           "benchmarks.tournaments", "benchmarks.reversi_endgame", "benchmarks.reversi_ffo",
           "benchmarks.budgets", "benchmarks.puzzles", "benchmarks.explorer",
           "benchmarks.library", "benchmarks.teacher", "benchmarks.pattern_search",
           "benchmarks.egaroucid", "benchmarks.ponder"]
"""Benchmark modules, each with ``main(argv)``, run in this order."""
ARGV: dict[str, list[list[str]]] = {
    "benchmarks.strength": [["--games", "10", "--jobs", "2"]],
    "benchmarks.openspiel_mcts": [["--games", "4"]],
    "benchmarks.tournaments": [["--games", "2", "--out", "build/tournaments"]],
    "benchmarks.reversi_endgame": [
        ["--games", "8", "--empties", "14-26", "--cap", "12"],
        # the reach in wall-clock seconds on the solver's two threads (issue 25's figure)
        ["--games", "6", "--empties", "16-24", "--cap", "5", "--threads", "2", "--wall"]],
    "benchmarks.teacher": [["--games", "20", "--levels", "1,4,7"]],
    "benchmarks.egaroucid": [["--games", "8"]],
    "benchmarks.ponder": [["--games", "4"]],
}
"""Arguments for modules whose defaults take too long for ``make bench``, one list a run
(the figures in docs/STRENGTH-NOTEBOOK.md come from longer runs, with the commands given
there)."""


def main() -> int:
    status = 0
    for name in MODULES:
        module = importlib.import_module(name)
        for argv in ARGV.get(name, [[]]):
            print(f"\n== {' '.join([name, *argv])} ==", flush=True)
            status |= module.main(list(argv)) or 0
    return status


if __name__ == "__main__":
    sys.exit(main())
