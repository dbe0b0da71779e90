"""WTHOR ``.wtb`` files, the French Othello federation's game database (binary).

A 16-byte header — century, year, month and day of the file (1 byte each), the number of
games (4 bytes, little-endian), a record count (2 bytes, 0 in a game file), the year of
the games (2 bytes), the board size (1 byte: 0 or 8 for 8×8), the game type, the depth
of the theoretical score and a spare byte — then 68 bytes a game: the tournament,
Black's and White's numbers (2 bytes each, indexes into the ``.TRN``/``.JOU`` name
files, which are optional and not read), Black's disc count at the end (empty squares
going to the winner), the theoretical score, and 60 move bytes, ``10 * row + column``
(both from 1: ``f5`` is 56), 0 after the last move. Passes are implicit.

When the database's name files lie beside the game file (``WTHOR.JOU``: a 16-byte
header, then 20 bytes a player; ``WTHOR.TRN``: the header, then 26 bytes a tournament;
names NUL-padded ISO-8859-1), the games get their players' and tournament's names.
"""

from __future__ import annotations

import functools
import os
import re
import struct
from pathlib import Path
from typing import TYPE_CHECKING

from engine.formats import OPENING_MOVES, Chunk, GameError, read_all
from engine.formats.othello import finish, placements, play_implicit, standard_start
from engine.games.reversi import ReversiState
from engine.protocol import AnyState, RecordError

if TYPE_CHECKING:
    from engine.record import GameRecord

GAME = "reversi"
HEADER = struct.Struct("<BBBBIHHBBBB")
RECORD = struct.Struct("<HHHBB60s")
FILES = "abcdefgh"
NAME_FILES = {"WTHOR.JOU": 20, "WTHOR.TRN": 26}
"""Name files of a WTHOR database and the bytes of one name in each."""
MAX_NAMES_FILE = 2_000_000


def sniff(data: bytes) -> bool:
    """True for bytes laid out as a WTHOR game file whose header counts its games."""
    if len(data) < HEADER.size + RECORD.size or (len(data) - HEADER.size) % RECORD.size:
        return False
    fields = HEADER.unpack_from(data)
    return fields[4] == (len(data) - HEADER.size) // RECORD.size and fields[7] in (0, 8)


def move_name(byte: int) -> str | None:
    """``f5`` for 56, None for a byte that is no square."""
    row, col = divmod(byte, 10)
    return f"{FILES[col - 1]}{row}" if 1 <= row <= 8 and 1 <= col <= 8 else None


def split(data: str | bytes, source: str = "<string>", path: str | None = None,
          ) -> list[Chunk]:
    """The games of the WTHOR file ``data``, found but not replayed (their players,
    tournament, year, score and first moves read from the fixed 68 bytes of each)."""
    if isinstance(data, str):
        raise RecordError(f"{source}: line 1: a WTHOR file is binary, not text")
    if len(data) < HEADER.size:
        raise RecordError(f"{source}: line 1: not a WTHOR file (shorter than its "
                          f"{HEADER.size}-byte header)")
    century, year, month, day, count, _, games_year, size, _, depth, _ = \
        HEADER.unpack_from(data)
    body = len(data) - HEADER.size
    if size not in (0, 8):
        raise RecordError(f"{source}: line 1: WTHOR board size {size}; Parlor reads 8×8 only")
    if body % RECORD.size or body // RECORD.size != count:
        raise RecordError(f"{source}: line 1: not a WTHOR game file: the header counts "
                          f"{count} games but {body} bytes follow it (68 a game)")
    players, tournaments = (_names(path or source, name) for name in NAME_FILES)
    made = f"{century * 100 + year:04d}.{month:02d}.{day:02d}"
    chunks = []
    for i in range(count):
        tourn, black, white, score, theory, moves = RECORD.unpack_from(
            data, HEADER.size + i * RECORD.size)
        tags = {"Tournament": str(tourn), "BlackNo": str(black), "WhiteNo": str(white),
                "BlackScore": str(score), "TheoreticalScore": str(theory),
                "Depth": str(depth), "Year": str(games_year), "FileDate": made}
        for tag, table, number in (("Black", players, black), ("White", players, white),
                                   ("Event", tournaments, tourn)):
            if number < len(table) and table[number]:
                tags[tag] = table[number]
        opening = [name for byte in moves[:OPENING_MOVES] if (name := move_name(byte))]
        chunks.append(Chunk(i + 1, None, functools.partial(_game, source, i + 1, tags, moves),
                            tags=tags, opening=opening,
                            result="1-0" if score > 32 else "0-1" if score < 32 else "1/2-1/2"))
    return chunks


def read(data: str | bytes, source: str = "<string>") -> list[GameRecord]:
    """Every game of the WTHOR file ``data``."""
    return read_all(split(data, source))


def _game(source: str, number: int, tags: dict[str, str], moves: bytes) -> GameRecord:
    """Game ``number`` of the file: its ``tags`` and 60 move bytes, replayed."""
    from engine.record import GameRecord

    where = f"game {number}"
    score, theory = int(tags["BlackScore"]), int(tags["TheoreticalScore"])
    if score > 64 or theory > 64:
        raise GameError(source, None, f"Black's score {max(score, theory)} is more than 64 "
                                      "discs")
    state: AnyState = standard_start()
    rec = GameRecord(game=GAME, options=dict(state.options), tags=dict(tags))
    for j, byte in enumerate(moves):
        if byte == 0:
            if any(moves[j:]):
                raise GameError(source, None, "a move follows the end of the moves")
            break
        name = move_name(byte)
        if name is None:
            raise GameError(source, None, f"move {j + 1}: byte {byte} is no square "
                                          "(10 × row + column, 11 to 88)")
        try:
            state = play_implicit(state, name, rec.moves, where)
        except RecordError as exc:
            raise GameError(source, None, str(exc)[len(where) + 2:]) from None
    rec.result = "1-0" if score > 32 else "0-1" if score < 32 else "1/2-1/2"
    outcome = state.outcome()
    if outcome is not None and outcome.result.value != rec.result:
        raise GameError(source, None, f"Black's score {score} contradicts the final "
                                      f"position ({outcome.result.value}, {outcome.termination})")
    finish(rec, state)
    return rec


def black_score(rec: GameRecord) -> int:
    """Black's discs at the end, empty squares to the winner (WTHOR's count); for a
    game not played out, 33, 31 or 32 after its recorded result."""
    final = rec.final()
    assert isinstance(final, ReversiState), "WTHOR holds Reversi games only"
    if final.outcome() is None:
        return {"1-0": 33, "0-1": 31}.get(rec.result, 32)
    black, white = final.counts()
    empty = 64 - black - white
    return black + (empty if black > white else 0 if white > black else empty // 2)


def write(records: list[GameRecord]) -> bytes:
    """The 8×8 standard-start games as a WTHOR file (names are not written)."""
    from engine.formats import need_game

    need_game(records, GAME, "wtb", size=8, variant="standard")
    made = _shared(records, "FileDate", r"\d{4}\.\d\d\.\d\d") or "0000.00.00"
    year = int(_shared(records, "Year", r"\d{4}") or made[:4])
    depth = int(_shared(records, "Depth", r"\d{1,2}") or 0)
    century, rest = divmod(int(made[:4]), 100)
    out = [HEADER.pack(century, rest, int(made[5:7]), int(made[8:10]),
                       len(records), 0, year, 8, 0, depth, 0)]
    for i, rec in enumerate(records, 1):
        if rec.setup is not None:
            raise RecordError(f"game {i} starts from a set-up position, which WTHOR "
                              "cannot hold (export it as ggf)")
        if rec.result == "*" and rec.final().outcome() is None:
            raise RecordError(f"game {i} is unfinished without a result, which WTHOR "
                              "cannot hold (export it as ggf)")
        squares = bytes(10 * int(m[1]) + FILES.index(m[0]) + 1 for m in placements(rec))
        score = black_score(rec)
        theory = _number(rec.tags, "TheoreticalScore", 64, score)
        out.append(RECORD.pack(_number(rec.tags, "Tournament", 65535, 0),
                               _number(rec.tags, "BlackNo", 65535, 0),
                               _number(rec.tags, "WhiteNo", 65535, 0),
                               score, theory, squares.ljust(60, b"\0")))
    return b"".join(out)


def _shared(records: list[GameRecord], tag: str, form: str) -> str | None:
    """The value of ``tag`` that every record has, in the form ``form`` (a regular
    expression); else None (the header holds one value for the whole file)."""
    values = {rec.tags.get(tag, "") for rec in records}
    value = values.pop() if len(values) == 1 else ""
    return value if re.fullmatch(form, value) else None


def _number(tags: dict[str, str], name: str, top: int, default: int) -> int:
    """The tag ``name`` as a number from 0 to ``top``, else ``default``."""
    value = tags.get(name, "")
    return int(value) if value.isdigit() and len(value) < 6 and int(value) <= top else default


def _names(source: str, name: str) -> list[str]:
    """The names in the database file ``name`` beside the game file ``source`` (any
    case), [] when there is none; RecordError for one that is not a names file."""
    from engine.files import FileReadError, read_capped

    folder = Path(source).parent
    if not os.path.isfile(source):
        return []
    try:
        match = next((entry for entry in os.listdir(folder) if entry.upper() == name), None)
    except OSError:
        return []
    if match is None:
        return []
    path = folder / match
    try:
        data = read_capped(path, MAX_NAMES_FILE)
    except FileReadError as exc:
        raise RecordError(f"{source}: line 1: {exc}") from None
    size = NAME_FILES[name]
    if len(data) < HEADER.size or (len(data) - HEADER.size) % size:
        raise RecordError(f"{path}: line 1: not a WTHOR names file (16 bytes, then "
                          f"{size} bytes a name)")
    names = []
    for start in range(HEADER.size, len(data), size):
        raw = data[start:start + size].split(b"\0", 1)[0].decode("latin-1")
        names.append("".join(ch for ch in raw if ch.isprintable()).strip())
    return names
