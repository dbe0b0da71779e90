"""The strength ladder in every game, played through the arena (:mod:`brains.arena`).

Usage: python -m benchmarks.strength [--games N] [--jobs J] [--game G ...] [--seed S]
    [--json]

Rungs, each an ``A`` against ``B`` match with sides alternating and the arena's seeded
random openings (games 2k and 2k+1 share an opening with the sides swapped):

- ``greedy`` vs ``random``: goal A's score >= 0.7 in every game;
- ``alphabeta:medium`` vs ``greedy``: goal >= 0.75 in every game;
- ``alphabeta:hard`` vs ``alphabeta:medium`` and ``mcts:medium`` vs ``greedy``: shown,
  no goal;
- in tic-tac-toe, ``perfect`` against ``random``, ``greedy``, ``alphabeta:medium`` and
  ``mcts:medium``: goal no loss at all (its losses are counted).

Prints a table (score, W/D/L, Elo difference, seconds a game, the goal and whether it
is met) and, with ``--json``, one last JSON line with every rung. The exit status is 0
even when a goal is missed: the figures are the output.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Any

from engine.registry import GAMES


@dataclass(frozen=True)
class Rung:
    """One match of the ladder and its goal."""

    a: str
    b: str
    goal: str | None = None
    """``score>=X`` (A's score) or ``losses==0`` (A never loses), or None."""

    def met(self, summary: dict[str, Any]) -> bool | None:
        """Whether ``summary`` (an arena match summary) meets the goal; None without one."""
        if self.goal is None:
            return None
        if self.goal == "losses==0":
            return summary["b_wins"] == 0
        threshold = float(self.goal.partition(">=")[2])
        return summary["a_score"] >= threshold


LADDER: tuple[Rung, ...] = (
    Rung("greedy", "random", "score>=0.7"),
    Rung("alphabeta:medium", "greedy", "score>=0.75"),
    Rung("alphabeta:hard", "alphabeta:medium"),
    Rung("mcts:medium", "greedy"),
)
"""The rungs played in every game."""

PERFECT_RUNGS: tuple[Rung, ...] = tuple(
    Rung("perfect", other, "losses==0")
    for other in ("random", "greedy", "alphabeta:medium", "mcts:medium"))
"""The extra rungs of the games ``perfect`` plays by full search (tic-tac-toe)."""


def rungs(game: str) -> tuple[Rung, ...]:
    """The ladder for ``game``."""
    from brains.registry import PERFECT

    by_search = PERFECT.get(game, {}).get("method") == "search"
    return LADDER + (PERFECT_RUNGS if by_search else ())


def play_rung(game: str, rung: Rung, games: int, seed: int, jobs: int) -> dict[str, Any]:
    """Play one rung; the arena's match summary plus timing and the goal."""
    from brains.arena import match

    started = time.perf_counter()
    result = match(game, rung.a, rung.b, games, seed=seed, jobs=jobs)
    seconds = time.perf_counter() - started
    summary = result.summary()
    plies = sum(len(r.record.moves) for r in result.results)
    summary.update(goal=rung.goal, met=rung.met(summary), seconds=round(seconds, 2),
                   s_per_game=round(seconds / games, 3),
                   plies_per_game=round(plies / games, 1))
    return summary


def _row(s: dict[str, Any]) -> str:
    met = {None: "", True: "yes", False: "NO"}[s["met"]]
    elo = s["elo_diff"]
    elo_text = f"{elo:+.0f}" if abs(elo) < 1e6 else ("+inf" if elo > 0 else "-inf")
    return (f"{s['game']:<10} {s['a']:<17} {s['b']:<17} {s['a_score']:>5.3f} "
            f"{s['a_wins']:>3}/{s['draws']:>3}/{s['b_wins']:<3} {elo_text:>6} "
            f"{s['s_per_game']:>7.2f} {s['goal'] or '':<11} {met}")


HEADER = (f"{'game':<10} {'A':<17} {'B':<17} {'score':>5} {'W / D / L':>11} {'elo':>6} "
          f"{'s/game':>7} {'goal':<11} met")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.strength", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games per rung (default 20)")
    parser.add_argument("--jobs", type=int, default=1, help="games in parallel (default 1)")
    parser.add_argument("--game", action="append", choices=list(GAMES),
                        help="only this game (repeatable; default every game)")
    parser.add_argument("--rung", action="append", metavar="A/B",
                        help="only the rung A vs B, e.g. alphabeta:medium/greedy (repeatable)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true", help="end with one JSON line")
    args = parser.parse_args(argv)
    wanted = {tuple(r.split("/", 1)) for r in args.rung or ()}
    print(f"strength ladder: {args.games} games a rung, seed {args.seed}, jobs {args.jobs}",
          flush=True)
    print(HEADER, flush=True)
    rows = []
    for game in args.game or GAMES:
        for rung in rungs(game):
            if wanted and (rung.a, rung.b) not in wanted:
                continue
            summary = play_rung(game, rung, args.games, args.seed, args.jobs)
            rows.append(summary)
            print(_row(summary), flush=True)
    missed = [f"{s['game']} {s['a']} vs {s['b']}" for s in rows if s["met"] is False]
    print(f"goals: {sum(s['met'] is True for s in rows)} met, {len(missed)} missed"
          + (f" ({'; '.join(missed)})" if missed else ""), flush=True)
    if args.json:
        print(json.dumps({"games": args.games, "seed": args.seed, "rungs": rows}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
