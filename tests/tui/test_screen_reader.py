"""Screen-reader mode: every game played by keys alone, every screen walked, each board's
words checked against golden text (in colour and under NO_COLOR), and the ways the mode
is turned on (flag, environment, setting, ctrl+r)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.screen import ModalScreen, Screen
from textual.widgets import Input

from engine.record import GameRecord, save_records
from engine.registry import GAMES, new_game
from tests.tui.conftest import enter_move, key_path, settle
from tui.app import main as tui_main
from tui.app.main import Launch, ParlorApp, screen_reader_default
from tui.app.screens.base import ParlorScreen
from tui.app.widgets import board_class
from tui.app.widgets.board import BoardWidget
from tui.app.widgets.reader import ReaderLine
from tui.link import client
from tui.player import settings

SIZE = (100, 40)


@pytest.fixture(autouse=True)
def fresh_room_brains() -> Any:
    """The rooms' brain lists are cached; these tests list the fake brains of
    tests/tui/conftest.py, so the cache is emptied after each (other tests want the real)."""
    from tui.game import opponents

    yield
    opponents.room_brains.cache_clear()


def drawn(ch: str) -> bool:
    """A box-drawing or block character (U+2500 to U+259F)."""
    return 0x2500 <= ord(ch) <= 0x259F


def screen_text(app: ParlorApp) -> str:
    """The screen as the terminal gets it (after the app's line filters: NO_COLOR's)."""
    from textual.color import Color

    lines = []
    for strip in app.screen._compositor.render_strips():
        segments = list(strip)
        for line_filter in app.get_line_filters():
            segments = line_filter.apply(segments, Color(0, 0, 0))
        lines.append("".join(segment.text for segment in segments))
    return "\n".join(lines)


def words(text: str) -> str:
    """``text`` with every run of blanks (wrapped lines too) as one space."""
    return " ".join(text.split())


def assert_plain(app: ParlorApp) -> str:
    """The screen's text, checked to hold no box drawing or block character."""
    text = screen_text(app)
    found = sorted({ch for ch in text if drawn(ch)})
    assert not found, f"{type(app.screen).__name__} draws {found}:\n{text}"
    return text


def live(app: ParlorApp) -> str:
    """The live line of the screen on top."""
    return app.screen.query_one(ReaderLine).text


def reader_app(launch: Launch | None = None) -> ParlorApp:
    return ParlorApp(launch, seed=1, screen_reader=True)


# -- every game, by keys alone ------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAMES))
async def test_every_game_is_played_by_keys_and_said_in_words(game: str) -> None:
    app = reader_app(Launch(kind="play", game=game, players=("human", "human")))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.query_one(BoardWidget)
        assert board.reader and app.has_class("-reader")
        for ply in range(3):
            text = assert_plain(app)
            for line in board.reader_lines():
                assert words(line) in words(text), (line, text)
            # a cursor key: the cursor's point is said, on the live line and on screen
            key = next(k for k in ("right", "up", "left", "down")
                       if board.neighbour(board.cursor, k) is not None)
            await pilot.press(key)
            await pilot.pause()
            assert board.cursor_line().startswith("cursor ")
            assert board.cursor_line() in live(app)
            assert words(board.cursor_line()) in words(assert_plain(app))
            # a move by keys: said as a sentence, with whose turn it is now
            state = board.state
            move = state.legal_moves()[ply % len(state.legal_moves())]
            await enter_move(pilot, move)
            assert board.state is not state and board.last_move == move
            sentence = board.said_move(state, move, board.state)
            assert sentence.startswith(f"{state.PLAYERS[state.to_move]} ")
            assert state.format_move(move) in sentence or "column" in sentence \
                or "passes" in sentence
            said = live(app)
            assert said.startswith(sentence), said
            if board.state.outcome() is None:
                assert f"{board.state.PLAYERS[board.state.to_move]} to move, your turn." in said
            assert words(sentence) in words(assert_plain(app))


async def test_against_a_brain_its_move_is_said_then_your_turn() -> None:
    app = reader_app(Launch(kind="play", game="tictactoe", players=("human", "first")))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert live(app).startswith("The start position. Your turn.")
        await pilot.press("enter")  # X b2; the brain answers a1
        await settle(pilot)
        assert live(app).splitlines()[0] == "O plays a1. Your turn."
        await pilot.press("u")  # taken back: said, not as a new move
        await settle(pilot)
        assert live(app).splitlines()[0] == "Back to the start. Your turn."


# -- every screen -----------------------------------------------------------------------------
class FakeLink(client.RoomLink):
    """A room service link that keeps what is sent (no host)."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[dict[str, Any]] = []

    @property
    def connected(self) -> bool:
        return True

    def send(self, message: dict[str, Any]) -> bool:
        self.sent.append(message)
        return True


def room_snapshot(moves: list[str]) -> dict[str, Any]:
    """A started tic-tac-toe room in which ``you`` play X."""
    return {"t": "room", "code": "ABCD", "game": "tictactoe", "options": {},
            "names": ["ann", "bob"], "moves": moves, "result": None, "termination": None,
            "clock": None, "offer": None, "present": [True, True], "started": True,
            "you": 0, "note": "", "brain": None, "rated": False, "rating": ""}


def records_file(folder: Path, count: int) -> Path:
    """A file of ``count`` short Connect Four games."""
    path = folder / f"games{count}.pgn"
    records = []
    for n in range(count):
        state, moves = new_game("connect4"), []
        for text in ("4", str(n % 7 + 1), "3"):
            move = state.parse_move(text)
            moves.append(move)
            state = state.play(move)
        records.append(GameRecord.from_moves(new_game("connect4"), moves, First="ann",
                                             Second="bob"))
    save_records(path, records)
    return path


async def _home(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)


async def _help(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)
    await pilot.press("f1")


async def _browser(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)
    await pilot.press("r")


async def _play(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)
    await pilot.press("p")
    await settle(pilot)


async def _choose(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await _play(pilot, tmp, mp)
    await pilot.press("g")


async def _prompt(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await _play(pilot, tmp, mp)
    await pilot.press("m")


async def _rooms(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)
    await pilot.press("f2")


async def _room_play(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await _rooms(pilot, tmp, mp)
    await pilot.pause()
    rooms = pilot.app.screen
    rooms.asked = True  # the service answers a join with the room
    rooms.on_service(room_snapshot(["b2", "a1"]))


def corr_snapshot(moves: list[str]) -> dict[str, Any]:
    """A correspondence game of tic-tac-toe in which ``you`` play X."""
    return {"t": "corr_game", "id": "corr-0123456789abcdef", "game": "tictactoe",
            "options": {}, "names": ["ann", "bob"], "you": 0, "days": 3,
            "moves": moves, "status": "your move" if len(moves) % 2 == 0 else "their move",
            "left": 200_000, "result": None, "termination": "", "to_move": len(moves) % 2}


async def _corr(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)
    await pilot.press("f8")


async def _corr_game(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await _corr(pilot, tmp, mp)
    await pilot.pause()
    games = pilot.app.screen
    games.asked = True  # the service answers an open with the game
    games.on_service(corr_snapshot(["b2", "a1"]))


async def _account(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)
    await pilot.press("f6")


async def _leaders(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)
    await pilot.press("f7")


async def _challenged(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)  # the host says someone challenges this player
    pilot.app.on_host({"t": "invited", "id": 1, "code": "ABCD", "from": "ann",
                       "game": "tictactoe", "options": {}, "clock": None})


async def _puzzles(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)
    await pilot.press("z")
    await settle(pilot)


async def _explorer(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await _play(pilot, tmp, mp)
    await pilot.press("x")
    await settle(pilot)


async def _launched(pilot: Any, tmp: Path, mp: pytest.MonkeyPatch) -> None:
    await settle(pilot)  # the launch (a file) opened the screen


def local(launch: Callable[[Path], Launch | None] = lambda tmp: None) -> Any:
    """An app in screen-reader mode opened with ``launch`` (given the test's folder)."""
    return lambda tmp: reader_app(launch(tmp))


def hosted(tmp: Path) -> ParlorApp:
    """The app as ``parlor host`` serves it (F2 opens the rooms), in screen-reader mode."""
    from tui.host.session import HostedApp

    return HostedApp(seed=1, screen_reader=True)


SCREENS: dict[str, tuple[Callable[[Path], ParlorApp], Any]] = {
    "HomeScreen": (local(), _home),
    "HelpScreen": (local(), _help),
    "BrowserScreen": (local(), _browser),
    "PlayScreen": (local(), _play),
    "ChooseDialog": (local(), _choose),
    "PromptDialog": (local(), _prompt),
    "RoomsScreen": (hosted, _rooms),
    "RoomPlayScreen": (hosted, _room_play),
    "AccountScreen": (hosted, _account),
    "CorrScreen": (hosted, _corr),
    "CorrGameScreen": (hosted, _corr_game),
    "LeadersScreen": (hosted, _leaders),
    "ChallengeDialog": (hosted, _challenged),
    "PuzzlesScreen": (local(), _puzzles),
    "ExplorerScreen": (local(), _explorer),
    "CollectionScreen": (local(lambda tmp: Launch(kind="replay", path=records_file(tmp, 3))),
                         _launched),
    "ReplayScreen": (local(lambda tmp: Launch(kind="replay", path=records_file(tmp, 1))),
                     _launched),
    "ErrorDialog": (local(lambda tmp: Launch(kind="replay", path=tmp / "missing.pgn")),
                    _launched),
}
"""Every screen and dialog of the app: what the app is launched with, and the keys that
lead there from it."""


def app_screens() -> set[str]:
    """Every screen and dialog class defined in the app's screens and dialogs packages."""
    import tui.app.dialogs
    import tui.app.screens

    found = set()
    for package in (tui.app.screens, tui.app.dialogs):
        for info in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"{package.__name__}.{info.name}")
            for name, cls in inspect.getmembers(module, inspect.isclass):
                if (cls.__module__ == module.__name__ and issubclass(cls, Screen)
                        and cls is not ParlorScreen):
                    found.add(name)
    return found


BASES = {"HostScreen", "HostedGameScreen"}
"""Screen classes that are only the base of others (never shown themselves)."""


def test_every_screen_of_the_app_is_walked_in_screen_reader_mode() -> None:
    assert app_screens() == set(SCREENS) | BASES


@pytest.mark.parametrize("name", sorted(SCREENS))
async def test_every_screen_reads_as_plain_lines(name: str, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    link = FakeLink()
    monkeypatch.setattr(client, "_link", link)

    async def get_link() -> FakeLink:
        return link

    monkeypatch.setattr(client, "get_link", get_link)
    make, walk = SCREENS[name]
    app = make(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await walk(pilot, tmp_path, monkeypatch)
        await pilot.pause()
        await pilot.pause()
        assert type(app.screen).__name__ == name
        assert app.animation_level == "none"
        assert isinstance(app.screen, (ParlorScreen, ModalScreen))
        if isinstance(app.screen, ParlorScreen):
            assert not app.screen.too_small
        text = assert_plain(app)
        assert text.strip()
        assert not [field for field in app.screen.query(Input) if field.cursor_blink]
        boards = app.screen.query(BoardWidget)
        if boards:
            board = boards.first()
            assert board.reader
            assert words(board.reader_lines()[0]) in words(text)
            assert app.screen.query_one(ReaderLine).display
        if name == "RoomPlayScreen":  # joined after two moves; then the next comes
            assert live(app).startswith("Now after: O plays a1. Your turn.")
            assert live(app).splitlines()[-1].startswith("cursor ")
            app.screen.on_service(room_snapshot(["b2", "a1", "c3"]))
            await pilot.pause()
            assert live(app) == "X plays c3. O to move (bob)…"


async def test_replay_and_its_analysis_are_read_by_keys(tmp_path: Path) -> None:
    from tui.app.widgets.analysis_panel import AnalysisPanel
    from tui.app.widgets.eval_graph import EvalGraph

    path = tmp_path / "blunder.pgn"
    path.write_text('[Game "tictactoe"]\n[First "x"]\n[Second "o"]\n[Result "1-0"]\n\n'
                    "1. b1 b2 2. c3 a3 3. c1 a2 4. a1 1-0\n", encoding="utf-8")
    app = reader_app(Launch(kind="replay", path=path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("home", "right")
        await pilot.pause()
        assert live(app) == "X plays b1. O to move."
        await pilot.press("e")  # the analysis, by key
        await settle(pilot)
        panel = app.screen.query_one(AnalysisPanel)
        assert panel.complete
        await pilot.press("end", "left", "left", "left")
        await pilot.pause()
        assert not app.screen.query_one(EvalGraph).display  # block characters: hidden
        text = assert_plain(app)
        assert words(str(panel.text(4))) in words(text)
        assert live(app).startswith("Now after: O plays a3.")


# -- golden text of every board --------------------------------------------------------------
GOLDEN: dict[str, tuple[str, list[str], str]] = {
    "tictactoe": ("b2 a1 c3", [
        "row 3: empty a to b, X c3",
        "row 2: empty a2, X b2, empty c2",
        "row 1: O a1, empty b to c",
    ], "X plays c3."),
    "connect4": ("4 4 3", [
        "column 1: empty", "column 2: empty",
        "column 3: Red, then 5 empty",
        "column 4: Red, Yellow, then 4 empty",
        "column 5: empty", "column 6: empty", "column 7: empty",
    ], "Red plays column 3, row 1."),
    "reversi": ("f5 f4 e3", [
        "row 1: empty", "row 2: empty",
        "row 3: empty a to d, Black e3, empty f to h",
        "row 4: empty a to c, White d4, Black e4, White f4, empty g to h",
        "row 5: empty a to c, Black d5 to f5, empty g to h",
        "row 6: empty", "row 7: empty", "row 8: empty",
    ], "Black plays e3, flipping 1."),
    "checkers": ("11-15 24-20 15-19", [
        "squares 1 to 4: Black man on 1 to 4",
        "squares 5 to 8: Black man on 5 to 8",
        "squares 9 to 12: Black man on 9, Black man on 10, empty 11, Black man on 12",
        "squares 13 to 16: empty",
        "squares 17 to 20: empty 17 to 18, Black man on 19, White man on 20",
        "squares 21 to 24: White man on 21 to 23, empty 24",
        "squares 25 to 28: White man on 25 to 28",
        "squares 29 to 32: White man on 29 to 32",
    ], "Black plays 15-19."),
    "morris": ("c4 b3 d3", [
        "row 5: a5 empty, c5 empty, e5 empty",
        "row 4: b4 empty, c4 White, d4 empty",
        "row 3: a3 empty, b3 Black, d3 White, e3 empty",
        "row 2: b2 empty, c2 empty, d2 empty",
        "row 1: a1 empty, c1 empty, e1 empty",
        "In hand: White 3, Black 4.",
    ], "White plays d3."),
    "gomoku": ("e5 f6 d4", [
        "row 9: empty", "row 8: empty", "row 7: empty",
        "row 6: empty a to e, White f6, empty g to i",
        "row 5: empty a to d, Black e5, empty f to i",
        "row 4: empty a to c, Black d4, empty e to i",
        "row 3: empty", "row 2: empty", "row 1: empty",
    ], "Black plays d4."),
}
"""Each game after three moves: its board in words, and the last move's sentence."""


def test_every_game_has_golden_words() -> None:
    assert set(GOLDEN) == set(GAMES)


def played(game: str, line: str) -> tuple[Any, Any, Any]:
    """The position before the last move of ``line``, that move, and the position."""
    state = new_game(game)
    before, move = state, None
    for text in line.split():
        before, move = state, state.parse_move(text)
        state = state.play(move)
    return before, move, state


@pytest.mark.parametrize("game", sorted(GOLDEN))
def test_each_board_in_words_matches_its_golden_text(game: str) -> None:
    line, lines, sentence = GOLDEN[game]
    before, move, state = played(game, line)
    board = board_class(game)(state)
    assert board.reader_lines() == lines
    assert board.said_move(before, move, state) == sentence


@pytest.mark.parametrize("no_color", [False, True], ids=["colour", "NO_COLOR"])
@pytest.mark.parametrize("game", sorted(GOLDEN))
async def test_each_board_on_screen_in_reader_mode_and_under_no_color(
        game: str, no_color: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if no_color:
        monkeypatch.setenv("NO_COLOR", "1")
    line, lines, sentence = GOLDEN[game]
    states = [new_game(game)]
    moves = []
    for text in line.split():
        moves.append(states[-1].parse_move(text))
        states.append(states[-1].play(moves[-1]))
    app = reader_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.play_from(states, moves, ("human", "human"))
        await settle(pilot)
        assert app.no_color == no_color
        text = assert_plain(app)
        for expected in lines:
            assert words(expected) in words(text)
        assert words(sentence) in words(text)  # said on resuming: "Now after: …"


@pytest.mark.parametrize("names", [None, {"a": 1, "b": 2}, ["ann"], ["ann", 7],
                                   ["ann", "bob\x1b[2J"], ["ann", "b" * 500], "ab"])
def test_a_rooms_names_that_are_not_two_short_texts_are_not_said(names: Any) -> None:
    from tui.app.widgets.reader import sides, turn_words

    assert sides(names) is None
    board = board_class("tictactoe")(new_game("tictactoe"))
    board.interactive = False
    assert turn_words(board, sides(names)) == "X to move."
    assert turn_words(board, sides(["ann", "bob"])) == "X to move (ann)…"


# -- turning it on ------------------------------------------------------------------------------
@pytest.mark.parametrize(("env", "expected"), [
    ({}, None),
    ({"PARLOR_SCREEN_READER": "1"}, True),
    ({"PARLOR_SCREEN_READER": "yes"}, True),
    ({"PARLOR_SCREEN_READER": "0", "ACCESSIBILITY": "1"}, False),
    ({"ACCESSIBILITY": "1"}, True),
    ({"ACCESSIBILITY": "0"}, None),
    ({"PARLOR_SCREEN_READER": "maybe\x1b[2J"}, None),
])
def test_the_environment_asks_for_screen_reader_mode(
        env: dict[str, str], expected: bool | None, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("PARLOR_SCREEN_READER", "ACCESSIBILITY"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    assert screen_reader_default() is expected


def test_the_setting_is_kept_and_a_bad_value_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    settings.save(settings.Settings(screen_reader=True), path)
    assert settings.load(path).screen_reader is True
    path.write_text('{"screen_reader": "yes", "theme": "nord"}', encoding="utf-8")
    loaded = settings.load(path)
    assert loaded.screen_reader is None and loaded.theme == "nord"


def test_parlor_screen_reader_starts_the_app_in_screen_reader_mode(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.cli import main

    started: list[bool | None] = []

    def run(self: ParlorApp, *args: Any, **kwargs: Any) -> None:
        started.append(self.screen_reader_choice)

    monkeypatch.setattr(tui_main.ParlorApp, "run", run)
    assert main(["--screen-reader"]) == 0
    assert main(["play", "--no-screen-reader"]) == 0
    assert main([]) == 0
    assert started == [True, False, None]


async def test_ctrl_r_turns_it_on_and_off_and_the_choice_is_remembered(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PARLOR_SCREEN_READER", raising=False)
    monkeypatch.delenv("ACCESSIBILITY", raising=False)
    app = ParlorApp(Launch(kind="play", game="reversi", players=("human", "human")), seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        board = app.screen.query_one(BoardWidget)
        assert not app.screen_reader and not board.reader
        assert any(drawn(ch) for ch in screen_text(app))  # frames, in the usual mode
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert app.screen_reader and board.reader and app.animation_level == "none"
        assert "row 4: empty a to c, White d4, Black e4, empty f to h" in assert_plain(app)
        assert settings.load().screen_reader is True
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert not app.screen_reader and not board.reader
        assert settings.load().screen_reader is False
    again = ParlorApp()  # the remembered choice applies at the next start
    settings.update(screen_reader=True)
    async with again.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert again.screen_reader and again.has_class("-reader")


async def test_the_cursor_is_walked_over_a_checkers_board_in_words() -> None:
    from tui.app.widgets.checkers_board import square_cell

    app = reader_app(Launch(kind="play", game="checkers", players=("human", "human")))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.query_one(BoardWidget)
        await pilot.press(*key_path(board, board.cursor, square_cell(11)))
        await pilot.pause()
        assert live(app).splitlines()[-1] == "cursor square 11: Black man, legal"
        await pilot.press("enter")
        await pilot.pause()
        assert live(app).splitlines()[-1] == "cursor square 11: Black man; chosen square 11"
