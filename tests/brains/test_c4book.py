"""The Connect Four opening book: format, mirror lookups, the hook, and proven entries."""

from __future__ import annotations

import time

import pytest

from brains import c4book
from brains.c4book import Book, best_move, mirror_moves, positions_of
from brains.c4solver import Position, Solver, SolverStopped
from brains.heuristics.connect4 import exact_outcomes
from engine.registry import get_game


def _state(moves: str):
    state = get_game("connect4").initial()
    for ch in moves:
        state = state.play(state.parse_move(ch))
    return state


def test_parse_and_mirror_lookup():
    book = Book.parse(["# a comment", "", "4453443 3 1"])
    position = Position.from_moves("4453443")
    assert book.lookup(position.current, position.mask) == (2, 1)
    mirrored = Position.from_moves(mirror_moves("4453443"))
    assert mirror_moves("4453443") == "4435445"
    assert book.lookup(mirrored.current, mirrored.mask) == (4, 1)  # column 3 -> 5
    other = Position.from_moves("4453444")
    assert book.lookup(other.current, other.mask) is None
    assert len(book) == 1


@pytest.mark.parametrize("line", ["4453443 3", "4453443 9 1", "4453443 3 2", "44x 3 1",
                                  "444444 4 1"])
def test_malformed_lines_are_refused(line):
    with pytest.raises(ValueError):
        Book.parse([line])


def test_best_move_prefers_the_centre_among_the_best():
    assert best_move([-1, 1, 0, -1, 1, None, -1]) == (4, 1)  # columns 2 and 5 win: 5 nearer
    assert best_move([0, -1, -1, -1, -1, -1, 0]) == (0, 0)
    assert best_move([None] * 7) is None


def test_positions_of_takes_the_range_once_per_mirror_pair():
    games = ["4 4 3 5", "  connect4 game 1: Parlor first  1.0  4 4 5 3", "not a game 8"]
    found = positions_of(games, 1, 3)
    assert found == ["4", "44", "443"]  # 445 is 443 mirrored
    assert positions_of(["4 4 4 4 4 4 4"], 6, 6) == ["444444"]


def test_the_hook_answers_a_book_position_with_its_move(monkeypatch):
    monkeypatch.setattr(c4book, "_BOOK", Book.parse(["4453443 3 1"]))
    # 7 stones: the solver is not even tried there, the book answers at once
    outcomes = exact_outcomes(_state("4453443"), lambda: True, {})
    assert outcomes is not None and len(outcomes) == 1
    (move, value), = outcomes.items()
    assert _state("4453443").format_move(move) == "3" and value == 1
    assert exact_outcomes(_state("4453444"), lambda: True, {}) is None


def test_the_shipped_book_is_legal_and_deterministic():
    book = c4book.book()
    assert len(book) > 0
    lines = [ln for ln in c4book.BOOK_PATH.read_text().splitlines()
             if ln and not ln.startswith("#")]
    assert len(lines) == len(book)  # no position twice
    for line in lines:
        moves, column, outcome = line.split()
        position = Position.from_moves(moves)
        assert book.lookup(position.current, position.mask) == (int(column) - 1, int(outcome))


@pytest.mark.slow
def test_deepest_book_entries_are_proven_by_the_python_solver():
    lines = [ln.split() for ln in c4book.BOOK_PATH.read_text().splitlines()
             if ln and not ln.startswith("#")]
    checked = 0
    for moves, column, outcome in sorted(lines, key=lambda e: -len(e[0]))[:5]:
        position = Position.from_moves(moves)
        deadline = time.monotonic() + 60
        solver = Solver(stop=lambda end=deadline: time.monotonic() > end)
        try:
            best = solver.solve(position, weak=True)
            col = int(column) - 1
            value = 1 if position.is_winning_move(col) else -solver.solve(position.play(col),
                                                                           weak=True)
        except SolverStopped:
            continue
        assert best == int(outcome) == value, moves
        checked += 1
    assert checked > 0
