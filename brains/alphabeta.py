"""Alpha-beta negamax with iterative deepening, a transposition table and move ordering.

Layered as in Pons' solver: :class:`~brains.tt.TranspositionTable` stores bounds,
:meth:`AlphaBetaBrain._order` sorts moves (table move, then killer moves, then the
history heuristic), :meth:`AlphaBetaBrain._negamax` is the bounded search, and
``think``/``analyse`` deepen one ply at a time under a :class:`~brains.protocol.Budget`,
abandoning the iteration in progress when the budget runs out. The ``hard`` level adds
per-move time management from :mod:`brains.timeman`.
"""

from __future__ import annotations

import time
from typing import Any, ClassVar, Iterator

from brains.heuristics import game_module
from brains.minimax import (
    INF,
    POLL,
    PROVEN,
    SearchBrain,
    Stopped,
    from_tt,
    terminal_score,
    to_tt,
)
from brains.protocol import Budget, Thought
from brains.timeman import TimeManager
from brains.tt import EXACT, LOWER, SOLVED, UPPER, TranspositionTable
from engine.protocol import State


ENDGAME_SHARE = 0.5
"""Share of a move's time the ``endgame`` hook may use before the search takes over."""
ENDGAME_SECONDS = 1.0
"""The hook's time when a move has no time limit at all."""


class AlphaBetaBrain(SearchBrain):
    """Alpha-beta with iterative deepening, transposition table and move ordering."""

    name = "alphabeta"
    OPTIONS: ClassVar[dict[str, type]] = {
        **SearchBrain.OPTIONS, "tt": bool, "tt_size": int, "clock": float, "max_seconds": float,
        "traps": bool, "repetition": bool, "endgame": bool,
    }

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        use_tt = options.get("tt", True)
        self.tt = TranspositionTable(options.get("tt_size") or 500_000) if use_tt else None
        clock = options.get("clock")
        self.timeman = (TimeManager(game, clock, options.get("max_seconds") or 3.0)
                        if clock is not None else None)
        self._killers: list[list[Any]] = []
        self._history: dict[Any, int] = {}
        self.traps: bool = bool(options.get("traps"))
        self.repetition: bool = bool(options.get("repetition"))
        self._path: set[Any] = set()
        """Keys of the positions on the current search path and earlier in this game."""
        self._game_keys: set[Any] = set()
        self._last_ply = -1
        self._exact: Any = None
        """The game's ``exact_outcomes`` hook, with ``endgame`` on (None otherwise)."""
        self._exact_cache: dict[str, Any] = {}
        if options.get("endgame"):
            self._exact = getattr(game_module(game), "exact_outcomes", None)

    # -- public --------------------------------------------------------------------------
    def think(self, state: State, budget: Budget) -> Iterator[Thought]:
        """Deepen one ply at a time, yielding a thought after each finished iteration.

        Stops at the depth limit, when the budget is spent (the unfinished iteration is
        dropped), when a win or loss is proven, or when a search saw the whole tree.
        """
        moves = state.legal_moves()
        if not moves:
            return
        started = time.monotonic()
        allotted = self.timeman.allot(state) if self.timeman is not None else None
        self._see_root(state)
        try:
            if len(moves) == 1:  # a forced move is played at once
                self._begin(budget)
                yield Thought(moves[0], None, 0, 0, (moves[0],), final=True)
                return
            safe = self._endgame_moves(state, moves, budget, allotted)
            if allotted is not None and self._exact is not None:  # the hook's time is spent
                allotted = max(0.0, allotted - (time.monotonic() - started))
            if safe is not None:
                if len(safe) == 1:
                    self._begin(budget)
                    yield Thought(safe[0], None, 0, 0, (safe[0],), final=True,
                                  note="the only move that keeps the exact outcome")
                    return
                moves = tuple(safe)
            yield from self._deepen(state, moves, budget, allotted)
        finally:
            if self.timeman is not None:
                self.timeman.spent(state, time.monotonic() - started)

    def analyse(self, state: State, budget: Budget | None = None) -> dict[Any, float]:
        """The score of every legal move (full window for each) at the deepest finished depth."""
        budget = budget or self.default_budget()
        max_depth = self._begin(budget)
        moves = state.legal_moves()
        scores: dict[Any, float] = {}
        self._reset_ordering(max_depth)
        for depth in range(1, max_depth + 1):
            cuts = self._cuts
            try:
                scores = {m: -self._negamax(state.play(m), depth - 1, -INF, INF, 1) for m in moves}
            except Stopped:
                break
            if self._cuts == cuts:
                break
        return scores

    def _endgame_moves(self, state: State, moves: tuple[Any, ...], budget: Budget,
                       allotted: float | None) -> list[Any] | None:
        """With ``endgame``: the moves whose exact outcome is the best, if the game's
        ``exact_outcomes`` hook finds them within ENDGAME_SHARE of the move's time
        (None otherwise). The search then chooses among them only, so it never plays a
        move that throws away a win or a draw it could not see.
        """
        if self._exact is None:
            return None
        limit = allotted if allotted is not None else budget.remaining()
        if limit is None:
            limit = self.seconds if self.seconds is not None else ENDGAME_SECONDS
        deadline = time.monotonic() + ENDGAME_SHARE * limit

        def stop() -> bool:
            return budget.expired() or time.monotonic() >= deadline

        outcomes = self._exact(state, stop, self._exact_cache)
        if outcomes is None:
            return None
        best = max(outcomes.values())
        return [m for m in moves if outcomes.get(m) == best]

    def _see_root(self, state: State) -> None:
        """Remember the game's positions, for ``repetition`` (a new game when plies go back)."""
        if not self.repetition:
            return
        if state.ply <= self._last_ply:
            self._game_keys = set()
        self._last_ply = state.ply
        self._game_keys.add(state.key())
        self._path = set(self._game_keys)

    # -- iterative deepening -------------------------------------------------------------
    def _deepen(self, state: State, moves: tuple[Any, ...], budget: Budget,
                allotted: float | None) -> Iterator[Thought]:
        max_depth = self._begin(budget, allotted)
        order = list(moves)
        self.rng.shuffle(order)  # equal moves: the seed decides which is found first
        self._reset_ordering(max_depth)
        best: tuple[Any, float] | None = None
        for depth in range(1, max_depth + 1):
            cuts = self._cuts
            self._partial: tuple[Any, float] | None = None
            try:
                move, score = self._root(state, order, depth)
            except Stopped:
                if best is None:  # not even depth 1 finished: the best move seen so far
                    move, score = self._partial or (order[0], 0.0)
                    yield Thought(move, score, 0, self.nodes, (move,), final=False)
                return
            solved = self._cuts == cuts
            if self.traps and solved:
                try:
                    move = self._set_trap(state, order, depth, move, score)
                except Stopped:
                    pass
            best = (move, score)
            order.remove(move)
            order.insert(0, move)
            done = depth == max_depth or abs(score) > PROVEN or solved
            yield self._thought(state, move, score, depth, done)
            if done:
                return

    def _root(self, state: State, order: list[Any], depth: int) -> tuple[Any, float]:
        """The best root move and its exact score at ``depth``."""
        alpha, best_move = -INF, order[0]
        cuts = self._cuts
        for move in order:
            value = -self._negamax(state.play(move), depth - 1, -INF, -alpha, 1)
            if value > alpha:
                alpha, best_move = value, move
                self._partial = (move, value)
        if self.tt is not None:
            self.tt.put(state.key(), SOLVED if self._cuts == cuts else depth, EXACT,
                        to_tt(alpha, 0), best_move)
        return best_move, alpha

    def _set_trap(self, state: State, order: list[Any], depth: int, move: Any,
                  score: float) -> Any:
        """Among the root moves as good as ``move``, the one most likely to make the
        opponent go wrong.

        Only for a fully searched tree (every value exact). The opponent is modelled as
        a fallible player: of its sensible replies (those that do not allow a win at
        once) it plays one that the game's heuristic rates best one ply ahead, at
        random among equals; we play only moves that keep the position's exact value.
        Of the root moves scoring ``score``, the one with the highest chance of a win
        under that model is played (ties from the seed). The exact value is never given
        up, so a perfect opponent gains nothing; a fallible one is led into the forks
        its one-ply view cannot see, rather than into threats that any opponent parries.
        """
        equal = [m for m in order
                 if abs(-self._negamax(state.play(m), depth - 1, -INF, INF, 1) - score) < 1e-9]
        if len(equal) <= 1:
            return move
        memo: dict[Any, float] = {}
        chances = {m: self._win_chance(state.play(m), depth - 1, 1, False, memo) for m in equal}
        top = max(chances.values())
        return self.rng.choice([m for m in equal if chances[m] >= top - 1e-12])

    def _win_chance(self, state: State, depth: int, ply: int, ours: bool,
                    memo: dict[Any, float]) -> float:
        """The chance of winning from ``state`` under :meth:`_set_trap`'s model."""
        key = (state.key(), ours)
        if key in memo:
            return memo[key]
        moves = state.legal_moves()
        if not moves:
            result = terminal_score(state, 0)
            chance = float(result > 0 if ours else result < 0)
        elif depth <= 0:
            chance = 0.0
        elif ours:
            values = {m: -self._negamax(state.play(m), depth - 1, -INF, INF, ply + 1)
                      for m in moves}
            best = max(values.values())
            chance = max(self._win_chance(state.play(m), depth - 1, ply + 1, False, memo)
                         for m in moves if values[m] >= best - 1e-9)
        else:
            children = [state.play(m) for m in moves]
            sensible = [c for c in children if not _wins_at_once(c)] or children
            if len(sensible) > 1:  # it prefers the replies its one-ply view rates best
                rated = [(-self.heuristic(c) if c.legal_moves() else 0.0, c) for c in sensible]
                top = max(r for r, _ in rated)
                sensible = [c for r, c in rated if r >= top - 1e-9]
            chance = sum(self._win_chance(c, depth - 1, ply + 1, True, memo)
                         for c in sensible) / len(sensible)
        memo[key] = chance
        return chance

    # -- the search ----------------------------------------------------------------------
    def _negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        """The value of ``state`` searched ``depth`` plies deep, within (alpha, beta).

        Contract (fail-soft): a result ``v <= alpha`` is an upper bound of the true
        depth-limited value, ``v >= beta`` a lower bound, anything between is exact.
        """
        self.nodes += 1
        if not self.nodes & POLL:
            self._poll()
        moves = state.legal_moves()
        if not moves:
            return terminal_score(state, ply)
        if depth <= 0:
            return self._evaluate(state)
        if self.repetition:
            key = state.key()
            if key in self._path:  # a repeated position: scored as the draw it heads for
                return 0.0
            self._path.add(key)
            try:
                return self._search(state, moves, depth, alpha, beta, ply)
            finally:
                self._path.discard(key)
        return self._search(state, moves, depth, alpha, beta, ply)

    def _search(self, state: State, moves: tuple[Any, ...], depth: int, alpha: float,
                beta: float, ply: int) -> float:
        """The body of :meth:`_negamax` past the terminal and leaf checks."""
        tt = self.tt
        tt_move = None
        if tt is not None:
            key = state.key()
            entry = tt.get(key)
            if entry is not None:
                e_depth, flag, e_score, tt_move = entry
                if e_depth >= depth:
                    score = from_tt(e_score, ply)
                    if (flag == EXACT or (flag == LOWER and score >= beta)
                            or (flag == UPPER and score <= alpha)):
                        if e_depth < SOLVED:
                            self._cuts += 1
                        return score
        alpha0 = alpha
        cuts = self._cuts
        best, best_move = -INF, None
        for move in self._order(moves, tt_move, ply) if len(moves) > 1 else moves:
            value = -self._negamax(state.play(move), depth - 1, -beta, -alpha, ply + 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._reward(move, depth, ply)
                        break
        if tt is not None:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            tt.put(key, SOLVED if self._cuts == cuts else depth, flag, to_tt(best, ply), best_move)
        return best

    # -- move ordering -------------------------------------------------------------------
    def _reset_ordering(self, max_depth: int) -> None:
        self._killers = [[] for _ in range(min(max_depth, 128) + 2)]
        self._history = {}

    def _order(self, moves: tuple[Any, ...], tt_move: Any, ply: int) -> list[Any]:
        """Moves sorted: the table's move, then the killers at this ply, then by history."""
        killers = self._killers[ply] if ply < len(self._killers) else ()
        history = self._history
        return sorted(moves, key=lambda m: (m != tt_move, m not in killers, -history.get(m, 0)))

    def _reward(self, move: Any, depth: int, ply: int) -> None:
        """Remember a move that caused a beta cutoff (killer and history tables)."""
        self._history[move] = self._history.get(move, 0) + depth * depth
        if ply < len(self._killers):
            killers = self._killers[ply]
            if move not in killers:
                killers.insert(0, move)
                del killers[2:]

    def _pv(self, state: State, move: Any, depth: int) -> tuple[Any, ...]:
        """The principal variation read back from the transposition table."""
        pv = [move]
        if self.tt is None:
            return tuple(pv)
        seen = {state.key()}
        state = state.play(move)
        while len(pv) < depth and state.key() not in seen:
            seen.add(state.key())
            entry = self.tt.get(state.key())
            if entry is None or entry[3] is None or entry[3] not in state.legal_moves():
                break
            pv.append(entry[3])
            state = state.play(entry[3])
        return tuple(pv)


def _wins_at_once(state: State) -> bool:
    """True if the side to move in ``state`` has a move that wins the game at once."""
    for move in state.legal_moves():
        child = state.play(move)
        if not child.legal_moves() and terminal_score(child, 0) < 0:
            return True
    return False
