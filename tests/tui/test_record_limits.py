"""What a record keeps reads back and what it names is never loaded: specs and game options
too long for a record are refused, a model path in a record is never loaded."""

from __future__ import annotations

from typing import Any

import pytest

from brains import registry
from tests.tui.conftest import settle
from tests.tui.test_unfinished_games import keep_game, play_app, unfinished_moves
from tui.app.dialogs.error import ErrorDialog
from tui.app.main import Launch, ParlorApp
from tui.app.screens.play import PlayScreen
from tui.game import opponents
from tui.player import paths

SIZE = (80, 24)


LONG_SPEC = "alphabeta," + ",".join(["depth=2"] * 200)
"""A spec longer than a record tag may be (the brain registry refuses it too: specs are
capped below the record's tag limit, so whatever the registry accepts a record keeps)."""


TOO_LONG = ("too long", "longer than")


def test_a_spec_too_long_for_a_record_is_refused_by_parlor_play(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from tui import cli

    monkeypatch.setattr(opponents, "make_brain", registry.make_brain)
    ran: list[Any] = []
    monkeypatch.setattr(ParlorApp, "run", lambda self: ran.append(self))
    assert cli.main(["play", "--game", "tictactoe", "--second", LONG_SPEC]) == 2
    err = capsys.readouterr().err.strip()
    assert not ran and len(err.splitlines()) == 1 and len(err) < 200
    assert any(reason in err for reason in TOO_LONG)
    assert cli.main(["play", "--game", "tictactoe", "--first", "alphabeta,depth=2\nx"]) == 2
    assert "control characters" in capsys.readouterr().err


async def test_a_spec_too_long_for_a_record_is_refused_at_the_start_of_a_game() -> None:
    app = play_app("tictactoe", ("human", LONG_SPEC))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, ErrorDialog)
        message = str(app.screen.query_one("#error-message").render())
        assert any(reason in message for reason in TOO_LONG)
    assert not paths.unfinished_dir().exists() or unfinished_moves() == []


async def test_a_model_path_in_a_record_is_never_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    real = opponents.make_brain

    def tracking(spec: str, game_id: str, seed: int | None = None) -> Any:
        made.append(spec)
        return real(spec, game_id, seed)

    monkeypatch.setattr(opponents, "make_brain", tracking)
    spec = "mlp,model=/tmp/hostile.joblib"
    keep_game("tictactoe", ["b2", "a1"], second=spec)
    app = ParlorApp(Launch(kind="resume"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen) and len(screen.moves) == 2
        assert screen.human_to_move()  # the human side resumes
        await pilot.press("m", *"c3", "enter")
        await settle(pilot)
        assert len(screen.moves) == 3
        text = str(screen.query_one("#status").render())
        assert "names a file (model=)" in text and "never loads a model" in text
        assert "press o" in text
        await pilot.press("t")  # a hint comes from another brain, not the record's
        await settle(pilot)
        await pilot.press("o", "home", "down", "enter")  # choose "first" instead
        await settle(pilot)
        assert len(screen.moves) == 4
    assert not any("model" in s for s in made) and "first" in made


def test_a_game_option_too_long_for_a_record_is_refused_by_parlor_play(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    from tui import cli

    ran: list[Any] = []
    monkeypatch.setattr(ParlorApp, "run", lambda self: ran.append(self))
    seed = "7" * 1200  # a valid int, but the Seed tag could not be read back
    assert cli.main(["play", "--game", "reversi", "--first", "human", "--second", "first",
                     "-o", "variant=randomstart", "-o", f"seed={seed}"]) == 2
    err = capsys.readouterr().err.strip()
    assert not ran and "Seed is too long" in err and len(err.splitlines()) == 1

