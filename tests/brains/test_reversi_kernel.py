# ruff: noqa: E741
"""The compiled Reversi kernels against slow oracles, on random positions of every board
size and variant the endgame solver handles.

Move generation is checked against the naive reference of tests/engine (walks each line
square by square); the exact search against a plain minimax of the engine's states.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from brains.kernels import reversi as K
from brains.reversi_endgame import empties_of
from engine import new_game
from tests.brains.test_reversi_endgame import minimax
from tests.engine.reversi_reference import RefPosition

SIZES = (8, 6, 4)
VARIANTS = ("standard", "randomstart", "flipcolor")


def reference(state: Any) -> RefPosition:
    """The reference's view of an engine state."""
    n = state.size
    board: list[list[str | None]] = [[None] * n for _ in range(n)]
    for s in range(n * n):
        cell = state.cell(s)
        if cell is not None:
            board[s // n][s % n] = "B" if cell == 0 else "W"
    drawn = frozenset(state.square_name(s) for s in state.drawn_squares)
    return RefPosition(board, "B" if state.to_move == 0 else "W", drawn)


def positions(seed: int, size: int, variant: str, count: int) -> list[Any]:
    """``count`` states of random games, at every stage of the game."""
    rng = random.Random(seed)
    out: list[Any] = []
    while len(out) < count:
        state = new_game("reversi", size=size, variant=variant, seed=rng.randrange(1000))
        while state.outcome() is None and len(out) < count:
            out.append(state)
            state = state.play(rng.choice(state.legal_moves()))
        out.append(state)  # the finished game too
    return out[:count]


def square8(state: Any, s: int) -> int:
    """The 8x8-layout square of the state's square ``s``."""
    return s // state.size * 8 + s % state.size


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_moves_and_flips_agree_with_the_reference(size: int, variant: str) -> None:
    n = size
    cfg = K.config(n, 0, False)
    board = cfg[K.CFG_BOARD]
    drawn8 = np.uint64(0)
    checked = 0
    for state in positions(size * 10 + len(variant), size, variant, 120):
        ref = reference(state)
        P, O = np.uint64(K.embed(state.me, n)), np.uint64(K.embed(state.them, n))
        drawn8 = np.uint64(K.embed(sum(1 << s for s in state.drawn_squares), n))
        moves = int(K.legal_moves(P, O, board))
        mover = ref.mover
        expected = {(int(name[1:]) - 1) * 8 + "abcdefgh".index(name[0])
                    for name in ref.placements(mover)}
        assert {s for s in range(64) if moves >> s & 1} == expected
        for name in ref.placements(mover):
            r, c = int(name[1:]) - 1, "abcdefgh".index(name[0])
            sq = r * 8 + c
            want = sum(1 << (rr * 8 + cc) for rr, cc in ref.flips(r, c, mover))
            assert int(K.flips(P, O, sq)) == want
            after = ref.play(name)
            p2, o2 = K.play(P, O, sq, drawn8)
            mine = "B" if mover == "B" else "W"
            assert {s for s in range(64) if int(p2) >> s & 1} == {
                rr * 8 + cc for rr in range(n) for cc in range(n) if after.board[rr][cc] == mine}
            assert {s for s in range(64) if int(o2) >> s & 1} == {
                rr * 8 + cc for rr in range(n) for cc in range(n)
                if after.board[rr][cc] not in (None, mine)}
            checked += 1
        # an illegal square flips nothing
        for s in range(n * n):
            sq = square8(state, s)
            if state.cell(s) is None and not moves >> sq & 1:
                assert int(K.flips(P, O, sq)) == 0
    assert checked > 100


def full_board(rng: random.Random, size: int, squares: list[int],
               empty: int) -> tuple[int, int, list[list[str | None]]]:
    """(mover's discs, opponent's discs, the reference's rows) of a board of ``size`` whose
    ``squares`` (8x8 layout) all hold a disc of either side at random, but ``empty``."""
    rows: list[list[str | None]] = [[None] * size for _ in range(size)]
    P = O = 0
    for s in squares:
        if s != empty:
            mine = rng.random() < 0.5
            P |= mine << s
            O |= (not mine) << s
            rows[s // 8][s % 8] = "B" if mine else "W"
    return P, O, rows


@pytest.mark.parametrize("size", SIZES)
def test_last_square_flip_counts_agree_with_the_flips(size: int) -> None:
    """With one empty square left (every other square of the board the mover's or the
    opponent's, at random), the counted flips of either side equal the reference's."""
    rng = random.Random(size * 5 + 1)
    board = int(K.config(size, 0, False)[K.CFG_BOARD])
    squares = [s for s in range(64) if board >> s & 1]
    flipping = 0
    for _ in range(400):
        empty = rng.choice(squares)
        P, O, rows = full_board(rng, size, squares, empty)
        r, c = divmod(empty, 8)
        for mover, me in (("B", P), ("W", O)):
            want = len(RefPosition(rows, mover, frozenset()).flips(r, c, mover))
            assert int(K._count_last(np.uint64(me), empty)) == want
            flipping += want > 0
    assert flipping > 100


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("etw", [False, True])
def test_the_last_square_scores_as_the_reference_plays_it(size: int, etw: bool) -> None:
    """One empty square left, FlipColor's drawn squares at random (the disc placed on one
    turns to the opponent): the score equals the reference's game played to the end (the
    mover places if it can, else the opponent, else nobody)."""
    rng = random.Random(size * 9 + etw)
    n = size
    squares = [r * 8 + c for r in range(n) for c in range(n)]
    for _ in range(300):
        empty = rng.choice(squares)
        P, O, rows = full_board(rng, n, squares, empty)
        drawn = {(r, c) for r in range(n) for c in range(n) if rng.random() < 0.3}
        names = frozenset("abcdefgh"[c] + str(r + 1) for r, c in drawn)
        r, c = divmod(empty, 8)
        ref = RefPosition(rows, "B", names)
        for mover in ("B", "W"):
            if ref.flips(r, c, mover):
                ref = RefPosition(rows, mover, names).play(ref.name(r, c))
                break
        black, white = ref.counts()
        want = black - white
        if etw and want and black + white < n * n:
            want += 1 if want > 0 else -1
        cfg = K.config(n, sum(1 << (rr * n + cc) for rr, cc in drawn), etw)
        assert int(K._last1(np.uint64(P), np.uint64(O), empty, cfg)) == want


def test_full_lines_agree_with_a_walk_along_each_line() -> None:
    """The squares whose row, file, diagonal or anti-diagonal is all filled, as
    :func:`K.stable` reads them, for random fillings (sparse to nearly full)."""
    rng = random.Random(4)
    steps = ((0, 1), (1, 0), (1, 1), (1, -1))
    for i in range(600):
        density = 0.5 + 0.5 * (i % 6) / 5
        filled = sum(1 << s for s in range(64) if rng.random() < density)
        got = [int(m) for m in K._full_lines(np.uint64(filled))]
        for s in range(64):
            r0, c0 = divmod(s, 8)
            for k, (dr, dc) in enumerate(steps):
                full = True
                for sign in (1, -1):
                    r, c = r0, c0
                    while 0 <= r < 8 and 0 <= c < 8:
                        full = full and bool(filled >> (r * 8 + c) & 1)
                        r, c = r + sign * dr, c + sign * dc
                assert bool(got[k] >> s & 1) == full, (hex(filled), s, k)


def pattern_tables() -> tuple[Any, ...]:
    """The shipped pattern model's tables, as the solver's driver passes them."""
    from brains.reversi_endgame import _patterns

    tables = _patterns(K)
    assert tables[0].shape[0], "the shipped pattern model did not load"
    return tables  # type: ignore[no-any-return]


def kernel_value(state: Any, empties_to_winner: bool = False, limit: int = 1 << 62,
                 window: tuple[int, int] = (-K.NONE, K.NONE), every_pruning: bool = False,
                 table: Any = None, patterns: bool = False, first: int = 64) -> int:
    """The kernel's value of a state for its side to move (exact within ``window``; with
    ``every_pruning``, the enhanced transposition cut-off and the evaluation's ordering
    from the fewest empties the table is used at; with ``patterns``, that evaluation is
    the shipped pattern model's; ``first``: the root move tried first)."""
    n = state.size
    cfg = K.config(n, sum(1 << s for s in state.drawn_squares), empties_to_winner)
    if every_pruning:
        cfg[K.CFG_ETC] = cfg[K.CFG_EVAL] = K.SHALLOW + 1
    cfg[K.CFG_FIRST] = first
    stats = np.zeros(4, dtype=np.int64)
    stats[K.LIMIT], stats[K.ROOT_BEST] = limit, -1
    table = K.new_table(12) if table is None else table
    P, O = np.uint64(K.embed(state.me, n)), np.uint64(K.embed(state.them, n))
    ev = pattern_tables() if patterns else K.no_patterns()
    value = K.root(P, O, window[0], window[1], cfg, stats, *table, *K.buffers(), ev)
    assert not stats[K.ABORTED]
    return int(value)


@pytest.mark.parametrize("size,empties,count", [(8, 9, 3), (6, 9, 3), (4, 10, 4)])
@pytest.mark.parametrize("variant,etw", [("standard", False), ("randomstart", False),
                                         ("flipcolor", False), ("standard", True),
                                         ("flipcolor", True)])
def test_search_agrees_with_minimax(size: int, empties: int, count: int, variant: str,
                                    etw: bool) -> None:
    rng = random.Random(size * 1000 + empties + len(variant) + etw)
    for _ in range(count):
        state = new_game("reversi", size=size, variant=variant, seed=rng.randrange(1000))
        while state.outcome() is None and empties_of(state) > empties:
            state = state.play(rng.choice(state.legal_moves()))
        assert kernel_value(state, etw) == minimax(state, {}, etw)


@pytest.mark.parametrize("size,empties", [(8, 9), (6, 9), (4, 10)])
@pytest.mark.parametrize("variant,etw", [("standard", False), ("randomstart", True),
                                         ("flipcolor", False), ("flipcolor", True)])
def test_null_windows_with_every_pruning_agree_with_minimax(size: int, empties: int,
                                                            variant: str, etw: bool) -> None:
    """Each null window around every score up to the true one and past it, one table kept
    through them all (as the solver's driver keeps it): the stability cut-offs (high
    windows), the enhanced transposition cut-offs, the evaluation's ordering (lowered
    to the table's smallest positions; the pattern evaluation's on 8x8) and a root move
    tried first keep every bound true."""
    rng = random.Random(size * 7 + empties + len(variant) + etw)
    for _ in range(2):
        state = new_game("reversi", size=size, variant=variant, seed=rng.randrange(1000))
        while state.outcome() is None and empties_of(state) > empties:
            state = state.play(rng.choice(state.legal_moves()))
        exact = minimax(state, {}, etw)
        patterns = size == 8 and variant != "flipcolor"
        moves = [square8(state, m) for m in state.legal_moves() if m in range(size * size)]
        table = K.new_table(12)
        assert kernel_value(state, etw, every_pruning=True, table=table,
                            patterns=patterns) == exact
        for i, beta in enumerate(range(exact - 6, exact + 7, 3)):
            first = moves[i % len(moves)] if moves else 64
            value = kernel_value(state, etw, window=(beta - 1, beta), every_pruning=True,
                                 table=table, patterns=patterns, first=first)
            assert (value >= beta) == (exact >= beta)
            assert exact <= value if value < beta else exact >= value


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("variant", VARIANTS)
def test_stable_discs_are_never_flipped(size: int, variant: str) -> None:
    """The discs :func:`K.stable` calls stable keep their colour through random games to
    the end (several from each position), and it finds some (corners at least)."""
    rng = random.Random(size * 31 + len(variant))
    found = 0
    for state in positions(size * 3 + len(variant), size, variant, 60):
        n = size
        board = K.config(n, 0, False)[K.CFG_BOARD]
        drawn = np.uint64(K.embed(sum(1 << s for s in state.drawn_squares), n))
        P, O = np.uint64(K.embed(state.me, n)), np.uint64(K.embed(state.them, n))
        sp, so = K.stable(P, O, board), K.stable(O, P, board)
        assert sp & ~P == 0 and so & ~O == 0
        found += int(sp | so != 0)
        for _ in range(3):
            p, o = P, O  # p: the discs of the side to move at the start
            mover_is_first = True
            while True:
                me, them = (p, o) if mover_is_first else (o, p)
                moves = int(K.legal_moves(me, them, board))
                if not moves:
                    if not int(K.legal_moves(them, me, board)):
                        break
                    mover_is_first = not mover_is_first
                    continue
                squares = [s for s in range(64) if moves >> s & 1]
                me, them = K.play(me, them, rng.choice(squares), drawn)
                me, them = np.uint64(me), np.uint64(them)
                p, o = (me, them) if mover_is_first else (them, me)
                assert sp & ~p == 0 and so & ~o == 0
                mover_is_first = not mover_is_first
    assert found > 5


def test_a_search_given_up_goes_on_where_it_stopped() -> None:
    rng = random.Random(9)
    state = new_game("reversi")
    while empties_of(state) > 13:
        state = state.play(rng.choice(state.legal_moves()))
    n = 8
    cfg = K.config(n, 0, False)
    table = K.new_table(16)
    bufs = K.buffers()
    stats = np.zeros(4, dtype=np.int64)
    stats[K.ROOT_BEST] = -1
    P, O = np.uint64(state.me), np.uint64(state.them)
    calls = 0
    while True:
        stats[K.LIMIT] = stats[K.NODES] + 5000
        stats[K.ABORTED] = 0
        value = K.root(P, O, -K.NONE, K.NONE, cfg, stats, *table, *bufs, K.no_patterns())
        calls += 1
        if not stats[K.ABORTED]:
            break
    assert calls > 3, "the search never gave up: the test shows nothing"
    assert value == kernel_value(state)
    assert stats[K.ROOT_BEST] in state.legal_moves()


def test_embedding_round_trips() -> None:
    rng = random.Random(2)
    for n in SIZES:
        for _ in range(50):
            mask = rng.getrandbits(n * n)
            assert K.unembed(K.embed(mask, n), n) == mask
            assert K.embed(mask, n) & ~int(K.config(n, 0, False)[K.CFG_BOARD]) == 0


def test_a_torn_table_bucket_reads_as_a_miss() -> None:
    """The threads of one solve share its table: a bucket read while another thread
    rewrites it (some words new, some old) must not match, or it would hand one
    position's bounds to another."""
    (table,) = K.new_table(12)
    P, O = np.uint64(0x0000000810000000), np.uint64(0x0000001008000000)
    K._store(P, O, 20, -4, 6, 19, table)
    assert tuple(K.probe(P, O, table)) == (-4, 6, 19)
    (row,) = [i for i in range(table.shape[0]) if table[i].any()]
    for word, flip in ((4, 1 << 40), (4, 1 << 17), (0, 1), (1, 1 << 63)):
        torn = table.copy()
        torn[row, word] ^= np.uint64(flip)  # one word of another write
        assert tuple(K.probe(P, O, torn)) == (-K.NONE, K.NONE, -1), (word, flip)
