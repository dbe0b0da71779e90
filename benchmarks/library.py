"""Large game files: how long indexing, validating and listing a 10,000-game file take.

Usage: python -m benchmarks.library [--games N] [--distinct D] [--seed S] [--file FILE ...]

Writes a WTHOR file of N games (default 10,000: D seeded random games, default 1,000,
over and over; ``--file`` measures real files instead, such as a year of the WTHOR
database), then prints for each file:

- index: finding every game and its header without replaying it (``load_chunks``), which
  is what Replay's and Saved games' lists need;
- validate: reading and replaying every game (``parlor validate``);
- list: from asking the app to open the file to the first line of its game list drawn
  (a headless Textual app at 100×30; every game is listed, then checked in the
  background), and the same for the Saved games screen listing a folder that holds the
  file.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from engine import new_game
from engine.formats import load_chunks, load_collection, write_games
from engine.record import GameRecord


def random_games(count: int, seed: int) -> list[GameRecord]:
    """``count`` random Reversi games played to the end."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        state = first = new_game("reversi")
        moves = []
        while state.outcome() is None:
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        out.append(GameRecord.from_moves(first, moves, Year="2026", FileDate="2026.11.26"))
    return out


def timed(fn: object, repeat: int = 3) -> float:
    """The median seconds of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


async def list_seconds(path: Path) -> tuple[float, float]:
    """Seconds until the app's game list of ``path`` draws its first line, and until
    Saved games, listing the folder holding it, does."""
    from textual.widgets import DataTable

    from tui.app.main import ParlorApp
    from tui.app.screens.browser import BrowserScreen
    from tui.app.screens.collection import GameList

    drawn: dict[str, float] = {}

    def timing(cls: type, name: str) -> None:
        original = cls.render_line  # type: ignore[attr-defined]

        def render_line(self: object, y: int) -> object:
            drawn.setdefault(name, time.perf_counter())
            return original(self, y)

        cls.render_line = render_line  # type: ignore[attr-defined]

    timing(GameList, "list")
    timing(DataTable, "browser")
    app = ParlorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        start = time.perf_counter()
        app.open_replay_file(path)
        while "list" not in drawn:
            await pilot.pause(0.01)
        listed = drawn["list"] - start
        app.screen.workers.cancel_all()
        app.pop_screen()
        await pilot.pause()
        drawn.pop("browser", None)
        start = time.perf_counter()
        app.push_screen(BrowserScreen([path.parent]))
        while "browser" not in drawn:
            await pilot.pause(0.01)
        browsed = drawn["browser"] - start
    return listed, browsed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.library")
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--file", nargs="*", type=Path, default=[])
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        files = list(args.file)
        if not files:
            start = time.perf_counter()
            games = random_games(min(args.games, args.distinct), args.seed)
            data = write_games([games[i % len(games)] for i in range(args.games)], "wtb")
            made = Path(tmp) / "games" / f"WTH_random_{args.games}.wtb"
            made.parent.mkdir()
            made.write_bytes(data if isinstance(data, bytes) else data.encode())
            print(f"wrote {args.games} games ({len(games)} distinct random ones, "
                  f"{len(data)} bytes) in "
                  f"{time.perf_counter() - start:.1f} s")
            files = [made]
        print(f"{'file':<28} {'games':>6} {'index s':>8} {'validate s':>11} "
              f"{'list s':>7} {'saved games s':>14}")
        for path in files:
            count = len(load_chunks(path))
            index = timed(lambda p=path: load_chunks(p))
            found = load_collection(path)
            validate = timed(lambda p=path: load_collection(p), repeat=1)
            listed, browsed = asyncio.run(list_seconds(path))
            print(f"{path.name[:28]:<28} {count:>6} {index:>8.3f} {validate:>11.2f} "
                  f"{listed:>7.2f} {browsed:>14.2f}"
                  + (f"  ({len(found.damaged)} damaged)" if found.damaged else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
