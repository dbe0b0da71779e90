"""TUI test fixtures: a private data dir, instant deterministic brains, key helpers."""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest
from textual.worker import WorkerCancelled, WorkerState

from brains.protocol import Brain, Budget, Thought
from engine.protocol import State
from tui.app.screens import play
from tui.app.widgets.board import BoardWidget
from tui.game import opponents

FAKE_SPECS = ["first", "last", "slow"]
"""The opponents the tests offer: legal_moves()[0], legal_moves()[-1], and a slow one."""


class FirstMover(Brain):
    """Plays the first legal move at once."""

    name = "first"

    def think(self, state: State, budget: Budget) -> Iterator[Thought]:
        move = state.legal_moves()[0]
        yield Thought(move, 0.0, 1, 1, (move,), final=True)


class LastMover(Brain):
    """Plays the last legal move at once."""

    name = "last"

    def think(self, state: State, budget: Budget) -> Iterator[Thought]:
        move = state.legal_moves()[-1]
        yield Thought(move, 0.0, 1, 1, (move,), final=True)


class SlowMover(Brain):
    """Reports progress, then thinks until stopped; its (stale) answer is the last move."""

    name = "slow"

    def think(self, state: State, budget: Budget) -> Iterator[Thought]:
        move = state.legal_moves()[-1]
        yield Thought(move, 0.5, 1, 10, (move,))
        budget.stop.wait(10)
        yield Thought(move, 0.5, 2, 20, (move,))


_CLASSES = {"first": FirstMover, "last": LastMover, "slow": SlowMover}


def fake_make_brain(spec: str, game_id: str, seed: int | None = None) -> Brain:
    """The test brain named by ``spec``."""
    if spec not in _CLASSES:
        raise ValueError(f"unknown brain {spec!r}")
    return _CLASSES[spec](game_id, seed=seed, spec=spec)


@pytest.fixture(autouse=True)
def tui_env(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A fresh data dir (XDG_DATA_HOME) and instant deterministic brains for every test."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setattr(opponents, "make_brain", fake_make_brain)
    monkeypatch.setattr(opponents, "brain_specs", lambda game_id: list(FAKE_SPECS))
    monkeypatch.setattr(play, "DEFAULT_PACE", 0.0)  # computers play each other at full speed
    opponents.room_brains.cache_clear()  # cached lists would keep (or miss) the fakes
    yield tmp_path
    opponents.room_brains.cache_clear()


def key_path(board: BoardWidget, start: Any, goal: Any) -> list[str]:
    """The shortest list of direction keys that takes the cursor from start to goal."""
    seen = {start: []}
    queue = deque([start])
    while queue:
        point = queue.popleft()
        if point == goal:
            return seen[point]
        for key in ("up", "down", "left", "right"):
            nxt = board.neighbour(point, key)
            if nxt is not None and nxt not in seen:
                seen[nxt] = [*seen[point], key]
                queue.append(nxt)
    raise AssertionError(f"cursor cannot reach {goal!r} from {start!r}")


async def enter_move(pilot: Any, move: Any) -> None:
    """Enter ``move`` on the focused board with cursor keys and Enter, step by step."""
    board = pilot.app.screen.query_one(BoardWidget)
    steps = board.steps(move)
    if not steps:
        await pilot.press("enter")
    for step in steps:
        await pilot.press(*key_path(board, board.cursor, step))
        assert board.cursor == step
        await pilot.press("enter")
    await settle(pilot)


async def settle(pilot: Any) -> None:
    """Let workers finish and messages be handled.

    A worker cancelled while it is waited for is settled, not an error: the screen
    cancels the brain's worker at every new turn, and a worker that has just posted its
    move can be cancelled before it is marked done (``wait_for_complete`` would raise
    WorkerCancelled then, which made the key tests fail now and then)."""
    while True:
        await pilot.pause()
        busy = [w for w in pilot.app.workers
                if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
        if not busy:
            break
        for worker in busy:
            if worker.state == WorkerState.PENDING:
                continue
            with contextlib.suppress(WorkerCancelled):
                await worker.wait()
    await pilot.pause()


def play_app(game: str, players: tuple[str, str] = ("human", "first"), **options: Any) -> Any:
    """The app launched straight into ``game`` between ``players`` (brains seeded)."""
    from tui.app.main import Launch, ParlorApp

    return ParlorApp(Launch(kind="play", game=game, options=options, players=players), seed=7)


async def play_moves(pilot: Any, screen: Any, moves: list[Any]) -> None:
    """Play ``moves`` on the Play ``screen`` and let the app settle."""
    for move in moves:
        screen.play(move)
    await settle(pilot)
