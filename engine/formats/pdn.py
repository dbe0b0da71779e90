"""Portable Draughts Notation (PDN) for English checkers: read and write.

PDN is PGN for draughts: tag pairs, then numbered moves and a result, several games a
file. What the reader accepts, as checkers programs and archives write it:

- ``[GameType "21"]`` (English draughts; other game types are refused, and a game
  without the tag is taken as English draughts); ``[SetUp "1"]`` + ``[FEN "B:W18,…"]``
  start from a position (docs/RULES.md, Positions);
- moves ``11-15``, ``15x24``, ``15x24x31``, the short form of a multiple capture
  (``7x23`` for ``7x14x23``), resolved when one legal capture fits — when several do,
  the error names them —, and a multiple capture written hop by hop (``7x14 14x23``);
  ``!``/``?`` marks after a move are dropped;
- comments ``{…}`` over any number of lines and ``;`` to the end of the line; NAGs
  (``$1``); variations ``( … )`` (nested too) are skipped; a tag given twice keeps its
  first value;
- results ``1-0``, ``0-1``, ``1/2-1/2``, ``*`` and the draughts scores ``2-0``, ``0-2``,
  ``1-1``. As in all of Parlor, a result is from the view of the side that moves first
  (Black in English checkers); a decided result in an unfinished game is kept with the
  Termination ``recorded``.
"""

from __future__ import annotations

import bisect
import functools
import re
from typing import TYPE_CHECKING

from engine.formats import OPENING_MOVES, Chunk, GameError, read_all
from engine.protocol import AnyState, ParlorError, RecordError, quote

if TYPE_CHECKING:
    from engine.record import GameRecord

GAME = "checkers"
RESULTS = {"1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "*": "*",
           "2-0": "1-0", "0-2": "0-1", "1-1": "1/2-1/2"}
"""PDN result -> Parlor result (first player's view)."""

_TOKEN = re.compile(r"""
    (?P<tag>\[\s*(?P<name>[A-Za-z][A-Za-z0-9_]*)\s*"(?P<value>(?:[^"\\\n]|\\.)*)"\s*\])
  | (?P<badtag>\[[^\]\n]*\]?)
  | (?P<comment>\{[^}]*\}?)
  | (?P<line>;[^\n]*)
  | (?P<open>\()
  | (?P<close>\))
  | (?P<word>[^\s{}()\[;]+)
""", re.VERBOSE)
_SPLIT = re.compile(_TOKEN.pattern.replace(
    """  | (?P<open>\\()
  | (?P<close>\\))
  | (?P<word>[^\\s{}()\\[;]+)""", "  | (?P<body>[^\\[{;]+)"), re.VERBOSE)
"""What finding the games needs of :data:`_TOKEN`: tags, comments, and the runs of
movetext between them whole (one match for many moves: a large file splits fast)."""
_NUMBER = re.compile(r"\d+\.+")
_MOVE = re.compile(r"(\d{1,2})((?:[-x]\d{1,2})+)[!?*]*")
_NAG = re.compile(r"\$\d+|[!?]+")
CLAIMED_DRAWS = ("threefold repetition", "40-move rule")
"""Parlor's automatic draws that over the board are claimed (docs/RULES.md, English
checkers): a record may go on after them."""
MAX_TAG_VALUE = 1_000


def sniff(text: str) -> bool:
    """True for text with a GameType tag, or tags and checkers moves but no Game tag."""
    head = text[:20_000]
    if re.search(r"^\s*\[GameType\s", head, re.MULTILINE):
        return True
    return (head.lstrip().startswith("[") and not re.search(r'^\s*\[Game\s', head, re.MULTILINE)
            and re.search(r"(?:^|\s)\d{1,2}[-x]\d{1,2}(?:\s|$)", head) is not None)


def split(data: str | bytes, source: str = "<string>") -> list[Chunk]:
    """The games in the PDN text ``data``, found but not replayed (a game is its tags
    and the movetext up to the next tag)."""
    from engine.record import decode_text

    text = decode_text(data, source)
    chunks = _Reader(text, source).split()
    if not chunks:
        raise RecordError(f"{source}: line 1: no game found (expected PDN tags and moves)")
    return chunks


def read(data: str | bytes, source: str = "<string>") -> list[GameRecord]:
    """Every game in the PDN text ``data``; RecordError (source, line, reason) for the
    first that cannot be read."""
    return read_all(split(data, source))


class _Reader:
    def __init__(self, text: str, source: str):
        self.text = text
        self.source = source
        self.newlines = [m.start() for m in re.finditer("\n", text)]

    def line(self, pos: int) -> int:
        return bisect.bisect_left(self.newlines, pos) + 1

    def fail(self, pos: int, reason: str) -> RecordError:
        return GameError(self.source, self.line(pos), reason)

    def split(self) -> list[Chunk]:
        """One chunk per game: from its first tag (or token) to the next game's first
        tag; its tags and first moves read on the way."""
        chunks: list[Chunk] = []
        start: int | None = None
        body = False
        tags: dict[str, str] = {}
        opening: list[str] = []

        def close(end: int) -> None:
            assert start is not None
            result = RESULTS.get(tags.get("Result", "*").strip(), "*")
            chunks.append(Chunk(len(chunks) + 1, self.line(start),
                                functools.partial(self.read_span, start, end),
                                tags=dict(tags), opening=list(opening), result=result))

        for m in _SPLIT.finditer(self.text):
            kind = m.lastgroup or "body"
            if kind in ("tag", "badtag"):
                if body:
                    close(m.start())
                    start, body, tags, opening = None, False, {}, []
                if start is None:
                    start = m.start()
                if kind == "tag":
                    tags.setdefault(m.group("name"), re.sub(r"\\(.)", r"\1", m.group("value"))
                                    [:MAX_TAG_VALUE])
            elif kind == "comment" or (kind == "body" and not m.group(0).isspace()):
                if start is None:
                    start = m.start() + len(m.group(0)) - len(m.group(0).lstrip())
                body = True
                if kind == "body" and len(opening) < OPENING_MOVES:
                    for word in m.group(0).split():
                        word = _NUMBER.sub("", word, count=1)
                        if _MOVE.fullmatch(word):
                            opening.append(word.rstrip("!?*"))
                            if len(opening) == OPENING_MOVES:
                                break
        if start is not None:
            close(len(self.text))
        return chunks

    def read_span(self, start: int, end: int) -> GameRecord:
        """The game written in ``text[start:end]``, replayed."""
        tags: dict[str, tuple[str, int]] = {}
        body: list[tuple[str, str, int]] = []
        for m in _TOKEN.finditer(self.text, start, end):
            kind = m.lastgroup or "word"
            if kind == "tag":
                name, value = m.group("name"), re.sub(r"\\(.)", r"\1", m.group("value"))
                if len(value) > MAX_TAG_VALUE:
                    raise self.fail(m.start(), f"tag {name} is too long")
                tags.setdefault(name, (value, m.start()))
            elif kind == "badtag":
                raise self.fail(m.start(), f"malformed tag {quote(m.group(0))} "
                                           '(expected [Name "value"])')
            elif kind != "line":
                body.append((kind, m.group(0), m.start()))
        return self.build(tags, body)

    def build(self, tags: dict[str, tuple[str, int]],
              body: list[tuple[str, str, int]]) -> GameRecord:
        from engine.positions import parse_position
        from engine.record import GameRecord
        from engine.registry import new_game

        start_pos = body[0][2] if body else min((p for _, p in tags.values()), default=0)
        gametype, gt_pos = tags.pop("GameType", ("21", start_pos))
        if gametype.split(",")[0].strip() != "21":
            raise self.fail(gt_pos, f"GameType {quote(gametype)} is not English checkers "
                                    "(21); Parlor reads English checkers only")
        setup, _ = tags.pop("SetUp", ("1", start_pos))
        fen = tags.pop("FEN", None)
        state: AnyState = new_game(GAME)
        position = None
        if fen is not None and setup.strip() != "0":
            try:
                state = parse_position(GAME, fen[0])
            except ParlorError as exc:
                raise self.fail(fen[1], str(exc)) from None
            position = fen[0]
        result_tag = tags.pop("Result", None)
        result = "*"
        if result_tag is not None:
            if result_tag[0].strip() not in RESULTS:
                raise self.fail(result_tag[1], f"bad Result {quote(result_tag[0])} (expected "
                                               "1-0, 0-1, 2-0, 0-2, 1-1, 1/2-1/2 or *)")
            result = RESULTS[result_tag[0].strip()]
        tags.pop("Game", None)
        rec = GameRecord(game=GAME, options={}, result=result, setup=position,
                         tags={name: value for name, (value, _) in tags.items()})
        depth = 0
        cut = 0
        pending: tuple[str, int] | None = None
        """The first hops of a capture written hop by hop, and where they were read."""
        end: tuple[str, int] | None = None
        for kind, tok, pos in body:
            if kind == "open":
                depth += 1
                continue
            if kind == "close":
                depth = max(0, depth - 1)
                continue
            if depth:
                continue
            if kind == "comment":
                if not tok.endswith("}"):
                    raise self.fail(pos, "unclosed comment (a { without its })")
                text = " ".join(tok[1:-1].split())
                if text:
                    key = len(rec.moves)
                    rec.comments[key] = (f"{rec.comments[key]} {text}" if key in rec.comments
                                         else text)
                continue
            if end is not None:
                continue  # text after the result (a stray note) belongs to no move
            word = _NUMBER.sub("", tok, count=1) if _NUMBER.match(tok) else tok
            if not word or _NAG.fullmatch(word) or word in ("...", "--"):
                continue
            if word in RESULTS:
                end = (RESULTS[word], pos)
                continue
            move = _MOVE.fullmatch(word)
            if move is None:
                raise self.fail(pos, f"move {len(rec.moves) + 1}: {quote(tok)} is not a "
                                     "checkers move (like 11-15 or 15x24)")
            if cut:
                cut += 1
                continue
            outcome = state.outcome()
            if outcome is not None and outcome.termination in CLAIMED_DRAWS:
                # a draw by Parlor's repetition or 40-move rule, which a player must
                # claim over the board: the record goes on, the replay stops here
                cut = 1
                continue
            text = word.rstrip("!?*")
            if pending is not None:
                first = text.split("x", 1)[0].split("-", 1)[0]
                if first != pending[0].rsplit("x", 1)[-1]:
                    raise self.fail(pending[1], f"move {len(rec.moves) + 1}: the capture "
                                                f"{quote(pending[0])} is not finished")
                text = pending[0] + text[len(first):]
            found = self.resolve(state, text, pos, len(rec.moves) + 1)
            if found is None:  # a multiple capture written hop by hop: 11x18 18x25
                pending = (text, pos)
                continue
            pending = None
            rec.moves.append(state.format_move(found))
            state = state.play(found)
        if pending is not None:
            raise self.fail(pending[1], f"move {len(rec.moves) + 1}: the capture "
                                        f"{quote(pending[0])} is not finished")
        if end is not None:
            if result_tag is None or result == "*":
                rec.result = result = end[0]
            elif end[0] != result:
                raise self.fail(end[1], f"movetext ends with {end[0]} but the Result tag "
                                        f"says {result_tag[0].strip()}")
        outcome = state.outcome()
        where = end[1] if end else (body[-1][2] if body else start_pos)
        if cut:
            # docs/RULES.md: the repetition (or the 40-move rule) ends the game in a draw,
            # whatever the players did after it; the note keeps what the record says
            assert outcome is not None  # the replay stopped at a finished position
            after = f", and gives {result}" if result not in ("*", outcome.result.value) else ""
            note = (f"the record goes on for {cut} more moves after the "
                    f"{outcome.termination}{after} (docs/RULES.md, English checkers)")
            key = len(rec.moves)
            rec.comments[key] = f"{rec.comments[key]} {note}" if key in rec.comments else note
            result = "*"
        if outcome is not None:
            if result == "*":
                rec.result = outcome.result.value
            elif result != outcome.result.value:
                raise self.fail(where, f"Result {result} contradicts the final position "
                                       f"({outcome.result.value}, {outcome.termination})")
            rec.termination = "normal"
        elif result != "*":
            rec.termination = "recorded"
        return rec

    def resolve(self, state: AnyState, text: str, pos: int,
                number: int) -> tuple[int, ...] | None:
        """The legal move ``text`` names: exact, or the one capture with those ends; None
        when ``text`` is only the first hops of the captures there are (the record
        writes the rest as the next move)."""
        squares = tuple(int(s) for s in re.split(r"[-x]", text))
        legal = state.legal_moves()
        if squares in legal:
            return squares
        fits: list[tuple[int, ...]] = [
            m for m in legal
            if m[0] == squares[0] and m[-1] == squares[-1] and _within(squares, m)]
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            names = ", ".join(state.format_move(m) for m in fits)
            raise self.fail(pos, f"move {number}: {quote(text)} is ambiguous: it may be "
                                 f"{names}")
        if "x" in text and any(m[0] == squares[0] and squares[-1] in m[1:-1]
                               and _within(squares, m) for m in legal):
            return None
        try:
            state.parse_move(text)
        except ParlorError as exc:
            raise self.fail(pos, f"move {number}: {exc}") from None
        raise self.fail(pos, f"move {number}: illegal move {quote(text)}")  # pragma: no cover


def _within(short: tuple[int, ...], path: tuple[int, ...]) -> bool:
    """True when the squares of ``short`` appear in ``path`` in the same order."""
    it = iter(path)
    return all(square in it for square in short)


# --------------------------------------------------------------------------- writing


def _tag(name: str, value: object) -> str:
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{text}"]'


def write(records: list[GameRecord]) -> str:
    """The checkers games as PDN (GameType 21, FEN for a set-up start)."""
    from engine.formats import need_game

    need_game(records, GAME, "pdn")
    out = []
    for rec in records:
        lines = [_tag(name, value) for name, value in rec.tags.items()
                 if name not in ("GameType", "SetUp", "FEN", "Result")]
        lines.append(_tag("GameType", "21"))
        if rec.setup is not None:
            lines += [_tag("SetUp", "1"), _tag("FEN", rec.setup)]
        lines.append(_tag("Result", rec.result))
        first = rec.initial().to_move
        tokens: list[str] = []
        if 0 in rec.comments:
            tokens.append("{" + rec.comments[0].replace("}", ")") + "}")
        for i, move in enumerate(rec.moves):
            ply = i + first
            if ply % 2 == 0:
                tokens.append(f"{ply // 2 + 1}.")
            elif i == 0:
                tokens.append(f"{ply // 2 + 1}...")
            tokens.append(move)
            if i + 1 in rec.comments:
                tokens.append("{" + rec.comments[i + 1].replace("}", ")") + "}")
        tokens.append(rec.result)
        body, line = [], ""
        for tok in tokens:
            if line and len(line) + 1 + len(tok) > 79:
                body.append(line)
                line = tok
            else:
                line = f"{line} {tok}" if line else tok
        body.append(line)
        out.append("\n".join(lines) + "\n\n" + "\n".join(body) + "\n")
    return "\n".join(out)
