"""Per-search state: two searches on one brain never share a budget, counter or table of killers.

A worker thread that is cancelled may still be unwinding its search when the next one
starts on the same brain. Driving two ``think`` generators interleaved in one thread
reproduces that deterministically: search A is advanced, search B is started, then A
goes on. Each must behave exactly as if it had run alone.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from brains import Budget, Thought, make_brain
from brains.minimax import POLL
from engine import new_game


def _interleaved(spec: str, game_id: str, a_line: str, a_budget: Budget, b_line: str,
                 b_budget: Budget) -> tuple[list[Thought], list[Thought]]:
    brain = make_brain(spec, game_id, seed=3)
    a: Iterator[Thought] = brain.think(new_game(game_id).play_line(a_line), a_budget.start())
    first_a = next(a)
    b = brain.think(new_game(game_id).play_line(b_line), b_budget.start())
    first_b = next(b)
    rest_a = list(a)  # A goes on after B has started
    rest_b = list(b)
    return [first_a, *rest_a], [first_b, *rest_b]


def _alone(spec: str, game_id: str, a_line: str, a_budget: Budget, b_line: str,
           b_budget: Budget) -> tuple[list[Thought], list[Thought]]:
    brain = make_brain(spec, game_id, seed=3)  # same seed, same order of random draws
    a = list(brain.think(new_game(game_id).play_line(a_line), a_budget.start()))
    b = list(brain.think(new_game(game_id).play_line(b_line), b_budget.start()))
    return a, b


@pytest.mark.parametrize("spec", ["alphabeta,depth=none,seconds=none,tt=false",
                                  "minimax,depth=none,seconds=none"])
def test_interleaved_searches_keep_their_own_budget_and_counters(spec: str) -> None:
    limit = 2048  # a multiple of the polling interval: the search stops exactly there
    args = ("tictactoe", "", lambda: Budget(nodes=limit), "b2 a1", lambda: Budget(depth=4))
    game, a_line, a_budget, b_line, b_budget = args
    mixed_a, mixed_b = _interleaved(spec, game, a_line, a_budget(), b_line, b_budget())
    alone_a, alone_b = _alone(spec, game, a_line, a_budget(), b_line, b_budget())
    # A obeys its own node budget, not B's depth limit (which would let it finish)
    assert all(t.nodes <= limit for t in mixed_a) and not mixed_a[-1].final
    # B reaches its own depth with its own node counts, untouched by A's nodes
    assert mixed_b[-1].depth == 4 and mixed_b[-1].final
    assert mixed_a == alone_a
    assert mixed_b == alone_b


def test_a_stopped_search_stays_stopped_when_another_starts() -> None:
    brain = make_brain("alphabeta,depth=none,seconds=none,tt=false", "tictactoe", seed=1)
    a_budget = Budget()
    a = brain.think(new_game("tictactoe"), a_budget.start())
    next(a)
    a_budget.stop.set()  # A is cancelled, but its thread has not unwound yet
    b = brain.think(new_game("tictactoe").play_line("b2"), Budget(depth=3).start())
    next(b)
    rest = list(a)  # A polls its own (stopped) budget, not B's running one
    assert all(not t.final and t.nodes <= POLL + 1 for t in rest)
    assert list(b)[-1].depth == 3


@pytest.mark.parametrize("limits", [{"seconds": -1.0}, {"seconds": float("nan")},
                                    {"seconds": float("inf")}, {"depth": 0}, {"depth": -1},
                                    {"nodes": 0}, {"nodes": -1}, {"depth": True}])
def test_a_budget_out_of_range_is_refused(limits: dict) -> None:
    # a zero or negative limit must never read as "no limit"
    with pytest.raises(ValueError, match="budget"):
        Budget(**limits)
    assert Budget(seconds=0.0, depth=1, nodes=1).depth == 1
