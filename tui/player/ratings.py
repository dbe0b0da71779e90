"""The player's own rating in each game (Glicko-2), kept in the user's data directory.

Every rated game the player finishes updates their rating for that game
(:func:`brains.glicko.update`, each game its own rating period). The ratings are on the
scale of the game's ladder (``random`` = 0, see :mod:`brains.ladder`), so a player's
rating and a level's rating compare directly. A new player starts at
:func:`start_rating`, the rating of the ladder's middle rung (the rung ``level`` plays
by default), with Glicko's deviation for a player with no games (350), so the first few
games move the rating a long way.

The ratings live in one JSON file, ``ratings.json`` in :func:`tui.player.paths.data_dir`::

    {"format": "parlor-player-ratings", "version": 1,
     "games": {"connect4": {"rating": 923.4, "deviation": 87.1, "volatility": 0.06,
                            "games": 12, "updated": "2026-11-23T18:02:11+00:00",
                            "counted": ["20261123-180002-4242-1a2b3c4d"]}}}

``counted`` holds the ids of the latest games counted (:meth:`PlayerRatings.record_once`),
so a game that is finished again (resumed from a copy left when its end could not be
saved) never counts twice.

What is read is checked field by field (engine.files.read_capped, then every value's
type and range). A game whose entry is damaged starts fresh, the others keep theirs, and
:attr:`PlayerRatings.problem` says so in one line; the damaged file is kept beside the
new one as ``ratings.json.damaged`` when the next rating is saved, so nothing is lost.

Writes are atomic (a temporary file, then ``os.replace``), and every read-modify-write
holds an exclusive ``flock`` on ``ratings.json.lock``, so two Parlor sessions finishing
games at the same moment both count.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import stat
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, cast

from brains.glicko import (
    INITIAL_DEVIATION,
    INITIAL_VOLATILITY,
    Glicko,
    check_rating,
    update,
)
from engine.files import FileReadError, read_capped, write_atomic
from engine.protocol import ParlorError, quote
from engine.registry import get_game

try:
    import fcntl
except ImportError:  # not on this platform: sessions are not serialised
    fcntl = None  # type: ignore[assignment]

FILE_NAME = "ratings.json"
FORMAT = "parlor-player-ratings"
VERSION = 1
MAX_BYTES = 1 << 20
"""Largest ratings file read (a real one is a few hundred bytes a game)."""
MAX_GAMES_COUNT = 10**9
"""Most rated games one entry may claim."""
LOCK_SECONDS = 5.0
"""How long a session waits for another to finish saving before giving up on saving."""
PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is provisional (shown with a ``?``)."""
MAX_COUNTED = 200
"""Ids of counted games kept per game (the newest; a game is counted soon after its id
is made, so older ids cannot come back)."""
_GAME_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
_COUNTED_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,79}")


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """The player's rating in one game."""

    game: str
    rating: float
    """On the game's ladder scale (see :func:`start_rating` for a new player's)."""
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY
    games: int = 0
    """Rated games played."""
    updated: str | None = None
    """When the last rated game ended (ISO 8601, UTC), or None before the first."""
    counted: tuple[str, ...] = ()
    """Ids of the latest games counted, oldest first (at most :data:`MAX_COUNTED`)."""

    @classmethod
    def fresh(cls, game: str) -> PlayerRating:
        """A new player's rating in ``game``: :func:`start_rating`, deviation 350."""
        return cls(game, start_rating(game))

    @property
    def glicko(self) -> Glicko:
        """The rating as :class:`brains.glicko.Glicko`."""
        return Glicko(self.rating, self.deviation, self.volatility)

    @property
    def provisional(self) -> bool:
        """True while the deviation is above :data:`PROVISIONAL_DEVIATION`."""
        return self.deviation > PROVISIONAL_DEVIATION

    def text(self, ascii: bool = False) -> str:
        """``1523 ± 174`` (the 95 % interval), with ``?`` while provisional; ``+/-`` for
        ``±`` when ``ascii``."""
        mark = "?" if self.provisional else ""
        plus_minus = "+/-" if ascii else "±"
        return f"{self.rating:.0f}{mark} {plus_minus} {1.96 * self.deviation:.0f}"

    def to_json(self) -> dict[str, Any]:
        """The entry as it is stored (``counted`` only once a game is counted by id)."""
        entry: dict[str, Any] = {"rating": self.rating, "deviation": self.deviation,
                                 "volatility": self.volatility, "games": self.games,
                                 "updated": self.updated}
        if self.counted:
            entry["counted"] = list(self.counted)
        return entry


def start_rating(game_id: str) -> float:
    """Where a new player's rating starts in ``game_id``: the measured rating of the
    middle rung of its ladder (on the ladder's scale, ``random`` = 0); 0, the anchor's
    rating, when the game has no usable ratings file (then no level is rated either)."""
    from brains.ladder import load_ratings

    try:
        levels = load_ratings(game_id).levels
    except (ValueError, AttributeError):  # no ladder, or a damaged ratings file
        return 0.0
    return levels[(len(levels) + 1) // 2 - 1].rating if levels else 0.0


def ratings_path() -> Path:
    """The ratings file in the user's data directory."""
    from tui.player.paths import data_dir

    return data_dir() / FILE_NAME


class PlayerRatings:
    """The ratings file at ``path`` (default :func:`ratings_path`).

    Trouble with the file never raises: :attr:`problem` holds one line about the last
    read or write that went wrong (a damaged entry, a file that cannot be saved), else
    None. Bad arguments (an unknown game, a score outside 0..1) are ValueErrors.
    """

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path = Path(path) if path is not None else ratings_path()
        self.problem: str | None = None

    # ----------------------------------------------------------------- reading

    def all(self) -> dict[str, PlayerRating]:
        """Every game's rating in the file (those damaged left out)."""
        entries, _ = self._read()
        return entries

    def current(self, game_id: str) -> PlayerRating:
        """The player's rating in ``game_id`` (a fresh one before the first rated game)."""
        game = get_game(game_id).id
        entries, _ = self._read()
        return entries.get(game) or PlayerRating.fresh(game)

    def fair_level(self, game_id: str, levels: Mapping[str, float]) -> str:
        """The spec of ``levels`` (spec -> rating, on the scale of the player's rating)
        rated closest to the player; on a tie the weaker one."""
        return closest_level(self.current(game_id).rating, levels)

    # ----------------------------------------------------------------- writing

    def record_game(self, game_id: str, opponent_rating: float, opponent_rd: float,
                    score: float) -> PlayerRating:
        """Count one finished rated game: ``score`` is the player's 1 (win), 0.5 (draw)
        or 0 (loss) against an opponent rated ``opponent_rating`` with deviation
        ``opponent_rd`` (0 for an exactly known rating; above 350 counts as 350).

        Returns the new rating. It is saved under the lock; when saving fails the new
        rating is still returned and :attr:`problem` says why it was not kept.
        """
        change = self._record(game_id, None, opponent_rating, opponent_rd, score)
        assert change is not None  # only a counted key is refused
        return change[1]

    def record_once(self, game_id: str, key: str, opponent_rating: float,
                    opponent_rd: float, score: float
                    ) -> tuple[PlayerRating, PlayerRating] | None:
        """:meth:`record_game` for the game whose id is ``key``, unless a game of that id
        was counted already: then nothing changes and the answer is None, else it is the
        rating before and after. The check and the update are one locked
        read-modify-write, so two sessions finishing the same game count it once."""
        if not isinstance(key, str) or not _COUNTED_KEY.fullmatch(key):
            raise ParlorError(f"game id {quote(str(key))} cannot key a rated game")
        return self._record(game_id, key, opponent_rating, opponent_rd, score)

    def _record(self, game_id: str, key: str | None, opponent_rating: float,
                opponent_rd: float, score: float
                ) -> tuple[PlayerRating, PlayerRating] | None:
        game = get_game(game_id).id
        opponent = opponent_glicko(opponent_rating, opponent_rd)
        try:
            with self._locked():
                entries, damaged = self._read()
                before = entries.get(game) or PlayerRating.fresh(game)
                if key is not None and key in before.counted:
                    return None
                after = rated_after(before, opponent, score, key)
                entries[game] = after
                self._write(entries, damaged)
        except (OSError, TimeoutError) as exc:
            before = self.current(game)
            if key is not None and key in before.counted:
                return None
            after = rated_after(before, opponent, score, key)
            self.problem = (f"cannot save the player's rating in {self.path}: "
                            f"{getattr(exc, 'strerror', None) or exc}")
        return before, after

    # ----------------------------------------------------------------- the file

    def _read(self) -> tuple[dict[str, PlayerRating], bool]:
        """The valid entries, and whether anything in the file was damaged (then
        :attr:`problem` says what)."""
        self.problem = None
        if not os.path.lexists(self.path):
            return {}, False
        try:
            data = json.loads(read_capped(self.path, MAX_BYTES).decode("utf-8"))
        except FileReadError as exc:
            return self._damaged({}, exc.reason)
        except UnicodeDecodeError:
            return self._damaged({}, "not UTF-8 text")
        except (ValueError, RecursionError) as exc:
            return self._damaged({}, f"not JSON ({str(exc)[:60]})")
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            return self._damaged({}, "not a Parlor ratings file")
        if data.get("version") != VERSION:
            version = data.get("version")
            shown = quote(version) if isinstance(version, str) else repr(version)[:40]
            return self._damaged({}, f"version {shown}, not {VERSION}")
        games = data.get("games")
        if not isinstance(games, dict):
            return self._damaged({}, "no table of games")
        entries: dict[str, PlayerRating] = {}
        bad: list[str] = []
        for key, value in games.items():
            try:
                entries[key] = _entry(key, value)
            except ValueError as exc:
                bad.append(f"{quote(key)}: {exc}")
        if bad:
            more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
            return self._damaged(entries, f"entry {bad[0]}{more}")
        return entries, False

    def _damaged(self, entries: dict[str, PlayerRating], reason: str
                 ) -> tuple[dict[str, PlayerRating], bool]:
        which = "those ratings start" if entries else "the ratings start"
        self.problem = (f"{self.path}: {reason}; {which} fresh (the file is kept as "
                        f"{self.path.name}.damaged when a rating is next saved)")
        return entries, True

    def _write(self, entries: dict[str, PlayerRating], damaged: bool) -> None:
        folder = self.path.parent
        folder.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "version": VERSION,
                "games": {game: entries[game].to_json() for game in sorted(entries)}}
        text = json.dumps(data, indent=1, allow_nan=False) + "\n"
        if damaged and os.path.lexists(self.path):  # kept for the player, never lost
            os.replace(self.path, self.path.with_name(self.path.name + ".damaged"))
        write_atomic(self.path, text)

    @contextlib.contextmanager
    def _locked(self) -> Iterator[None]:
        """An exclusive lock on the lock file beside the ratings, for one read-modify-write
        (TimeoutError when another session holds it longer than :data:`LOCK_SECONDS`)."""
        if fcntl is None:
            yield
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock = self.path.with_name(self.path.name + ".lock")
        flags = (os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0)
                 | getattr(os, "O_CLOEXEC", 0))
        fd = os.open(lock, flags, 0o600)
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise OSError(f"{lock.name} is not a regular file")
            deadline = time.monotonic() + LOCK_SECONDS
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    if time.monotonic() > deadline:
                        raise TimeoutError("another Parlor session keeps the ratings "
                                           "locked") from None
                    time.sleep(0.01)
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            os.close(fd)


def opponent_glicko(rating: float, deviation: float) -> Glicko:
    """An opponent's rating and deviation as :class:`Glicko`: a deviation of 0 (an
    exactly known rating) counts as a tiny one, one above 350 as 350; ValueError for a
    rating or deviation that is not a number in range."""
    if isinstance(deviation, (int, float)) and not isinstance(deviation, bool) \
            and math.isfinite(deviation) and deviation >= 0:
        deviation = min(max(float(deviation), 1e-6), INITIAL_DEVIATION)
    return Glicko(rating, deviation)


def rated_after(before: PlayerRating, opponent: Glicko, score: float,
                key: str | None = None) -> PlayerRating:
    """``before`` after one game against ``opponent`` (the game's id ``key`` counted);
    ``score`` is 1, 0.5 or 0 (Glicko-2, the game its own rating period)."""
    new = update(before.glicko, [(opponent, score)])
    stamp = datetime.now(UTC).replace(microsecond=0).isoformat()
    counted = before.counted if key is None else (*before.counted, key)[-MAX_COUNTED:]
    return PlayerRating(before.game, new.rating, new.deviation, new.volatility,
                        min(before.games + 1, MAX_GAMES_COUNT), stamp, counted)


def _entry(key: Any, value: Any) -> PlayerRating:
    """One stored entry, every field checked; ValueError says what is wrong."""
    if not isinstance(key, str) or not _GAME_KEY.fullmatch(key):
        raise ParlorError("not a game id")
    if not isinstance(value, dict):
        raise ParlorError("not an object")
    fields = {name: value.get(name) for name in ("rating", "deviation", "volatility")}
    check_rating(fields["rating"], fields["deviation"], fields["volatility"])
    games = value.get("games")
    if isinstance(games, bool) or not isinstance(games, int) \
            or not 0 <= games <= MAX_GAMES_COUNT:
        raise ParlorError(f"games must be a count from 0 to {MAX_GAMES_COUNT}")
    updated = value.get("updated")
    if updated is not None:
        if not isinstance(updated, str) or len(updated) > 40:
            raise ParlorError("updated must be a date and time")
        try:
            datetime.fromisoformat(updated)
        except ValueError:
            raise ParlorError(f"updated {quote(updated)} is not a date and time") from None
    counted = value.get("counted", [])
    if not isinstance(counted, list) or len(counted) > MAX_COUNTED \
            or not all(isinstance(k, str) and _COUNTED_KEY.fullmatch(k) for k in counted):
        raise ParlorError(f"counted must be a list of at most {MAX_COUNTED} game ids")
    rating, deviation, volatility = (cast(float, fields[name])
                                     for name in ("rating", "deviation", "volatility"))
    return PlayerRating(key, float(rating), float(deviation), float(volatility), games, updated,
                        tuple(counted))


def closest_level(rating: float, levels: Mapping[str, float]) -> str:
    """The spec of ``levels`` whose rating is closest to ``rating``; on a tie the weaker
    (then the first in spec order). ValueError for no levels or a non-finite rating."""
    if not levels:
        raise ParlorError("no rated levels to choose from")
    for spec, value in levels.items():
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            raise ParlorError(f"level {quote(spec)} has no finite rating")
    return min(levels, key=lambda spec: (abs(levels[spec] - rating), levels[spec], spec))


# --------------------------------------------------------------------------- shortcuts


def current(game_id: str) -> PlayerRating:
    """The player's rating in ``game_id``, from the default ratings file."""
    return PlayerRatings().current(game_id)


def record_game(game_id: str, opponent_rating: float, opponent_rd: float,
                score: float) -> PlayerRating:
    """:meth:`PlayerRatings.record_game` on the default ratings file."""
    return PlayerRatings().record_game(game_id, opponent_rating, opponent_rd, score)


def fair_level(game_id: str, levels: Mapping[str, float]) -> str:
    """:meth:`PlayerRatings.fair_level` on the default ratings file."""
    return PlayerRatings().fair_level(game_id, levels)
