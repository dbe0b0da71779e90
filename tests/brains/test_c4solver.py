"""Tests of the Connect Four solver: Pons' scores, bitboard tricks, analyse, the command;
the compiled kernel against the pure-Python oracle (tests/brains/c4_oracle.py)."""

from __future__ import annotations

import io
import random
import subprocess
import sys
from pathlib import Path

import pytest

from brains.c4solver import (
    CELLS,
    Position,
    Solver,
    SolverStopped,
    position_of,
    solve_moves,
)
from engine import new_game
from tests.brains.c4_oracle import OracleSolver
from tui.cli import main

SAMPLE = Path(__file__).parent.parent / "data" / "c4" / "end_easy_sample.txt"


def read_lines(path: Path) -> list[tuple[str, int]]:
    """Pons-style ``MOVES SCORE`` lines; ``#`` starts a comment line."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            moves, score = line.split()
            out.append((moves, int(score)))
    return out


CASES = read_lines(SAMPLE)


# --- an independent oracle: a plain grid and exhaustive search --------------------------

def grid_after(moves: str) -> list[list[int]]:
    """Columns (bottom first) of player numbers 1 and 2, by naive replay."""
    cols: list[list[int]] = [[] for _ in range(7)]
    for i, ch in enumerate(moves):
        cols[int(ch) - 1].append(1 + i % 2)
    return cols


def naive_wins(cols: list[list[int]], col: int, player: int) -> bool:
    """Whether ``player`` dropping in ``col`` makes four, by walking the grid."""
    row = len(cols[col])

    def at(c: int, r: int) -> int:
        return cols[c][r] if 0 <= c < 7 and 0 <= r < len(cols[c]) else 0

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            c, r = col + sign * dc, row + sign * dr
            while at(c, r) == player:
                run += 1
                c, r = c + sign * dc, r + sign * dr
        if run >= 4:
            return True
    return False


def naive_score(moves: str) -> int:
    """Exact Pons score by exhaustive negamax over a plain grid (few empty cells only)."""
    memo: dict[tuple[tuple[int, ...], ...], int] = {}

    def score(cols: list[list[int]], m: int) -> int:
        k = tuple(tuple(c) for c in cols)
        if k in memo:
            return memo[k]
        player = 1 + m % 2
        best = None
        for col in range(7):
            if len(cols[col]) == 6:
                continue
            if naive_wins(cols, col, player):
                value = (43 - m) // 2
            else:
                cols[col].append(player)
                value = -score(cols, m + 1)
                cols[col].pop()
            best = value if best is None else max(best, value)
        memo[k] = 0 if best is None else best
        return memo[k]

    return score(grid_after(moves), len(moves))


def random_game(rng: random.Random, stones: int) -> str | None:
    """Moves of a random unfinished game with ``stones`` stones, or None if it ended."""
    moves = ""
    for _ in range(stones):
        cols = [c for c in range(7) if len(grid_after(moves)[c]) < 6]
        if not cols:
            return None
        col = rng.choice(cols)
        if naive_wins(grid_after(moves), col, 1 + len(moves) % 2):
            return None
        moves += str(col + 1)
    return moves


def random_unfinished(rng: random.Random, count: int, low: int, high: int) -> list[str]:
    """Moves of ``count`` random unfinished games of ``low`` to ``high - 1`` stones."""
    out: list[str] = []
    while len(out) < count:
        moves = random_game(rng, rng.randrange(low, high))
        if moves is not None:
            out.append(moves)
    return out


def random_games(seed: int, stones: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out: list[str] = []
    while len(out) < count:
        moves = random_game(rng, stones)
        if moves is not None:
            out.append(moves)
    return out


# --- Position ---------------------------------------------------------------------------

def test_position_from_moves_rejects_bad_sequences() -> None:
    with pytest.raises(ValueError, match=r"move 3 of '128': '8' is not a column 1-7"):
        Position.from_moves("128")
    with pytest.raises(ValueError, match="column 4 is full"):
        Position.from_moves("4444444")
    with pytest.raises(ValueError, match="already over"):
        Position.from_moves("1212121")  # the 7th stone makes four in column 1
    with pytest.raises(ValueError, match="already over"):
        Position.from_moves("12121213")  # and nothing may follow a win
    with pytest.raises(ValueError):
        Position.from_moves("4 4")
    with pytest.raises(ValueError):
        Position.from_columns([3, 7])


def test_position_basics() -> None:
    pos = Position.from_moves("4453")
    assert pos.nb_moves() == 4 and pos.history == "4453"
    assert Position.from_columns([3, 3, 4, 2]) == pos
    assert repr(pos) == "Position.from_moves('4453')"
    assert str(pos).splitlines()[-2:] == [". . . O . . .", ". . O X X . ."]
    assert pos.possible().bit_count() == 7
    child = pos.play(0)
    assert child.history == "44531" and child.nb_moves() == 5
    assert pos.history == "4453" and pos.nb_moves() == 4  # play copies


def test_position_keys_tell_positions_apart() -> None:
    seen: dict[int, tuple[tuple[int, ...], ...]] = {}
    for moves in random_games(seed=7, stones=10, count=300):
        pos = Position.from_moves(moves)
        grid = tuple(tuple(c) for c in grid_after(moves))
        assert seen.setdefault(pos.key(), grid) == grid


@pytest.mark.parametrize("seed", range(4))
def test_winning_moves_match_a_naive_grid_check(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        moves = random_game(rng, rng.randrange(0, 30))
        if moves is None:
            continue
        pos, cols = Position.from_moves(moves), grid_after(moves)
        player = 1 + len(moves) % 2
        for col in range(7):
            assert pos.can_play(col) == (len(cols[col]) < 6)
            if pos.can_play(col):
                assert pos.is_winning_move(col) == naive_wins(cols, col, player), (moves, col)
        opponent_wins = {c for c in range(7)
                         if len(cols[c]) < 6 and naive_wins(cols, c, 3 - player)}
        safe = pos.possible_non_losing_moves()
        if not pos.can_win_next():
            for col in range(7):
                if not pos.can_play(col):
                    continue
                child = grid_after(moves + str(col + 1))
                gives_win = any(len(child[c]) < 6 and naive_wins(child, c, 3 - player)
                                for c in range(7))
                non_losing = not gives_win and (not opponent_wins or col in opponent_wins)
                assert bool(safe & pos.possible() & (0b111111 << 7 * col)) == non_losing, \
                    (moves, col)


def test_position_from_bitboards_and_engine_states() -> None:
    pos = Position.from_moves("4453")
    same = Position.from_bitboards(pos.current, pos.mask)
    assert same == pos and same.nb_moves() == 4 and same.history is None
    assert eval(repr(same), {"Position": Position}) == pos
    with pytest.raises(ValueError, match="gap"):
        Position.from_bitboards(0, 0b10)
    with pytest.raises(ValueError, match="should have 1 stones"):
        Position.from_bitboards(0, 0b11)  # two stones in column 1, none for the mover
    with pytest.raises(ValueError, match="over"):
        won = Position.from_moves("121212")
        Position.from_bitboards(won.current ^ won.mask, won.mask | 0b1000)
    state = new_game("connect4")
    for col in (3, 3, 4, 2):
        state = state.play(col)
    assert position_of(state) == pos
    with pytest.raises(ValueError, match="not a Connect Four state"):
        position_of(object())


# --- scores -----------------------------------------------------------------------------

def test_score_convention_on_hand_made_positions() -> None:
    # X to move with three stacked in column 1 and 6 stones down: wins with the 7th.
    assert solve_moves("121212") == (43 - 6) // 2 == 18
    # O to move cannot stop both of X's threats on the bottom row: X wins with stone 7.
    assert solve_moves("4455") == (43 - 6) // 2
    assert solve_moves("44553") == -((43 - 6) // 2)


def test_pons_sample_solved_exactly() -> None:
    solver = Solver()
    wrong = [(m, s, got) for m, s in CASES
             if (got := solver.solve(Position.from_moves(m))) != s]
    assert not wrong
    assert solver.nodes > len(CASES)


def test_pons_sample_weak_signs() -> None:
    solver = Solver()
    for moves, score in CASES:
        assert solver.solve(Position.from_moves(moves), weak=True) == (score > 0) - (score < 0)


def test_small_table_still_exact() -> None:
    small, large = Solver(tt_size=64), Solver()
    assert small.table_size == 131101 and large.table_size > small.table_size
    for moves in random_games(seed=11, stones=12, count=6):
        pos = Position.from_moves(moves)
        assert small.analyse(pos) == large.analyse(pos), moves
    assert small.nodes > small.table_size  # the small table was overwritten many times
    with pytest.raises(ValueError):
        Solver(tt_size=1)


# --- the compiled kernel against the pure-Python oracle ---------------------------------

@pytest.mark.parametrize("seed", range(3))
def test_kernel_agrees_with_the_python_oracle_on_random_positions(seed: int) -> None:
    kernel = Solver()
    for moves in random_unfinished(random.Random(500 + seed), 12, 20, 36):
        pos = Position.from_moves(moves)
        oracle = OracleSolver()
        assert kernel.analyse(pos) == oracle.analyse(pos), moves
        assert kernel.solve(pos) == oracle.solve(pos), moves
        assert kernel.solve(pos, weak=True) == oracle.solve(pos, weak=True), moves


def test_kernel_agrees_with_the_oracle_on_the_pons_sample() -> None:
    kernel, oracle = Solver(), OracleSolver()
    for moves, score in CASES[::4]:
        pos = Position.from_moves(moves)
        scores = kernel.analyse(pos)
        assert scores == oracle.analyse(pos), moves
        assert max(s for s in scores if s is not None) == score


@pytest.mark.parametrize("seed", range(3))
def test_scores_match_exhaustive_search_near_the_end(seed: int) -> None:
    for moves in random_games(seed=100 + seed, stones=35, count=6):
        assert solve_moves(moves) == naive_score(moves), moves


def test_analyse_is_consistent_with_solve() -> None:
    solver = Solver()
    for moves, score in CASES[::10] + [(m, None) for m in random_games(3, 24, 3)]:
        pos = Position.from_moves(moves)
        scores = solver.analyse(pos)
        assert len(scores) == 7
        assert all((s is None) == (not pos.can_play(c)) for c, s in enumerate(scores))
        best = max(s for s in scores if s is not None)
        assert best == solver.solve(pos)
        if score is not None:
            assert best == score
        for col, s in enumerate(scores):
            if s is not None and not pos.is_winning_move(col):
                assert s == -Solver().solve(pos.play(col))
        weak = solver.analyse(pos, weak=True)
        assert weak == [None if s is None else (s > 0) - (s < 0) for s in scores]


def test_last_cells() -> None:
    moves = "71255763773133525731261364622167124446454"  # a Pons line: 41 stones, draw
    pos = Position.from_moves(moves)
    assert pos.nb_moves() == CELLS - 1 and pos.possible().bit_count() == 1
    assert Solver().solve(pos) == 0 == naive_score(moves)
    col = next(c for c in range(7) if pos.can_play(c))
    full = pos.play(col)
    assert full.possible() == 0 and Solver().solve(full) == 0


def test_stop_callback_abandons_the_search() -> None:
    solver = Solver(stop=lambda: True)
    with pytest.raises(SolverStopped):
        solver.solve(Position.from_moves("6366545762345576"))
    assert solver.nodes == 0  # asked before the kernel starts
    calls = []

    def later() -> bool:  # false on the first call (before the search), true afterwards
        calls.append(1)
        return len(calls) > 1

    solver = Solver(stop=later, book=False)  # without the book, which may settle it
    with pytest.raises(SolverStopped):
        solver.analyse(Position.from_moves("44"))  # far too long to finish
    assert len(calls) >= 2 and solver.nodes >= 1024


def test_node_limit_stops_each_call_and_leaves_the_solver_sound() -> None:
    pos = Position.from_moves("6366545762345576")
    solver = Solver(max_nodes=2048)
    with pytest.raises(SolverStopped, match="stopped after 2048 nodes"):
        solver.solve(pos)
    assert solver.nodes == 2048
    solver.max_nodes = 0  # the table filled by the abandoned search is still sound
    assert solver.solve(pos) == OracleSolver().solve(pos) == -1


def test_importing_the_app_does_not_import_numba() -> None:
    code = ("import sys, tui.app.main, brains.registry, brains.c4solver, brains.perfect, "
            "brains.analysis\nprint('numba' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2])
    assert out.stdout.strip() == "False"


def test_first_use_is_announced_once() -> None:
    (m1, s1), (m2, s2) = CASES[:2]
    code = ("from brains.kernels import listen\nfrom brains.c4solver import Position, Solver\n"
            "heard = []\nlisten(heard.append)\n"
            f"print(Solver().solve(Position.from_moves('{m1}')))\n"
            f"print(Solver().solve(Position.from_moves('{m2}')))\nprint(heard)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).parents[2])
    assert out.stdout.splitlines() == [str(s1), str(s2),
                                       "['preparing the Connect Four solver…']"]


# --- parlor solve -----------------------------------------------------------------------

def test_command_solves_arguments_and_reports_bad_lines(capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    (m1, s1), (m2, s2) = CASES[:2]
    rc = main(["solve", "connect4", m1, "12345678", m2])
    out = capsys.readouterr().out.splitlines()
    assert rc == 1
    assert out[0] == f"{m1} {s1}" and out[2] == f"{m2} {s2}"
    assert out[1].startswith("12345678 error: ") and "'8'" in out[1]


def test_command_reads_pons_files_on_stdin(capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [f"{m} {s}" for m, s in CASES[:20]]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n\n"))
    assert main(["solve", "connect4", "--stdin"]) == 0
    assert capsys.readouterr().out.splitlines() == lines


def test_command_analyse(capsys: pytest.CaptureFixture[str]) -> None:
    moves, score = CASES[1]
    assert main(["solve", "connect4", moves, "--analyse"]) == 0
    fields = capsys.readouterr().out.split()
    assert fields[0] == moves and len(fields) == 8
    assert max(int(f) for f in fields[1:] if f != "-") == score


@pytest.mark.parametrize("argv", [["solve", "gomoku", "12"], ["solve", "connect4"]])
def test_command_refuses(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("parlor solve: ") and len(err.strip().splitlines()) == 1


def test_command_takes_options_among_the_positions(capsys: pytest.CaptureFixture[str]
                                                   ) -> None:
    (m1, s1), (m2, s2) = CASES[:2]
    assert main(["solve", "connect4", "--seconds", "60", m1, "--weak", m2, "-v"]) == 0
    captured = capsys.readouterr()
    sign = [(s > 0) - (s < 0) for s in (s1, s2)]
    assert captured.out.splitlines() == [f"{m1} {sign[0]}", f"{m2} {sign[1]}"]
    assert f"{m1}: " in captured.err and " nodes, " in captured.err


@pytest.mark.parametrize("argv", [
    ["solve", "connect4", "--build-book", "44"],
    ["solve", "connect4", "--build-book", "--depth", "99"],
    ["solve", "connect4", "--build-book", "--limit", "-1"],
    ["solve", "morris", "--build-book"],
    ["solve", "connect4", "--bogus", "4453"],
])
def test_command_refuses_bad_book_builds(argv: list[str],
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("parlor") and len(err.strip().splitlines()) == 1


def test_command_builds_a_book(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "book.txt"
    assert main(["solve", "connect4", "--build-book", "--depth", "8", "--limit", "1",
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("book.txt: 1 positions (1 of the 91295 of 8 stones solved)")
    first = c4book_layer(8)[0]
    assert out.read_text().splitlines()[1:] == [
        f"{first} {Solver(book=False).solve(Position.from_moves(first))}"]


def c4book_layer(depth: int) -> list[str]:
    from brains.c4book import layer

    return layer(depth)


def test_command_answers_book_positions_without_a_warning(
        capsys: pytest.CaptureFixture[str]) -> None:
    from brains.c4book import EXACT_PATH
    from brains.c4solver import exact_book

    book = exact_book()
    entries = [line.split() for line in EXACT_PATH.read_text().splitlines()
               if line and not line.startswith("#")]
    moves = next(m for m, _ in entries if len(m) == book.depth - 1)
    assert main(["solve", "connect4", "--analyse", moves]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""  # settled by the book: no 'may take very long'
    position = Position.from_moves(moves)
    expected = []
    for col in range(7):
        if not position.can_play(col):
            expected.append("-")
        elif position.is_winning_move(col):
            expected.append(str((CELLS + 1 - position.moves) // 2))
        else:
            child = position.play(col)
            expected.append(str(-book.score(child.current, child.mask)))
    assert captured.out.split() == [moves, *expected]


def test_one_solver_shared_by_threads_stays_exact() -> None:
    import threading

    games = random_games(seed=31, stones=14, count=12)
    expected = {m: Solver().solve(Position.from_moves(m)) for m in games}
    solver = Solver()
    wrong: list[str] = []

    def run(part: list[str]) -> None:
        for moves in part:
            solver.reset()  # no help from the table: each search runs long
            if solver.solve(Position.from_moves(moves)) != expected[moves]:
                wrong.append(moves)

    threads = [threading.Thread(target=run, args=(games[i::3],)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not wrong


# --- the analysis on two threads ---------------------------------------------------------

@pytest.mark.parametrize("seed", range(2))
def test_analysis_on_two_threads_matches_one_thread_and_the_oracle(seed: int) -> None:
    from brains.kernels.connect4 import NODES

    one, two = Solver(threads=1, book=False), Solver(threads=2, book=False)
    for moves in random_unfinished(random.Random(900 + seed), 8, 16, 30):
        pos = Position.from_moves(moves)
        one.reset()
        two.reset()
        scores = two.analyse(pos)
        assert scores == one.analyse(pos) == OracleSolver().analyse(pos), moves
        assert two.analyse(pos, weak=True) == one.analyse(pos, weak=True), moves
    two.reset()
    two.analyse(Position.from_moves("4453321756"))  # seven searches, millions of nodes
    assert two._more_work[0][NODES] > 0  # the second thread took some of them


def test_two_threads_give_up_together() -> None:
    import threading

    calls = []

    def later() -> bool:
        calls.append(1)
        return len(calls) > 1

    solver = Solver(stop=later, book=False, threads=2)
    with pytest.raises(SolverStopped):
        solver.analyse(Position.from_moves("44"))  # far too long to finish
    assert not [t for t in threading.enumerate() if t.name.startswith("c4solver")]
    solver.stop = None  # and the solver, its table shared by both, stays exact
    moves = next(m for m in random_games(seed=41, stones=22, count=3))
    pos = Position.from_moves(moves)
    assert solver.analyse(pos) == OracleSolver().analyse(pos)


def test_a_node_budget_analyses_on_one_thread() -> None:
    pos = Position.from_moves("4453321756")  # about 2.9 M nodes in all
    counts = []
    for threads in (1, 2, 2):
        solver = Solver(threads=threads, max_nodes=2_000_000, book=False)
        with pytest.raises(SolverStopped):
            solver.analyse(pos)
        counts.append(solver.nodes)
    assert counts[0] == counts[1] == counts[2]


def test_a_solver_needs_a_thread() -> None:
    from engine.protocol import ParlorError

    with pytest.raises(ParlorError, match="at least one thread"):
        Solver(threads=0)
