"""Game files in the formats other programs use, read into and written from GameRecords.

One module per format, each with ``sniff`` (does this look like mine?), ``read`` (every
game, replayed through the engine) and ``write`` (the games as the format's text or
bytes):

- :mod:`engine.formats.pdn` — Portable Draughts Notation, English checkers;
- :mod:`engine.formats.ggf` — the Generic Game Format of Othello servers;
- :mod:`engine.formats.wthor` — the WTHOR ``.wtb`` Othello database (binary);
- :mod:`engine.formats.transcript` — Othello transcripts, one game a line (``f5d6c3…``);
- :mod:`engine.formats.columns` — Connect Four column strings, one game a line (``4453``).

:func:`read_games` tells them apart (by the file name's extension, then by content) and
falls back to Parlor's own records; a file that is none of them gets one line naming the
formats tried. Every reader works on data already read through
:func:`engine.files.read_capped` and refuses more than ``engine.record.MAX_BYTES``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Protocol, cast

from engine.protocol import RecordError

if TYPE_CHECKING:
    from engine.record import GameRecord

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

    def read(self, data: str | bytes, source: str = ...) -> list[GameRecord]:
        """Every game in ``data``; RecordError naming ``source`` and the line."""

    def write(self, records: list[GameRecord]) -> str | bytes:
        """``records`` as this format's text or bytes."""


def module(name: str) -> Format:
    """The module of format ``name`` (a key of :data:`WRITERS`)."""
    return cast("Format", importlib.import_module(WRITERS[name]))


def read_games(data: str | bytes, source: str = "<string>", suffix: str = "") -> list[GameRecord]:
    """Every game in ``data`` (a list of ``GameRecord``), whatever its format.

    The extension picks the format when it names one (``.pdn``, ``.ggf``, ``.wtb``);
    otherwise each format's ``sniff`` is asked in turn, and text that starts with a tag
    is read as Parlor's own record. Raises RecordError (one line naming the source and
    line) for a file in no known format or a game that does not replay.
    """
    from engine.record import MAX_BYTES, decode_text, parse_parlor

    if len(data) > MAX_BYTES:
        raise RecordError(f"{source}: line 1: file too large ({len(data)} bytes)")
    suffix = suffix.lower().lstrip(".")
    if suffix in READERS and (suffix == "wtb" or not isinstance(data, bytes)
                              or b"\0" not in data):
        return module(suffix).read(data, source)
    if isinstance(data, bytes) and module("wtb").sniff(data):
        return module("wtb").read(data, source)
    text = decode_text(data, source)
    for name in ("ggf", "pdn"):
        if module(name).sniff(text):
            return module(name).read(text, source)
    if not text.strip() or text.lstrip().startswith("["):
        return parse_parlor(text, source)
    for name in ("transcript", "c4"):
        if module(name).sniff(text):
            return module(name).read(text, source)
    raise RecordError(f"{source}: line 1: not a game file in any format Parlor reads "
                      f"(tried: {TRIED})")


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
