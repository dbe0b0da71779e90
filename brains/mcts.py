"""Monte Carlo tree search with UCT selection and random (or heuristic-cut) rollouts.

Each simulation walks down the tree by UCT (mean reward + ``c * sqrt(ln N / n)``),
adds one node, plays the game out at random and backs the result up. With
``rollout=heuristic`` a playout stops after ``cutoff`` plies and the game's heuristic
scores the position instead. The move played is the most-visited one.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from typing import Any, ClassVar

from brains.evaluation import evaluation
from brains.minimax import EVAL, SECONDS
from brains.protocol import Brain, BrainOption, Budget, Thought
from engine.protocol import AnyState

REPORT_EVERY = 0.25
"""Seconds between progress thoughts."""


class _Node:
    """A tree node: the move into it, who made it, and that player's reward statistics."""

    __slots__ = ("children", "move", "parent", "player", "reward", "untried", "visits")

    def __init__(self, move: Any, parent: _Node | None, player: int, untried: list[Any]):
        self.move = move
        self.parent = parent
        self.player = player
        self.children: list[_Node] = []
        self.untried = untried
        self.visits = 0
        self.reward = 0.0


class MCTSBrain(Brain):
    """Monte Carlo tree search (UCT) with random rollouts, by simulations or time."""

    name = "mcts"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (
        BrainOption("simulations", int, None, "simulations per move at most; none: no limit "
                    "(1000 when there is no time limit either)", low=1, high=10**9, nullable=True),
        SECONDS,
        BrainOption("c", float, math.sqrt(2), "UCT exploration constant (0: pure exploitation)",
                    low=0, high=100),
        BrainOption("rollout", str, "random", "how a playout ends: random (to the end of the "
                    "game) or heuristic (cut after cutoff plies)", choices=("random", "heuristic")),
        BrainOption("cutoff", int, 8, "with rollout=heuristic: random plies before the "
                    "heuristic scores the playout (0: at once)", low=0, high=10_000),
        EVAL,
    )

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        options = self.options
        self.simulations: int | None = options["simulations"]
        self.seconds: float | None = options["seconds"]
        self.c: float = options["c"]
        self.rollout: str = options["rollout"]
        self.cutoff: int = options["cutoff"]
        self.heuristic = evaluation(game, options["eval"]) if self.rollout == "heuristic" else None

    def default_budget(self) -> Budget:
        return Budget(seconds=self.seconds, nodes=self.simulations)

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """Run simulations, yielding the most-visited move about every quarter second."""
        moves = state.legal_moves()
        if not moves:
            return
        if len(moves) == 1:
            yield Thought(moves[0], None, 0, 0, (moves[0],), final=True)
            return
        thought = None
        for root, done in self._search(state, budget):
            if root.children:
                thought = self._thought(root, done)
                yield thought
        if thought is None:  # stopped before the first simulation
            move = self.rng.choice(moves)
            yield Thought(move, None, 0, 0, (move,), final=False)

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """Each root move's mean reward mapped to [-1, 1] (unvisited moves are left out)."""
        root = None
        for node, _ in self._search(state, (budget or self.default_budget())):
            root = node  # the tree after the last iteration
        if root is None:
            return {}
        return {n.move: 2 * n.reward / n.visits - 1 for n in root.children if n.visits}

    # -- the search ----------------------------------------------------------------------
    def _search(self, state: AnyState, budget: Budget) -> Iterator[tuple[_Node, bool]]:
        """Simulate until the budget is spent; yields (root, finished) now and then."""
        budget.start()
        limits = [n for n in (budget.nodes, self.simulations) if n is not None]
        max_sims = min(limits) if limits else None
        deadline = budget.deadline
        if self.seconds is not None:
            own = time.monotonic() + self.seconds
            deadline = own if deadline is None else min(deadline, own)
        if max_sims is None and deadline is None:
            max_sims = 1000
        rng = random.Random(self.rng.getrandbits(64))  # this search's own random stream
        root = self._new_node(rng, None, None, state)
        sims = 0
        next_report = time.monotonic() + REPORT_EVERY
        while max_sims is None or sims < max_sims:
            if budget.stop.is_set() or (deadline is not None and time.monotonic() >= deadline):
                yield root, False
                return
            self._simulate(rng, root, state)
            sims += 1
            if time.monotonic() >= next_report:
                next_report += REPORT_EVERY
                yield root, False
        yield root, True

    @staticmethod
    def _new_node(rng: random.Random, move: Any, parent: _Node | None, state: AnyState) -> _Node:
        untried = list(state.legal_moves())
        rng.shuffle(untried)
        return _Node(move, parent, 1 - state.to_move, untried)

    def _simulate(self, rng: random.Random, root: _Node, state: AnyState) -> None:
        node = root
        log, c = math.log, self.c
        while not node.untried and node.children:  # selection
            scale = c * math.sqrt(log(node.visits))
            node = max(node.children,
                       key=lambda n: n.reward / n.visits + scale / math.sqrt(n.visits))
            state = state.play(node.move)
        if node.untried:  # expansion
            move = node.untried.pop()
            state = state.play(move)
            child = self._new_node(rng, move, node, state)
            node.children.append(child)
            node = child
        rewards = self._playout(rng, state)  # reward for player 0, player 1
        up: _Node | None = node
        while up is not None:  # backpropagation
            up.visits += 1
            up.reward += rewards[up.player]
            up = up.parent

    def _playout(self, rng: random.Random, state: AnyState) -> tuple[float, float]:
        """Play on to the end (or to the cutoff) and score it for each player in [0, 1]."""
        choice = rng.choice
        plies = 0
        moves = state.legal_moves()
        while moves:
            if self.heuristic is not None and plies >= self.cutoff:
                value = max(-1.0, min(1.0, self.heuristic(state)))
                mine = (value + 1) / 2
                return (mine, 1 - mine) if state.to_move == 0 else (1 - mine, mine)
            state = state.play(choice(moves))
            moves = state.legal_moves()
            plies += 1
        outcome = state.outcome()
        winner = outcome.winner if outcome is not None else None
        if winner is None:
            return (0.5, 0.5)
        return (1.0, 0.0) if winner == 0 else (0.0, 1.0)

    def _thought(self, root: _Node, done: bool) -> Thought:
        # ties in visits go to the better mean, then to the seeded expansion order
        node = max(root.children, key=lambda n: (n.visits, n.reward / n.visits))
        pv = [node.move]
        child = node
        while child.children:
            child = max(child.children, key=lambda n: n.visits)
            pv.append(child.move)
        return Thought(node.move, 2 * node.reward / node.visits - 1, len(pv),
                       root.visits, tuple(pv), final=done)
