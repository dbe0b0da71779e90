"""A clocked local game left for Home and resumed keeps its time control and both clocks
as they were when it was left (the time it was closed does not count), and its next
autosave still has its TimeControl tag. The screen's clock is a fake one here."""

from __future__ import annotations

import pytest

from engine.formats import load_records
from engine.record import GameRecord
from engine.registry import new_game
from tests.tui.conftest import enter_move, settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens import play
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from tui.game.session import CLOCK_TAG, ClockReadings
from tui.player import store
from tui.player.clock import TimeControl

SIZE = (100, 32)


class FakeTime:
    """A steady clock that moves only when told."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


async def test_a_clocked_game_left_and_resumed_keeps_its_clocks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fake = FakeTime(1000.0)
    monkeypatch.setattr(play, "monotonic", fake)
    launch = Launch(kind="play", game="tictactoe", players=("human", "human"),
                    clock=TimeControl(120.0, 2.0))
    app = ParlorApp(launch)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        fake.now = 1007.0
        await enter_move(pilot, screen.state.parse_move("b2"))  # the clocks start
        fake.now = 1012.5  # O thinks 5.5 s, then the game is left
        before = screen.session.readings(fake.now)
        assert before == ClockReadings((120.0, 114.5), 1)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        [kept] = load_records(screen.store.unfinished_path)
        assert kept.tags["TimeControl"] == "2+2"
        assert ClockReadings.parse(kept.tags[CLOCK_TAG]) == before
        fake.now = 5000.0  # an hour later: the time it was closed does not count
        await pilot.press("c")
        await settle(pilot)
        resumed = app.screen
        assert isinstance(resumed, PlayScreen) and resumed is not screen
        assert resumed.clock == TimeControl(120.0, 2.0)
        assert resumed.session.readings(fake.now) == before  # O's clock runs from now
        assert "1:54" in str(resumed.query_one("#clock").render())  # O's 114.5 s
        fake.now = 5004.0
        await enter_move(pilot, resumed.state.parse_move("a1"))  # O: 4 s more, 2 back
        assert resumed.session.readings(fake.now) == ClockReadings((120.0, 112.5), 0)
    [saved] = load_records(resumed.store.unfinished_path)
    assert saved.moves == ["b2", "a1"] and saved.tags["TimeControl"] == "2+2"
    assert ClockReadings.parse(saved.tags[CLOCK_TAG]) == ClockReadings((120.0, 112.5), 0)


def keep_clocked(tags: dict[str, str]) -> store.GameFile:
    """An unfinished human-against-human tic-tac-toe game (b2 played) with ``tags``."""
    start = new_game("tictactoe")
    kept = store.GameFile()
    kept.save(GameRecord.from_moves(start, [start.parse_move("b2")], First="human",
                                    Second="human", **tags))
    return kept


@pytest.mark.parametrize(("tags", "control", "warning"), [
    ({"TimeControl": "2+2", CLOCK_TAG: "lots of time"}, TimeControl(120.0, 2.0),
     "clock readings could not be read"),
    ({"TimeControl": "forever", CLOCK_TAG: "1 2 1"}, None, "without a clock"),
    ({"TimeControl": "2+2"}, TimeControl(120.0, 2.0), ""),  # kept before readings were
])
async def test_a_resumed_game_with_damaged_clock_tags_goes_on_with_one_warning(
        monkeypatch: pytest.MonkeyPatch, tags: dict[str, str], control: TimeControl | None,
        warning: str) -> None:
    fake = FakeTime(50.0)
    monkeypatch.setattr(play, "monotonic", fake)
    keep_clocked(tags)
    app = ParlorApp(Launch(kind="resume"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.moves == [4]
        assert screen.clock == control
        if control is not None:  # full time on both clocks, O's running from now
            assert screen.session.readings(fake.now) == ClockReadings((120.0, 120.0), 1)
        about_clocks = [n.message for n in app._notifications if "clock" in n.message]
        assert len(about_clocks) == (1 if warning else 0)
        assert all(warning in m and "\n" not in m for m in about_clocks)
