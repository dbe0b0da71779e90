"""Room chat in the room service, over its Unix socket with raw clients: who reads whose
lines (spectators' lines reach the players only after the game), refusals, the rate
limit on a fake clock, the log sent on request, and the chat kept across a restart."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tui.host.chat import BURST, LOG_LINES, room_key
from tui.host.db import HostData
from tui.host.rooms import RoomService
from tui.link import wire

WAIT = 30.0
"""A safety net only: every wait ends when its message comes."""


class Line:
    """A raw client of the room service."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, service: RoomService, identity: str, name: str) -> Line:
        reader, writer = await asyncio.open_unix_connection(str(service.socket_path),
                                                            limit=wire.MAX_LINE + 1)
        line = cls(reader, writer)
        line.send({"t": "hello", "token": service.issue(identity, name)})
        assert (await line.next())["t"] == "welcome"
        return line

    def send(self, message: dict[str, Any]) -> None:
        self.writer.write(wire.encode(message))

    async def next(self, *kinds: str) -> dict[str, Any]:
        while True:
            line = await asyncio.wait_for(self.reader.readline(), WAIT)
            assert line, "connection closed"
            message = json.loads(line)
            if not kinds or message["t"] in kinds:
                return message

    async def room(self, **want: Any) -> dict[str, Any]:
        while True:
            message = await self.next("room")
            if all(message.get(k) == v for k, v in want.items()):
                return message

    async def said(self) -> list[str]:
        """The next chat message's lines, as the room screen shows them."""
        message = await self.next("chat")
        return [f"{x['name']}{' (spectator)' if x['spectator'] else ''}: {x['text']}"
                for x in message["lines"]]

    async def log(self) -> list[str]:
        """Ask for the room's chat log; its lines (one message: the logs here are short)."""
        self.send({"t": "chat_log"})
        message = await self.next("chat")
        while message["log"] is not True:  # a line said meanwhile
            message = await self.next("chat")
        return [f"{x['name']}{' (spectator)' if x['spectator'] else ''}: {x['text']}"
                for x in message["lines"]]

    async def error(self) -> str:
        return str((await self.next("error"))["message"])

    def close(self) -> None:
        self.writer.close()


async def room_of_four(service: RoomService) -> tuple[Line, Line, Line, Line, str]:
    """alice and bob playing tic-tac-toe, carol and dave watching."""
    a = await Line.open(service, "key-a", "alice")
    b = await Line.open(service, "key-b", "bob")
    a.send({"t": "create", "game": "tictactoe", "side": "first"})
    code = (await a.room(started=False))["code"]
    b.send({"t": "join", "code": code})
    await a.room(started=True)
    await b.room(started=True)
    c = await Line.open(service, "key-c", "carol")
    d = await Line.open(service, "key-d", "dave")
    for watcher in (c, d):
        watcher.send({"t": "watch", "code": code})
        await watcher.room(code=code)
    return a, b, c, d, code


async def test_spectators_lines_reach_the_players_only_after_the_game(service):
    a, b, c, d, _ = await room_of_four(service)
    a.send({"t": "say", "text": "good luck"})
    for line in (a, b, c, d):  # a player's line: everyone, the author too
        assert await line.said() == ["alice: good luck"]
    c.send({"t": "say", "text": "b2 wins"})
    for line in (c, d):
        assert await line.said() == ["carol (spectator): b2 wins"]
    b.send({"t": "say", "text": "thanks"})  # said after carol's line was handled
    for line in (a, b):  # so carol's would have come first: it did not
        assert await line.said() == ["bob: thanks"]
    assert await c.said() == ["bob: thanks"]
    assert await a.log() == ["alice: good luck", "bob: thanks"]
    assert await d.log() == ["alice: good luck", "carol (spectator): b2 wins", "bob: thanks"]
    b.send({"t": "resign"})
    await a.room(result="1-0")
    assert await a.log() == ["alice: good luck", "carol (spectator): b2 wins", "bob: thanks"]
    d.send({"t": "say", "text": "gg"})  # after the game: to everyone
    for line in (a, b, c, d):
        assert await line.said() == ["dave (spectator): gg"]


async def test_lines_are_cleaned_and_bad_ones_refused_with_one_line(service):
    a, b, c, _, _ = await room_of_four(service)
    a.send({"t": "say", "text": "\x1b]52;c;cHduZWQ=\x07hi\x1b[2J \u202ethere\x9b31m\t\n"})
    assert await b.said() == ["alice: hi there"]
    a.send({"t": "say", "text": " \x1b[31m\x1b[0m\u200b\t"})
    assert "empty" in await a.error()
    a.send({"t": "say", "text": "x" * 201})
    assert "at most 200 characters" in await a.error()
    a.send({"t": "say", "text": "\x1b[1m" * 100 + "y" * 200})  # escapes do not count
    assert await b.said() == ["alice: " + "y" * 200]
    for bad in ({"t": "say"}, {"t": "say", "text": 5}, {"t": "say", "text": ["x"]},
                {"t": "say", "text": "z" * 5000}):
        a.send(bad)
        assert (await a.error()).startswith("bad request")
    stranger = await Line.open(service, "key-e", "erin")  # in no room
    stranger.send({"t": "say", "text": "hello?"})
    assert "not in a room" in await stranger.error()
    stranger.send({"t": "chat_log"})
    assert "not in a room" in await stranger.error()
    c.send({"t": "say", "text": "still here"})  # the service goes on
    for seen in ("alice: hi there", "alice: " + "y" * 200, "carol (spectator): still here"):
        assert await c.said() == [seen]  # only the lines said, cleaned


async def test_each_connection_may_say_a_burst_then_a_line_a_second(tmp_path):
    now = [1000.0]
    service = RoomService(tmp_path / "r.sock", tmp_path / "users", clock=lambda: now[0])
    await service.start()
    try:
        a, b, _, _, _ = await room_of_four(service)
        for n in range(int(BURST)):
            a.send({"t": "say", "text": f"line {n}"})
            assert await b.said() == [f"alice: line {n}"]
        a.send({"t": "say", "text": "one too many"})
        assert "too many chat lines; wait 1 s" in await a.error()
        b.send({"t": "say", "text": "mine"})  # another connection has its own allowance
        assert await a.said() == ["bob: mine"]
        now[0] += 1.0
        a.send({"t": "say", "text": "a second later"})
        assert await b.said() == ["bob: mine"]
        assert await b.said() == ["alice: a second later"]
        a.send({"t": "say", "text": "and at once again"})
        assert "too many chat lines" in await a.error()
    finally:
        await service.stop()


async def test_the_log_is_the_last_lines_and_fits_on_the_wire(tmp_path, monkeypatch):
    from tui.host import rooms

    # sixty lines in a row pass the service's per-connection message rate (real time) on
    # a fast machine; the chat's own limit, on the fake clock, is what this test keeps
    monkeypatch.setattr(rooms, "RATE_PER_SECOND", 1e9)
    now = [0.0]
    service = RoomService(tmp_path / "r.sock", tmp_path / "users", clock=lambda: now[0])
    await service.start()
    try:
        a, b, _, d, _ = await room_of_four(service)
        wide = "\U0001f600" * 200  # 12 bytes each on the wire
        for n in range(LOG_LINES + 10):
            now[0] += 10.0
            a.send({"t": "say", "text": f"{n} {wide}"[:200]})
            await b.said()
        d.send({"t": "chat_log"})
        got: list[str] = []
        first = await d.next("chat")
        while first["log"] is not True:  # the lines d saw as they were said
            first = await d.next("chat")
        got += [x["text"] for x in first["lines"]]
        while len(got) < LOG_LINES:
            more = await d.next("chat")
            assert more["log"] is False
            got += [x["text"] for x in more["lines"]]
        assert [t.split()[0] for t in got] == [str(n) for n in range(10, LOG_LINES + 10)]
    finally:
        await service.stop()


async def test_the_chat_is_kept_in_the_host_database_and_survives_a_restart(tmp_path):
    data = HostData.open(tmp_path / "data")
    service = RoomService(tmp_path / "r.sock", tmp_path / "users", host_data=data)
    await service.start()
    try:
        a, b, c, _, code = await room_of_four(service)
        a.send({"t": "move", "move": "b2"})
        await b.room(moves=["b2"])
        a.send({"t": "say", "text": "before the restart"})
        await b.said()
        c.send({"t": "say", "text": "watching you"})
        await c.said()
        room = service.rooms[code]
    finally:
        await service.stop()
    data.close()
    data = HostData.open(tmp_path / "data")
    kept = [json.loads(m.text) for m in data.chat(room_key(room))]
    assert kept == [{"n": "alice", "s": False, "x": "before the restart"},
                    {"n": "carol", "s": True, "x": "watching you"}]
    service = RoomService(tmp_path / "r.sock", tmp_path / "users", host_data=data)
    await service.start()
    try:
        assert code in service.rooms  # the game in progress came back
        b = await Line.open(service, "key-b", "bob")
        b.send({"t": "join", "code": code})
        await b.room(code=code)
        assert await b.log() == ["alice: before the restart"]  # still mid-game
        d = await Line.open(service, "key-d", "dave")
        d.send({"t": "watch", "code": code})
        await d.room(code=code)
        assert await d.log() == ["alice: before the restart", "carol (spectator): watching you"]
    finally:
        await service.stop()
        data.close()


async def test_a_new_room_with_a_code_used_before_starts_with_no_chat(tmp_path: Path):
    data = HostData.open(tmp_path / "data")
    service = RoomService(tmp_path / "r.sock", tmp_path / "users", host_data=data)
    await service.start()
    try:
        a, b, _, _, code = await room_of_four(service)
        a.send({"t": "say", "text": "old room"})
        await b.said()
        b.send({"t": "resign"})
        await a.room(result="1-0")
        del service.rooms[code]  # as the sweep forgets a finished room
        data.sync()
        a.send({"t": "create", "game": "tictactoe", "side": "first"})
        fresh = await a.room(started=False)
        service.rooms[code] = service.rooms.pop(fresh["code"])  # the same code again
        service.rooms[code].code = code
        assert await a.log() == []
    finally:
        await service.stop()
        data.close()
