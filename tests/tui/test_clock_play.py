"""Clocks in local games: shown beside the board, a fallen flag ends the game on time,
brains budget their moves from the clock."""

from __future__ import annotations

import asyncio

from engine.formats import load_records
from tests.tui.conftest import enter_move, settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.play import PlayScreen
from tui.app.widgets.clock import ClockPanel
from tui.player.clock import TimeControl

SIZE = (100, 32)


async def test_a_fallen_flag_ends_a_local_game_as_a_time_forfeit() -> None:
    launch = Launch(kind="play", game="tictactoe", players=("human", "human"),
                    clock=TimeControl(1.5))
    app = ParlorApp(launch)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        panel = screen.query_one(ClockPanel)
        await enter_move(pilot, screen.state.legal_moves()[4])  # X moves; O's clock runs
        assert panel.clock.running == 1
        for _ in range(100):  # O never moves (at most 10 s)
            if screen.outcome() is not None:
                break
            await asyncio.sleep(0.1)
        outcome = screen.outcome()
        assert outcome is not None and outcome.termination == "time forfeit"
        assert outcome.result.value == "1-0"
        assert not screen.human_to_move()
        assert "time forfeit" in str(screen.query_one("#status").render())
        [record] = load_records(screen.store.history_path)
        assert record.result == "1-0" and record.termination == "time forfeit"
        assert record.tags["TimeControl"] == str(TimeControl(1.5))
        assert "LOW TIME" in str(panel.render())
        await pilot.press("u")  # a game lost on time cannot be taken back
        await settle(pilot)
        assert screen.outcome() == outcome and len(screen.moves) == 1


async def test_a_brain_on_the_clock_thinks_within_its_allotment() -> None:
    launch = Launch(kind="play", game="connect4", players=("human", "slow"),
                    clock=TimeControl(60.0))
    app = ParlorApp(launch, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await pilot.press("enter")  # a move for the human; the brain is asked next
        await pilot.pause()
        budget = screen.budget
        assert budget is not None and budget.seconds is not None
        assert 0 < budget.seconds < 0.35 * 60
