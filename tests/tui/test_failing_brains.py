"""A brain or a hint that fails is a message, never a crash: a model that will not load, a
search that raises, an analysis that raises."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from brains.learned.store import ModelError
from brains.protocol import Brain, Budget, Thought
from engine.protocol import State
from tests.tui import conftest
from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.play import PlayScreen
from tui.app.widgets.board import BoardWidget
from tui.game import opponents

SIZE = (80, 24)


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

