"""Pilot tests of the Play screen at 80×24: games ended by keys, undo, opponents, autosave."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widgets import OptionList

from engine.formats import load_records
from engine.protocol import State
from engine.record import GameRecord
from engine.registry import GAMES, new_game
from tests.tui.conftest import enter_move, settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.play import PlayScreen
from tui.app.widgets import board_class
from tui.app.widgets.board import BoardWidget

SIZE = (80, 24)
SHORT = {"reversi": {"size": 6}}
"""Options that keep a full game short, for the games whose defaults make a long one."""


def human_choice(board: BoardWidget, moves: tuple[Any, ...]) -> Any:
    """The test player's move: the one with the most steps (captures, removals), then the last."""
    return max(moves, key=lambda m: (len(board.steps(m)), moves.index(m)))


def play_app(game: str, options: dict[str, Any] | None = None,
             players: tuple[str, str] = ("human", "first")) -> ParlorApp:
    """An app that opens straight into a game."""
    return ParlorApp(Launch(kind="play", game=game, options=options or {}, players=players), seed=7)


def kept_record(screen: PlayScreen) -> GameRecord:
    """The record the store keeps for the game on ``screen`` (unfinished or finished)."""
    path = screen.store.unfinished_path
    return load_records(path if path.exists() else screen.store.history_path)[0]


def autosaved_moves(screen: PlayScreen) -> list[str]:
    """The moves kept for the game on ``screen``."""
    return kept_record(screen).moves


def key_test_line(game: str) -> tuple[list[State], list[Any]]:
    """The whole game the key test plays: the test player (first) against ``first``."""
    state = new_game(game, **SHORT.get(game, {}))
    board = board_class(game)(state)
    states, moves = [state], []
    while state.outcome() is None:
        if len(moves) % 2 == 0:
            board.state = state
            move = human_choice(board, state.legal_moves())
        else:
            move = state.legal_moves()[0]
        moves.append(move)
        state = state.play(move)
        states.append(state)
    return states, moves


def endgame_start(game: str, states: list[State], moves: list[Any]) -> int:
    """Where the key test takes over: the player's turn a few moves before the end, and
    before the last compound move (a capture chain, a mill's removal) if there is one."""
    board = board_class(game)(states[0])
    compound = [i for i in range(0, len(moves), 2) if len(board.steps(moves[i])) > 1]
    start = min(len(moves) - 6, (compound[-1] if compound else len(moves)) - 4)
    start = max(0, start)
    return start - start % 2


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_game_is_played_to_its_end_by_keys(game: str) -> None:
    """The end of a game (its last moves, compound ones included) entered by keys, from
    a position the app is given as a resumed game would be; each move is kept at once."""
    states, line = key_test_line(game)
    start = endgame_start(game, states, line)
    app = ParlorApp(seed=7)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.play_from(states[: start + 1], line[:start], ("human", "first"))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        board = screen.query_one(BoardWidget)
        expected = states[start]
        compound = 0
        while screen.state.outcome() is None:
            assert screen.human_to_move()
            move = human_choice(board, screen.state.legal_moves())
            compound += len(board.steps(move)) > 1
            expected = expected.play(move)
            if expected.outcome() is None:  # the brain replies with its first move
                expected = expected.play(expected.legal_moves()[0])
            await enter_move(pilot, move)
            assert screen.state.key() == expected.key()
            assert autosaved_moves(screen) == [s.format_move(m) for s, m in
                                               zip(screen.history, screen.moves, strict=False)]
        assert screen.moves == line
        outcome = screen.state.outcome()
        assert outcome is not None and outcome == expected.outcome()
        status = str(screen.query_one("#status").render())
        assert "Game over" in status and outcome.termination in status
        record = kept_record(screen)
        assert record.result == outcome.result.value
        assert screen.store.history_path.exists() and not screen.store.unfinished_path.exists()
        if game in ("checkers", "morris"):
            assert compound > 0, "the game should have exercised a compound move"


async def test_escape_cancels_a_half_made_move() -> None:
    app = play_app("checkers")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        board = screen.query_one(BoardWidget)
        move = screen.state.legal_moves()[0]
        from tests.tui.conftest import key_path

        await pilot.press(*key_path(board, board.cursor, board.steps(move)[0]), "enter")
        assert board.path == board.steps(move)[:1]
        assert board.targets() == {board.steps(m)[1] for m in screen.state.legal_moves()
                                   if board.steps(m)[0] == board.path[0]}
        await pilot.press("escape")
        assert board.path == ()
        assert len(screen.history) == 1


async def test_undo_returns_to_the_humans_previous_turn() -> None:
    app = play_app("tictactoe")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await enter_move(pilot, 4)
        await enter_move(pilot, 8)
        assert len(screen.moves) == 4
        await pilot.press("u")
        await settle(pilot)
        assert len(screen.moves) == 2 and screen.human_to_move()
        assert autosaved_moves(screen) == ["b2", "a1"]
        await pilot.press("u")
        await settle(pilot)
        assert screen.moves == [] and screen.human_to_move()


async def test_switching_opponent_drops_the_stale_result() -> None:
    app = play_app("connect4", players=("human", "slow"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("4")  # drop in column 4; the slow brain starts thinking
        await pilot.pause()
        assert len(screen.moves) == 1 and not screen.human_to_move()
        assert "thinking" in str(screen.query_one("#thinking").render())
        await pilot.press("o")  # choose "first" (human, first, last, slow)
        await pilot.press("home", "down", "enter")
        await settle(pilot)
        assert screen.players == ("human", "first")
        assert screen.dropped == 1  # the slow brain's answer (its last move) came back late
        assert screen.moves == [3, 0]  # first legal move, not the stale last one
        assert screen.human_to_move()


async def test_autosave_after_every_move_and_resume() -> None:
    app = play_app("connect4", players=("human", "last"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for column in "123":
            await pilot.press(column)
            await settle(pilot)
            assert autosaved_moves(app.screen) == [str(m + 1) for m in app.screen.moves]
        played = list(app.screen.moves)
        await pilot.press("q")
    resumed = ParlorApp(Launch(kind="resume"), seed=7)
    async with resumed.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = resumed.screen
        assert isinstance(screen, PlayScreen)
        assert screen.moves == played and screen.players == ("human", "last")
        assert screen.human_to_move()


async def test_home_offers_resume_of_the_unfinished_game() -> None:
    app = play_app("tictactoe")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await enter_move(pilot, 4)
    home = ParlorApp()
    async with home.run_test(size=SIZE) as pilot:
        await pilot.pause()
        listing = home.screen.query_one("#unfinished", OptionList)
        assert "Tic-tac-toe, move 2: human v first" in str(listing.get_option_at_index(0).prompt)
        await pilot.press("c")
        await settle(pilot)
        assert isinstance(home.screen, PlayScreen) and len(home.screen.moves) == 2


async def test_typed_move_and_a_clear_error() -> None:
    app = play_app("tictactoe")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("m", "z", "9", "enter")
        await settle(pilot)
        assert app.screen.moves == []
        assert any("invalid tictactoe move 'z9'" in str(n.message) for n in app._notifications)
        await pilot.press("m", "c", "3", "enter")
        await settle(pilot)
        assert app.screen.moves[0] == 8


async def test_hint_is_shown_on_the_board() -> None:
    app = play_app("reversi")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        board = app.screen.query_one(BoardWidget)
        assert board.hint in app.screen.state.legal_moves()
        assert ">" in str(board.render())
        assert "not proven" in app.screen.message  # Reversi has no solver here: a search


async def test_switch_game_by_key() -> None:
    app = play_app("tictactoe")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("g")
        await pilot.press("home", "down", "enter")  # the games in registry order: connect4 2nd
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen.game_id == "connect4"
        assert app.screen.players == ("human", "first")


async def test_small_terminal_shows_enlarge_notice() -> None:
    app = play_app("checkers")
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        notice = app.screen.query_one("#too-small")
        assert notice.display and "enlarge to 62×18" in str(notice.render())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not notice.display
