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
every position of ``--min``..``--max`` stones on them, and solves each with
:mod:`brains.c4solver` (its compiled search). A position whose solve exceeds ``--cap``
seconds is left out. Positions whose outcome is a loss are left out too: every move
keeps a loss, so the book has nothing to say there.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from brains.c4solver import (  # the exact book is read by the solver, which uses it
    CELLS,
    MAX_EXACT_FILE,
    WIDTH,
    ExactBook,
    Position,
    Solver,
    _mirror_bits,
    canonical_key,
    sha256_of,
)
from engine.files import read_capped
from engine.protocol import ParlorError
from saved import data_path, shipped_file

BOOK_PATH = data_path("brains", "data", "connect4-book.txt")
"""The book shipped with Parlor (package data of ``brains``, read with importlib.resources)."""
MAX_GAMES_FILE = 16_000_000
"""The largest game list (or existing book) ``--build`` reads."""


def mirror_moves(moves: str) -> str:
    """``moves`` reflected left to right (column c becomes 8 - c)."""
    return "".join(str(WIDTH + 1 - int(ch)) for ch in moves)


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
                raise ParlorError(f"book line {number}: {line[:60]!r}: {why}") from None
            if not (0 <= col < WIDTH and position.can_play(col) and value in (-1, 0, 1)):
                raise ParlorError(f"book line {number}: {line[:60]!r}: not a legal entry")
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
            raise ParlorError(f"{path.name}: not UTF-8 text ({exc.reason})") from None
        except ValueError as exc:
            raise ParlorError(f"{path.name}: {exc}") from None
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


def _past(deadline: float) -> Callable[[], bool]:
    """A stop test that turns true once the monotonic clock passes ``deadline``."""
    return lambda: time.monotonic() > deadline


def _analyse(positions: list[str], cap: float) -> Iterable[tuple[str, list[int | None]]]:
    from brains.c4solver import SolverStopped

    solver = Solver(book=False)
    for moves in positions:
        solver.stop = _past(time.monotonic() + cap)
        try:
            yield moves, solver.analyse(Position.from_moves(moves), weak=True)
        except SolverStopped:
            continue


def build(games: list[str], low: int, high: int, cap: float, out: Path) -> int:
    """Solve the games' positions and write the book to ``out``; returns its size."""
    positions = positions_of(games, low, high)
    existing = {}
    if out.exists():
        for line in read_capped(out, MAX_GAMES_FILE).decode("utf-8").splitlines():
            if line and not line.startswith("#"):
                existing[line.split()[0]] = line
    todo = sorted((m for m in positions if (m or "-") not in existing), key=len, reverse=True)
    print(f"{len(positions)} positions, {len(todo)} to solve", flush=True)
    started = time.monotonic()
    for moves, scores in _analyse(todo, cap):
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


# -- the exact book -----------------------------------------------------------------------
EXACT_PATH = data_path("brains", "data", "connect4-book-exact.txt")
"""The exact book shipped with Parlor (see :class:`ExactBook`)."""
MANIFEST_PATH = data_path("brains", "data", "connect4-book.json")
"""The books' manifest: each file's size and sha256, and how the exact book was built."""
EXACT_DEPTH = 8
"""Stones in the layer the exact book is built from (``--build-book --depth``)."""
_HEADER = "# Parlor's Connect Four exact book (parlor solve connect4 --build-book): MOVES SCORE"


def layer(depth: int) -> list[str]:
    """The positions of ``depth`` stones, one of each mirror pair, as the moves that
    first reach them in a depth-first walk that tries the columns centre first; games
    already won are left out. The order is the build's."""
    from brains.c4solver import BOARD, BOTTOM, ORDER, winning_cells

    # the walk carries the mirror image too; a position (or mirror) met before is not
    # walked again: everything below it was met then, so the order stays first-seen
    shifts = [(63 << (7 * col), 7 * (WIDTH - 1 - 2 * col), str(col + 1)) for col in ORDER]
    seen: dict[int, str] = {}
    walked: set[int] = set()

    def walk(cur: int, mask: int, mcur: int, mmask: int, stones: int, moves: str) -> None:
        key = min(cur + mask, mcur + mmask)
        if stones == depth:
            seen.setdefault(key, moves)
            return
        if key in walked:
            return
        walked.add(key)
        playable = (mask + BOTTOM) & BOARD
        safe = playable & ~winning_cells(cur, mask)
        for column, shift, digit in shifts:
            move = safe & column
            if move:
                mirrored = move << shift if shift >= 0 else move >> -shift
                walk(cur ^ mask, mask | move, mcur ^ mmask, mmask | mirrored, stones + 1,
                     moves + digit)

    walk(0, 0, 0, 0, 0, "")
    return list(seen.values())


def derive(solved: dict[int, int], depth: int) -> dict[int, dict[str, int]]:
    """Every position of fewer than ``depth`` stones whose children are all settled by
    ``solved`` (canonical key -> score of the ``depth``-stone positions), by negamax;
    stones -> {moves: score}, the ``depth`` layer included."""
    known = dict(solved)
    out: dict[int, dict[str, int]] = {}
    for stones in range(depth - 1, -1, -1):
        found: dict[str, int] = {}
        for moves in layer(stones):
            position = Position.from_moves(moves)
            best: int | None = None
            for col in range(WIDTH):
                if not position.can_play(col):
                    continue
                if position.is_winning_move(col):
                    value: int | None = (CELLS + 1 - stones) // 2
                else:
                    child = position.play(col)
                    got = known.get(canonical_key(child.current, child.mask))
                    value = None if got is None else -got
                if value is None:
                    best = None
                    break
                best = value if best is None else max(best, value)
            if best is not None:
                found[moves] = best
                known[canonical_key(position.current, position.mask)] = best
        out[stones] = found
    return out


def build_exact(depth: int, limit: int | None, out: Path,
                say: Callable[[str], None] = print, jobs: int = 1) -> dict[str, Any]:
    """Solve the first ``limit`` positions (all with None) of ``layer(depth)`` exactly,
    derive the shallower positions they settle, and write the book to ``out`` and its
    manifest beside it (``connect4-book.json``); returns the manifest.

    Solved positions are kept as they come in ``out`` + ``.work`` (``MOVES SCORE``), so an
    interrupted build resumes where it stopped; the book depends only on ``depth`` and
    ``limit``, so the same command writes the same bytes. ``jobs`` threads solve at once,
    each with its own solver (the compiled search releases the GIL).
    """
    import json
    import threading

    from brains.c4solver import Solver

    positions = layer(depth)
    todo = positions if limit is None else positions[:limit]
    out.parent.mkdir(parents=True, exist_ok=True)
    work = out.with_name(out.name + ".work")
    done: dict[str, int] = {}
    if work.exists():
        text = read_capped(work, MAX_EXACT_FILE).decode("utf-8")
        if text and not text.endswith("\n"):  # cut short while writing: drop the piece
            text = text[: text.rfind("\n") + 1]
            work.write_text(text, encoding="utf-8")
        try:
            done = _read_work(text)
        except ValueError as exc:
            raise ParlorError(f"{work.name}: {exc}") from None
    left = [m for m in todo if m not in done]
    say(f"{len(positions)} positions of {depth} stones; solving {len(todo)}, "
        f"{len(todo) - len(left)} already done")
    started, cpu = time.monotonic(), time.process_time()
    lock = threading.Lock()
    queue = iter(left)
    failures: list[BaseException] = []
    count = len(todo) - len(left)

    def worker() -> None:
        nonlocal count
        solver = Solver(tt_size=1 << 24, book=False)
        while True:
            with lock:
                moves = next(queue, None)
            if moves is None or failures:
                return
            try:
                score = solver.solve(Position.from_moves(moves))
            except BaseException as exc:  # noqa: BLE001 - handed to the main thread
                failures.append(exc)
                return
            with lock:
                done[moves] = score
                log.write(f"{moves or '-'} {score}\n")
                log.flush()
                count += 1
                if count % 100 == 0 or count == len(todo):
                    wall = time.monotonic() - started
                    fresh = count - (len(todo) - len(left))
                    eta = wall / fresh * (len(todo) - count) / 3600
                    say(f"{count}/{len(todo)} solved, {time.process_time() - cpu:.0f} CPU s, "
                        f"{wall:.0f} s; about {eta:.1f} h left at this rate")

    with open(work, "a", encoding="utf-8") as log:
        threads = [threading.Thread(target=worker, name=f"book-{i}", daemon=True)
                   for i in range(max(1, jobs))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if failures:
        raise failures[0]
    solved = {}
    for moves in todo:
        position = Position.from_moves(moves)
        solved[canonical_key(position.current, position.mask)] = done[moves]
    layers = derive(solved, depth)
    layers[depth] = {m: done[m] for m in todo}
    lines = [_HEADER]
    for stones in sorted(layers):
        lines += [f"{m or '-'} {s}" for m, s in sorted(layers[stones].items())]
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    manifest_path = out.with_name("connect4-book.json")
    manifest: dict[str, Any] = {"format": 1, "files": {}}
    if manifest_path.exists():
        try:
            manifest = json.loads(read_capped(manifest_path, 100_000).decode("utf-8"))
            manifest.setdefault("files", {})
        except ValueError:
            manifest = {"format": 1, "files": {}}
    command = f"parlor solve connect4 --build-book --depth {depth}"
    if limit is not None:
        command += f" --limit {limit}"
    manifest["files"][out.name] = {
        "bytes": out.stat().st_size, "sha256": sha256_of(out), "command": command,
        "depth": depth, "layer_positions": len(positions), "layer_solved": len(todo),
        "complete": len(todo) == len(positions),
        "positions": sum(len(v) for v in layers.values()),
        "by_stones": {str(k): len(v) for k, v in sorted(layers.items())}}
    manifest_path.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n",
                             encoding="utf-8")
    return manifest


def _read_work(text: str) -> dict[str, int]:
    """The ``MOVES SCORE`` lines of a build's work file, each checked as a book line."""
    lines = text.splitlines()
    ExactBook.parse(lines)
    pairs = (line.split() for line in lines if line.strip() and not line.startswith("#"))
    return {("" if m == "-" else m): int(score) for m, score in pairs}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m brains.c4book", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", nargs="+", metavar="GAMES", help="game record files")
    parser.add_argument("--min", type=int, default=4, help="fewest stones (default 4)")
    parser.add_argument("--max", type=int, default=7, help="most stones (default 7)")
    parser.add_argument("--cap", type=float, default=60.0, help="seconds a position")
    parser.add_argument("--out", type=Path, default=BOOK_PATH)
    args = parser.parse_args(argv)
    if not args.build:
        print(f"{len(book())} positions in {BOOK_PATH.name}")
        return 0
    games = []
    for name in args.build:
        games += read_capped(name, MAX_GAMES_FILE).decode("utf-8").splitlines()
    started = time.monotonic()
    size = build(games, args.min, args.max, args.cap, args.out)
    print(f"{size} positions written to {args.out} in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
