"""Teaching levels: ``perfect,teacher=true`` against plain ``perfect`` at every rated level.

Usage: python -m benchmarks.teacher [--games N] [--game G ...] [--levels 1,2,...]
    [--against SPEC ...] [--seed S] [--plies P] [--jobs J] [--json]
       python -m benchmarks.teacher --move-cost
       python -m benchmarks.teacher --replies [--game G] [--levels N] [--games N] [--seed S]

For each game whose ``perfect`` brain plays through an exact solver, and each rung of its
rated ladder (``level:N``, :mod:`brains.ladder`) or brain named by ``--against``, two arena
matches (:func:`brains.arena.match`) of ``N`` games each: the teacher against the rung,
and the plain brain (a best move at random) against the rung, with the same seed, so game
``i`` of both has the same random opening, the same colours (alternating) and the same
seed for the rung. The table gives each one's score (points per game) and the difference
with its 95 % interval (the games paired by index: mean and 1.96 standard errors of the
per-game differences); ``--json`` adds one last JSON line with every cell, each game's
points included, so that runs with other seeds can be pooled game by game.

Each game starts after :data:`PLIES` random plies unless ``--plies`` says otherwise:
Connect Four from 12 stones, so that the solver settles every move in well under a
second (it searches the opening without a full book); Reversi (8x8) after 46 plies, with
14 empty squares (one more for each pass in the opening), so that the endgame solver
settles every move of ``perfect`` (``EXACT_EMPTIES``) and it never falls back. Figures
and the command used for them: docs/STRENGTH.md, "Teaching levels".
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from typing import Any

SPECS: dict[str, tuple[str, str]] = {
    "tictactoe": ("perfect,teacher=true", "perfect,teacher=false"),
    "morris": ("perfect,teacher=true", "perfect,teacher=false"),
    "connect4": ("perfect,method=connect4,teacher=true", "perfect,method=connect4,teacher=false"),
    "reversi": ("perfect,method=endgame,teacher=true", "perfect,method=endgame,teacher=false"),
}
"""Game -> (the teacher's spec, the plain spec)."""
PLIES: dict[str, int] = {"connect4": 12, "reversi": 46}
"""Random opening plies where not the game's default (brains.heuristics OPENING_PLIES)."""


def paired(a: list[float], b: list[float]) -> tuple[float, float, float]:
    """The mean of ``a[i] - b[i]`` and its 95 % interval (normal approximation)."""
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def cell(game: str, level: int | str, games: int, seed: int, plies: int | None,
         jobs: int) -> dict[str, Any]:
    """One game and rung (its number on the ladder, or any brain spec): both matches and
    the paired difference."""
    from brains.arena import match

    teacher, plain = SPECS[game]
    rung = f"level:{level}" if isinstance(level, int) else level
    start = time.perf_counter()
    results = [match(game, spec, rung, games, seed=seed, jobs=jobs, opening_plies=plies)
               for spec in (teacher, plain)]
    points = [[r.a_points for r in m.results] for m in results]
    diff, lo, hi = paired(points[0], points[1])
    return {"game": game, "level": level, "games": games, "teacher": teacher, "plain": plain,
            "teacher_score": round(results[0].a_score, 4),
            "plain_score": round(results[1].a_score, 4),
            "teacher_wdl": list(results[0].counts()), "plain_wdl": list(results[1].counts()),
            "diff": round(diff, 4), "ci95": [round(lo, 4), round(hi, 4)],
            "opening_plies": plies, "seed": seed,
            "seconds": round(time.perf_counter() - start, 1),
            "teacher_points": points[0], "plain_points": points[1]}


def move_cost(positions: int = 30, seed: int = 11) -> str:
    """CPU seconds of a Reversi teaching move against a plain one, over ``positions``
    positions after 46 random plies (14 empty squares), drawn as the arena's openings."""
    import random
    import statistics

    from brains import Budget, make_brain
    from brains.openings import random_opening
    from engine import new_game

    rng = random.Random(seed)
    cost: dict[str, list[float]] = {spec: [] for spec in SPECS["reversi"]}
    while len(cost[SPECS["reversi"][0]]) < positions:
        state, _ = random_opening(new_game("reversi"), PLIES["reversi"], rng)
        if state.is_terminal():
            continue
        for spec, times in cost.items():
            start = time.process_time()
            make_brain(spec, "reversi", seed=1).choose(state, Budget())
            times.append(time.process_time() - start)
    return "; ".join(f"{spec}: median {statistics.median(t):.2f}, 90th percentile "
                     f"{sorted(t)[int(0.9 * (len(t) - 1))]:.2f}, most {max(t):.2f} CPU s"
                     for spec, t in cost.items())


def reply_chances(game: str, level: int, games: int, seed: int, jobs: int) -> dict[str, Any]:
    """How often the rung could have gone wrong at once in the matches of :func:`cell`
    (the same games: the same seed): at every position of the teacher's and plain
    perfect's games where that side is to move and not winning, every move that keeps the
    exact outcome is played, and the rung (made afresh, without the game's earlier
    positions) chooses a reply wherever one of the replies loses the outcome. Counted per
    side: positions, such moves, those leaving a reply that loses it (by the distance of
    those replies' loss in plies), and those after which the rung's reply loses it."""
    from collections import Counter

    from brains import Budget, make_brain
    from brains.arena import match
    from brains.heuristics import exact_solver

    solver = exact_solver(game)
    assert solver is not None, f"{game} has no exact solver"
    rung = f"level:{level}"
    plies = PLIES.get(game)
    cache: dict[str, Any] = {}
    sides: dict[str, Any] = {}
    for name, spec in zip(("teacher", "plain"), SPECS[game], strict=True):
        result = match(game, spec, rung, games, seed=seed, jobs=jobs, opening_plies=plies)
        count = Counter(dict.fromkeys(("positions", "moves", "with a wrong reply",
                                       "rung went wrong"), 0))
        distances: Counter[int] = Counter()
        for played in result.results:
            ours = 0 if played.task.a_first else 1
            for state in played.record.states()[played.task.opening_plies:]:
                if state.is_terminal() or state.to_move != ours:
                    continue
                values = solver.values(state, Budget(), cache)
                assert values is not None
                best = max(v.outcome for v in values.values())
                if best > 0:
                    continue
                count["positions"] += 1
                for move, value in values.items():
                    child = state.play(move)
                    if value.outcome < best or child.is_terminal() \
                            or child.to_move == ours:
                        continue
                    count["moves"] += 1
                    replies = solver.values(child, Budget(), cache)
                    assert replies is not None
                    top = max(v.outcome for v in replies.values())
                    wrong = {r: v for r, v in replies.items() if v.outcome < top}
                    if not wrong:
                        continue
                    count["with a wrong reply"] += 1
                    distances.update(v.plies or 0 for v in wrong.values())
                    reply = make_brain(rung, game, seed=seed).choose(child, Budget())
                    count["rung went wrong"] += reply in wrong
        sides[name] = {**count, "wrong replies by plies to the loss": dict(sorted(
            distances.items())), "points": result.a_score}
    return {"game": game, "level": level, "games": games, "seed": seed, "sides": sides}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.teacher",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="games per match (400)")
    parser.add_argument("--game", action="append", choices=list(SPECS),
                        help="only this game (repeatable; default: all)")
    parser.add_argument("--levels", default="", help="rungs, e.g. 1,2,3 (default: all; "
                        "none with --against alone)")
    parser.add_argument("--against", action="append", default=[],
                        help="also this brain spec as a rung (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--plies", type=int, default=None,
                        help="random opening plies (default: per game, see PLIES)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--move-cost", action="store_true",
                        help="only the CPU seconds of a Reversi teaching move, 30 positions")
    parser.add_argument("--replies", action="store_true",
                        help="only how often the rung could go wrong at once in the games "
                             "of both sides (one game and level: default Morris, level 8)")
    args = parser.parse_args(argv)
    if args.move_cost:
        print(move_cost(), flush=True)
        return 0
    if args.replies:
        game = (args.game or ["morris"])[0]
        level = int(args.levels.split(",")[0]) if args.levels else 8
        print(json.dumps(reply_chances(game, level, args.games, args.seed, args.jobs)),
              flush=True)
        return 0
    from brains.ladder import ladder

    cells = []
    print(f"{'game':10} {'level':>5} {'games':>5} {'teacher':>8} {'plain':>8} "
          f"{'diff':>7}  95 % interval     s", flush=True)
    for game in args.game or list(SPECS):
        levels: list[int | str] = (
            [int(x) for x in args.levels.split(",")] if args.levels
            else [] if args.against else list(range(1, len(ladder(game)) + 1)))
        levels += args.against
        plies = args.plies if args.plies is not None else PLIES.get(game)
        for level in levels:
            row = cell(game, level, args.games, args.seed, plies, args.jobs)
            cells.append(row)
            print(f"{game:10} {level:>5} {row['games']:>5} {row['teacher_score']:>8.3f} "
                  f"{row['plain_score']:>8.3f} {row['diff']:>+7.3f}  "
                  f"[{row['ci95'][0]:+.3f}, {row['ci95'][1]:+.3f}] {row['seconds']:>6}",
                  flush=True)
    if args.json:
        print(json.dumps({"cells": cells}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
