"""The game store: one file per game, so no game overwrites another.

Every game in progress has its own record, ``unfinished/<id>.pgn`` in the data
directory, rewritten atomically (:func:`engine.record.save_records`) after each move;
the id is unique per game (time, process and random bits), so any number of sessions
(terminals, ``parlor serve``) keep their games apart. A finished game moves to
``history/<id>.pgn``. A game leaves ``unfinished/`` only when it ends, when the user
discards it, or when it is taken back to no moves at all. The session playing a game
holds an advisory lock on it (``unfinished/.<id>.lock``, ``flock``), so a second session
that resumes the same game goes on with a copy instead of writing over the first.

Reading is defensive: only regular files are opened (without blocking, so a FIFO or a
device cannot hang the app), at most the record cap is read, and each bad entry becomes
one line of text instead of an exception.
"""

from __future__ import annotations

import errno
import os
import secrets
import stat
import sys
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from engine.files import FileReadError, read_capped
from engine.formats import parse_records
from engine.protocol import AnyState, ParlorError
from engine.record import MAX_BYTES, GameRecord, save_records
from tui.player import paths

if sys.platform != "win32":
    import fcntl

STALE_TEMP_SECONDS = 60.0
"""A save's temporary file older than this was left by a killed save (a save takes
milliseconds), so it is removed at start; younger ones may belong to a running session."""
HISTORY_LISTED = 50
"""How many finished games (newest first) the saved-games browser lists."""


def new_game_id() -> str:
    """A fresh id for a game: sortable by start time, unique across sessions."""
    return f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}-{secrets.token_hex(4)}"


def short(text: object, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters (with an ellipsis) for one-line messages."""
    s = str(text)
    return s if len(s) <= limit else s[: limit - 1] + "…"


# --------------------------------------------------------------------------- reading


def read_records(path: Path) -> list[GameRecord]:
    """The games in the regular file at ``path``; a ParlorError naming only the file's
    name otherwise (read through :func:`engine.files.read_capped`: without blocking, a
    regular file only, at most the record cap)."""
    source = path.name
    try:
        paths.confined(path, write=False)
    except ValueError as exc:
        raise ParlorError(f"{short(source)}: {exc}") from None
    try:
        data = read_capped(path, MAX_BYTES)
    except FileReadError as exc:
        raise ParlorError(f"{short(source)}: {exc.reason}") from None
    return parse_records(data, source=source, suffix=path.suffix)


@dataclass
class Entry:
    """One game found in a file, or the one-line error that file gave."""

    path: Path
    record: GameRecord | None
    error: str = ""
    mtime: float = 0.0

    @property
    def game_id(self) -> str:
        """The store id of this game (the file's stem)."""
        return self.path.stem

    @property
    def when(self) -> str:
        """The file's modification time, as ``YYYY-MM-DD HH:MM``."""
        return datetime.fromtimestamp(self.mtime).strftime("%Y-%m-%d %H:%M") if self.mtime else ""


def record_files(folder: Path, suffixes: tuple[str, ...] = (paths.RECORD_SUFFIX,),
                 ) -> list[tuple[Path, float, str]]:
    """``(path, mtime, problem)`` for each entry of ``folder`` whose name ends with one of
    ``suffixes`` (any case; Parlor's ``.pgn`` by default), newest first.

    Never raises: a missing folder gives ``[]``; an entry that is not a regular file
    (a FIFO, a device, a dangling symlink) is listed with its problem.
    """
    out: list[tuple[Path, float, str]] = []
    try:
        with os.scandir(folder) as it:
            names = [(e.name, Path(e.path)) for e in it
                     if e.name.lower().endswith(suffixes) and not e.name.startswith(".")]
    except OSError:
        return []
    for _, path in names:
        try:
            info = path.stat()  # follows symlinks: a link to a regular file is fine
        except OSError as exc:
            out.append((path, 0.0, f"cannot read: {exc.strerror or exc}"))
            continue
        problem = "" if stat.S_ISREG(info.st_mode) else "not a regular file"
        out.append((path, info.st_mtime, problem))
    out.sort(key=lambda item: item[1], reverse=True)
    return out


def scan(sources: list[Path], limit: int | None = None,
         suffixes: tuple[str, ...] = (paths.RECORD_SUFFIX,)) -> list[Entry]:
    """Every game in ``sources`` (record files, and the files of folders whose names end
    with one of ``suffixes``, newest first; at most ``limit`` files per folder). Never
    raises: a file that cannot be read is one entry with its error; missing sources are
    skipped."""
    entries: list[Entry] = []
    for source in sources:
        try:
            is_dir = source.is_dir()
        except OSError:
            is_dir = False
        if is_dir:
            files = record_files(source, suffixes)[:limit]
        else:
            try:
                info = source.stat()
            except OSError:
                continue
            problem = "" if stat.S_ISREG(info.st_mode) else "not a regular file"
            files = [(source, info.st_mtime, problem)]
        for path, mtime, problem in files:
            if problem:
                entries.append(Entry(path, None, f"{short(path.name)}: {problem}", mtime))
                continue
            try:
                records = read_records(path)
            except ParlorError as exc:
                entries.append(Entry(path, None, str(exc), mtime))
                continue
            entries.extend(Entry(path, rec, "", mtime) for rec in records)
    return entries


def unfinished() -> list[Entry]:
    """The unfinished games (newest first), and one entry per file that cannot be read."""
    return [e for e in scan([paths.unfinished_dir()])
            if e.record is None or (e.record.result == "*")]


def most_recent_unfinished() -> GameRecord | None:
    """The unfinished game saved last, or None."""
    for entry in unfinished():
        if entry.record is not None:
            return entry.record
    return None


# --------------------------------------------------------------------------- writing


class GameFile:
    """Where one game is kept: ``unfinished/<id>.pgn`` while it goes on, then history."""

    def __init__(self, game_id: str | None = None) -> None:
        self.id = game_id or new_game_id()
        self.lock_fd: int | None = None
        """The open lock file while this session holds the game."""

    @property
    def lock_path(self) -> Path:
        """The lock file of this game (held by the session playing it)."""
        return paths.unfinished_dir() / f".{self.id}.lock"

    def claim(self) -> bool:
        """Hold this game for this session; False if another session holds it. A lock
        that cannot be made at all (a read-only folder) does not stop play."""
        if self.lock_fd is not None or sys.platform == "win32":
            return True
        try:
            self.lock_path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0),
                         0o600)
        except OSError:
            return True
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            return exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EACCES)
        self.lock_fd = fd
        return True

    def release(self) -> None:
        """Let other sessions resume this game; the lock file goes once the game has left
        ``unfinished/``."""
        if self.lock_fd is None:
            return
        if not self.unfinished_path.exists():
            self.lock_path.unlink(missing_ok=True)
        os.close(self.lock_fd)
        self.lock_fd = None

    @property
    def unfinished_path(self) -> Path:
        """The record of this game while it is unfinished."""
        return paths.unfinished_dir() / f"{self.id}{paths.RECORD_SUFFIX}"

    @property
    def history_path(self) -> Path:
        """The record of this game once it is finished."""
        return paths.history_dir() / f"{self.id}{paths.RECORD_SUFFIX}"

    def save(self, record: GameRecord) -> Path | None:
        """Keep ``record`` (atomically); raises OSError if it cannot be written.

        An unfinished game is written to ``unfinished/``; a finished one to ``history/``
        and then removed from ``unfinished/``; a game with no moves is not kept.
        """
        if not record.moves:
            self.discard()
            return None
        if record.result == "*":
            return save_records(self.unfinished_path, record)
        target = save_records(self.history_path, record)
        self.unfinished_path.unlink(missing_ok=True)
        return target

    def discard(self) -> None:
        """Remove this game's unfinished record (the user chose to, or it has no moves)."""
        self.unfinished_path.unlink(missing_ok=True)


def in_use(game_id: str) -> bool:
    """True if another session (or another screen) holds the game ``game_id``."""
    probe = GameFile(game_id)
    if not probe.lock_path.exists():
        return False
    if not probe.claim():
        return True
    probe.release()
    return False


def discard(entry: Entry) -> None:
    """Remove the unfinished game of ``entry``; OSError if it cannot be removed, and
    ValueError if it is not an unfinished game or a session is playing it."""
    if entry.path.parent != paths.unfinished_dir():
        raise ParlorError(f"{short(entry.path.name)} is not an unfinished game")
    if in_use(entry.game_id):
        raise ParlorError("this game is being played in another session")
    entry.path.unlink(missing_ok=True)
    GameFile(entry.game_id).lock_path.unlink(missing_ok=True)


def check_readable(state: AnyState, players: tuple[str, str]) -> None:
    """Raise ParlorError (one line) unless a record of a game from ``state`` played by
    ``players`` reads back: every option and tag must fit what the reader accepts."""
    record = GameRecord.from_moves(state, [], First=players[0], Second=players[1])
    try:
        parse_records(record.to_text(), source="the new game")
    except ParlorError as exc:
        raise ParlorError(short(str(exc), 120)) from None


def save_new(path: Path, record: GameRecord, *, replace: bool = False) -> Path:
    """Write ``record`` to ``path``; FileExistsError if it exists and ``replace`` is false
    (ValueError, in a hosted session, for a path outside the player's data directory)."""
    paths.confined(path, write=True)
    if not replace and os.path.lexists(path):
        raise FileExistsError(errno.EEXIST, "a file of that name exists", str(path))
    return save_records(path, record)


# --------------------------------------------------------------------------- upkeep


def clean_stale_temps(now: float | None = None) -> list[Path]:
    """Remove temporary files a killed save left (``.*.tmp`` older than a minute) from
    the store's folders; returns what was removed. Errors are ignored (best effort)."""
    now = time.time() if now is None else now
    removed: list[Path] = []
    for folder in (paths.data_dir(), paths.unfinished_dir(), paths.history_dir(),
                   paths.saved_games_dir()):
        try:
            with os.scandir(folder) as it:
                for entry in it:
                    if not (entry.name.startswith(".") and entry.name.endswith(".tmp")):
                        continue
                    info = entry.stat(follow_symlinks=False)
                    if stat.S_ISREG(info.st_mode) and now - info.st_mtime > STALE_TEMP_SECONDS:
                        os.unlink(entry.path)
                        removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def clean_stale_locks() -> None:
    """Remove lock files of games no longer unfinished that no session holds."""
    try:
        with os.scandir(paths.unfinished_dir()) as it:
            names = [e.name for e in it if e.name.startswith(".") and e.name.endswith(".lock")]
    except OSError:
        return
    for name in names:
        game = GameFile(name[1: -len(".lock")])
        if not game.unfinished_path.exists() and game.claim():
            game.release()


def adopt_legacy_autosave() -> None:
    """Move the single ``autosave.pgn`` of older versions into ``unfinished/`` (if it is a
    regular file), so a game left by them stays resumable; errors are ignored."""
    legacy = paths.legacy_autosave_path()
    try:
        if not stat.S_ISREG(legacy.lstat().st_mode):
            return
        paths.unfinished_dir().mkdir(parents=True, exist_ok=True)
        os.replace(legacy, paths.unfinished_dir() / f"{new_game_id()}{paths.RECORD_SUFFIX}")
    except OSError:
        return


def start_up() -> None:
    """Housekeeping when the app starts: old autosave adopted, stale temp and lock files
    removed."""
    adopt_legacy_autosave()
    clean_stale_temps()
    clean_stale_locks()
