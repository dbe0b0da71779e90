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
they are kept in :attr:`GameRecord.nags`. :func:`load_records` is strict: the first
problem raises :class:`RecordError` naming the source, the line and the reason;
:func:`load_collection` reads every game that reads and names each damaged one (game
number, line, reason); :func:`load_chunks` finds a file's games and their headers
without replaying them (a list of a large file). Writing is atomic (a temporary file
renamed over the target).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine.files import FileReadError, read_capped, write_atomic
from engine.protocol import ParlorError, RecordError, State, quote
from engine.registry import get_game

if TYPE_CHECKING:
    from engine.formats import Chunk, Collection

MAX_BYTES = 2_000_000
"""Larger files are refused before parsing (no real record comes near this)."""
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
    def initial(self) -> State:
        """The start position (options applied, or the set-up position)."""
        if self.setup is not None:
            from engine.positions import parse_position

            return parse_position(self.game, self.setup)
        return get_game(self.game).initial(**self.options)

    def states(self) -> list[State]:
        """Every position of the game, the start first (moves replayed through the engine)."""
        out = [self.initial()]
        for text in self.moves:
            out.append(out[-1].play_text(text))
        return out

    def final(self) -> State:
        """The position after the last move."""
        return self.states()[-1]

    def players(self, colours: tuple[str, ...] = ("Black", "White")) -> tuple[str, str]:
        """Who played each side: the First and Second tags (Parlor's games), else the
        tags named after the sides' ``colours`` (``Black``/``White`` in PDN, GGF and
        WTHOR), else ``?``."""
        return (player_name(self.tags, 0, colours), player_name(self.tags, 1, colours))

    # -- building -------------------------------------------------------------------
    @classmethod
    def from_moves(cls, initial: State, moves: Iterable[Any], **tags: str) -> GameRecord:
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


def setup_of(state: State) -> str | None:
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


# --------------------------------------------------------------------------- reading


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
    from engine.formats import read_collection

    source = os.fsdecode(path)
    return read_collection(read_file(path), source, Path(source).suffix)


def load_chunks(path: str | os.PathLike[str], source: str | None = None) -> list[Chunk]:
    """The games in the file at ``path``, found but not replayed (see
    :func:`engine.formats.split_games`): a game list of a large file at once. Messages
    name the file as ``source`` (default: the path)."""
    from engine.formats import split_games

    where = os.fsdecode(path)
    return split_games(read_file(path, source), source or where, Path(where).suffix, where)


def read_file(path: str | os.PathLike[str], source: str | None = None) -> bytes:
    """The bytes of the regular file at ``path``, at most ``MAX_BYTES``; RecordError
    (file, line 1, reason) otherwise, naming the file as ``source`` if given."""
    try:
        return read_capped(path, MAX_BYTES)
    except FileReadError as exc:
        raise RecordError(f"{source or exc.path}: line 1: {exc.reason}") from None


def decode_text(data: str | bytes, source: str) -> str:
    """``data`` as text: the size cap, no NUL bytes, UTF-8 (a BOM dropped); RecordError
    naming the line otherwise."""
    if isinstance(data, bytes):
        if len(data) > MAX_BYTES:
            raise RecordError(f"{source}: line 1: file too large ({len(data)} bytes)")
        if b"\0" in data:
            raise RecordError(f"{source}: line 1: not a text file (contains NUL bytes)")
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = exc.object[: exc.start].count(b"\n") + 1
            raise RecordError(f"{source}: line {line}: not a text file (invalid UTF-8)") from None
    elif len(data) > MAX_BYTES:
        raise RecordError(f"{source}: line 1: file too large ({len(data)} characters)")
    return data


def parse_parlor(data: str | bytes, source: str = "<string>") -> list[GameRecord]:
    """Parse and replay every game of Parlor's own record format in ``data``."""
    from engine.formats import read_all

    return read_all(split_parlor(data, source))


def split_parlor(data: str | bytes, source: str = "<string>") -> list[Chunk]:
    """The games of Parlor's own record format in ``data``, found but not replayed: a
    game is a block of tag lines and the movetext lines after it."""
    from engine.formats import Chunk

    data = decode_text(data, source)
    lines = data.splitlines()
    chunks: list[Chunk] = []
    i = 0
    while True:
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i >= len(lines):
            break
        start = i
        while i < len(lines) and lines[i].lstrip().startswith("["):
            i += 1
        body = i
        while i < len(lines) and not lines[i].lstrip().startswith("["):
            i += 1
        reader = _Reader(source, lines, start, body, i)
        tags = {m.group(1): m.group(2) for line in lines[start:body]
                if (m := _TAG.fullmatch(line.strip())) and len(m.group(2)) <= MAX_TAG_VALUE}
        chunks.append(Chunk(len(chunks) + 1, start + 1, reader.read, tags=tags,
                            opening=_opening(lines[body:i]),
                            result=tags.get("Result", "*")))
    if not chunks:
        raise RecordError(f"{source}: line 1: no game found (expected a [Game \"…\"] tag)")
    return chunks


def _opening(lines: list[str]) -> list[str]:
    """The first moves of movetext ``lines``, as written (no replay)."""
    from engine.formats import OPENING_MOVES

    out: list[str] = []
    for line in lines:
        for m in _TOKEN.finditer(line):
            tok = m.group(0)
            if tok.startswith("{") or tok in RESULTS or tok == "..." \
                    or _MOVE_NUMBER.fullmatch(tok) or _NAG.fullmatch(tok):
                continue
            glued = _SUFFIX.fullmatch(tok)
            out.append((glued.group(1) if glued else tok).lower())
            if len(out) >= OPENING_MOVES:
                return out
    return out


class _Reader:
    """Reads one game from its lines (tags ``lines[start:body]``, movetext up to
    ``end``), tracking line numbers."""

    def __init__(self, source: str, lines: list[str], start: int, body: int, end: int):
        self.source = source
        self.lines = lines
        self.start, self.body, self.end = start, body, end

    def fail(self, line: int, reason: str) -> RecordError:
        from engine.formats import GameError

        return GameError(self.source, line, reason)

    def read(self) -> GameRecord:
        lines = self.lines
        tags: dict[str, tuple[str, int]] = {}
        for i in range(self.start, self.body):
            self._read_tag(lines[i].strip(), i + 1, tags)
        movetext = [(lines[i], i + 1) for i in range(self.body, self.end)]
        return self._build(tags, movetext, self.start + 1)

    def _read_tag(self, text: str, lineno: int, tags: dict[str, tuple[str, int]]) -> None:
        m = _TAG.fullmatch(text)
        if not m:
            raise self.fail(lineno, f'malformed tag {quote(text)} (expected [Name "value"])')
        name, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
        if len(value) > MAX_TAG_VALUE:
            raise self.fail(lineno, f"tag {name} is too long")
        if name in tags:
            raise self.fail(lineno, f"tag {name} appears twice")
        tags[name] = (value, lineno)

    def _build(self, tags: dict[str, tuple[str, int]],
               movetext: list[tuple[str, int]], start: int) -> GameRecord:
        if "Game" not in tags:
            raise self.fail(start, 'missing [Game "…"] tag')
        game_id, game_line = tags.pop("Game")
        try:
            game = get_game(game_id)
        except ParlorError as exc:
            raise self.fail(game_line, str(exc)) from None
        option_names = {opt.name.capitalize(): opt.name for opt in game.options}
        raw_options = {option_names[t]: v for t, (v, _) in tags.items() if t in option_names}
        try:
            options = game.resolve(raw_options)
            state = game.initial(**options)
        except ParlorError as exc:
            line = min((ln for t, (_, ln) in tags.items() if t in option_names), default=game_line)
            raise self.fail(line, str(exc)) from None
        setup, setup_line = tags.pop("SetUp", ("1", start))
        fen = tags.pop("FEN", None)
        if setup not in ("0", "1"):
            raise self.fail(setup_line, f"bad SetUp {quote(setup)} (expected 0 or 1)")
        position: str | None = None
        if fen is not None and setup == "1":
            from engine.positions import parse_position

            position, fen_line = fen
            try:
                state = parse_position(game.id, position)
            except ParlorError as exc:
                raise self.fail(fen_line, str(exc)) from None
            options = dict(state.options)
        result, result_line = tags.pop("Result", ("*", start))
        if result not in RESULTS:
            raise self.fail(result_line,
                            f"bad Result {quote(result)} (expected 1-0, 0-1, 1/2-1/2 or *)")
        termination, term_line = tags.pop("Termination", (None, start))
        if termination is not None and termination.lower() not in TERMINATIONS:
            known = ", ".join(TERMINATIONS)
            raise self.fail(term_line, f"unknown Termination {quote(termination)}; known: {known}")
        rec = GameRecord(game=game.id, options=options, result=result,
                         termination=termination.lower() if termination else None,
                         tags={t: v for t, (v, _) in tags.items() if t not in option_names},
                         setup=position)

        end_token: tuple[str, int] | None = None
        for text, lineno in movetext:
            for m in _TOKEN.finditer(text):
                tok = m.group(0)
                if end_token is not None:
                    raise self.fail(lineno,
                                    f"text {quote(tok, 30)} after the result {end_token[0]}")
                if tok.startswith("{"):
                    if not tok.endswith("}") or len(tok) == 1:
                        raise self.fail(lineno, "unclosed comment (comments are { … } on one line)")
                    rec.comments[len(rec.moves)] = tok[1:-1].strip()
                elif tok in RESULTS:
                    end_token = (tok, lineno)
                elif tok == "..." or _MOVE_NUMBER.fullmatch(tok):
                    continue
                elif _NAG.fullmatch(tok):
                    if not rec.moves or (tok[0] == "$" and int(tok[1:]) > 255):
                        raise self.fail(lineno, f"misplaced or bad annotation {quote(tok)}")
                    rec.nags.setdefault(len(rec.moves), []).append(tok)
                else:
                    glued = _SUFFIX.fullmatch(tok)
                    if glued:
                        tok = glued.group(1)
                    for move in state.split_moves(tok):
                        try:
                            state = state.play_text(move)
                        except ParlorError as exc:
                            raise self.fail(lineno, f"move {len(rec.moves) + 1}: {exc}") from None
                        rec.moves.append(move.lower())
                    if glued:
                        rec.nags.setdefault(len(rec.moves), []).append(glued.group(2))
        last_line = movetext[-1][1] if movetext else start
        if end_token is not None and end_token[0] != result:
            raise self.fail(end_token[1], f"movetext ends with {end_token[0]} "
                                          f"but the Result tag says {result}")
        self._check_result(rec, state, end_token[1] if end_token else last_line)
        return rec

    def _check_result(self, rec: GameRecord, state: State, lineno: int) -> None:
        outcome = state.outcome()
        if outcome is not None:
            if rec.result != outcome.result.value:
                raise self.fail(lineno, f"Result {rec.result} contradicts the final position "
                                        f"({outcome.result.value}, {outcome.termination})")
        elif rec.result != "*" and rec.termination not in EARLY_TERMINATIONS:
            why = "/".join(EARLY_TERMINATIONS)
            raise self.fail(lineno, f"Result {rec.result} but the game is not over "
                                    f"(add a Termination tag: {why})")

