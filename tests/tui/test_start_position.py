"""Starting a game from a position: `parlor play --position`, kept in the game's record."""

from __future__ import annotations

from typing import Any

import pytest

from engine.formats import load_records
from engine.positions import format_position, parse_position
from engine.registry import new_game
from tests.tui.conftest import settle
from tui import cli
from tui.app.main import Launch, ParlorApp
from tui.app.screens.play import PlayScreen

C4 = "7/7/7/7/3o3/2oxx2 x"
"""Connect Four after 4 4 5 3: Red to move."""


def launched(monkeypatch: pytest.MonkeyPatch, argv: list[str]) -> tuple[int, list[Launch]]:
    ran: list[Launch] = []
    monkeypatch.setattr(ParlorApp, "run", lambda self: ran.append(self.launch))
    return cli.main(argv), ran


def test_parlor_play_starts_from_a_position(monkeypatch: pytest.MonkeyPatch) -> None:
    rc, ran = launched(monkeypatch, ["play", "--game", "connect4", "--position", C4,
                                     "--second", "first"])
    assert rc == 0 and len(ran) == 1
    launch = ran[0]
    assert launch.kind == "play" and launch.game == "connect4"
    assert launch.position is not None and format_position(launch.position) == C4
    assert launch.position.key() == new_game("connect4").play_line("4453").key()


def test_a_position_alone_names_its_game(monkeypatch: pytest.MonkeyPatch) -> None:
    rc, ran = launched(monkeypatch, ["play", "--position", C4, "--second", "first"])
    assert rc == 0 and ran[0].game == "connect4"


@pytest.mark.parametrize("argv, reason", [
    (["play", "--game", "connect4", "--position", "7/7/7 x"], "connect4"),
    (["play", "--position", "no board at all"], "no game's position"),
    (["play", "--game", "reversi", "--position", "8/8/8/3ox3/3xo3/8/8/8 x", "-o", "size=6"],
     "no --option"),
    (["play", "--game", "tictactoe", "--position", "x" * 5000], "characters"),
])
def test_a_bad_position_is_one_line(monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str],
                                    argv: list[str], reason: str) -> None:
    rc, ran = launched(monkeypatch, argv)
    err = capsys.readouterr().err.strip()
    assert rc == 2 and not ran
    assert len(err.splitlines()) == 1 and reason in err and len(err) < 300


async def test_a_game_from_a_position_is_played_and_kept_with_its_start() -> None:
    start = parse_position("tictactoe", "3/1x1/o2 x")
    app = ParlorApp(Launch(kind="play", game="tictactoe", players=("human", "first"),
                           position=start), seed=1)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        assert screen.history[0].key() == start.key()
        await pilot.press("m")
        await settle(pilot)
        for key in "a3":
            await pilot.press(key)
        await pilot.press("enter")
        await settle(pilot)
        kept: Any = load_records(screen.store.unfinished_path)[0]
        assert kept.moves[:1] == ["a3"]
        assert kept.initial().key() == start.key()
