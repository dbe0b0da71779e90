"""The Connect Four opening book: format, mirror lookups, the hook, and proven entries."""

from __future__ import annotations

import json
import random
import time

import pytest

from brains import c4book, c4solver
from brains.c4book import Book, best_move, mirror_moves, positions_of
from brains.c4solver import WIDTH, Position, Solver, SolverStopped
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
def test_deepest_book_entries_are_proven_by_the_solver():
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


# --- the exact book ----------------------------------------------------------------------

def test_exact_book_lines_are_checked():
    book = c4solver.ExactBook.parse(["# comment", "", "- 1", "4 -1", "44 0"])
    position = Position.from_moves("44")
    assert book.score(position.current, position.mask) == 0 and book.depth == 2
    assert book.score(0, 0) == 1 and len(book) == 3
    assert book.deepest == {c4solver.canonical_key(position.current, position.mask): 0}
    for bad in ["44 x", "48 1", "44 30", "44", "1212121 3", "43 1\n45 2"]:
        with pytest.raises(ValueError, match="book line"):
            c4solver.ExactBook.parse(bad.splitlines())


def test_mirror_images_share_an_entry():
    book = c4solver.ExactBook.parse(["4453 -2"])
    mirrored = Position.from_moves(mirror_moves("4453"))
    assert book.score(mirrored.current, mirrored.mask) == -2
    deeper = Position.from_moves("44531")
    assert book.score(deeper.current, deeper.mask) is None


def test_layer_lists_each_position_once_up_to_mirroring():
    assert c4book.layer(0) == [""]
    assert c4book.layer(1) == ["4", "3", "2", "1"]
    two = c4book.layer(2)
    assert len(two) == 25 and two[0] == "44"  # 49 positions, only 44 its own mirror
    keys = set()
    for moves in c4book.layer(5):
        position = Position.from_moves(moves)  # no finished game
        key = c4solver.canonical_key(position.current, position.mask)
        assert key not in keys
        keys.add(key)
        mirrored = Position.from_moves(mirror_moves(moves))
        assert c4solver.canonical_key(mirrored.current, mirrored.mask) == key


def test_derive_is_negamax_over_the_layer():
    import random

    rng = random.Random(3)
    solved = {}
    for moves in c4book.layer(3):
        position = Position.from_moves(moves)
        solved[c4solver.canonical_key(position.current, position.mask)] = rng.randint(-5, 5)
    layers = c4book.derive(solved, 3)

    def value(moves):  # plain negamax over every child, mirror images looked up as such
        position = Position.from_moves(moves)
        if position.moves == 3:
            return solved[c4solver.canonical_key(position.current, position.mask)]
        return max(-value(moves + str(c + 1)) for c in range(7))

    assert set(layers) == {0, 1, 2}
    assert layers[0] == {"": value("")}
    for moves in c4book.layer(2):
        assert layers[2][moves] == value(moves)
    partial = dict(solved)
    partial.pop(next(iter(partial)))  # one position missing: its ancestors stay unknown
    shallow = c4book.derive(partial, 3)
    assert shallow[0] == {} and 0 < len(shallow[2]) < len(layers[2])


def _manifest_entry():
    manifest = json.loads(c4book.MANIFEST_PATH.read_text(encoding="utf-8"))
    return manifest["files"]["connect4-book-exact.txt"]


def test_shipped_exact_book_matches_its_manifest():
    import hashlib

    entry = _manifest_entry()
    data = c4book.EXACT_PATH.read_bytes()
    assert len(data) == entry["bytes"] and hashlib.sha256(data).hexdigest() == entry["sha256"]
    book = c4solver.exact_book()
    assert len(book) == entry["positions"] == sum(entry["by_stones"].values())
    assert book.depth == entry["depth"] and len(book.deepest) == entry["layer_solved"]


def test_a_damaged_exact_book_is_refused_in_one_line(tmp_path, monkeypatch):
    import saved

    (tmp_path / "data").mkdir()
    for name in ("connect4-book-exact.txt", "connect4-book.json"):
        (tmp_path / "data" / name).write_bytes((c4book.EXACT_PATH.parent / name).read_bytes())
    monkeypatch.setattr(saved, "data_path", lambda package, *parts: tmp_path.joinpath(*parts))
    monkeypatch.setattr(c4solver, "_EXACT", None)
    assert len(c4solver.exact_book()) > 0  # the copies are sound
    book = tmp_path / "data" / "connect4-book-exact.txt"
    book.write_bytes(book.read_bytes().replace(b" ", b"  ", 1))
    monkeypatch.setattr(c4solver, "_EXACT", None)
    with pytest.raises(ValueError) as info:
        c4solver.exact_book()
    assert "does not match connect4-book.json" in str(info.value)
    assert "\n" not in str(info.value)
    (tmp_path / "data" / "connect4-book.json").write_text("{not json")
    with pytest.raises(ValueError, match=r"connect4-book\.json: damaged"):
        c4solver.exact_book()


def _sample(entries, count):
    step = max(1, len(entries) // count)
    return entries[::step][:count]


def _deepest_entries():
    book = c4solver.exact_book()
    lines = [ln.split() for ln in c4book.EXACT_PATH.read_text().splitlines()
             if ln and not ln.startswith("#")]
    return [(m, int(s)) for m, s in lines if len(m) == book.depth]


def _check_entries(entries):
    solver = Solver(book=False)
    for moves, score in entries:
        assert solver.solve(Position.from_moves(moves)) == score, moves


def test_a_sample_of_the_exact_book_re_solved_without_it():
    _check_entries(_sample(_deepest_entries(), 2))


@pytest.mark.slow
def test_a_larger_sample_of_the_exact_book_re_solved_without_it():
    _check_entries(_sample(_deepest_entries(), 40))


def test_the_solver_answers_from_the_book_and_its_search_looks_up_the_layer(monkeypatch):
    book = c4solver.exact_book()
    lines = [ln.split() for ln in c4book.EXACT_PATH.read_text().splitlines()
             if ln and not ln.startswith("#")]
    shallow = [(m, int(s)) for m, s in lines if len(m) == book.depth - 1]
    assert shallow, "the shipped book settles no position above its deepest layer"
    moves, score = shallow[0]
    position = Position.from_moves(moves)
    solver = Solver()
    scores = solver.analyse(position)
    assert solver.nodes == 0  # every child from the book
    assert max(s for s in scores if s is not None) == score == solver.solve(position)
    for col, value in enumerate(scores):
        if value is not None and not position.is_winning_move(col):
            child = position.play(col)
            assert -book.score(child.current, child.mask) == value
    # the deepest layer alone: the position above it is now found by a search that
    # looks its children up in the compiled kernel
    layer_only = c4solver.ExactBook(dict(book.deepest), book.depth)
    layer_only.deepest = dict(book.deepest)
    monkeypatch.setattr(c4solver, "_EXACT", layer_only)
    searched = Solver()
    assert searched.solve(position) == score
    assert 0 < searched.nodes < 200  # one node per null window and child: no deeper


@pytest.mark.slow  # a build of real book entries: tens of CPU seconds (make bench runs it)
def test_build_is_resumable_and_reproducible(tmp_path):
    first = c4book.build_exact(8, 2, tmp_path / "a" / "book.txt", say=lambda line: None)
    work = tmp_path / "a" / "book.txt.work"
    assert len(work.read_text().splitlines()) == 2
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "book.txt.work").write_text(work.read_text().splitlines()[0] + "\n")
    said = []
    second = c4book.build_exact(8, 2, tmp_path / "b" / "book.txt", say=said.append)
    assert "1 already done" in said[0]
    assert (tmp_path / "a" / "book.txt").read_bytes() == (tmp_path / "b" / "book.txt").read_bytes()
    assert first == second
    entry = first["files"]["book.txt"]
    assert entry["layer_solved"] == 2 and entry["command"].endswith("--depth 8 --limit 2")
    layer = c4book.layer(8)[:2]
    book = c4solver.ExactBook.parse((tmp_path / "a" / "book.txt").read_text().splitlines())
    for moves in layer:
        position = Position.from_moves(moves)
        assert book.score(position.current, position.mask) == \
            Solver(book=False).solve(position)
    said.clear()  # two threads, and a work file cut short in its last line
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "book.txt.work").write_text(work.read_text()[:-3])
    third = c4book.build_exact(8, 3, tmp_path / "d" / "book.txt", say=said.append, jobs=2)
    assert "3, 1 already done" in said[0] and said[-1].startswith("3/3 solved")
    assert len((tmp_path / "d" / "book.txt.work").read_text().splitlines()) == 3
    assert third["files"]["book.txt"]["layer_solved"] == 3
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "book.txt.work").write_text("44444433 99\n")
    with pytest.raises(ValueError, match=r"book\.txt\.work: book line 1"):
        c4book.build_exact(8, 2, tmp_path / "c" / "book.txt", say=said.append)


def test_the_shipped_book_answers_every_position_under_its_depth(monkeypatch):
    """The book is complete: every column of a position of fewer stones than its layer is
    a lookup, the search kernel never asked (it raises here)."""
    from tests.brains.test_c4solver import random_unfinished

    assert _manifest_entry()["complete"] is True

    def no_search():
        raise AssertionError("the search kernel was asked")

    monkeypatch.setattr(c4solver, "_kernel", no_search)
    book = c4solver.exact_book()
    for moves in ["", *random_unfinished(random.Random(5), 300, 0, book.depth)]:
        position = Position.from_moves(moves)
        scores = Solver().analyse(position)
        assert [s is None for s in scores] == [not position.can_play(c) for c in range(WIDTH)]


def test_the_empty_board_is_scored_from_the_book(capsys):
    from tui.cli import main

    assert Solver().analyse(Position.from_moves("")) == [-2, -1, 0, 1, 0, -1, -2]
    assert main(["solve", "connect4", "--analyse", ""]) == 0
    assert capsys.readouterr().out.split()[-7:] == ["-2", "-1", "0", "1", "0", "-1", "-2"]
