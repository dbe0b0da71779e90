"""The correspondence screens (tui/app/screens/correspondence.py) against a fake link:
the list says each game's state in words with the time left in days and hours, Enter
opens or joins, F4 sends what the form says, and a game is moved by keys (the move and
the ply the player saw go to the host); Home says how many games wait for a move."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static

from engine.registry import new_game
from tests.tui.conftest import enter_move, settle
from tests.tui.test_screen_reader import FakeLink, corr_snapshot
from tui.app.screens.correspondence import CorrGameScreen, CorrScreen, days_left, describe_game
from tui.app.screens.home import HomeScreen
from tui.link import client


@pytest.fixture
def link(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeLink:
    fake = FakeLink()
    monkeypatch.setattr(client, "_link", fake)

    async def get_link() -> FakeLink:
        return fake

    monkeypatch.setattr(client, "get_link", get_link)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv(client.ENV_SOCKET, str(tmp_path / "none.sock"))
    monkeypatch.setenv(client.ENV_TOKEN, "token")
    return fake


def test_time_left_in_days_and_hours() -> None:
    assert days_left(2 * 86_400 + 5 * 3600 + 59) == "2 days 5 h"
    assert days_left(86_400) == "1 day 0 h"
    assert days_left(7 * 3600) == "7 h"
    assert days_left(-5) == "under an hour"


def test_a_line_says_the_state_in_words() -> None:
    mine = {"id": "corr-1", "game": "tictactoe", "names": ["ann", "bob"], "you": 0,
            "days": 3, "status": "your move", "left": 90_000}
    assert describe_game(mine) == ("YOUR MOVE   Tic-tac-toe against bob, 3 days a move: "
                                   "1 day 1 h left")
    over = {**mine, "status": "over", "result": "0-1", "termination": "time forfeit",
            "names": "bad"}
    assert describe_game(over).startswith("OVER        Tic-tac-toe against ?")
    assert describe_game(over).endswith("0-1 (time forfeit)")


async def test_the_list_opens_joins_and_creates(link: FakeLink) -> None:
    from tui.host.session import HostedApp

    app = HostedApp(seed=1)
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        assert {"t": "corr_news"} in link.sent  # asked at login
        app.on_host({"t": "corr_news", "your_move": 2, "lines": []})
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert "Your move in 2 correspondence games" in str(
            home.query_one("#corr-news", Static).render())
        await pilot.press("f8")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, CorrScreen) and link.sent[-1] == {"t": "corr_list"}
        screen.on_service({"t": "corr_list", "games": [
            {"id": "corr-a", "game": "tictactoe", "names": ["ann", "bob"], "you": 0,
             "days": 1, "status": "challenge", "left": None}, "junk"],
            "open": [{"id": "corr-b", "game": "connect4", "name": "cat", "days": 7,
                      "side": 1}]})
        await pilot.pause()
        listing = screen.query_one("#corr-list", OptionList)
        assert listing.option_count == 2
        assert str(home.query_one("#corr-news", Static).render()) == ""  # none is yours now
        assert "open games: 1" in str(screen.query_one("#corr-title", Static).render())
        listing.focus()
        listing.highlighted = 0
        await pilot.press("enter")  # a challenge: Enter accepts it
        assert link.sent[-1] == {"t": "corr_join", "id": "corr-a"}
        screen.query_one("#corr-name", Input).value = "bob"
        await pilot.press("f4")
        sent = link.sent[-1]
        assert sent["t"] == "corr_new" and sent["name"] == "bob" and sent["days"] == 3
        screen.on_service(corr_snapshot(["b2", "a1"]))  # the answer to the join
        await pilot.pause()
        assert isinstance(app.screen, CorrGameScreen)


async def test_a_move_by_keys_goes_to_the_host_with_the_ply_seen(link: FakeLink) -> None:
    from tui.host.session import HostedApp

    app = HostedApp(seed=1)
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        await app.push_screen(CorrGameScreen(corr_snapshot(["b2", "a1"])))
        await settle(pilot)
        screen = app.screen
        assert "your move" in str(screen.query_one("#status", Static).render())
        assert "Time left for this move: 2 days 7 h" in str(
            screen.query_one("#status", Static).render())
        state = new_game("tictactoe").play_text("b2").play_text("a1")
        await enter_move(pilot, state.parse_move("c3"))
        assert link.sent[-1] == {"t": "corr_move", "id": "corr-0123456789abcdef",
                                 "move": "c3", "ply": 2}
        screen.on_service(corr_snapshot(["b2", "a1", "c3"]))  # the host's answer
        await pilot.pause()
        status = str(screen.query_one("#status", Static).render())
        assert "their move" in status
        before = len(link.sent)
        await pilot.press("m")  # not my turn: nothing asked, nothing sent
        assert len(link.sent) == before and isinstance(app.screen, CorrGameScreen)
        screen.on_service({"t": "corr_note", "id": "corr-0123456789abcdef", "text": "x"})
        assert link.sent[-1] == {"t": "corr_open", "id": "corr-0123456789abcdef"}
        await pilot.press("escape")
        assert not isinstance(app.screen, CorrGameScreen)
