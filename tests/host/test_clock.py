"""Time controls, the two-sided clock, and brains that play on a clock without losing on time."""

from __future__ import annotations

import time

import pytest

from brains.protocol import Budget
from brains.registry import make_brain
from brains.timeman import clock_allot
from engine.registry import new_game
from tui.player.clock import Clock, TimeControl, TimeControlError, show


@pytest.mark.parametrize(("text", "initial", "increment"), [
    ("5+3", 300.0, 3.0), ("10", 600.0, 0.0), ("1+0", 60.0, 0.0), ("0.5", 30.0, 0.0)])
def test_time_controls_parse(text, initial, increment):
    control = TimeControl.parse(text)
    assert control == TimeControl(initial, increment)
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize("text", ["", "none", " None "])
def test_no_clock(text):
    assert TimeControl.parse(text) is None


@pytest.mark.parametrize("text", ["5+", "+3", "abc", "5+3+1", "999", "5+99", "-1", "1e9",
                                  "5" * 500])
def test_bad_time_controls_are_one_short_line(text):
    with pytest.raises(TimeControlError) as err:
        TimeControl.parse(text)
    assert "\n" not in str(err.value) and len(str(err.value)) < 200


def test_the_clock_charges_the_side_to_move_and_adds_the_increment():
    clock = Clock(TimeControl(60.0, 2.0))
    clock.start(0, now=100.0)
    assert clock.remaining(0, 110.0) == 50.0 and clock.remaining(1, 110.0) == 60.0
    clock.press(110.0)  # first side moved after 10 s: 50 + 2
    assert clock.remaining(0, 130.0) == 52.0 and clock.remaining(1, 130.0) == 40.0
    assert clock.flagged(169.9) is None and clock.flagged(170.0) == 1
    assert show(125.0) == "2:05" and show(3.25) == "0:03.2" and show(-1) == "0:00.0"


def test_clock_allot_keeps_a_reserve_and_spends_nothing_on_a_forced_move():
    state = new_game("connect4")
    assert 0 < clock_allot(state, 60.0) < 0.35 * 60
    assert clock_allot(state, 60.0, increment=2.0) > clock_allot(state, 60.0)
    assert clock_allot(state, 0.0) == 0.0
    forced = new_game("tictactoe").play_line("a1 b1 c1 a2 c2 b2 a3 c3")
    assert len(forced.legal_moves()) == 1 and clock_allot(forced, 60.0) == 0.0


def play_on_clock(game: str, specs: tuple[str, str], control: TimeControl) -> Clock:
    """Two brains play ``game`` to the end on ``control``; returns the clock (flag checked).

    The clock runs on this thread's CPU time, the time the brains (which search in the
    thread that asks them) spend thinking. On a loaded machine the wall clock also counts
    the time other jobs took from them, and a brain could lose on time it never had;
    the budget a brain is given is in wall seconds, so by this clock it stops no later
    than the budget, and a brain that thinks past its budget still loses."""
    state = new_game(game)
    brains = [make_brain(spec, game, seed=side) for side, spec in enumerate(specs)]
    if game == "connect4":  # the solver's first compilation (a fresh clone has no cache)
        from brains.kernels import connect4  # is the install's cost, not a move's

        connect4.warm_up()
    clock = Clock(control)
    clock.start(0, time.thread_time())
    while state.outcome() is None:
        side = state.to_move
        left = clock.remaining(side, time.thread_time())
        budget = Budget(seconds=clock_allot(state, left, control.increment))
        move = brains[side].choose(state, budget)
        now = time.thread_time()
        assert clock.flagged(now) is None, f"{specs[side]} lost on time at ply {state.ply}"
        clock.press(now)
        state = state.play(move)
    return clock


def test_brains_play_a_short_clocked_game_without_losing_on_time():
    clock = play_on_clock("connect4", ("mcts:hard", "alphabeta:hard"), TimeControl(4.0))
    assert min(clock.left) > 0


@pytest.mark.slow
def test_brains_do_not_lose_on_time_at_one_minute():
    clock = play_on_clock("connect4", ("mcts:hard", "alphabeta:hard"), TimeControl(60.0))
    assert min(clock.left) > 0
