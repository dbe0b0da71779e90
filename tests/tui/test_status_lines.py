"""The Play screen's status and move list: the end of a game in view and read plainly, move
numbers, the pace of computer games, moves made by a brain's fallback."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tui.conftest import play_app, play_moves, settle
from tui.app.main import ParlorApp
from tui.app.screens.play import PlayScreen

SIZE = (80, 24)


def screen_text(app: ParlorApp) -> str:
    """The characters on the screen, row by row."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


async def test_at_the_end_the_last_move_is_in_view_and_the_result_reads_plainly() -> None:
    from tests.tui.test_play import key_test_line
    _, moves = key_test_line("checkers")
    app = play_app("checkers", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await play_moves(pilot, screen, moves[:-1])
        await play_moves(pilot, screen, moves[-1:])  # the status grows: the list must follow
        await pilot.pause()
        status = str(screen.query_one("#status").render())
        assert "Game over:" in status and "((" not in status and "))" not in status
        scroll = screen.query_one("#moves-scroll")
        assert scroll.max_scroll_y > 0 and scroll.scroll_y == scroll.max_scroll_y
        number = (len(moves) + 1) // 2
        assert f"{number:>3}. " in screen_text(app)  # the last full move is on screen


async def test_the_status_counts_full_moves_like_the_move_list() -> None:
    app = play_app("tictactoe", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await play_moves(pilot, app.screen, [4, 0, 8])
        assert "Move 2: O to move" in str(app.screen.query_one("#status").render())


async def test_computer_against_computer_keeps_a_pace_and_pauses(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.app.screens import play
    monkeypatch.setattr(play, "DEFAULT_PACE", 3600.0)  # far longer than the test takes
    app = play_app("tictactoe", ("first", "last"))
    async with app.run_test(size=SIZE) as pilot:
        screen = app.screen
        await settle(pilot)
        assert len(screen.moves) == 1  # the first move at once, the next one waits its pace
        assert screen.pace_timer is not None
        await pilot.press("p")
        assert screen.paused and screen.pace_timer is None
        assert "paused" in str(screen.query_one("#status").render())
        for _ in range(6):
            await pilot.press("minus")
        assert screen.pace == 0.0
        await pilot.press("p")
        await settle(pilot)
        for _ in range(60):  # a move or more each time; generous for a busy machine
            if screen.state.outcome() is not None:
                break
            await settle(pilot)
        assert screen.state.outcome() is not None


async def test_a_brain_that_moves_by_its_fallback_says_so_in_the_status_and_the_record(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from brains.protocol import Brain, Budget, Thought
    from tests.tui import conftest
    from tui.game import opponents

    class Noted(Brain):
        name = "noted"

        def think(self, state: Any, budget: Budget) -> Any:
            move = state.legal_moves()[0]
            yield Thought(move, 0.1, 5, 100, (move,),
                          note="not solved in time: move from alphabeta:hard")

    def make(spec: str, game_id: str, seed: int | None = None) -> Brain:
        if spec == "noted":
            return Noted(game_id, seed=seed, spec=spec)
        return conftest.fake_make_brain(spec, game_id, seed)

    monkeypatch.setattr(opponents, "make_brain", make)
    app = play_app("connect4", ("human", "noted"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        screen = app.screen
        assert len(screen.moves) == 2
        assert "noted: not solved in time: move from alphabeta:hard" in str(
            screen.query_one("#status").render())
        assert screen.record().comments[2] == "noted: not solved in time: move from alphabeta:hard"
        assert kept_comments(screen) == {2: "noted: not solved in time: move from alphabeta:hard"}


def kept_comments(screen: PlayScreen) -> dict[int, str]:
    from engine.formats import load_records
    return load_records(screen.store.unfinished_path)[0].comments

