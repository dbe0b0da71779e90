"""Everyone can play: what a new user who played every game found, each fixed and
checked here (wording, counting moves, confirmations, the legend, focus, keys)."""

from __future__ import annotations

from typing import Any

import pytest

from engine.registry import new_game
from tests.tui.conftest import settle
from tui.app import main as tui_app
from tui.app.main import Launch, ParlorApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from tui.link import client

SIZE = (80, 24)


class FakeLink(client.RoomLink):
    """A room service link that keeps what the screen sends (no host)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[dict[str, Any]] = []

    @property
    def connected(self) -> bool:
        return True

    def send(self, message: dict[str, Any]) -> bool:
        self.sent.append(message)
        return True


def room_snapshot(moves: list[str], **extra: Any) -> dict[str, Any]:
    """A room as the service sends it: tic-tac-toe, ``you`` play X, started."""
    return {"t": "room", "code": "ABCD", "game": "tictactoe", "options": {},
            "names": ["ann", "bob"], "moves": moves, "result": None, "termination": None,
            "clock": None, "offer": None, "present": [True, True], "started": True,
            "you": 0, "note": "", "brain": None, "rated": True, "rating": "", **extra}


def room_status(snapshot: dict[str, Any]) -> str:
    """The status a room screen shows for ``snapshot`` (not mounted: no service)."""
    from tui.app.screens.room_play import RoomPlayScreen

    screen = RoomPlayScreen(snapshot)
    states = [screen.initial]
    for text in snapshot["moves"]:
        states.append(states[-1].play_text(text))
    screen.states, screen.texts, screen.snap = states, list(snapshot["moves"]), snapshot
    return str(screen.status_text())


# -- wording ---------------------------------------------------------------------------
def test_room_offers_read_as_english() -> None:
    asked = room_status(room_snapshot(["b2"], offer={"kind": "takeback", "by": 1}))
    assert "Your opponent asks to take back a move: y accepts" in asked
    assert "asks for to" not in asked
    mine = room_status(room_snapshot(["b2"], offer={"kind": "draw", "by": 0}))
    assert "You asked for a draw: waiting for the answer" in mine


def test_a_rooms_end_reason_is_said_once() -> None:
    moves = ["a1", "a2", "b1", "b2", "c1"]
    text = room_status(room_snapshot(moves, result="1-0", termination="normal",
                                     note="normal"))
    assert "Game over: X wins 1-0 (normal)" in text
    assert text.count("normal") == 1
    other = room_status(room_snapshot(moves, result="1-0", termination="normal",
                                      note="bob left"))
    assert "bob left" in other  # a note that says something else still shows


def test_counts_are_singular_for_one() -> None:
    from tui.app.screens.rooms import describe_room
    from tui.app.widgets.gomoku_board import GomokuBoard

    line = describe_room({"code": "ABCD", "game": "tictactoe", "names": ["ann", ""],
                          "moves": 1})
    assert "1 moves" not in line and "move 1" in line
    board = GomokuBoard(new_game("gomoku").play(40))
    assert board.summary() == "Black 1 stone, White 0 stones"


def test_the_analysis_footer_names_the_search_in_words() -> None:
    from tui.cli.analyse import search_words

    assert search_words("alphabeta,depth=none,seconds=none", 0.5) == \
        "alphabeta, up to 0.5 s a position"
    assert search_words("alphabeta,depth=2,seconds=none", 1.0) == \
        "alphabeta, depth 2, up to 1 s a position"
    assert "none" not in search_words("mcts:hard,seconds=none", 0.25)


def test_an_elo_difference_of_nothing_has_no_sign() -> None:
    from tui.cli.match import signed

    assert signed(-0.3) == "0" and signed(0.4) == "0"
    assert signed(-12.6) == "-13" and signed(7.5) == "+8"


def test_parlor_brains_shows_an_external_engines_command_and_protocol(
        tmp_path: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import argparse

    from tui.cli import brains

    config = tmp_path / "config" / "parlor"
    config.mkdir(parents=True)
    (config / "engines.toml").write_text(
        '[engines.edax]\ncommand = ["edax", "--gtp", "-l", "5"]\nprotocol = "gtp"\n'
        'game = "reversi"\n')
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    assert brains.run(argparse.Namespace(game="reversi", json=False)) == 0
    out = capsys.readouterr().out
    block = out[out.index("external:edax"):]
    assert "command: edax --gtp -l 5" in block and "protocol: gtp" in block


# -- one way of counting moves -----------------------------------------------------------
def status_of(app: ParlorApp) -> str:
    return str(app.screen.query_one("#status").render())


async def test_home_the_game_and_a_room_count_moves_alike() -> None:
    app = ParlorApp(Launch(kind="play", game="morris", players=("human", "human")), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        for _ in range(8):  # four moves of each side: the fifth move is next
            screen.play(screen.state.legal_moves()[0])
        await settle(pilot)
        assert "Move 5: White to move" in status_of(app)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        listed = str(app.screen.query_one("#unfinished").get_option_at_index(0).prompt)
        assert listed.startswith("Five Men's Morris, move 5:")
    assert "Move 2: your move" in room_status(room_snapshot(["b2", "a1"]))
    assert "Move 2: O to move" in room_status(room_snapshot(["b2", "a1", "c3"]))


# -- confirmations ---------------------------------------------------------------------
async def test_saving_says_so_in_the_status() -> None:
    app = ParlorApp(Launch(kind="play", game="tictactoe", players=("human", "first")), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("s")
        await pilot.pause()
        await pilot.press(*"mine", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert "saved as mine.pgn (r opens the saved games)" in status_of(app)
        assert any(n.message.startswith("saved as mine.pgn") for n in app._notifications)


# -- the move prompt --------------------------------------------------------------------
async def test_the_move_prompt_shows_an_example_beside_the_field_not_in_it() -> None:
    from textual.widgets import Input

    from tui.app.dialogs.prompt import PromptDialog

    app = ParlorApp(Launch(kind="play", game="tictactoe", players=("human", "human")), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, PromptDialog)
        field = dialog.query_one("#prompt", Input)
        assert field.value == "" and not field.placeholder  # nothing looks typed
        help_line = str(dialog.query_one("#prompt-help").render())
        assert help_line.startswith("e.g. a1. Enter confirms")
        await pilot.press("enter")  # nothing typed: it says so, and stays
        await pilot.pause()
        assert app.screen is dialog
        assert "Nothing typed" in str(dialog.query_one("#prompt-help").render())
        await pilot.press("b", "2", "enter")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and len(app.screen.moves) == 1


# -- a refused point says why, in a room too ---------------------------------------------
async def test_choosing_a_taken_square_in_a_room_says_why(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.app.screens.room_play import RoomPlayScreen

    link = FakeLink()
    monkeypatch.setattr(client, "_link", link)
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.push_screen(RoomPlayScreen(room_snapshot(["b2", "a1"])))
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, RoomPlayScreen) and screen.my_turn()
        screen.board.cursor = 4  # b2, taken
        await pilot.press("enter")
        await pilot.pause()
        assert "that square is taken" in str(screen.query_one("#status").render())
        assert not [m for m in link.sent if m.get("t") == "move"]
        screen.board.cursor = 8  # c3 is free: the move goes to the service
        await pilot.press("enter")
        await pilot.pause()
        assert {"t": "move", "move": "c3"} in link.sent


def test_a_taken_morris_or_gomoku_point_is_called_a_point() -> None:
    from tui.app.widgets import board_class

    for game in ("morris", "gomoku"):
        state = new_game(game)
        move = state.legal_moves()[0]
        board = board_class(game)(state.play(move).play(state.play(move).legal_moves()[0]))
        taken = board.steps(move)[0]
        assert board.refusal(taken) == "that point is taken"


# -- keys pressed while the app starts ----------------------------------------------------
def gated_app(monkeypatch: pytest.MonkeyPatch, name: str, keys: list[tuple[str, str]],
              launch: Launch | None = None) -> ParlorApp:
    """An app whose screen ``name`` (``HomeScreen`` or ``PlayScreen`` of tui.app.main) is
    still mounting when ``keys``, typed while the app loaded, reach the app."""
    from textual import events

    base = getattr(tui_app, name)

    class Slow(base):  # type: ignore[misc, valid-type]
        async def on_mount(self) -> None:  # Textual runs the screen's own on_mount next
            for key, character in keys:  # as the terminal's keys come: from the app
                await self.app.on_event(events.Key(key, character).set_sender(self.app))
            # the proof of the hold: every key typed so far waits, none was handled yet
            held.append([k.key for k in self.app.early_keys or []])

    held: list[list[str]] = []
    monkeypatch.setattr(tui_app, name, Slow)
    app = ParlorApp(launch, seed=1)
    app.held_while_mounting = held  # type: ignore[attr-defined]
    return app


def assert_held(app: ParlorApp, keys: list[str]) -> None:
    """The keys waited while the screen mounted, and were all released after it."""
    assert app.held_while_mounting == [keys]  # type: ignore[attr-defined]
    assert app.early_keys is None


async def test_a_key_pressed_while_the_app_starts_is_not_lost(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.app.screens.help import HelpScreen

    app = gated_app(monkeypatch, "HomeScreen", [("question_mark", "?")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        assert_held(app, ["question_mark"])


async def test_a_key_pressed_while_a_launched_game_starts_is_not_lost(
        monkeypatch: pytest.MonkeyPatch) -> None:
    launch = Launch(kind="play", game="tictactoe", players=("human", "first"))
    app = gated_app(monkeypatch, "PlayScreen", [("enter", "\r")], launch)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert len(app.screen.moves) == 2  # the player's move, and the reply
        assert_held(app, ["enter"])


# -- everyone who played is named ----------------------------------------------------------
async def test_the_record_names_every_opponent_that_played_and_home_lists_them() -> None:
    from engine.formats import parse_records

    app = ParlorApp(Launch(kind="play", game="connect4", players=("human", "first")), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        await pilot.press("4")  # Red, then "first" for Yellow
        await settle(pilot)
        assert "SecondPlayers" not in screen.record().tags  # one opponent so far
        screen.set_player(1, "last")  # "last" takes over Yellow
        await pilot.press("4")
        await settle(pilot)
        record = screen.record()
        assert (record.tags["Second"], record.tags["SecondPlayers"]) == ("last", "first, last")
        assert "FirstPlayers" not in record.tags
        again = parse_records(record.to_text(), source="test")[0]  # it reads back
        assert again.tags["SecondPlayers"] == "first, last"
        await pilot.press("escape")
        await settle(pilot)
        listed = str(app.screen.query_one("#unfinished").get_option_at_index(0).prompt)
        assert "Connect Four, move 3: human v first, last, " in listed


# -- the legend ---------------------------------------------------------------------------
@pytest.mark.parametrize(("game", "options", "marks"), [
    ("reversi", {"variant": "flipcolor"}, ["*x* discs just flipped", " *  FlipColor square"]),
    ("reversi", {}, ["*x* discs just flipped"]),
    ("morris", {}, ["*x* mill just made", "× taken"]),
    ("tictactoe", {}, ["*x* winning line"]),
])
async def test_the_legend_names_every_mark_the_board_uses(
        game: str, options: dict[str, Any], marks: list[str]) -> None:
    app = ParlorApp(Launch(kind="play", game=game, options=options,
                           players=("human", "human")), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        legend = str(app.screen.query_one("#legend").render())
        assert "[ ] cursor" in legend and "> < hint" in legend
        for mark in marks:
            assert mark in legend
        assert ("FlipColor" in legend) == (options.get("variant") == "flipcolor")
        await pilot.press("b")  # ASCII: the legend too
        await pilot.pause()
        assert str(app.screen.query_one("#legend").render()).isascii()


# -- Play a person: where the focus is --------------------------------------------------------
async def test_back_from_a_room_the_focus_is_on_the_code_and_shown_without_colour(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from textual.widgets import Input, Label

    from tui.app.screens.room_play import RoomPlayScreen
    from tui.app.screens.rooms import RoomsScreen

    link = FakeLink()
    monkeypatch.setattr(client, "_link", link)
    monkeypatch.setattr(client, "get_link", _fake_get_link(link))
    app = ParlorApp()
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await app.push_screen(RoomsScreen())
        await pilot.pause()
        rooms = app.screen
        clock = rooms.query_one("#room-clock", Input)
        clock.focus()
        await pilot.pause()
        label = clock.parent.query_one(".field-label", Label)
        assert label.rich_style.reverse  # the focused field's label: not colour alone
        rooms.asked = True  # the service answers a join with the room
        rooms.on_service(room_snapshot([]))
        await pilot.pause()
        assert isinstance(app.screen, RoomPlayScreen)
        await pilot.press("e")  # leave the room
        await pilot.pause()
        assert app.screen is rooms
        await pilot.press(*"f9kb")
        await pilot.pause()
        assert rooms.query_one("#room-code", Input).value == "f9kb"
        assert clock.value == "5+3"
        assert not label.rich_style.reverse


def _fake_get_link(link: FakeLink) -> Any:
    async def get_link() -> FakeLink:
        return link
    return get_link


# -- one exit --------------------------------------------------------------------------------
@pytest.mark.parametrize("key", ["q", "escape"])
async def test_q_or_escape_in_a_game_goes_home_and_q_on_home_quits(key: str) -> None:
    app = ParlorApp(Launch(kind="play", game="tictactoe", players=("human", "first")), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press(key)
        await settle(pilot)
        assert app.is_running and isinstance(app.screen, HomeScreen)
        assert len(app.screen.unfinished) == 1  # the game is kept
        await pilot.press("q")
        await pilot.pause()
        assert not app.is_running


async def test_n_asks_first_while_the_game_is_unfinished() -> None:
    from tui.app.dialogs.choose import ChooseDialog

    app = ParlorApp(Launch(kind="play", game="tictactoe", players=("human", "first")), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        game = app.screen
        await pilot.press("n")  # no move yet: nothing to keep, no question
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen is not game
        game = app.screen
        await pilot.press("enter")
        await settle(pilot)
        await pilot.press("n")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ChooseDialog)
        assert "stays on Home's list of unfinished games" in dialog.title_text
        await pilot.press("escape")  # no: the game goes on
        await pilot.pause()
        assert app.screen is game and len(game.moves) == 2
        await pilot.press("n", "enter")  # yes
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen is not game
        assert app.screen.moves == []
        await pilot.press("q")
        await settle(pilot)
        assert len(app.screen.unfinished) == 1


# -- colour is never the only cue -----------------------------------------------------------
def filtered_screen(app: ParlorApp) -> tuple[str, set[Any]]:
    """The screen as the terminal gets it after the app's line filters (NO_COLOR's
    among them): its text, and every colour left in it."""
    from textual.color import Color

    lines, colours = [], set()
    for strip in app.screen._compositor.render_strips():
        segments = list(strip)
        for line_filter in app.get_line_filters():
            segments = line_filter.apply(segments, Color(0, 0, 0))
        lines.append("".join(segment.text for segment in segments))
        for segment in segments:
            if segment.style is not None:
                colours |= {segment.style.color, segment.style.bgcolor} - {None}
    return "\n".join(lines), colours


async def test_under_no_color_every_cue_is_in_the_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = ParlorApp(Launch(kind="play", game="tictactoe", players=("human", "human")), seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.no_color
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        screen.play(4)  # X b2
        screen.play(0)  # O a1: the last move
        await settle(pilot)
        await pilot.press("t")  # a hint for X
        await settle(pilot)
        assert screen.board.hint is not None
        text, colours = filtered_screen(app)
        greys = {c for c in colours if c.triplet is not None
                 and c.triplet.red == c.triplet.green == c.triplet.blue}
        assert colours == greys  # no hue reaches the terminal: only text, styles, greys
        assert "> X: human" in text and "  O: human" in text  # the side to move
        assert "( O )" in text  # the last move
        assert text.count(">") >= 2 and "<" in text  # the hint's > <, and the turn mark
        assert "[ " in text and "+" in text  # the cursor and the legal targets
        assert "hint: " in text


def test_the_palette_has_no_red_and_green_pair_even_in_16_colours() -> None:
    """Every board's marks and pieces, brought down to the 16-colour palette: no board
    shows a red next to a green, and each piece stands apart from its squares."""
    import asyncio

    from rich.color import ColorSystem

    from engine.registry import GAMES

    red, green = {1, 9}, {2, 10}

    async def check(app: ParlorApp, pilot: Any, game: str) -> None:
        app.start_game(game, {}, ("human", "human"))
        await settle(pilot)
        assert app.screen.game_id == game
        board = app.screen.board
        marks = {}
        for name in ("target", "last-move", "hint", "first", "second"):
            colour = board.style(name).color
            if colour is not None:
                marks[name] = colour.downgrade(ColorSystem.STANDARD).number
        found = set(marks.values())
        assert not (found & red and found & green), (game, marks)
        square = board.style("dark").bgcolor
        if square is not None:
            under = square.downgrade(ColorSystem.STANDARD).number
            assert marks["first"] != under or marks["second"] != under, game

    async def run_all() -> None:
        app = ParlorApp(Launch(kind="play", game="tictactoe", players=("human", "human")),
                        seed=1)
        async with app.run_test(size=(120, 50)) as pilot:  # one app, each game in turn
            for game in GAMES:
                await check(app, pilot, game)

    asyncio.run(run_all())


async def test_enter_typed_while_home_starts_presses_play(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The key waits for Home's own focus (Play), not whatever had it while mounting."""
    app = gated_app(monkeypatch, "HomeScreen", [("enter", "\r")])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        assert_held(app, ["enter"])


@pytest.mark.parametrize("key", ["q", "escape"])
async def test_q_or_escape_in_a_room_leaves_it_and_keeps_the_app(
        monkeypatch: pytest.MonkeyPatch, key: str) -> None:
    from tui.app.screens.room_play import RoomPlayScreen

    link = FakeLink()
    monkeypatch.setattr(client, "_link", link)
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await app.push_screen(RoomPlayScreen(room_snapshot(["b2"])))
        await pilot.pause()
        await pilot.press(key)
        await pilot.pause()
        assert app.is_running and isinstance(app.screen, HomeScreen)
        assert {"t": "leave"} in link.sent
