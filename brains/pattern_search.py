# ruff: noqa: E741  (P and O: the mover's and the opponent's discs, as in the kernels)
"""The driver of the compiled midgame search (:mod:`brains.kernels.reversi_mid`): the
``patterns`` brain's iterative deepening, clock and thoughts.

The kernel searches one depth at a time from the root in the order given (the previous
depth's best move first); it gives up every few thousand nodes (:meth:`MidgameSearch._chunk`,
about :data:`POLL_SECONDS` of search at the speed measured so far), when this driver reads
the clock and the stop signal and calls it again, the finished subtrees being found in
the transposition table. A depth left unfinished still counts when at least its first
root move (the previous best) was searched: the best move among those finished is
played. The table lives as long as the search object (one per brain), so what one move
learned serves the next.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from brains.protocol import Budget, Thought
from engine.games.reversi import PASS

POLL_SECONDS = 0.004
"""About how long the kernel runs between two reads of the clock."""
MAX_DEPTH = 60
_compiled: list[bool] = []


class MidgameSearch:
    """Iterative-deepening negascout on 8x8 bitboards with a pattern evaluation."""

    def __init__(self, tables: dict[str, Any]) -> None:
        from brains.kernels import reversi_mid as kernel

        self.k = kernel
        self.args = (tables["weights"], tables["numeric"], tables["bias"], tables["squares"],
                     tables["lengths"], tables["offsets"])
        self.table = kernel.new_table()
        self.buffers = kernel.buffers()
        self.stats = np.zeros(kernel.STATS, dtype=np.int64)
        self.speed = 1e6
        """Nodes a second, as last measured."""
        if not _compiled:
            from brains.kernels import preparing

            with preparing("the Reversi midgame search"):
                self._order(np.uint64(0x0000000810000000), np.uint64(0x0000001008000000),
                            random.Random(0))
                self.run(np.uint64(0x0000000810000000), np.uint64(0x0000001008000000), 1,
                         np.array([19, 26, 37, 44], dtype=np.int64), None, None)
            _compiled.append(True)

    def clear(self) -> None:
        """Forget every position searched."""
        self.table[2].fill(-1)

    def _order(self, P: Any, O: Any, rng: random.Random) -> np.ndarray:
        """The root moves, best-looking first (by the evaluation of the position each
        leads to; equal ones in an order drawn from ``rng``)."""
        k = self.k
        moves = int(k.legal(P, O))
        squares = [s for s in range(64) if moves >> s & 1]
        rng.shuffle(squares)
        if not squares:
            return np.zeros(0, dtype=np.int64)
        ps = np.empty(len(squares), dtype=np.uint64)
        os_ = np.empty(len(squares), dtype=np.uint64)
        for i, s in enumerate(squares):
            p2, o2 = k.play(P, O, s)
            ps[i], os_[i] = o2, p2  # the opponent to move
        values = k.evaluate_many(ps, os_, *self.args)
        ranked = sorted(range(len(squares)), key=lambda i: int(values[i]))
        return np.array([squares[i] for i in ranked], dtype=np.int64)

    def _chunk(self) -> int:
        return max(256, int(self.speed * POLL_SECONDS))

    def run(self, P: Any, O: Any, depth: int, order: np.ndarray, deadline: float | None,
            max_nodes: int | None, budget: Budget | None = None) -> int | None:
        """The root search at ``depth``: its score, or None when stopped (the deadline,
        the node limit or the budget's stop)."""
        k, stats = self.k, self.stats
        stats[k.ABORTED] = 0
        stats[k.ROOT_DONE] = 0
        stats[k.ROOT_BEST] = -1
        polled = deadline is not None or max_nodes is not None or budget is not None
        while True:
            chunk = self._chunk() if polled else 1 << 62
            if max_nodes is not None:
                chunk = min(chunk, max(1, max_nodes - int(stats[k.NODES])))
            stats[k.LIMIT] = stats[k.NODES] + chunk
            stats[k.ABORTED] = 0
            before, started = int(stats[k.NODES]), time.perf_counter()
            value = k.root(P, O, depth, order, len(order), *self.args, stats, *self.table,
                           *self.buffers)
            spent = time.perf_counter() - started
            done = int(stats[k.NODES]) - before
            if spent > 1e-4 and done > 256:
                self.speed = 0.5 * self.speed + 0.5 * done / spent
            if not stats[k.ABORTED]:
                return int(value)
            if ((budget is not None and budget.stop.is_set())
                    or (deadline is not None and time.monotonic() >= deadline)
                    or (max_nodes is not None and int(stats[k.NODES]) >= max_nodes)):
                return None

    def think(self, state: Any, seconds: float | None, depth: int | None, nodes: int | None,
              budget: Budget, rng: random.Random) -> Iterator[Thought]:
        """Deepen from 1 ply until ``depth``, ``seconds``, ``nodes`` or the budget's stop
        ends it, yielding a thought per finished (or usefully unfinished) depth."""
        k, stats = self.k, self.stats
        P, O = np.uint64(state.me), np.uint64(state.them)
        if not int(k.legal(P, O)):
            moves = state.legal_moves()
            if moves:
                yield Thought(moves[0], None, 0, 0, (moves[0],), final=True)
            return
        deadline = None if seconds is None else time.monotonic() + seconds
        order = self._order(P, O, rng)
        stats[k.NODES] = 0
        empties = 64 - (state.me | state.them).bit_count()
        top = min(depth or MAX_DEPTH, max(1, empties))
        for d in range(1, top + 1):
            if d > 1 and (budget.stop.is_set()
                          or (deadline is not None and time.monotonic() >= deadline)):
                return
            value = self.run(P, O, d, order, deadline, nodes, budget)
            done = int(stats[k.ROOT_DONE])
            if value is None:
                if done == 0 and d > 1:
                    return
                best, value, final = int(stats[k.ROOT_BEST]), int(stats[k.ROOT_SCORE]), True
                if best < 0:
                    best, value = int(order[0]), 0
                note = f"depth {d} stopped after {done} of {len(order)} moves"
            else:
                best, final, note = int(stats[k.ROOT_BEST]), d == top, ""
            i = int(np.nonzero(order == best)[0][0])
            order = np.concatenate([order[i:i + 1], order[:i], order[i + 1:]])
            score = max(-1.0, min(1.0, value / k.WIN))
            yield Thought(best, score, d, int(stats[k.NODES]), self.pv(P, O, best, d),
                          final=final, note=note)
            if final:
                return

    def values(self, state: Any, seconds: float | None, depth: int | None,
               budget: Budget) -> dict[int, float]:
        """Every legal placement's value (from the side to move's view, a win 1) at the
        deepest depth finished for all of them within ``seconds`` (and ``depth``)."""
        k = self.k
        P, O = np.uint64(state.me), np.uint64(state.them)
        moves = [s for s in range(64) if int(k.legal(P, O)) >> s & 1]
        deadline = None if seconds is None else time.monotonic() + seconds
        empties = 64 - (state.me | state.them).bit_count()
        out: dict[int, float] = {}
        for d in range(1, min(depth or MAX_DEPTH, max(1, empties)) + 1):
            found: dict[int, float] = {}
            for m in moves:
                value = self.run(P, O, d, np.array([m], dtype=np.int64), deadline, None,
                                 budget)
                if value is None:  # the previous depth, else what this one found
                    return out or {m: found.get(m, 0.0) for m in moves}
                found[m] = max(-1.0, min(1.0, value / k.WIN))
            out = found
            if deadline is None and depth is None and d >= 4:
                break
        return out

    def pv(self, P: Any, O: Any, move: int, depth: int) -> tuple[int, ...]:
        """The principal variation from the table (engine moves, passes included)."""
        k = self.k
        tk1, tk2, td, _, _, tmv = self.table
        line = [move]
        p2, o2 = k.play(P, O, move)
        P, O = np.uint64(o2), np.uint64(p2)
        size = td.shape[0]
        while len(line) < depth:
            if not int(k.legal(P, O)):
                if not int(k.legal(O, P)):
                    break
                line.append(PASS)
                P, O = O, P
                continue
            h = (int(P) * 0x9E3779B97F4A7C15 + (int(O) ^ (int(O) >> 31)) * 0xC2B2AE3D27D4EB4F
                 ) & ((1 << 64) - 1)
            slot = (h >> 40) & (size - 1)
            if td[slot] < 0 or int(tk1[slot]) != int(P) or int(tk2[slot]) != int(O):
                break
            m = int(tmv[slot])
            if m < 0 or not int(k.legal(P, O)) >> m & 1:
                break
            line.append(m)
            p2, o2 = k.play(P, O, m)
            P, O = np.uint64(o2), np.uint64(p2)
        return tuple(line)
