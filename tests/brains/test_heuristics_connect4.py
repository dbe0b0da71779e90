"""Connect Four heuristics: ranges, symmetries and obvious orderings on built positions."""

from __future__ import annotations

import random

import pytest

from brains.heuristics import get_heuristic, list_heuristics
from brains.heuristics.connect4 import DEFAULT, FEATURE_NAMES, HEURISTICS, features
from engine import new_game
from engine.games.connect4 import ConnectFourState

NAMES = sorted(HEURISTICS)


def game(moves: str = "") -> ConnectFourState:
    """The position after the game string ``moves`` (``"4453"``)."""
    state = new_game("connect4")
    assert isinstance(state, ConnectFourState)
    return state.play_line(moves)


def mirror(moves: str) -> str:
    """The same game reflected left to right."""
    return "".join(str(8 - int(ch)) for ch in moves)


def colours_swapped(state: ConnectFourState) -> ConnectFourState:
    """Test-only: the same cells with every disc's colour flipped (same side to move).

    Not always reachable in play, but the window count must simply change sign.
    """
    other = object.__new__(ConnectFourState)
    other.cur, other.mask, other._moves = state.cur ^ state.mask, state.mask, None
    return other


def random_states(seed: int, games: int = 20):
    """Every position of ``games`` seeded random games."""
    rng = random.Random(seed)
    for _ in range(games):
        state = game()
        yield state
        while state.legal_moves():
            state = state.play(rng.choice(state.legal_moves()))
            yield state


def test_connect4_registry_default_is_window():
    assert DEFAULT == "window"
    assert get_heuristic("connect4") is HEURISTICS["window"]
    assert list_heuristics("connect4")[0] == "window"
    assert set(list_heuristics("connect4")) == {"window", "threats"}


@pytest.mark.parametrize("name", NAMES)
def test_connect4_heuristics_stay_in_range(name):
    h = HEURISTICS[name]
    for state in random_states(1):
        value = h(state)
        assert -1.0 <= value <= 1.0
        if state.legal_moves():
            assert -1.0 < value < 1.0  # a proven result must rank above any estimate


@pytest.mark.parametrize("name", NAMES)
def test_connect4_finished_games_score_exactly(name):
    h = HEURISTICS[name]
    assert h(game("1213141")) == -1.0  # Red has won; Yellow is to move
    assert h(game("656173566152215676422337377473141445425321")) == 0.0  # board full


@pytest.mark.parametrize("name", NAMES)
def test_connect4_heuristics_are_mirror_symmetric(name):
    h = HEURISTICS[name]
    for moves in ("4453", "123456712", "3345521"):
        assert h(game(moves)) == pytest.approx(h(game(mirror(moves))))


def test_connect4_window_changes_sign_when_colours_swap():
    h = HEURISTICS["window"]
    checked = 0
    for state in random_states(2, games=5):
        if not state.legal_moves():
            continue  # finished games score exactly and are not colour-symmetric
        assert h(colours_swapped(state)) == pytest.approx(-h(state))
        checked += 1
    assert checked > 50


def test_connect4_window_counts_diagonals():
    # Red on a1 b2 c3, Yellow to move: only a diagonal window holds all three.
    state = game("1223433")
    assert [state.cell(c, c) for c in range(3)] == [0, 0, 0]
    named = dict(zip(FEATURE_NAMES, features(state), strict=True))
    assert named["opp_threes"] == 1.0  # a1 b2 c3 with d4 empty


@pytest.mark.parametrize("name", NAMES)
def test_connect4_centre_opening_beats_edge_opening(name):
    h = HEURISTICS[name]
    # values are for Yellow, to move after Red's first disc: lower is better for Red
    assert h(game("4")) < h(game("1"))
    assert h(game("4")) < 0.0


@pytest.mark.parametrize("name", NAMES)
def test_connect4_open_three_is_bad_for_the_side_facing_it(name):
    h = HEURISTICS[name]
    assert h(game("415162")) > 0.0  # Red to move with c1 and g1 both winning
    assert h(game("41516")) < 0.0  # the same threat, Yellow to move


def test_connect4_threats_sees_immediate_win_and_double_threat():
    threats = HEURISTICS["threats"]
    assert threats(game("415162")) == pytest.approx(0.95)  # Red wins next move
    assert threats(game("41516")) == pytest.approx(-0.95)  # Yellow faces two wins
    assert threats(game("41516")) < HEURISTICS["window"](game("41516"))


def test_connect4_features_count_hand_built_position():
    state = game("445")  # Red d1 e1, Yellow d2; Yellow to move
    named = dict(zip(FEATURE_NAMES, features(state), strict=True))
    assert named["opp_twos"] == 3.0  # b1-e1, c1-f1, d1-g1
    assert named["own_twos"] == 0.0 and named["own_threes"] == named["opp_threes"] == 0.0
    assert named["own_centre"] == 1.0 and named["opp_centre"] == 1.0
    assert named["opp_near_centre"] == 1.0 and named["own_near_centre"] == 0.0
    assert named["is_second_player"] == 1.0
    assert named["own_threats"] == named["opp_threats"] == 0.0


def test_connect4_features_threats_and_parity():
    state = game("445566")  # Red to move: c1 and g1 complete four on row 1 (odd)
    named = dict(zip(FEATURE_NAMES, features(state), strict=True))
    assert named["own_threats"] == 2.0 and named["own_playable_threats"] == 2.0
    assert named["own_good_threats"] == 2.0  # row 1 suits Red
    assert named["is_second_player"] == 0.0
    assert len(features(state)) == len(FEATURE_NAMES)


def test_exact_outcomes_match_the_solver_and_can_be_stopped() -> None:
    from brains.heuristics.connect4 import exact_outcomes

    state = new_game("connect4").play_line("44434344333151")
    outcomes = exact_outcomes(state, lambda: False, {})
    assert {state.format_move(m): v for m, v in outcomes.items()} == {
        "1": -1, "2": -1, "3": -1, "5": 1, "6": 1, "7": 1}
    assert exact_outcomes(new_game("connect4").play_line("44444111"), lambda: True, {}) is None
    assert exact_outcomes(new_game("connect4"), lambda: False, {}) is None  # too early


def test_hard_alphabeta_keeps_a_won_game_won() -> None:
    # alpha-beta alone played column 1 here (a loss) against OpenSpiel's MCTS
    from brains import Budget, make_brain

    state = new_game("connect4").play_line("44434344333151")
    assert make_brain("alphabeta:hard", "connect4")._exact is not None
    for seed in range(2):
        brain = make_brain("alphabeta,depth=3,endgame=true", "connect4", seed=seed)
        move = brain.choose(state, Budget(seconds=30))  # the solver may use half of it
        assert state.format_move(move) in {"5", "6", "7"}


def test_hard_alphabeta_endgame_time_counts_against_the_move() -> None:
    # too hard to solve in time: the solver gives up after half the allotment (0.85 * 2 s)
    # and the search only has what is left, so the move takes about 1.7 s, not 2.55 s
    import time

    from brains import make_brain

    state = new_game("connect4").play_line("4453443")  # 7 stones: about 40 s to solve
    state = state.play(state.parse_move("1"))
    brain = make_brain("alphabeta:hard,clock=100,max_seconds=2", "connect4", seed=0)
    # CPU time of this thread, not wall time: a loaded machine stretches the wall clock
    # but cannot make the search use more CPU than its deadlines allow
    start = time.thread_time()
    assert brain.choose(state) in state.legal_moves()
    assert time.thread_time() - start < 2.3
