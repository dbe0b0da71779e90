"""The host's database: what a `parlor host` shares, in one SQLite file (``host.db``).

Players, their keys and claimed names, their ratings, the archive of finished room and
correspondence games, the correspondence games in progress, invitations and chat live
in ``host.db`` in the host's ``--data`` folder, behind one small interface,
:class:`HostData`:

- opened with :meth:`HostData.open`: WAL journal, foreign keys on, a busy timeout;
- a versioned schema: ``PRAGMA application_id`` marks the file as Parlor's and
  ``PRAGMA user_version`` is its schema version; :data:`MIGRATIONS` are applied in order
  at open, each in its own transaction. A file that is not SQLite, a SQLite file of
  another program, or one from a newer Parlor is refused with :class:`HostDataError`
  (one line), and is left untouched;
- every write goes through ONE writer thread (a queue of jobs, each its own
  transaction); a write method returns a :class:`concurrent.futures.Future` (an asyncio
  caller awaits ``asyncio.wrap_future(...)``). Reads run on their own connection;
- :func:`backup` copies a database with SQLite's online backup API, safe while the host
  is writing (``parlor host --backup FILE``).

What is read back is checked (types and ranges) before it is returned: a damaged row is a
:class:`HostDataError`, never a crash elsewhere.

The local single-player app does not use this: its game files are the player's
documents and stay files.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import json
import math
import os
import queue
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from brains.glicko import check_rating
from engine.protocol import ParlorError
from engine.registry import GAMES, get_game
from tui.player.ratings import PlayerRating, PlayerRatings, opponent_glicko, rated_after

FILE_NAME = "host.db"
APPLICATION_ID = 0x50524C52
"""``PRAGMA application_id`` of a Parlor host database ("PRLR")."""
BUSY_TIMEOUT_MS = 5000
MAX_NAME = 32
MAX_CHAT = 500
MAX_RECORD = 1_000_000

MIGRATIONS: tuple[str, ...] = (
    # 1: players, their keys, their ratings.
    """
    CREATE TABLE players (
        id INTEGER PRIMARY KEY,
        name TEXT COLLATE NOCASE UNIQUE,
        created REAL NOT NULL
    );
    CREATE TABLE keys (
        fingerprint TEXT PRIMARY KEY,
        player INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        added REAL NOT NULL
    );
    CREATE INDEX keys_player ON keys(player);
    CREATE TABLE ratings (
        player INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        games INTEGER NOT NULL,
        updated REAL NOT NULL,
        PRIMARY KEY (player, game)
    );
    """,
    # 2: the archive of finished games, invitations, chat.
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        result TEXT NOT NULL,
        termination TEXT NOT NULL DEFAULT '',
        record TEXT NOT NULL,
        finished REAL NOT NULL,
        rated INTEGER NOT NULL,
        room TEXT NOT NULL DEFAULT ''
    );
    CREATE INDEX games_finished ON games(finished);
    CREATE TABLE game_players (
        game TEXT NOT NULL REFERENCES games(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        player INTEGER REFERENCES players(id) ON DELETE SET NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (game, seat)
    );
    CREATE INDEX game_players_player ON game_players(player);
    CREATE TABLE invitations (
        id INTEGER PRIMARY KEY,
        room TEXT NOT NULL,
        sender INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        recipient INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        created REAL NOT NULL,
        answered REAL,
        accepted INTEGER
    );
    CREATE INDEX invitations_recipient ON invitations(recipient);
    CREATE TABLE chat (
        id INTEGER PRIMARY KEY,
        room TEXT NOT NULL,
        author INTEGER REFERENCES players(id) ON DELETE SET NULL,
        text TEXT NOT NULL,
        time REAL NOT NULL
    );
    CREATE INDEX chat_room ON chat(room, id);
    """,
    # 3: correspondence games (days per move), played one move at a time.
    """
    CREATE TABLE corr_games (
        id TEXT PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        first_key TEXT,
        second_key TEXT,
        first_name TEXT NOT NULL DEFAULT '',
        second_name TEXT NOT NULL DEFAULT '',
        invited TEXT,
        moves TEXT NOT NULL DEFAULT '[]',
        days INTEGER NOT NULL,
        deadline REAL,
        result TEXT,
        termination TEXT NOT NULL DEFAULT '',
        told INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,
        updated REAL NOT NULL
    );
    CREATE INDEX corr_first ON corr_games(first_key);
    CREATE INDEX corr_second ON corr_games(second_key);
    CREATE INDEX corr_invited ON corr_games(invited);
    CREATE INDEX corr_deadline ON corr_games(deadline);
    """,
    # 4: the database is the one source of hosted players' ratings: each game counted
    # once per player (by the game's id), and the players' ratings.json to bring in once.
    """
    CREATE TABLE rated_games (
        id TEXT NOT NULL,
        player INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        game TEXT NOT NULL,
        counted REAL NOT NULL,
        PRIMARY KEY (id, player)
    );
    CREATE TABLE host_tasks (
        task TEXT PRIMARY KEY
    );
    INSERT INTO host_tasks (task) VALUES ('import ratings.json');
    """,
    # 5: keys pasted for an account, until they first log in (or their time is up).
    """
    CREATE TABLE pending_keys (
        fingerprint TEXT PRIMARY KEY,
        player INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
        ends REAL NOT NULL
    );
    CREATE INDEX pending_keys_player ON pending_keys(player);
    CREATE INDEX pending_keys_ends ON pending_keys(ends);
    """,
)
"""The schema, as the ordered list of migrations: version N is the first N applied."""

VERSION = len(MIGRATIONS)
IMPORT_RATINGS = "import ratings.json"
"""The task migration 4 leaves for the host (:meth:`HostData.import_ratings`): it needs
the players' folders, which only the host knows."""
MAX_GAME_ID = 200

T = TypeVar("T")


class HostDataError(ParlorError):
    """The database cannot be used (one line: what and why)."""


@dataclass(frozen=True, slots=True)
class Player:
    id: int
    name: str | None
    created: float


@dataclass(frozen=True, slots=True)
class Rating:
    player: int
    game: str
    rating: float
    deviation: float
    volatility: float
    games: int
    updated: float


@dataclass(frozen=True, slots=True)
class RatedSide:
    """One side of a finished game to count in its player's rating (:meth:`HostData.settle`)."""

    side: int
    key: str
    """The identity seated there: a key fingerprint of the player's account."""
    score: float
    """1 (a win), 0.5 (a draw) or 0 (a loss)."""
    opponent: tuple[float, float] | None = None
    """A fixed opponent's rating and deviation (a rated level); None: the person on the
    other side, as the database rates them before this game."""


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    player: int | None
    """None for a brain or a player no longer known."""
    name: str


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    id: str
    game: str
    result: str
    record: str
    finished: float
    rated: bool
    seats: tuple[Seat, ...]
    termination: str = ""
    room: str = ""


@dataclass(frozen=True, slots=True)
class Invitation:
    id: int
    room: str
    sender: int
    recipient: int
    created: float
    answered: float | None
    accepted: bool | None


@dataclass(frozen=True, slots=True)
class ChatMessage:
    id: int
    room: str
    author: int | None
    text: str
    time: float


@dataclass(frozen=True, slots=True)
class CorrGame:
    """A correspondence game as kept: its moves as text, replayed by the caller."""

    id: str
    game: str
    options: dict[str, str]
    seats: tuple[str | None, str | None]
    """Each side's identity (its account's first key); None for a seat still open."""
    names: tuple[str, str]
    invited: str | None
    """The identity of the player challenged to the open seat (None: open to anyone)."""
    moves: tuple[str, ...]
    days: int
    deadline: float | None
    """When the side to move loses on time (epoch seconds); None unless it runs."""
    result: str | None
    termination: str
    told: int
    """Bit 1 << side: that side's player has been told the result."""
    version: int
    created: float
    updated: float


CORR_COLUMNS = ("id, game, options, first_key, second_key, first_name, second_name, "
                "invited, moves, days, deadline, result, termination, told, version, "
                "created, updated")
CORR_DAYS = (1, 3, 7)
MAX_CORR_MOVES = 2000


# --- checking what is read -------------------------------------------------------------

def _int(value: object, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise HostDataError(f"damaged {what} in the host database: {value!r:.40}")
    return value


def _opt_int(value: object, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _real(value: object, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value):
        raise HostDataError(f"damaged {what} in the host database: {value!r:.40}")
    return float(value)


def _text(value: object, what: str, limit: int = MAX_NAME) -> str:
    if not isinstance(value, str) or len(value) > limit:
        raise HostDataError(f"damaged {what} in the host database: {value!r:.40}")
    return value


def clean_name(name: str) -> str:
    """A claimed name as stored: printable, trimmed, 1 to :data:`MAX_NAME` characters."""
    name = "".join(c for c in name if c.isprintable()).strip()
    if not name or len(name) > MAX_NAME:
        raise HostDataError(f"a name must be 1 to {MAX_NAME} printable characters")
    return name


# --- opening ---------------------------------------------------------------------------

def _check_regular(path: Path) -> bool:
    """True when ``path`` exists (as a regular file); HostDataError when it is anything
    else (a link, a folder, a device)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError as error:
        raise HostDataError(f"{path.name}: {error.strerror or error}") from None
    if not stat.S_ISREG(info.st_mode):
        raise HostDataError(f"{path.name} is not a regular file; refusing it")
    return True


def _connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    uri = path.resolve().as_uri() + ("?mode=ro" if read_only else "")
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000,
                               isolation_level=None, check_same_thread=False)
    except sqlite3.Error as error:
        raise HostDataError(f"{path.name}: cannot open: {error}") from None
    conn.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


def _version(conn: sqlite3.Connection, path: Path) -> int:
    """The schema version of an open database: 0 for an empty one; HostDataError for a
    file that is not SQLite, another program's, or from a newer Parlor."""
    try:
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise HostDataError(f"{path.name} is not a Parlor host database ({error})") from None
    if app == 0 and version == 0 and tables == 0:
        return 0
    if app != APPLICATION_ID:
        raise HostDataError(f"{path.name} is not a Parlor host database "
                            f"(application id {app:#x}); refusing it")
    if not isinstance(version, int) or version < 0:
        raise HostDataError(f"{path.name}: damaged schema version {version!r:.20}")
    if version > VERSION:
        raise HostDataError(f"{path.name} is from a newer Parlor (schema version {version}, "
                            f"this one knows up to {VERSION}); refusing to change it")
    return version


def migrate(conn: sqlite3.Connection, path: Path, upto: int = VERSION) -> int:
    """Apply the migrations after the database's version, up to ``upto``, each in its own
    transaction; returns the version reached."""
    version = _version(conn, path)
    for number in range(version + 1, upto + 1):
        try:
            conn.execute("BEGIN IMMEDIATE")
            # executescript would commit first; run the statements one by one instead.
            for statement in MIGRATIONS[number - 1].split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute(f"PRAGMA user_version = {number}")
            conn.execute("COMMIT")
        except sqlite3.Error as error:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
            raise HostDataError(f"{path.name}: migration to schema version {number} "
                                f"failed: {error}") from None
    return max(version, upto)


# --- the interface ---------------------------------------------------------------------

_STOP = object()


class HostData:
    """The host's shared data, in ``DATA/host.db``. Write methods return a Future, done
    once the write has committed; read methods return the values."""

    def __init__(self, path: Path, reader: sqlite3.Connection, writer: sqlite3.Connection,
                 now: Callable[[], float]):
        self.path = path
        self._now = now
        self._reader = reader
        self._read_lock = threading.Lock()
        self._writer = writer
        self._jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._write_loop, name="host-db-writer",
                                        daemon=True)
        self._closed = False
        self._queue_lock = threading.Lock()
        """Held to queue a write and to close, so no write is queued after the last."""
        self._thread.start()

    @classmethod
    def open(cls, data: Path, now: Callable[[], float] = time.time) -> HostData:
        """Open (creating or migrating) ``data/host.db``; HostDataError (one line) when it
        cannot be used. ``now`` is the clock for the times written."""
        path = data / FILE_NAME
        existed = _check_regular(path)
        try:
            data.mkdir(parents=True, exist_ok=True, mode=0o700)
        except OSError as error:
            raise HostDataError(f"cannot make the data folder: {error.strerror}") from None
        writer = _connect(path)
        try:
            if not existed:
                os.chmod(path, 0o600)  # keys and names: for the host's user only
            if existed:
                _version(writer, path)  # refuse a foreign file before changing anything
            try:
                mode = writer.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            except sqlite3.DatabaseError as error:
                raise HostDataError(f"{path.name}: cannot use the WAL journal: {error}"
                                    ) from None
            if str(mode).lower() != "wal":
                raise HostDataError(f"{path.name}: cannot use the WAL journal ({mode})")
            migrate(writer, path)
            reader = _connect(path)
        except BaseException:
            writer.close()
            raise
        return cls(path, reader, writer, now)

    # -- plumbing --

    @property
    def schema_version(self) -> int:
        return int(self._read("PRAGMA user_version")[0][0])

    def close(self) -> None:
        """Finish the writes queued, then close both connections."""
        with self._queue_lock:
            if self._closed:
                return
            self._closed = True
            self._jobs.put(_STOP)
        self._thread.join()
        with self._read_lock:
            self._reader.close()

    def __enter__(self) -> HostData:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def now(self) -> float:
        """The database's clock (the times it writes)."""
        return self._now()

    def sync(self) -> None:
        """Wait until every write queued so far has committed (or failed)."""
        self._write(lambda conn: None).exception()

    def _write_loop(self) -> None:
        conn = self._writer
        while True:
            job = self._jobs.get()
            if job is _STOP:
                break
            work, future = job
            if not future.set_running_or_notify_cancel():
                continue
            try:
                conn.execute("BEGIN IMMEDIATE")
                try:
                    result = work(conn)
                    conn.execute("COMMIT")
                except BaseException:
                    conn.execute("ROLLBACK")
                    raise
            except sqlite3.Error as error:
                future.set_exception(HostDataError(f"{self.path.name}: {error}"))
            except Exception as error:  # noqa: BLE001 - handed to the caller
                future.set_exception(error)
            else:
                future.set_result(result)
        conn.close()

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = concurrent.futures.Future()
        with self._queue_lock:
            if self._closed:
                future.set_exception(HostDataError("the host database is closed"))
            else:
                self._jobs.put((work, future))
        return future

    def _read(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        with self._read_lock:
            if self._closed:
                raise HostDataError("the host database is closed")
            try:
                return list(self._reader.execute(sql, tuple(args)).fetchall())
            except sqlite3.Error as error:
                raise HostDataError(f"{self.path.name}: {error}") from None

    # -- players, keys, names --

    def player_for_key(self, fingerprint: str) -> Player | None:
        rows = self._read("SELECT p.id, p.name, p.created FROM keys k "
                          "JOIN players p ON p.id = k.player WHERE k.fingerprint = ?",
                          (fingerprint,))
        return _player(rows[0]) if rows else None

    def player(self, player: int) -> Player | None:
        rows = self._read("SELECT id, name, created FROM players WHERE id = ?", (player,))
        return _player(rows[0]) if rows else None

    def player_named(self, name: str) -> Player | None:
        rows = self._read("SELECT id, name, created FROM players WHERE name = ?", (name,))
        return _player(rows[0]) if rows else None

    def keys_of(self, player: int) -> list[str]:
        rows = self._read("SELECT fingerprint FROM keys WHERE player = ? ORDER BY added, "
                          "fingerprint", (player,))
        return [_text(row[0], "key", 200) for row in rows]

    def ensure_player(self, fingerprint: str) -> concurrent.futures.Future[int]:
        """The player ``fingerprint`` belongs to, made (with no name yet) on first sight."""
        now = self._now()
        return self._write(lambda conn: _ensure(conn, fingerprint, now))

    def add_key(self, player: int, fingerprint: str) -> concurrent.futures.Future[bool]:
        """Give ``player`` another key; False when the key is already someone's."""
        now = self._now()

        def work(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute("INSERT OR IGNORE INTO keys (fingerprint, player, added) "
                                  "VALUES (?, ?, ?)", (fingerprint, player, now))
            return cursor.rowcount == 1
        return self._write(work)

    def claim_name(self, player: int, name: str) -> concurrent.futures.Future[bool]:
        """Claim ``name`` for ``player``; False when another player has it (in any
        case)."""
        name = clean_name(name)

        def work(conn: sqlite3.Connection) -> bool:
            try:
                cursor = conn.execute("UPDATE players SET name = ? WHERE id = ?",
                                      (name, player))
            except sqlite3.IntegrityError:
                return False
            return cursor.rowcount == 1
        return self._write(work)

    def offer_key(self, player: int, fingerprint: str, seconds: float, most: int
                  ) -> concurrent.futures.Future[str]:
        """Note ``fingerprint`` (a key pasted, not yet logged in) for ``player`` until
        ``seconds`` from now, keeping at most ``most`` offers host-wide (the oldest go
        first); offers whose time is up are forgotten. The answer: ``"noted"``,
        ``"offered"`` (another account's offer holds it) or ``"taken"`` (it is a key of
        an account already)."""
        now = self._now()

        def work(conn: sqlite3.Connection) -> str:
            conn.execute("DELETE FROM pending_keys WHERE ends <= ?", (now,))
            if conn.execute("SELECT 1 FROM keys WHERE fingerprint = ?",
                            (fingerprint,)).fetchone() is not None:
                return "taken"
            row = conn.execute("SELECT player FROM pending_keys WHERE fingerprint = ?",
                               (fingerprint,)).fetchone()
            if row is not None and row[0] != player:
                return "offered"
            conn.execute("DELETE FROM pending_keys WHERE fingerprint IN (SELECT fingerprint "
                         "FROM pending_keys WHERE fingerprint != ? ORDER BY ends, "
                         "fingerprint LIMIT max(0, (SELECT count(*) FROM pending_keys) "
                         "- ? + 1))", (fingerprint, max(1, most)))
            conn.execute("INSERT INTO pending_keys (fingerprint, player, ends) VALUES "
                         "(?, ?, ?) ON CONFLICT (fingerprint) DO UPDATE SET ends = "
                         "excluded.ends", (fingerprint, player, now + seconds))
            return "noted"
        return self._write(work)

    def pending_keys(self, player: int) -> int:
        """How many keys wait to join ``player``'s account (their time not up)."""
        rows = self._read("SELECT count(*) FROM pending_keys WHERE player = ? AND ends > ?",
                          (player, self._now()))
        return _int(rows[0][0], "count")

    def take_offer(self, fingerprint: str) -> concurrent.futures.Future[int | None]:
        """At a key's first login: the account it was offered to, now one of its keys
        (the offer is used up); None when there is no offer in time, or the key is an
        account's already."""
        now = self._now()

        def work(conn: sqlite3.Connection) -> int | None:
            row = conn.execute("SELECT player, ends FROM pending_keys WHERE fingerprint = ?",
                               (fingerprint,)).fetchone()
            conn.execute("DELETE FROM pending_keys WHERE fingerprint = ?", (fingerprint,))
            if row is None or _real(row[1], "time") <= now:
                return None
            cursor = conn.execute("INSERT OR IGNORE INTO keys (fingerprint, player, added) "
                                  "VALUES (?, ?, ?)", (fingerprint, row[0], now))
            return _int(row[0], "player id") if cursor.rowcount == 1 else None
        return self._write(work)

    def first_key(self, player: int) -> str | None:
        """The key ``player``'s account was made with (its first, in the order keys were
        added): the identity every session of the account goes by, whichever of its keys
        logged in (so a player's folder, seats and ratings stay where the first key put
        them)."""
        rows = self._read("SELECT fingerprint FROM keys WHERE player = ? ORDER BY rowid "
                          "LIMIT 1", (player,))
        return _text(rows[0][0], "key", 200) if rows else None

    def claim_first_name(self, player: int, name: str) -> concurrent.futures.Future[str]:
        """Claim ``name`` for ``player`` if they have none yet (a name is claimed once
        and kept). The answer: ``"claimed"``, ``"taken"`` (another player has it, in any
        case), ``"named"`` (this player has a name already) or ``"unknown"``."""
        name = clean_name(name)

        def work(conn: sqlite3.Connection) -> str:
            row = conn.execute("SELECT name FROM players WHERE id = ?", (player,)).fetchone()
            if row is None:
                return "unknown"
            if row[0] is not None:
                return "named"
            try:
                conn.execute("UPDATE players SET name = ? WHERE id = ?", (name, player))
            except sqlite3.IntegrityError:
                return "taken"
            return "claimed"
        return self._write(work)

    # -- ratings --

    def rating(self, player: int, game: str) -> Rating | None:
        rows = self._read("SELECT player, game, rating, deviation, volatility, games, "
                          "updated FROM ratings WHERE player = ? AND game = ?",
                          (player, game))
        return _rating(rows[0]) if rows else None

    def ratings_of(self, player: int) -> list[Rating]:
        """``player``'s rating in every game they have one in, by game."""
        rows = self._read("SELECT player, game, rating, deviation, volatility, games, "
                          "updated FROM ratings WHERE player = ? ORDER BY game", (player,))
        return [_rating(row) for row in rows]

    def leaderboard(self, game: str, min_games: int, limit: int = 50
                    ) -> list[tuple[Player, Rating]]:
        """The players rated in ``game`` with at least ``min_games`` rated games, best
        first (a higher rating, then a smaller deviation, then the older player)."""
        rows = self._read("SELECT p.id, p.name, p.created, r.player, r.game, r.rating, "
                          "r.deviation, r.volatility, r.games, r.updated FROM ratings r "
                          "JOIN players p ON p.id = r.player WHERE r.game = ? AND "
                          "r.games >= ? ORDER BY r.rating DESC, r.deviation, p.id LIMIT ?",
                          (game, min_games, limit))
        return [(_player(row[:3]), _rating(row[3:])) for row in rows]

    def rank(self, player: int, game: str, min_games: int) -> tuple[int, int] | None:
        """``player``'s place on ``game``'s leaderboard and how many are on it; None
        while they have fewer than ``min_games`` rated games there."""
        mine = self.rating(player, game)
        if mine is None or mine.games < min_games:
            return None
        rows = self._read("SELECT sum(rating > ? OR (rating = ? AND (deviation < ? OR "
                          "(deviation = ? AND player < ?)))), count(*) FROM ratings "
                          "WHERE game = ? AND games >= ?",
                          (mine.rating, mine.rating, mine.deviation, mine.deviation, player,
                           game, min_games))
        ahead, total = rows[0]
        return _int(ahead or 0, "rank") + 1, _int(total, "count")

    def record_of(self, player: int) -> dict[str, tuple[int, int, int]]:
        """``player``'s archived games decided per game: (wins, draws, losses)."""
        rows = self._read("SELECT g.game, gp.seat, g.result, count(*) FROM games g "
                          "JOIN game_players gp ON gp.game = g.id WHERE gp.player = ? "
                          "GROUP BY g.game, gp.seat, g.result", (player,))
        record: dict[str, list[int]] = {}
        for game, seat, result, count in rows:
            game, seat = _text(game, "game"), _int(seat, "seat")
            count = _int(count, "count")
            score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(_text(result, "result"))
            if score is None or seat not in (0, 1):
                continue  # unfinished
            mine = score if seat == 0 else 1.0 - score
            tally = record.setdefault(game, [0, 0, 0])
            tally[0 if mine == 1.0 else 1 if mine == 0.5 else 2] += count
        return {game: (w, d, lost) for game, (w, d, lost) in sorted(record.items())}

    def set_rating(self, player: int, game: str, rating: float, deviation: float,
                   volatility: float, games: int) -> concurrent.futures.Future[None]:
        """Store ``player``'s rating in ``game`` (after a rated game)."""
        check_rating(rating, deviation, volatility)
        now = self._now()

        def work(conn: sqlite3.Connection) -> None:
            _store_rating(conn, player, game, rating, deviation, volatility, games, now)
        return self._write(work)

    def set_rating_for_key(self, fingerprint: str, game: str, rating: float,
                           deviation: float, volatility: float, games: int
                           ) -> concurrent.futures.Future[int]:
        """:meth:`set_rating` for the player of key ``fingerprint`` (made on first sight);
        the answer is the player's id."""
        check_rating(rating, deviation, volatility)
        now = self._now()

        def work(conn: sqlite3.Connection) -> int:
            player = _ensure(conn, fingerprint, now)
            _store_rating(conn, player, game, rating, deviation, volatility, games, now)
            return player
        return self._write(work)

    def settle(self, game_id: str, game: str, sides: Sequence[RatedSide]
               ) -> concurrent.futures.Future[dict[int, tuple[PlayerRating, PlayerRating]]]:
        """Count the finished game ``game_id`` (of ``game``) in the ratings of ``sides``,
        in ONE transaction and once: each side's player (its key's account, made on first
        sight) is counted unless this game id was counted for them already, so settling
        again (a retry, a host restarted mid-way) changes nothing. Every side is rated
        from the ratings as they were before this game (a player never rated starts at
        :meth:`PlayerRating.fresh`). The answer: each side counted now, its rating before
        and after. A damaged rating row fails the whole settlement (HostDataError, one
        line) and changes nothing."""
        game = get_game(game).id
        if not isinstance(game_id, str) or not 0 < len(game_id) <= MAX_GAME_ID:
            raise HostDataError("a rated game's id must be 1 to 200 characters")
        seated = {s.side for s in sides}
        if len(seated) != len(sides) or not seated <= {0, 1}:
            raise HostDataError("a rated game has at most one player a side")
        for s in sides:
            if s.score not in (0.0, 0.5, 1.0):
                raise HostDataError(f"a score must be 1, 0.5 or 0, not {s.score!r:.20}")
            if s.opponent is None and 1 - s.side not in seated:
                raise HostDataError("a side rated against the other has no other side")
            if s.opponent is not None:
                opponent_glicko(*s.opponent)  # ValueError for a bad one, before queueing
        fresh = PlayerRating.fresh(game)
        now = self._now()

        def work(conn: sqlite3.Connection) -> dict[int, tuple[PlayerRating, PlayerRating]]:
            players = {s.side: _ensure(conn, s.key, now) for s in sides}
            if len(set(players.values())) != len(players):
                raise HostDataError("one account on both sides of a game is not rated")
            before = {side: _stored(conn, player, game) or fresh
                      for side, player in players.items()}
            counted = {}
            for s in sides:
                player = players[s.side]
                cursor = conn.execute("INSERT OR IGNORE INTO rated_games (id, player, game, "
                                      "counted) VALUES (?, ?, ?, ?)",
                                      (game_id, player, game, now))
                if cursor.rowcount != 1:
                    continue  # counted already
                mine = before[s.side]
                opponent = (opponent_glicko(*s.opponent) if s.opponent is not None
                            else before[1 - s.side].glicko)
                after = rated_after(mine, opponent, s.score)
                _store_rating(conn, player, game, after.rating, after.deviation,
                              after.volatility, after.games, now)
                counted[s.side] = (mine, after)
            return counted
        return self._write(work)

    def counted(self, player: int, game_id: str) -> bool:
        """Whether the game ``game_id`` is counted in ``player``'s rating."""
        return bool(self._read("SELECT 1 FROM rated_games WHERE id = ? AND player = ?",
                               (game_id, player)))

    def tasks(self) -> list[str]:
        """What migrations left for the host to do (see :meth:`import_ratings`)."""
        return [_text(row[0], "task", 200) for row in self._read(
            "SELECT task FROM host_tasks ORDER BY task")]

    def import_ratings(self, ratings_of: Callable[[str], PlayerRatings]
                       ) -> concurrent.futures.Future[tuple[int, list[str]]]:
        """Once, as migration 4 asks: bring every known player's ``ratings.json`` (the
        file of their account's first key, ``ratings_of(identity)``) into the database,
        in one transaction that also marks it done. Per game, the file's current rating
        is taken unless the database's own counts more rated games; the ids of the games
        the file counted are marked counted, so none of them counts again. A file or an
        entry that cannot be read is one line of the answer (the others are taken), a
        damaged rating row of the database is replaced by the file's. The answer: the
        ratings taken and those lines. Nothing happens once done."""
        now = self._now()

        def work(conn: sqlite3.Connection) -> tuple[int, list[str]]:
            if conn.execute("SELECT 1 FROM host_tasks WHERE task = ?",
                            (IMPORT_RATINGS,)).fetchone() is None:
                return 0, []
            taken, lines = 0, []
            firsts = conn.execute("SELECT player, fingerprint FROM keys k WHERE rowid = "
                                  "(SELECT min(rowid) FROM keys WHERE player = k.player) "
                                  "ORDER BY player").fetchall()
            for player, identity in firsts:
                if not isinstance(identity, str) or not isinstance(player, int):
                    continue
                ratings = ratings_of(identity)
                entries = ratings.all()
                if ratings.problem:  # what was wrong (the file itself is left as it is)
                    problem = ratings.problem.split("; ")[0]
                    lines.append(f"player {player}: {problem}"[:300])
                for game, entry in sorted(entries.items()):
                    if game not in GAMES:
                        lines.append(f"player {player}: no game {game[:40]!r} on this host")
                        continue
                    try:
                        kept = _stored(conn, player, game)
                    except HostDataError as error:
                        lines.append(f"player {player}: {error}"[:300])
                        kept = None
                    conn.executemany("INSERT OR IGNORE INTO rated_games (id, player, game, "
                                     "counted) VALUES (?, ?, ?, ?)",
                                     [(key, player, game, now) for key in entry.counted])
                    if kept is not None and kept.games > entry.games:
                        continue
                    _store_rating(conn, player, game, entry.rating, entry.deviation,
                                  entry.volatility, entry.games, now)
                    taken += 1
            conn.execute("DELETE FROM host_tasks WHERE task = ?", (IMPORT_RATINGS,))
            return taken, lines
        return self._write(work)

    # -- the archive --

    def archive(self, game: ArchivedGame, keys: Mapping[int, str] | None = None
                ) -> concurrent.futures.Future[bool]:
        """Keep a finished game; False when a game with its id is already kept (a game
        finished again after a restart is archived once). ``keys`` gives seats by key
        fingerprint instead of player id: each seat's player is found (or made) in the
        same transaction."""
        if len(game.record) > MAX_RECORD:
            raise HostDataError(f"a game record over {MAX_RECORD} characters")
        now = self._now()

        def work(conn: sqlite3.Connection) -> bool:
            seats = [(s.seat, _ensure(conn, keys[s.seat], now) if keys and s.seat in keys
                      else s.player, s.name) for s in game.seats]
            cursor = conn.execute(
                "INSERT OR IGNORE INTO games (id, game, result, termination, record, "
                "finished, rated, room) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (game.id, game.game, game.result, game.termination, game.record,
                 game.finished, int(game.rated), game.room))
            if cursor.rowcount != 1:
                return False
            conn.executemany("INSERT INTO game_players (game, seat, player, name) "
                             "VALUES (?, ?, ?, ?)",
                             [(game.id, *seat) for seat in seats])
            return True
        return self._write(work)

    def games_of(self, player: int, limit: int = 50) -> list[ArchivedGame]:
        """``player``'s archived games, the latest first."""
        rows = self._read("SELECT g.id FROM games g JOIN game_players gp ON gp.game = g.id "
                          "WHERE gp.player = ? ORDER BY g.finished DESC, g.id LIMIT ?",
                          (player, limit))
        found = [self.game(_text(row[0], "game id", 200)) for row in rows]
        return [game for game in found if game is not None]

    def game(self, game_id: str) -> ArchivedGame | None:
        rows = self._read("SELECT id, game, result, termination, record, finished, rated, "
                          "room FROM games WHERE id = ?", (game_id,))
        if not rows:
            return None
        seats = self._read("SELECT seat, player, name FROM game_players WHERE game = ? "
                           "ORDER BY seat", (game_id,))
        row = rows[0]
        return ArchivedGame(
            id=_text(row[0], "game id", 200), game=_text(row[1], "game"),
            result=_text(row[2], "result"), termination=_text(row[3], "termination", 200),
            record=_text(row[4], "record", MAX_RECORD), finished=_real(row[5], "time"),
            rated=bool(_int(row[6], "rated flag")), room=_text(row[7], "room"),
            seats=tuple(Seat(_int(s[0], "seat"), _opt_int(s[1], "player id"),
                             _text(s[2], "name", 200)) for s in seats))

    # -- invitations --

    def invite(self, room: str, sender: int, recipient: int
               ) -> concurrent.futures.Future[int]:
        now = self._now()

        def work(conn: sqlite3.Connection) -> int:
            cursor = conn.execute("INSERT INTO invitations (room, sender, recipient, created) "
                                  "VALUES (?, ?, ?, ?)", (room, sender, recipient, now))
            return _int(cursor.lastrowid, "invitation id")
        return self._write(work)

    def answer(self, invitation: int, accepted: bool) -> concurrent.futures.Future[bool]:
        """Answer an open invitation; False when there is none such (or it was answered)."""
        now = self._now()

        def work(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute("UPDATE invitations SET answered = ?, accepted = ? "
                                  "WHERE id = ? AND answered IS NULL",
                                  (now, int(accepted), invitation))
            return cursor.rowcount == 1
        return self._write(work)

    def invitations_for(self, recipient: int, open_only: bool = True) -> list[Invitation]:
        rows = self._read("SELECT id, room, sender, recipient, created, answered, accepted "
                          "FROM invitations WHERE recipient = ? "
                          + ("AND answered IS NULL " if open_only else "") + "ORDER BY id",
                          (recipient,))
        return [Invitation(_int(r[0], "invitation id"), _text(r[1], "room"),
                           _int(r[2], "player id"), _int(r[3], "player id"),
                           _real(r[4], "time"),
                           None if r[5] is None else _real(r[5], "time"),
                           None if r[6] is None else bool(_int(r[6], "answer")))
                for r in rows]

    # -- correspondence games --

    def corr_create(self, game: CorrGame) -> concurrent.futures.Future[None]:
        """Keep a new correspondence game (HostDataError when its id is taken)."""
        values = _corr_values(game)

        def work(conn: sqlite3.Connection) -> None:
            conn.execute(f"INSERT INTO corr_games ({CORR_COLUMNS}) VALUES "
                         f"({', '.join('?' * 17)})", values)
        return self._write(work)

    def corr_save(self, game: CorrGame) -> concurrent.futures.Future[bool]:
        """Replace a game kept with ``game``, whose version is the one read plus one;
        False (nothing written) when the game changed since it was read, or is gone."""
        values = _corr_values(game)

        def work(conn: sqlite3.Connection) -> bool:
            cursor = conn.execute(
                "UPDATE corr_games SET game = ?, options = ?, first_key = ?, second_key = ?, "
                "first_name = ?, second_name = ?, invited = ?, moves = ?, days = ?, "
                "deadline = ?, result = ?, termination = ?, told = ?, version = ?, "
                "created = ?, updated = ? WHERE id = ? AND version = ?",
                (*values[1:], game.id, game.version - 1))
            return cursor.rowcount == 1
        return self._write(work)

    def corr_told(self, game_id: str, sides: int) -> concurrent.futures.Future[None]:
        """Mark the players of ``sides`` (bits ``1 << side``) as told the result."""
        def work(conn: sqlite3.Connection) -> None:
            conn.execute("UPDATE corr_games SET told = told | ? WHERE id = ?",
                         (sides & 3, game_id))
        return self._write(work)

    def corr_game(self, game_id: str) -> CorrGame | None:
        """One game (HostDataError, one line, when its row is damaged)."""
        rows = self._read(f"SELECT {CORR_COLUMNS} FROM corr_games WHERE id = ?", (game_id,))
        return _corr_row(rows[0]) if rows else None

    def corr_of(self, identity: str, limit: int = 200) -> tuple[list[CorrGame], list[str]]:
        """The games of ``identity`` (seated or challenged), the latest changed first,
        and a line for each damaged row (skipped)."""
        return _corr_rows(self._read(
            f"SELECT {CORR_COLUMNS} FROM corr_games WHERE first_key = ? OR second_key = ? "
            "OR invited = ? ORDER BY updated DESC, id LIMIT ?",
            (identity, identity, identity, limit)))

    def corr_open(self, limit: int = 50) -> tuple[list[CorrGame], list[str]]:
        """The games waiting for anyone to take their open seat, the oldest first."""
        return _corr_rows(self._read(
            f"SELECT {CORR_COLUMNS} FROM corr_games WHERE result IS NULL AND invited IS NULL "
            "AND (first_key IS NULL OR second_key IS NULL) ORDER BY created, id LIMIT ?",
            (limit,)))

    def corr_unsettled(self, limit: int = 100) -> list[str]:
        """The ids of the decided games with moves not in the archive yet (the host
        stopped between keeping a result and archiving it)."""
        rows = self._read("SELECT c.id FROM corr_games c WHERE c.result IN ('1-0', '0-1', "
                          "'1/2-1/2') AND c.moves != '[]' AND c.first_key IS NOT NULL AND "
                          "c.second_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM games g "
                          "WHERE g.id = c.id) ORDER BY c.updated LIMIT ?", (limit,))
        return [row[0] for row in rows if isinstance(row[0], str)]

    def corr_due(self, now: float, limit: int = 500) -> list[str]:
        """The ids of the games whose side to move is out of time at ``now``."""
        rows = self._read("SELECT id FROM corr_games WHERE result IS NULL AND deadline "
                          "IS NOT NULL AND deadline <= ? ORDER BY deadline LIMIT ?",
                          (now, limit))
        return [row[0] for row in rows if isinstance(row[0], str)]

    # -- chat --

    def say(self, room: str, author: int | None, text: str
            ) -> concurrent.futures.Future[int]:
        text = "".join(c for c in text if c.isprintable()).strip()[:MAX_CHAT]
        if not text:
            raise HostDataError("an empty chat message")
        now = self._now()

        def work(conn: sqlite3.Connection) -> int:
            cursor = conn.execute("INSERT INTO chat (room, author, text, time) "
                                  "VALUES (?, ?, ?, ?)", (room, author, text, now))
            return _int(cursor.lastrowid, "message id")
        return self._write(work)

    def chat(self, room: str, limit: int = 100) -> list[ChatMessage]:
        """The latest ``limit`` messages in ``room``, oldest first."""
        rows = self._read("SELECT id, room, author, text, time FROM chat WHERE room = ? "
                          "ORDER BY id DESC LIMIT ?", (room, limit))
        return [ChatMessage(_int(r[0], "message id"), _text(r[1], "room"),
                            _opt_int(r[2], "player id"), _text(r[3], "message", MAX_CHAT),
                            _real(r[4], "time"))
                for r in reversed(rows)]


def _corr_row(row: tuple[Any, ...]) -> CorrGame:
    """A correspondence game read back, checked (HostDataError, one line, if damaged)."""
    game_id = _text(row[0], "correspondence game id", 80)
    try:
        options = json.loads(_text(row[2], "options", 2000))
        moves = json.loads(_text(row[8], "moves", MAX_RECORD))
    except (ValueError, RecursionError):
        raise HostDataError(f"damaged correspondence game {game_id}: not JSON") from None
    if not isinstance(options, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in options.items()):
        raise HostDataError(f"damaged options of correspondence game {game_id}")
    if not isinstance(moves, list) or len(moves) > MAX_CORR_MOVES or not all(
            isinstance(m, str) and 0 < len(m) <= 64 for m in moves):
        raise HostDataError(f"damaged moves of correspondence game {game_id}")
    days = _int(row[9], "days per move")
    if days not in CORR_DAYS:
        raise HostDataError(f"damaged days per move of correspondence game {game_id}")
    told = _int(row[13], "told flags")
    if not 0 <= told <= 3:
        raise HostDataError(f"damaged told flags of correspondence game {game_id}")
    seats = (None if row[3] is None else _text(row[3], "identity", 200),
             None if row[4] is None else _text(row[4], "identity", 200))
    return CorrGame(
        id=game_id, game=_text(row[1], "game"), options=options, seats=seats,
        names=(_text(row[5], "name"), _text(row[6], "name")),
        invited=None if row[7] is None else _text(row[7], "identity", 200),
        moves=tuple(moves), days=days,
        deadline=None if row[10] is None else _real(row[10], "deadline"),
        result=None if row[11] is None else _text(row[11], "result"),
        termination=_text(row[12], "termination", 200), told=told,
        version=_int(row[14], "version"), created=_real(row[15], "time"),
        updated=_real(row[16], "time"))


def _corr_values(game: CorrGame) -> tuple[Any, ...]:
    if len(game.moves) > MAX_CORR_MOVES:
        raise HostDataError(f"a correspondence game over {MAX_CORR_MOVES} moves")
    if game.days not in CORR_DAYS:
        raise HostDataError("days per move must be 1, 3 or 7")
    return (game.id, game.game, json.dumps(game.options, sort_keys=True), game.seats[0],
            game.seats[1], game.names[0], game.names[1], game.invited,
            json.dumps(list(game.moves)), game.days, game.deadline, game.result,
            game.termination, game.told, game.version, game.created, game.updated)


def _corr_rows(rows: list[tuple[Any, ...]]) -> tuple[list[CorrGame], list[str]]:
    """The games of ``rows`` that read back, and one line for each damaged one."""
    games, bad = [], []
    for row in rows:
        try:
            games.append(_corr_row(row))
        except HostDataError as error:
            bad.append(str(error)[:200])
    return games, bad


def _ensure(conn: sqlite3.Connection, fingerprint: str, now: float) -> int:
    """Inside a write: the player of key ``fingerprint``, made on first sight."""
    if not isinstance(fingerprint, str) or not 0 < len(fingerprint) <= 200:
        raise HostDataError("a key fingerprint must be 1 to 200 characters")
    row = conn.execute("SELECT player FROM keys WHERE fingerprint = ?",
                       (fingerprint,)).fetchone()
    if row is not None:
        return _int(row[0], "player id")
    cursor = conn.execute("INSERT INTO players (name, created) VALUES (NULL, ?)", (now,))
    player = _int(cursor.lastrowid, "player id")
    conn.execute("INSERT INTO keys (fingerprint, player, added) VALUES (?, ?, ?)",
                 (fingerprint, player, now))
    return player


def _store_rating(conn: sqlite3.Connection, player: int, game: str, rating: float,
                  deviation: float, volatility: float, games: int, now: float) -> None:
    conn.execute("INSERT INTO ratings (player, game, rating, deviation, volatility, games, "
                 "updated) VALUES (?, ?, ?, ?, ?, ?, ?) "
                 "ON CONFLICT (player, game) DO UPDATE SET rating = excluded.rating, "
                 "deviation = excluded.deviation, volatility = excluded.volatility, "
                 "games = excluded.games, updated = excluded.updated",
                 (player, game, rating, deviation, volatility, games, now))


def _stored(conn: sqlite3.Connection, player: int, game: str) -> PlayerRating | None:
    """Inside a write: ``player``'s rating in ``game`` as kept (None: none yet);
    HostDataError for a damaged row."""
    row = conn.execute("SELECT player, game, rating, deviation, volatility, games, updated "
                       "FROM ratings WHERE player = ? AND game = ?", (player, game)).fetchone()
    if row is None:
        return None
    kept = _rating(row)
    return PlayerRating(game, kept.rating, kept.deviation, kept.volatility, kept.games)


def _player(row: tuple[Any, ...]) -> Player:
    name = row[1]
    return Player(_int(row[0], "player id"), None if name is None else _text(name, "name"),
                  _real(row[2], "time"))


def _rating(row: tuple[Any, ...]) -> Rating:
    rating = Rating(_int(row[0], "player id"), _text(row[1], "game"),
                    _real(row[2], "rating"), _real(row[3], "deviation"),
                    _real(row[4], "volatility"), _int(row[5], "games count"),
                    _real(row[6], "time"))
    try:
        check_rating(rating.rating, rating.deviation, rating.volatility)
    except ParlorError as error:
        raise HostDataError(f"damaged rating in the host database: {error}") from None
    if rating.games < 0:
        raise HostDataError(f"damaged games count in the host database: {rating.games}")
    return rating


# --- backup ----------------------------------------------------------------------------

def backup(data: Path, target: Path) -> int:
    """Copy ``data/host.db`` to ``target`` with SQLite's online backup (safe while the
    host writes); refuses an existing ``target``. Returns the schema version copied;
    HostDataError (one line) on any problem."""
    source_path = data / FILE_NAME
    if not _check_regular(source_path):
        raise HostDataError(f"no host database in that folder ({FILE_NAME} not found)")
    source = _connect(source_path, read_only=True)
    try:
        version = _version(source, source_path)
        try:
            fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            raise HostDataError(f"{target.name} exists already; not overwriting it") from None
        except OSError as error:
            raise HostDataError(f"{target.name}: {error.strerror or error}") from None
        os.close(fd)
        try:
            copy = sqlite3.connect(str(target), isolation_level=None)
            try:
                source.backup(copy)
                copy.execute("PRAGMA journal_mode = DELETE")
            finally:
                copy.close()
        except sqlite3.Error as error:
            with contextlib.suppress(OSError):
                os.unlink(target)
            raise HostDataError(f"backup failed: {error}") from None
        return version
    finally:
        source.close()
