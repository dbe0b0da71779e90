"""What the exactly labelled self-play positions add to the Reversi pattern evaluation.

Usage: python -m benchmarks.pattern_selfplay --data DIR [--wthor-games N] [--games G]
    [--test-games T] [--phases 8,9] [--json]

Reads the WTHOR games in DIR (``*.wtb``) as ``parlor train reversi patterns`` does (the
exact labels of their late positions included), holds out the last 5 % of their
positions, and fits the given phases twice: on the WTHOR positions alone, and with the
positions of ``G`` self-play games labelled by the exact solver
(:mod:`brains.learned.pattern_selfplay`; the shipped evaluation plays them). Each fit is
scored by its root mean squared error, in discs, on ``T`` other self-play games'
positions (seed 99, exactly labelled: the true values) and on the held-out WTHOR
positions (labelled by their games' results). Without DIR's files it says so and
measures nothing. Figures: docs/LEARNING.md, "Reversi: a pattern evaluation".
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import time
from typing import Any

HELD_OUT = 0.05
"""The share of the WTHOR positions (the last games) held out of the fits."""


def rmse(tables: dict[str, Any], me: Any, them: Any, label: Any) -> float:
    import numpy as np

    from brains.learned import pattern_features as F

    predicted = F.evaluate_many(tables, me, them) / F.UNIT
    return float(np.sqrt(np.mean((predicted - label) ** 2)))


def measure(data: str, wthor_games: int, games: int, test_games: int,
            phases: tuple[int, ...]) -> dict[str, Any]:
    import numpy as np

    from brains.learned import pattern_features as F
    from brains.learned import pattern_selfplay as sp
    from brains.reversi_endgame import solve

    started = time.process_time()
    me, them, label, used = F.positions(data, wthor_games)
    exact = F.exact_labels(me, them, label, solve, seed=0)
    tables, _ = F.load_tables()
    sp_me, sp_them = sp.play(tables, games, seed=0)
    sp_label = sp.label(sp_me, sp_them, solve)
    test_me, test_them = sp.play(tables, test_games, seed=99)
    test_label = sp.label(test_me, test_them, solve)
    cut = int(len(me) * (1 - HELD_OUT))
    test_phase = F.phase_of(F.popcount(test_me | test_them))
    held_phase = F.phase_of(F.popcount(me[cut:] | them[cut:]))
    out: dict[str, Any] = {"wthor_games": used, "selfplay_positions": len(sp_me),
                           "test_positions": len(test_me), "fits": {}}
    for name, extra in (("wthor", False), ("wthor+selfplay", True)):
        m, o, lab, x = me[:cut], them[:cut], label[:cut], exact[:cut]
        if extra:
            m, o = np.concatenate([m, sp_me]), np.concatenate([o, sp_them])
            lab = np.concatenate([lab, sp_label])
            x = np.concatenate([x, np.ones(len(sp_me), dtype=bool)])
        model, _ = F.fit(m, o, lab, seed=0, exact=x, phases=phases)
        fitted = F.playable(model)
        rows = {}
        for p in phases:
            t, h = test_phase == p, held_phase == p
            rows[str(p)] = {
                "selfplay_rmse": round(rmse(fitted, test_me[t], test_them[t], test_label[t]), 2),
                "selfplay_n": int(t.sum()),
                "wthor_rmse": round(rmse(fitted, me[cut:][h], them[cut:][h],
                                         label[cut:][h]), 2),
                "wthor_n": int(h.sum())}
        out["fits"][name] = rows
    out["cpu_seconds"] = round(time.process_time() - started, 1)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.pattern_selfplay",
                                     description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", metavar="DIR", help="a folder of WTHOR *.wtb files")
    parser.add_argument("--wthor-games", type=int, default=130_000)
    parser.add_argument("--games", type=int, default=4000, help="self-play games to fit on")
    parser.add_argument("--test-games", type=int, default=600)
    parser.add_argument("--phases", default="8,9", help="the phases to fit (default 8,9)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not args.data or not glob.glob(os.path.join(args.data, "*.wtb")):
        print("pattern_selfplay: no WTHOR *.wtb files (--data DIR); nothing measured")
        return 0
    phases = tuple(int(p) for p in args.phases.split(","))
    result = measure(args.data, args.wthor_games, args.games, args.test_games, phases)
    print(f"{result['wthor_games']} WTHOR games, {result['selfplay_positions']} self-play "
          f"positions fitted, {result['test_positions']} to test; RMSE in discs:")
    print(f"{'fit':<16} {'phase':>5} {'self-play':>10} {'WTHOR':>8}")
    for name, rows in result["fits"].items():
        for p, row in rows.items():
            print(f"{name:<16} {p:>5} {row['selfplay_rmse']:>10.2f} {row['wthor_rmse']:>8.2f}")
    print(f"{result['cpu_seconds']} CPU s")
    if args.json:
        print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
