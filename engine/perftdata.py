"""Reader for perft data files (python-chess's ``.perft`` shape, one game per entry).

An entry is a block of lines, entries separated by blank lines; ``#`` starts a comment
line::

    id reversi-6x6-start
    game reversi
    options size=6
    moves f5 d6
    perft 1 4
    perft 2 12

A malformed file raises ValueError naming the file and the line, quoting at most 60
characters of it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.files import read_capped
from engine.protocol import ParlorError

MAX_BYTES = 4_000_000
"""The largest perft data file read (the shipped ones are a few kilobytes)."""

QUOTE = 60
"""Most characters of a bad line an error message quotes."""


@dataclass
class PerftCase:
    """One position and its expected perft counts."""

    id: str
    game: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)


def read_perft_file(path: Path) -> list[PerftCase]:
    """Parse ``path``; lines are ``id``, ``game``, ``options``, ``moves`` or ``perft``.

    Every entry needs a game and at least one count; depths are positive and distinct,
    counts are non-negative.
    """
    cases: list[PerftCase] = []
    case: PerftCase | None = None
    try:
        text = read_capped(path, MAX_BYTES).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ParlorError(f"{path}: not UTF-8 text ({exc.reason})") from None
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()

        def bad(why: str, lineno: int = lineno, line: str = line) -> ValueError:
            return ValueError(f"{path}:{lineno}: {line[:QUOTE]!r}: {why}")

        if not line or line.startswith("#"):
            if not line:
                case = None
            continue
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "id":
            if not rest:
                raise bad("an id needs a name")
            case = PerftCase(id=rest)
            cases.append(case)
        elif case is None:
            raise bad(f"{word[:20]!r} before an id line")
        elif word == "game":
            case.game = rest
        elif word == "options":
            pairs = [p.split("=", 1) for p in rest.split()]
            if any(len(p) != 2 or not p[0] for p in pairs):
                raise bad("options are KEY=VALUE pairs")
            case.options = dict(pairs)
        elif word == "moves":
            case.moves = rest.split()
        elif word == "perft":
            parts = rest.split()
            if len(parts) != 2 or not all(p.isdigit() for p in parts):
                raise bad("expected 'perft DEPTH COUNT' with whole numbers")
            depth, count = int(parts[0]), int(parts[1])
            if depth < 1 or depth in case.counts:
                raise bad("depths are positive and listed once per entry")
            case.counts[depth] = count
        else:
            raise bad(f"unknown line {word[:20]!r}")
    for case in cases:
        if not case.game or not case.counts:
            raise ParlorError(f"{path}: entry {case.id[:QUOTE]!r} needs a game and a perft line")
    return cases
