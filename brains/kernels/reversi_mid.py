"""The compiled Reversi midgame search under its own names: the kernel itself lives in
:mod:`brains.kernels.reversi`, beside the exact endgame search.

Both searches read the pattern evaluation (the endgame search sorts its moves by it
where many squares are empty) and share the move generation, so they are compiled from
one file: numba's disk cache is checked against the defining file only, so a kernel
calling compiled code of another module would keep running that code's old version
after the other module changed. This module defines no compiled code of its own; it
gives the midgame kernel's functions the names the callers use (brains/pattern_search.py,
the tests).

:func:`evaluate` is the pattern evaluation: the phase's bias, the weight of every
pattern image's configuration (its squares read as base-3 digits, the first square
lowest: 0 empty, 1 the mover's, 2 the opponent's), and the numeric terms (mobility of
each side, potential mobility of each side, parity), clipped within ``±(WIN - 1)``.

:func:`mid_search` is negascout (principal-variation search, fail-soft) to a depth in plies;
a pass does not count as a ply, so the depth left at a position is the root's depth
minus the discs added since, and transpositions within one search meet at equal depth.
A finished game scores ``WIN + disc difference * UNIT`` for a win (the empties to the
winner), so a proven win outranks every evaluation and a bigger win a smaller one.
Moves are tried: the transposition table's move first, then (with 3 plies or more left)
by the evaluation of the position they lead to, else by the replies they leave
(fewest first, corners counting double). The table (:func:`mid_new_table`) keeps, per
position, the depth it was searched to, its lower and upper bound and its best move.

Like the endgame search, it counts nodes in ``stats[NODES]`` and gives up once
that reaches ``stats[LIMIT]`` (setting ``stats[ABORTED]``, storing nothing unfinished),
so the caller polls its clock between calls and calls again to go on
(brains/pattern_search.py). :func:`mid_root` records its best move and score as soon as
each root move is searched (``stats[ROOT_BEST]``, ``stats[ROOT_SCORE]``).
"""

from __future__ import annotations

from brains.kernels.reversi import (
    ABORTED,
    INF,
    LIMIT,
    MAX_MOVES,
    MAX_PLY,
    NODES,
    PHASE_WIDTH,
    PHASES,
    ROOT_BEST,
    ROOT_DONE,
    ROOT_SCORE,
    SORT_DEPTH,
    STATS,
    UNIT,
    WIN,
    evaluate,
    evaluate_many,
    flips,
    legal,
    mobility,
    popcount,
)
from brains.kernels.reversi import MID_TT_BITS as TT_BITS
from brains.kernels.reversi import mid_buffers as buffers
from brains.kernels.reversi import mid_final as final
from brains.kernels.reversi import mid_new_table as new_table
from brains.kernels.reversi import mid_play as play
from brains.kernels.reversi import mid_root as root
from brains.kernels.reversi import mid_search as search

__all__ = ["ABORTED", "INF", "LIMIT", "MAX_MOVES", "MAX_PLY", "NODES", "PHASES", "PHASE_WIDTH",
           "ROOT_BEST", "ROOT_DONE", "ROOT_SCORE", "SORT_DEPTH", "STATS", "TT_BITS", "UNIT",
           "WIN", "buffers", "evaluate", "evaluate_many", "final", "flips", "legal",
           "mobility", "new_table", "play", "popcount", "root", "search"]
