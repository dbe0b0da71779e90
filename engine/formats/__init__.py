"""Game files in the formats other programs use, read into and written from GameRecords.

One module per format, each with ``sniff`` (does this look like mine?), ``split`` (the
file's games as :class:`Chunk` objects: number, line, header tags and first moves,
found without replaying, each read in full by its ``parse``), ``read`` (every game,
replayed through the engine) and ``write`` (the games as the format's text or bytes):

- :mod:`engine.formats.pdn` — Portable Draughts Notation, English checkers;
- :mod:`engine.formats.ggf` — the Generic Game Format of Othello servers;
- :mod:`engine.formats.wthor` — the WTHOR ``.wtb`` Othello database (binary);
- :mod:`engine.formats.transcript` — Othello transcripts, one game a line (``f5d6c3…``);
- :mod:`engine.formats.columns` — Connect Four column strings, one game a line (``4453``).

:func:`read_games` tells them apart (by the file name's extension, then by content) and
falls back to Parlor's own records; a file that is none of them gets one line naming the
formats tried. :func:`read_collection` reads a file game by game: the good games, and a
:class:`Damage` (game number, line, reason) for each damaged one. Every reader works
on data already read through :func:`engine.files.read_capped` and refuses more than
``engine.record.MAX_BYTES`` when the file is read whole, ``COLLECTION_MAX_BYTES`` when it
is read as a collection (:func:`load_chunks`, :func:`load_collection`).
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, cast

from engine.files import FileReadError, read_capped
from engine.protocol import RecordError
from engine.record import COLLECTION_MAX_BYTES, MAX_BYTES, GameRecord, decode_text


class GameError(RecordError):
    """One game of a file that cannot be read: ``source: line L: reason`` (or
    ``source: reason`` where the format has no lines), with ``line`` and ``reason``
    kept apart so that a collection can report the game by its number."""

    def __init__(self, source: str, line: int | None, reason: str):
        super().__init__(f"{source}: line {line}: {reason}" if line is not None
                         else f"{source}: {reason}")
        self.source = source
        self.line = line
        self.reason = reason


@dataclass
class Chunk:
    """One game of a file, found without replaying it: where it is, what its header
    says (read cheaply, for game lists and filters), and how to read it in full."""

    number: int
    """The game's number in the file, from 1."""
    line: int | None
    """The line it starts on (None in a binary file)."""
    parse: Callable[[], GameRecord]
    """Read and replay the game: a GameRecord, or GameError."""
    tags: dict[str, str] = field(default_factory=dict)
    """Its tags as written (Black, White, Event, Date, Result, …); may be empty."""
    opening: list[str] = field(default_factory=list)
    """Its first moves as written (up to :data:`OPENING_MOVES`)."""
    result: str = "*"
    """Its result as the header gives it, in Parlor's form (``*`` when unknown)."""


OPENING_MOVES = 8
"""How many first moves a :class:`Chunk` keeps for filters."""


@dataclass
class Damage:
    """A damaged game of a collection: its number in the file, the line and the reason."""

    source: str
    number: int
    line: int | None
    reason: str

    def __str__(self) -> str:
        where = f"line {self.line}: " if self.line is not None else ""
        return f"{self.source}: game {self.number}: {where}{self.reason}"


@dataclass
class Collection:
    """The games of a file as far as they read: the good ones (with their numbers in
    the file) and one :class:`Damage` per game that does not."""

    source: str
    records: list[GameRecord] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)
    damaged: list[Damage] = field(default_factory=list)

    @property
    def total(self) -> int:
        """How many games the file holds, damaged ones included."""
        return len(self.records) + len(self.damaged)


def damage(source: str, chunk: Chunk, exc: RecordError) -> Damage:
    """The :class:`Damage` for ``chunk``, whose reading raised ``exc``."""
    if isinstance(exc, GameError):
        return Damage(source, chunk.number, exc.line, exc.reason)
    text = str(exc)
    prefix = f"{source}: "
    return Damage(source, chunk.number, chunk.line,
                  text[len(prefix):] if text.startswith(prefix) else text)


def read_all(chunks: list[Chunk]) -> list[GameRecord]:
    """Every game of ``chunks`` in full; the first damaged one raises its GameError."""
    return [chunk.parse() for chunk in chunks]


READERS: dict[str, str] = {
    "wtb": "engine.formats.wthor",
    "ggf": "engine.formats.ggf",
    "pdn": "engine.formats.pdn",
    "transcript": "engine.formats.transcript",
    "c4": "engine.formats.columns",
}
"""Format name -> module, in the order :func:`read_games` sniffs them."""

FORMAT_NAMES = {
    "pgn": "Parlor records", "pdn": "PDN", "ggf": "GGF", "wtb": "WTHOR (.wtb)",
    "transcript": "Othello transcripts", "c4": "Connect Four columns",
}
"""Each format's name in messages."""

WRITERS: dict[str, str] = {"pgn": "engine.formats.parlor", **READERS}
"""Format name -> module with ``write(records) -> str | bytes`` (``parlor export``)."""

EXTENSIONS = {"pgn": ".pgn", "pdn": ".pdn", "ggf": ".ggf", "wtb": ".wtb",
              "transcript": ".txt", "c4": ".txt"}
"""The usual file name extension of each format."""

TRIED = ", ".join(FORMAT_NAMES.values())


class Format(Protocol):
    """What every format module provides (the module's functions, seen as methods)."""

    def sniff(self, data: str | bytes) -> bool:
        """True when ``data`` looks like this format (text for the text formats, bytes
        for WTHOR)."""

    def split(self, data: str | bytes, source: str = ...) -> list[Chunk]:
        """The games of ``data``, found but not yet read (RecordError for a file that
        is not of this format at all, or holds no game)."""

    def write(self, records: list[GameRecord]) -> str | bytes:
        """``records`` as this format's text or bytes."""


def module(name: str) -> Format:
    """The module of format ``name`` (a key of :data:`WRITERS`)."""
    return cast("Format", importlib.import_module(WRITERS[name]))


def split_games(data: str | bytes, source: str = "<string>", suffix: str = "",
                path: str | None = None, cap: int = MAX_BYTES) -> list[Chunk]:
    """The games in ``data``, whatever its format, found without replaying them.

    The extension picks the format when it names one (``.pdn``, ``.ggf``, ``.wtb``);
    otherwise each format's ``sniff`` is asked in turn, and text that starts with a tag
    is read as Parlor's own record. ``path`` is where the file lies when ``source``
    names it otherwise (a WTHOR file's name files are looked for beside it). Raises
    RecordError (one line naming the source and
    line) for a file in no known format or without a game; a damaged game raises only
    when its chunk is read.
    """
    from engine.formats.parlor import split_parlor

    if len(data) > cap:
        raise RecordError(f"{source}: line 1: file too large ({len(data)} bytes)")
    suffix = suffix.lower().lstrip(".")
    if suffix == "wtb" or (isinstance(data, bytes) and module("wtb").sniff(data)):
        from engine.formats import wthor

        return wthor.split(data, source, path)
    if suffix in READERS and (not isinstance(data, bytes) or b"\0" not in data):
        return module(suffix).split(data, source)
    text = decode_text(data, source)
    for name in ("ggf", "pdn"):
        if module(name).sniff(text):
            return module(name).split(text, source)
    if not text.strip() or text.lstrip().startswith("["):
        return split_parlor(text, source)
    for name in ("transcript", "c4"):
        if module(name).sniff(text):
            return module(name).split(text, source)
    raise RecordError(f"{source}: line 1: not a game file in any format Parlor reads "
                      f"(tried: {TRIED})")


def read_games(data: str | bytes, source: str = "<string>", suffix: str = "") -> list[GameRecord]:
    """Every game in ``data`` (a list of ``GameRecord``), whatever its format (see
    :func:`split_games`): all or nothing, the first damaged game raises its RecordError."""
    return read_all(split_games(data, source, suffix))


def read_collection(data: str | bytes, source: str = "<string>",
                    suffix: str = "", cap: int = MAX_BYTES) -> Collection:
    """The games in ``data`` that read, and a :class:`Damage` for each that does not;
    RecordError only when the file as a whole is not a game file (or is over ``cap``)."""
    out = Collection(source)
    for chunk in split_games(data, source, suffix, cap=cap):
        try:
            rec = chunk.parse()
        except RecordError as exc:
            out.damaged.append(damage(source, chunk, exc))
        else:
            out.records.append(rec)
            out.numbers.append(chunk.number)
    return out


def write_games(records: Iterable[GameRecord], fmt: str) -> str | bytes:
    """``records`` in format ``fmt`` (a key of :data:`WRITERS`); RecordError when a game
    cannot be written in it (another game, a variant the format lacks)."""
    if fmt not in WRITERS:
        raise RecordError(f"unknown format {fmt!r}; known: {', '.join(WRITERS)}")
    return module(fmt).write(list(records))


def need_game(records: list[GameRecord], game: str, fmt: str, **options: object) -> None:
    """Refuse (RecordError) records of another game, or with other options, than the
    format ``fmt`` holds."""
    for i, rec in enumerate(records, 1):
        if rec.game != game:
            raise RecordError(f"game {i} is {rec.game}; {FORMAT_NAMES[fmt]} holds {game} only")
        for key, value in options.items():
            if rec.options.get(key) != value and rec.setup is None:
                raise RecordError(f"game {i} has {key} {rec.options.get(key)!r}; "
                                  f"{FORMAT_NAMES[fmt]} holds {key} {value!r} only")


# --------------------------------------------------------------------------- files


def load_records(path: str | os.PathLike[str]) -> list[GameRecord]:
    """Every game in the file at ``path``; RecordError names the file, line and reason.

    Only a regular file of at most ``MAX_BYTES`` is read (see :func:`engine.files.read_capped`):
    a FIFO, a device, a directory or a dangling symlink is refused at once.
    """
    source = os.fsdecode(path)
    try:
        data = read_capped(path, MAX_BYTES)
    except FileReadError as exc:
        raise RecordError(f"{exc.path}: line 1: {exc.reason}") from None
    return parse_records(data, source=source, suffix=Path(source).suffix)


def parse_records(data: str | bytes, source: str = "<string>",
                  suffix: str = "") -> list[GameRecord]:
    """Every game in ``data``, in whichever format it is written: Parlor's records, or
    one the field uses (PDN, GGF, WTHOR, Othello transcripts, Connect Four columns; see
    :mod:`engine.formats`), told apart by content and by the file name's ``suffix``.
    Every game is replayed through the engine; at least one is required."""
    from engine.formats import read_games

    return read_games(data, source, suffix)


def load_collection(path: str | os.PathLike[str]) -> Collection:
    """The games in the file at ``path`` that read, and one Damage (game number, line,
    reason) for each that does not; RecordError only for a file that is not a game file
    at all (read as :func:`load_records` reads it)."""
    source = os.fsdecode(path)
    return read_collection(read_file(path), source, Path(source).suffix,
                           cap=COLLECTION_MAX_BYTES)


def load_chunks(path: str | os.PathLike[str], source: str | None = None) -> list[Chunk]:
    """The games in the file at ``path``, found but not replayed (see
    :func:`engine.formats.split_games`): a game list of a large file at once. Messages
    name the file as ``source`` (default: the path)."""
    where = os.fsdecode(path)
    return split_games(read_file(path, source), source or where, Path(where).suffix, where,
                       cap=COLLECTION_MAX_BYTES)


def read_file(path: str | os.PathLike[str], source: str | None = None) -> bytes:
    """The bytes of the regular file at ``path``, at most ``COLLECTION_MAX_BYTES``;
    RecordError (file, line 1, reason) otherwise, naming the file as ``source`` if given."""
    try:
        return read_capped(path, COLLECTION_MAX_BYTES)
    except FileReadError as exc:
        raise RecordError(f"{source or exc.path}: line 1: {exc.reason}") from None
