"""Othello transcripts: one game a line, its moves run together (``f5d6c3d3c4…``).

Passes are left out, as WTHOR, game sites and most programs write them: when the side to
move has no placement, the reader plays the pass before the next move. A ``pass`` (or
``--``) written out is accepted too; the writer writes one only at the end of an
unfinished game, where no later move would imply it. Each game starts from the
standard 8×8 position; ``#`` starts a comment.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from engine.formats import OPENING_MOVES, Chunk, GameError, read_all
from engine.formats.othello import finish, play_implicit, standard_start
from engine.protocol import AnyState, RecordError

if TYPE_CHECKING:
    from engine.record import GameRecord

GAME = "reversi"
_LINE = re.compile(r"(?:[a-h][1-8]|pass|--|\s)+", re.IGNORECASE)
_MOVE = re.compile(r"[a-h][1-8]|pass|--", re.IGNORECASE)


def _lines(text: str) -> list[tuple[int, str]]:
    return [(n, line.partition("#")[0].strip()) for n, line in enumerate(text.splitlines(), 1)
            if line.partition("#")[0].strip()]


def sniff(text: str) -> bool:
    """True when every line (comments aside) is Othello moves, with a square somewhere."""
    lines = _lines(text[:200_000])
    return bool(lines) and all(_LINE.fullmatch(line) for _, line in lines[:1000]) and any(
        re.search(r"[a-h][1-8]", line, re.IGNORECASE) for _, line in lines)


def split(data: str | bytes, source: str = "<string>") -> list[Chunk]:
    """One game per line, found but not replayed."""
    from engine.record import decode_text

    chunks = [Chunk(n + 1, lineno, functools.partial(_game, line, source, lineno),
                    opening=[m.group(0).lower() for m in _MOVE.finditer(line)][:OPENING_MOVES])
              for n, (lineno, line) in enumerate(_lines(decode_text(data, source)))]
    if not chunks:
        raise RecordError(f"{source}: line 1: no game found")
    return chunks


def read(data: str | bytes, source: str = "<string>") -> list[GameRecord]:
    """One game per line; RecordError naming the line and move for an illegal one."""
    return read_all(split(data, source))


def _game(line: str, source: str, lineno: int) -> GameRecord:
    from engine.record import GameRecord

    if not _LINE.fullmatch(line):
        raise GameError(source, lineno, "not an Othello transcript (squares a1-h8 run "
                                        "together)")
    state: AnyState = standard_start()
    rec = GameRecord(game=GAME, options=dict(state.options))
    where = f"{source}: line {lineno}"
    for m in _MOVE.finditer(line):
        text = m.group(0).lower().replace("--", "pass")
        try:
            state = play_implicit(state, text, rec.moves, where)
        except RecordError as exc:
            raise GameError(source, lineno, str(exc)[len(where) + 2:]) from None
    finish(rec, state)
    return rec


def write(records: list[GameRecord]) -> str:
    """One line per game, passes left out (a final pass of an unfinished game kept)."""
    from engine.formats import need_game

    need_game(records, GAME, "transcript", size=8, variant="standard")
    out = []
    for i, rec in enumerate(records, 1):
        if rec.setup is not None or rec.options.get("variant", "standard") != "standard":
            raise RecordError(f"game {i} does not start from the standard 8×8 position; "
                              "a transcript cannot hold its start (export it as ggf)")
        if not rec.moves:
            raise RecordError(f"game {i} has no moves, which a transcript cannot hold "
                              "(export it as ggf)")
        moves = list(rec.moves)
        tail = []
        while moves and moves[-1] == "pass":
            tail.append(moves.pop())
        out.append("".join(m for m in moves if m != "pass") + "".join(tail))
    return "\n".join(out) + "\n"
