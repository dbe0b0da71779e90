"""Who plays each side: ``human`` or a brain spec, and how the TUI builds brains.

Brains come from ``brains.registry`` (``make_brain`` / ``list_brains``); a brain that
cannot be built is an error shown to the user, never replaced by another. Every spec
the TUI accepts is one the record reader accepts back (it is written as the First or
Second tag), and a spec read from a record never loads a model from a path.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from brains import registry
from brains.protocol import Brain
from engine.protocol import ParlorError
from engine.record import MAX_TAG_VALUE

HUMAN = "human"
"""The spec of a side played from the keyboard."""
DEFAULT_OPPONENT = "random"
"""The opponent named when a caller names none and the game offers no better."""
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


GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("People", (HUMAN,)),
    ("Rated levels (1 weakest, 8 strongest)", ("level",)),
    ("Exact (the game is solved)", ("perfect", "table")),
    ("Search (the level sets how far it looks)", ("alphabeta", "minimax-tt", "minimax")),
    ("Simulation", ("mcts",)),
    ("Learned from play", ("mlp", "linear", "qlearn")),
    ("Beginners", ("greedy", "random")),
)
"""The opponent chooser's groups, strongest kinds first; brains not named go last."""
DESCRIPTIONS = {
    HUMAN: "a person at the keyboard",
    "level": "a rung of the game's rated ladder",
    "perfect": "never makes a mistake where the game is solved; names any fallback",
    "table": "a table of every position's best move, learned by full search",
    "alphabeta": "looks ahead with pruning; hard is the strongest general player",
    "minimax-tt": "looks ahead, remembering positions it has seen",
    "minimax": "looks ahead every way (slower than alphabeta at the same depth)",
    "mcts": "plays out many random games per move (Monte Carlo tree search)",
    "mlp": "a small neural network trained on games, with a short search",
    "linear": "a learned linear evaluation, with a short search",
    "qlearn": "learned by trial and error (Q-learning)",
    "greedy": "takes what looks best right now, one move deep: weak",
    "random": "any legal move at random: the weakest",
}
"""What each kind of opponent is and how strong, in a line."""


def describe_spec(spec: str) -> str:
    """A line saying what ``spec`` is (its kind's description)."""
    name = spec.partition(":")[0].partition(",")[0].strip().lower()
    return DESCRIPTIONS.get(name, "")


def grouped_choices(specs: list[str], heading: object,
                    game_id: str | None = None) -> list[tuple[str, object]]:
    """``specs`` as chooser entries: each group's heading (with the value ``heading``)
    and then its specs, each with its description (a rated level's rating, given the
    game)."""
    def kind(spec: str) -> str:
        return spec.partition(":")[0].partition(",")[0].strip().lower()

    placed: set[str] = set()
    out: list[tuple[str, object]] = []
    groups = [*GROUPS, ("Others", tuple(sorted({kind(s) for s in specs} -
                                               {k for _, ks in GROUPS for k in ks})))]
    for title, kinds in groups:
        members = [s for k in kinds for s in specs if kind(s) == k and s not in placed]
        if not members:
            continue
        out.append((f"── {title} ──", heading))
        for spec in members:
            placed.add(spec)
            about = describe_spec(spec)
            if kind(spec) == "level" and game_id is not None:
                about = rating_label(spec, game_id) or about
            out.append((f"  {spec}" + (f": {about}" if about else ""), spec))
    return out


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


RD_FLOOR = 30.0
"""The least deviation a level's rating is given in the player's rating update: even a
level with a narrow interval is a measured guess, and a deviation near 0 would let one
game against it move the player's rating as if its strength were known exactly."""


@dataclass(frozen=True, slots=True)
class RatedLevel:
    """The rung of ``game``'s rated ladder a spec plays, and its measured rating."""

    level: int
    spec: str
    """The rung's own spec (e.g. ``alphabeta,depth=2``)."""
    rating: float
    """On the ladder's scale (``random`` = 0)."""
    deviation: float
    """The half-width of the rating's 95 % interval / 1.96, at least :data:`RD_FLOOR`."""


def level_ratings(game_id: str) -> dict[str, float]:
    """``level:N`` -> the rung's measured rating, for every rung of ``game_id``'s ladder
    (empty when the game has no usable ratings)."""
    try:
        return {f"{registry.LADDER_BRAIN}:{row['level']}": float(row["rating"])
                for row in registry.ladder_table(game_id)}
    except (ValueError, AttributeError):  # no ladder, or a damaged ratings file
        return {}


def rated_level(spec: str, game_id: str) -> RatedLevel | None:
    """The rated rung ``spec`` plays in ``game_id``, or None: ``level:N``,
    ``level:medium``, ``level,rating=R``, ``alphabeta,rating=R`` and any spec whose
    brain and options are those of a rung (e.g. the rung's own spec) are rated. Nothing
    is built; a spec that does not resolve is simply not rated."""
    from brains.ladder import rung_for_rating

    try:
        rows = registry.ladder_table(game_id)
        cls, options = registry.resolve_spec(spec, game_id)
        if not rows:
            return None
        if registry.parse_spec(spec)[0] == registry.LADDER_BRAIN:
            level = options.get("level")
            if level is None:
                rating = options.get("rating")
                level = ((len(rows) + 1) // 2 if rating is None
                         else rung_for_rating(game_id, rating))
        else:
            level = next((row["level"] for row in rows
                          if registry.resolve_spec(row["spec"], game_id) == (cls, options)),
                         None)
    except (ValueError, AttributeError):  # not a brain, no ladder, damaged ratings
        return None
    row = next((row for row in rows if row["level"] == level), None)
    if row is None:
        return None
    half = max(row["rating"] - row["lo"], row["hi"] - row["rating"])
    return RatedLevel(int(row["level"]), str(row["spec"]), float(row["rating"]),
                      max(half / 1.96, RD_FLOOR))


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
        raise ParlorError(problem)
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


NOT_OFFERED = frozenset({"external"})
"""Brains rooms do not offer (external engines run programs of the host's own configuration)."""

@functools.cache
def room_brains(game_id: str) -> tuple[str, ...]:
    """The brain specs a room of ``game_id`` may put in a seat, as the chooser lists them
    (an empty tuple when the game's brains cannot be listed)."""
    try:
        specs = brain_specs(game_id)
    except ValueError:
        return ()
    return tuple(s for s in specs if registry.parse_spec(s)[0] not in NOT_OFFERED)
