"""Replaying a kept correspondence game (tui/host/correspondence.py): each read has its
own session, however often the positions are remembered; a game that cannot be replayed
is one line."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tui.host.correspondence import replay
from tui.host.db import CorrGame, HostDataError

GAME = CorrGame(id="corr-00000000000000bb", game="tictactoe", options={},
                seats=("key-a", "key-b"), names=("ann", "bob"), invited=None,
                moves=("b2", "a1"), days=1, deadline=None, result=None, termination="",
                told=0, version=2, created=0.0, updated=0.0)


def test_each_read_has_its_own_session() -> None:
    first = replay(GAME)
    first.play(first.state.parse_move("c3"), 0.0)
    first.end("1-0", "resignation", 0.0)
    second = replay(GAME)
    assert second.texts == ["b2", "a1"] and second.ending is None
    assert second.state.to_move == 0 and second.players == ("ann", "bob")
    over = replay(replace(GAME, result="0-1", termination="time forfeit"))
    assert over.ending == ("0-1", "time forfeit")


@pytest.mark.parametrize(("changes", "said"), [
    ({"moves": ("b2", "b2")}, "illegal"),
    ({"moves": ("zz",)}, "invalid"),
    ({"game": "nosuch"}, "unknown game"),
    ({"options": {"size": "nine"}}, ""),
])
def test_a_game_that_cannot_be_replayed_is_one_line(changes: dict[str, object],
                                                    said: str) -> None:
    with pytest.raises(HostDataError, match="cannot be replayed") as raised:
        replay(replace(GAME, **changes))  # type: ignore[arg-type]
    assert said in str(raised.value) and "\n" not in str(raised.value)
