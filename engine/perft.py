"""Perft: the number of move sequences of each length, over the public protocol only."""

from __future__ import annotations

from engine.protocol import AnyState, ParlorError

MAX_DEPTH = 100
"""Deepest perft accepted (far beyond what can finish; it bounds memory and recursion)."""


def check_depth(depth: int) -> int:
    """``depth`` if it is from 0 to :data:`MAX_DEPTH`, else a ParlorError with the range."""
    if not 0 <= depth <= MAX_DEPTH:
        raise ParlorError(f"perft depth {depth} is out of range; allowed: 1 to {MAX_DEPTH}")
    return depth


def perft(state: AnyState, depth: int) -> list[int]:
    """Counts of distinct move sequences of exactly 1..``depth`` moves from ``state``.

    One depth-first walk fills every depth at once; each move goes through
    ``state.play`` and each node's moves through ``legal_moves()`` (no leaf shortcut).
    """
    check_depth(depth)
    counts = [0] * (depth + 1)

    def walk(node: AnyState, d: int) -> None:
        moves = node.legal_moves()
        counts[d] += len(moves)
        if d == depth:
            for move in moves:
                node.play(move)
            return
        nxt = d + 1
        for move in moves:
            walk(node.play(move), nxt)

    if depth > 0:
        walk(state, 1)
    return counts[1:]


def divide(state: AnyState, depth: int) -> list[tuple[str, int]]:
    """For each legal move, the number of sequences of ``depth`` moves starting with it."""
    check_depth(depth)
    out = []
    for move in state.legal_moves():
        child = state.play(move)
        n = perft(child, depth - 1)[-1] if depth > 1 else 1
        out.append((state.format_move(move), n))
    return out
