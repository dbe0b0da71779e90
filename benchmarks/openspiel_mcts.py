"""The external anchor: a Parlor brain against OpenSpiel's MCTS bot (C++ ``pyspiel.MCTSBot``).

Usage: python -m benchmarks.openspiel_mcts [--games N] [--game connect4|reversi ...]
    [--spec SPEC] [--simulations N] [--uct-c C] [--seed S] [--jobs J] [--json]

The bot searches with random rollouts (one a leaf), ``--simulations`` simulations a move
(2,000 by default), exploration constant ``--uct-c`` (2), MCTS-Solver on as in
OpenSpiel's own MCTS example, and a seed derived from ``--seed`` and the game's index.
The two engines play in lock step: every move is passed on as notation (Connect Four
columns ``1``..``7`` are OpenSpiel's actions 0..6; Reversi squares ``f5`` and ``pass``
are OpenSpiel's action strings), each OpenSpiel move is checked to be legal in Parlor's
engine and each Parlor move in OpenSpiel's, and at the end both engines must agree on
the result. Sides alternate: the Parlor brain moves first in games 1, 3, 5, ...

Prints each game, then per game: the Parlor brain's score, W/D/L, and milliseconds per
move for each side; with ``--json`` one JSON line at the end. Needs ``pip install
open-spiel`` (the ``bench`` extra).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from typing import Any

OPENSPIEL_NAMES = {"connect4": "connect_four", "reversi": "othello"}
"""Parlor game id -> OpenSpiel game name."""


class MismatchError(RuntimeError):
    """The two engines disagree (a move legal in one and not the other, or the result)."""


def openspiel_text(game_id: str, os_state: Any, action: int) -> str:
    """OpenSpiel's ``action`` written in Parlor's notation."""
    if game_id == "connect4":
        return str(action + 1)
    return os_state.action_to_string(os_state.current_player(), action).lower()


def to_parlor(game_id: str, state: Any, os_state: Any, action: int) -> Any:
    """OpenSpiel's ``action`` as a legal Parlor move (MismatchError if it is not legal)."""
    text = openspiel_text(game_id, os_state, action)
    try:
        move = state.parse_move(text)
    except ValueError as exc:
        raise MismatchError(f"{game_id}: OpenSpiel's move {text!r} is not legal in Parlor: "
                            f"{exc}") from None
    if move not in state.legal_moves():
        raise MismatchError(f"{game_id}: OpenSpiel's move {text!r} is not legal in Parlor")
    return move


def to_openspiel(game_id: str, state: Any, os_state: Any, move: Any) -> int:
    """Parlor's ``move`` as OpenSpiel's action (MismatchError if OpenSpiel disallows it)."""
    text = state.format_move(move).lower()
    actions = {openspiel_text(game_id, os_state, a): a for a in os_state.legal_actions()}
    if text not in actions:
        raise MismatchError(f"{game_id}: Parlor's move {text!r} is not legal in OpenSpiel "
                            f"(legal: {' '.join(sorted(actions))})")
    return actions[text]


def play_one(game_id: str, spec: str, index: int, seed: int, simulations: int,
             uct_c: float) -> dict[str, Any]:
    """One game; the Parlor brain moves first when ``index`` is even."""
    import pyspiel

    from brains.arena import derive_seed
    from brains.registry import make_brain
    from engine.registry import get_game

    os_game = pyspiel.load_game(OPENSPIEL_NAMES[game_id])
    evaluator = pyspiel.RandomRolloutEvaluator(1, derive_seed(seed, "rollouts", index) % 2**31)
    bot = pyspiel.MCTSBot(os_game, evaluator, uct_c, simulations, 1000, True,
                          derive_seed(seed, "mcts", index) % 2**31, False)
    brain = make_brain(spec, game_id, seed=derive_seed(seed, "parlor", index))
    ours = 0 if index % 2 == 0 else 1
    state = get_game(game_id).initial()
    os_state = os_game.new_initial_state()
    times: dict[str, list[float]] = {"parlor": [], "mcts": []}
    moves: list[str] = []
    while not os_state.is_terminal():
        if not state.legal_moves():
            raise MismatchError(f"{game_id}: Parlor's game ended, OpenSpiel's did not "
                                f"({' '.join(moves)})")
        if state.to_move != os_state.current_player():
            raise MismatchError(f"{game_id}: the engines disagree on the side to move")
        started = time.perf_counter()
        if state.to_move == ours:
            move = brain.choose(state)
            times["parlor"].append(time.perf_counter() - started)
            action = to_openspiel(game_id, state, os_state, move)
        else:
            action = bot.step(os_state)
            times["mcts"].append(time.perf_counter() - started)
            move = to_parlor(game_id, state, os_state, action)
        moves.append(state.format_move(move))
        state = state.play(move)
        os_state.apply_action(action)
    if state.legal_moves():
        raise MismatchError(f"{game_id}: OpenSpiel's game ended, Parlor's did not")
    returns = os_state.returns()
    outcome = state.outcome()
    ours_value = outcome.value_for(ours) if outcome is not None else 0
    if (returns[ours] > 0) - (returns[ours] < 0) != ours_value:
        raise MismatchError(f"{game_id}: the engines disagree on the result ({returns})")
    return {"game": game_id, "index": index, "parlor_first": ours == 0,
            "points": {1: 1.0, 0: 0.5, -1: 0.0}[ours_value], "moves": " ".join(moves),
            "parlor_s": times["parlor"], "mcts_s": times["mcts"]}


def summarize(game_id: str, spec: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Score, W/D/L and ms a move (median and max) for each side."""
    points = [r["points"] for r in rows]
    ours = [t for r in rows for t in r["parlor_s"]]
    theirs = [t for r in rows for t in r["mcts_s"]]

    def ms(values: list[float]) -> dict[str, float]:
        if not values:
            return {"median": 0.0, "mean": 0.0, "max": 0.0}
        return {"median": round(1000 * statistics.median(values), 1),
                "mean": round(1000 * statistics.fmean(values), 1),
                "max": round(1000 * max(values), 1)}

    return {"game": game_id, "a": spec, "b": "openspiel-mcts", "games": len(rows),
            "a_wins": points.count(1.0), "draws": points.count(0.5),
            "b_wins": points.count(0.0),
            "a_score": round(sum(points) / len(points), 4) if points else 0.5,
            "a_ms": ms(ours), "b_ms": ms(theirs),
            "a_score_first": _score([r for r in rows if r["parlor_first"]]),
            "a_score_second": _score([r for r in rows if not r["parlor_first"]])}


def _score(rows: list[dict[str, Any]]) -> float | None:
    return round(sum(r["points"] for r in rows) / len(rows), 4) if rows else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.openspiel_mcts",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10, help="games per game (default 10)")
    parser.add_argument("--game", action="append", choices=sorted(OPENSPIEL_NAMES))
    parser.add_argument("--spec", default="alphabeta:hard", help="the Parlor brain")
    parser.add_argument("--simulations", type=int, default=2000)
    parser.add_argument("--uct-c", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="games in parallel (default 1)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        import pyspiel  # noqa: F401
    except ImportError:  # the peer is the optional bench extra; the message says so
        print("OpenSpiel is not installed (pip install open-spiel); skipping", file=sys.stderr)
        return 0
    print(f"{args.spec} vs OpenSpiel MCTSBot (random rollouts, {args.simulations} "
          f"simulations, uct_c={args.uct_c}, solver on), {args.games} games each, "
          f"seed {args.seed}", flush=True)
    summaries = []
    for game_id in args.game or list(OPENSPIEL_NAMES):
        calls = [(game_id, args.spec, i, args.seed, args.simulations, args.uct_c)
                 for i in range(args.games)]
        if args.jobs > 1:
            from joblib import Parallel, delayed

            rows = Parallel(n_jobs=args.jobs)(delayed(play_one)(*c) for c in calls)
        else:
            rows = [play_one(*c) for c in calls]
        for r in rows:
            side = "first " if r["parlor_first"] else "second"
            print(f"  {game_id} game {r['index'] + 1:>2}: Parlor {side} "
                  f"{r['points']:>3}  {r['moves']}", flush=True)
        s = summarize(game_id, args.spec, rows)
        summaries.append(s)
        print(f"{game_id}: score {s['a_score']:.3f} (W/D/L {s['a_wins']}/{s['draws']}/"
              f"{s['b_wins']}; first {s['a_score_first']}, second {s['a_score_second']}); "
              f"ms a move: Parlor median {s['a_ms']['median']} max {s['a_ms']['max']}, "
              f"MCTS median {s['b_ms']['median']} max {s['b_ms']['max']}; goal >= 0.9 "
              f"{'met' if s['a_score'] >= 0.9 else 'MISSED'}", flush=True)
    if args.json:
        print(json.dumps({"simulations": args.simulations, "uct_c": args.uct_c,
                          "seed": args.seed, "results": summaries}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
