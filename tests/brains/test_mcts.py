"""UCT search: repeatable by seed, finds a win in one, stops on request."""

from __future__ import annotations

import threading

from brains import Budget, make_brain
from brains.mcts import MCTSBrain
from engine import new_game


def test_finds_the_winning_move() -> None:
    state = new_game("tictactoe").play_line("a1 a3 b1 b3")  # X wins with c1
    brain = make_brain("mcts,simulations=400", "tictactoe", seed=5)
    assert state.format_move(brain.choose(state)) == "c1"


def test_analyse_ranks_the_win_first() -> None:
    state = new_game("tictactoe").play_line("a1 a3 b1 b3")
    scores = make_brain("mcts,simulations=400", "tictactoe", seed=2).analyse(state)
    assert max(scores, key=scores.get) == state.parse_move("c1")
    assert all(-1.0 <= s <= 1.0 for s in scores.values())


def test_seed_repeats_and_thoughts_count_simulations() -> None:
    state = new_game("tictactoe").play_line("b2")
    runs = [list(make_brain("mcts,simulations=300", "tictactoe", seed=9)
                 .think(state, Budget().start()))
            for _ in range(2)]
    assert runs[0][-1].move == runs[1][-1].move
    assert runs[0][-1].nodes == 300 and runs[0][-1].final


def test_heuristic_rollouts(game_id: str) -> None:
    brain = make_brain("mcts,simulations=30,rollout=heuristic,cutoff=4", game_id, seed=1)
    assert isinstance(brain, MCTSBrain)
    state = new_game(game_id)
    assert brain.choose(state) in state.legal_moves()


def test_stop_from_another_thread() -> None:
    # the flag is set from another thread after the first report; the search ends at
    # the next simulation boundary, whatever the clock says
    brain = make_brain("mcts,simulations=50000,seconds=none", "tictactoe", seed=1)
    budget = Budget()
    thoughts = brain.think(new_game("tictactoe"), budget.start())
    first = next(thoughts)
    setter = threading.Thread(target=budget.stop.set)
    setter.start()
    setter.join()
    rest = list(thoughts)
    assert rest and not rest[-1].final and rest[-1].nodes == first.nodes
