"""Five Men's Morris solved: every position's exact value and distance to the end.

The database is built once by retrograde analysis (:func:`build`, or
``python -m brains.morrisdb build``) and read memory-mapped (:func:`open_db`)::

    db = open_db()                      # the shipped file, checked against its manifest
    db.value(state)                     # Value('win', 7): White/Black to move wins in 7 plies
    db.move_values(state)               # {move: Value} for every legal move
    perfect_move(state, rng)            # fastest win, slowest loss, else most traps

Values are for the game without the 100-ply and repetition draws (docs/RULES.md,
Morris): with them a won position can only become a draw, never a loss.
"""

from __future__ import annotations

from brains.morrisdb.db import (
    MorrisDB,
    MorrisDBError,
    Value,
    build,
    default_path,
    open_db,
    perfect_move,
    sample_check,
    set_default_path,
    shared,
)
from brains.morrisdb.solve import Progress

__all__ = ["MorrisDB", "MorrisDBError", "Value", "build", "default_path", "open_db",
           "perfect_move", "sample_check", "set_default_path", "shared", "verify"]


def verify(db: MorrisDB, progress: Progress | None = None) -> int:
    """How many positions of ``db`` disagree with the best of their children (0 when
    the database is sound; with distances that is a full proof, see
    :func:`brains.morrisdb.solve.check`)."""
    return db.verify(progress)
