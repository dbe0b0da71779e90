"""Hints: exact from the solver (or the Reversi endgame search, or the Morris database)
whatever the opponent, and said to be unproven when the solver runs out of time."""

from __future__ import annotations

import pytest

from tests.tui.conftest import play_app, play_moves, settle

SIZE = (80, 24)


async def test_the_hint_comes_from_the_solver_whatever_the_opponent() -> None:
    """Against the weakest opponent, the tic-tac-toe hint is still the exact best move:
    O must block at c1, and the hint says it draws, exactly."""
    app = play_app("tictactoe", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await play_moves(pilot, screen, [0, 4, 1])  # X a1, O b2, X b1: X threatens c1
        await pilot.press("t")
        await settle(pilot)
        assert screen.board.hint == 2
        assert "hint: c1 (exact: draws" in screen.message


async def test_a_hint_the_solver_cannot_settle_in_time_says_it_is_not_proven(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.app import hints
    monkeypatch.setattr(hints, "SOLVER_SECONDS", 0.01)
    monkeypatch.setattr(hints, "SEARCH_SECONDS", 0.2)
    app = play_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        # 10 stones: past the opening book, nearly a second of solving
        await play_moves(pilot, screen, [int(c) - 1 for c in "4327742771"])
        await pilot.press("t")
        await settle(pilot)
        assert screen.board.hint in screen.state.legal_moves()
        assert "alphabeta:hard: search score" in screen.message and "not proven" in screen.message


def test_a_late_reversi_hint_is_exact_and_a_morris_hint_comes_from_the_database() -> None:
    import random
    import threading

    from brains import reversi_endgame
    from brains.morrisdb import shared
    from engine.registry import new_game
    from tui.app.hints import best_hint

    rng, state = random.Random(3), new_game("reversi", size=6)
    while reversi_endgame.empties_of(state) > 8 and state.outcome() is None:
        state = state.play(rng.choice(state.legal_moves()))
    hint = best_hint(state, threading.Event())
    assert hint is not None and hint.exact and hint.source == "perfect"
    assert hint.verdict.endswith("with best play on both sides") and "within" not in hint.verdict
    best = max(-reversi_endgame.solve(state.play(m)).score if state.play(m).to_move != state.to_move
               else reversi_endgame.solve(state.play(m)).score for m in state.legal_moves())
    child = state.play(hint.move)
    got = reversi_endgame.solve(child).score
    assert (got if child.to_move == state.to_move else -got) == best

    morris = new_game("morris").play_line("b2 a1 c2")
    hint = best_hint(morris, threading.Event())
    assert hint is not None and hint.exact and hint.source == "perfect"
    assert hint.move in shared().best_moves(morris)

