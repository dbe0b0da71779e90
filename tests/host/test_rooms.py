"""The room service over its Unix socket: rooms, moves, offers, clocks, drops, records."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from tui.host.db import HostData, Rating
from tui.host.rooms import RoomService, user_history
from tui.link import wire
from tui.player.store import read_records

WAIT = 10.0


class Line:
    """A raw client of the room service."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, service: RoomService, token: str | None) -> Line:
        reader, writer = await asyncio.open_unix_connection(str(service.socket_path),
                                                            limit=wire.MAX_LINE + 1)
        line = cls(reader, writer)
        if token is not None:
            line.send({"t": "hello", "token": token})
            assert (await line.next())["t"] == "welcome"
        return line

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(wire.encode(message))

    async def next(self, kind: str | None = None) -> dict[str, Any]:
        while True:
            line = await asyncio.wait_for(self.reader.readline(), WAIT)
            assert line, "connection closed"
            message = json.loads(line)
            if kind is None or message["t"] == kind:
                return message

    async def room(self, **want: Any) -> dict[str, Any]:
        """The next room update with every field in ``want``."""
        while True:
            message = await self.next("room")
            if all(message.get(k) == v for k, v in want.items()):
                return message

    def close(self) -> None:
        self.writer.close()


def kept_rating(data: HostData | None, key: str, game: str = "tictactoe") -> Rating | None:
    """The database's rating of the account of ``key`` in ``game`` once every write
    queued has committed (None: none)."""
    assert data is not None
    data.sync()
    player = data.player_for_key(key)
    return data.rating(player.id, game) if player is not None else None


def games_rated(data: HostData | None, key: str, game: str = "tictactoe") -> int:
    rating = kept_rating(data, key, game)
    return 0 if rating is None else rating.games


async def pair(service: RoomService, clock: str = "", game: str = "tictactoe"
               ) -> tuple[Line, Line, str]:
    a = await Line.open(service, service.issue("key-a", "alice"))
    b = await Line.open(service, service.issue("key-b", "bob"))
    a.send({"t": "create", "game": game, "clock": clock, "side": "first"})
    code = (await a.room(started=False))["code"]
    b.send({"t": "join", "code": code})
    await a.room(started=True)
    await b.room(started=True)
    return a, b, code


async def test_a_game_is_checked_broadcast_to_spectators_and_recorded_for_both(service):
    a, b, code = await pair(service, clock="5+3")
    c = await Line.open(service, service.issue("key-c", "carol"))
    c.send({"t": "watch", "code": code})
    assert (await c.room())["you"] == -1
    b.send({"t": "move", "move": "a1"})  # not O's turn
    assert "not your turn" in (await b.next("error"))["message"]
    a.send({"t": "move", "move": "z9"})
    assert "invalid" in (await a.next("error"))["message"]
    c.send({"t": "move", "move": "b2"})  # a spectator cannot move
    assert (await c.next("error"))["t"] == "error"
    for mover, move in [(a, "b2"), (b, "a1"), (a, "b1"), (b, "c1"), (a, "b3")]:
        mover.send({"t": "move", "move": move})
        seen = await c.room(moves=(await a.room())["moves"])
        assert seen["moves"][-1] == move
    final = await b.room(result="1-0")
    assert final["termination"] == "three in a row"
    for key in ("key-a", "key-b"):
        [record] = read_records(next(user_history(service.users, key).glob("*.pgn")))
        assert record.moves == ["b2", "a1", "b1", "c1", "b3"] and record.result == "1-0"
        assert record.tags["TimeControl"] == "5+3" and record.termination == "normal"
    assert not user_history(service.users, "key-c").exists()


async def test_resign_draw_and_takeback_are_answered_by_the_opponent(service):
    a, b, _ = await pair(service)
    a.send({"t": "move", "move": "b2"})
    await b.room(moves=["b2"])
    a.send({"t": "offer", "kind": "takeback"})
    assert (await b.room())["offer"] == {"kind": "takeback", "by": 0}
    a.send({"t": "answer", "accept": True})  # one's own offer cannot be answered
    assert (await a.next("error"))["t"] == "error"
    b.send({"t": "answer", "accept": False})
    assert (await a.room())["moves"] == ["b2"]
    a.send({"t": "offer", "kind": "takeback"})
    await b.room(offer={"kind": "takeback", "by": 0})
    b.send({"t": "answer", "accept": True})
    assert (await a.room(offer=None))["moves"] == []
    a.send({"t": "move", "move": "a1"})
    await b.room(moves=["a1"])
    b.send({"t": "offer", "kind": "draw"})
    await a.room(offer={"kind": "draw", "by": 1})
    a.send({"t": "answer", "accept": True})
    final = await b.room(result="1/2-1/2")
    assert final["termination"] == "agreement"


async def test_resignation_ends_the_game_for_the_other_side(service):
    a, b, _ = await pair(service)
    a.send({"t": "move", "move": "b2"})
    await b.room(moves=["b2"])
    b.send({"t": "resign"})
    final = await a.room(result="1-0")
    assert final["termination"] == "resignation"


async def test_a_flag_falls_on_the_host_clock(service):
    a, b, _ = await pair(service, clock="0.02")  # 1.2 seconds each
    a.send({"t": "move", "move": "b2"})
    await b.room(moves=["b2"])
    final = await a.room(result="1-0")  # O never moves
    assert final["termination"] == "time forfeit"
    assert final["clock"]["left"][1] <= 0.05


async def test_a_dropped_player_keeps_the_seat_then_the_game_is_abandoned(service):
    a, b, code = await pair(service)
    a.send({"t": "move", "move": "b2"})
    await b.room(moves=["b2"])
    b.close()
    assert "seat is kept" in (await a.room(present=[True, False]))["note"]
    back = await Line.open(service, service.issue("key-b", "bob"))  # same key, new session
    back.send({"t": "join", "code": code})
    assert (await back.room())["you"] == 1
    assert (await a.room(present=[True, True]))["note"] == "bob is back"
    back.close()
    final = await a.room(result="1-0")  # the grace time (0.5 s) runs out
    assert final["termination"] == "abandoned"


async def test_garbage_and_impostors_are_refused_and_the_service_goes_on(service):
    stranger = await Line.open(service, None)
    stranger.send({"t": "hello", "token": "forged"})
    assert (await stranger.next())["t"] == "error"
    junk = await Line.open(service, None)
    junk.writer.write(b"\xff" * (wire.MAX_LINE + 10) + b"\n")
    assert await asyncio.wait_for(junk.reader.read(), WAIT) == b""  # cut off
    a = await Line.open(service, service.issue("key-a", "alice"))
    for bad in (b"[1,2]\n", b"{\"t\": 5}\n", b"not json\n", b"{\"t\":\"create\",\"game\":[1]}\n",
                b"{\"t\":\"create\",\"game\":\"tictactoe\",\"options\":{\"x\":1}}\n",
                b"{\"t\":\"create\",\"game\":\"tictactoe\",\"clock\":\"99999\"}\n",
                b"{\"t\":\"join\",\"code\":\"NOPE\"}\n", b"{\"t\":\"fly\"}\n"):
        a.writer.write(bad)
        assert (await a.next())["t"] == "error"
    a2, b2, _ = await pair(service)
    a2.send({"t": "move", "move": "b2"})
    assert (await b2.room(moves=["b2"]))["moves"] == ["b2"]


async def test_brain_searches_across_the_host_wait_for_a_free_slot(tmp_path):
    rooms = RoomService(tmp_path / "r.sock", tmp_path / "users", brain_slots=1)
    await rooms.start()
    try:
        first = await Line.open(rooms, rooms.issue("k1", "a"))
        second = await Line.open(rooms, rooms.issue("k2", "b"))
        first.send({"t": "brain"})
        assert (await first.next())["t"] == "brain_ok"
        second.send({"t": "brain"})
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(second.next(), 0.3)
        first.close()  # a session that goes releases its slot
        assert (await second.next())["t"] == "brain_ok"
    finally:
        await rooms.stop()


async def test_a_sessions_brain_search_waits_for_a_host_slot(tmp_path, monkeypatch):
    from tui.link import client

    rooms = RoomService(tmp_path / "r.sock", tmp_path / "users", brain_slots=1)
    await rooms.start()
    try:
        holder = await Line.open(rooms, rooms.issue("k1", "a"))
        holder.send({"t": "brain"})
        assert (await holder.next())["t"] == "brain_ok"
        monkeypatch.setenv(client.ENV_SOCKET, str(rooms.socket_path))
        monkeypatch.setenv(client.ENV_TOKEN, rooms.issue("k2", "b"))
        entered = asyncio.Event()
        loop = asyncio.get_running_loop()

        def search() -> None:
            with client.brain_slot(timeout=WAIT):
                loop.call_soon_threadsafe(entered.set)

        thread = asyncio.ensure_future(asyncio.to_thread(search))
        with pytest.raises(asyncio.TimeoutError):  # the only slot is taken
            await asyncio.wait_for(asyncio.shield(entered.wait()), 0.3)
        holder.close()
        await asyncio.wait_for(entered.wait(), WAIT)
        await asyncio.wait_for(thread, WAIT)
    finally:
        await rooms.stop()


def test_outside_the_host_a_brain_slot_holds_nothing(monkeypatch):
    from tui.link import client

    monkeypatch.delenv(client.ENV_SOCKET, raising=False)
    assert not client.available()
    with client.brain_slot():
        pass


async def test_the_welcome_names_the_games_whose_seat_waits_for_the_player(service):
    a, b, code = await pair(service)

    async def welcome(identity: str, name: str) -> tuple[Line, dict[str, Any]]:
        line = await Line.open(service, None)
        line.send({"t": "hello", "token": service.issue(identity, name)})
        return line, await line.next("welcome")

    second, hello = await welcome("key-b", "bob")  # bob's first session is still in it
    assert hello["back"] == [] and [r["code"] for r in hello["yours"]] == [code]
    second.close()
    b.close()
    await a.room(present=[True, False])
    again, hello = await welcome("key-b", "bob")
    assert hello["back"] == [code]
    _, other = await welcome("key-c", "carol")
    assert other["back"] == [] and other["yours"] == []
    again.close()
    a.close()
