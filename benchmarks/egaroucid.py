"""Othello against Egaroucid: a Parlor brain plays Egaroucid at fixed levels, over GTP.

Usage: python -m benchmarks.egaroucid [--engine DIR] [--levels 4,8] [--spec SPEC]
    [--games N] [--opening K] [--seed S] [--json]

Egaroucid (Takuto Yamana's Othello engine, GPL) is played through its web build: the
compiled engine ``ai.js`` + ``ai.wasm`` (evaluation and book inside), found in its public
repository under ``docs/en/web/``. Copy those two files into ``--engine DIR`` (default
``build/egaroucid``); ``node`` runs them behind Parlor's own GTP front,
``benchmarks/egaroucid_gtp.js``. The benchmark writes an ``engines.toml`` with one engine
``egaroucid-L`` a level into a temporary config folder and plays ``parlor match``'s
games: ``SPEC`` against ``external:egaroucid-L``, sides alternating, ``--opening`` random
plies first (Egaroucid plays its book otherwise, and every game would be the same).

Egaroucid's level is its search depth (with its own endgame depth and selectivity); its
moves do not depend on the clock, and Parlor's are bounded by depth where ``SPEC`` says so.
Prints a table (level, games, W/D/L, score with its 95 % interval, Parlor's CPU seconds a
move: median, max, and how many moves took over 3 s) and with ``--json`` one JSON line.
Without node or the files it says what is missing and exits 0 (nothing measured).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FRONT = HERE / "egaroucid_gtp.js"
DEFAULT_DIR = Path("build") / "egaroucid"
TIMEOUT = 120.0
"""Seconds Egaroucid may take for one move before the game is called off."""


class TimedBrains:
    """A brain factory that records the CPU seconds of each of the Parlor brain's moves."""

    def __init__(self, spec: str) -> None:
        self.spec = spec
        self.seconds: list[float] = []

    def __call__(self, spec: str, game: str, seed: int | None = None) -> Any:
        from brains.registry import make_brain

        brain = make_brain(spec, game, seed=seed)
        if spec == self.spec:
            choose = brain.choose

            def timed(state: Any, budget: Any = None) -> Any:
                started = time.thread_time()
                move = choose(state, budget)
                self.seconds.append(time.thread_time() - started)
                return move

            brain.choose = timed  # type: ignore[method-assign]
        return brain


def interval(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """The 95 % Wilson interval of the score (a draw counted as half a win), as
    :func:`brains.ratings.wilson_interval` gives it; (0, 1) for no games."""
    from brains.ratings import wilson_interval

    return wilson_interval(wins + draws / 2, wins + draws + losses)


def warm_up(spec: str) -> None:
    """Play the brain once in the opening and once near the end, so that compiling (or
    loading) its kernels is not counted in its first move's time."""
    import random

    from brains.registry import make_brain
    from engine.registry import get_game

    brain = make_brain(spec, "reversi", seed=0)
    state: Any = get_game("reversi").initial()
    rng = random.Random(0)
    brain.choose(state)
    while (legal := state.legal_moves()) and 64 - (state.black | state.white).bit_count() > 12:
        state = state.play(rng.choice(legal))
    if state.legal_moves():
        brain.choose(state)


def write_config(folder: Path, engine_dir: Path, levels: list[int]) -> None:
    """engines.toml with ``egaroucid-L`` for each level, under ``folder``/parlor."""
    node = shutil.which("node") or "node"
    lines = []
    for level in levels:
        command = json.dumps([node, str(FRONT), str(engine_dir.resolve()), str(level)])
        lines += [f"[engines.egaroucid-{level}]", f"command = {command}",
                  'protocol = "gtp"', 'game = "reversi"', f"timeout = {TIMEOUT}", ""]
    (folder / "parlor").mkdir(parents=True, exist_ok=True)
    (folder / "parlor" / "engines.toml").write_text("\n".join(lines), encoding="utf-8")


def run(spec: str, levels: list[int], games: int, opening: int, seed: int,
        engine_dir: Path) -> list[dict[str, Any]]:
    """One match a level; a row of figures each."""
    from brains.arena import match

    warm_up(spec)
    rows = []
    with tempfile.TemporaryDirectory(prefix="parlor-egaroucid-") as folder:
        write_config(Path(folder), engine_dir, levels)
        previous = os.environ.get("XDG_CONFIG_HOME")
        os.environ["XDG_CONFIG_HOME"] = folder
        try:
            for level in levels:
                timed = TimedBrains(spec)

                def progress(done: int, total: int, _result: Any, level: int = level) -> None:
                    print(f"  level {level}: {done}/{total} games", file=sys.stderr, flush=True)

                result = match("reversi", spec, f"external:egaroucid-{level}", games,
                               seed=seed, opening_plies=opening, progress=progress,
                               brain_factory=timed)
                wins, draws, losses = result.counts()
                lo, hi = interval(wins, draws, losses)
                rows.append({
                    "level": level, "spec": spec, "games": result.games, "wins": wins,
                    "draws": draws, "losses": losses, "score": round(result.a_score, 4),
                    "ci95": [round(lo, 3), round(hi, 3)], "opening_plies": opening,
                    "seed": seed,
                    "cpu_s_median": round(statistics.median(timed.seconds), 3),
                    "cpu_s_max": round(max(timed.seconds), 3), "moves": len(timed.seconds),
                    "moves_over_3s": sum(t > 3.0 for t in timed.seconds)})
        finally:
            if previous is None:
                os.environ.pop("XDG_CONFIG_HOME", None)
            else:
                os.environ["XDG_CONFIG_HOME"] = previous
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a table people read."""
    out = ["level  games  W/D/L     score  95 % interval  CPU s a move: median  max  "
           "moves over 3 s"]
    for r in rows:
        wdl = f"{r['wins']}/{r['draws']}/{r['losses']}"
        out.append(f"{r['level']:>5}  {r['games']:>5}  {wdl:<8}  {r['score']:5.2f}  "
                   f"{r['ci95'][0]:.2f} - {r['ci95'][1]:.2f}  {r['cpu_s_median']:20.2f}  "
                   f"{r['cpu_s_max']:.2f}  {r['moves_over_3s']} of {r['moves']}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.egaroucid", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", type=Path, default=DEFAULT_DIR, metavar="DIR",
                        help="folder with Egaroucid for Web's ai.js and ai.wasm")
    parser.add_argument("--levels", default="4,8", help="Egaroucid levels, comma-separated")
    parser.add_argument("--spec", default="level:hard", help="the Parlor brain")
    parser.add_argument("--games", type=int, default=16, help="games a level (default 16)")
    parser.add_argument("--opening", type=int, default=4,
                        help="random plies before the brains play (default 4)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="end with one line of JSON")
    args = parser.parse_args(argv)
    try:
        levels = [int(x) for x in args.levels.split(",")]
    except ValueError:
        parser.error(f"--levels: {args.levels[:40]!r} is not a list of numbers")
    if not all(1 <= level <= 60 for level in levels) or not 1 <= args.games <= 10_000:
        parser.error("levels are 1..60 and games 1..10000")
    missing = [name for name in ("ai.js", "ai.wasm") if not (args.engine / name).is_file()]
    if shutil.which("node") is None or missing:
        what = "node is not installed" if shutil.which("node") is None else (
            f"{' and '.join(missing)} not in {args.engine}")
        print(f"Egaroucid not measured: {what} (copy docs/en/web/ai.js and ai.wasm from "
              "Egaroucid's repository there)")
        return 0
    started = time.process_time()
    rows = run(args.spec, levels, args.games, args.opening, args.seed, args.engine)
    print(f"{args.spec} against Egaroucid for Web, {args.games} games a level, "
          f"{args.opening} random opening plies, seed {args.seed}")
    print(table(rows))
    print(f"({time.process_time() - started:.0f} CPU s in Parlor's process)")
    if args.json:
        print(json.dumps({"benchmark": "egaroucid", "rows": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
