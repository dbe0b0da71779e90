"""Reader for perft data files (python-chess's ``.perft`` shape, one game per entry)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class PerftCase:
    """One position and its expected perft counts."""

    id: str
    game: str = ""
    options: dict[str, Any] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    counts: dict[int, int] = field(default_factory=dict)


def read_perft_file(path: Path) -> list[PerftCase]:
    """Parse ``path``; lines are ``id``, ``game``, ``options``, ``moves`` or ``perft``."""
    cases: list[PerftCase] = []
    case: PerftCase | None = None
    for lineno, raw in enumerate(path.read_text().splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            if not line:
                case = None
            continue
        word, _, rest = line.partition(" ")
        if word == "id":
            case = PerftCase(id=rest.strip())
            cases.append(case)
        elif case is None:
            raise ValueError(f"{path}:{lineno}: {word!r} before an id line")
        elif word == "game":
            case.game = rest.strip()
        elif word == "options":
            case.options = dict(p.split("=", 1) for p in rest.split())
        elif word == "moves":
            case.moves = rest.split()
        elif word == "perft":
            depth, count = rest.split()
            case.counts[int(depth)] = int(count)
        else:
            raise ValueError(f"{path}:{lineno}: unknown line {word!r}")
    return cases
