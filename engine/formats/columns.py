"""Connect Four column strings: one game a line, the columns played (``4453``, 1 = left).

The form of Connect Four solvers and their test sets; each game starts from the empty
board, and ``#`` starts a comment.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from engine.formats import OPENING_MOVES, Chunk, GameError, read_all
from engine.protocol import ParlorError, RecordError

if TYPE_CHECKING:
    from engine.record import GameRecord

GAME = "connect4"
_LINE = re.compile(r"([1-7]+)(?:\s+(-?\d{1,2}))?")
"""A game: its columns, then (``MOVES SCORE``, as solvers' test sets write them) the
position's score, kept in the ``Score`` tag."""


def _lines(text: str) -> list[tuple[int, str]]:
    return [(n, " ".join(line.partition("#")[0].split()))
            for n, line in enumerate(text.splitlines(), 1)
            if line.partition("#")[0].strip()]


def sniff(text: str) -> bool:
    """True when every line (comments aside) is a string of columns 1-7 (and a score)."""
    lines = _lines(text[:200_000])
    return bool(lines) and all(_LINE.fullmatch(line) for _, line in lines[:1000])


def split(data: str | bytes, source: str = "<string>") -> list[Chunk]:
    """One game per line, found but not replayed."""
    from engine.record import decode_text

    chunks = [Chunk(n + 1, lineno, functools.partial(_game, line, source, lineno),
                    opening=list(line.split(" ")[0][:OPENING_MOVES]))
              for n, (lineno, line) in enumerate(_lines(decode_text(data, source)))]
    if not chunks:
        raise RecordError(f"{source}: line 1: no game found")
    return chunks


def read(data: str | bytes, source: str = "<string>") -> list[GameRecord]:
    """One game per line; RecordError naming the line and move for an illegal one."""
    return read_all(split(data, source))


def _game(line: str, source: str, lineno: int) -> GameRecord:
    from engine.formats.othello import finish
    from engine.record import GameRecord
    from engine.registry import new_game

    m = _LINE.fullmatch(line)
    if m is None:
        raise GameError(source, lineno, "not a Connect Four game (columns 1-7 run "
                                        "together, then perhaps a score)")
    rec = GameRecord(game=GAME)
    if m.group(2) is not None:
        rec.tags["Score"] = m.group(2)
    state = new_game(GAME)
    for number, column in enumerate(m.group(1), 1):
        try:
            state = state.play_text(column)
        except ParlorError as exc:
            raise GameError(source, lineno, f"move {number}: {exc}") from None
        rec.moves.append(column)
    finish(rec, state)
    return rec


def write(records: list[GameRecord]) -> str:
    """One line of columns per game (from the empty board only)."""
    from engine.formats import need_game

    need_game(records, GAME, "c4")
    for i, rec in enumerate(records, 1):
        if rec.setup is not None:
            raise RecordError(f"game {i} starts from a set-up position, which column "
                              "strings cannot hold (export it as pgn)")
        if not rec.moves:
            raise RecordError(f"game {i} has no moves, which column strings cannot hold "
                              "(export it as pgn)")
    return "".join("".join(rec.moves) + _score(rec) + "\n" for rec in records)


def _score(rec: GameRecord) -> str:
    """`` SCORE`` for a record with a ``Score`` tag (a line of a solver's test set)."""
    score = rec.tags.get("Score", "")
    return f" {score}" if re.fullmatch(r"-?\d{1,2}", score) else ""
