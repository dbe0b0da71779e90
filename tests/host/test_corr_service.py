"""Correspondence games through the room service (tui/host/correspondence.py), with a
fake wall clock: a game played over two host restarts, a deadline missed (found by the
sweep, and by a read), the result told once at the next login, ratings and the archive,
challenges, and bad requests answered in one line."""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from tests.host.test_rooms import Line, games_rated, kept_rating
from tui.host import correspondence
from tui.host.db import FILE_NAME, CorrGame, HostData
from tui.host.rooms import RoomService, user_history
from tui.player.store import read_records

DAY = correspondence.DAY


class WallClock:
    """The database's clock (epoch seconds), moved by the test only."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


class Host:
    """A host's room service and database over one data folder, stopped and started
    again as a restart does (nothing kept in memory between)."""

    def __init__(self, tmp_path: Path, clock: WallClock) -> None:
        self.tmp, self.clock = tmp_path, clock
        self.data: HostData | None = None
        self.service: RoomService | None = None
        self.auto_sweep = False
        """The periodic sweep: off unless a test waits for it (the others sweep by hand)."""

    async def start(self) -> RoomService:
        self.data = HostData.open(self.tmp / "data", now=self.clock)
        self.service = RoomService(self.tmp / "rooms.sock", self.tmp / "users",
                                   host_data=self.data)
        self.service.corr.auto_sweep = self.auto_sweep
        await self.service.start()
        return self.service

    async def stop(self) -> None:
        assert self.service is not None and self.data is not None
        await self.service.stop()
        self.data.close()
        self.service = self.data = None

    async def restart(self) -> RoomService:
        await self.stop()
        return await self.start()


class Client(Line):
    """A raw client that keeps every message it read (notes come between answers)."""

    seen: list[dict[str, Any]]

    async def next(self, kind: str | None = None) -> dict[str, Any]:
        if not hasattr(self, "seen"):
            self.seen = []
        while True:
            message = await super().next()
            self.seen.append(message)
            if kind is None or message["t"] == kind:
                return message

    def notes(self) -> list[str]:
        return [m["text"] for m in getattr(self, "seen", []) if m["t"] == "corr_note"]


async def login(service: RoomService, key: str, name: str) -> Client:
    """A session as the app's: it says who it is first (so it is told what happens)."""
    line = await Client.open(service, service.issue(key, name))
    assert isinstance(line, Client)
    if service.host_data is not None:
        line.send({"t": "account"})
        await line.next("account")
    return line


async def ask(line: Client, message: dict[str, Any], answer: str) -> dict[str, Any]:
    line.send(message)
    return await line.next(answer)


async def move(line: Client, game_id: str, text: str) -> dict[str, Any]:
    return await ask(line, {"t": "corr_move", "id": game_id, "move": text}, "corr_game")


async def open_game(a: Client, b: Client, days: int = 1) -> str:
    """``a`` opens a game of tic-tac-toe (first), ``b`` finds it in the list and joins."""
    made = await ask(a, {"t": "corr_new", "game": "tictactoe", "days": days}, "corr_made")
    listed = await ask(b, {"t": "corr_list"}, "corr_list")
    assert [g["id"] for g in listed["open"]] == [made["id"]]
    joined = await ask(b, {"t": "corr_join", "id": made["id"]}, "corr_game")
    assert joined["you"] == 1 and joined["status"] == "their move"
    assert joined["left"] == days * DAY
    return str(made["id"])


async def test_a_game_played_over_two_restarts_is_recorded_rated_and_archived(
        tmp_path: Path) -> None:
    clock = WallClock()
    host = Host(tmp_path, clock)
    service = await host.start()
    a, b = await login(service, "key-a", "ann"), await login(service, "key-b", "bob")
    game_id = await open_game(a, b)
    seen = await move(a, game_id, "b2")
    assert seen["status"] == "their move" and seen["moves"] == ["b2"]
    told = await b.next("corr_note")  # bob is online: told at once
    assert "ann moved b2" in told["text"] and told["id"] == game_id

    service = await host.restart()
    clock.t += 20 * 3600  # within bob's day
    b = await login(service, "key-b", "bob")
    news = await ask(b, {"t": "corr_news"}, "corr_news")
    assert news["your_move"] == 1 and news["lines"] == []
    opened = await ask(b, {"t": "corr_open", "id": game_id}, "corr_game")
    assert opened["moves"] == ["b2"] and opened["status"] == "your move"
    assert opened["left"] == 4 * 3600
    moved = await move(b, game_id, "a1")
    assert moved["left"] == DAY  # the deadline moved to ann's side, a day from now

    service = await host.restart()
    clock.t += DAY - 60  # just in time
    a, b = await login(service, "key-a", "ann"), await login(service, "key-b", "bob")
    b.send({"t": "corr_move", "id": game_id, "move": "c3"})  # not bob's turn
    assert "not your turn" in (await b.next("error"))["message"]
    a.send({"t": "corr_move", "id": game_id, "move": "a1"})  # taken: the engine says no
    assert "illegal" in (await a.next("error"))["message"]
    for mover, text in [(a, "b1"), (b, "c1")]:
        await move(mover, game_id, text)
    last = await move(a, game_id, "b3")
    assert last["status"] == "over" and last["result"] == "1-0"
    assert "you won against bob in tictactoe" in a.notes()  # before the last snapshot
    await b.next("corr_game")
    assert "you lost against ann in tictactoe" in b.notes()

    assert host.data is not None
    host.data.sync()  # the archive's write is not waited for by the service
    archived = host.data.game(game_id)
    assert archived is not None and archived.result == "1-0" and archived.rated
    ratings = []
    for key in ("key-a", "key-b"):
        records = read_records(user_history(tmp_path / "users", key) / f"{game_id}.pgn")
        assert records[0].moves == ["b2", "a1", "b1", "c1", "b3"]
        rating = kept_rating(host.data, key)
        assert rating is not None and rating.games == 1
        player = host.data.player_for_key(key)
        assert player is not None and host.data.counted(player.id, game_id)
        ratings.append(rating.rating)
    assert ratings[0] > ratings[1]  # the winner went up, the loser down
    news = await ask(a, {"t": "corr_news"}, "corr_news")  # told already, online
    assert news == {"t": "corr_news", "your_move": 0, "lines": []}
    await host.stop()


@pytest.mark.parametrize("found_by", ["sweep", "read", "start"])
async def test_a_missed_deadline_loses_on_time_and_is_told_once_at_next_login(
        tmp_path: Path, found_by: str) -> None:
    clock = WallClock()
    host = Host(tmp_path, clock)
    service = await host.start()
    a, b = await login(service, "key-a", "ann"), await login(service, "key-b", "bob")
    game_id = await open_game(a, b, days=3)
    await move(a, game_id, "b2")
    if found_by == "start":  # the host is down past the deadline: swept when it starts
        await host.stop()
        clock.t += 3 * DAY + 1
        host.auto_sweep = True
        service = await host.start()
        await asyncio.wait_for(service.corr.swept.wait(), 60)  # a safety net only
    else:
        service = await host.restart()  # nobody online now
        clock.t += 3 * DAY - 1
        assert await service.corr.sweep() == 0  # one second left
        clock.t += 2
    if found_by == "sweep":
        assert await service.corr.sweep() == 1
    elif found_by == "read":  # anyone reading the game finds it out of time
        c = await login(service, "key-c", "cat")
        c.send({"t": "corr_open", "id": game_id})
        assert "not one of your" in (await c.next("error"))["message"]
    assert host.data is not None
    kept = host.data.corr_game(game_id)
    assert kept is not None and kept.result == "1-0" and kept.termination == "time forfeit"
    assert kept.deadline is None

    a = await login(service, "key-a", "ann")
    news = await ask(a, {"t": "corr_news"}, "corr_news")
    assert news["lines"] == ["you won on time against bob in tictactoe"]
    again = await ask(a, {"t": "corr_news"}, "corr_news")
    assert again["lines"] == []  # told once
    b = await login(service, "key-b", "bob")
    news = await ask(b, {"t": "corr_news"}, "corr_news")
    assert news["lines"] == ["you lost on time against ann in tictactoe"]
    listed = await ask(b, {"t": "corr_list"}, "corr_list")
    assert [(g["status"], g["result"]) for g in listed["games"]] == [("over", "1-0")]
    ratings = [kept_rating(host.data, k) for k in ("key-a", "key-b")]
    assert ratings[0] is not None and ratings[1] is not None
    assert [r.games for r in ratings] == [1, 1] and ratings[0].rating > ratings[1].rating
    await host.stop()


async def test_a_challenge_waits_for_the_named_player(tmp_path: Path) -> None:
    clock = WallClock()
    host = Host(tmp_path, clock)
    service = await host.start()
    assert host.data is not None
    bob = host.data.ensure_player("key-b").result()
    assert host.data.claim_first_name(bob, "bob").result() == "claimed"
    a, b = await login(service, "key-a", "ann"), await login(service, "key-b", "bob")
    c = await login(service, "key-c", "cat")
    a.send({"t": "corr_new", "game": "tictactoe", "days": 7, "name": "nobody"})
    assert "no player has claimed" in (await a.next("error"))["message"]
    made = await ask(a, {"t": "corr_new", "game": "tictactoe", "days": 7, "name": "BOB",
                         "side": "second"}, "corr_made")
    assert "challenges you" in (await b.next("corr_note"))["text"]
    assert (await ask(c, {"t": "corr_list"}, "corr_list"))["open"] == []  # not open
    c.send({"t": "corr_join", "id": made["id"]})
    assert "waits for the player challenged" in (await c.next("error"))["message"]
    listed = await ask(b, {"t": "corr_list"}, "corr_list")
    assert [g["status"] for g in listed["games"]] == ["challenge"]
    joined = await ask(b, {"t": "corr_join", "id": made["id"]}, "corr_game")
    assert joined["you"] == 0 and joined["status"] == "your move"
    assert joined["left"] == 7 * DAY
    await host.stop()


@pytest.mark.parametrize(("message", "said"), [
    ({"t": "corr_new", "game": "tictactoe", "days": 2}, "1, 3 or 7"),
    ({"t": "corr_new", "game": "tictactoe", "days": True}, "1, 3 or 7"),
    ({"t": "corr_new", "game": "nosuch", "days": 1}, "unknown game"),
    ({"t": "corr_new", "game": "tictactoe", "days": 1, "side": "up"}, "side must be"),
    ({"t": "corr_move", "id": "../x", "move": "b2"}, "correspondence game's id"),
    ({"t": "corr_move", "id": "corr-0123456789abcdef", "move": "b2", "ply": -1}, "ply"),
    ({"t": "corr_move", "id": "corr-0123456789abcdef", "move": "x" * 65}, "at most 64"),
    ({"t": "corr_open", "id": "corr-0123456789abcdef"}, "no correspondence game"),
    ({"t": "corr_open", "id": 7}, "field 'id'"),
    ({"t": "corr_move", "id": "corr-0123456789abcdef", "move": ["b2"]}, "field 'move'"),
    ({"t": "corr_new", "game": "tictactoe", "days": 1, "options": [1]}, "options"),
    ({"t": "corr_new", "game": "tictactoe", "days": 1, "name": {"n": 1}}, "field 'name'"),
    ({"t": "corr_new", "game": "tictactoe", "days": 1, "options": {"size": "x" * 41}},
     "short text"),
    ({"t": "corr_join", "id": "corr-0123456789abcdef"}, "no correspondence game"),
    ({"t": "corr_resign", "id": "corr-0123456789ABCDEF"}, "field 'id'"),
])
async def test_bad_requests_are_one_line(tmp_path: Path, message: dict[str, Any],
                                         said: str) -> None:
    host = Host(tmp_path, WallClock())
    service = await host.start()
    a = await login(service, "key-a", "ann")
    reply = await ask(a, message, "error")
    assert said in reply["message"] and "\n" not in reply["message"]
    assert (await ask(a, {"t": "corr_news"}, "corr_news"))["your_move"] == 0  # still served
    await host.stop()


async def test_a_damaged_game_is_one_log_line_and_skipped(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    host = Host(tmp_path, WallClock())
    service = await host.start()
    a, b = await login(service, "key-a", "ann"), await login(service, "key-b", "bob")
    good = await open_game(a, b)
    bad = await open_game(a, b)
    await host.stop()
    conn = sqlite3.connect(tmp_path / "data" / FILE_NAME, isolation_level=None)
    conn.execute("UPDATE corr_games SET moves = ? WHERE id = ?", (json.dumps(["zz"]), bad))
    conn.close()
    service = await host.start()
    a = await login(service, "key-a", "ann")
    with caplog.at_level(logging.ERROR, logger="parlor.host.correspondence"):
        listed = await ask(a, {"t": "corr_list"}, "corr_list")
    assert [g["id"] for g in listed["games"]] == [good]
    lines = [r.getMessage() for r in caplog.records if bad in r.getMessage()]
    assert len(lines) == 1 and "cannot be replayed" in lines[0]
    a.send({"t": "corr_open", "id": bad})
    assert "cannot be replayed" in (await a.next("error"))["message"]
    await host.stop()


async def test_a_challenge_declined_and_a_game_withdrawn_are_not_rated(tmp_path: Path) -> None:
    host = Host(tmp_path, WallClock())
    service = await host.start()
    assert host.data is not None
    bob = host.data.ensure_player("key-b").result()
    assert host.data.claim_first_name(bob, "bob").result() == "claimed"
    a, b = await login(service, "key-a", "ann"), await login(service, "key-b", "bob")
    made = await ask(a, {"t": "corr_new", "game": "tictactoe", "days": 1, "name": "bob"},
                     "corr_made")
    await b.next("corr_note")
    declined = await ask(b, {"t": "corr_resign", "id": made["id"]}, "corr_note")
    assert declined["text"] == "challenge declined"
    assert "ended (declined)" in (await a.next("corr_note"))["text"]
    b.send({"t": "corr_join", "id": made["id"]})
    assert "over" in (await b.next("error"))["message"]
    game_id = await open_game(a, b)
    assert "bob joined" in (await a.next("corr_note"))["text"]
    withdrawn = await ask(a, {"t": "corr_resign", "id": game_id}, "corr_note")
    assert withdrawn["text"].endswith("with bob ended (withdrawn)")  # nobody moved yet
    kept = host.data.corr_game(game_id)
    assert kept is not None and kept.result == "*" and kept.termination == "withdrawn"
    host.data.sync()
    assert host.data.game(game_id) is None  # not archived, not rated
    assert games_rated(host.data, "key-a") == 0
    await host.stop()


async def test_a_result_kept_but_not_archived_is_settled_once_at_start(tmp_path: Path) -> None:
    clock = WallClock()
    with HostData.open(tmp_path / "data", now=clock) as data:  # as a host that stopped
        data.corr_create(CorrGame(  # between keeping the result and archiving the game
            id="corr-00000000000000aa", game="tictactoe", options={},
            seats=("key-a", "key-b"), names=("ann", "bob"), invited=None,
            moves=("b2", "a1", "b1", "c1", "b3"), days=1, deadline=None, result="1-0",
            termination="normal", told=0, version=3, created=clock.t,
            updated=clock.t)).result()
        assert data.corr_unsettled() == ["corr-00000000000000aa"]
    host = Host(tmp_path, clock)
    host.auto_sweep = True
    for _ in range(2):  # started twice: counted once
        service = await host.start()
        await asyncio.wait_for(service.corr.swept.wait(), 60)  # a safety net only
        assert host.data is not None
        host.data.sync()
        assert host.data.corr_unsettled() == []
        archived = host.data.game("corr-00000000000000aa")
        assert archived is not None and archived.result == "1-0"
        for key in ("key-a", "key-b"):
            assert games_rated(host.data, key) == 1
        await host.stop()


async def test_without_a_database_login_news_is_empty_and_the_rest_one_line(
        service: RoomService) -> None:
    a = await login(service, "key-a", "ann")
    assert await ask(a, {"t": "corr_news"}, "corr_news") == {
        "t": "corr_news", "your_move": 0, "lines": []}
    refused = await ask(a, {"t": "corr_list"}, "error")
    assert refused["message"] == "this host keeps no correspondence games"


async def test_a_connection_that_never_said_who_it_is_is_not_told(tmp_path: Path) -> None:
    host = Host(tmp_path, WallClock())
    service = await host.start()
    a, b = await login(service, "key-a", "ann"), await login(service, "key-b", "bob")
    game_id = await open_game(a, b)
    await move(a, game_id, "b2")
    a.close()
    for _ in range(6000):  # until the service has seen ann's session go (a safety net)
        if not service.accounts.online("key-a"):
            break
        await asyncio.sleep(0.01)
    assert not service.accounts.online("key-a")
    quiet = await Line.open(service, service.issue("key-a", "ann"))  # a brain slot's, say
    await ask(b, {"t": "corr_resign", "id": game_id}, "corr_game")
    assert host.data is not None
    kept = host.data.corr_game(game_id)
    assert kept is not None and kept.result == "1-0" and kept.told == 2  # bob only
    a = await login(service, "key-a", "ann")
    news = await ask(a, {"t": "corr_news"}, "corr_news")
    assert news["lines"] == ["you won by resignation against bob in tictactoe"]
    quiet.close()
    await host.stop()
