"""Game records: a PGN-style text format, read by replaying every move through the engine.

A file holds one or more games; each is a block of tags then the movetext::

    [Game "reversi"]
    [Variant "flipcolor"]
    [Seed "42"]
    [First "human"]
    [Second "alphabeta:hard"]
    [Result "0-1"]
    [Termination "normal"]

    1. f5 d6 2. c3 d3?! {a comment} 3. c4 $4 ... 0-1

The Game tag names the game; a tag named after one of the game's options (``Size``,
``Variant``, ``Seed``) sets that option. Result is from the first player's view.
Annotation glyphs (NAGs) follow a move, glued on (``d3?!``) or as tokens (``??``, ``$4``);
they are kept in :attr:`GameRecord.nags`. Writing is atomic (a temporary file renamed
over the target).

This module is the record itself and its writing; reading files is
:mod:`engine.formats`' job (which imports this module, never the other way round):
:func:`engine.formats.load_records` is strict (the first problem raises
:class:`RecordError` naming the source, the line and the reason),
:func:`engine.formats.load_collection` reads every game that reads and names each
damaged one, :func:`engine.formats.load_chunks` finds a file's games without replaying
them, and :mod:`engine.formats.parlor` reads this format.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from engine.files import write_atomic
from engine.protocol import AnyState, RecordError
from engine.registry import get_game

MAX_BYTES = 2_000_000
"""A file read whole, every game replayed at once (a saved game, a position file), is
refused past this before parsing (no real record comes near it)."""
COLLECTION_MAX_BYTES = 64_000_000
"""A file read as a collection (its games found first, each replayed when asked for: the
game list, validate, export, the explorer) may be this large: the PDN archives and WTHOR
years the field shares run to tens of thousands of games."""
MAX_TAG_VALUE = 1_000
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
EARLY_TERMINATIONS = ("resignation", "time forfeit", "agreement", "abandoned", "recorded")
"""Termination values that explain a decided Result before the game is over
(``recorded``: the result as a game imported from another format gives it, the game
not played out)."""
TERMINATIONS = ("normal", *EARLY_TERMINATIONS, "unterminated")

_TAG = re.compile(r'\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]')
_TOKEN = re.compile(r"\{[^}]*\}?|\S+")
_MOVE_NUMBER = re.compile(r"\d+\.(\.\.)?")
_NAG = re.compile(r"\$\d{1,3}|[!?]{1,2}")
"""A numeric annotation glyph (``$4``) or its symbol (``!``, ``?``, ``!!``, ``??``, ``!?``,
``?!``)."""
_SUFFIX = re.compile(r"(.+?)([!?]{1,2})")
"""A move with its symbol glued on (``d3??``)."""


@dataclass
class GameRecord:
    """One game: its id and options, the moves in notation, the result and other tags."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    result: str = "*"
    termination: str | None = None
    tags: dict[str, str] = field(default_factory=dict)
    """Every other tag (First, Second, Date, Event, …), in order."""
    comments: dict[int, str] = field(default_factory=dict)
    """Comment text after the given number of moves (0 = before the first)."""
    setup: str | None = None
    """The start position in the game's position form (``[SetUp "1"]`` + ``[FEN …]``),
    None for the game's usual start."""
    nags: dict[int, list[str]] = field(default_factory=dict)
    """Annotation glyphs after the given number of moves (``??``, ``$4``), as written."""

    # -- replay ---------------------------------------------------------------------
    def initial(self) -> AnyState:
        """The start position (options applied, or the set-up position)."""
        if self.setup is not None:
            from engine.positions import parse_position

            return parse_position(self.game, self.setup)
        return get_game(self.game).initial(**self.options)

    def states(self) -> list[AnyState]:
        """Every position of the game, the start first (moves replayed through the engine)."""
        out = [self.initial()]
        for text in self.moves:
            out.append(out[-1].play_text(text))
        return out

    def final(self) -> AnyState:
        """The position after the last move."""
        return self.states()[-1]

    def players(self, colours: tuple[str, ...] = ("Black", "White")) -> tuple[str, str]:
        """Who played each side: the First and Second tags (Parlor's games), else the
        tags named after the sides' ``colours`` (``Black``/``White`` in PDN, GGF and
        WTHOR), else ``?``."""
        return (player_name(self.tags, 0, colours), player_name(self.tags, 1, colours))

    # -- building -------------------------------------------------------------------
    @classmethod
    def from_moves(cls, initial: AnyState, moves: Iterable[Any], **tags: str) -> GameRecord:
        """A record of ``moves`` (engine move values) played from ``initial``.

        Result and Termination are filled in from the final position when it is over;
        ``tags`` may override them (e.g. ``Result="0-1", Termination="resignation"``).
        """
        texts, state = [], initial
        for move in moves:
            texts.append(state.format_move(move))
            state = state.play(move)
        outcome = state.outcome()
        result = tags.pop("Result", outcome.result.value if outcome else "*")
        termination = tags.pop("Termination", "normal" if outcome else None)
        tags.setdefault("Date", date.today().strftime("%Y.%m.%d"))
        return cls(game=initial.GAME, options=dict(initial.options), moves=texts,
                   result=result, termination=termination, tags=dict(tags),
                   setup=setup_of(initial))

    # -- writing --------------------------------------------------------------------
    def to_text(self) -> str:
        """The record in Parlor's PGN-style text format."""
        lines = [_tag("Game", self.game)]
        lines += [_tag(name.capitalize(), value) for name, value in self.options.items()]
        lines += [_tag(name, value) for name, value in self.tags.items()]
        if self.setup is not None:
            lines += [_tag("SetUp", "1"), _tag("FEN", self.setup)]
        lines.append(_tag("Result", self.result))
        if self.termination:
            lines.append(_tag("Termination", self.termination))
        tokens: list[str] = []
        if 0 in self.comments:
            tokens.append("{" + self.comments[0] + "}")
        for i, move in enumerate(self.moves):
            if i % 2 == 0:
                tokens.append(f"{i // 2 + 1}.")
            tokens.append(move)
            for j, nag in enumerate(self.nags.get(i + 1, ())):
                if j == 0 and not nag.startswith("$"):
                    tokens[-1] += nag  # the symbol glued on, as in d3??
                else:
                    tokens.append(nag)
            if i + 1 in self.comments:
                tokens.append("{" + self.comments[i + 1].replace("}", ")") + "}")
        tokens.append(self.result)
        return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n"


def player_name(tags: dict[str, str], side: int,
                colours: tuple[str, ...] = ("Black", "White")) -> str:
    """Who played ``side`` (0: the first player) after ``tags``: the First or Second
    tag, else the tag named after the side's colour, else ``?``."""
    name = tags.get(("First", "Second")[side], "").strip()
    if not name and side < len(colours):
        name = tags.get(colours[side], "").strip()
    return name or "?"


def setup_of(state: AnyState) -> str | None:
    """``state``'s position text when it is not its game's usual start (ply 0 of the
    game with the same options), else None: what a record's FEN tag holds."""
    start = get_game(state.GAME).initial(**state.options)
    if state.ply == 0 and state.key() == start.key():
        return None
    return state.to_position()


def _tag(name: str, value: Any) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def _wrap(tokens: list[str], width: int = 79) -> str:
    lines, line = [], ""
    for tok in tokens:
        if line and len(line) + 1 + len(tok) > width:
            lines.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    lines.append(line)
    return "\n".join(lines)


def format_records(records: Iterable[GameRecord]) -> str:
    """Several records as one text, separated by blank lines."""
    return "\n".join(rec.to_text() for rec in records)


def save_records(path: str | os.PathLike[str], records: GameRecord | Iterable[GameRecord]) -> Path:
    """Write ``records`` to ``path`` atomically (temp file in the same folder, then rename)."""
    if isinstance(records, GameRecord):
        records = [records]
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(target, format_records(records))


def decode_text(data: str | bytes, source: str, cap: int = COLLECTION_MAX_BYTES) -> str:
    """``data`` as text: at most ``cap`` bytes (or characters), no NUL bytes, UTF-8 (a BOM
    dropped); RecordError naming the line otherwise. Callers that read a file whole check
    the smaller :data:`MAX_BYTES` first."""
    if isinstance(data, bytes):
        if len(data) > cap:
            raise RecordError(f"{source}: line 1: file too large ({len(data)} bytes)")
        if b"\0" in data:
            raise RecordError(f"{source}: line 1: not a text file (contains NUL bytes)")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = exc.object[: exc.start].count(b"\n") + 1
            raise RecordError(f"{source}: line {line}: not a text file (invalid UTF-8)") from None
    elif len(data) > cap:
        raise RecordError(f"{source}: line 1: file too large ({len(data)} characters)")
    return data
