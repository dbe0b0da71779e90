"""Perft from the data files in tests/data/perft: every game's published numbers."""

from __future__ import annotations

import pytest

from engine import new_game
from engine.perft import divide, perft
from engine.perftdata import read_perft_file
from tests.conftest import DATA

FAST_LIMIT = 300_000
"""Entries whose counts go above this are checked only by ``make bench``."""



def _fast(case):
    """The depths of ``case`` whose walk (all shallower depths included) stays small."""
    return {d: n for d, n in case.counts.items()
            if sum(m for dd, m in case.counts.items() if dd <= d) <= FAST_LIMIT}


CASES = [case for path in sorted((DATA / "perft").glob("*.perft"))
         for case in read_perft_file(path) if _fast(case)]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_perft(case):
    counts = _fast(case)
    state = new_game(case.game, **case.options).play_line(case.moves)
    depth = max(counts)
    got = perft(state, depth)
    assert {d: got[d - 1] for d in counts} == counts


def test_divide_sums_to_perft():
    state = new_game("tictactoe")
    rows = divide(state, 3)
    assert len(rows) == 9
    assert sum(n for _, n in rows) == perft(state, 3)[-1]
