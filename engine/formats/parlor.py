"""Parlor's own PGN-style records (see :mod:`engine.record`): finding a file's games
(:func:`split_parlor`), replaying them (:func:`parse_parlor`) and writing them."""

from __future__ import annotations

import re

from engine.formats import OPENING_MOVES, Chunk, GameError, read_all
from engine.protocol import AnyState, ParlorError, RecordError, quote
from engine.record import (
    _MOVE_NUMBER,
    _NAG,
    _SUFFIX,
    _TAG,
    _TOKEN,
    EARLY_TERMINATIONS,
    MAX_TAG_VALUE,
    RESULTS,
    TERMINATIONS,
    GameRecord,
    decode_text,
    format_records,
)
from engine.registry import get_game


def write(records: list[GameRecord]) -> str:
    """The games as Parlor records, separated by blank lines."""
    return format_records(records)


def parse_parlor(data: str | bytes, source: str = "<string>") -> list[GameRecord]:
    """Parse and replay every game of Parlor's own record format in ``data``."""

    return read_all(split_parlor(data, source))


def split_parlor(data: str | bytes, source: str = "<string>") -> list[Chunk]:
    """The games of Parlor's own record format in ``data``, found but not replayed: a
    game is a block of tag lines and the movetext lines after it."""
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

    def _check_result(self, rec: GameRecord, state: AnyState, lineno: int) -> None:
        outcome = state.outcome()
        if outcome is not None:
            if rec.result != outcome.result.value:
                raise self.fail(lineno, f"Result {rec.result} contradicts the final position "
                                        f"({outcome.result.value}, {outcome.termination})")
        elif rec.result != "*" and rec.termination not in EARLY_TERMINATIONS:
            why = "/".join(EARLY_TERMINATIONS)
            raise self.fail(lineno, f"Result {rec.result} but the game is not over "
                                    f"(add a Termination tag: {why})")
