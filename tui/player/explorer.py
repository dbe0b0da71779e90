"""The opening explorer: the moves played from a position in the player's collections.

A *collection* is one game file in any format Parlor reads (an imported PDN, GGF, WTHOR
or Parlor file, …) or the player's own games (the finished games of ``history/`` and the
games saved under a name, see :mod:`tui.player.store`); the files of other formats kept
among the saved games are the player's databases, one collection each
(:func:`collections_for`). Each gets an *index*, built once
and kept in the player's data directory (``explorer/``, one SQLite file per collection):
for every position reached in its games, each move played from it with the number of
games and their wins, draws and losses from the view of the side to move.

Positions are counted up to transposition and symmetry: a position's index key is a
64-bit hash of the game id and the smallest of its :meth:`engine.protocol.State.symmetric_keys`
(move order, ply counters and history never enter it), and a move is kept as it is in
that smallest image (``symmetric_move``), so a position and its mirror image share their
rows; a query maps each row back to the move of the position asked about. A game that
passes through a position more than once counts once for each move it played there.

An index is rebuilt when its collection changes: the files' sizes and modification times
are compared with those the index was built from, and where they differ the contents'
SHA-256 decides (a file only touched keeps its index). Nothing read is executed: the
files go through the engine's readers (size caps, regular files only) and a damaged game
is counted and skipped; a file that is no game file at all is one line
(:class:`~engine.protocol.ParlorError`).

Exact values come from the analysis' oracles (:data:`brains.analysis.ORACLES`, the
solvers the hints use), asked with a small budget, only for the position shown.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from engine.files import FileReadError, read_capped
from engine.formats import EXTENSIONS, split_games
from engine.protocol import AnyState, ParlorError
from engine.record import MAX_BYTES, GameRecord
from tui.player import paths, store

if TYPE_CHECKING:
    from brains.analysis import Exact

INDEX_VERSION = 1
"""Bumped whenever what an index holds changes (older ones are rebuilt)."""
BATCH = 20_000
"""Rows written to the index's scratch table at a time while building."""
PROGRESS_EVERY = 500
"""Games between two calls of a build's progress callback."""
EXACT_SECONDS = 0.5
"""Default budget of the exact oracle for the position shown."""
OWN_GAMES = "your games"
"""How the player's own games are named as a collection."""


class BuildStopped(ParlorError):
    """An index build was stopped before it finished (nothing was kept)."""


# --------------------------------------------------------------------------- positions


def position_key(state: AnyState) -> tuple[int, int]:
    """``(key, symmetry)``: the index key of ``state`` (a signed 64-bit int, the same for
    every transposition and symmetric image of it) and the symmetry that takes ``state``
    to the image the index keeps (its smallest symmetric key; the first on a tie)."""
    keys = cast("tuple[Any, ...]", state.symmetric_keys())
    best = min(range(len(keys)), key=keys.__getitem__)
    digest = hashlib.blake2b(repr((state.GAME, keys[best])).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True), best


def stored_move(state: AnyState, move: Any, symmetry: int) -> str:
    """The text of ``move`` of ``state`` as the index keeps it (in the kept image)."""
    return state.format_move(state.symmetric_move(move, symmetry))


RESULT_WINNER = {"1-0": 0, "0-1": 1, "1/2-1/2": None}
"""A record's result -> the winning side (None: a draw); other results are unknown."""


def game_rows(record: GameRecord) -> Iterator[tuple[int, str, int | None]]:
    """``(position key, stored move, value)`` for each move of ``record``, once per
    game for a repeated position and move; the value is +1, 0 or -1 for the side to move
    (None when the record has no result). Raises ParlorError for a bad move."""
    decided = record.result in RESULT_WINNER
    winner = RESULT_WINNER.get(record.result)
    state = record.initial()
    seen: set[tuple[int, str]] = set()
    for text in record.moves:
        move = state.parse_move(text)
        key, sym = position_key(state)
        stored = stored_move(state, move, sym)
        if (key, stored) not in seen:
            seen.add((key, stored))
            value = None if not decided else 0 if winner is None else (
                1 if winner == state.to_move else -1)
            yield key, stored, value
        state = state.play(move)


# --------------------------------------------------------------------------- collections


@dataclass(frozen=True)
class Collection:
    """Games the explorer indexes: one file, or the player's own games."""

    name: str
    """How it is shown (the file's path as given, or :data:`OWN_GAMES`)."""
    path: Path | None
    """The game file; None for the player's own games."""

    @property
    def index_path(self) -> Path:
        """Where its index is kept in the player's data directory."""
        if self.path is None:
            return paths.explorer_dir() / "own-games.sqlite"
        where = os.path.realpath(self.path)
        digest = hashlib.sha256(os.fsencode(where)).hexdigest()[:20]
        return paths.explorer_dir() / f"file-{digest}.sqlite"

    def files(self) -> list[Path]:
        """The files read: the game file, or the player's finished and saved games."""
        if self.path is not None:
            return [self.path]
        found: list[Path] = []
        for folder in (paths.history_dir(), paths.saved_games_dir()):
            found.extend(path for path, _, problem in store.record_files(folder) if not problem)
        return sorted(found)


def file_collection(path: str | os.PathLike[str]) -> Collection:
    """The collection of one game file (refused, one line, where a hosted player may not
    read it)."""
    where = Path(os.fsdecode(path))
    try:
        paths.confined(where, write=False)
    except ValueError as exc:
        raise ParlorError(f"{store.short(where.name)}: {exc}") from None
    return Collection(os.fsdecode(path), where)


def own_collection() -> Collection:
    """The player's own games: finished games (history) and saved games."""
    return Collection(OWN_GAMES, None)


def databases() -> list[Collection]:
    """The game files of other formats (PDN, GGF, WTHOR, transcripts, …) the player keeps
    among the saved games: each its own collection (they may hold many games)."""
    suffixes = tuple(s for s in sorted(set(EXTENSIONS.values())) if s != paths.RECORD_SUFFIX)
    return [Collection(path.name, path)
            for path, _, problem in sorted(store.record_files(paths.saved_games_dir(), suffixes))
            if not problem]


def collections_for(path: Path | None = None) -> list[Collection]:
    """The player's collections (their own games, the databases among their saved
    games), and the game file ``path`` if one is given and is not among them."""
    out = [own_collection(), *databases()]
    if path is not None:
        try:
            where = Path(os.path.realpath(path))
            own = any(where.is_relative_to(os.path.realpath(folder))
                      for folder in (paths.history_dir(), paths.saved_games_dir(),
                                     paths.unfinished_dir()))
        except (OSError, ValueError):
            own = False
        if not own:
            out.insert(0, file_collection(path))
    return out


def _stamp(files: list[Path], strict: bool) -> str:
    """The names, sizes and modification times of ``files`` as one line; with ``strict``
    a file that cannot be looked at is a ParlorError, else it is left out."""
    parts = []
    for path in files:
        try:
            info = path.stat()
        except OSError as exc:
            if strict:
                raise ParlorError(f"{store.short(os.fsdecode(path), 300)}: "
                                  f"{exc.strerror or exc}") from None
            continue
        parts.append(f"{os.fsdecode(path)!r} {info.st_size} {info.st_mtime_ns}")
    return "\n".join(parts)


def _read(collection: Collection, files: list[Path]) -> list[tuple[Path, bytes | str]]:
    """Each file's bytes, or its one-line problem (a ParlorError for a collection's only
    file, which must read)."""
    out: list[tuple[Path, bytes | str]] = []
    for path in files:
        try:
            out.append((path, read_capped(path, MAX_BYTES)))
        except FileReadError as exc:
            if collection.path is not None:
                raise ParlorError(f"{store.short(collection.name)}: {exc.reason}") from None
            out.append((path, f"{store.short(path.name)}: {exc.reason}"))
    return out


def _digest(contents: list[tuple[Path, bytes | str]]) -> str:
    """SHA-256 over the files' names and contents (a problem counts as its text)."""
    total = hashlib.sha256()
    for path, data in contents:
        total.update(os.fsencode(path.name) + b"\0")
        total.update(hashlib.sha256(data if isinstance(data, bytes) else data.encode())
                     .digest())
    return total.hexdigest()


# --------------------------------------------------------------------------- indexes


@dataclass
class Index:
    """A collection's index as it stands: where it is and what it holds."""

    collection: Collection
    path: Path
    games: int
    """Games indexed."""
    damaged: int
    """Games (or files) that could not be read and were skipped."""
    by_game: dict[str, int]
    """Games indexed per game id."""
    rows: int
    """(position, move) rows kept."""
    built: bool = False
    """True when this call (re)built it."""
    problems: list[str] = field(default_factory=list)
    """The first few damaged games, one line each (only when just built)."""

    @property
    def size(self) -> int:
        """The index file's size in bytes."""
        try:
            return self.path.stat().st_size
        except OSError:
            return 0


def _meta(path: Path) -> dict[str, str] | None:
    """The index's meta table, or None when there is no usable index at ``path``."""
    if not path.is_file():
        return None
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as con:
            meta = dict(con.execute("SELECT name, value FROM meta").fetchall())
    except sqlite3.Error:
        return None
    if meta.get("version") != str(INDEX_VERSION):
        return None
    return {str(k): str(v) for k, v in meta.items()}


def _index_of(collection: Collection, path: Path, meta: dict[str, str],
              built: bool = False, problems: list[str] | None = None) -> Index:
    by_game = {str(k): int(v) for k, v in json.loads(meta.get("by_game", "{}")).items()}
    return Index(collection, path, int(meta["games"]), int(meta["damaged"]), by_game,
                 int(meta["rows"]), built, problems or [])


def _set_stamp(path: Path, stamp: str) -> None:
    """Record a new stamp for an index whose contents did not change."""
    with contextlib.suppress(sqlite3.Error), contextlib.closing(sqlite3.connect(path)) as con:
        con.execute("UPDATE meta SET value = ? WHERE name = 'stamp'", (stamp,))
        con.commit()


Progress = Callable[[int, int], None]
"""Called as ``progress(games_done, games_in_all)`` while an index is built."""


def open_index(collection: Collection, progress: Progress | None = None,
               stop: threading.Event | None = None, *, rebuild: bool = False) -> Index:
    """The collection's index, built first if it is missing, out of date or of an older
    version (``rebuild`` forces it). Raises ParlorError (one line) for a file that
    cannot be read or holds no game in any format, BuildStopped if ``stop`` is set
    during a build."""
    target = collection.index_path
    files = collection.files()
    stamp = _stamp(files, strict=collection.path is not None)
    meta = None if rebuild else _meta(target)
    if meta is not None and meta.get("stamp") == stamp:
        return _index_of(collection, target, meta)
    contents = _read(collection, files)
    digest = _digest(contents)
    if meta is not None and meta.get("digest") == digest:
        _set_stamp(target, stamp)
        return _index_of(collection, target, meta)
    return _build(collection, contents, stamp, digest, progress, stop)


def _records(collection: Collection, contents: list[tuple[Path, bytes | str]],
             problems: list[str]) -> tuple[list[Callable[[], GameRecord]], int]:
    """Every game of the collection, each to be read in turn; and the count of files
    that hold none (their problems appended to ``problems``)."""
    readers: list[Callable[[], GameRecord]] = []
    bad = 0
    for path, data in contents:
        if isinstance(data, str):
            problems.append(data)
            bad += 1
            continue
        source = collection.name if collection.path is not None else path.name
        try:
            chunks = split_games(data, store.short(source, 200), path.suffix, os.fsdecode(path))
        except ParlorError as exc:
            if collection.path is not None:
                raise
            problems.append(str(exc))
            bad += 1
            continue
        readers.extend(chunk.parse for chunk in chunks)
    return readers, bad


def _build(collection: Collection, contents: list[tuple[Path, bytes | str]], stamp: str,
           digest: str, progress: Progress | None, stop: threading.Event | None) -> Index:
    problems: list[str] = []
    readers, damaged = _records(collection, contents, problems)
    target = collection.index_path
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(f".{target.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    temp.unlink(missing_ok=True)
    games = 0
    by_game: dict[str, int] = {}
    try:
        with contextlib.closing(sqlite3.connect(temp)) as con:
            con.execute("PRAGMA journal_mode = OFF")
            con.execute("PRAGMA synchronous = OFF")
            con.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL)")
            con.execute("CREATE TEMP TABLE raw (pos INTEGER, move TEXT, value INTEGER)")
            batch: list[tuple[int, str, int | None]] = []
            for number, read in enumerate(readers, 1):
                if stop is not None and stop.is_set():
                    raise BuildStopped(f"{store.short(collection.name)}: index not built")
                try:
                    record = read()
                    rows = list(game_rows(record))
                except ParlorError as exc:
                    damaged += 1
                    if len(problems) < 5:
                        problems.append(store.short(str(exc), 200))
                else:
                    batch.extend(rows)
                    games += 1
                    by_game[record.game] = by_game.get(record.game, 0) + 1
                if len(batch) >= BATCH:
                    con.executemany("INSERT INTO raw VALUES (?, ?, ?)", batch)
                    batch.clear()
                if progress is not None and number % PROGRESS_EVERY == 0:
                    progress(number, len(readers))
            con.executemany("INSERT INTO raw VALUES (?, ?, ?)", batch)
            con.execute("CREATE TABLE moves (pos INTEGER NOT NULL, move TEXT NOT NULL, "
                        "games INTEGER NOT NULL, wins INTEGER NOT NULL, "
                        "draws INTEGER NOT NULL, losses INTEGER NOT NULL, "
                        "PRIMARY KEY (pos, move)) WITHOUT ROWID")
            con.execute("INSERT INTO moves SELECT pos, move, COUNT(*), "
                        "COUNT(CASE WHEN value = 1 THEN 1 END), "
                        "COUNT(CASE WHEN value = 0 THEN 1 END), "
                        "COUNT(CASE WHEN value = -1 THEN 1 END) "
                        "FROM raw GROUP BY pos, move ORDER BY pos, move")
            rows_kept = con.execute("SELECT COUNT(*) FROM moves").fetchone()[0]
            con.execute("DROP TABLE raw")
            meta = {"version": str(INDEX_VERSION), "stamp": stamp, "digest": digest,
                    "source": collection.name, "games": str(games), "damaged": str(damaged),
                    "rows": str(rows_kept), "by_game": json.dumps(by_game, sort_keys=True)}
            con.executemany("INSERT INTO meta VALUES (?, ?)", list(meta.items()))
            con.commit()
        os.replace(temp, target)
    except sqlite3.Error as exc:  # a full disk, a read-only folder: one line
        temp.unlink(missing_ok=True)
        raise ParlorError(f"{store.short(collection.name)}: the index cannot be written "
                          f"({exc})") from None
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    if progress is not None:
        progress(len(readers), len(readers))
    return _index_of(collection, target, meta, built=True, problems=problems[:5])


# --------------------------------------------------------------------------- queries


@dataclass
class Row:
    """One move played from the position asked about, over every collection."""

    move: Any
    """The move in the position asked about."""
    text: str
    games: int
    wins: int
    """Games the side to move (who plays this move) went on to win; likewise below."""
    draws: int
    losses: int
    exact: Exact | None = None
    """The move's exact value for the side to move, where a solver settled it."""

    @property
    def decided(self) -> int:
        """Games with a result (unfinished saved games have none)."""
        return self.wins + self.draws + self.losses

    def shares(self) -> tuple[float, float, float] | None:
        """Win, draw and loss as percentages of the games with a result (None: none)."""
        total = self.decided
        if not total:
            return None
        return (100 * self.wins / total, 100 * self.draws / total, 100 * self.losses / total)

    def to_json(self) -> dict[str, Any]:
        """The row as JSON: counts, shares (percent) and the exact value (or null)."""
        shares = self.shares()
        exact = None if self.exact is None else {
            "outcome": {1: "win", 0: "draw", -1: "loss"}[self.exact.outcome],
            "plies": self.exact.plies, "score": self.exact.score, "words": self.exact.words()}
        return {"move": self.text, "games": self.games, "wins": self.wins,
                "draws": self.draws, "losses": self.losses,
                "win": None if shares is None else round(shares[0], 1),
                "draw": None if shares is None else round(shares[1], 1),
                "loss": None if shares is None else round(shares[2], 1),
                "exact": exact}


def lookup(indexes: Iterable[Index], state: AnyState) -> list[Row]:
    """The moves played from ``state`` (or a transposition or symmetric image of it) in
    the indexes' games, most played first, each as a move of ``state``."""
    key, sym = position_key(state)
    by_text = {stored_move(state, m, sym): m for m in state.legal_moves()}
    totals: dict[str, list[int]] = {}
    for index in indexes:
        try:
            with contextlib.closing(sqlite3.connect(f"file:{index.path}?mode=ro",
                                                    uri=True)) as con:
                found = con.execute("SELECT move, games, wins, draws, losses FROM moves "
                                    "WHERE pos = ?", (key,)).fetchall()
        except sqlite3.Error as exc:
            raise ParlorError(f"{store.short(index.collection.name)}: its index cannot be "
                              f"read ({exc}); it is rebuilt when opened again") from None
        for move, *counts in found:
            total = totals.setdefault(str(move), [0, 0, 0, 0])
            for i, count in enumerate(counts):
                total[i] += int(count)
    rows = [Row(by_text[text], state.format_move(by_text[text]), games, wins, draws, losses)
            for text, (games, wins, draws, losses) in totals.items() if text in by_text]
    rows.sort(key=lambda r: (-r.games, r.text))
    return rows


def exact_values(state: AnyState, seconds: float = EXACT_SECONDS,
                 stop: threading.Event | None = None) -> dict[Any, Exact]:
    """Each legal move's exact value for the side to move of ``state``, where the game's
    exact oracle (:data:`brains.analysis.ORACLES`, the solvers of the hints) settles the
    position within ``seconds``; empty otherwise."""
    from brains.analysis import ORACLES
    from brains.protocol import Budget

    oracle = ORACLES.get(state.GAME)
    if oracle is None or state.outcome() is not None or seconds <= 0:
        return {}
    budget = Budget(seconds=seconds, stop=stop or threading.Event()).start()
    try:
        values = oracle(state, budget, {})
    except ParlorError:
        return {}
    return dict(values or {})


def explore(indexes: Iterable[Index], state: AnyState, seconds: float = EXACT_SECONDS,
            stop: threading.Event | None = None) -> list[Row]:
    """:func:`lookup`, each row with its exact value where a solver settles the
    position in ``seconds`` (0: none asked)."""
    rows = lookup(indexes, state)
    if rows and seconds > 0:
        values = exact_values(state, seconds, stop)
        for row in rows:
            row.exact = values.get(row.move)
    return rows
