"""Retrograde analysis of Five Men's Morris: every position's value and distance to the end.

Values are held as int16 *scores* for the side to move while solving: ``WIN - d`` for a
win in ``d`` plies, ``-(WIN - d)`` for a loss in ``d`` plies, 0 for a draw. A child's
score ``s`` is worth ``shift(s)`` to its parent (a loss in d is a win in d + 1 and the
other way round), and a position is worth the best of its children, so that the
winner takes the fastest win and the loser the slowest loss.

The classes (see :mod:`brains.morrisdb.index`) are solved in an order where every move
leads to a class solved before, except moves without a removal in the moving phase,
which lead from (a, b) pieces to (b, a) and back: those pairs are solved together by
retrograde analysis over their move graph, distance by distance:

- a position is a *win in d* (d odd) if a move leads to a loss in d - 1;
- a *loss in d* (d even) once every move leads to a known win, the slowest in d - 1;
- moves that leave the pair (removals) have values known beforehand and enter as a
  fixed best; whatever is not decided when nothing changes any more is a draw.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from brains.morrisdb.index import Class, Layout, moves

WIN = 16000
"""Score of a win in 0 plies; every distance stays far below it."""
LOST = -WIN
"""The score of a position whose side to move has lost (no move, or under three pieces)."""

Progress = Callable[[int, int, str], Any]
"""``progress(done, total, what)``: positions solved so far, of ``total``."""


def shift(score: np.ndarray) -> np.ndarray:
    """Children's scores seen from the parent: a loss in d becomes a win in d + 1."""
    score = score.astype(np.int32)
    return np.where(score > 0, 1 - score, np.where(score < 0, -1 - score, 0)).astype(np.int16)


def child_scores(lay: Layout, scores: np.ndarray, mv: Any) -> np.ndarray:
    """The scores (child's view) of the positions a batch of moves leads to."""
    if mv.child is None:
        return np.full(len(mv.rows), LOST, dtype=np.int16)
    result: np.ndarray = scores[lay.index(mv.child, mv.own, mv.opp)]
    return result


def best_of_children(lay: Layout, scores: np.ndarray, cls: Class, local: np.ndarray,
                     internal: list[Class] | None = None,
                     edges: list[tuple[np.ndarray, np.ndarray]] | None = None) -> np.ndarray:
    """The best shifted child score of the positions ``local`` of ``cls``.

    With ``internal``, moves into those classes are not scored but listed in
    ``edges`` as (row, global index of the child) pairs; the best covers the others.
    """
    own, opp = lay.boards(cls, local)
    best = np.full(len(local), LOST, dtype=np.int16)
    inside = {c.key for c in internal or ()}
    for mv in moves(lay, cls, own, opp):
        if mv.child is not None and mv.child.key in inside:
            assert edges is not None
            edges.append((mv.rows.astype(np.int32),
                          lay.index(mv.child, mv.own, mv.opp).astype(np.int64)))
            continue
        cand = shift(child_scores(lay, scores, mv))
        best[mv.rows] = np.maximum(best[mv.rows], cand)
    return best


CHUNK = 1 << 20
"""Positions handled in one batch of an acyclic class (bounds the memory used)."""


def solve(lay: Layout, progress: Progress | None = None) -> tuple[np.ndarray, dict[str, Any]]:
    """The score of every position of ``lay`` and a few figures about the solve."""
    scores = np.zeros(lay.size, dtype=np.int16)
    done = 0
    longest_group = 0
    for group in lay.groups():
        if group[0].ho or group[0].hp:
            for cls in group:
                for start in range(0, cls.size, CHUNK):
                    local = np.arange(start, min(cls.size, start + CHUNK))
                    scores[cls.offset + local] = best_of_children(lay, scores, cls, local)
                    done += len(local)
                    if progress:
                        progress(done, lay.size, f"placing, hands {cls.ho}/{cls.hp}")
        else:
            steps = _solve_cycle(lay, scores, group)
            longest_group = max(longest_group, steps)
            done += sum(c.size for c in group)
            if progress:
                what = " + ".join(f"{c.a}v{c.b}" for c in group)
                progress(done, lay.size, f"moving, {what} pieces")
    return scores, {"retrograde_steps": longest_group}


def _solve_cycle(lay: Layout, scores: np.ndarray, group: list[Class]) -> int:
    """Solve the moving-phase classes of ``group`` (laid out one after the other) in
    place; returns the number of distance steps taken."""
    lo = group[0].offset
    n = sum(c.size for c in group)
    assert all(c.offset == lo + sum(g.size for g in group[:i]) for i, c in enumerate(group))
    ext = np.empty(n, dtype=np.int16)
    parents: list[np.ndarray] = []
    children: list[np.ndarray] = []
    for cls in group:
        edges: list[tuple[np.ndarray, np.ndarray]] = []
        base = cls.offset - lo
        ext[base:base + cls.size] = best_of_children(
            lay, scores, cls, np.arange(cls.size), internal=group, edges=edges)
        parents += [rows + base for rows, _ in edges]
        children += [(kids - lo).astype(np.int32) for _, kids in edges]
    parent = np.concatenate(parents)
    child = np.concatenate(children)
    del parents, children
    remaining = np.bincount(parent, minlength=n).astype(np.int32)
    order = np.argsort(child, kind="stable")
    preds = parent[order]
    del order, parent
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(child, minlength=n), out=ptr[1:])
    del child

    def parents_of(idx: np.ndarray) -> np.ndarray:
        starts = ptr[idx]
        lens = ptr[idx + 1] - starts
        ends = np.cumsum(lens)
        offsets = np.repeat(starts - (ends - lens), lens)
        result: np.ndarray = preds[offsets + np.arange(ends[-1] if len(ends) else 0)]
        return result

    ext32 = ext.astype(np.int32)
    ext_win = np.where(ext32 > 0, WIN - ext32, -1)
    # a loss is decided once every inner move is known to lose; its distance is the
    # slowest of those and of the outer moves (all losing, or it would not be a loss)
    loss_at = np.where((remaining == 0) & (ext32 < 0), WIN + ext32, -1)
    has_lost_child = np.zeros(n, dtype=bool)
    known = np.zeros(n, dtype=bool)
    value = np.zeros(n, dtype=np.int16)
    horizon = int(max(ext_win.max(initial=-1), loss_at.max(initial=-1)))
    d = 0
    quiet = 0
    while True:
        if d % 2:
            new = np.flatnonzero(~known & (has_lost_child | (ext_win == d)))
        else:
            new = np.flatnonzero(~known & (loss_at == d))
        if len(new):
            quiet = 0
            known[new] = True
            value[new] = WIN - d if d % 2 else -(WIN - d)
            above = parents_of(new)
            if d % 2 == 0:
                has_lost_child[above] = True
            else:
                dec = np.bincount(above, minlength=n).astype(np.int32)
                remaining -= dec
                ready = np.flatnonzero((dec > 0) & (remaining == 0) & ~known & (ext32 < 0))
                if len(ready):
                    loss_at[ready] = np.maximum(d + 1, WIN + ext32[ready])
                    horizon = max(horizon, int(loss_at[ready].max()))
        else:
            quiet += 1
        if quiet >= 2 and d >= horizon:
            break
        d += 1
    scores[lo:lo + n] = value
    return d


def check(lay: Layout, scores: np.ndarray, progress: Progress | None = None) -> int:
    """How many positions' scores differ from the best of their children's (0 for a
    correct solution: with distances, that local agreement everywhere is a proof, as
    every win or loss then rests on a chain of strictly shorter ones down to an end)."""
    bad = 0
    done = 0
    for cls in lay.classes:
        for start in range(0, cls.size, CHUNK):
            local = np.arange(start, min(cls.size, start + CHUNK))
            best = best_of_children(lay, scores, cls, local)
            bad += int(np.count_nonzero(best != scores[cls.offset + local]))
            done += len(local)
            if progress:
                progress(done, lay.size, f"checking {cls.phase}")
    return bad


def reachable(lay: Layout, progress: Progress | None = None) -> np.ndarray:
    """Which positions a game from the empty board can reach (a boolean per position).

    Positions are visited in the opposite order to solving: every move leads to a class
    visited later, or within a moving-phase group, which is closed by repeated sweeps.
    """
    seen = np.zeros(lay.size, dtype=bool)
    start = lay.find(lay.pieces, lay.pieces, 0, 0)
    assert start is not None
    seen[start.offset] = True
    groups = list(lay.groups())[::-1]
    done = 0
    for group in groups:
        inside = {c.key for c in group}
        fresh = {c.key: np.flatnonzero(seen[c.offset:c.offset + c.size]) for c in group}
        while any(len(rows) for rows in fresh.values()):
            found: dict[tuple[int, int, int, int], list[np.ndarray]] = {k: [] for k in inside}
            for cls in group:
                rows = fresh[cls.key]
                if not len(rows):
                    continue
                own, opp = lay.boards(cls, rows)
                for mv in moves(lay, cls, own, opp):
                    if mv.child is None:
                        continue
                    kids = lay.index(mv.child, mv.own, mv.opp)
                    if mv.child.key in inside:
                        kids = kids[~seen[kids]]
                        found[mv.child.key].append(kids - mv.child.offset)
                    seen[kids] = True
            fresh = {k: np.unique(np.concatenate(v)) if v else np.zeros(0, dtype=np.int64)
                     for k, v in found.items()}
        done += sum(c.size for c in group)
        if progress:
            progress(done, lay.size, "counting reachable positions")
    return seen
