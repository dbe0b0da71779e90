"""The player's rating in the app: a finished game against a rated level moves it once
(also after a resume), undo and hints make a game unrated (said once, kept in the
record), Home shows it and offers a fair opponent, and Home's clock field."""

from __future__ import annotations

from typing import Any

import pytest

from brains.protocol import Brain
from engine.formats import load_records
from engine.record import GameRecord, save_records
from tests.tui.conftest import (
    FAKE_SPECS,
    FirstMover,
    enter_move,
    fake_make_brain,
    settle,
)
from tui.app.dialogs.error import ErrorDialog
from tui.app.dialogs.prompt import PromptDialog
from tui.app.main import Launch, ParlorApp
from tui.app.screens.home import OTHER_CLOCK, HomeScreen
from tui.app.screens.play import PlayScreen
from tui.app.widgets.clock import ClockPanel
from tui.game import opponents
from tui.player import paths, settings
from tui.player.clock import TimeControl
from tui.player.ratings import PlayerRating, PlayerRatings, closest_level, start_rating

SIZE = (100, 32)
WIN = (4, 2, 6)
"""X's moves that beat an opponent playing the lowest free square (O: 0, 1)."""
LOSS = (8, 7, 5)
"""X's moves that lose to it (O: 0, 1, 2)."""
LEVELS = [f"level:{n}" for n in range(1, 9)]


def level_brain(spec: str, game_id: str, seed: int | None = None) -> Brain:
    """A rated level that plays the lowest free square at once (its rating, looked up
    from the ladder, is the real one); the other test brains as conftest makes them."""
    if spec.startswith("level"):
        return FirstMover(game_id, seed=seed, spec=spec)
    return fake_make_brain(spec, game_id, seed)


@pytest.fixture(autouse=True)
def rated_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(opponents, "make_brain", level_brain)
    monkeypatch.setattr(opponents, "brain_specs", lambda game_id: [*FAKE_SPECS, *LEVELS])


def rating() -> PlayerRating:
    return PlayerRatings().current("tictactoe")


def status(screen: PlayScreen) -> str:
    return str(screen.query_one("#status").render())


def notes(app: ParlorApp, text: str) -> int:
    """How many notifications so far say ``text``."""
    return sum(text in str(n.message) for n in app._notifications)


async def play_x(pilot: Any, moves: tuple[int, ...]) -> PlayScreen:
    screen = pilot.app.screen
    assert isinstance(screen, PlayScreen)
    for move in moves:
        await enter_move(pilot, move)
    return screen


def game_app(players: tuple[str, str] = ("human", "level:1")) -> ParlorApp:
    return ParlorApp(Launch(kind="play", game="tictactoe", players=players), seed=1)


@pytest.mark.parametrize("moves, result, up", [(WIN, "1-0", True), (LOSS, "0-1", False)])
async def test_a_game_against_level_1_moves_the_rating_the_right_way_once(
        moves: tuple[int, ...], result: str, up: bool) -> None:
    start = start_rating("tictactoe")
    app = game_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert "Rated: you" in status(screen)
        await play_x(pilot, moves)
        outcome = screen.outcome()
        assert outcome is not None and outcome.result.value == result
        after = rating()
        assert after.games == 1 and (after.rating > start) == up and after.rating != start
        change = round(after.rating - start)
        assert f"Rating {after.text()} ({change:+d})" in status(screen)
        for _ in range(2):  # p runs the end of the game again: it counts once
            await pilot.press("p")
            await settle(pilot)
        [kept] = load_records(screen.store.history_path)
        assert kept.tags["Rated"] == "yes"
    assert rating() == after


async def test_a_resumed_game_counts_once_even_when_finished_again() -> None:
    app = game_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await play_x(pilot, WIN[:2])
        game_id = screen.store.id
        await pilot.press("escape")  # Home; the game is kept unfinished
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.store.id == game_id
        await play_x(pilot, WIN[2:])
        assert screen.outcome() is not None and rating().games == 1
        counted = rating()
        # the end was not kept (as after a crash): the game is unfinished again, under
        # its own id, one move before the end; finishing it again changes nothing
        [record] = load_records(screen.store.history_path)
        again = GameRecord(record.game, record.options, record.moves[:-1], "*", None,
                           dict(record.tags))
        await pilot.press("escape")
        await settle(pilot)
        save_records(paths.unfinished_dir() / f"{game_id}{paths.RECORD_SUFFIX}", again)
        screen_home = app.screen
        assert isinstance(screen_home, HomeScreen)
        screen_home.refresh_unfinished()
        await pilot.press("c")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.store.id == game_id
        await play_x(pilot, WIN[2:])
        assert screen.outcome() is not None
        assert rating() == counted
        assert "counted already" in status(screen)


async def test_undo_makes_the_game_unrated_said_once_and_kept_on_resume() -> None:
    app = game_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await play_x(pilot, WIN[:2])
        await pilot.press("u")
        await settle(pilot)
        assert "now unrated" in status(screen)
        assert notes(app, "now unrated") == 1
        await play_x(pilot, (2,))
        await pilot.press("u")  # a second takeback says nothing more
        await settle(pilot)
        assert notes(app, "now unrated") == 1
        [kept] = load_records(screen.store.unfinished_path)
        assert kept.tags["Rated"] == "no" and kept.tags["Unrated"] == "a move was taken back"
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("c")  # resumed: still unrated
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.unrated == "a move was taken back"
        assert "Unrated: a move was taken back" in status(screen)
        await play_x(pilot, WIN[len(screen.moves) // 2:])
        assert screen.outcome() is not None
        assert "Unrated: a move was taken back" in status(screen)
    assert not PlayerRatings().path.exists() and rating().games == 0


async def test_a_hint_makes_the_game_unrated() -> None:
    app = game_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await play_x(pilot, WIN[:1])
        await pilot.press("t")
        await settle(pilot)
        assert screen.board.hint is not None
        assert screen.unrated == "a hint was asked for" and notes(app, "now unrated") == 1
        await play_x(pilot, WIN[1:])
        assert screen.outcome() is not None
        assert "Unrated: a hint was asked for" in status(screen)
        [kept] = load_records(screen.store.history_path)
        assert kept.tags["Rated"] == "no"
    assert rating().games == 0


@pytest.mark.parametrize("players", [("level:1", "level:2"), ("human", "human"),
                                     ("human", "first")])
async def test_games_without_one_person_against_a_rated_level_are_unrated(
        players: tuple[str, str]) -> None:
    app = game_app(players)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        if players[0] == "human":
            for move in (4, 0, 2, 1, 6):
                if screen.outcome() is None and screen.human_to_move():
                    await enter_move(pilot, move)
        for _ in range(50):
            if screen.outcome() is not None:
                break
            await settle(pilot)
        assert screen.outcome() is not None
        assert "Rat" not in status(screen)
        assert "Rated" not in load_records(screen.store.history_path)[0].tags
    assert not PlayerRatings().path.exists()


async def test_a_game_from_another_start_is_unrated() -> None:
    from engine.positions import parse_position

    launch = Launch(kind="play", game="tictactoe", players=("human", "level:1"),
                    position=parse_position("tictactoe", "3/1x1/o2 x"))
    async with ParlorApp(launch, seed=1).run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.rated_pairing() is None and "Rat" not in status(screen)


def test_rated_levels_and_their_deviation_come_from_the_ladder() -> None:
    from brains.registry import ladder_table

    rows = ladder_table("tictactoe")
    first = opponents.rated_level("level:1", "tictactoe")
    assert first is not None and first.level == 1 and first.rating == rows[0]["rating"]
    half = max(rows[0]["rating"] - rows[0]["lo"], rows[0]["hi"] - rows[0]["rating"])
    assert first.deviation == max(half / 1.96, opponents.RD_FLOOR)
    by_rating = opponents.rated_level("alphabeta,rating=300", "tictactoe")
    assert by_rating is not None and by_rating.spec == rows[by_rating.level - 1]["spec"]
    assert opponents.rated_level(rows[6]["spec"], "tictactoe").level == 7  # type: ignore[union-attr]
    for unrated in ("random", "human", "alphabeta:easy", "no such brain"):
        assert opponents.rated_level(unrated, "tictactoe") is None
    middle = rows[(len(rows) + 1) // 2 - 1]["rating"]
    assert start_rating("tictactoe") == middle == PlayerRating.fresh("tictactoe").rating


# --------------------------------------------------------------------------- Home


async def test_home_shows_the_rating_and_a_fair_opponent() -> None:
    store = PlayerRatings()
    for _ in range(16):
        mine = store.record_game("tictactoe", 120.0, 40.0, 0.5)
    assert not mine.provisional
    levels = opponents.level_ratings("tictactoe")
    fair = closest_level(mine.rating, levels)
    assert fair not in ("level:1", "level:8")  # a level of its own, not an end of the ladder
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen)
        shown = str(home.query_one("#player-rating").render())
        assert mine.text() in shown and "?" not in shown
        home.query_one("#first").value = "human"
        home.query_one("#second").value = "first"
        await pilot.press("a")
        await settle(pilot)
        assert home.sides() == ("human", fair)
        home.query_one("#first").value = "last"
        home.query_one("#second").value = "human"
        await pilot.press("a")
        await settle(pilot)
        assert home.sides() == (fair, "human")
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen.players == (fair, "human")


async def test_home_marks_a_new_players_rating_provisional() -> None:
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = str(app.screen.query_one("#player-rating").render())
        assert PlayerRating.fresh("tictactoe").text() in shown and "provisional" in shown


async def test_home_sets_a_clock_that_the_game_shows_and_remembers() -> None:
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen)
        home.query_one("#first").value = "human"
        home.query_one("#second").value = "first"
        home.query_one("#clock").value = "1+0"
        await settle(pilot)
        await pilot.press("p")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.clock == TimeControl(60.0)
        panel = screen.query_one(ClockPanel)
        assert "1:00" in str(panel.render()) or "0:59" in str(panel.render())
    assert TimeControl.parse(settings.load().clock or "") == TimeControl(60.0)
    async with ParlorApp().run_test(size=SIZE) as pilot:  # remembered on the next run
        await settle(pilot)
        assert pilot.app.screen.query_one("#clock").value == "1+0"


async def test_home_takes_a_typed_time_control_and_refuses_a_bad_one() -> None:
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen)
        for text, shown in (("7+5", "7+5"), ("nonsense", "7+5"), ("200", "7+5")):
            home.query_one("#clock").value = OTHER_CLOCK
            await settle(pilot)
            assert isinstance(app.screen, PromptDialog)
            app.screen.query_one("#prompt").value = text
            await pilot.press("enter")
            await settle(pilot)
            if shown != text:
                assert isinstance(app.screen, ErrorDialog)
                await pilot.press("escape")
                await settle(pilot)
            assert home.query_one("#clock").value == shown
            assert home.time_control() == TimeControl(420.0, 5.0)


async def test_a_damaged_ratings_file_is_one_line_on_home_and_a_fresh_start() -> None:
    path = PlayerRatings().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\x1b[2J{not json")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        shown = str(app.screen.query_one("#player-rating").render())
        assert PlayerRating.fresh("tictactoe").text() in shown
        [note] = [n for n in app._notifications if "not JSON" in str(n.message)]
        assert "\n" not in str(note.message) and "\x1b" not in str(note.message)
        app.screen.query_one("#game").value = "connect4"  # said once, not per game
        await settle(pilot)
        assert notes(app, "not JSON") == 1
    assert path.read_bytes() == b"\x1b[2J{not json"  # nothing lost by looking


@pytest.mark.parametrize("stored, kept", [
    ("5+3", "5+3"), ("1+0", "1"), (" 10 ", "10"), ("none", "none"), ("", None),
    ("abc", None), ("999+1", None), (5, None), (None, None), (["5+3"], None),
    ("5+3" * 40, None), ("\x1b[2J", None),
])
def test_the_remembered_clock_is_checked_when_read(stored: Any, kept: str | None) -> None:
    assert settings.from_json({"clock": stored}).clock == kept
    assert settings.from_json({"game": "connect4", "clock": stored}).game == "connect4"


async def test_changing_the_opponent_during_the_game_makes_it_unrated() -> None:
    app = game_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await play_x(pilot, WIN[:1])
        screen.set_player(1, "level:2")
        await settle(pilot)
        assert screen.unrated == "the players changed during the game"
        assert "now unrated" in status(screen) and notes(app, "now unrated") == 1
        await play_x(pilot, WIN[1:])
        assert screen.outcome() is not None
    assert rating().games == 0


async def test_a_game_played_on_from_a_saved_game_is_unrated() -> None:
    app = game_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = await play_x(pilot, WIN)
        assert rating().games == 1
        [record] = load_records(screen.store.history_path)
        app.play_record(record, 2, ("human", "level:1"))  # Replay's "play from here"
        await settle(pilot)
        again = app.screen
        assert isinstance(again, PlayScreen) and again.store.id != screen.store.id
        assert again.unrated == "played on from a saved game"
        await play_x(pilot, WIN[1:])
        assert again.outcome() is not None
        assert "Unrated: played on from a saved game" in status(again)
    assert rating().games == 1
