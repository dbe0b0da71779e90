"""The room screen's chat panel, without a host: a link that keeps what the screen sends
and delivers what a service would (the service itself: tests/host/test_chat_*.py)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import Input, Static

from tests.tui.conftest import settle
from tui.app.main import ParlorApp
from tui.link import client
from tui.player import settings

SIZE = (80, 24)


class KeptLink(client.RoomLink):
    """A link to no service: it keeps what is sent."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[dict[str, Any]] = []

    @property
    def connected(self) -> bool:
        return True

    def send(self, message: dict[str, Any]) -> bool:
        self.sent.append(message)
        return True


def snapshot(you: int = 0, **extra: Any) -> dict[str, Any]:
    return {"t": "room", "code": "ABCDE", "game": "tictactoe", "options": {},
            "names": ["ann", "bob"], "moves": ["b2"], "result": None, "termination": None,
            "clock": None, "offer": None, "present": [True, True], "started": True,
            "you": you, "note": "", "brain": None, "rated": True, "rating": "", **extra}


def chat(*lines: tuple[str, bool, str], log: bool = False, code: str = "ABCDE"
         ) -> dict[str, Any]:
    return {"t": "chat", "code": code, "log": log,
            "lines": [{"name": n, "spectator": s, "text": t} for n, s, t in lines]}


def panel(app: ParlorApp) -> str:
    return str(app.screen.query_one("#chat", Static).render())


@pytest.fixture
def link(monkeypatch: pytest.MonkeyPatch) -> KeptLink:
    kept = KeptLink()
    monkeypatch.setattr(client, "_link", kept)
    return kept


async def test_the_panel_shows_names_and_roles_in_words_and_asks_again_at_the_end(link):
    from tui.app.screens.room_play import RoomPlayScreen

    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.push_screen(RoomPlayScreen(snapshot()))
        await pilot.pause()
        assert link.sent == [{"t": "chat_log"}]
        assert "No chat yet: c says a line" in panel(app)
        link.deliver(chat(("ann", False, "hi"), log=True))
        link.deliver(chat(("cy", True, "\x1b]0;x\x07psst\x1b[2J")))  # cleaned here too
        link.deliver(chat(("zed", False, "another room"), code="OTHER"))
        await pilot.pause()
        assert panel(app) == "ann: hi\ncy (spectator): psst"
        link.deliver(snapshot(result="1-0", termination="resignation"))
        await pilot.pause()
        assert link.sent == [{"t": "chat_log"}, {"t": "chat_log"}]  # the gallery's lines
        link.deliver(chat(("ann", False, "hi"), ("bo", True, "gg"), log=True))
        await pilot.pause()
        assert panel(app) == "ann: hi\nbo (spectator): gg"
        link.deliver(snapshot(result="1-0", termination="resignation", note="x"))
        await pilot.pause()
        assert link.sent.count({"t": "chat_log"}) == 2  # once at the end, not every update


async def test_c_says_a_clean_line_and_refuses_a_long_one(link):
    from tui.app.screens.room_play import RoomPlayScreen

    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.push_screen(RoomPlayScreen(snapshot(you=-1)))
        await pilot.pause()
        await pilot.press("c")
        await pilot.pause()
        assert "Say to the spectators (the players read it after the game)" in str(
            app.screen.query_one(".dialog-title", Static).render())
        await pilot.press(*"well  played", "enter")
        await pilot.pause()
        assert link.sent[-1] == {"t": "say", "text": "well played"}
        await pilot.press("c")
        await pilot.pause()
        app.screen.query_one(Input).value = "x" * 201
        await pilot.press("enter")
        await pilot.pause()
        assert link.sent[-1] == {"t": "say", "text": "well played"}  # nothing more sent
        assert any("at most 200 characters" in str(n.message)
                   for n in app._notifications)


async def test_t_mutes_the_chat_counts_what_came_and_the_choice_is_kept(link):
    from tui.app.screens.room_play import RoomPlayScreen

    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.push_screen(RoomPlayScreen(snapshot()))
        await pilot.pause()
        link.deliver(chat(("ann", False, "one"), log=True))
        await pilot.press("t")
        await pilot.pause()
        assert panel(app) == "Chat muted (t shows it): 0 lines hidden"
        assert settings.load().chat_muted is True
        link.deliver(chat(("bob", False, "two")))
        await pilot.pause()
        assert panel(app) == "Chat muted (t shows it): 1 line hidden"
        link.deliver(chat(("ann", False, "one"), ("bob", False, "two"), ("cy", True, "3"),
                          log=True))  # the log at the end: one line more than shown
        await pilot.pause()
        assert panel(app) == "Chat muted (t shows it): 2 lines hidden"
        app.pop_screen()
        await pilot.pause()
        await app.push_screen(RoomPlayScreen(snapshot()))  # the next room: still muted
        await pilot.pause()
        link.deliver(chat(("ann", False, "again"), log=True))
        await pilot.pause()
        assert panel(app) == "Chat muted (t shows it): 1 line hidden"
        await pilot.press("t")
        await pilot.pause()
        assert panel(app) == "ann: again"
        assert settings.load().chat_muted is False


async def test_page_up_and_down_scroll_the_chat_back_and_on(link):
    from textual.containers import VerticalScroll

    from tui.app.screens.room_play import RoomPlayScreen

    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.push_screen(RoomPlayScreen(snapshot()))
        await pilot.pause()
        link.deliver(chat(*[("ann", False, f"line {n}") for n in range(40)], log=True))
        await settle(pilot)
        scroll = app.screen.query_one("#chat-scroll", VerticalScroll)
        end = scroll.max_scroll_y
        assert end > 0 and scroll.scroll_y == end  # the last lines are shown
        await pilot.press("pageup")
        await pilot.pause()
        assert scroll.scroll_y < end
        await pilot.press("pagedown", "pagedown")
        await pilot.pause()
        assert scroll.scroll_y == end


def test_a_damaged_muted_setting_counts_as_not_muted():
    assert settings.from_json({"chat_muted": "yes"}).chat_muted is False
    assert settings.from_json({"chat_muted": True}).chat_muted is True
    assert settings.from_json({}).chat_muted is False
