"""The ladder: each game's levels from weakest to strongest, and their measured ratings.

Every game module declares ``LADDER``, a tuple of brain specs from the weakest rung
to the strongest (at least :data:`MIN_RUNGS`). The weak rungs search shallowly and
choose among their moves with a ``temperature`` (a softmax over the root scores, see
:func:`brains.minimax.softmax_choice`), so they lose the way people do, by preferring
moves that only look good; the strong ones search deeper. Every rung is depth- or
node-limited, so a calibration replays the same games on any machine.

``parlor calibrate GAME`` plays the ladder (with ``random`` as the anchor, rated 0)
and writes ``saved/ratings/GAME.json``: the command, games per pairing, seed and date,
and each rung's Bradley-Terry rating with its 95 % interval. :func:`load_ratings`
reads that file through :mod:`importlib.resources` and
:func:`engine.files.read_capped`, checking every field (a damaged file is one line),
and refuses a file measured for a different ladder than the one in the code.

The ``level`` brain (:class:`brains.level.LevelBrain`) plays a rung: ``level:5`` is the fifth rung
(``level:easy``, ``:medium`` and ``:hard`` are a quarter, half and all the way up),
``level,rating=1200`` the rung rated closest to 1200; ``alphabeta,rating=1200`` is the
alpha-beta rung rated closest (see :func:`brains.registry.resolve_spec`).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
from dataclasses import dataclass
from typing import Any

from brains.heuristics import game_module
from brains.options import BrainOption, UnknownBrainError, quote

MIN_RUNGS = 8
"""Rungs every game's ladder has at least."""
MAX_RUNGS = 32
"""Rungs a ladder may have at most (the range of the ``level`` option)."""
ANCHOR = "random"
"""The brain rated 0 on every game's scale."""
FORMAT = 1
"""Version of the ratings file layout."""
MAX_BYTES = 256 * 1024
"""A ratings file larger than this is refused unread."""
MAX_RATING = 10_000.0
"""Ratings (and interval ends) beyond ±this are refused as damaged."""
PACKAGE = "saved"
FOLDER = "ratings"

RUNG = BrainOption("level", int, None, "the rung of the game's ladder to play, 1 = weakest "
                   "(`level:N` says the same); none: the rung rated closest to `rating`, "
                   "or the middle rung", low=1, high=MAX_RUNGS, nullable=True)
RATING = BrainOption("rating", float, None, "play the rung whose measured rating (random = 0) "
                     "is closest to this", low=-MAX_RATING, high=MAX_RATING, nullable=True)


class RatingsFileError(UnknownBrainError):
    """A shipped ratings file that is missing, damaged, or measured for another ladder.

    A ValueError like every brain error, so every caller shows it as one line."""


def ladder(game_id: str) -> tuple[str, ...]:
    """``game_id``'s rungs, weakest first (its module's ``LADDER``)."""
    rungs: tuple[str, ...] = game_module(game_id).LADDER
    return rungs


NAMED = {"easy": 0.25, "medium": 0.5, "hard": 1.0}
"""How far up the ladder ``level:easy``, ``level:medium`` and ``level:hard`` are."""


def named_rung(game_id: str, name: str) -> int:
    """The rung ``level:easy`` (a quarter up), ``:medium`` (half) or ``:hard`` (the top) plays."""
    return max(1, math.ceil(NAMED[name] * len(ladder(game_id))))


@dataclass(frozen=True, slots=True)
class LevelRating:
    """One rung's measured rating on its game's scale (random = 0)."""

    level: int
    spec: str
    rating: float
    lo: float
    """Lower end of the 95 % interval."""
    hi: float
    """Upper end of the 95 % interval."""


@dataclass(frozen=True, slots=True)
class LadderRatings:
    """A game's ratings file: how it was measured, and one rating per rung."""

    game: str
    command: str
    games: int
    """Games per pairing."""
    seed: int
    date: str
    levels: tuple[LevelRating, ...]
    pairs: tuple[tuple[str, str, int, int, int], ...]
    """Every pairing played: (a, b, a's wins, draws, b's wins)."""
    wall_seconds: float

    def to_json(self) -> dict[str, Any]:
        """The file's JSON object."""
        return {
            "format": FORMAT, "game": self.game, "anchor": ANCHOR, "command": self.command,
            "games_per_pair": self.games, "seed": self.seed, "date": self.date,
            "wall_seconds": round(self.wall_seconds, 1),
            "levels": [{"level": r.level, "spec": r.spec, "rating": round(r.rating, 1),
                        "lo": round(r.lo, 1), "hi": round(r.hi, 1)} for r in self.levels],
            "pairs": [{"a": a, "b": b, "a_wins": w, "draws": d, "b_wins": lost}
                      for a, b, w, d, lost in self.pairs],
        }


# --------------------------------------------------------------------------- reading


def _fail(game: str, what: str) -> RatingsFileError:
    return RatingsFileError(f"ratings file of {game} is damaged: {what}")


def _field(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], game: str,
           where: str = "") -> Any:
    if key not in obj:
        raise _fail(game, f"{where}{key} is missing")
    value = obj[key]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise _fail(game, f"{where}{key} is {quote(value)}, not {kinds[0].__name__}")
    if isinstance(value, float) and not math.isfinite(value):
        raise _fail(game, f"{where}{key} is not a finite number")
    return value


def _number(obj: dict[str, Any], key: str, game: str, where: str) -> float:
    value = float(_field(obj, key, (int, float), game, where))
    if abs(value) > MAX_RATING:
        raise _fail(game, f"{where}{key} {value:g} is out of range")
    return value


def _text(obj: dict[str, Any], key: str, game: str, where: str = "", limit: int = 200) -> str:
    value: str = _field(obj, key, str, game, where)
    if not value or len(value) > limit or not value.isprintable():
        raise _fail(game, f"{where}{key} {quote(value)} is not a line of text")
    return value


def parse_ratings(data: bytes, game_id: str, *, any_ladder: bool = False) -> LadderRatings:
    """The ratings file ``data`` of ``game_id``, every field checked against its ladder.

    Raises RatingsFileError (one line) for anything damaged: not UTF-8 JSON, a field
    missing or of the wrong type, a number out of range, an interval that does not hold
    its rating, or levels that are not the game's ladder, rung for rung. With
    ``any_ladder`` the file may be of another ladder of the game (an earlier one, whose
    games ``parlor calibrate --reuse`` takes up): everything else is checked the same.
    """
    try:
        obj = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _fail(game_id, f"not JSON ({str(exc)[:60]})") from None
    if not isinstance(obj, dict):
        raise _fail(game_id, "not a JSON object")
    if _field(obj, "format", int, game_id) != FORMAT:
        raise _fail(game_id, f"format {quote(obj['format'])} is not {FORMAT}")
    if _text(obj, "game", game_id) != game_id:
        raise _fail(game_id, f"it is for the game {quote(obj['game'])}")
    if _text(obj, "anchor", game_id) != ANCHOR:
        raise _fail(game_id, f"its anchor {quote(obj['anchor'])} is not {ANCHOR}")
    command = _text(obj, "command", game_id, limit=400)
    games = _field(obj, "games_per_pair", int, game_id)
    seed = _field(obj, "seed", int, game_id)
    if not 1 <= games <= 100_000 or not 0 <= seed < 2**32:
        raise _fail(game_id, "games_per_pair or seed is out of range")
    date = _text(obj, "date", game_id)
    try:
        _dt.date.fromisoformat(date)
    except ValueError:
        raise _fail(game_id, f"date {quote(date)} is not YYYY-MM-DD") from None
    wall = _number(obj, "wall_seconds", game_id, "")
    rows = _field(obj, "levels", list, game_id)
    rungs = ladder(game_id)
    if any_ladder:
        rungs = tuple(_text(row, "spec", game_id, f"level {k}: ") if isinstance(row, dict)
                      else "" for k, row in enumerate(rows, start=1))
    if len(rows) != len(rungs):
        raise _fail(game_id, f"{len(rows)} levels, but the ladder has {len(rungs)}: "
                             f"run parlor calibrate {game_id}")
    levels = []
    for k, (row, spec) in enumerate(zip(rows, rungs, strict=True), start=1):
        where = f"level {k}: "
        if not isinstance(row, dict):
            raise _fail(game_id, f"{where}not an object")
        if _field(row, "level", int, game_id, where) != k:
            raise _fail(game_id, f"{where}numbered {quote(row['level'])}")
        if _text(row, "spec", game_id, where) != spec:
            raise _fail(game_id, f"{where}spec {quote(row['spec'])} is not the ladder's "
                                 f"{quote(spec)}: run parlor calibrate {game_id}")
        rating, lo, hi = (_number(row, key, game_id, where) for key in ("rating", "lo", "hi"))
        if not lo <= rating <= hi:
            raise _fail(game_id, f"{where}interval [{lo:g}, {hi:g}] does not hold {rating:g}")
        levels.append(LevelRating(k, spec, rating, lo, hi))
    pairs = []
    names = {ANCHOR, *rungs}
    for k, row in enumerate(_field(obj, "pairs", list, game_id), start=1):
        where = f"pair {k}: "
        if not isinstance(row, dict):
            raise _fail(game_id, f"{where}not an object")
        a, b = _text(row, "a", game_id, where), _text(row, "b", game_id, where)
        if a not in names or b not in names:
            raise _fail(game_id, f"{where}{quote(a)} or {quote(b)} is not on the ladder")
        counts = [_field(row, key, int, game_id, where) for key in ("a_wins", "draws", "b_wins")]
        if min(counts) < 0:
            raise _fail(game_id, f"{where}a negative count")
        pairs.append((a, b, counts[0], counts[1], counts[2]))
    return LadderRatings(game_id, command, games, seed, date, tuple(levels), tuple(pairs), wall)


_cache: dict[str, LadderRatings] = {}


def load_ratings(game_id: str) -> LadderRatings:
    """``game_id``'s shipped ratings (``saved/ratings/GAME.json``), checked and cached.

    Raises RatingsFileError for a missing or damaged file (see :func:`parse_ratings`).
    """
    cached = _cache.get(game_id)
    if cached is not None:
        return cached
    from engine.files import FileReadError, MissingFileError, read_capped
    from saved import ShippedDataError, data_path

    try:
        path = data_path(PACKAGE, FOLDER, f"{game_id}.json")
        data = read_capped(path, MAX_BYTES)
    except MissingFileError:
        raise RatingsFileError(f"no ratings for {game_id}: the file saved/ratings/{game_id}"
                               f".json is missing (run parlor calibrate {game_id})") from None
    except (FileReadError, ShippedDataError) as exc:
        raise RatingsFileError(f"ratings of {game_id}: {str(exc)[:120]}") from None
    ratings = parse_ratings(data, game_id)
    _cache[game_id] = ratings
    return ratings


def rung_for_rating(game_id: str, rating: float, brain: str | None = None) -> int:
    """The 1-based rung whose measured rating is closest to ``rating`` (the weaker of
    two equally close), among the rungs played by ``brain`` when it is given.

    Raises RatingsFileError without usable ratings, UnknownBrainError when no rung is
    played by ``brain``.
    """
    levels = load_ratings(game_id).levels
    if brain is not None:
        levels = tuple(r for r in levels if r.spec.split(",")[0].split(":")[0] == brain)
        if not levels:
            raise UnknownBrainError(f"no rung of {game_id}'s ladder is played by {brain}; "
                                    "use level,rating=N")
    return min(levels, key=lambda r: (abs(r.rating - rating), r.level)).level


# --------------------------------------------------------------------------- the brain
