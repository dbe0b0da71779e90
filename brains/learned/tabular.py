"""Shared pieces of the tabular learners (``table`` and ``qlearn``; ``linear`` trains
through :func:`run_chunks` too).

- Loading is :func:`brains.learned.store.load` (verified, cached).
- Packing: tables are trained as Python dicts keyed by ints and shipped as sorted numpy
  arrays (:func:`pack` / :func:`unpack`), which pickle small and survive refactors.
- Parallel self-play: :func:`run_chunks` runs a list of seeded chunks, in worker
  processes when ``jobs > 1`` (or on a Dask cluster), and returns their results in
  chunk order, so the model is the same whatever ``jobs`` is. :func:`chunk_seed` derives
  each chunk's seed from the master seed; :func:`split` cuts a number of games into
  fixed-size chunks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

CHUNK_GAMES = 1000
"""Games per self-play chunk (fixed, so the chunking does not depend on ``jobs``)."""


def pack(table: dict[int, Any], columns: int = 1, dtype: str = "float32") -> dict[str, Any]:
    """A dict ``key -> value`` (or ``(value, count)`` with ``columns=2``) as sorted numpy
    arrays; values are float32 unless ``dtype`` says otherwise."""
    import numpy as np

    keys = np.array(sorted(table), dtype=np.int64)
    out: dict[str, Any] = {"keys": keys}
    if columns == 1:
        out["values"] = np.array([table[k] for k in keys.tolist()], dtype=dtype)
    else:
        rows = [table[k] for k in keys.tolist()]
        out["values"] = np.array([r[0] for r in rows], dtype=dtype)
        out["counts"] = np.array([min(r[1], 2**31 - 1) for r in rows], dtype=np.int32)
    return out


def unpack(packed: dict[str, Any]) -> dict[int, float]:
    """``key -> value`` from :func:`pack`'s arrays (counts are not needed to play)."""
    return dict(zip(packed["keys"].tolist(), packed["values"].tolist(), strict=True))


def chunk_seed(seed: int, *parts: object) -> int:
    """A 32-bit seed for one chunk, determined by the master seed and ``parts``."""
    text = ":".join(str(p) for p in ("parlor-tabular", seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def split(games: int, size: int | None = None) -> list[int]:
    """``games`` cut into chunks of ``size`` (default CHUNK_GAMES; the last one shorter)."""
    size = size or CHUNK_GAMES
    out = [size] * (games // size)
    if games % size:
        out.append(games % size)
    return out


def run_chunks(fn: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
               jobs: int = 1) -> list[Any]:
    """``[fn(*args) for args in calls]``, in worker processes when ``jobs > 1`` or on
    the Dask cluster of a :func:`brains.parallel.dask_cluster` block; in call order."""
    from brains.parallel import run_calls

    return run_calls(fn, calls, jobs)
