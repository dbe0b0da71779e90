"""The Generic Game Format of Othello servers and programs: ``(;GM[Othello]…;)``.

Each game is a list of ``NAME[value]`` properties between ``(;`` and ``;)``: ``GM``
(the game, Othello), ``TY`` (the game type: the board size 4, 6 or 8, with ``s`` for a
synchro game, ``rN`` for a random start of N discs, ``k`` for komi, ``b``/``w`` for a
chosen colour), ``BO`` (the start: size, the squares row by row with ``*`` black, ``O``
white, ``-`` empty, then the side to move), ``B[f5]`` and ``W[d6]`` moves (an
evaluation and time may follow after ``/``; ``PA`` is a pass, and a pass left out is
inserted when the side to move has no placement), ``RE`` (Black's disc margin: ``+12``,
``-4``, ``0``; ``?`` unknown), ``PB``/``PW`` (the players), ``DT`` and ``PC`` (date and
place). Other properties are kept out.

A synchro game is two games from one start, each player Black in one: the GGS server
archives them as a match line, ``2 (;…;)(;…;)``; each is read as a game of its own (text
between games is skipped). A random-start game starts from its ``BO``. Komi games are
read with their disc result (``KM`` kept in the ``Komi`` tag); anti-Othello (``a``) and
boards other than 4×4, 6×6 and 8×8 are refused.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING, Any

from engine.formats import OPENING_MOVES, Chunk, GameError, read_all
from engine.formats.othello import finish, play_implicit
from engine.games.reversi import PASS, ReversiState
from engine.protocol import AnyState, RecordError, quote

if TYPE_CHECKING:
    from engine.record import GameRecord

GAME = "reversi"
_GAME = re.compile(r"\(;(.*?)(?:;\)|\Z)", re.DOTALL)
_PROP = re.compile(r"\s*([A-Za-z]+)\[([^\]]*)\]")
_RESULT = re.compile(r"([+-]?\d+(?:\.\d*)?)(?::\w*)?")
TAGS = {"PC": "Site", "DT": "Date", "PB": "Black", "PW": "White"}
TYPE_TAG = "GGFType"
"""The record tag keeping a GGF game type other than the plain board size (``s8r18``:
synchro, random start with 18 discs; ``k8``: komi), so an export writes it back."""


def sniff(text: str) -> bool:
    """True for text that opens a GGF game."""
    return re.match(r"\s*\(\s*;\s*GM\[", text) is not None or bool(
        re.search(r"\(;GM\[othello\]", text[:20_000], re.IGNORECASE))


def split(data: str | bytes, source: str = "<string>") -> list[Chunk]:
    """The Othello games in the GGF text ``data``, found but not replayed; text between
    games (the game count of a GGS match line, ``2 (;…;)(;…;)``) is skipped."""
    from engine.record import decode_text

    text = decode_text(data, source)
    chunks: list[Chunk] = []
    line, last = 1, 0
    for m in _GAME.finditer(text):
        line += text.count("\n", last, m.start())
        last = m.start()
        head: dict[str, str] = {}
        opening: list[str] = []
        for prop in _PROP.finditer(m.group(1)):
            name = prop.group(1).upper()
            if name in ("B", "W"):
                if len(opening) < OPENING_MOVES:
                    opening.append(prop.group(2).split("/")[0].strip().lower())
            else:
                head.setdefault(name, prop.group(2))
        tags = {tag: head[key] for key, tag in TAGS.items() if key in head}
        chunks.append(Chunk(len(chunks) + 1, line,
                            functools.partial(_game, m.group(1), source, line),
                            tags=tags, opening=opening, result=_result(head.get("RE", ""))))
    if not chunks:
        raise RecordError(f"{source}: line 1: no game found (GGF games are (;GM[Othello]…;))")
    return chunks


def read(data: str | bytes, source: str = "<string>") -> list[GameRecord]:
    """Every Othello game in the GGF text ``data``."""
    return read_all(split(data, source))


def _result(value: str) -> str:
    """An RE value in Parlor's form (``*`` when it is none)."""
    score = _RESULT.fullmatch(value.strip())
    if not score:
        return "*"
    margin = float(score.group(1))
    return "1-0" if margin > 0 else "0-1" if margin < 0 else "1/2-1/2"


def _board(value: str, where: str) -> str:
    """A BO value as a Parlor position (docs/RULES.md, Positions)."""
    from engine.positions import format_rows

    parts = value.split()
    if not parts or not parts[0].isdigit() or int(parts[0][:2]) not in (4, 6, 8):
        raise RecordError(f"{where}: BO {quote(value)}: the size must be 4, 6 or 8")
    n = int(parts[0])
    cells = "".join(parts[1:])
    if len(cells) != n * n + 1 or set(cells[:-1]) - set("-*O") or cells[-1] not in "*O":
        raise RecordError(f"{where}: BO {quote(value)}: expected {n * n} squares of *, O "
                          "or - and the side to move (* or O)")
    rows = [cells[r * n:(r + 1) * n].translate(str.maketrans("-*O", ".xo")) for r in range(n)]
    return f"{format_rows(rows)} {'x' if cells[-1] == '*' else 'o'}"


def _game(body: str, source: str, line: int) -> GameRecord:
    """The game whose properties are ``body``, starting on ``line``; GameError if it
    does not read."""
    where = f"{source}: line {line}"
    try:
        return _read(body, where)
    except RecordError as exc:
        text = str(exc)
        reason = text[len(where) + 2:] if text.startswith(f"{where}: ") else text
        raise GameError(source, line, reason) from None


def _kind(value: str, where: str) -> tuple[int, str]:
    """A TY value (``8``, ``s8r18``, ``k8``) as the board size and its modifiers (``s``
    synchro, ``r`` random start, ``k`` komi, ``b``/``w`` colours chosen)."""
    kind = value.strip().lower() or "8"
    m = re.fullmatch(r"([a-z]*)(\d+)((?:r\d*|[a-z])*)", kind)
    flags = re.sub(r"r\d*", "r", (m.group(1) + m.group(3))) if m else "?"
    if m is None or set(flags) - set("skrbw"):
        why = ("anti-Othello (the fewest discs win), which Parlor does not play"
               if m is not None and "a" in flags else "not supported")
        raise RecordError(f"{where}: game type TY[{quote(kind)[1:-1]}] is {why} (Parlor "
                          "plays Othello on 4×4, 6×6 and 8×8: plain, synchro, random "
                          "start or komi games)")
    size = int(m.group(2)[:3])
    if size not in (4, 6, 8):
        raise RecordError(f"{where}: game type TY[{quote(kind)[1:-1]}]: a {size}×{size} "
                          "board is not supported (Parlor plays 4×4, 6×6 and 8×8)")
    return size, flags


def _read(body: str, where: str) -> GameRecord:
    from engine.positions import parse_position
    from engine.record import GameRecord, setup_of
    from engine.registry import new_game

    props: list[tuple[str, str]] = []
    pos = 0
    for m in _PROP.finditer(body):
        if body[pos:m.start()].strip():
            break
        props.append((m.group(1).upper(), m.group(2)))
        pos = m.end()
    if body[pos:].strip():
        raise RecordError(f"{where}: not a GGF property: {quote(body[pos:].strip())}")
    head = dict(reversed([p for p in props if p[0] not in "BW"]))
    if head.get("GM", "").strip().lower() != "othello":
        raise RecordError(f"{where}: GM {quote(head.get('GM', ''))} is not Othello")
    size, flags = _kind(head.get("TY", "8"), where)
    state: Any
    if "BO" in head:
        state = parse_position(GAME, _board(head["BO"], where))
        if "TY" in head and state.size != size:
            raise RecordError(f"{where}: TY[{quote(head['TY'])[1:-1]}] but BO is "
                              f"{state.size}×{state.size}")
    elif "r" in flags:
        raise RecordError(f"{where}: a random-start game (TY[{quote(head['TY'])[1:-1]}]) "
                          "without its start position (BO)")
    else:
        state = new_game(GAME, size=size)
    setup = setup_of(state)
    rec = GameRecord(game=GAME, options=dict(state.options), setup=setup,
                     tags={tag: head[key] for key, tag in TAGS.items() if key in head})
    if setup is None:
        state = new_game(GAME, size=state.size)
        rec.options = dict(state.options)
    for name, value in props:
        if name not in ("B", "W"):
            continue
        text = value.split("/")[0].strip().lower()
        text = "pass" if text in ("pa", "pass", "--", "") else text
        colour = 0 if name == "B" else 1
        if colour != state.to_move:
            if state.legal_moves() == (PASS,) and text != "pass":
                state = state.play(PASS)
                rec.moves.append("pass")
            else:
                raise RecordError(f"{where}: move {len(rec.moves) + 1}: "
                                  f"{name}[{quote(value)[1:-1]}] "
                                  f"but {state.PLAYERS[state.to_move]} is to move")
        state = play_implicit(state, text, rec.moves, where)
    result = head.get("RE", "?").strip()
    score = _RESULT.fullmatch(result)
    if score:
        margin = float(score.group(1))
        rec.result = "1-0" if margin > 0 else "0-1" if margin < 0 else "1/2-1/2"
    elif result not in ("?", ""):
        raise RecordError(f"{where}: RE {quote(result)} is not a result (+N, -N, 0 or ?)")
    outcome = state.outcome()
    if "k" in flags:
        rec.tags["Komi"] = head.get("KM", "?").strip()[:20]
    kind = head.get("TY", "").strip().lower()
    if flags:  # synchro, random start, komi, colours: kept, and written back as read
        rec.tags[TYPE_TAG] = kind
    if outcome is not None and rec.result not in ("*", outcome.result.value) and "k" not in flags:
        raise RecordError(f"{where}: RE[{result}] contradicts the final position "
                          f"({outcome.result.value}, {outcome.termination})")
    finish(rec, state)
    return rec


def _type_of(rec: GameRecord, size: int) -> str:
    """The TY a game is written with: the type it was read with (``s8r18``, ``k8``) when
    that type is one Parlor reads and fits the board, else the board's size."""
    kind = rec.tags.get(TYPE_TAG, "").strip().lower()
    try:
        if kind and _kind(kind, "")[0] == size:
            return kind
    except RecordError:
        pass
    return str(size)


def write(records: list[GameRecord]) -> str:
    """Each game as one GGF line; passes are written ``PA``."""
    from engine.formats import need_game

    need_game(records, GAME, "ggf")
    out = []
    for i, rec in enumerate(records, 1):
        start = rec.initial()
        assert isinstance(start, ReversiState), "need_game let only Reversi games through"
        if start.drawn_squares:
            raise RecordError(f"game {i} is a FlipColor game, which GGF cannot hold")
        n = start.size
        cells = "".join("*" if start.cell(s) == 0 else "O" if start.cell(s) == 1 else "-"
                        for s in range(n * n))
        board = " ".join(cells[r * n:(r + 1) * n] for r in range(n))
        parts = ["(;GM[Othello]"]
        for key, tag in TAGS.items():
            value = rec.tags.get(tag, "Parlor" if key == "PC" else None)
            if value is not None:
                parts.append(f"{key}[{_clean(value)}]")
        final = rec.final()
        assert isinstance(final, ReversiState)
        if final.outcome() is not None:
            black, white = final.counts()
            re_value = f"{black - white:+d}" if black != white else "0"
        else:
            re_value = {"1-0": "+1:r", "0-1": "-1:r", "1/2-1/2": "0:r"}.get(rec.result, "?")
        parts.append(f"RE[{re_value}]TY[{_type_of(rec, n)}]")
        if "k" in _type_of(rec, n) and rec.tags.get("Komi", "?") != "?":
            parts.append(f"KM[{_clean(rec.tags['Komi'])}]")
        parts.append(f"BO[{n} {board} {'*O'[start.to_move]}]")
        state: AnyState = start
        for text in rec.moves:
            parts.append(f"{'BW'[state.to_move]}[{'PA' if text == 'pass' else text.upper()}]")
            state = state.play_text(text)
        parts.append(";)")
        out.append("".join(parts))
    return "\n".join(out) + "\n"


def _clean(value: str) -> str:
    """A tag value as a GGF property value (no brackets or line breaks)."""
    return " ".join(value.split()).replace("[", "(").replace("]", ")")[:200]
