"""The ``level`` brain: a rung of the game's rated ladder (see :mod:`brains.ladder`).

``level:5`` plays the fifth rung, ``level,rating=1200`` the rung rated closest to 1200.
It builds the rung's brain through the registry, which names this class by its path
(``brains.level:LevelBrain``) and so never imports this module itself: the ladder's data
(:mod:`brains.ladder`) is below the registry, this brain above it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, ClassVar

from brains.ladder import RATING, RUNG, ladder, rung_for_rating
from brains.options import BrainOption, UnknownBrainError
from brains.protocol import Brain, Budget, Thought
from brains.registry import make_brain
from engine.protocol import AnyState


class LevelBrain(Brain):
    """A rung of the game's rated ladder: level:N, or level,rating=R for the closest one."""

    name = "level"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (RUNG, RATING)

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        rungs = ladder(game)
        level, rating = self.options["level"], self.options["rating"]
        if level is not None and rating is not None:
            raise UnknownBrainError("level: give a rung (level:N) or a rating, not both")
        if level is None:
            level = (rung_for_rating(game, rating) if rating is not None
                     else (len(rungs) + 1) // 2)
        if level > len(rungs):
            raise UnknownBrainError(f"level: {game}'s ladder has {len(rungs)} rungs, "
                                    f"not {level}")
        self.level: int = level
        self.rung_spec = rungs[level - 1]
        self.inner: Brain = make_brain(self.rung_spec, game, seed=seed)

    def default_budget(self) -> Budget:
        return self.inner.default_budget()

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """The rung's brain's thoughts."""
        return self.inner.think(state, budget)

    def choose(self, state: AnyState, budget: Budget | None = None) -> Any:
        return self.inner.choose(state, budget)

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        return self.inner.analyse(state, budget)
