"""Tests of the exact Reversi endgame solver against a plain minimax of the engine's states."""

from __future__ import annotations

import random
import threading
from typing import Any

import pytest

from brains.reversi_endgame import POLL, REACH, Result, can_settle, empties_of, solve
from engine import new_game
from engine.games.reversi import PASS, Reversi


def final_difference(state: Any, empties_to_winner: bool = False) -> int:
    """The engine's final count, Black minus White, as its outcome reads it."""
    black, white = state.counts()
    d = black - white
    if empties_to_winner and d:
        e = empties_of(state)
        d += e if d > 0 else -e
    return d


def minimax(state: Any, memo: dict[Any, int], empties_to_winner: bool = False) -> int:
    """Best final disc difference for the side to move, by full search of engine states
    (memoised on the engine's position key: a plain minimax without pruning)."""
    key = state.key()
    if key in memo:
        return memo[key]
    if state.outcome() is not None:
        d = final_difference(state, empties_to_winner)
        value = d if state.to_move == 0 else -d
    else:
        value = max(-minimax(state.play(m), memo, empties_to_winner)
                    for m in state.legal_moves())
    memo[key] = value
    return value


def random_position(rng: random.Random, size: int, empties: int,
                    variant: str = "standard") -> Any:
    """A state reached by random play from the start, with at most ``empties`` empty squares
    (or the end of the game, if it comes first)."""
    state = new_game("reversi", size=size, variant=variant, seed=rng.randrange(1000))
    while state.outcome() is None and empties_of(state) > empties:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def check(state: Any, result: Result, empties_to_winner: bool = False) -> None:
    """The result is exact, equals the minimax value, and its line reaches that value."""
    assert result.exact
    assert result.score == minimax(state, {}, empties_to_winner)
    line = state
    for move in result.pv:
        line = line.play(move)  # raises if the line holds an illegal move
    assert line.outcome() is not None, "the principal variation stops before the end"
    d = final_difference(line, empties_to_winner)
    assert (d if state.to_move == 0 else -d) == result.score
    assert result.best_move == (result.pv[0] if result.pv else None)


@pytest.mark.parametrize("size,empties,count", [(8, 8, 12), (8, 5, 20), (6, 9, 8),
                                                (6, 6, 20), (4, 8, 30)])
@pytest.mark.parametrize("variant", ["standard", "flipcolor", "randomstart"])
def test_agrees_with_minimax_on_random_positions(size: int, empties: int, count: int,
                                                 variant: str) -> None:
    rng = random.Random(size * 100 + empties + len(variant))
    for _ in range(count):
        state = random_position(rng, size, empties, variant)
        check(state, solve(state))


def test_agrees_with_minimax_when_the_winner_gets_the_empties() -> None:
    rng = random.Random(7)
    seen_early_end = False
    for size, empties in ((8, 7), (6, 8), (4, 10)):
        for _ in range(12):
            state = random_position(rng, size, empties)
            result = solve(state, empties_to_winner=True)
            check(state, result, empties_to_winner=True)
            plain = solve(state)
            assert result.score is not None and plain.score is not None
            # both conventions agree on who wins
            assert (result.score > 0) == (plain.score > 0)
            assert (result.score < 0) == (plain.score < 0)
            seen_early_end |= plain.score != result.score
    assert seen_early_end, "no position ended with empty squares: the option went untested"


def test_every_4x4_start_is_solved_and_agrees_with_minimax() -> None:
    state = new_game("reversi", size=4)
    result = solve(state)
    check(state, result)
    assert result.score is not None and result.score < 0, "4x4 is a win for White (second)"
    for variant in ("randomstart", "flipcolor"):
        for seed in range(2):
            start = new_game("reversi", size=4, variant=variant, seed=seed)
            check(start, solve(start))


def test_every_4x4_position_after_two_moves() -> None:
    start = new_game("reversi", size=4)
    for first in start.legal_moves():
        after = start.play(first)
        for second in after.legal_moves():
            state = after.play(second)
            check(state, solve(state))


PASS_POSITION = """
XXXXXXXX
XXXXXXXX
XXXXXXXX
XXXXXXXX
XXXXXXXX
XXXXXXXX
XXXXXXO.
XXXXXXX.
"""
"""White to move has no placement (every line from h7 or h8 holds only black discs):
it must pass, and Black then takes h7."""


def test_a_forced_pass_is_a_move_of_the_line() -> None:
    state = Reversi().setup(PASS_POSITION, to_move=1)
    assert state.legal_moves() == (PASS,)
    result = solve(state)
    check(state, result)
    assert result.best_move == PASS
    assert [state.square_name(m) if m != PASS else "pass" for m in result.pv] == ["pass", "h7"]
    assert result.score == -63  # White loses its last disc; h8 stays empty, counted for nobody


def test_passes_inside_the_line() -> None:
    rng = random.Random(11)
    found = 0
    for _ in range(200):
        state = random_position(rng, 6, 8)
        result = solve(state)
        if PASS in result.pv[1:]:
            check(state, result)
            found += 1
            if found == 3:
                return
    pytest.fail(f"only {found} best lines with a pass among 200 positions")


def test_finished_game() -> None:
    state = Reversi().setup("""
        XXXX
        XXXX
        XXXX
        XXX.
        """, to_move=1)
    assert state.outcome() is not None
    result = solve(state)
    assert result == Result(-15, None, (), result.nodes, True)


def test_stop_event_and_budget_end_the_search_inexactly() -> None:
    state = random_position(random.Random(3), 8, 24)
    assert state.outcome() is None
    event = threading.Event()
    event.set()
    stopped = solve(state, stop=event)
    assert not stopped.exact and stopped.score is None and stopped.pv == ()
    assert stopped.best_move is None or stopped.best_move in state.legal_moves()
    assert not solve(state, stop=lambda: True).exact
    assert not solve(state, budget_seconds=0).exact
    with pytest.raises(TypeError):
        solve(state, stop=42)


def test_stop_that_never_fires_changes_nothing() -> None:
    state = random_position(random.Random(4), 8, 9)
    assert solve(state, budget_seconds=600, stop=lambda: False) == solve(state)


def test_refuses_what_is_not_a_reversi_state() -> None:
    with pytest.raises(ValueError, match="not a Reversi state"):
        solve(new_game("connect4"))
    with pytest.raises(ValueError, match="not a Reversi state"):
        solve("a1")


def test_can_settle_reads_the_empty_count() -> None:
    assert can_settle(new_game("reversi", size=4), 1.0)
    assert not can_settle(new_game("reversi", size=8), 10.0)
    late = random_position(random.Random(5), 8, 10)
    assert can_settle(late, 1.0)
    assert not can_settle(late, 0.0)
    assert not can_settle(new_game("connect4"), 10.0)
    assert not can_settle("a1", 10.0)
    for table in REACH.values():  # more empties never take less time
        assert [t for _, t in table] == sorted(t for _, t in table)


def test_the_stop_is_asked_every_poll_interval() -> None:
    state = random_position(random.Random(0), 8, 18)  # more than a million nodes
    calls = []

    def never() -> bool:
        calls.append(1)
        return False

    result = solve(state, stop=never)
    assert result.exact and result.nodes > 8 * POLL
    # a node count jumps by at most a shallow subtree between two checks
    assert len(calls) >= result.nodes // (2 * POLL)


def test_the_pattern_guess_and_ordering_change_no_score(monkeypatch: pytest.MonkeyPatch) -> None:
    """On 8x8 the driver guesses the first window by the pattern evaluation's midgame
    search and the kernel sorts moves by it; without the model (empty tables: what the
    driver falls back to) the scores, and the lines' values, are the same."""
    from brains import reversi_endgame
    from brains.kernels import reversi as K

    rng = random.Random(12)
    states = [random_position(rng, 8, empties) for empties in (16, 17, 18)]
    with_patterns = [solve(s, empties_to_winner=True) for s in states]
    monkeypatch.setattr(reversi_endgame, "_pattern_tables", [K.no_patterns()])
    without = [solve(s, empties_to_winner=True) for s in states]
    for state, a, b in zip(states, with_patterns, without, strict=True):
        assert a.exact and b.exact and a.score == b.score
        for result in (a, b):  # each line reaches its score
            end = state
            for move in result.pv:
                end = end.play(move)
            assert end.outcome() is not None
            d = final_difference(end, True)
            assert (d if state.to_move == 0 else -d) == result.score


@pytest.mark.parametrize("empties_to_winner", [False, True])
def test_every_move_of_the_line_keeps_the_score(empties_to_winner: bool) -> None:
    """The principal variation is traced from the table where it can be (a child whose
    stored upper bound settles it, one whose lower bound rules it out): each of its moves
    keeps the score, as a fresh solve of the position after it says."""
    rng = random.Random(33 + empties_to_winner)
    for size, empties, variant in ((8, 13, "standard"), (8, 12, "flipcolor"), (6, 12, "standard")):
        state = random_position(rng, size, empties, variant)
        result = solve(state, empties_to_winner=empties_to_winner)
        assert result.exact and result.score is not None
        score, line = result.score, state
        for move in result.pv:
            mover = line.to_move
            line = line.play(move)
            if line.outcome() is not None:
                break
            after = solve(line, empties_to_winner=empties_to_winner).score
            assert after == (score if line.to_move == mover else -score)
            score = after
        assert line.outcome() is not None


# --- two threads sharing the root's searches ---------------------------------------------

def _line_reaches(state: Any, result: Result, empties_to_winner: bool) -> bool:
    end = state
    for move in result.pv:
        end = end.play(move)
    d = final_difference(end, empties_to_winner)
    return end.outcome() is not None and (d if state.to_move == 0 else -d) == result.score


@pytest.mark.parametrize("empties_to_winner", [False, True])
def test_two_threads_give_the_scores_of_one(empties_to_winner: bool) -> None:
    rng = random.Random(21 + empties_to_winner)
    for empties in (16, 17, 18):
        state = random_position(rng, 8, empties)
        one = solve(state, threads=1, empties_to_winner=empties_to_winner)
        two = solve(state, threads=2, empties_to_winner=empties_to_winner)
        assert one.exact and two.exact and two.score == one.score
        assert _line_reaches(state, two, empties_to_winner)


def test_a_solve_shares_its_root_between_two_threads() -> None:
    from brains import reversi_endgame

    state = random_position(random.Random(0), 8, 18)  # more than a million nodes
    driver, mine, theirs = reversi_endgame._driver(state, False, None, None, threads=2)
    score, _ = driver.solve_root(mine, theirs)
    assert driver.helper_nodes > 0  # the second thread searched some of the root's moves
    assert score == solve(state, threads=1).score


def test_two_threads_stop_together() -> None:
    state = random_position(random.Random(3), 8, 24)
    calls = []

    def later() -> bool:  # asked from both threads; true from the tenth call on
        calls.append(1)
        return len(calls) >= 10

    stopped = solve(state, stop=later, threads=2)
    assert not stopped.exact and stopped.score is None
    assert not [t for t in threading.enumerate() if t.name == "reversi-solve"]
    with pytest.raises(ValueError, match="at least one thread"):
        solve(state, threads=0)
