"""Alpha-beta negamax with iterative deepening, a transposition table and move ordering.

Layered as in Pons' solver: :class:`~brains.tt.TranspositionTable` stores bounds,
:meth:`AlphaBetaBrain._order` sorts moves (table move, then killer moves, then the
history heuristic), :meth:`AlphaBetaBrain._negamax` is the bounded search, and
``think``/``analyse`` deepen one ply at a time under a :class:`~brains.protocol.Budget`,
abandoning the iteration in progress when the budget runs out. The ``hard`` level adds
per-move time management from :mod:`brains.timeman`. With ``temperature`` above 0 every
root move is scored with a full window and the move is drawn from a softmax over those
scores (:func:`~brains.minimax.softmax_choice`): the weaker levels of the ladder
(:mod:`brains.ladder`) err like people do, towards moves that look nearly as good.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any, ClassVar

from brains.exact import ExactSolver
from brains.heuristics import exact_solver
from brains.minimax import (
    INF,
    PROVEN,
    TEMPERATURE,
    TT_SIZE,
    Search,
    SearchBrain,
    Stopped,
    fallible_replies,
    from_tt,
    softmax_choice,
    terminal_score,
    to_tt,
)
from brains.protocol import BrainOption, Budget, Thought
from brains.timeman import TimeManager
from brains.tt import EXACT, LOWER, SOLVED, UPPER, TranspositionTable
from engine.protocol import AnyState

ENDGAME_SHARE = 0.5
"""Share of a move's time the ``endgame`` hook may use before the search takes over."""
ENDGAME_SECONDS = 1.0
"""The hook's time when a move has no time limit at all."""


class AlphaBetaBrain(SearchBrain):
    """Alpha-beta with iterative deepening, transposition table and move ordering."""

    name = "alphabeta"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (
        *SearchBrain.OPTIONS,
        BrainOption("tt", bool, True, "use a transposition table"),
        TT_SIZE,
        BrainOption("clock", float, None, "seconds of thinking for the whole game, shared out "
                    "move by move; none: no game clock", low=0, low_open=True, high=864_000,
                    nullable=True),
        BrainOption("max_seconds", float, 3.0, "with clock: seconds per move at most",
                    low=0, low_open=True, high=86_400),
        BrainOption("traps", bool, False, "among equal moves of a solved position, play the "
                    "one a fallible opponent most often loses to"),
        BrainOption("repetition", bool, False, "score a repeated position as a draw"),
        BrainOption("endgame", bool, False, "first ask the game's exact solver which moves "
                    "keep the best outcome (games that have one)"),
        TEMPERATURE,
    )

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        options = self.options
        self.tt = TranspositionTable(options["tt_size"]) if options["tt"] else None
        clock = options["clock"]
        self.timeman = (TimeManager(game, clock, options["max_seconds"])
                        if clock is not None else None)
        self.traps: bool = options["traps"]
        self.repetition: bool = options["repetition"]
        self.temperature: float = options["temperature"]
        self._game_keys: frozenset[Any] = frozenset()
        """Keys of the positions seen earlier in this game (with ``repetition``)."""
        self._last_ply = -1
        self._exact: Any = None
        """The ``outcomes`` of the game's exact hook (``EXACT``, brains.exact), with
        ``endgame`` on (None otherwise)."""
        self._exact_cache: dict[str, Any] = {}
        if options["endgame"]:
            hook = exact_solver(game)
            if hook is not None and type(hook).outcomes is not ExactSolver.outcomes:
                self._exact = hook.outcomes

    # -- public --------------------------------------------------------------------------
    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """Deepen one ply at a time, yielding a thought after each finished iteration.

        Stops at the depth limit, when the budget is spent (the unfinished iteration is
        dropped), when a win or loss is proven, or when a search saw the whole tree.
        """
        moves = state.legal_moves()
        if not moves:
            return
        started = budget.clock()
        allotted = self.timeman.allot(state) if self.timeman is not None else None
        self._see_root(state)
        try:
            if len(moves) == 1:  # a forced move is played at once
                budget.start()
                yield Thought(moves[0], None, 0, 0, (moves[0],), final=True)
                return
            safe = self._endgame_moves(state, moves, budget, allotted)
            if allotted is not None and self._exact is not None:  # the hook's time is spent
                allotted = max(0.0, allotted - (budget.clock() - started))
            if safe is not None:
                if len(safe) == 1:
                    budget.start()
                    yield Thought(safe[0], None, 0, 0, (safe[0],), final=True,
                                  note="the only move that keeps the exact outcome")
                    return
                moves = tuple(safe)
            yield from self._deepen(state, moves, budget, allotted)
        finally:
            if self.timeman is not None:
                self.timeman.spent(state, budget.clock() - started)

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """The score of every legal move (full window for each) at the deepest finished depth."""
        search = self._new_search(budget or self.default_budget())
        moves = state.legal_moves()
        scores: dict[Any, float] = {}
        for depth in range(1, search.max_depth + 1):
            cuts = search.cuts
            try:
                scores = {m: -self._negamax(search, state.play(m), depth - 1, -INF, INF, 1)
                          for m in moves}
            except Stopped:
                break
            if search.cuts == cuts:
                break
        return scores

    def _endgame_moves(self, state: AnyState, moves: tuple[Any, ...], budget: Budget,
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
        deadline = budget.clock() + ENDGAME_SHARE * limit

        def stop() -> bool:
            return budget.expired() or budget.clock() >= deadline

        outcomes = self._exact(state, stop, self._exact_cache)
        if outcomes is None:
            return None
        best = max(outcomes.values())
        return [m for m in moves if outcomes.get(m) == best]

    def _see_root(self, state: AnyState) -> None:
        """Remember the game's positions, for ``repetition`` (a new game when plies go back)."""
        if not self.repetition:
            return
        keys = self._game_keys if state.ply > self._last_ply else frozenset()
        self._last_ply = state.ply
        self._game_keys = keys | {state.key()}

    def _new_search(self, budget: Budget, allotted: float | None = None) -> Search:
        """A new search (see :class:`~brains.minimax.Search`), its path holding the game's
        earlier positions when ``repetition`` is on."""
        search = self._begin(budget, allotted)
        if self.repetition:
            search.path = set(self._game_keys)
        return search

    # -- iterative deepening -------------------------------------------------------------
    def _deepen(self, state: AnyState, moves: tuple[Any, ...], budget: Budget,
                allotted: float | None) -> Iterator[Thought]:
        search = self._new_search(budget, allotted)
        order = list(moves)
        search.rng.shuffle(order)  # equal moves: the seed decides which is found first
        best: tuple[Any, float] | None = None
        for depth in range(1, search.max_depth + 1):
            cuts = search.cuts
            search.partial = None
            try:
                if self.temperature > 0:
                    scores = self._root_scores(search, state, order, depth)
                    score = max(scores.values())
                    move = softmax_choice(order, scores, self.temperature, search.rng)
                else:
                    move, score = self._root(search, state, order, depth)
            except Stopped:
                if best is None:  # not even depth 1 finished: the best move seen so far
                    move, score = search.partial or (order[0], 0.0)
                    yield Thought(move, score, 0, search.nodes, (move,), final=False)
                return
            solved = search.cuts == cuts
            if self.temperature > 0:
                done = depth == search.max_depth or solved
                yield self._thought(search, state, move, scores[move], depth, done)
                if done:
                    return
                continue
            if self.traps and solved:
                with contextlib.suppress(Stopped):  # out of time: keep the solved move
                    move = self._set_trap(search, state, order, depth, move, score)
            best = (move, score)
            order.remove(move)
            order.insert(0, move)
            done = depth == search.max_depth or abs(score) > PROVEN or solved
            yield self._thought(search, state, move, score, depth, done)
            if done:
                return

    def _root(self, search: Search, state: AnyState, order: list[Any],
              depth: int) -> tuple[Any, float]:
        """The best root move and its exact score at ``depth``."""
        alpha, best_move = -INF, order[0]
        cuts = search.cuts
        for move in order:
            value = -self._negamax(search, state.play(move), depth - 1, -INF, -alpha, 1)
            if value > alpha:
                alpha, best_move = value, move
                search.partial = (move, value)
        if self.tt is not None:
            self.tt.put(state.key(), SOLVED if search.cuts == cuts else depth, EXACT,
                        to_tt(alpha, 0), best_move)
        return best_move, alpha

    def _root_scores(self, search: Search, state: AnyState, order: list[Any],
                     depth: int) -> dict[Any, float]:
        """Every root move's exact score at ``depth`` (a full window for each), for
        ``temperature``: the softmax needs the score of every move, not only the best."""
        scores: dict[Any, float] = {}
        for move in order:
            scores[move] = -self._negamax(search, state.play(move), depth - 1, -INF, INF, 1)
            if search.partial is None or scores[move] > search.partial[1]:
                search.partial = (move, scores[move])
        return scores

    def _set_trap(self, search: Search, state: AnyState, order: list[Any], depth: int,
                  move: Any, score: float) -> Any:
        """Among the root moves as good as ``move``, the one most likely to make the
        opponent go wrong.

        Only for a fully searched tree (every value exact). The opponent is modelled as
        a fallible player (:func:`~brains.minimax.fallible_replies`): of its sensible
        replies (those that do not allow a win at once) it plays one that the game's
        heuristic rates best one ply ahead, at random among equals; we play only moves
        that keep the position's exact value.
        Of the root moves scoring ``score``, the one with the highest chance of a win
        under that model is played (ties from the seed). The exact value is never given
        up, so a perfect opponent gains nothing; a fallible one is led into the forks
        its one-ply view cannot see, rather than into threats that any opponent parries.
        """
        equal = [m for m in order
                 if abs(-self._negamax(search, state.play(m), depth - 1, -INF, INF, 1)
                        - score) < 1e-9]
        if len(equal) <= 1:
            return move
        memo: dict[Any, float] = {}
        chances = {m: self._win_chance(search, state.play(m), depth - 1, 1, False, memo)
                   for m in equal}
        top = max(chances.values())
        return search.rng.choice([m for m in equal if chances[m] >= top - 1e-12])

    def _win_chance(self, search: Search, state: AnyState, depth: int, ply: int, ours: bool,
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
            values = {m: -self._negamax(search, state.play(m), depth - 1, -INF, INF, ply + 1)
                      for m in moves}
            best = max(values.values())
            chance = max(self._win_chance(search, state.play(m), depth - 1, ply + 1, False, memo)
                         for m in moves if values[m] >= best - 1e-9)
        else:  # it prefers the sensible replies its one-ply view rates best
            chance = sum(w * self._win_chance(search, state.play(m), depth - 1, ply + 1, True,
                                              memo)
                         for m, w in fallible_replies(state, self.heuristic).items())
        memo[key] = chance
        return chance

    # -- the search ----------------------------------------------------------------------
    def _negamax(self, search: Search, state: AnyState, depth: int, alpha: float, beta: float,
                 ply: int) -> float:
        """The value of ``state`` searched ``depth`` plies deep, within (alpha, beta).

        Contract (fail-soft): a result ``v <= alpha`` is an upper bound of the true
        depth-limited value, ``v >= beta`` a lower bound, anything between is exact.
        """
        search.nodes += 1
        if search.nodes >= search.next_poll:
            search.poll()
        moves = state.legal_moves()
        if not moves:
            return terminal_score(state, ply)
        if depth <= 0:
            search.cuts += 1
            return self._evaluate(state)
        if self.repetition:
            key = state.key()
            path = search.path
            if key in path:  # a repeated position: scored as the draw it heads for
                return 0.0
            path.add(key)
            try:
                return self._search(search, state, moves, depth, alpha, beta, ply)
            finally:
                path.discard(key)
        return self._search(search, state, moves, depth, alpha, beta, ply)

    def _search(self, search: Search, state: AnyState, moves: tuple[Any, ...], depth: int,
                alpha: float, beta: float, ply: int) -> float:
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
                            search.cuts += 1
                        return score
        alpha0 = alpha
        cuts = search.cuts
        best, best_move = -INF, None
        for move in self._order(search, moves, tt_move, ply) if len(moves) > 1 else moves:
            value = -self._negamax(search, state.play(move), depth - 1, -beta, -alpha, ply + 1)
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        self._reward(search, move, depth, ply)
                        break
        if tt is not None:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            tt.put(key, SOLVED if search.cuts == cuts else depth, flag, to_tt(best, ply),
                   best_move)
        return best

    # -- move ordering -------------------------------------------------------------------
    @staticmethod
    def _order(search: Search, moves: tuple[Any, ...], tt_move: Any, ply: int) -> list[Any]:
        """Moves sorted: the table's move, then the killers at this ply, then by history."""
        killers = search.killers[ply] if ply < len(search.killers) else ()
        history = search.history
        return sorted(moves, key=lambda m: (m != tt_move, m not in killers, -history.get(m, 0)))

    @staticmethod
    def _reward(search: Search, move: Any, depth: int, ply: int) -> None:
        """Remember a move that caused a beta cutoff (killer and history tables)."""
        search.history[move] = search.history.get(move, 0) + depth * depth
        if ply < len(search.killers):
            killers = search.killers[ply]
            if move not in killers:
                killers.insert(0, move)
                del killers[2:]

    def _pv(self, state: AnyState, move: Any, depth: int) -> tuple[Any, ...]:
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

