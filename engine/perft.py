"""Perft: the number of move sequences of each length, over the public protocol only."""

from __future__ import annotations

from engine.protocol import State


def perft(state: State, depth: int) -> list[int]:
    """Counts of distinct move sequences of exactly 1..``depth`` moves from ``state``.

    One depth-first walk fills every depth at once; each move goes through
    ``state.play`` and each node's moves through ``legal_moves()`` (no leaf shortcut).
    """
    counts = [0] * (depth + 1)

    def walk(node: State, d: int) -> None:
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


def divide(state: State, depth: int) -> list[tuple[str, int]]:
    """For each legal move, the number of sequences of ``depth`` moves starting with it."""
    out = []
    for move in state.legal_moves():
        child = state.play(move)
        n = perft(child, depth - 1)[-1] if depth > 1 else 1
        out.append((state.format_move(move), n))
    return out
