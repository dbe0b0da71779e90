"""Connect Four opening book: solved positions of the opening, one outcome-keeping move each.

The book file (``brains/data/connect4-book.txt``) holds one position a line::

    MOVES COLUMN OUTCOME

``MOVES`` are the 1-based column digits played from the empty board, ``COLUMN`` a
1-based column that keeps the position's exact outcome for the side to move, and
``OUTCOME`` that outcome (1 win, 0 draw, -1 loss), all proven by a weak (win/draw/loss)
solve of every column. Lookups are by position (mirror images included: a position and
its mirror share an entry, the move mirrored), so the same position always gets the same
book move, however it was reached.

Build (offline): ``python -m brains.c4book --build GAMES...`` reads game records (lines
of column digits, spaces allowed; a benchmark log's game lines work as they are), takes
every position of ``--min``..``--max`` stones on them, and solves each with a compiled
port of :mod:`brains.c4solver` (``brains/data/c4weak.c``, built with the system C
compiler into a temporary folder) or, with ``--python`` or no compiler, with
:mod:`brains.c4solver` itself (far slower). A position whose solve exceeds ``--cap``
seconds is left out. Positions whose outcome is a loss are left out too: every move
keeps a loss, so the book has nothing to say there.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from brains.c4solver import WIDTH, Position, Solver
from engine.files import read_capped
from saved import data_path, shipped_file

BOOK_PATH = data_path("brains", "data", "connect4-book.txt")
"""The book shipped with Parlor (package data of ``brains``, read with importlib.resources)."""
C_SOURCE = data_path("brains", "data", "c4weak.c")
"""The compiled solver the build uses when a C compiler is at hand."""
MAX_GAMES_FILE = 16_000_000
"""The largest game list (or existing book) ``--build`` reads."""


def mirror_moves(moves: str) -> str:
    """``moves`` reflected left to right (column c becomes 8 - c)."""
    return "".join(str(WIDTH + 1 - int(ch)) for ch in moves)


def _mirror_bits(bits: int) -> int:
    out = 0
    for col in range(WIDTH):
        out |= ((bits >> (col * 7)) & 0x7F) << ((WIDTH - 1 - col) * 7)
    return out


class Book:
    """Book moves by position: ``move(current, mask)`` is a 0-based column or None."""

    def __init__(self, entries: dict[int, tuple[int, int]] | None = None) -> None:
        self.entries: dict[int, tuple[int, int]] = entries or {}
        """Position key (``current + mask``) -> (0-based column, outcome)."""

    @classmethod
    def parse(cls, lines: Iterable[str]) -> Book:
        """A book from the file format above; raises ValueError on a malformed line."""
        book = cls()
        for number, line in enumerate(lines, start=1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            try:
                moves, column, outcome = line.split()
                col, value = int(column) - 1, int(outcome)
                position = Position.from_moves("" if moves == "-" else moves)
            except ValueError as exc:
                why = str(exc) if len(str(exc)) <= 60 else str(exc)[:57] + "..."
                raise ValueError(f"book line {number}: {line[:60]!r}: {why}") from None
            if not (0 <= col < WIDTH and position.can_play(col) and value in (-1, 0, 1)):
                raise ValueError(f"book line {number}: {line[:60]!r}: not a legal entry")
            book.add(position.current, position.mask, col, value)
        return book

    def add(self, current: int, mask: int, col: int, outcome: int) -> None:
        """Store ``col`` for the position; the first entry for a position wins."""
        self.entries.setdefault(current + mask, (col, outcome))

    def lookup(self, current: int, mask: int) -> tuple[int, int] | None:
        """(0-based column, outcome) for the position or its mirror image, else None."""
        hit = self.entries.get(current + mask)
        if hit is not None:
            return hit
        hit = self.entries.get(_mirror_bits(current) + _mirror_bits(mask))
        if hit is not None:
            return (WIDTH - 1 - hit[0], hit[1])
        return None

    def __len__(self) -> int:
        return len(self.entries)


_BOOK: Book | None = None


def book() -> Book:
    """The shipped book, read once.

    A missing book raises saved.ShippedDataError and a damaged one ValueError (one line
    each): Connect Four without its book would play weaker with no sign of why.
    """
    global _BOOK
    if _BOOK is None:
        path = shipped_file("brains", "data", "connect4-book.txt")
        try:
            with open(path, encoding="utf-8") as handle:
                _BOOK = Book.parse(handle)
        except UnicodeDecodeError as exc:
            raise ValueError(f"{path.name}: not UTF-8 text ({exc.reason})") from None
        except ValueError as exc:
            raise ValueError(f"{path.name}: {exc}") from None
    return _BOOK


# -- building ------------------------------------------------------------------------------
def best_move(scores: list[int | None]) -> tuple[int, int] | None:
    """(0-based column, outcome) keeping the best outcome, centre first; None if full."""
    from brains.c4solver import ORDER

    playable = [s for s in scores if s is not None]
    if not playable:
        return None
    top = max(playable)
    for col in ORDER:
        if scores[col] == top:
            return col, top
    return None


def positions_of(games: Iterable[str], low: int, high: int) -> list[str]:
    """Distinct positions (canonical under mirroring) of ``low``..``high`` stones on the
    games, in first-seen order; a game stops at its first illegal or winning move."""
    seen: dict[str, None] = {}
    for line in games:
        record = line.split("  ")[-1].strip()
        if not record or set(record) - set("1234567 "):
            continue
        digits = record.replace(" ", "")
        position = Position()
        for i, ch in enumerate(digits):
            if low <= i <= high:
                prefix = digits[:i]
                seen.setdefault(min(prefix, mirror_moves(prefix)), None)
            col = int(ch) - 1
            if i >= high or not position.can_play(col) or position.is_winning_move(col):
                break
            position = position.play(col)
    return list(seen)


def _analyse_c(positions: list[str], cap: float,
               binary: str) -> Iterable[tuple[str, list[int | None]]]:
    for moves in positions:
        try:
            out = subprocess.run([binary], input=f"{moves or '-'} w\n", capture_output=True,
                                 text=True, timeout=cap, check=True).stdout.split()
        except subprocess.TimeoutExpired:
            continue
        yield moves, [None if s == "x" else int(s) for s in out[1:]]


def _past(deadline: float) -> Callable[[], bool]:
    """A stop test that turns true once the monotonic clock passes ``deadline``."""
    return lambda: time.monotonic() > deadline


def _analyse_python(positions: list[str], cap: float) -> Iterable[tuple[str, list[int | None]]]:
    from brains.c4solver import SolverStopped

    for moves in positions:
        solver = Solver(stop=_past(time.monotonic() + cap))
        try:
            yield moves, solver.analyse(Position.from_moves(moves), weak=True)
        except SolverStopped:
            continue


def build(games: list[str], low: int, high: int, cap: float, use_python: bool,
          out: Path) -> int:
    """Solve the games' positions and write the book to ``out``; returns its size."""
    positions = positions_of(games, low, high)
    existing = {}
    if out.exists():
        for line in read_capped(out, MAX_GAMES_FILE).decode("utf-8").splitlines():
            if line and not line.startswith("#"):
                existing[line.split()[0]] = line
    todo = sorted((m for m in positions if (m or "-") not in existing), key=len, reverse=True)
    print(f"{len(positions)} positions, {len(todo)} to solve", flush=True)
    cc = shutil.which("cc") or shutil.which("gcc")
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        if cc and not use_python:
            binary = os.path.join(tmp, "c4weak")
            subprocess.run([cc, "-O2", "-o", binary, str(C_SOURCE)], check=True)
            results = _analyse_c(todo, cap, binary)
        else:
            results = _analyse_python(todo, cap)
        for moves, scores in results:
            chosen = best_move(scores)
            if chosen is None or chosen[1] < 0:
                existing[moves or "-"] = f"# {moves or '-'} lost"
                continue
            existing[moves or "-"] = f"{moves or '-'} {chosen[0] + 1} {chosen[1]}"
            print(existing[moves or "-"], f"{time.monotonic() - started:.0f}s", flush=True)
            _write(out, existing)  # after each position: an interrupted build keeps its work
    return _write(out, existing)


def _write(out: Path, entries: dict[str, str]) -> int:
    lines = sorted(entries.values(), key=lambda s: (len(s.lstrip("# ").split()[0]), s))
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return sum(1 for line in lines if not line.startswith("#"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m brains.c4book", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", nargs="+", metavar="GAMES", help="game record files")
    parser.add_argument("--min", type=int, default=4, help="fewest stones (default 4)")
    parser.add_argument("--max", type=int, default=7, help="most stones (default 7)")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds a position")
    parser.add_argument("--python", action="store_true", help="solve in Python only")
    parser.add_argument("--out", type=Path, default=BOOK_PATH)
    args = parser.parse_args(argv)
    if not args.build:
        print(f"{len(book())} positions in {BOOK_PATH.name}")
        return 0
    games = []
    for name in args.build:
        games += read_capped(name, MAX_GAMES_FILE).decode("utf-8").splitlines()
    started = time.monotonic()
    size = build(games, args.min, args.max, args.cap, args.python, args.out)
    print(f"{size} positions written to {args.out} in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
