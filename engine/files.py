"""Reading files that come from elsewhere: regular files only, never more than a cap.

Every user file Parlor reads (records, saved games, the autosave, move lists) goes through
:func:`read_capped`. It opens without blocking (a FIFO or a device cannot stall the
open), checks on the opened descriptor that it is a regular file (so a symlink to
``/dev/zero``, a FIFO, a socket or a directory is refused whatever the path looked
like), and reads at most ``cap + 1`` bytes whatever ``stat`` says the size is.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine.protocol import ParlorError

MAX_LINE = 65_536
"""Longest line :func:`read_lines` passes on, in characters (or bytes)."""


class FileReadError(ParlorError):
    """A file that cannot be read safely; ``reason`` is the message without the path."""

    def __init__(self, path: str, reason: str):
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
          (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    for test, name in _KINDS:
        if test(mode):
            return name
    return "not a regular file"


class MissingFileError(FileReadError):
    """The file does not exist (callers may say how to get it back)."""


class LineError(ParlorError):
    """A line of input that was skipped: too long, or not UTF-8."""


def read_capped(path: str | os.PathLike[str], cap: int, *,
                follow_symlinks: bool = True) -> bytes:
    """The bytes of the regular file at ``path``, refusing anything larger than ``cap``.

    Raises :class:`FileReadError` (one line naming the file) for a missing
    (:class:`MissingFileError`) or unreadable file, anything but a regular file, or more
    than ``cap`` bytes (refused unread when ``stat`` already says so). With
    ``follow_symlinks=False`` a symlink itself is refused (``O_NOFOLLOW``).
    """
    source = os.fsdecode(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except ValueError:  # a NUL byte in the path
        raise FileReadError(repr(source), "cannot read: not a valid file name") from None
    except FileNotFoundError as exc:
        raise MissingFileError(source, f"cannot read: {exc.strerror or exc}") from None
    except OSError as exc:
        if not follow_symlinks and os.path.islink(path):
            raise FileReadError(source, "cannot read: a symbolic link") from None
        raise FileReadError(source, f"cannot read: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileReadError(source, f"cannot read: {_kind(info.st_mode)}, not a regular file")
        if info.st_size > cap:
            raise FileReadError(source, f"file too large ({info.st_size} bytes, more than {cap})")
        chunks: list[bytes] = []
        size = 0
        while size <= cap:  # the file may grow after fstat (or stat may say 0, as /proc does)
            chunk = os.read(fd, min(cap + 1 - size, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise FileReadError(source, f"cannot read: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > cap:
        raise FileReadError(source, f"file too large (more than {cap} bytes)")
    return b"".join(chunks)


def write_atomic(path: str | os.PathLike[str], data: bytes | str, *,
                 mode: int | None = None) -> Path:
    """Write ``data`` (text as UTF-8) to ``path`` atomically: a temporary file in the same
    folder is written, flushed and synced, then renamed over ``path``, so a reader sees
    the old file or the new one, never a part. On any failure (even an interrupt) the
    temporary file is removed, ``path`` is untouched and the error propagates. ``mode``
    sets the new file's permissions (mkstemp makes it private, 0600)."""
    target = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                               dir=target.parent if str(target.parent) else ".")
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException:  # even an interrupt: remove the partial file, then re-raise
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


# --------------------------------------------------------------------------- streams


def read_lines(read: Callable[[int], Any], limit: int = MAX_LINE,
               chunk: int = 65_536) -> Iterator[str | LineError]:
    """The lines of an input read a chunk at a time by ``read(n)`` (text or bytes).

    A line longer than ``limit`` characters is yielded as an :class:`LineError` as soon
    as that much of it has arrived, and the rest of it is skipped; bytes that are not
    UTF-8 give a LineError too. Work is linear in the input and memory stays bounded
    whatever it holds.
    """
    pieces: list[Any] = []
    size = 0
    skipping = False
    while data := read(chunk):
        newline = b"\n" if isinstance(data, bytes) else "\n"
        start = 0
        while (end := data.find(newline, start)) >= 0:
            if skipping:
                skipping = False
            else:
                pieces.append(data[start:end + 1])
                line, pieces, size = data[:0].join(pieces), [], 0
                yield _too_long(limit) if len(line) > limit + 1 else _decode(line)
            start = end + 1
        if not skipping and start < len(data):
            pieces.append(data[start:])
            size += len(data) - start
            if size > limit:
                yield _too_long(limit)
                pieces, size, skipping = [], 0, True
    if pieces:
        yield _decode(pieces[0][:0].join(pieces))


def _too_long(limit: int) -> LineError:
    return LineError(f"line too long (more than {limit} characters); ignored")


def _decode(line: str | bytes) -> str | LineError:
    if isinstance(line, str):
        return line
    try:
        return line.decode("utf-8")
    except UnicodeDecodeError:
        return LineError("cannot read the line: not UTF-8 text")


def stream_reader(stream: Any) -> Callable[[int], Any]:
    """A ``read(n)`` for :func:`read_lines`: the file descriptor under ``stream`` when it
    has one (a reader thread blocked there holds no lock, so the process can always
    exit), else its binary buffer, else the stream itself."""
    try:
        fd = stream.fileno()
    except (AttributeError, OSError, ValueError):
        buffer = getattr(stream, "buffer", stream)
        read: Callable[[int], Any] = buffer.read1 if hasattr(buffer, "read1") else buffer.read
        return read
    return lambda n: os.read(fd, n)
