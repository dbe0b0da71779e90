"""Alpha-beta against plain minimax, stopping from another thread, tables and timing."""

from __future__ import annotations

import random
import threading
import time

import pytest

from brains import Budget, make_brain
from brains.alphabeta import AlphaBetaBrain
from brains.minimax import POLL, PROVEN, MinimaxBrain
from brains.timeman import TimeManager, threat_factor
from brains.tt import EXACT, LOWER, TranspositionTable
from engine import State, new_game
from tests.brains.test_conformance import positions

DEPTH = 3
"""Shallow enough that a position cannot recur at two depths of one search."""


WIDE = 24
"""Positions with more moves than this are played on (by moves that do not end the game)
so that a full-width search to DEPTH stays small in wide games such as Gomoku."""


def random_positions(game_id: str, seed: int, count: int) -> list[State]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = new_game(game_id)
        for _ in range(rng.randrange(0, 20)):
            child = state.play(rng.choice(state.legal_moves()))
            if not child.legal_moves():
                break
            state = child
        while len(moves := state.legal_moves()) > WIDE:
            going_on = [c for c in map(state.play, rng.sample(moves, 8)) if c.legal_moves()]
            if not going_on:
                break
            state = going_on[0]
        out.append(state)
    return out


@pytest.mark.parametrize("tt", [True, False])
def test_alphabeta_equals_minimax(game_id: str, tt: bool) -> None:
    for state in random_positions(game_id, seed=len(game_id), count=3):
        budget = Budget(depth=DEPTH)
        plain = make_brain(f"minimax,depth={DEPTH},seconds=none", game_id).analyse(state, budget)
        ab = make_brain(f"alphabeta,depth={DEPTH},seconds=none,tt={tt}", game_id)
        assert ab.analyse(state, Budget(depth=DEPTH)) == pytest.approx(plain, abs=1e-12)
        best = [t for t in ab.think(state, Budget(depth=DEPTH).start())][-1]
        assert best.score == pytest.approx(max(plain.values()), abs=1e-12)
        assert plain[best.move] == pytest.approx(best.score, abs=1e-12)


DEEP = 5
"""The depth of the table-against-minimax corpus: deep enough for the table to cut
on lower and upper bounds, not only on exact values."""
CORPUS: dict[str, list[str]] = {
    "checkers": [("11-16 22-18 7-11 26-22 9-14 18x9 5x14 22-17 11-15 31-26 6-9 24-19 15x24x31 "
                  "26-22 2-7 17-13 8-11 13x6"),
                 ("9-14 24-20 14-17 21x14 10x17 22x13 11-15 27-24 6-10 23-18 15x22 25x18 7-11 "
                  "20-16 11x20x27 31x24 5-9 13x6 2x9"),
                 ("11-16 24-19 8-11 21-17 9-14 23-18 14x23 27x18 16x23 26x19 5-9 18-14 9x18 "
                  "22x15x8 4x11 25-21 1-5 31-27 11-15 17-14 15x24x31 28-24 10x17 21x14 7-11 "
                  "24-19 11-16 32-28 16x23 14-9 6x13 28-24 12-16 30-25 2-6 25-22")],
    "connect4": ["7 1", "7 2 2 7 2 3 3 2 5 6 6 2 2 7 3", "4 1"],
    "gomoku": [("h3 a4 d7 h9 a9 h1 i2 d8 f1 i8 g3 h7 b5 g7 e4 d1 a5 e3 c2 a3 g6 h5 c9 e8 i4 h4 "
                "f3 i9 e7 b1 c1 f9 c5 c7 a8 e2 i7 g1 a1 a7 d9 g5 c6 b7 c8 b4 i1 e5 b3 e6 f5 "
                "e9 d6 f7 b8 f2 a2 g2 d2 i3 b6 i5 g9 b9 e1 b2 h6 f4 i6 d3 g8")],
    "morris": ["c2 a1 d2 c1 b2xa1 d3 a5 e3 c4 c5 c4-b4 c5-e5 b4-c4 c1-a1 c2-c1 d3-d4 d2-d3 a1-a3",
               "b3 a5 a1 c4 e3 a3 b4 d2",
               "e5 b4 c2 d2 e3 c4 d4 a5 c5 b3 e3-d3 a5-a3"],
    "reversi": ["f5 d6 c3", "e6 d6 c4 d3", "f5 f4 g3 f6 d3 g5"],
    "tictactoe": ["b2 a3", "c3 a1", "a2"],
}
"""Positions reached by seeded random play (Gomoku's with ten empty points left and no
four on the board), chosen so that plain minimax to DEEP plies stays small (a few thousand
to some tens of thousands of nodes)."""


def test_alphabeta_with_its_table_equals_minimax_deep(game_id: str) -> None:
    # positions recur in a search at different depths here; the table must still give
    # exactly the depth-limited minimax value (its bound flags are what make that true)
    for line in CORPUS[game_id]:
        state = new_game(game_id).play_line(line)
        plain = make_brain(f"minimax,depth={DEEP},seconds=none", game_id).analyse(
            state, Budget(depth=DEEP))
        brain = make_brain(f"alphabeta:easy,depth={DEEP},seconds=none,tt=true", game_id, seed=0)
        best = list(brain.think(state, Budget(depth=DEEP).start()))[-1]
        assert best.depth == DEEP and brain.tt is not None and len(brain.tt) > 0
        assert best.score == pytest.approx(max(plain.values()), abs=1e-12), line
        assert plain[best.move] == pytest.approx(best.score, abs=1e-12), line
        fresh = make_brain(f"alphabeta:easy,depth={DEEP},seconds=none,tt=true", game_id)
        assert fresh.analyse(state, Budget(depth=DEEP)) == pytest.approx(plain, abs=1e-12), line


def test_stop_flag_from_another_thread(game_id: str) -> None:
    # the flag is set from another thread once the search has reported depth 1; the
    # search must end at its next poll (POLL + 1 nodes at most), whatever the clock says
    brain = make_brain("alphabeta,depth=none,seconds=none", game_id, seed=1)
    budget = Budget(nodes=100_000)  # the cap only keeps a broken stop from running on
    thoughts = brain.think(new_game(game_id), budget.start())
    first = next(thoughts)
    setter = threading.Thread(target=budget.stop.set)
    setter.start()
    setter.join()
    rest = list(thoughts)
    assert all(t.nodes <= first.nodes + POLL + 1 and not t.final for t in rest)
    assert first.move in new_game(game_id).legal_moves()


def test_prefers_the_faster_win() -> None:
    # X: a1 b1, O: a3 b3; X to move wins at once with c1 (a slower win also exists)
    state = new_game("tictactoe").play_line("a1 a3 b1 b3")
    brain = make_brain("alphabeta,depth=none", "tictactoe", seed=0)
    thoughts = list(brain.think(state, Budget().start()))
    assert state.format_move(thoughts[-1].move) == "c1"
    assert thoughts[-1].score > PROVEN and thoughts[-1].final


def test_iterative_deepening_reports_each_depth() -> None:
    state = new_game("tictactoe").play_line("b2")
    brain = make_brain("alphabeta,depth=4", "tictactoe", seed=0)
    depths = [t.depth for t in brain.think(state, Budget().start())]
    assert depths == sorted(depths) and depths[0] == 1


def test_forced_move_is_immediate() -> None:
    state = new_game("tictactoe").play_line("b2 a1 c3 a3 a2 c1 b1 b3")
    assert len(state.legal_moves()) == 1
    thought = next(make_brain("alphabeta:hard", "tictactoe").think(state, Budget().start()))
    assert thought.final and thought.nodes == 0


def test_transposition_table_cap_and_flags() -> None:
    table = TranspositionTable(capacity=3)
    for key in range(5):
        table.put(key, 2, EXACT, 0.5, None)
    assert len(table) == 3 and table.get(0) is None and table.get(4) == (2, EXACT, 0.5, None)
    table.put(4, 5, LOWER, 0.25, 7)
    assert table.get(4) == (5, LOWER, 0.25, 7) and len(table) == 3


def test_time_manager_budgets() -> None:
    manager = TimeManager("tictactoe", clock=10.0, max_seconds=3.0)
    start = new_game("tictactoe")
    first = manager.allot(start)
    assert 0 < first <= 3.0
    manager.spent(start, 8.0)
    assert manager.allot(start.play(4).play(0)) < first
    assert manager.allot(new_game("tictactoe")) == first  # a new game resets the clock
    forced = new_game("tictactoe").play_line("b2 a1 c3 a3 a2 c1 b1 b3")
    assert manager.allot(forced) == 0.0


def test_threat_factor_values(game_id: str) -> None:
    for state in positions(game_id, seed=4):
        assert threat_factor(state) in (1.0, 1.5, 1.8)


class FakeClock:
    """A monotonic clock that moves STEP seconds each time it is read: time measured in
    clock reads (the search reads it once a poll), the same on any machine."""

    STEP = 0.01

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        self.now += self.STEP
        return self.now


def test_hard_respects_its_allotment(monkeypatch: pytest.MonkeyPatch) -> None:
    brain = make_brain("alphabeta:hard,clock=2.0", "reversi", seed=0)
    assert isinstance(brain, AlphaBetaBrain) and brain.timeman is not None
    state = new_game("reversi")
    allotted = TimeManager("reversi", clock=2.0, max_seconds=3.0).allot(state)
    clock = FakeClock()
    monkeypatch.setattr(time, "monotonic", clock)
    start = clock.now
    thoughts = list(brain.think(state, Budget(nodes=50_000).start()))
    spent = clock.now - start
    # stopped by the allotment within a few clock reads of it (the node cap only keeps
    # a broken allotment from running on), and the time is charged to the game clock
    assert thoughts and not thoughts[-1].final
    assert allotted <= spent <= allotted + 5 * FakeClock.STEP
    assert brain.timeman.used == pytest.approx(spent, abs=2 * FakeClock.STEP)
    assert isinstance(make_brain("minimax", "tictactoe"), MinimaxBrain)


def _exact(state: State) -> dict:
    return make_brain("perfect", "tictactoe").analyse(state)


def test_traps_never_give_up_the_exact_value() -> None:
    for state in random_positions("tictactoe", seed=11, count=12):
        if not state.legal_moves():
            continue
        exact = _exact(state)
        for seed in range(3):
            move = make_brain("alphabeta:medium", "tictactoe", seed=seed).choose(state)
            assert exact[move] == pytest.approx(max(exact.values()))


def test_traps_lead_a_one_ply_player_into_a_fork() -> None:
    # X c1, O b2: a draw with best play; with traps X steers to a fork that greedy's
    # one-ply view misses, and wins every game; without traps it wins none of them
    def wins(spec: str) -> int:
        total = 0
        for seed in range(6):
            state = new_game("tictactoe").play_line("c1 b2")
            brains = [make_brain(spec, "tictactoe", seed=seed),
                      make_brain("greedy", "tictactoe", seed=seed)]
            while state.legal_moves():
                state = state.play(brains[state.to_move].choose(state))
            total += state.outcome().winner == 0
        return total

    assert max(_exact(new_game("tictactoe").play_line("c1 b2")).values()) == 0.0
    assert wins("alphabeta:medium") == 6
    assert wins("alphabeta:medium,traps=false") == 0


def test_trap_model_chance_is_a_probability() -> None:
    brain = make_brain("alphabeta:medium", "tictactoe", seed=0)
    assert brain.traps and not make_brain("alphabeta:medium", "reversi").traps
    state = new_game("tictactoe").play_line("c1 b2")
    brain.choose(state)
    search = brain._new_search(Budget())
    chances = [brain._win_chance(search, state.play(m), 8, 1, False, {})
               for m in state.legal_moves()]
    assert all(0.0 <= c <= 1.0 for c in chances) and max(chances) > 0.0


def test_repetition_is_scored_as_a_draw() -> None:
    from brains.minimax import INF

    brain = make_brain("alphabeta:medium", "morris", seed=0)
    assert brain.repetition
    state = new_game("morris")
    child = state.play(state.legal_moves()[0])
    plain = brain._negamax(brain._new_search(Budget()), child, 2, -INF, INF, 1)
    search = brain._new_search(Budget())
    search.path = {child.key()}
    assert brain._negamax(search, child, 2, -INF, INF, 1) == 0.0 != plain
