"""The ``patterns`` brain: an 8x8 Reversi evaluation from board patterns, fitted on real
games, searched by a compiled alpha-beta (Logistello / Edax style).

**The evaluation.** The board is read through :data:`PATTERNS`, ordered lists of squares
(the edge with the two X-squares, a 2x5 and a 3x3 corner block, the second, third and
fourth lines, the diagonals of 4 to 8 squares). Each pattern is read in every one of its
images under the board's eight symmetries (:func:`instances`; images that read the same
squares in the same order count once), so the evaluation of a position and of its
rotations and reflections is the same number. An image's configuration (each square
empty, the mover's or the opponent's) is a base-3 index into its pattern's weights, one
table per game phase (:data:`PHASES` phases of :data:`PHASE_WIDTH` plies by disc count),
and the value is the phase's bias plus the weights of every image plus
:data:`NUMERIC` terms (mobility, potential mobility and parity) times their weights. Its
unit is 1/:data:`UNIT` disc of the final disc difference for the side to move.

**Training** (:func:`train`, ``parlor train reversi patterns --data DIR``): every
position of the WTHOR games in DIR (``*.wtb`` files; the French federation's database)
is labelled with its game's final disc difference for the side to move (the empties to
the winner, as WTHOR counts), and positions with at most :data:`EXACT_EMPTIES` empty
squares with their exact value by the endgame solver instead; to them are added the
positions of 13 to 18 empty squares of self-play games (``selfplay`` of them, played by a
first, quicker fit), each labelled with its exact value
(:mod:`brains.learned.pattern_selfplay`). Each phase is fitted
apart by scikit-learn's Ridge regression on a sparse one-hot matrix (one column per
pattern configuration; an image adds one to its configuration's column), seeded
subsamples making it reproducible. The model is a dict of plain numpy arrays (the
weights quantised to int16) and goes through the model store like every model.

**Play** (:class:`PatternsBrain`): on the standard 8x8 board the compiled midgame
search of :mod:`brains.kernels.reversi_mid` (compiled in :mod:`brains.kernels.reversi`)
with this evaluation inlined, and the exact endgame solver once it is expected to finish
within the move's time; other sizes and FlipColor play ``alphabeta`` on the hand-written
evaluation, no deeper than :data:`OTHER_DEPTH` plies (Python's search is about fifty
times slower, so a depth meant for the compiled search would take minutes a move there).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from brains.options import MODEL, BrainOption
from brains.protocol import Brain, Budget, Thought
from engine.protocol import AnyState, ParlorError

KIND = "patterns"
GAMES: tuple[str, ...] = ("reversi",)
DEFAULTS: dict[str, dict[str, Any]] = {"reversi": {"games": 130_000, "selfplay": 4000}}
"""Training arguments: ``games`` is the most WTHOR games read from the data folder,
``selfplay`` the self-play games whose late positions the exact solver labels
(:mod:`brains.learned.pattern_selfplay`)."""
NEEDS_DATA = True
"""Trained from a folder of game files (``--data``), so ``parlor train --all`` leaves the
shipped model as it is."""

N = 8
"""The board side the patterns read."""
UNTIMED_EMPTIES = 14
"""Without a time a move, the exact solver plays from this many empty squares on (the
search brains' ``EXACT_EMPTIES`` of :mod:`brains.heuristics.reversi`)."""
OTHER_DEPTH = 6
"""The deepest ``alphabeta`` plays for this brain where the patterns do not fit (the
depth of the hand-written evaluation's strongest rated level)."""


def train(game: str, *, games: int, seed: int = 0, jobs: int = 1,
          progress: Callable[[int, int], None] | None = None,
          data: str | None = None, selfplay: int = 0) -> tuple[dict[str, Any], dict[str, Any]]:
    """Fit the pattern evaluation on the WTHOR games in the folder ``data`` (at most
    ``games`` of them) and on the late positions of ``selfplay`` games of a first fit,
    labelled by the exact solver; (model, meta)."""
    if data is None:
        raise ParlorError("the patterns evaluation learns from real games: give --data DIR, "
                          "a folder of WTHOR *.wtb files")
    import numpy as np

    from brains.learned.pattern_features import (
        ALPHA,
        EXACT_EMPTIES,
        MAX_ROWS,
        exact_labels,
        fit,
        playable,
        positions,
    )
    from brains.reversi_endgame import solve

    start = time.perf_counter()
    me, them, label, used = positions(data, games)
    read_seconds = time.perf_counter() - start
    exact = exact_labels(me, them, label, solve, seed=seed)
    exact_seconds = time.perf_counter() - start - read_seconds
    extra: dict[str, Any] = {}
    if selfplay:
        from brains.learned import pattern_selfplay as sp

        start = time.perf_counter()
        first, _ = fit(me, them, label, seed=seed, exact=exact, max_rows=sp.FIRST_FIT_ROWS)
        sp_me, sp_them = sp.play(playable(first), selfplay, seed=seed)
        played = time.perf_counter() - start
        sp_label = sp.label(sp_me, sp_them, solve)
        extra = dict(selfplay_games=selfplay, selfplay_positions=len(sp_me),
                     selfplay_empties=list(sp.EMPTIES), selfplay_depth=sp.DEPTH,
                     selfplay_seconds=round(played, 1),
                     selfplay_label_seconds=round(time.perf_counter() - start - played, 1))
        me, them = np.concatenate([me, sp_me]), np.concatenate([them, sp_them])
        label = np.concatenate([label, sp_label])
        exact = np.concatenate([exact, np.ones(len(sp_me), dtype=bool)])
    model, meta = fit(me, them, label, seed=seed, exact=exact, progress=progress)
    meta.update(data=len(me), games_used=used, exact_labels=int(exact.sum()),
                exact_empties=EXACT_EMPTIES, alpha=ALPHA, max_rows=MAX_ROWS,
                read_seconds=round(read_seconds, 1), exact_seconds=round(exact_seconds, 1),
                source="WTHOR .wtb files (--data)"
                + (" and exactly labelled self-play positions" if selfplay else ""), **extra)
    return model, meta


# -- the brain ----------------------------------------------------------------------------
class PatternsBrain(Brain):
    """Compiled alpha-beta on a pattern evaluation fitted on real games (8x8 Reversi)."""

    name = "patterns"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (
        BrainOption("depth", int, None, "plies to search; none: deepen until another limit",
                    low=1, high=60, nullable=True),
        BrainOption("seconds", float, 1.0, "seconds to think per move; none: no limit",
                    low=0, low_open=True, high=86_400, nullable=True),
        BrainOption("nodes", int, None, "positions to search per move at most; none: no "
                    "limit", low=1, high=10**12, nullable=True),
        BrainOption("endgame", bool, True, "play the exact endgame solver once it is "
                    "expected to finish within half of the move's time"),
        MODEL,
    )

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        from brains.learned.pattern_features import load_tables

        self.tables, self.entry = load_tables(self.options["model"])
        self._fallback: Brain | None = None
        self._search: Any = None

    def default_budget(self) -> Budget:
        return Budget(seconds=self.options["seconds"], depth=self.options["depth"],
                      nodes=self.options["nodes"])

    @property
    def endgame_timed(self) -> bool:
        """Whether its exact endgame depends on the clock: only with a time a move (its
        share then decides whether the solver starts); without one the solver plays from
        :data:`UNTIMED_EMPTIES` empty squares on, the same on any machine."""
        return bool(self.options["endgame"]) and self.options["seconds"] is not None

    def _other(self) -> Brain:
        """alphabeta on the hand-written evaluation, for boards the patterns do not fit
        (at most :data:`OTHER_DEPTH` plies deep)."""
        if self._fallback is None:
            from brains.alphabeta import AlphaBetaBrain

            self._fallback = AlphaBetaBrain(self.game, seed=self.rng.getrandbits(32),
                                            depth=None if self.options["depth"] is None
                                            else min(self.options["depth"], OTHER_DEPTH),
                                            seconds=self.options["seconds"],
                                            nodes=self.options["nodes"])
        return self._fallback

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """The exact solver when it should finish in time, else the compiled search
        deepening one ply at a time (a thought per finished depth)."""
        size = getattr(state, "size", None)
        if size != N or getattr(state, "drawn_squares", ()):
            yield from self._other().think(state, budget)
            return
        moves = state.legal_moves()
        if not moves:
            return
        budget.start()
        if len(moves) == 1:
            yield Thought(moves[0], None, 0, 0, (moves[0],), final=True)
            return
        seconds = [s for s in (self.options["seconds"], budget.remaining()) if s is not None]
        limit = min(seconds) if seconds else None
        started = budget.clock()
        if self.options["endgame"]:
            thought = self._endgame(state, budget, limit)
            if thought is not None:
                yield thought
                return
        if limit is not None:
            limit = max(0.0, limit - (budget.clock() - started))
        searcher = self._searcher()
        depths = [d for d in (self.options["depth"], budget.depth) if d is not None]
        nodes = [n for n in (self.options["nodes"], budget.nodes) if n is not None]
        yield from searcher.think(state, limit, min(depths) if depths else None,
                                      min(nodes) if nodes else None, budget,
                                      random.Random(self.rng.getrandbits(64)))

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """Every legal move's value by the compiled search (a win 1, a loss -1, a pattern
        value its predicted disc difference over 64), at the deepest depth finished for
        every move within the budget (4 plies without any limit)."""
        if getattr(state, "size", None) != N or getattr(state, "drawn_squares", ()):
            return self._other().analyse(state, budget)
        budget = (budget or self.default_budget()).start()
        moves = state.legal_moves()
        if not moves or moves[0] not in range(64):  # a pass, or the game is over
            return {m: 0.0 for m in moves}
        values: dict[Any, float] = self._searcher().values(
            state, budget.remaining(), budget.depth or self.options["depth"], budget)
        return values

    def _searcher(self) -> Any:
        if self._search is None:
            from brains.pattern_search import MidgameSearch

            self._search = MidgameSearch(self.tables)
        return self._search

    def _endgame(self, state: Any, budget: Budget, limit: float | None) -> Thought | None:
        from brains import reversi_endgame

        share = None if limit is None else 0.5 * limit
        if share is None:
            if reversi_endgame.empties_of(state) > UNTIMED_EMPTIES:
                return None
        elif not reversi_endgame.can_settle(state, share):
            return None
        result = reversi_endgame.solve(state, budget_seconds=share, stop=budget.stop)
        if not result.exact or result.best_move is None or result.score is None:
            return None
        score = max(-1.0, min(1.0, result.score / 64))
        return Thought(result.best_move, score, len(result.pv), result.nodes, result.pv,
                       final=True, note=f"exact: {result.score:+d}")
