"""Connect Four column strings: one game a line, the columns played (``4453``, 1 = left).

The form of Connect Four solvers and their test sets; each game starts from the empty
board, and ``#`` starts a comment.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from engine.protocol import ParlorError, RecordError

if TYPE_CHECKING:
    from engine.record import GameRecord

GAME = "connect4"
_LINE = re.compile(r"[1-7]+")


def _lines(text: str) -> list[tuple[int, str]]:
    return [(n, "".join(line.partition("#")[0].split()))
            for n, line in enumerate(text.splitlines(), 1)
            if line.partition("#")[0].strip()]


def sniff(text: str) -> bool:
    """True when every line (comments aside) is a string of columns 1-7."""
    lines = _lines(text[:200_000])
    return bool(lines) and all(_LINE.fullmatch(line) for _, line in lines[:1000])


def read(data: str | bytes, source: str = "<string>") -> list[GameRecord]:
    """One game per line; RecordError naming the line and move for an illegal one."""
    from engine.formats.othello import finish
    from engine.record import GameRecord, decode_text
    from engine.registry import new_game

    games = []
    for lineno, line in _lines(decode_text(data, source)):
        if not _LINE.fullmatch(line):
            raise RecordError(f"{source}: line {lineno}: not a Connect Four game "
                              "(columns 1-7 run together)")
        rec = GameRecord(game=GAME)
        state = new_game(GAME)
        for number, column in enumerate(line, 1):
            try:
                state = state.play_text(column)
            except ParlorError as exc:
                raise RecordError(f"{source}: line {lineno}: move {number}: {exc}") from None
            rec.moves.append(column)
        finish(rec, state)
        games.append(rec)
    if not games:
        raise RecordError(f"{source}: line 1: no game found")
    return games


def write(records: list[GameRecord]) -> str:
    """One line of columns per game (from the empty board only)."""
    from engine.formats import need_game

    need_game(records, GAME, "c4")
    for i, rec in enumerate(records, 1):
        if rec.setup is not None:
            raise RecordError(f"game {i} starts from a set-up position, which column "
                              "strings cannot hold (export it as pgn)")
    return "".join("".join(rec.moves) + "\n" for rec in records)
