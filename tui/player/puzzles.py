"""The player's puzzle rating and the puzzles' local ratings (Glicko-2), in the data folder.

Each attempt at a puzzle is a game between the player and the puzzle
(:func:`brains.glicko.update`, one rating period each): solving it is a win for the
player and a loss for the puzzle, missing it the reverse. The player has one puzzle
rating per game (puzzles of different games are not comparable); a puzzle's rating
starts at the estimate its file gives and moves with every attempt on this machine.

The file is ``puzzles.json`` in :func:`tui.player.paths.data_dir`::

    {"format": "parlor-player-puzzles", "version": 1,
     "players": {"connect4": {"rating": 1520.3, "deviation": 180.2, "volatility": 0.06,
                              "attempts": 4, "solved": 3}},
     "puzzles": {"connect4-1a2b3c4d5e": {"rating": 1380.1, "deviation": 240.0,
                                         "volatility": 0.06, "attempts": 1,
                                         "solved": 0}}}

Everything read is checked; a damaged file (or entry) starts fresh and :attr:`PuzzleRatings.
problem` says so in one line; the damaged file is kept as ``puzzles.json.damaged`` when the
next attempt is saved. Writes are atomic.
"""

from __future__ import annotations

import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brains.glicko import INITIAL_VOLATILITY, Glicko, update
from engine.files import FileReadError, read_capped, write_atomic

FILE_NAME = "puzzles.json"
FORMAT = "parlor-player-puzzles"
VERSION = 1
MAX_BYTES = 8 << 20
"""Largest file read (an entry is about 100 bytes)."""
MAX_PUZZLES = 50_000
"""Puzzle entries kept (the oldest are dropped beyond this)."""
START_RATING = 1500.0
START_DEVIATION = 350.0
MAX_COUNT = 10**9
_KEY = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,79}")


@dataclass(frozen=True, slots=True)
class Entry:
    """A rating with the attempts behind it (the player's in a game, or a puzzle's)."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = INITIAL_VOLATILITY
    attempts: int = 0
    solved: int = 0

    @property
    def glicko(self) -> Glicko:
        return Glicko(self.rating, self.deviation, self.volatility)

    def text(self) -> str:
        """``1520`` or ``1520?`` while provisional (deviation above 110)."""
        return f"{self.rating:.0f}{'?' if self.deviation > 110 else ''}"

    def to_json(self) -> dict[str, Any]:
        return {"rating": round(self.rating, 2), "deviation": round(self.deviation, 2),
                "volatility": round(self.volatility, 6), "attempts": self.attempts,
                "solved": self.solved}


def _rounded(rating: Glicko, attempts: int, solved: int) -> Entry:
    """An entry as the file keeps it (rounded), so what is returned is what is read back."""
    return Entry(round(rating.rating, 2), round(rating.deviation, 2),
                 round(rating.volatility, 6), attempts, solved)


def _entry(value: Any) -> Entry:
    """An entry read from the file; ValueError for anything malformed."""
    if not isinstance(value, dict):
        raise ValueError("not an object")
    counts = [value.get("attempts", 0), value.get("solved", 0)]
    if not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= MAX_COUNT
               for c in counts) or counts[1] > counts[0]:
        raise ValueError("bad counts")
    numbers = [value.get("rating"), value.get("deviation"), value.get("volatility")]
    if not all(isinstance(n, (int, float)) and not isinstance(n, bool) and math.isfinite(n)
               for n in numbers):
        raise ValueError("bad rating")
    rating, deviation, volatility = (float(n) for n in numbers)  # type: ignore[arg-type]
    Glicko(rating, deviation, volatility)  # ValueError when out of range
    return Entry(rating, deviation, volatility, counts[0], counts[1])


def puzzles_path() -> Path:
    """The file in the user's data directory."""
    from tui.player.paths import data_dir

    return data_dir() / FILE_NAME


class PuzzleRatings:
    """The puzzle ratings file at ``path`` (default :func:`puzzles_path`). Trouble with
    the file never raises: :attr:`problem` holds one line about it, else None."""

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path = Path(path) if path is not None else puzzles_path()
        self.problem: str | None = None

    def player(self, game: str) -> Entry:
        """The player's puzzle rating in ``game`` (a fresh one at first)."""
        return self._read()[0].get(game) or Entry()

    def puzzle(self, puzzle_id: str, rating: float, deviation: float) -> Entry:
        """The puzzle's local rating (its file's estimate until it is tried here)."""
        return self._read()[1].get(puzzle_id) or Entry(rating, deviation)

    def ratings_of(self, puzzles: dict[str, tuple[float, float]]) -> dict[str, Entry]:
        """The local ratings of many puzzles at once (one read of the file): puzzle id ->
        entry, for ``puzzles`` given as id -> (file rating, deviation)."""
        known = self._read()[1]
        return {pid: known.get(pid) or Entry(r, d) for pid, (r, d) in puzzles.items()}

    def record(self, game: str, puzzle_id: str, rating: float, deviation: float,
               solved: bool) -> tuple[Entry, Entry, Entry]:
        """Count one attempt: returns (the player's entry before, after, the puzzle's
        entry after). The file is rewritten (or :attr:`problem` says why not)."""
        players, puzzles, damaged = self._read()
        before = players.get(game) or Entry()
        known = puzzles.get(puzzle_id) or Entry(rating, deviation)
        score = 1.0 if solved else 0.0
        mine = update(before.glicko, [(known.glicko, score)])
        theirs = update(known.glicko, [(before.glicko, 1.0 - score)])
        after = _rounded(mine, before.attempts + 1, before.solved + int(solved))
        puzzle = _rounded(theirs, known.attempts + 1, known.solved + int(not solved))
        players[game] = after
        puzzles.pop(puzzle_id, None)
        puzzles[puzzle_id] = puzzle  # the newest last: the oldest are dropped first
        while len(puzzles) > MAX_PUZZLES:
            del puzzles[next(iter(puzzles))]
        try:
            self._write(players, puzzles, damaged)
        except OSError as exc:
            self.problem = (f"cannot save the puzzle ratings in {self.path}: "
                            f"{exc.strerror or exc}")
        return before, after, puzzle

    def _read(self) -> tuple[dict[str, Entry], dict[str, Entry], bool]:
        self.problem = None
        if not os.path.lexists(self.path):
            return {}, {}, False
        try:
            data = json.loads(read_capped(self.path, MAX_BYTES).decode("utf-8"))
        except FileReadError as exc:
            return self._damaged(exc.reason)
        except UnicodeDecodeError:
            return self._damaged("not UTF-8 text")
        except (ValueError, RecursionError):
            return self._damaged("not JSON")
        if not isinstance(data, dict) or data.get("format") != FORMAT \
                or data.get("version") != VERSION:
            return self._damaged("not a Parlor puzzle ratings file of this version")
        tables: list[dict[str, Entry]] = []
        bad = 0
        for name in ("players", "puzzles"):
            table = data.get(name, {})
            out: dict[str, Entry] = {}
            if not isinstance(table, dict):
                bad += 1
                table = {}
            for key, value in table.items():
                try:
                    if not _KEY.fullmatch(key):
                        raise ValueError("bad key")
                    out[key] = _entry(value)
                except ValueError:
                    bad += 1
            tables.append(out)
        if bad:
            self.problem = (f"{self.path}: {bad} damaged entr{'y' if bad == 1 else 'ies'} "
                            "start fresh")
        return tables[0], tables[1], bool(bad)

    def _damaged(self, reason: str) -> tuple[dict[str, Entry], dict[str, Entry], bool]:
        self.problem = (f"{self.path}: {reason}; puzzle ratings start fresh (the file is "
                        f"kept as {self.path.name}.damaged when a rating is next saved)")
        return {}, {}, True

    def _write(self, players: dict[str, Entry], puzzles: dict[str, Entry],
               damaged: bool) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data = {"format": FORMAT, "version": VERSION,
                "players": {k: players[k].to_json() for k in sorted(players)},
                "puzzles": {k: v.to_json() for k, v in puzzles.items()}}
        if damaged and os.path.lexists(self.path):
            os.replace(self.path, self.path.with_name(self.path.name + ".damaged"))
        write_atomic(self.path, json.dumps(data, allow_nan=False) + "\n")
