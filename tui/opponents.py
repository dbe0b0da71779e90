"""Who plays each side: ``human`` or a brain spec, and how the TUI builds brains.

Brains come from ``brains.registry`` (``make_brain`` / ``list_brains``); a brain that
cannot be built is an error shown to the user, never replaced by another. Every spec
the TUI accepts is one the record reader accepts back (it is written as the First or
Second tag), and a spec read from a record never loads a model from a path.
"""

from __future__ import annotations

from brains import registry
from brains.protocol import Brain
from engine.record import MAX_TAG_VALUE

HUMAN = "human"
"""The spec of a side played from the keyboard."""
DEFAULT_OPPONENT = "random"
"""The opponent named when a caller names none and the game offers no better."""
HINT_SECONDS = 1.0
"""Thinking time for a hint."""
PATH_OPTIONS = frozenset({"model"})
"""Brain options that name a file: never taken from a record."""


def _quote(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def brain_specs(game_id: str) -> list[str]:
    """Every brain spec (with its levels) that can play ``game_id``, for menus.

    Raises what the registry raises (a brain module that does not load is an error)."""
    specs: list[str] = []
    for item in registry.list_brains(game_id):
        if item.ladder:  # the rated levels: one entry per rung
            specs.extend(f"{item.name}:{row['level']}" for row in item.ladder)
            continue
        distinct = {repr(sorted(options.items())) for options in item.levels.values()}
        if len(distinct) > 1:
            specs.extend(f"{item.name}:{level}" for level in item.levels)
        else:
            specs.append(item.name)
    return specs


def rating_label(spec: str, game_id: str) -> str | None:
    """``"rated 950 ± 160"`` for a rung of the rated ladder (``level:N``), else None."""
    name, level, options = registry.parse_spec(spec)
    if name != registry.LADDER_BRAIN or options or level is None or not level.isdigit():
        return None
    for row in registry.ladder_table(game_id):
        if row["level"] == int(level):
            half = max(row["rating"] - row["lo"], row["hi"] - row["rating"])
            return f"rated {round(row['rating'])} ± {round(half)}"
    return None


def default_opponent(game_id: str) -> str:
    """A sensible first opponent for ``game_id`` (a middle level if there is one)."""
    specs = brain_specs(game_id)
    for wanted in ("alphabeta:medium", "alphabeta:easy", "alphabeta"):
        if wanted in specs:
            return wanted
    return specs[0] if specs else DEFAULT_OPPONENT


def make_brain(spec: str, game_id: str, seed: int | None = None) -> Brain:
    """The brain for ``spec`` playing ``game_id``; ValueError for an unknown spec."""
    return registry.make_brain(spec, game_id, seed=seed)


def is_human(spec: str) -> bool:
    """True if ``spec`` means a person at the keyboard."""
    return spec.strip().lower() == HUMAN


def spec_problem(spec: str) -> str | None:
    """Why ``spec`` cannot be written to a record and read back, or None if it can."""
    if len(spec) > MAX_TAG_VALUE:
        return f"player {_quote(spec)} is too long ({len(spec)} characters; limit {MAX_TAG_VALUE})"
    if not spec.isprintable():
        return f"player {_quote(spec)} contains control characters"
    return None


def check_spec(spec: str, game_id: str) -> str:
    """``spec`` normalised, after checking it names a side that can play ``game_id`` and
    that a record can keep it; ValueError says why not."""
    norm = spec.strip().lower()
    problem = spec_problem(norm)
    if problem:
        raise ValueError(problem)
    if norm != HUMAN:
        make_brain(norm, game_id, seed=0)
    return norm


def record_spec_problem(spec: str) -> str | None:
    """Why a player read from a record may not play, or None.

    A record is data from anywhere: a spec in it that names a file (``model=PATH``) is
    refused, so resuming or playing on from a record never loads a model from a path.
    """
    problem = spec_problem(spec)
    if problem:
        return problem
    if is_human(spec):
        return None
    try:
        _, _, options = registry.parse_spec(spec)
    except ValueError as exc:
        return str(exc)
    named = sorted(PATH_OPTIONS & set(options))
    if named:
        return (f"player {_quote(spec)} from the record names a file ({named[0]}=); "
                f"a brain from a record never loads a model from a path")
    return None
