"""Pilot tests of the player's comforts: back to Home, remembered choices and theme,
ASCII by terminal, the too-small screen blocking keys."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from textual.widgets import Select

from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from tui.game.opponents import brain_specs as REAL_BRAIN_SPECS  # before the fixtures patch it
from tui.player import settings

SIZE = (80, 24)


def play_app(game: str, players: tuple[str, str] = ("human", "first"), **options: Any) -> ParlorApp:
    return ParlorApp(Launch(kind="play", game=game, options=options, players=players), seed=7)


async def test_escape_goes_back_to_home_and_the_game_stays_listed() -> None:
    app = play_app("tictactoe")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # a move, so the game is kept
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
        assert len(app.screen.unfinished) == 1


async def test_escape_first_drops_a_half_made_move_then_goes_home() -> None:
    app = play_app("checkers")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        board.path = (board.steps(app.screen.state.legal_moves()[0])[0],)
        await pilot.press("escape")
        assert isinstance(app.screen, PlayScreen) and board.path == ()
        await pilot.press("escape")
        assert isinstance(app.screen, HomeScreen)


async def test_the_palette_offers_home_from_a_game() -> None:
    app = play_app("tictactoe")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Home" in titles
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Home")
        command.callback()
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)


async def test_home_remembers_game_options_and_sides() -> None:
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        home = app.screen
        home.query_one("#game", Select).value = "reversi"
        await pilot.pause()
        home.query_one("#opt-reversi-size", Select).value = 6
        home.query_one("#first", Select).value = "last"
        home.query_one("#second", Select).value = "human"
        await pilot.pause()
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen.players == ("last", "human")
    saved = json.loads(settings.settings_path().read_text())
    assert saved["game"] == "reversi" and saved["options"]["reversi"]["size"] == 6
    again = ParlorApp()
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        home = again.screen
        assert isinstance(home, HomeScreen)
        assert home.game_id == "reversi"
        assert home.query_one("#opt-reversi-size", Select).value == 6
        assert home.sides() == ("last", "human")


@pytest.mark.parametrize("content", [
    b"{not json", b"\xff\xfe", b"[1, 2]", b'{"game": 5, "options": [], "players": {"reversi": 3}}',
    b'{"game": "nope", "options": {"reversi": {"size": 7, "variant": "evil"}}, "theme": 3}',
    b'{"players": {"tictactoe": ["x" , "' + b"y" * 500 + b'"]}}',
    b"[" * 100000,
])
async def test_a_damaged_settings_file_gives_the_defaults(content: bytes) -> None:
    path = settings.settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content)
    loaded = settings.load()
    assert loaded.game is None and loaded.theme is None and loaded.players == {}
    assert all(v not in (7, "evil") for opts in loaded.options.values() for v in opts.values())
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen) and app.screen.game_id == "tictactoe"


def test_settings_are_checked_field_by_field() -> None:
    data = {"game": "connect4", "theme": "nord",
            "options": {"reversi": {"size": 6, "variant": "evil", "seed": "12"}},
            "players": {"connect4": ["human", "first"], "morris": ["a"]}}
    loaded = settings.from_json(data)
    assert loaded.game == "connect4" and loaded.theme == "nord"
    assert loaded.options == {"reversi": {"size": 6, "seed": "12"}}
    assert loaded.players == {"connect4": ("human", "first")}


def test_settings_are_written_atomically(monkeypatch: pytest.MonkeyPatch) -> None:
    settings.save(settings.Settings(game="connect4"))
    before = settings.settings_path().read_bytes()

    def broken(*args: Any, **kwargs: Any) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError):
        settings.save(settings.Settings(game="reversi"))
    assert settings.settings_path().read_bytes() == before
    assert [p.name for p in settings.settings_path().parent.iterdir()] == ["settings.json"]


async def test_the_theme_is_remembered() -> None:
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.theme = "catppuccin-latte"
        await pilot.pause()
    assert settings.load().theme == "catppuccin-latte"
    again = ParlorApp()
    async with again.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert again.theme == "catppuccin-latte"


def test_term_linux_picks_ascii(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TERM", "linux")
    assert ParlorApp().ascii_board
    assert not ParlorApp(ascii_board=False).ascii_board
    monkeypatch.setenv("TERM", "xterm-256color")
    assert not ParlorApp().ascii_board


async def test_keys_do_nothing_behind_the_too_small_notice() -> None:
    app = ParlorApp()
    async with app.run_test(size=(50, 12)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen) and app.screen.too_small
        await pilot.press("p")
        await settle(pilot)
        assert isinstance(app.screen, HomeScreen)
    app = play_app("tictactoe")
    async with app.run_test(size=(50, 12)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and screen.too_small
        await pilot.press("enter")
        await settle(pilot)
        assert screen.moves == []
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not screen.too_small
        await pilot.press("enter")
        await settle(pilot)
        assert len(screen.moves) == 2


@pytest.mark.parametrize("game, fits", [("tictactoe", (79, 24)), ("tictactoe", (60, 16)),
                                        ("checkers", (79, 24)), ("connect4", (70, 20))])
async def test_the_smallest_terminal_depends_on_the_game(game: str, fits: tuple[int, int]) -> None:
    app = play_app(game)
    async with app.run_test(size=fits) as pilot:
        await settle(pilot)
        assert not app.screen.too_small
    app = play_app(game)
    async with app.run_test(size=(fits[0] - 30, fits[1] - 8)) as pilot:
        await settle(pilot)
        assert app.screen.too_small


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "checkers", "reversi", "morris"])
async def test_boards_grow_on_a_large_terminal(game: str) -> None:
    app = play_app(game)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        board = app.screen.board
        base = board.base_canvas()
        assert board.scale >= 2
        assert board.canvas().width == base.width * board.scale
        assert board.size.width >= base.width * 2 and board.size.height >= base.height * 2
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert board.canvas().height * 1 <= 24 - 8


async def test_flip_turns_the_board_and_the_cursor_keys_follow() -> None:
    app = play_app("checkers", ("first", "human"))  # the human plays White, drawn at the bottom
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        assert not board.flipped
        text = board.canvas().to_text().plain.splitlines()
        assert "○" in text[-1] and "●" in text[1]
        start = board.cursor
        await pilot.press("up")
        above = board.cursor
        assert board.coord(above)[1] > board.coord(start)[1]
        await pilot.press("f")
        assert board.flipped
        text = board.canvas().to_text().plain.splitlines()
        assert "●" in text[-2] and "○" in text[0] and text[-1].split()[0] == "h"
        assert text[0].split()[0] == "32"  # labels stay readable
        await pilot.press("up")
        assert board.coord(board.cursor)[1] < board.coord(above)[1]


async def test_a_person_playing_black_in_checkers_sees_black_at_the_bottom() -> None:
    app = play_app("checkers", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        assert board.flipped
        text = board.canvas().to_text().plain.splitlines()
        assert "●" in text[-2] and "○" in text[0]


async def test_clicking_a_square_plays_there() -> None:
    app = play_app("tictactoe", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        canvas = board.canvas()
        (x, y) = next(xy for xy, p in canvas.hits.items() if p == 0)  # a1
        await pilot.click(board, offset=(x + 2, y + 1))  # + its border and padding
        await settle(pilot)
        assert app.screen.moves == [0]


async def test_clicking_a_connect_four_column_drops_a_disc() -> None:
    app = play_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        canvas = board.canvas()
        (x, y) = max((xy for xy, p in canvas.hits.items() if p == 6), key=lambda xy: xy[1])
        await pilot.click(board, offset=(x + 2, y + 1))
        await settle(pilot)
        assert app.screen.moves == [6]


async def play_moves(pilot: Any, screen: PlayScreen, moves: list[Any]) -> None:
    for move in moves:
        screen.play(move)
    await settle(pilot)


async def test_the_winning_line_is_marked() -> None:
    app = play_app("tictactoe", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await play_moves(pilot, screen, [0, 3, 1, 4, 2])  # X: a1 b1 c1
        board = screen.board
        assert board.lit == {0, 1, 2}
        assert board.base_canvas().to_text().plain.count("*X*") == 3
    app = play_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await play_moves(pilot, screen, [0, 1, 0, 1, 0, 1, 0])
        assert screen.board.winning_cells() == {(0, 0), (0, 1), (0, 2), (0, 3)}
        assert screen.board.base_canvas().to_text().plain.count("*") == 8


async def test_flipped_discs_and_taken_pieces_are_marked() -> None:
    app = play_app("reversi", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        before = screen.state
        move = before.legal_moves()[0]
        await play_moves(pilot, screen, [move])
        flipped = {sq for sq in range(64) if before.cell(sq) not in (None, screen.state.cell(sq))}
        assert len(flipped) == 1 and screen.board.lit == flipped
    app = play_app("checkers", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        for text in ("11-15", "24-20", "15-19", "23x16"):
            screen.play(screen.state.parse_move(text))
        await settle(pilot)
        from tui.app.widgets.checkers_board import square_cell
        assert screen.board.gone == {square_cell(19)}
        assert "×" in screen.board.base_canvas().to_text().plain


async def test_a_mill_and_the_piece_it_took_are_marked() -> None:
    from tests.tui.test_play import key_test_line
    _, moves = key_test_line("morris")
    at = next(i for i, m in enumerate(moves) if m[-1] is not None)
    app = play_app("morris", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await play_moves(pilot, screen, moves[: at + 1])
        board = screen.board
        assert len(board.lit) == 3 and moves[at][1] in board.lit
        assert board.gone == {moves[at][-1]}
        assert board.base_canvas().to_text().plain.count("*") >= 6


async def test_the_cursor_keeps_the_other_mark_visible() -> None:
    app = play_app("tictactoe", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await play_moves(pilot, screen, [4])
        board = screen.board
        board.cursor = 4  # on the last move
        await pilot.pause()
        assert "[X)" in board.base_canvas().to_text().plain
        assert board.marks(4, piece_target=True)[:2] == ["cursor", "target"]
        board.cursor = 0
        assert board.marks(4, piece_target=True) == ["target", "last"]  # +O+, not (O)


async def test_the_checkers_cursor_stands_only_on_dark_squares() -> None:
    from tui.app.widgets.checkers_board import CELL_SQUARE
    app = play_app("checkers", ("first", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.board
        seen = {board.cursor}
        for key in ["up", "up", "left", "down", "right", "right", "up", "left"] * 3:
            await pilot.press(key)
            seen.add(board.cursor)
        assert seen <= set(CELL_SQUARE) and len(seen) > 4
        from tui.app.widgets.checkers_board import square_cell
        board.cursor = start = square_cell(22)
        await pilot.press("up")
        x0, y0 = board.coord(start)
        x1, y1 = board.coord(board.cursor)
        assert (abs(x1 - x0), y1 - y0) == (1, 1)  # one diagonal step for one press


def screen_text(app: ParlorApp) -> str:
    """The characters on the screen, row by row."""
    strips = app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)


@pytest.mark.parametrize("game", ["checkers", "connect4", "morris"])
async def test_ascii_mode_draws_the_whole_screen_in_ascii(game: str) -> None:
    app = ParlorApp(Launch(kind="play", game=game, players=("human", "first")),
                    ascii_board=True, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        text = screen_text(app)
        assert text.isascii(), sorted({c for c in text if not c.isascii()})
        await pilot.press("escape")  # Home: buttons, lists, pickers
        await settle(pilot)
        text = screen_text(app)
        assert "Play" in text and text.isascii(), sorted({c for c in text if not c.isascii()})
        await pilot.press("b")  # and back to Unicode
        await settle(pilot)
        assert not screen_text(app).isascii()


async def refused_text(pilot: Any, app: ParlorApp, point: Any) -> str:
    board = app.screen.board
    board.cursor = point
    await pilot.press("enter")
    await pilot.pause()
    return app.screen.message


async def test_a_refused_selection_says_why_in_words() -> None:
    app = play_app("tictactoe", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await play_moves(pilot, app.screen, [4])
        assert await refused_text(pilot, app, 4) == "that square is taken"
        assert "that square is taken" in str(app.screen.query_one("#status").render())
    app = play_app("connect4", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await play_moves(pilot, app.screen, [2] * 6)
        assert await refused_text(pilot, app, 2) == "column 3 is full"
    app = play_app("checkers", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        for text in ("11-15", "22-18"):
            screen.play(screen.state.parse_move(text))
        await settle(pilot)  # Black must take 15x22
        from tui.app.widgets.checkers_board import square_cell
        jumps = [screen.state.format_move(m) for m in screen.state.legal_moves()]
        assert all("x" in j for j in jumps)
        why = await refused_text(pilot, app, square_cell(9))
        assert why.startswith("you must capture: ") and jumps[0] in why
        app.screen.typed_move("9-14")
        assert app.screen.message.startswith("you must capture: ")
        assert "ply" not in app.screen.message


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
        await play_moves(pilot, screen, [3, 3])
        await pilot.press("t")
        await settle(pilot)
        assert screen.board.hint in screen.state.legal_moves()
        assert "alphabeta:hard: search score" in screen.message and "not proven" in screen.message


async def test_the_record_says_who_played_which_moves_and_replay_shows_it() -> None:
    app = play_app("tictactoe", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("enter")  # human X, then "first" answers
        await settle(pilot)
        screen.set_player(1, "last")  # O is played by another brain from here
        await settle(pilot)
        screen.play(screen.state.legal_moves()[0])
        await settle(pilot)
        record = screen.record()
        assert record.tags["Second"] == "last"
        assert "O is now last (was first)" in record.comments[2]
        text = record.to_text()
    from engine.formats import parse_records
    from tui.game.session import players_by_move
    again = parse_records(text, source="test")[0]
    assert players_by_move(again, again.states()) == ["human", "first", "human", "last"]
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_replay(again)
        await settle(pilot)
        await pilot.press("left", "left")
        await pilot.pause()
        assert "by first" in str(app.screen.query_one("#status").render())
        await pilot.press("end")
        await pilot.pause()
        assert "by last" in str(app.screen.query_one("#status").render())


async def test_playing_on_from_a_replay_records_the_new_players() -> None:
    from engine.record import GameRecord
    from engine.registry import new_game
    state = new_game("tictactoe")
    record = GameRecord.from_moves(state, [4, 0], First="alice", Second="bob")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.play_record(record, 2, ("human", "first"))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        screen.play(screen.state.legal_moves()[0])
        await settle(pilot)
        from tui.game.session import players_by_move
        kept = screen.record()
        assert players_by_move(kept, kept.states()) == ["alice", "bob", "human", "first"]


def test_help_gives_each_games_rules_in_short() -> None:
    from engine.registry import GAMES
    from tui.app.screens.help import RULES
    assert set(RULES) == set(GAMES)
    assert "fly" in RULES["morris"] and "compulsory" in RULES["checkers"]
    assert "flipcolor" in RULES["reversi"]


async def test_help_shows_the_rules() -> None:
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        text = str(app.screen.query_one("#help-rules").render())
        assert "Five Men's Morris" in text and "you may fly" in text


async def test_a_rule_change_is_announced_when_it_happens() -> None:
    from engine.registry import new_game
    from tests.tui.test_play import key_test_line
    from tui.app.screens.play import rule_news
    states, moves = key_test_line("morris")
    flips = [(i, rule_news(states[i], states[i + 1])) for i in range(len(moves))]
    news = [(i, text) for i, text in flips if text]
    assert news, "the test game should bring a side down to three"
    i, text = news[0]
    assert "down to three" in text and "may fly" in text
    assert rule_news(new_game("tictactoe"), new_game("tictactoe").play(4)) == ""
    app = play_app("morris", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await play_moves(pilot, app.screen, moves[: i + 1])
        assert "may fly" in str(app.screen.query_one("#status").render())


def test_the_opponent_chooser_is_grouped_and_described() -> None:
    from tui.app.dialogs.choose import HEADING
    from tui.game import opponents
    specs = ["human", "random", "greedy", "minimax:easy", "minimax:hard", "alphabeta:easy",
             "alphabeta:hard", "mcts:medium", "perfect", "qlearn", "linear", "mlp", "newbrain"]
    choices = opponents.grouped_choices(specs, HEADING)
    values = [v for _, v in choices if v is not HEADING]
    assert sorted(values) == sorted(specs)  # every opponent once
    headings = [label for label, v in choices if v is HEADING]
    assert headings[0] == "── People ──" and any("Exact" in h for h in headings)
    label = next(label for label, v in choices if v == "perfect")
    assert "solved" in label
    assert all(": " in label for label, v in choices if v not in (HEADING, "newbrain"))
    assert headings[-1] == "── Others ──" and values[-1] == "newbrain"  # unknown kinds last


async def open_browser(pilot: Any, app: ParlorApp) -> Any:
    from tui.app.screens.browser import BrowserScreen
    await settle(pilot)
    await pilot.press("r")
    await settle(pilot)
    assert isinstance(app.screen, BrowserScreen)
    return app.screen


async def test_the_browser_at_80_columns_tells_damaged_files_apart_and_end_goes_last() -> None:
    from textual.widgets import DataTable

    from tui.player import paths
    folder = paths.saved_games_dir()
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("a-very-long-name-of-a-damaged-game-number-1.pgn",
                 "a-very-long-name-of-a-damaged-game-number-2.pgn"):
        folder.joinpath(name).write_text('[Game "connect4"]\n\n1. 9 *\n', encoding="utf-8")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        browser = await open_browser(pilot, app)
        text = screen_text(app)
        assert "r-1.pgn" in text and "r-2.pgn" in text  # cut in the middle: the ends differ
        assert all(len(line) <= 80 for line in text.splitlines())
        await pilot.press("end")
        assert browser.query_one(DataTable).cursor_row == len(browser.entries) - 1
        await pilot.press("home")
        assert browser.query_one(DataTable).cursor_row == 0


async def test_a_saved_game_is_deleted_and_renamed_after_asking_never_over_another() -> None:
    from tests.tui.test_replay import write_record
    from tui.player import paths
    folder = paths.saved_games_dir()
    write_record(folder / "one.pgn")
    write_record(folder / "two.pgn")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        browser = await open_browser(pilot, app)
        names = [e.path.name for e in browser.entries]
        await pilot.press(*["down"] * names.index("one.pgn"))
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*["backspace"] * 10, *"two", "enter")  # taken: refused
        await settle(pilot)
        assert "already" in str(app.screen.query_one("#error-message").render())
        await pilot.press("escape")
        assert (folder / "one.pgn").exists() and (folder / "two.pgn").exists()
        await pilot.press("n")
        await pilot.pause()
        await pilot.press(*["backspace"] * 10, *"ché ckers: 1", "enter")
        await settle(pilot)
        assert sorted(p.name for p in folder.iterdir()) == ["ché ckers- 1.pgn", "two.pgn"]
        names = [e.path.name for e in browser.entries]
        await pilot.press("home", *["down"] * names.index("two.pgn"), "d")
        await pilot.pause()
        await pilot.press("escape")  # cancelled: kept
        assert (folder / "two.pgn").exists()
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("down", "enter")  # "Delete it"
        await settle(pilot)
        assert not (folder / "two.pgn").exists()
        names = [e.path.name for e in browser.entries if e.path.parent == folder]
        assert names == ["ché ckers- 1.pgn"]


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
    monkeypatch.setattr(play, "DEFAULT_PACE", 4.0)  # far longer than the test takes
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
        for _ in range(10):
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
    assert hint is not None and hint.exact and hint.source == "exact"
    best = max(-reversi_endgame.solve(state.play(m)).score if state.play(m).to_move != state.to_move
               else reversi_endgame.solve(state.play(m)).score for m in state.legal_moves())
    child = state.play(hint.move)
    got = reversi_endgame.solve(child).score
    assert (got if child.to_move == state.to_move else -got) == best

    morris = new_game("morris").play_line("b2 a1 c2")
    hint = best_hint(morris, threading.Event())
    assert hint is not None and hint.exact and hint.source == "perfect"
    assert hint.move in shared().best_moves(morris)


def test_home_side_pickers_are_grouped_and_described() -> None:
    from tui.app.screens.home import side_choices
    from tui.game import opponents

    specs = [opponents.HUMAN, *REAL_BRAIN_SPECS("connect4")]
    choices = side_choices(specs)
    assert sorted(value for _, value in choices) == sorted(specs)  # every spec, once
    assert choices[0][1] == opponents.HUMAN  # people first, then the strongest kinds
    assert all(label.startswith(f"{value}: ") and len(label) > len(value) + 5
               for label, value in choices)
    kinds = [value.partition(":")[0] for _, value in choices]
    assert kinds.index("perfect") < kinds.index("alphabeta") < kinds.index("random")


def test_the_opponent_pickers_show_each_rated_levels_rating() -> None:
    from brains import registry
    from tui.app.screens.home import side_choices
    from tui.game import opponents

    specs = [opponents.HUMAN, *REAL_BRAIN_SPECS("reversi")]
    labels = dict((value, label) for label, value in side_choices(specs, "reversi"))
    rows = registry.ladder_table("reversi")
    assert len(rows) >= 8
    for row in rows:
        label = labels[f"level:{row['level']}"]
        assert f"rated {round(row['rating'])} ±" in label
