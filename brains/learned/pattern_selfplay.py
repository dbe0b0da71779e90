# ruff: noqa: E741  (P and O: the mover's and the opponent's discs, as in the kernels)
"""Self-play positions for the Reversi pattern evaluation, labelled by the exact solver.

Real games (WTHOR) label a position with the result its players reached, mistakes after
it included; the exact solver labels a late position with the result of best play. The
solver settles 18 empty squares in about a tenth of a second, further than the
positions of real games it labels (:data:`brains.learned.pattern_features.EXACT_EMPTIES`),
so the training adds positions of its own games in that range: :func:`play` plays seeded
games of the compiled midgame search on a first fit of the evaluation (random opening
plies, then :data:`DEPTH` plies a move) and keeps :data:`PER_GAME` positions of each with
:data:`EMPTIES` empty squares; :func:`label` gives them their exact final disc difference
for the mover (empties to the winner, as WTHOR counts). The fit then reads them with the
real games' positions, never subsampling them away (:func:`pattern_features.fit`).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np

GAMES = 4000
"""Self-play games of a training run by default (``parlor train reversi patterns``)."""
DEPTH = 4
"""Plies the self-play search looks ahead a move."""
OPENING_PLIES = 8
"""Random plies that start each game (the arena's openings)."""
EMPTIES = (13, 18)
"""Positions with this many empty squares (inclusive) are kept."""
PER_GAME = 2
"""Positions kept a game at most (at distinct empty counts, drawn from the game's seed)."""
FIRST_FIT_ROWS = 40_000
"""Positions a phase of the first fit (the self-play player's evaluation) reads at most."""


def play(tables: dict[str, Any], games: int, seed: int = 0,
         progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(mover's discs, opponent's discs) of the positions kept from ``games`` seeded
    self-play games of the midgame search on ``tables`` (playable tables of
    :func:`brains.learned.pattern_features.playable`)."""
    from brains.openings import random_opening
    from brains.pattern_search import MidgameSearch
    from brains.protocol import Budget
    from engine.games.reversi import PASS
    from engine.registry import new_game

    search = MidgameSearch(tables)
    me: list[int] = []
    them: list[int] = []
    for g in range(games):
        rng = random.Random(f"{seed}:selfplay:{g}")
        state: Any = random_opening(new_game("reversi"), OPENING_PLIES, rng)[0]
        seen: list[tuple[int, int]] = []
        while not state.is_terminal():
            empties = 64 - (state.me | state.them).bit_count()
            if EMPTIES[0] <= empties <= EMPTIES[1] and state.legal_moves() != (PASS,):
                seen.append((state.me, state.them))
            if empties < EMPTIES[0]:
                break
            thoughts = list(search.think(state, None, DEPTH, None, Budget(), rng))
            move = thoughts[-1].move if thoughts else state.legal_moves()[0]
            state = state.play(move)
        for P, O in rng.sample(seen, min(PER_GAME, len(seen))):
            me.append(P)
            them.append(O)
        if progress is not None and (g % 100 == 99 or g == games - 1):
            progress(g + 1, games)
    return np.array(me, dtype=np.uint64), np.array(them, dtype=np.uint64)


def label(me: np.ndarray, them: np.ndarray, solve: Callable[..., Any],
          progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The exact final disc difference for the mover of every position (``solve``: the
    endgame solver's :func:`brains.reversi_endgame.solve`, empties to the winner)."""
    from brains.learned.pattern_features import state_of

    out = np.zeros(len(me), dtype=np.float64)
    for i in range(len(me)):
        result = solve(state_of(int(me[i]), int(them[i])), empties_to_winner=True)
        if result.score is None:  # only a solve given a budget stops short
            raise RuntimeError("the exact solver stopped without a budget")
        out[i] = result.score
        if progress is not None and (i % 500 == 499 or i == len(me) - 1):
            progress(i + 1, len(me))
    return out
