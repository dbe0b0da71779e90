"""The Generic Game Format of Othello servers and programs: ``(;GM[Othello]…;)``.

Each game is a list of ``NAME[value]`` properties between ``(;`` and ``;)``: ``GM``
(the game, Othello), ``TY`` (board size: 4, 6 or 8, with ``r`` for a random start),
``BO`` (the start: size, the squares row by row with ``*`` black, ``O`` white, ``-``
empty, then the side to move), ``B[f5]`` and ``W[d6]`` moves (an evaluation and time may
follow after ``/``; ``PA`` is a pass, and a pass left out is inserted when the side to
move has no placement), ``RE`` (Black's disc margin: ``+12``, ``-4``, ``0``; ``?``
unknown), ``PB``/``PW`` (the players), ``DT`` and ``PC`` (date and place). Other
properties are kept out; synchro, anti and komi games are refused.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from engine.formats.othello import finish, play_implicit
from engine.games.reversi import PASS, ReversiState
from engine.protocol import RecordError, State, quote

if TYPE_CHECKING:
    from engine.record import GameRecord

GAME = "reversi"
_GAME = re.compile(r"\(;(.*?)(?:;\)|\Z)", re.DOTALL)
_PROP = re.compile(r"\s*([A-Za-z]+)\[([^\]]*)\]")
_RESULT = re.compile(r"([+-]?\d+(?:\.\d*)?)(?::\w*)?")
TAGS = {"PC": "Site", "DT": "Date", "PB": "Black", "PW": "White"}


def sniff(text: str) -> bool:
    """True for text that opens a GGF game."""
    return re.match(r"\s*\(\s*;\s*GM\[", text) is not None or bool(
        re.search(r"\(;GM\[othello\]", text[:20_000], re.IGNORECASE))


def read(data: str | bytes, source: str = "<string>") -> list[GameRecord]:
    """Every Othello game in the GGF text ``data``."""
    from engine.record import decode_text

    text = decode_text(data, source)
    games = []
    for m in _GAME.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        games.append(_game(m.group(1), f"{source}: line {line}"))
    if not games:
        raise RecordError(f"{source}: line 1: no game found (GGF games are (;GM[Othello]…;))")
    return games


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


def _game(body: str, where: str) -> GameRecord:
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
    kind = head.get("TY", "8").strip().lower()
    if not re.fullmatch(r"(4|6|8)r?\d*", kind):
        raise RecordError(f"{where}: game type TY[{quote(kind)[1:-1]}] is not supported "
                          "(Parlor plays plain Othello on 4×4, 6×6 and 8×8)")
    size = int(kind[0])
    state: Any
    if "BO" in head:
        state = parse_position(GAME, _board(head["BO"], where))
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
    if outcome is not None and rec.result not in ("*", outcome.result.value):
        raise RecordError(f"{where}: RE[{result}] contradicts the final position "
                          f"({outcome.result.value}, {outcome.termination})")
    finish(rec, state)
    return rec


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
        parts.append(f"RE[{re_value}]TY[{n}]BO[{n} {board} {'*O'[start.to_move]}]")
        state: State = start
        for text in rec.moves:
            parts.append(f"{'BW'[state.to_move]}[{'PA' if text == 'pass' else text.upper()}]")
            state = state.play_text(text)
        parts.append(";)")
        out.append("".join(parts))
    return "\n".join(out) + "\n"


def _clean(value: str) -> str:
    """A tag value as a GGF property value (no brackets or line breaks)."""
    return " ".join(value.split()).replace("[", "(").replace("]", ")")[:200]
