"""Pilot tests of what must never break the app: failing brains, terminals, keys by name.

Also one slow end-to-end test: ``parlor play`` in a pseudo-terminal, one move, then
SIGHUP (the terminal closes, the SSH connection drops); the game must be resumable.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.color import ColorSystem

from brains.learned.store import ModelError
from brains.protocol import Brain, Budget, Thought
from engine.protocol import State
from engine.registry import GAMES
from tests.tui import conftest
from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.home import HomeScreen
from tui.app.screens.play import PlayScreen
from tui.app.screens.replay import ReplayScreen
from tui.app.widgets.board import BoardWidget
from tui.game import opponents
from tui.player import paths, store

SIZE = (80, 24)
ROOT = Path(__file__).resolve().parents[2]


class CrashingMover(Brain):
    """Raises while thinking, as a buggy brain would."""

    name = "crash"

    def think(self, state: State, budget: Budget) -> Iterator[Thought]:
        raise RuntimeError("search blew up")
        yield  # pragma: no cover


@pytest.fixture(autouse=True)
def failing_brains(monkeypatch: pytest.MonkeyPatch) -> None:
    """Add ``broken`` (its model will not load) and ``crash`` to the test brains."""
    def make(spec: str, game_id: str, seed: int | None = None) -> Brain:
        if spec == "broken":
            raise ModelError(f"/srv/models/{game_id}-mlp.joblib: not listed in the manifest")
        if spec == "crash":
            return CrashingMover(game_id, seed=seed, spec=spec)
        return conftest.fake_make_brain(spec, game_id, seed)
    monkeypatch.setattr(opponents, "make_brain", make)


def play_app(game: str, players: tuple[str, str], **kw: Any) -> ParlorApp:
    """An app that opens straight into a game."""
    return ParlorApp(Launch(kind="play", game=game, players=players), seed=3, **kw)


def status(app: ParlorApp) -> str:
    """The text of the Play screen's status box."""
    return str(app.screen.query_one("#status").render())


async def test_a_brain_whose_model_cannot_load_is_a_message_then_another_can_play() -> None:
    app = play_app("tictactoe", ("human", "broken"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # the cursor starts on a legal square
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and len(screen.moves) == 1
        text = status(app)
        assert "broken cannot play" in text and "not listed in the manifest" in text
        assert "tictactoe-mlp.joblib" in text and "/srv" not in text  # names, not paths
        assert "press o" in text
        await pilot.press("o", "home", "down", "enter")  # human, first, ...
        await settle(pilot)
        assert screen.players == ("human", "first") and len(screen.moves) == 2
        assert screen.human_to_move()


async def test_a_brain_that_raises_while_thinking_is_a_message() -> None:
    app = play_app("connect4", ("human", "crash"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("4")
        await settle(pilot)
        assert app.is_running and len(app.screen.moves) == 1
        assert "brain failed: crash: search blew up" in status(app)


async def test_a_hint_that_fails_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    from tui.app import hints

    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("analysis blew up")

    monkeypatch.setattr(hints, "best_hint", broken)
    app = play_app("reversi", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await settle(pilot)
        assert "no hint: analysis blew up" in status(app)
        assert app.screen.query_one(BoardWidget).hint is None


async def test_b_switches_to_a_plain_ascii_board_and_back() -> None:
    app = play_app("checkers", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        board = app.screen.query_one(BoardWidget)
        assert not str(board.render()).isascii()
        await pilot.press("b")
        assert board.ascii and str(board.render()).isascii()
        await pilot.press("b")
        assert not board.ascii and not str(board.render()).isascii()


def test_parlor_ascii_without_a_command_opens_the_app_in_ascii(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tui import cli

    seen: list[tuple[bool, str | None]] = []
    monkeypatch.setattr(ParlorApp, "run", lambda self: seen.append(
        (self.ascii_board, self.launch.kind)))
    assert cli.main(["--ascii"]) == 0
    assert seen == [(True, "home")]


async def test_the_command_palette_offers_each_screens_keys_by_name(tmp_path: Path) -> None:
    app = play_app("tictactoe", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        for wanted in ("Game (g)", "Opponent (o)", "New (n)", "Undo (u)", "Hint (t)",
                       "Save (s)", "Saved (r)", "Help (?)", "ASCII board (b)"):
            assert wanted in titles
        home = app.screen_stack[1]
        assert isinstance(home, HomeScreen)
        assert "Play (p)" in {c.title for c in app.get_system_commands(home)}
        example = min(paths.examples_dir().glob("*.pgn"))
        app.open_replay_file(example)
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Play here (p)", "Autoplay (a)", "Saved games"} <= titles
        # the palette runs a command with call_later; it does what the key does
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "Start (home)")
        app.call_later(command.callback)
        await pilot.pause()
        await pilot.pause()
        assert app.screen.index == 0


THEMES = ("textual-dark", "textual-light", "catppuccin-latte",
          *(pytest.param(t, marks=pytest.mark.slow) for t in (
              "solarized-light", "rose-pine-dawn", "nord", "catppuccin-mocha", "ansi-light")))
"""Dark and light themes, the light ones that once drew white on white among them (the
last ones only in the slow run)."""
PIECES = set("●○◆◇XO")


@pytest.mark.parametrize("theme", THEMES)
async def test_every_piece_stands_out_from_the_square_under_it_in_every_theme(theme: str) -> None:
    """Each piece drawn on each board, against the background it is drawn on, differs in
    brightness (so it reads in colour, 16 colours and NO_COLOR greys) and in 16 colours."""
    app = play_app("checkers", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        app.theme = theme
        for game in GAMES:
            app.start_game(game, {}, ("human", "human"))
            await settle(pilot)
            screen = app.screen
            assert isinstance(screen, PlayScreen)
            for _ in range(2):  # both colours on every board
                screen.play(screen.state.legal_moves()[0])
            await settle(pilot)
            board = screen.query_one(BoardWidget)
            canvas = board.base_canvas()
            behind = board.background_colors[1].rich_color
            seen = set()
            for y in range(canvas.height):
                for x in range(canvas.width):
                    style = canvas.styles[y][x]
                    if canvas.chars[y][x] not in PIECES or style is None or style.reverse:
                        continue
                    colour, bg = style.color, style.bgcolor or behind
                    assert colour is not None and bg is not None
                    seen.add(canvas.chars[y][x])
                    if colour.is_default and bg.is_default:
                        continue  # the terminal's own text colour on its own background
                    contrast = abs(brightness(colour.get_truecolor())
                                   - brightness(bg.get_truecolor()))
                    assert contrast > 0.2, (theme, game, canvas.chars[y][x], contrast)
                    standard = ColorSystem.STANDARD
                    assert colour.downgrade(standard).number != bg.downgrade(standard).number
            assert len(seen) >= 2, (game, seen)


def brightness(rgb: Any) -> float:
    """Perceived brightness in 0..1 (the weights Textual's monochrome filter uses)."""
    r, g, b = rgb
    return (299 * r + 587 * g + 114 * b) / 255_000


@pytest.mark.slow
def test_sighup_loses_nothing_and_the_game_resumes(tmp_path: Path) -> None:
    """A real ``parlor play`` in a pseudo-terminal: one move, SIGHUP, then resume."""
    import fcntl
    import pty
    import struct
    import termios

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "play", "--game", "tictactoe", "--first", "human",
         "--second", "random", "--seed", "1"],
        stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, start_new_session=True)
    os.close(slave)
    folder = tmp_path / "data" / "parlor" / "unfinished"
    try:
        screen = bytearray()
        wait_for(lambda: drain(master, screen) and b"to move" in screen, "the game to show")
        os.write(master, b"\r")  # Enter: the cursor starts on a legal square
        wait_for(lambda: drain(master) and [len(read_moves(p)) for p in folder.glob("*.pgn")]
                 == [2], "two moves saved")
        proc.send_signal(signal.SIGHUP)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert paths.unfinished_dir() == folder  # tui_env points XDG_DATA_HOME there too
    record = store.most_recent_unfinished()
    assert record is not None and len(record.moves) == 2 and record.result == "*"


def read_moves(path: Path) -> list[str]:
    """The moves of the record at ``path`` ([] while it is not readable)."""
    from engine.formats import load_records

    try:
        return load_records(path)[0].moves
    except (ValueError, IndexError):
        return []


def drain(fd: int, into: bytearray | None = None) -> bool:
    """Read whatever the app wrote to the terminal (so it never blocks), appending it to
    ``into`` if given; always True."""
    import select

    while select.select([fd], [], [], 0.05)[0]:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        if into is not None:
            into.extend(data)
    return True


def wait_for(check: Any, what: str, seconds: float = 30.0) -> None:
    """Poll ``check`` until it is true; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")


async def test_a_resumed_game_puts_the_cursor_on_a_free_square() -> None:
    app = play_app("tictactoe", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("enter")  # b2 (the centre), then the brain plays a1
        await settle(pilot)
        app.resume()
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and len(screen.moves) == 2
        board = screen.query_one(BoardWidget)
        assert board.cursor in screen.state.legal_moves()


def test_serve_without_the_extra_says_how_to_install_it(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from tui import cli

    monkeypatch.setitem(sys.modules, "textual_serve", None)  # as if not installed
    monkeypatch.setitem(sys.modules, "textual_serve.server", None)
    assert cli.main(["serve"]) == 1
    err = capsys.readouterr().err
    assert "textual-serve is not installed" in err and "parlor[serve]" in err
