"""The solved Morris database: numbering, the solve (on a smaller game built here and on
the shipped file), the file's checks, and perfect play from it."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from brains import Budget, make_brain
from brains.morrisdb import (
    MorrisDBError,
    Value,
    build,
    default_path,
    open_db,
    perfect_move,
)
from brains.morrisdb import verify as verify_db
from brains.morrisdb.db import HEADER_BYTES, manifest_path, sample_check, state_at
from brains.morrisdb.index import Layout, local_index_of, moves
from engine import new_game
from engine.games.morris import ADJACENT, MILL_MASKS, POINTS, MorrisState


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A database of the game with three pieces a side, built here (about a second)."""
    path = tmp_path_factory.mktemp("morrisdb") / "morris-db.bin"
    build(path, pieces=3)
    return path


@pytest.fixture(scope="module")
def full():
    """The shipped database of the real game (five pieces a side)."""
    return open_db(default_path())


# -- numbering ------------------------------------------------------------------------
@pytest.mark.parametrize("pieces", [3, 5])
def test_numbering_is_a_bijection_on_every_class(pieces: int) -> None:
    lay = Layout(pieces)
    assert lay.classes[0].offset == 0
    for before, after in zip(lay.classes, lay.classes[1:], strict=False):
        assert after.offset == before.offset + before.size
    for cls in lay.classes:
        if cls.size > 200_000:  # the big ones by a sample, the rest whole
            local = np.random.default_rng(0).integers(0, cls.size, 20_000)
        else:
            local = np.arange(cls.size)
        own, opp = lay.boards(cls, local)
        assert not np.any(own & opp)
        assert np.all(np.bitwise_count(own) == cls.a) and np.all(np.bitwise_count(opp) == cls.b)
        assert np.array_equal(lay.local_index(cls, own, opp), local)
        assert local_index_of(cls, int(own[-1]), int(opp[-1])) == local[-1]


def test_move_generation_is_the_engines() -> None:
    """The batch move generator gives exactly the engine's moves and positions, on
    positions of every class of the full game."""
    lay = Layout(5)
    rng = random.Random(5)
    for cls in lay.classes:
        for _ in range(3):
            number = cls.offset + rng.randrange(cls.size)
            state = state_at(lay, number)
            own, opp = lay.boards(cls, np.array([number - cls.offset]))
            mine = {}
            for mv in moves(lay, cls, own, opp):
                assert list(mv.rows) == [0]
                mine[(mv.frm, mv.to, mv.removed)] = (int(mv.own[0]), int(mv.opp[0]))
            theirs = {}
            for move in state.legal_moves():
                child = state.play(move)
                theirs[move] = (child.pieces(child.to_move), child.pieces(child.to_move ^ 1))
            assert mine == theirs, (state.board_string(), cls)


# -- the solve, on the three-piece game -------------------------------------------------
def test_small_solve_agrees_with_children_everywhere(small: Path) -> None:
    db = open_db(small)
    assert db.manifest["stats"]["positions"] == db.layout.size == Layout(3).size
    assert verify_db(db) == 0


def test_small_solve_agrees_with_the_engines_moves(small: Path) -> None:
    assert sample_check(open_db(small), 400, seed=1) == []


def test_verify_finds_a_wrong_value(small: Path, tmp_path: Path) -> None:
    db = open_db(small)
    codes = np.array(db.codes)
    number = int(np.flatnonzero(codes > 2)[0])  # a win or loss in two plies or more
    codes[number] += 2  # same result, two plies longer: locally wrong
    db.codes = codes
    assert verify_db(db) >= 1


def test_small_game_values_are_the_full_games(small: Path, full) -> None:
    """Positions with at most three pieces a side are the same positions in the full
    game, so two separate solves must agree on every one of them."""
    db = open_db(small)
    lay5 = full.layout
    for cls in db.layout.classes:
        big = lay5.find(cls.ho, cls.hp, cls.a, cls.b)
        assert big is not None
        local = np.arange(cls.size)
        own, opp = db.layout.boards(cls, local)
        mine = np.asarray(db.codes[cls.offset:cls.offset + cls.size])
        theirs = np.asarray(full.codes)[lay5.index(big, own, opp)]
        assert np.array_equal(mine, theirs), cls


# -- the shipped database ---------------------------------------------------------------
def test_full_database_agrees_with_the_engines_moves(full) -> None:
    assert sample_check(full, 1500, seed=2) == []


def test_start_and_first_moves(full) -> None:
    start = new_game("morris")
    values = full.move_values(start)
    assert len(values) == 16
    assert full.value(start) == max(values.values(), key=lambda v: v.rank)
    assert full.value(start) == Value("draw", None)
    assert full.manifest["stats"]["start"] == "draw"


def test_hand_checked_positions(full) -> None:
    # White closes a5-c5-e5 and takes one of Black's three: Black is left with two
    win1 = MorrisState.from_board("WW.B.B....B..W..", 0, (0, 0))
    assert full.value(win1) == Value("win", 1)
    assert full.value(win1.play((13, 2, 3))) == Value("loss", 0)
    # Black's four pieces cannot move: Black to move has lost
    blocked = MorrisState.from_board("BBB.W.W..W...BW.", 1, (0, 0))
    assert not blocked.legal_moves() and blocked.outcome().winner == 0
    assert full.value(blocked) == Value("loss", 0)
    # under three pieces with none in hand: lost, whatever the board
    two = MorrisState.from_board("BB.WWW..........", 1, (0, 0))
    assert full.value(two) == Value("loss", 0)


def _symmetries() -> list[list[int]]:
    """The 16 maps of points that keep lines and mills: the square's eight, each also
    with the inner and outer squares swapped."""
    xy = [("abcde".index(name[0]) - 2, int(name[1]) - 3) for name in POINTS]
    where = {p: i for i, p in enumerate(xy)}

    def swap(x: int, y: int) -> tuple[int, int]:  # inner square out, outer square in
        return (2 * x, 2 * y) if max(abs(x), abs(y)) == 1 else (x // 2, y // 2)

    maps = []
    for turn in range(4):
        for mirror in (False, True):
            for inside_out in (False, True):
                perm = []
                for x, y in xy:
                    if mirror:
                        x = -x
                    for _ in range(turn):
                        x, y = y, -x
                    if inside_out:
                        x, y = swap(x, y)
                    perm.append(where[(x, y)])
                maps.append(perm)
    return maps


def test_values_are_the_same_under_the_boards_symmetries(full) -> None:
    maps = _symmetries()
    assert len({tuple(m) for m in maps}) == 16
    lines = {frozenset((p, q)) for p in range(16) for q in ADJACENT[p]}
    mills = set(MILL_MASKS)
    for perm in maps:  # each one really is a symmetry of the rules
        assert {frozenset((perm[p], perm[q])) for p, q in map(tuple, lines)} == lines
        assert {sum(1 << perm[p] for p in range(16) if m >> p & 1) for m in mills} == mills
    rng = random.Random(3)
    for _ in range(300):
        state = state_at(full.layout, rng.randrange(full.layout.size))
        board = state.board_string()
        for perm in maps:
            image = ["."] * 16
            for p, c in enumerate(board):
                image[perm[p]] = c
            other = MorrisState.from_board("".join(image), state.to_move,
                                           (state.in_hand(0), state.in_hand(1)))
            assert full.value(other) == full.value(state), (board, perm)


# -- perfect play ----------------------------------------------------------------------
def test_perfect_moves_keep_the_value_and_set_traps(full) -> None:
    rng = random.Random(4)
    for _ in range(200):
        state = state_at(full.layout, rng.randrange(full.layout.size))
        values = full.move_values(state)
        if not values:
            continue
        move = perfect_move(state, rng, full)
        assert values[move] == full.value(state)
        if values[move].result == "draw":
            drawing = [m for m, v in values.items() if v.result == "draw"]
            traps = {m: full.traps(state.play(m)) for m in drawing}
            assert traps[move] == max(traps.values())


@pytest.mark.parametrize("db_side", [0, 1])
def test_perfect_never_loses_to_alphabeta(full, db_side: int) -> None:
    rival = make_brain("alphabeta:hard,clock=3,max_seconds=0.05", "morris", seed=db_side)
    rng = random.Random(db_side)
    state = new_game("morris")
    while state.legal_moves():
        if state.to_move == db_side:
            move = perfect_move(state, rng, full)
        else:
            move = rival.choose(state, Budget(seconds=0.05))
        state = state.play(move)
        assert full.value(state).result != "win" or state.to_move == db_side, str(state)
    outcome = state.outcome()
    assert outcome is not None and outcome.winner != 1 - db_side


# -- the file's checks -------------------------------------------------------------------
def _copy(small: Path, tmp_path: Path) -> Path:
    target = tmp_path / small.name
    shutil.copy(small, target)
    shutil.copy(manifest_path(small), manifest_path(target))
    return target


def _one_line_error(path: Path, *words: str) -> None:
    with pytest.raises(MorrisDBError) as err:
        open_db(path)
    text = str(err.value)
    assert "\n" not in text and len(text) < 250
    for word in words:
        assert word in text


def test_damaged_files_are_refused_with_one_line(small: Path, tmp_path: Path) -> None:
    path = _copy(small, tmp_path)
    data = bytearray(path.read_bytes())
    data[HEADER_BYTES + 5] ^= 1
    path.write_bytes(bytes(data))
    _one_line_error(path, "sha256")
    path.write_bytes(bytes(data[:-10]))
    _one_line_error(path, "bytes")
    path.unlink()
    _one_line_error(path, "missing")


def test_bad_manifests_and_headers_are_refused(small: Path, tmp_path: Path) -> None:
    path = _copy(small, tmp_path)
    good = json.loads(manifest_path(path).read_text())
    manifest_path(path).write_text("\x80not json" * 30)
    _one_line_error(path, "not JSON")
    manifest_path(path).write_text(json.dumps({**good, "rules": "x" * 500}))
    _one_line_error(path, "rules", "...")
    manifest_path(path).write_text(json.dumps({**good, "pieces": "5"}))
    _one_line_error(path, "pieces")
    manifest_path(path).unlink()
    _one_line_error(path, "manifest")
    # a pickle in the file's place is refused before anything reads it as data
    shutil.copy(manifest_path(small), manifest_path(path))
    fake = b"\x80\x04cos\nsystem\n" + bytes(path.stat().st_size - 13)
    path.write_bytes(fake)
    manifest = {**good, "sha256": __import__("hashlib").sha256(fake).hexdigest()}
    manifest_path(path).write_text(json.dumps(manifest))
    _one_line_error(path, "not a Parlor Morris database")


def test_positions_no_game_reaches_are_refused(full) -> None:
    odd = MorrisState.from_board("WWW............B", 0, (0, 4))  # White placed all first
    with pytest.raises(MorrisDBError, match="in hand"):
        full.value(odd)


def test_command_builds_verifies_and_refuses(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    from brains.morrisdb.__main__ import main

    path = tmp_path / "db.bin"
    assert main(["build", "--pieces", "3", "--out", str(path), "--no-reachable"]) == 0
    assert "start draw" in capsys.readouterr().out
    assert main(["verify", str(path), "--sample", "50"]) == 0
    assert "0 disagree with their children; 0 of 50" in capsys.readouterr().out
    data = bytearray(path.read_bytes())
    data[-1] ^= 0xFF
    path.write_bytes(bytes(data))
    assert main(["verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "sha256 mismatch" in err


def test_fifos_and_folders_are_refused_without_waiting(small: Path, tmp_path: Path) -> None:
    import os

    path = _copy(small, tmp_path)
    path.unlink()
    os.mkfifo(path)  # opening it for reading would wait for a writer forever
    _one_line_error(path, "not a regular file")
    path.unlink()
    path.mkdir()
    _one_line_error(path, "not a regular file")
    path.rmdir()
    shutil.copy(small, path)
    manifest_path(path).unlink()
    os.mkfifo(manifest_path(path))
    _one_line_error(path, "not a regular file")
