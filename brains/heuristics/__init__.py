"""What the brains know about each game: one module per game, found through :data:`MODULES`.

Every game in :data:`engine.registry.GAMES` has exactly one line in :data:`MODULES`
naming its module (``brains.heuristics.<game>`` by convention). :func:`game_module`
imports it and checks it against :data:`SCHEMA`, so a game without its module, or a
module missing a part, is a clear :class:`GameKnowledgeError` naming what is missing,
never a silently weaker brain. :func:`check_games` runs that check for every registered
game; :mod:`brains.registry` calls it when it builds its level tables, so the check runs
whenever a brain is made.

The parts of a game module (all required; the types are checked):

- ``HEURISTICS: dict[str, Callable[[AnyState], float]]`` — evaluations from the side to
  move's view, in [-1, 1], by name;
- ``DEFAULT: str`` — the key of ``HEURISTICS`` used when none is asked for;
- ``FEATURE_NAMES: tuple[str, ...]`` and ``features(state)`` — the numbers the
  heuristics are built on, from the side to move's view (also the inputs of the
  ``linear`` and ``mlp`` learners);
- ``MINIMAX_DEPTHS: tuple[int, int, int]`` — plain minimax depth at easy / medium / hard;
- ``ALPHABETA_DEPTHS: tuple[int, int]`` — alpha-beta depth at easy / medium (hard is
  timed by ``GAME_CLOCK``);
- ``GAME_CLOCK: float`` — seconds ``alphabeta:hard`` may think over a whole game;
- ``TRAPS: bool`` — alpha-beta, having solved the position, prefers among equal moves
  the one whose replies lose most often (medium and hard);
- ``REPETITION: bool`` — positions can recur, so alpha-beta scores a repetition as a draw;
- ``ENDGAME: bool`` — ``alphabeta:hard`` first asks the ``outcomes`` of the module's
  ``EXACT`` hook which moves keep the best outcome (the hook is then required);
- ``PERFECT: dict | None`` — the options of the ``perfect`` brain for this game
  (``{"method": "search"}`` for a full search), None where it cannot play it;
- ``OPENING_PLIES: int`` — random plies the arena plays before the brains take over;
- ``LADDER: tuple[str, ...]`` — the rated levels, brain specs from the weakest to the
  strongest, at least eight (see :mod:`brains.ladder`; ``level:N`` plays the Nth);
- ``LEARNED: dict[str, dict]`` — the training recipe of each generic learner that has a
  model for this game: ``"linear"`` (see :mod:`brains.learned.linear`) and ``"mlp"``
  (``games`` plus the network recipe, see :mod:`brains.learned.mlp`); a learner not
  listed does not play the game.

Optional hooks, used when present: ``moves_left(state)`` and ``time_factor(state)``
(:mod:`brains.timeman`), ``EXACT``, the game's exact solver (a
:class:`brains.exact.ExactSolver`: the analysis' and hints' exact values, alpha-beta's
endgame where ``ENDGAME`` is true, the ``perfect`` brain's method where ``PERFECT`` names
it, ``parlor solve``), and for puzzles (:mod:`brains.puzzles`) ``canonical_key(state)``
(one key for a position and its symmetric images) and ``puzzle_ready(state)`` (the exact
solver settles it quickly), and ``TEACHER_MODELS`` (a tuple of brain specs, each bounded
by depth or nodes: the fallible opponents the ``perfect`` brain's teacher plays each
candidate out against, :mod:`brains.perfect`; without it the teacher looks one reply
ahead).

Search code never imports a game: it asks :func:`get_heuristic` for a function.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from brains.exact import ExactSolver
from brains.protocol import UnknownBrainError
from engine.protocol import AnyState
from engine.registry import GAMES

Heuristic = Callable[[AnyState], float]
"""A position evaluation from the side to move's view, in [-1, 1]."""

MODULES: dict[str, str] = {
    "checkers": "brains.heuristics.checkers",
    "connect4": "brains.heuristics.connect4",
    "gomoku": "brains.heuristics.gomoku",
    "morris": "brains.heuristics.morris",
    "reversi": "brains.heuristics.reversi",
    "tictactoe": "brains.heuristics.tictactoe",
}
"""Game id -> the module holding what the brains know about it (one line per game)."""

LEARNERS = ("linear", "mlp")
"""The generic learners a game module may give a recipe for in ``LEARNED``."""


def _depths(count: int) -> Callable[[Any], bool]:
    return lambda v: (isinstance(v, tuple) and len(v) == count
                      and all(isinstance(d, int) and d >= 1 for d in v))


SCHEMA: dict[str, tuple[str, Callable[[Any], bool]]] = {
    "HEURISTICS": ("a dict of name -> function", lambda v: isinstance(v, dict) and bool(v)
                   and all(isinstance(k, str) and callable(f) for k, f in v.items())),
    "DEFAULT": ("the name of one of HEURISTICS", lambda v: isinstance(v, str)),
    "FEATURE_NAMES": ("a tuple of names", lambda v: isinstance(v, tuple)
                      and all(isinstance(n, str) for n in v)),
    "features": ("a function of a state", callable),
    "MINIMAX_DEPTHS": ("three depths (easy, medium, hard)", _depths(3)),
    "ALPHABETA_DEPTHS": ("two depths (easy, medium)", _depths(2)),
    "GAME_CLOCK": ("seconds (a positive number)",
                   lambda v: isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0),
    "TRAPS": ("True or False", lambda v: isinstance(v, bool)),
    "REPETITION": ("True or False", lambda v: isinstance(v, bool)),
    "ENDGAME": ("True or False", lambda v: isinstance(v, bool)),
    "PERFECT": ("a dict of options, or None", lambda v: v is None or isinstance(v, dict)),
    "OPENING_PLIES": ("a number of plies (0 or more)",
                      lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0),
    "LADDER": ("a tuple of at least eight distinct brain specs, weakest first",
               lambda v: isinstance(v, tuple) and len(v) >= 8 and len(set(v)) == len(v)
               and all(isinstance(s, str) and s.strip() == s and s for s in v)),
    "LEARNED": (f"a dict of learner ({', '.join(LEARNERS)}) -> recipe",
                lambda v: isinstance(v, dict) and all(
                    k in LEARNERS and isinstance(r, dict) for k, r in v.items())),
}
"""Every part a game module declares: name -> (what it must be, the check)."""


class GameKnowledgeError(UnknownBrainError):
    """A game without its brains module, or a module that lacks or misdeclares a part."""


_checked: dict[str, ModuleType] = {}


def game_module(game_id: str) -> ModuleType:
    """The checked module of ``game_id`` (see the module docstring for its parts).

    Raises GameKnowledgeError for a game not in :data:`MODULES` (or not registered in
    the engine), a module that cannot be imported, or a part missing or of the wrong kind.
    """
    module = _checked.get(game_id)
    if module is not None:
        return module
    if game_id not in MODULES:
        raise GameKnowledgeError(
            f"no brains module for game {str(game_id)[:60]!r}: add its line to "
            f"brains.heuristics.MODULES (known: {', '.join(MODULES)})")
    if game_id not in GAMES:
        raise GameKnowledgeError(f"brains.heuristics.MODULES lists {game_id!r}, "
                                 "which engine.registry does not register")
    module = importlib.import_module(MODULES[game_id])
    problems = [f"{name} must be {what}" for name, (what, ok) in SCHEMA.items()
                if not hasattr(module, name) or not ok(getattr(module, name))]
    if not problems and module.DEFAULT not in module.HEURISTICS:
        problems.append(f"DEFAULT {module.DEFAULT!r} is not one of HEURISTICS")
    exact = getattr(module, "EXACT", None)
    if exact is not None and not isinstance(exact, ExactSolver):
        problems.append("EXACT must be an exact solver (brains.exact.ExactSolver)")
    elif not problems and module.ENDGAME and (
            exact is None or type(exact).outcomes is ExactSolver.outcomes):
        problems.append("ENDGAME is True but its EXACT hook has no outcomes()")
    models = getattr(module, "TEACHER_MODELS", ())
    if not (isinstance(models, tuple)
            and all(isinstance(spec, str) and spec.strip() == spec and spec for spec in models)):
        problems.append("TEACHER_MODELS must be a tuple of brain specs")
    method = (module.PERFECT or {}).get("method", "search") if not problems else "search"
    if method != "search" and getattr(exact, "method", None) != method:
        problems.append(f"PERFECT's method {method!r} is not the method of its EXACT hook")
    if problems:
        raise GameKnowledgeError(f"{module.__name__} ({game_id}): " + "; ".join(problems))
    _checked[game_id] = module
    return module


def check_games() -> dict[str, ModuleType]:
    """Every registered game's checked module, by game id, in the engine's order.

    Raises GameKnowledgeError when a registered game has no module, or :data:`MODULES`
    names a game the engine does not register.
    """
    extra = [g for g in MODULES if g not in GAMES]
    if extra:
        raise GameKnowledgeError(f"brains.heuristics.MODULES lists games the engine does "
                                 f"not register: {', '.join(extra)}")
    return {game_id: game_module(game_id) for game_id in GAMES}


def exact_solver(game_id: str) -> ExactSolver | None:
    """The ``EXACT`` hook of ``game_id``'s module (:mod:`brains.exact`), None where the
    game declares none."""
    hook = getattr(game_module(game_id), "EXACT", None)
    return hook if isinstance(hook, ExactSolver) else None


def teacher_models(game_id: str) -> tuple[str, ...]:
    """The ``TEACHER_MODELS`` of ``game_id``'s module: the brain specs the teacher plays
    its candidates out against (empty where the game declares none)."""
    models: tuple[str, ...] = getattr(game_module(game_id), "TEACHER_MODELS", ())
    return models


def solvable_games() -> list[str]:
    """The registered games ``parlor solve`` solves (their hook's ``solves``), in order."""
    return [g for g in GAMES if (hook := exact_solver(g)) is not None and hook.solves]


def heuristics_module(game_id: str) -> ModuleType:
    """The module holding ``game_id``'s heuristics (:func:`game_module`)."""
    return game_module(game_id)


def list_heuristics(game_id: str) -> list[str]:
    """The names of ``game_id``'s heuristics, the default first."""
    module = game_module(game_id)
    names = list(module.HEURISTICS)
    names.remove(module.DEFAULT)
    return [module.DEFAULT, *names]


def get_heuristic(game_id: str, name: str | None = None) -> Heuristic:
    """``game_id``'s hand-written heuristic ``name`` (the game's default when None).

    An unknown name raises UnknownBrainError listing the names that exist. The learned
    evaluations (``mlp``) are resolved one layer up, by :func:`brains.evaluation.evaluation`.
    """
    module = game_module(game_id)
    key = module.DEFAULT if name is None else name.strip().lower().replace("-", "_")
    try:
        heuristic: Heuristic = module.HEURISTICS[key]
    except KeyError:
        known = ", ".join(list_heuristics(game_id))
        raise UnknownBrainError(
            f"unknown heuristic {str(name)[:60]!r} for {game_id}; known: {known}"
        ) from None
    return heuristic
