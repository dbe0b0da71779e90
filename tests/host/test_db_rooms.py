"""The room service writes into the host's database (tui/host/db.py): a finished room
game is archived once and the players' ratings are counted there (their one source),
while the players' records (history/) are written as before; a host whose database is
not Parlor's refuses to start, in one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.host.test_rooms import pair
from tui.host import db
from tui.host.db import HostData, HostDataError
from tui.host.rooms import RoomService, user_history, user_ratings
from tui.host.server import Host, HostConfig


def clock() -> float:
    return 1_800_000_000.0


async def test_a_finished_room_game_is_archived_and_rated_in_the_database(tmp_path: Path):
    data = HostData.open(tmp_path / "data", now=clock)
    service = RoomService(tmp_path / "rooms.sock", tmp_path / "users", host_data=data)
    await service.start()
    try:
        a, b, code = await pair(service)
        played: list[str] = []
        for mover, move in [(a, "b2"), (b, "a1"), (a, "b1"), (b, "c1"), (a, "b3")]:
            mover.send({"t": "move", "move": move})
            played.append(move)
            await b.room(moves=played)
            last = await a.room(moves=played)
        assert last["result"] == "1-0"
    finally:
        await service.stop()
    data.sync()
    alice, bob = data.player_for_key("key-a"), data.player_for_key("key-b")
    assert alice is not None and bob is not None and alice.id != bob.id
    [game] = data.games_of(alice.id)
    assert data.games_of(bob.id) == [game]
    assert (game.game, game.result, game.room, game.rated) == ("tictactoe", "1-0", code, True)
    assert game.finished == clock() and game.termination == "three in a row"
    assert [(s.seat, s.player, s.name) for s in game.seats] == [
        (0, alice.id, "alice"), (1, bob.id, "bob")]
    assert "b3" in game.record and "1-0" in game.record
    # the players' records are still written; their ratings are the database's only
    assert len(list(user_history(tmp_path / "users", "key-a").glob("*.pgn"))) == 1
    for key, player in (("key-a", alice), ("key-b", bob)):
        kept = data.rating(player.id, "tictactoe")
        assert kept is not None and kept.games == 1 and data.counted(player.id, game.id)
        assert user_ratings(tmp_path / "users", key).current("tictactoe").games == 0
    alice_rating, bob_rating = (data.rating(p.id, "tictactoe") for p in (alice, bob))
    assert alice_rating is not None and bob_rating is not None
    assert alice_rating.rating > bob_rating.rating
    data.close()


async def test_the_host_refuses_a_database_that_is_not_parlors(tmp_path: Path):
    folder = tmp_path / "host"
    folder.mkdir()
    (folder / db.FILE_NAME).write_bytes(b"someone else's file\n" * 100)
    host = Host(HostConfig(data=folder, port=0, bind="127.0.0.1"))
    with pytest.raises(HostDataError, match="not a Parlor host database") as caught:
        await host.start()
    assert "\n" not in str(caught.value)
    assert (folder / db.FILE_NAME).read_bytes() == b"someone else's file\n" * 100
    assert host.server is None
