"""Perfect Morris play from the solved database against a brain: it must never lose.

Usage: python -m benchmarks.morris_db [--games N] [--rival SPEC] [--seed S] [--jobs J]
    [--db PATH] [--json]
Plays N games (default 40) of Five Men's Morris between the database's perfect player
and ``--rival`` (default ``alphabeta:hard``, at its own time control), the database
playing White in the even-numbered games and Black in the odd ones, from the empty
board. Prints one line per game and the totals; the exit status is 1 if the database
lost any game or ever let the rival reach a won position.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, cast

from brains.arena import derive_seed
from brains.morrisdb import open_db, perfect_move
from brains.registry import make_brain
from engine import new_game
from engine.games.morris import MorrisState


def play(number: int, rival_spec: str, seed: int, db_path: str | None) -> dict[str, Any]:
    """Game ``number``: the database's side, the result, its length and how it ended."""
    db = open_db(db_path)
    db_side = number % 2
    rival = make_brain(rival_spec, "morris", seed=derive_seed(seed, number, "rival"))
    rng = random.Random(derive_seed(seed, number, "db"))
    state = cast(MorrisState, new_game("morris"))
    gave_up = 0  # positions where the rival, to move, was winning
    started = time.perf_counter()
    while state.legal_moves():
        move = perfect_move(state, rng, db) if state.to_move == db_side else rival.choose(state)
        state = state.play(move)
        gave_up += state.to_move != db_side and db.value(state).result == "win"
    outcome = state.outcome()
    assert outcome is not None
    winner = outcome.winner
    return {"game": number + 1, "db_plays": ("White", "Black")[db_side],
            "result": "draw" if winner is None else "win" if winner == db_side else "loss",
            "ending": outcome.termination, "plies": state.ply, "rival_winning": gave_up,
            "seconds": round(time.perf_counter() - started, 1)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.morris_db",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--rival", default="alphabeta:hard")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--db", type=Path, default=None, help="database file (default: shipped)")
    parser.add_argument("--json", action="store_true", help="print the totals as JSON")
    args = parser.parse_args(argv)
    db_path = str(args.db) if args.db else None
    open_db(db_path)  # a missing or damaged file stops here, with its one line
    started = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(play, n, args.rival, args.seed, db_path)
                   for n in range(args.games)]
        games = []
        for future in futures:
            game = future.result()
            games.append(game)
            if not args.json:
                print(f"game {game['game']:3d}: database {game['db_plays']:5s} "
                      f"{game['result']:4s} ({game['ending']}, {game['plies']} plies, "
                      f"{game['seconds']} s)", flush=True)
    totals = {r: sum(g["result"] == r for g in games) for r in ("win", "draw", "loss")}
    summary = {"rival": args.rival, "games": args.games, "seed": args.seed, **totals,
               "rival_ever_winning": sum(g["rival_winning"] for g in games),
               "seconds": round(time.perf_counter() - started, 1)}
    if args.json:
        print(json.dumps({"summary": summary, "games": games}, indent=2))
    else:
        print(f"database vs {args.rival}: {totals['win']} wins, {totals['draw']} draws, "
              f"{totals['loss']} losses in {args.games} games; the rival was never winning: "
              f"{summary['rival_ever_winning'] == 0} ({summary['seconds']} s)")
    return 1 if totals["loss"] or summary["rival_ever_winning"] else 0


if __name__ == "__main__":
    sys.exit(main())
