"""The brain registry: spec strings, the level table, and ``make_brain``.

A brain spec is ``NAME[:LEVEL][,KEY=VALUE,...]``:

- ``NAME`` is a key of :data:`BRAINS` (``alphabeta``, ``mcts``, …);
- ``LEVEL`` is ``easy``, ``medium`` or ``hard`` (default ``medium``); each level is a
  row of options in :data:`LEVELS`, possibly different per game. For the ``level``
  brain it is a rung of the game's rated ladder instead: ``level:5`` (see
  :mod:`brains.ladder`);
- ``rating=R`` on any other brain (``alphabeta,rating=1200``) plays the rung of the
  ladder played by that brain whose measured rating is closest to R;
- each ``KEY=VALUE`` overrides one option, e.g. ``alphabeta:hard,eval=weight_place,
  seconds=1.5`` or ``mcts,simulations=300,rollout=heuristic``. The options a brain
  takes are its class's ``OPTIONS``, typed definitions from :mod:`brains.options`
  (``parlor brains`` lists them with their ranges and defaults); ``none`` clears a
  limit where the definition allows it (``alphabeta,depth=none,seconds=2``), and
  booleans read ``true/false``. Every value (given, from a level row, or forced for a
  game) is checked against its definition; a bad one is refused with its range.

Registering a brain is one line in :data:`BRAINS` (its levels are optional rows in
:data:`LEVELS`; without them every level means the class defaults). Which games a
brain can play, when not all, is decided here too (:data:`ONLY_FOR`), never inside a
search. A registered brain whose class cannot be imported is an error, never skipped.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from brains.heuristics import LEARNERS, check_games
from brains.ladder import RATING, ladder, load_ratings, named_rung, rung_for_rating
from brains.learned.patterns import GAMES as PATTERNS_GAMES
from brains.learned.qlearn import GAMES as QLEARN_GAMES
from brains.learned.table import GAMES as TABLE_GAMES
from brains.options import by_name, quote, resolve
from brains.protocol import Brain, UnknownBrainError
from engine.registry import get_game

BRAINS: dict[str, str] = {
    "random": "brains.random_brain:RandomBrain",
    "greedy": "brains.greedy:GreedyBrain",
    "minimax": "brains.minimax:MinimaxBrain",
    "minimax-tt": "brains.minimax:MinimaxTTBrain",
    "alphabeta": "brains.alphabeta:AlphaBetaBrain",
    "mcts": "brains.mcts:MCTSBrain",
    "perfect": "brains.perfect:PerfectBrain",
    "table": "brains.learned.table:TableBrain",
    "qlearn": "brains.learned.qlearn:QLearnBrain",
    "linear": "brains.learned.linear:LinearBrain",
    "mlp": "brains.learned.mlp:MLPBrain",
    "patterns": "brains.learned.patterns:PatternsBrain",
    "external": "brains.external:ExternalBrain",
    "level": "brains.level:LevelBrain",
}
"""Brain name -> ``module:Class``. Every entry must import (tests/brains/test_registry.py
imports each): a missing module is a :class:`BrokenBrainError`, not a missing brain."""

NAMED: dict[str, str] = {"external": "engine"}
"""Brains whose spec names a thing after the colon instead of a level
(``external:edax``): brain -> the option that takes the name."""

MAX_SPEC = 200
"""Characters a brain spec may have (a record stores it whole)."""

LEVEL_NAMES = ("easy", "medium", "hard")
LADDER_BRAIN = "level"
"""The brain that plays a rung of the rated ladder (its ``:LEVEL`` is the rung number)."""
DEFAULT_LEVEL = "medium"

_GAME_MODULES = check_games()
"""Every registered game's brains module (brains.heuristics): the per-game tables below
are read from them, so a game without one, or missing a part, fails here, at start."""

MINIMAX_DEPTHS: dict[str, tuple[int, int, int]] = {
    game: module.MINIMAX_DEPTHS for game, module in _GAME_MODULES.items()}
"""Plain minimax depth per game at easy / medium / hard."""

ALPHABETA_DEPTHS: dict[str, tuple[int, int]] = {
    game: module.ALPHABETA_DEPTHS for game, module in _GAME_MODULES.items()}
"""Alpha-beta depth per game at easy / medium (hard is timed)."""

GAME_CLOCK: dict[str, float] = {
    game: float(module.GAME_CLOCK) for game, module in _GAME_MODULES.items()}
"""Seconds of thinking ``alphabeta:hard`` may spend on a whole game."""

TRAPS: dict[str, bool] = {game: True for game, module in _GAME_MODULES.items() if module.TRAPS}
"""Games where alpha-beta, having solved the position, picks among equal moves the one
whose replies lose most often (medium and hard)."""
REPETITION: dict[str, bool] = {
    game: True for game, module in _GAME_MODULES.items() if module.REPETITION}
"""Games where a position can recur: alpha-beta scores a repetition as a draw."""
ENDGAME: dict[str, bool] = {game: True for game, module in _GAME_MODULES.items() if module.ENDGAME}
"""Games where ``alphabeta:hard`` first asks the game's exact solver (within half of the
move's time) which moves keep the best outcome, and searches among those only."""


def _per_game(table: Mapping[str, tuple[int, ...]], index: int) -> dict[str, int]:
    return {game: depths[index] for game, depths in table.items()}


LEVELS: dict[str, dict[str, dict[str, Any]]] = {
    "minimax": {
        level: {"depth": _per_game(MINIMAX_DEPTHS, i), "seconds": 10.0}
        for i, level in enumerate(LEVEL_NAMES)
    },
    "alphabeta": {
        "easy": {"depth": _per_game(ALPHABETA_DEPTHS, 0), "seconds": 10.0},
        "medium": {"depth": _per_game(ALPHABETA_DEPTHS, 1), "seconds": 10.0,
                   "traps": TRAPS, "repetition": REPETITION},
        "hard": {"depth": None, "clock": GAME_CLOCK, "max_seconds": 3.0,
                 "traps": TRAPS, "repetition": REPETITION, "endgame": ENDGAME},
    },
    "mcts": {
        "easy": {"simulations": 200, "seconds": 1.0},
        "medium": {"simulations": 1000, "seconds": 2.0},
        "hard": {"simulations": 5000, "seconds": 3.0},
    },
}
"""Brain -> level -> options. A value that is a dict is looked up by game id."""
LEVELS["minimax-tt"] = LEVELS["minimax"]

PERFECT: dict[str, dict[str, Any]] = {
    game: dict(module.PERFECT) for game, module in _GAME_MODULES.items()
    if module.PERFECT is not None}
"""The games ``perfect`` can play, and how."""

ONLY_FOR: dict[str, dict[str, dict[str, Any]]] = {
    "perfect": PERFECT,
    "table": {game: {} for game in TABLE_GAMES},
    "qlearn": {game: {} for game in QLEARN_GAMES},
    "patterns": {game: {} for game in PATTERNS_GAMES},
    **{learner: {game: {} for game, module in _GAME_MODULES.items()
                 if learner in module.LEARNED}
       for learner in LEARNERS},
}
"""Brains that play only some games: brain -> game -> options forced for that game."""


class BrokenBrainError(UnknownBrainError):
    """A registered brain's class cannot be imported (a broken install or a typo in
    :data:`BRAINS`). A ValueError like every brain error, so every caller that shows
    a bad spec as one line shows this one too."""


@dataclass(frozen=True)
class BrainInfo:
    """What ``parlor brains`` shows for one brain."""

    name: str
    description: str
    options: tuple[dict[str, Any], ...]
    """Each option's definition as plain data (see ``BrainOption.describe``)."""
    levels: dict[str, dict[str, Any]] = field(default_factory=dict)
    games: tuple[str, ...] | None = None
    """The games it plays; None for all."""
    ladder: tuple[dict[str, Any], ...] = ()
    """For ``level`` in one game: each rung's ``level``, ``spec``, ``rating``, ``lo``
    and ``hi`` (the 95 % interval), from the shipped ratings file."""


def parse_spec(spec: str) -> tuple[str, str | None, dict[str, str]]:
    """``"alphabeta:hard,seconds=2"`` -> ``("alphabeta", "hard", {"seconds": "2"})``.

    Only the syntax is checked here (UnknownBrainError for a bad one); the values are
    checked by :func:`make_brain` against the brain's option definitions.
    """
    spec = str(spec).strip()
    if len(spec) > MAX_SPEC:
        raise UnknownBrainError(f"brain spec {quote(spec)} is longer than {MAX_SPEC} characters")
    head, *pairs = [part.strip() for part in spec.split(",")]
    name, _, level = head.partition(":")
    options: dict[str, str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UnknownBrainError(f"brain option {quote(pair)} in {quote(spec)} is not KEY=VALUE")
        key = key.strip().lower()
        if key in options:
            raise UnknownBrainError(f"brain option {quote(key)} is given twice in {quote(spec)}")
        options[key] = value.strip()
    return name.strip().lower(), (level.strip().lower() or None), options


def brain_class(name: str) -> type[Brain]:
    """The class registered as ``name``.

    UnknownBrainError (listing the known names) for a name not in :data:`BRAINS`;
    BrokenBrainError for a registered one whose class cannot be imported.
    """
    path = BRAINS.get(name)
    if path is None:
        raise UnknownBrainError(f"unknown brain {quote(name)}; known: {', '.join(BRAINS)}")
    module, _, attr = path.partition(":")
    try:
        cls = getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as exc:  # registered but missing: an error, not a skip
        raise BrokenBrainError(
            f"brain {name!r} is registered as {path} but cannot be imported: {exc}") from exc
    if not (isinstance(cls, type) and issubclass(cls, Brain)):
        raise BrokenBrainError(f"brain {name!r} is registered as {path}, which is not a Brain")
    return cls


def available_brains() -> list[str]:
    """Names of the registered brains (every one must import: see :func:`brain_class`)."""
    return list(BRAINS)


def level_options(name: str, level: str, game_id: str) -> dict[str, Any]:
    """The options ``name:level`` sets in ``game_id``.

    A value that is a dict is looked up by game id; a game it leaves out gets the
    option's default (the option is not set).
    """
    row = LEVELS.get(name, {}).get(level, {})
    return {k: (v[game_id] if isinstance(v, dict) else v) for k, v in row.items()
            if not isinstance(v, dict) or game_id in v}


def check_available(name: str, game_id: str) -> dict[str, Any]:
    """The options forced for ``name`` in ``game_id``; a clear error if it cannot play it."""
    games = ONLY_FOR.get(name)
    if games is None:
        return {}
    if game_id not in games:
        raise UnknownBrainError(
            f"{name} play is not available for {game_id}; choose alphabeta:hard or "
            f"mcts:hard ({name} plays: {', '.join(sorted(games))})"
        )
    return dict(games[game_id])


def resolve_spec(spec: str, game_id: str) -> tuple[type[Brain], dict[str, Any]]:
    """The class a spec names and every option's checked value in ``game_id``.

    The level row, the options forced for the game and the spec's own options are
    each checked against the class's definitions; options left out take their
    defaults. Nothing is built and no model is loaded.
    """
    game = get_game(game_id).id
    name, level, given = parse_spec(spec)
    if name in NAMED and level is not None and level not in LEVEL_NAMES:
        given = {NAMED[name]: level, **given}
        level = None
    cls = brain_class(name)
    if name == LADDER_BRAIN:
        return cls, _ladder_options(cls, game, level, given)
    if "rating" in given:
        return resolve_spec(_rated_rung(name, game, level, given), game)
    forced = check_available(name, game)
    level = level or DEFAULT_LEVEL
    if level not in LEVEL_NAMES:
        raise UnknownBrainError(
            f"unknown level {quote(level)} for {name}; known: {', '.join(LEVEL_NAMES)}")
    table = by_name(cls.OPTIONS)
    options: dict[str, Any] = {}
    for where, values in ((f"{name}:{level} in {game}", level_options(name, level, game)),
                          (f"{name} in {game}", forced)):
        for key, value in values.items():
            if key not in table:
                raise UnknownBrainError(f"{where}: {key!r} is not an option of {name}")
            options[key] = table[key].value(value, game, where)
    for key, text in given.items():
        if key not in table:
            known = ", ".join(table) or "none"
            raise UnknownBrainError(f"{name}: unknown option {quote(key)}; options: {known}")
        options[key] = table[key].value(text, game, name)
    return cls, resolve(cls.OPTIONS, options, game, name)


def _ladder_options(cls: type[Brain], game: str, level: str | None,
                    given: dict[str, str]) -> dict[str, Any]:
    """The options of ``level[:N][,…]``: ``:N`` is the rung (the ``level`` option);
    ``:easy``, ``:medium`` and ``:hard`` are the rungs a quarter, half and all the way up."""
    given = dict(given)
    if level in LEVEL_NAMES:
        level = str(named_rung(game, level))
    if level is not None:
        if "level" in given:
            raise UnknownBrainError(f"{LADDER_BRAIN}: the rung is given twice "
                                    f"(:{quote(level)} and level=)")
        given["level"] = level
    table = by_name(cls.OPTIONS)
    options: dict[str, Any] = {}
    for key, text in given.items():
        if key not in table:
            raise UnknownBrainError(f"{LADDER_BRAIN}: unknown option {quote(key)}; "
                                    f"options: {', '.join(table)}")
        options[key] = table[key].value(text, game, LADDER_BRAIN)
    return resolve(cls.OPTIONS, options, game, LADDER_BRAIN)


def _rated_rung(name: str, game: str, level: str | None, given: dict[str, str]) -> str:
    """The spec of the ladder rung played by ``name`` rated closest to ``rating=``."""
    if level is not None or len(given) > 1:
        raise UnknownBrainError(f"{name}: rating= picks a rung of the ladder, which sets "
                                "every option; give it alone")
    rating = RATING.value(given["rating"], game, name)
    if rating is None:
        raise UnknownBrainError(f"{name}: option rating=none picks no rung")
    return ladder(game)[rung_for_rating(game, rating, name) - 1]


def check_spec(spec: str, game_id: str) -> None:
    """Raise UnknownBrainError (or UnknownGameError) if ``spec`` is not a valid brain
    for ``game_id``; builds nothing."""
    resolve_spec(spec, game_id)


def make_brain(spec: str, game_id: str, seed: int | None = None) -> Brain:
    """A new brain for ``game_id`` from a spec string (see the module docstring).

    Raises UnknownGameError for an unknown game, and UnknownBrainError (a ValueError)
    for an unknown brain, level or option, a value outside its option's range, or a
    brain that cannot play that game.
    """
    cls, options = resolve_spec(spec, game_id)
    return cls(get_game(game_id).id, seed=seed, spec=str(spec).strip(), **options)


def list_brains(game_id: str | None = None) -> list[BrainInfo]:
    """Every registered brain (only those that play ``game_id`` when it is given)."""
    if game_id is not None:
        game_id = get_game(game_id).id
    out = []
    for name in BRAINS:
        games = ONLY_FOR.get(name)
        if game_id is not None and games is not None and game_id not in games:
            continue
        cls = brain_class(name)
        doc = (cls.__doc__ or name).strip().splitlines()[0]
        if name in NAMED and game_id is not None:
            # one entry per configured thing (external:edax), none when nothing is set up
            out += [BrainInfo(f"{name}:{thing}", doc, ()) for thing in cls.named(game_id)]
            continue
        if game_id is None:
            levels = {lv: dict(LEVELS.get(name, {}).get(lv, {})) for lv in LEVEL_NAMES}
        else:
            levels = {lv: {**level_options(name, lv, game_id), **(games or {}).get(game_id, {})}
                      for lv in LEVEL_NAMES}
        options = tuple(option.describe(game_id) for option in cls.OPTIONS)
        rungs: tuple[dict[str, Any], ...] = ()
        if name == LADDER_BRAIN:
            levels = {}
            if game_id is not None:
                rungs = ladder_table(game_id)
        out.append(BrainInfo(name, doc, options, levels,
                             tuple(sorted(games)) if games is not None else None, rungs))
    return out


def ladder_table(game_id: str) -> tuple[dict[str, Any], ...]:
    """Each rung of ``game_id``'s ladder: ``level``, ``spec``, and its measured
    ``rating`` with the 95 % interval ``lo``/``hi`` (RatingsFileError, one line, when
    the shipped ratings file is missing or damaged)."""
    return tuple({"level": r.level, "spec": r.spec, "rating": r.rating, "lo": r.lo, "hi": r.hi}
                 for r in load_ratings(game_id).levels)
