"""The opening explorer over a large collection: build time, index size, query times.

Usage: python -m benchmarks.explorer [--games N] [--game connect4|reversi] [--per-file F]
       [--queries Q] [--seed S] [--keep DIR]

Plays N seeded random games to the end (default 100,000 Connect Four games; the same seed
gives the same games), writes them as F games per file (Connect Four columns or Othello
transcripts: a file may hold at most the record cap of 2 MB), and in a private data
directory prints:

- build: seconds to index every file (``tui.player.explorer.open_index``: read, replay
  every game, write the SQLite index), wall-clock and this process's CPU time (the
  figure to compare on a shared machine), the games, (position, move) rows and the
  indexes' size on disk;
- check: seconds to open the kept indexes again (each file's size and time compared);
- query: median and 95th percentile of ``explorer.lookup`` over every index for Q
  positions drawn from the games (a random game, a random ply of its first 16), the start
  position among them, in milliseconds; and the same with the indexes opened (checked)
  before each query, as a fresh command does.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from engine import new_game
from engine.formats import write_games
from engine.protocol import State
from engine.record import GameRecord

FORMATS = {"connect4": ("c4", ".txt"), "reversi": ("transcript", ".txt")}
"""Game -> (format written, file suffix)."""
QUERY_PLIES = 16
"""Queries are positions among the first this many plies of a game."""


def random_games(game: str, count: int, seed: int) -> list[list[int]]:
    """``count`` random games of ``game`` played to the end, as engine moves."""
    rng = random.Random(seed)
    first = new_game(game)
    out = []
    for _ in range(count):
        state, moves = first, []
        while state.outcome() is None:
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        out.append(moves)
    return out


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0..1) of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * len(ordered)) - 1))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.explorer")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--game", choices=sorted(FORMATS), default="connect4")
    parser.add_argument("--per-file", type=int, default=25_000)
    parser.add_argument("--queries", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", type=Path, default=None,
                        help="write the files and indexes here instead of a temporary folder")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        os.environ["XDG_DATA_HOME"] = str(folder / "data")  # the indexes go here
        from tui.player import explorer

        started = time.perf_counter()
        games = random_games(args.game, args.games, args.seed)
        first = new_game(args.game)
        fmt, suffix = FORMATS[args.game]
        files = []
        for n, lo in enumerate(range(0, len(games), args.per_file), 1):
            records = [GameRecord.from_moves(first, moves, Date="2026.11.26")
                       for moves in games[lo:lo + args.per_file]]
            data = write_games(records, fmt)
            path = folder / f"random-{args.game}-{n}{suffix}"
            path.write_bytes(data if isinstance(data, bytes) else data.encode())
            files.append(path)
        size = sum(p.stat().st_size for p in files)
        print(f"wrote {len(games)} random {args.game} games in {len(files)} files "
              f"({size} bytes) in {time.perf_counter() - started:.1f} s")

        collections = [explorer.file_collection(p) for p in files]
        started, cpu = time.perf_counter(), time.process_time()
        indexes = [explorer.open_index(c) for c in collections]
        build = time.perf_counter() - started
        cpu = time.process_time() - cpu
        assert all(i.built for i in indexes)
        disk = sum(i.size for i in indexes)
        print(f"build: {build:.1f} s for {sum(i.games for i in indexes)} games "
              f"({build / max(1, len(games)) * 1e6:.0f} us a game; CPU {cpu:.1f} s, "
              f"{cpu / max(1, len(games)) * 1e6:.0f} us a game), "
              f"{sum(i.rows for i in indexes)} rows, index size {disk / 1e6:.1f} MB "
              f"({disk / max(1, len(games)):.0f} bytes a game)")

        started = time.perf_counter()
        kept = [explorer.open_index(c) for c in collections]
        print(f"check: {1000 * (time.perf_counter() - started):.2f} ms to open the "
              f"{len(kept)} kept indexes")
        assert not any(i.built for i in kept)

        rng = random.Random(args.seed + 1)
        queries: list[State] = [first]
        while len(queries) < args.queries:
            moves = games[rng.randrange(len(games))]
            state = first
            for move in moves[:rng.randrange(min(len(moves), QUERY_PLIES))]:
                state = state.play(move)
            queries.append(state)
        times, opened, found = [], [], 0
        for state in queries:
            t0 = time.perf_counter()
            rows = explorer.lookup(indexes, state)
            times.append(time.perf_counter() - t0)
            found += bool(rows)
            t0 = time.perf_counter()
            explorer.lookup([explorer.open_index(c) for c in collections], state)
            opened.append(time.perf_counter() - t0)
        start_rows = explorer.lookup(indexes, first)
        print(f"query: {len(queries)} positions ({found} with rows; the start position: "
              f"{sum(r.games for r in start_rows)} games): median "
              f"{1000 * statistics.median(times):.2f} ms, p95 "
              f"{1000 * percentile(times, 0.95):.2f} ms; with the indexes checked first: "
              f"median {1000 * statistics.median(opened):.2f} ms, p95 "
              f"{1000 * percentile(opened, 0.95):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
