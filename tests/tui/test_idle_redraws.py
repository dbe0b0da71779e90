"""A hosted session costs nothing while nobody does anything, and a move redraws only what
it changed: clocks wake when their text changes (not on a fixed tick, never without a
running clock, never on a screen nobody sees); a room list that comes again unchanged is
not rebuilt, and none is asked for under a room; panels given the same text do nothing,
and lay the screen out again only when their text's shape changes; the screen-reader line
draws nothing while hidden. Fake clocks only: nothing here waits on the wall clock."""

from __future__ import annotations

import math
from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.screen import Screen

from tests.tui.test_room_chat_panel import KeptLink, snapshot
from tui.app.main import ParlorApp
from tui.app.screens.base import ParlorScreen
from tui.app.widgets.clock import ClockPanel
from tui.app.widgets.reader import ReaderLine
from tui.app.widgets.text import TextPanel
from tui.link import client
from tui.player.clock import Clock, TimeControl, until_change

SIZE = (100, 30)


@pytest.fixture
def link(monkeypatch: pytest.MonkeyPatch) -> KeptLink:
    kept = KeptLink()
    monkeypatch.setattr(client, "_link", kept)
    return kept


def test_a_clock_wakes_when_its_text_next_changes() -> None:
    assert until_change(300.0) == pytest.approx(0.01)  # 5:00 turns 4:59 at once
    assert until_change(299.25) == pytest.approx(0.26)
    assert until_change(10.5) == pytest.approx(0.51)  # then 0:10 becomes 0:09.9…
    assert until_change(9.95) == pytest.approx(0.1)  # tenths under ten seconds
    assert until_change(0.0) == math.inf  # a fallen flag's 0:00.0 never changes


class ClockScreen(ParlorScreen):
    def __init__(self, panel: ClockPanel) -> None:
        super().__init__()
        self.panel = panel

    def compose(self) -> ComposeResult:
        yield self.panel


async def test_a_clock_draws_only_new_text_and_waits_while_unseen() -> None:
    now = [0.0]
    clock = Clock(TimeControl(300.0))
    panel = ClockPanel(clock, ("X", "O"), lambda: now[0])
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(ClockScreen(panel))
        await pilot.pause()
        assert panel.wake is None  # no clock running: nothing to wake for, ever
        drawn = panel.draws
        clock.start(0, now[0])
        for t in (0.3, 0.5, 0.9):  # X has 4:59 left throughout: one drawing
            now[0] = t
            panel.redraw()
        assert panel.draws == drawn + 1 and "4:59" in str(panel.render())
        assert panel.wake is not None  # for when 4:58 is due
        now[0] = 1.2
        panel.redraw()
        assert panel.draws == drawn + 2 and "4:58" in str(panel.render())
        await app.push_screen(Screen())  # a full screen over it: nobody sees the clock
        await pilot.pause()
        for t in (5.0, 9.0, 30.0):
            now[0] = t
            panel.redraw()
        assert panel.draws == drawn + 2  # not drawn unseen (its timer waits for the flag)
        app.pop_screen()
        await pilot.pause()
        assert panel.draws == drawn + 3 and "4:30" in str(panel.render())  # shown again
        clock.stop(now[0])
        panel.redraw()
        assert panel.wake is None


class PanelApp(App[None]):
    def compose(self) -> ComposeResult:
        yield TextPanel("", id="panel")


async def test_a_panel_ignores_the_same_text_and_lays_out_only_for_a_new_shape(
        monkeypatch: pytest.MonkeyPatch) -> None:
    app = PanelApp()
    async with app.run_test(size=(40, 10)) as pilot:
        panel = app.query_one(TextPanel)
        refreshes: list[bool] = []
        refresh = panel.refresh

        def counted(*regions: Any, layout: bool = False, **kwargs: Any) -> Any:
            refreshes.append(layout)
            return refresh(*regions, layout=layout, **kwargs)

        monkeypatch.setattr(panel, "refresh", counted)
        panel.update(Text("Move 1: your move", "bold"))
        panel.update(Text("Move 1: your move", "bold"))  # the same: nothing
        panel.update(Text("Move 2: your move", "bold"))  # the same shape: drawn in place
        panel.update(Text("Move 2: O to move", "bold"))
        panel.update(Text("Move 2: O to move\nDraw offered", "bold"))  # a line more
        assert refreshes == [True, False, False, True]
        assert panel.draws == 4
        await pilot.pause()
        assert "Draw offered" in str(panel.render())


async def test_a_room_list_under_a_room_is_neither_asked_for_nor_redrawn(link) -> None:
    from tui.app.screens.room_play import RoomPlayScreen
    from tui.app.screens.rooms import RoomsScreen

    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        rooms = RoomsScreen()
        await app.push_screen(rooms)
        await pilot.pause()
        listing = {"t": "rooms", "kind": "open", "rooms": [
            {"code": "ABCDE", "game": "tictactoe", "names": ["ann", ""], "moves": 0}]}
        link.deliver(listing)
        await pilot.pause()
        shown = rooms.lines
        assert shown is not None and "ABCDE" in shown[0]
        link.deliver(dict(listing))  # every few seconds, the same list
        assert rooms.lines is shown  # not rebuilt
        await app.push_screen(RoomPlayScreen(snapshot()))
        await pilot.pause()
        link.sent.clear()
        for _ in range(5):  # the list's timer, while a room is shown over it
            rooms.action_refresh()
        assert not [m for m in link.sent if m["t"] == "list"]
        app.pop_screen()
        await pilot.pause()
        assert {"t": "list", "kind": "open"} in link.sent  # back: asked at once


async def test_a_move_redraws_what_changed_and_the_hidden_reader_line_nothing(link) -> None:
    from tui.app.screens.room_play import RoomPlayScreen

    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        screen = RoomPlayScreen(snapshot(moves=["b2"], you=0))
        await app.push_screen(screen)
        await pilot.pause()
        panels = {p.id: p for p in screen.query(TextPanel) if not isinstance(p, ReaderLine)}
        before = {name: p.draws for name, p in panels.items()}
        link.deliver(snapshot(moves=["b2"], you=0))  # the same room again
        await pilot.pause()
        assert {name: p.draws for name, p in panels.items()} == before
        link.deliver(snapshot(moves=["b2", "a1"], you=0))
        await pilot.pause()
        changed = {name for name, p in panels.items() if p.draws != before[name]}
        assert changed == {"status", "moves"}  # not the clocks (none), nor the summary
        reader = screen.query_one(ReaderLine)
        assert reader.draws == 0 and reader.text.startswith("O plays a1. Your turn.")
        app.set_screen_reader(True, remember=False)
        await pilot.pause()
        await pilot.pause()
        assert reader.draws == 1 and str(reader.render()).startswith("O plays a1.")


async def test_the_footer_is_composed_again_only_for_other_keys(link) -> None:
    from tui.app.screens.room_play import RoomPlayScreen
    from tui.app.widgets.footer import ParlorFooter

    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await app.push_screen(RoomPlayScreen(snapshot()))
        await pilot.pause()
        footer = app.screen.query_one(ParlorFooter)
        keys = footer.composed
        assert keys is not None and any(key[2] == "Resign" for key in keys)
        shown = list(footer.children)
        app.screen.refresh_bindings()  # as every focus change does
        app.screen.refresh_bindings()
        await pilot.pause()
        assert list(footer.children) == shown  # the same widgets: not composed again
        app.screen.focus_next()
        app.screen.query_one("#board").focus()
        await pilot.pause()
        assert list(footer.children) == shown
