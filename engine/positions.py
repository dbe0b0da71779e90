"""Positions as text: every game reads and writes one line describing a position.

Each game defines its own form (docs/RULES.md, Positions): checkers uses the FEN of the
Portable Draughts Notation (``B:W18,24,K10:B12,K3``); the other games write their
board in the spirit of chess FEN (rows separated by ``/``, a digit for a run of empty
cells), then the side to move and whatever else the position needs (Morris' pieces in
hand). A game implements the pair ``State.to_position()`` / ``Game.from_position(text)``
and this module dispatches to it::

    state = parse_position("tictactoe", "x2/1o1/3 x")
    format_position(state)  # -> "x2/1o1/3 x"

Text that is not a position raises :class:`~engine.protocol.PositionError` with one
line that names the game and quotes at most about 60 characters of the text. The
helpers :func:`format_rows` and :func:`parse_rows` are the FEN-like board code the
games share.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from engine.protocol import AnyState, PositionError, quote
from engine.registry import get_game

MAX_POSITION = 1_000
"""Longest position text accepted, in characters (the largest board needs ~300)."""

SIDES = ("x", "o")
"""Side-to-move letters of the games that write their pieces ``x`` and ``o``."""


def parse_position(game_id: str, text: str) -> AnyState:
    """The position of ``game_id`` written ``text`` (blanks and line breaks between
    fields are ignored); PositionError (one line) for anything else, UnknownGameError
    for an unknown game."""
    game = get_game(game_id)
    if not isinstance(text, str):
        raise PositionError(f"{game.id}: a position is text, not {type(text).__name__}")
    if len(text) > MAX_POSITION:
        raise PositionError(f"{game.id}: position {quote(text)} is longer than "
                            f"{MAX_POSITION} characters")
    norm = " ".join(text.split())
    if not norm:
        raise PositionError(f"{game.id}: empty position")
    try:
        return game.from_position(norm)
    except PositionError:
        raise
    except ValueError as exc:  # a game's own set-up check (squares, counts, …)
        raise PositionError(f"{game.id}: bad position {quote(norm)}: {exc}") from None


def games_for(text: str) -> list[str]:
    """The ids of the games in which ``text`` is a position (for a pasted position whose
    game is not said: usually one, sometimes none or several)."""
    from engine.registry import GAMES

    out = []
    for game_id in GAMES:
        try:
            parse_position(game_id, text)
        except PositionError:
            continue
        out.append(game_id)
    return out


def format_position(state: AnyState) -> str:
    """``state`` in its game's position form (one line)."""
    return state.to_position()


def bad(game: str, text: str, reason: str) -> PositionError:
    """The one-line error for position ``text`` of ``game``."""
    return PositionError(f"{game}: bad position {quote(text)}: {reason}")


# --------------------------------------------------------------------------- boards


def format_rows(rows: Sequence[str]) -> str:
    """Rows of cells (``.`` empty, any other character a piece) in FEN form: runs of
    empty cells become their length, rows are joined by ``/``."""
    out = []
    for row in rows:
        out.append(re.sub(r"\.+", lambda m: str(len(m.group(0))), row))
    return "/".join(out)


def parse_rows(game: str, text: str, field: str, widths: Callable[[int], Sequence[int] | None],
               pieces: str) -> list[str]:
    """The rows of the board field ``field`` (from position ``text``), each a string of
    ``.`` and the characters of ``pieces``; ``widths(number of rows)`` gives the width
    of every row, or None when that many rows is no board of the game."""
    rows = field.split("/")
    want = widths(len(rows))
    if want is None:
        raise bad(game, text, f"{len(rows)} rows is no board of {game}")
    out = []
    for i, (row, width) in enumerate(zip(rows, want, strict=False), 1):
        cells: list[str] = []
        for m in re.finditer(r"\d+|.", row):
            tok = m.group(0)
            if tok.isdigit():
                run = int(tok) if len(tok) <= 3 else 1000
                if run == 0 or len(cells) + run > width:
                    raise bad(game, text, f"row {i} is longer than {width} cells")
                cells.extend("." * run)
            elif tok == "." or tok in pieces:
                cells.append(tok)
            else:
                allowed = ", ".join(pieces)
                raise bad(game, text, f"row {i}: {tok!r} is not a piece ({allowed}, "
                                      "a digit or '.')")
        if len(cells) != width:
            raise bad(game, text, f"row {i} has {len(cells)} cells, not {width}")
        out.append("".join(cells))
    return out


def parse_side(game: str, text: str, field: str, letters: Sequence[str] = SIDES) -> int:
    """0 or 1 for the side-to-move field (``letters`` names the first and second player)."""
    low = field.lower()
    if low not in letters:
        raise bad(game, text, f"side to move {field!r} is not {' or '.join(letters)}")
    return letters.index(low)


def split_fields(game: str, text: str, least: int, most: int, usage: str) -> list[str]:
    """The space-separated fields of ``text``; between ``least`` and ``most`` of them."""
    fields = text.split()
    if not least <= len(fields) <= most:
        raise bad(game, text, f"expected {usage}")
    return fields
