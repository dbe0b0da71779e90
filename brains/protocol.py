"""The brain protocol: budgets, anytime thoughts, and the Brain base class.

A brain chooses moves for any game through the engine protocol only. ``think`` is a
generator that yields :class:`Thought` reports as the search improves, so a caller (the
TUI's worker, the arena, ``parlor engine``) can show progress and stop it at any time,
taking the best move so far. A brain polls ``budget.expired()`` during search, so
setting ``budget.stop`` from another thread ends the search promptly.
"""

from __future__ import annotations

import math
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, ClassVar

from brains.options import BrainOption, UnknownBrainError, resolve
from engine.protocol import AnyState

__all__ = ["Brain", "BrainOption", "Budget", "Thought", "UnknownBrainError"]


def monotonic() -> float:
    """The budgets' clock: ``time.monotonic``, looked up at each call (so a test that
    replaces it replaces it here too)."""
    return time.monotonic()


@dataclass(slots=True)
class Budget:
    """How long a brain may think (like python-chess's ``Limit``); None = unlimited.

    ``start()`` fixes the deadline; ``expired()`` is what searches poll. A limit out of
    range (negative or non-finite seconds, a depth or node count below 1) is a
    ValueError: a zero depth must not read as "no limit".
    """

    seconds: float | None = None
    depth: int | None = None
    nodes: int | None = None
    stop: threading.Event = field(default_factory=threading.Event, compare=False)
    deadline: float | None = field(default=None, compare=False)
    clock: Callable[[], float] = field(default=monotonic, compare=False, repr=False)
    """The clock the deadline is read on (seconds; tests give a fake one)."""

    def __post_init__(self) -> None:
        if self.seconds is not None and not (math.isfinite(self.seconds) and self.seconds >= 0):
            raise ValueError(f"budget seconds must be a finite number >= 0, not {self.seconds!r}")
        for name, value in (("depth", self.depth), ("nodes", self.nodes)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < 1):
                raise ValueError(f"budget {name} must be an integer >= 1, not {value!r}")

    def start(self) -> Budget:
        """Fix the deadline from now (idempotent); returns self."""
        if self.deadline is None and self.seconds is not None:
            self.deadline = self.clock() + self.seconds
        return self

    def expired(self) -> bool:
        """True once stopped from outside or past the deadline."""
        if self.stop.is_set():
            return True
        return self.deadline is not None and self.clock() >= self.deadline

    def remaining(self) -> float | None:
        """Seconds left before the deadline (None without one)."""
        if self.deadline is None:
            return None
        return max(0.0, self.deadline - self.clock())


@dataclass(frozen=True, slots=True)
class Thought:
    """One anytime report: the best move so far and what the search knows of it."""

    move: Any
    score: float | None = None
    """From the side to move's view; +1 = win, -1 = loss for scored searches."""
    depth: int = 0
    nodes: int = 0
    pv: tuple[Any, ...] = ()
    """Principal variation, starting with ``move``."""
    final: bool = False
    """True when the search finished (rather than was stopped)."""
    note: str = ""
    """Anything the user should know about this thought (e.g. a fallback was used)."""


class Brain:
    """Base class of every opponent; subclasses implement :meth:`think`.

    The first line of a subclass's docstring is its description in ``parlor brains``.
    A brain keeps only its configuration (and knowledge meant to last between moves,
    such as a transposition table) on itself: everything one search needs (its
    budget, deadline, counters, killer moves, path) lives in an object that ``think``
    creates, so that a search still unwinding in a cancelled worker thread never reads
    or changes the state of the next one.
    """

    name: ClassVar[str] = ""
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = ()
    """The options this brain takes (see :mod:`brains.options`)."""

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        """A brain for ``game``; ``options`` are checked against :attr:`OPTIONS`, and
        every option left out takes its default (UnknownBrainError for a bad one)."""
        self.game = game
        self.seed = seed
        self.rng = random.Random(seed)
        self.spec = spec or self.name
        self.options: dict[str, Any] = resolve(self.OPTIONS, options, game, self.name)

    @classmethod
    def named(cls, game: str) -> list[str]:
        """The things configured for ``game`` that this brain's spec can name after the
        colon (``external:edax``); only brains listed in ``brains.registry.NAMED`` take
        a name, and every other brain has none."""
        return []

    def default_budget(self) -> Budget:
        """The budget this brain uses when the caller gives none."""
        return Budget()

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """Yield improving thoughts about ``state`` until done or the budget is spent."""
        raise NotImplementedError

    def choose(self, state: AnyState, budget: Budget | None = None) -> Any:
        """The move this brain plays in ``state`` (the last thought's move)."""
        budget = (budget or self.default_budget()).start()
        best = None
        for thought in self.think(state, budget):
            best = thought
        if best is None:  # stopped before any thought: any legal move beats none
            moves = state.legal_moves()
            if not moves:
                raise ValueError("no legal moves: the game is over")
            return self.rng.choice(moves)
        return best.move

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """A score per legal move from the side to move's view (default: the greedy child value)."""
        raise NotImplementedError(f"{self.name} cannot analyse positions")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.spec} game={self.game} seed={self.seed}>"
