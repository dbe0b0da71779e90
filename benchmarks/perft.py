"""Perft speed: whole-process wall time of ``parlor perft`` against OpenSpiel, same run.

Usage: python -m benchmarks.perft [--repeat N] [--games g1,g2] [--json]
For each registered game it times ``parlor perft GAME DEPTH`` (median of N runs) at the
deepest depth whose leaf count, by the game's perft data (the first entry of
tests/data/perft/GAME.perft, its start position), stays within ``LEAF_BUDGET``; prints nodes per
second, and, when ``pyspiel`` is importable, times the same walk over OpenSpiel's C++
game driven from Python and prints the ratio (ours / theirs; below 1 is faster).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

LEAF_BUDGET = 1_000_000
"""The deepest depth timed is the last whose leaf count stays within this."""
OPENSPIEL: dict[str, str] = {
    "tictactoe": "tic_tac_toe",
    "connect4": "connect_four",
    "reversi": "othello",
    "checkers": "checkers",
}
"""OpenSpiel's name for the games it also implements (the peer timed beside ours)."""
PERFT_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft"


def cases() -> list[tuple[str, int, str | None]]:
    """(game, depth, OpenSpiel game or None) for every registered game."""
    from engine.perftdata import read_perft_file
    from engine.registry import GAMES

    out = []
    for game in GAMES:
        start = read_perft_file(PERFT_DATA / f"{game}.perft")[0]
        depth = max(d for d, n in start.counts.items() if n <= LEAF_BUDGET)
        out.append((game, depth, OPENSPIEL.get(game)))
    return out


def _wall(cmd: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - start, out


def _median_wall(cmd: list[str], repeat: int) -> tuple[float, str]:
    runs = [_wall(cmd) for _ in range(repeat)]
    return statistics.median(t for t, _ in runs), runs[-1][1]


def have_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:  # the optional bench extra; the output then says "no OpenSpiel peer"
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.perft", description=__doc__)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--games", help="comma-separated game ids (default: every game)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    wanted = args.games.split(",") if args.games else None
    peer = have_openspiel()
    rows = []
    for game, depth, spiel in cases():
        if wanted is not None and game not in wanted:
            continue
        ours, out = _median_wall([sys.executable, "-m", "tui.cli", "perft", game, str(depth)],
                                 args.repeat)
        nodes = sum(int(line.split()[1]) for line in out.splitlines())
        row = {"game": game, "depth": depth, "nodes": nodes, "seconds": round(ours, 3),
               "nodes_per_s": round(nodes / ours), "openspiel_s": None, "ratio": None}
        if peer and spiel:
            theirs, _ = _median_wall([sys.executable, "-m", "benchmarks.openspiel_perft",
                                      spiel, str(depth)], args.repeat)
            row["openspiel_s"] = round(theirs, 3)
            row["ratio"] = round(ours / theirs, 2)
        rows.append(row)
        if not args.json:
            peer_text = (f"{row['openspiel_s']:>8.3f} s  ratio {row['ratio']:.2f}x"
                         if row["ratio"] is not None else "   (no OpenSpiel peer)")
            print(f"{game:<10} d={depth}  {nodes:>9} nodes  {ours:7.3f} s  "
                  f"{row['nodes_per_s']:>9} nodes/s  OpenSpiel {peer_text}", flush=True)
    if args.json:
        print(json.dumps(rows))
    elif not peer:
        print("(install the bench extra, `pip install -e .[bench]`, to time OpenSpiel beside us)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
