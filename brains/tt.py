"""A transposition table: a size-capped dict of search results with explicit bound flags.

An entry is ``(depth, flag, score, move)``: the search to ``depth`` plies below the
position returned ``score``, which is the exact value (``EXACT``), a lower bound
(``LOWER``, the search failed high) or an upper bound (``UPPER``, it failed low);
``move`` is the best or refuting move found (None if none). ``depth == SOLVED`` marks a
result that no depth cutoff influenced (the subtree was searched to its end), valid at
every depth. When full, the oldest entry is dropped to make room.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

EXACT, LOWER, UPPER = 0, 1, 2
"""Bound flags: the stored score is exact, a lower bound or an upper bound."""
SOLVED = 1 << 30
"""The depth stored for results computed without any depth cutoff."""

Entry = tuple[int, int, float, Any]


class TranspositionTable:
    """Search results by position key, at most ``capacity`` of them."""

    __slots__ = ("_data", "capacity", "hits", "stores")

    def __init__(self, capacity: int = 500_000):
        if capacity < 1:
            raise ValueError("a transposition table needs room for at least one entry")
        self.capacity = capacity
        self._data: dict[Hashable, Entry] = {}
        self.hits = 0
        self.stores = 0

    def get(self, key: Hashable) -> Entry | None:
        """The entry for ``key`` or None."""
        entry = self._data.get(key)
        if entry is not None:
            self.hits += 1
        return entry

    def put(self, key: Hashable, depth: int, flag: int, score: float, move: Any) -> None:
        """Store a result, replacing any older one for ``key``."""
        data = self._data
        if key in data:
            del data[key]  # re-insert so that the entry counts as new
        elif len(data) >= self.capacity:
            del data[next(iter(data))]
        data[key] = (depth, flag, score, move)
        self.stores += 1

    def clear(self) -> None:
        """Forget every entry."""
        self._data.clear()

    def __len__(self) -> int:
        return len(self._data)
