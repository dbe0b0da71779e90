"""An Othello game in the app against an external GTP engine, played to the end."""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path

from textual.worker import WorkerCancelled

from brains import registry
from engine.formats import load_records
from tests.brains.test_external import FAKE_GTP
from tests.tui.conftest import fake_make_brain, key_path
from tui.app.main import Launch, ParlorApp
from tui.app.screens.play import PlayScreen
from tui.app.widgets.board import BoardWidget
from tui.game import opponents

ROOT = Path(__file__).resolve().parents[2]


async def settle(pilot) -> None:
    """Let the engine's worker finish (it takes a moment: another process answers)."""
    for _ in range(200):
        with contextlib.suppress(WorkerCancelled):
            await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        if not any(w.is_running for w in pilot.app.workers):
            return


async def enter_move(pilot, move) -> None:
    """Enter ``move`` with cursor keys and Enter, then wait for the engine's reply."""
    board = pilot.app.screen.query_one(BoardWidget)
    for step in board.steps(move) or ():
        await pilot.press(*key_path(board, board.cursor, step))
        await pilot.press("enter")
    if not board.steps(move):
        await pilot.press("enter")
    await settle(pilot)


def _configure(tmp_path, monkeypatch) -> None:
    """Fake GTP engines in a fresh engines.toml, and the real brains for external:NAME."""
    config = tmp_path / "config" / "parlor"
    config.mkdir(parents=True)
    lines = []
    for mode in ("first", "dies"):
        script = tmp_path / f"gtp_{mode}.py"
        script.write_text(FAKE_GTP.format(root=str(ROOT), mode=mode))
        lines += [f"[engines.{mode}]", f"command = [{sys.executable!r}, {str(script)!r}]",
                  'protocol = "gtp"', 'game = "reversi"', "timeout = 5", ""]
    (config / "engines.toml").write_text("\n".join(lines))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr(opponents, "make_brain", lambda spec, game, seed=None: (
        registry.make_brain(spec, game, seed) if spec.startswith("external:")
        else fake_make_brain(spec, game, seed)))


async def test_an_othello_game_against_a_gtp_engine_in_the_app(tmp_path, monkeypatch):
    _configure(tmp_path, monkeypatch)
    app = ParlorApp(Launch(kind="play", game="reversi", options={"size": 6},
                           players=("human", "external:first")), seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        while screen.state.outcome() is None:
            assert screen.human_to_move()
            await enter_move(pilot, screen.state.legal_moves()[-1])
        status = str(screen.query_one("#status").render())
        assert "Game over" in status
    kept = screen.store.unfinished_path
    record = load_records(kept if kept.exists() else screen.store.history_path)[0]
    assert record.result == screen.state.outcome().result.value
    assert len(record.moves) >= 20 and record.options["size"] == 6


async def test_an_engine_that_dies_is_reported_and_the_game_goes_on(tmp_path, monkeypatch):
    _configure(tmp_path, monkeypatch)
    app = ParlorApp(Launch(kind="play", game="reversi", options={"size": 6},
                           players=("human", "external:dies")), seed=7)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        await enter_move(pilot, screen.state.legal_moves()[0])
        assert "exited with status 3" in screen.message and "press o" in screen.message
        assert screen.state.ply == 1 and screen.state.outcome() is None  # nothing lost
