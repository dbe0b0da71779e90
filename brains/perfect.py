"""Perfect play where a game is solved here: exhaustive search, or the game's own exact
solver.

Which games get which method is each game's decision (``PERFECT`` in its module under
:mod:`brains.heuristics`); this module implements the generic one and asks the game for
the other:

- ``search``: a memoized negamax to the end of the game (tic-tac-toe), scoring wins
  by their distance so that the brain wins fastest and loses slowest;
- the name of the game's exact hook (``EXACT`` in its module, :mod:`brains.exact`; its
  ``method``, such as ``connect4`` for Pons' solver or ``morrisdb`` for the Morris
  database): the hook scores the moves and chooses (a hook that may run out of time
  takes the move from the ``fallback`` brain, saying so in its thought).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Iterator
from typing import Any, ClassVar

from brains.exact import ExactSolver
from brains.heuristics import exact_solver, get_heuristic, teacher_models
from brains.minimax import EPS, NODES, POLL, SECONDS, WIN, Stopped, fallible_replies
from brains.protocol import Brain, BrainOption, Budget, Thought, UnknownBrainError
from brains.registry import check_spec, make_brain
from engine.protocol import AnyState
from engine.registry import GAMES


def _shift(value: float) -> float:
    """A child's negated value seen one ply further up (wins and losses get one ply longer)."""
    return value - EPS if value > 0 else value + EPS if value < 0 else 0.0


class _Search:
    """One search's budget and node count (kept off the brain: see :class:`Brain`)."""

    __slots__ = ("budget", "nodes")

    def __init__(self, budget: Budget):
        self.budget = budget
        self.nodes = 0


TEACHER_TEMPERATURE = 0.3
"""The fallible opponent's softmax temperature in :func:`teaching_key` (0: it plays one
of the replies its one-ply view rates best, as alpha-beta's ``traps`` assumes)."""


def _sign(value: float) -> int:
    return (value > 0) - (value < 0)


def teaching_key(child: AnyState, replies: dict[Any, int],
                 heuristic: Callable[[AnyState], float]) -> tuple[float, float]:
    """How many chances to go wrong a move leaves the opponent: ``child`` is the position
    after it, ``replies`` the exact outcome of each of the opponent's replies for the
    opponent (1 win, 0 draw, -1 loss). A reply goes wrong when its outcome is worse than
    the opponent's best. The key, bigger is better:

    1. the chance that a fallible opponent goes wrong: :func:`brains.minimax.fallible_replies`
       (alpha-beta's ``traps`` model: of its replies that do not lose at once, one its
       one-ply view rates best) summed over the replies that go wrong;
    2. the share of all its legal replies that go wrong (a random opponent's chance).

    (0, 0) where the opponent has no choice.
    """
    if len(replies) <= 1:
        return (0.0, 0.0)
    best = max(replies.values())
    wrong = {r for r, outcome in replies.items() if outcome < best}
    if not wrong:
        return (0.0, 0.0)
    weights = fallible_replies(child, heuristic, TEACHER_TEMPERATURE)
    chance = sum(w for r, w in weights.items() if r in wrong)
    return (round(chance, 9), len(wrong) / len(replies))  # rounded: mirror images tie


def check_fallback(text: str, game: str) -> str:
    """``text`` if it is a brain spec other than ``perfect`` that can play ``game``."""
    if text.lower().partition(",")[0].partition(":")[0].strip() == "perfect":
        raise ValueError("the fallback must be another brain")
    check_spec(text, game)
    return text


def _methods() -> tuple[str, ...]:
    """``search`` and the methods the games' exact hooks name, in the engine's order."""
    found = ["search"]
    for game in GAMES:
        hook = exact_solver(game)
        if hook is not None and hook.method not in found:
            found.append(hook.method)
    return tuple(found)


class PerfectBrain(Brain):
    """Perfect play: full search, or the game's exact solver (Pons' solver in Connect
    Four, the retrograde database in Morris)."""

    name = "perfect"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (
        BrainOption("method", str, "search", "search: exhaustive search; otherwise the "
                    "game's exact solver by its name ("
                    + ", ".join(m for m in _methods() if m != "search") + ")",
                    choices=_methods()),
        SECONDS,
        NODES,
        BrainOption("fallback", str, "alphabeta:hard", "with a solver that may run out of "
                    "time: the brain that moves when it does", check=check_fallback),
        BrainOption("teacher", bool, False, "a teaching level: among the moves that keep the "
                    "exact outcome, play the one that leaves a fallible opponent the most "
                    "chances to go wrong (random among the best moves where the replies "
                    "are not solved in time)"),
    )

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        self.method: str = self.options["method"]
        self.seconds: float | None = self.options["seconds"]
        self.node_limit: int | None = self.options["nodes"]
        """With a solver that searches (Connect Four's): positions it may search a move
        before the fallback moves instead (a limit the same on any machine)."""
        self.fallback_spec: str = self.options["fallback"]
        self.teacher: bool = self.options["teacher"]
        self._memo: dict[Hashable, float] = {}
        """Exact values by position key: true in every search, so shared between them."""
        self.solver: ExactSolver | None = None
        """The game's exact hook, where ``method`` names it (None: full search)."""
        if self.method != "search":
            hook = exact_solver(game)
            if hook is None or hook.method != self.method:
                raise UnknownBrainError(
                    f"perfect: method={self.method} does not solve {game}; "
                    f"{game}'s is {'search' if hook is None else hook.method}")
            self.solver = hook
        self.cache: dict[str, Any] = {}
        """The solver's own state kept between moves (its tables stay useful)."""
        self.last_note = ""

    def default_budget(self) -> Budget:
        return Budget(seconds=self.seconds, nodes=self.node_limit)

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """One final thought with the best move and its exact score (or a fallback's thoughts)."""
        moves = state.legal_moves()
        if not moves:
            return
        budget.start()
        if self.solver is not None:
            with contextlib.suppress(Stopped):  # out of time: no move to offer
                yield from self.solver.think(self, state, budget)
            return
        search = _Search(budget)
        try:
            scores = self._analyse(search, state)
        except Stopped:
            return
        move, note = self.best_move(state, scores, budget)
        yield Thought(move, scores[move], state.ply, search.nodes, (move,), final=True,
                      note=note)

    def best_move(self, state: AnyState, scores: dict[Any, float],
                  budget: Budget) -> tuple[Any, str]:
        """The move to play given every legal move's exact score, and a note for the thought.

        Plainly one of the best scores, at random. With ``teacher``, where the position is
        not won (a lost opponent has nothing to get wrong):

        - in a game that declares ``TEACHER_MODELS`` (:func:`brains.heuristics.teacher_models`),
          every move of the best outcome is a candidate, ranked by :meth:`playouts` (the
          points it scores when played out to the end against each model opponent), then
          by its exact score, then by :func:`teaching_key`;
        - elsewhere, the moves of the best score (the exact outcome, and the slowest loss),
          ranked by :func:`teaching_key`. (Widening that to every move of the best outcome,
          faster losses included, did no better in Connect Four: a slower loss leaves more
          replies to get wrong.)

        At random among equals. This needs the exact value of every reply of every
        candidate (and the play-outs) within ``budget``; when they are not all had in time
        the move is a best one at random, and the note says so.
        """
        moves = [m for m in state.legal_moves() if m in scores]
        best = max(scores[m] for m in moves)
        plain = [m for m in moves if scores[m] == best]
        if not self.teacher or best > 0:
            return self.rng.choice(plain), ""
        models = teacher_models(self.game)
        candidates = [m for m in moves if _sign(scores[m]) == _sign(best)] if models else plain
        if len(candidates) <= 1:
            return self.rng.choice(plain), ""
        points: dict[Any, tuple[float, float]] = {}
        if models:  # the play-outs first: the one-reply key only breaks their ties
            for move in candidates:
                got = self.playouts(state.play(move), state.to_move, models, budget)
                if got is None:
                    return self._late(plain)
                points[move] = (got, scores[move])
            first = max(points.values())
            candidates = [m for m in candidates if points[m] == first]
        heuristic = get_heuristic(self.game)
        keys: dict[Any, tuple[float, float]] = {}
        for move in candidates:
            child = state.play(move)
            replies = self._reply_outcomes(state, child, budget)
            if replies is None:
                return self._late(plain)
            keys[move] = teaching_key(child, replies, heuristic)
        top = max(keys.values())
        move = self.rng.choice([m for m in candidates if keys[m] == top])
        if models:
            return move, f"teacher: fallible opponents score {1 - points[move][0]:.2f} a " \
                         f"game after it ({len(models)} play-outs)"
        return move, f"teacher: the opponent goes wrong with chance {top[0]:.2f} " \
                     f"({top[1]:.0%} of its replies)"

    def _late(self, plain: list[Any]) -> tuple[Any, str]:
        """A best move at random, with the note that the teacher ran out of time."""
        return self.rng.choice(plain), "teacher: replies not solved in time, a best move"

    def playouts(self, child: AnyState, us: Any, models: tuple[str, ...],
                 budget: Budget) -> float | None:
        """The mean points (1 win, 0.5 draw, 0 loss) ``us`` scores from ``child`` when the
        game is played out to its end once against each of ``models`` (brain specs, each
        made afresh with the brain's seed, so a play-out is the same whenever it is
        played), our own moves exact (the first of the best scores, in the order of the
        legal moves); None when the budget runs out first."""
        total = 0.0
        for spec in models:
            model = make_brain(spec, self.game, seed=self.seed)  # afresh: the same play-out
            state = child
            while not state.is_terminal():
                if budget.expired():
                    return None
                if state.to_move == us:
                    try:
                        scores = self._analyse(_Search(budget), state)
                    except Stopped:
                        return None
                    top = max(scores.values())
                    move = next(m for m in state.legal_moves() if scores.get(m) == top)
                else:
                    move = model.choose(state, Budget(stop=budget.stop, deadline=budget.deadline,
                                                      clock=budget.clock))
                state = state.play(move)
            outcome = state.outcome()
            total += 0.5 if outcome is None else (outcome.value_for(us) + 1) / 2
        return round(total / len(models), 9)

    def _reply_outcomes(self, state: AnyState, child: AnyState,
                        budget: Budget) -> dict[Any, int] | None:
        """The exact outcome of every reply in ``child`` (a move of ``state`` played) for
        the side that makes it (empty when there is none to choose), None when not settled
        within ``budget``."""
        if child.outcome() is not None or not child.legal_moves() \
                or child.to_move == state.to_move:
            return {}  # no reply to get wrong: the game is over, or the opponent passes
        if budget.expired():
            return None
        if self.solver is not None:
            values = self.solver.values(child, budget, self.cache)
            return None if values is None else {m: v.outcome for m, v in values.items()}
        try:
            scores = self._analyse(_Search(budget), child)
        except Stopped:
            return None
        return {m: _sign(s) for m, s in scores.items()}

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """The exact score of every legal move (Stopped if the budget runs out first)."""
        return self._analyse(_Search((budget or self.default_budget()).start()), state)

    def _analyse(self, search: _Search, state: AnyState) -> dict[Any, float]:
        if self.solver is not None:
            return self.solver.scores(self, state, search.budget)
        return {m: _shift(-self._value(search, state.play(m))) for m in state.legal_moves()}

    # -- exhaustive search ---------------------------------------------------------------
    def _value(self, search: _Search, state: AnyState) -> float:
        """The exact value of ``state`` for its side to move, relative to the node."""
        key = state.key()
        value = self._memo.get(key)
        if value is not None:
            return value
        search.nodes += 1
        if not search.nodes & POLL and search.budget.expired():
            raise Stopped
        moves = state.legal_moves()
        if not moves:
            outcome = state.outcome()
            value = WIN * outcome.value_for(state.to_move) if outcome is not None else 0.0
        else:
            value = max(_shift(-self._value(search, state.play(m))) for m in moves)
        self._memo[key] = value
        return value

    # -- when the solver runs out of time ------------------------------------------------
    def fall_back(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """Thoughts of the fallback brain, each with a note saying the move is not proven."""
        brain = make_brain(self.fallback_spec, self.game, seed=self.seed)
        note = f"not solved in time: move from {self.fallback_spec}"
        self.last_note = note
        for thought in brain.think(state, budget if budget.deadline else brain.default_budget()):
            yield Thought(thought.move, thought.score, thought.depth, thought.nodes,
                          thought.pv, final=False, note=note)
