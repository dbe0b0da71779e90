"""Rooms kept on disk across a restart, brains in rooms' seats, and the players' ratings
after room games (at the room service's level; the SSH path is in test_host_crash)."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from brains.glicko import Glicko, update
from tests.host.test_rooms import Line, games_rated, kept_rating, pair
from tui.game.opponents import rated_level
from tui.host import brainseat, roomfile
from tui.host.db import HostData, RatedSide
from tui.host.rooms import RoomService, user_history, user_ratings
from tui.player.ratings import PlayerRating
from tui.player.store import read_records


async def moves_at_least(line: Line, count: int) -> dict:
    """The next room update with at least ``count`` moves (or a result)."""
    while True:
        snap = await line.room()
        if len(snap["moves"]) >= count or snap["result"]:
            return snap


def records(service: RoomService, identity: str) -> list:
    return [r for path in sorted(user_history(service.users, identity).glob("*.pgn"))
            for r in read_records(path)]


async def crash(service: RoomService, *lines: Line) -> None:
    """Leave ``service`` as a killed process would: nothing recorded, nothing cleaned."""
    assert service.server is not None
    service.server.close()
    for line in lines:
        line.close()
    for room in service.rooms.values():  # its timers die with it
        for timer in room.dropped.values():
            timer.cancel()
        if room.flag_timer is not None:
            room.flag_timer.cancel()
    service.rooms.clear()
    await asyncio.sleep(0)


async def test_a_game_in_progress_survives_a_crash_and_is_finished_after_the_restart(tmp_path):
    first = RoomService(tmp_path / "rooms.sock", tmp_path / "users", grace=30.0)
    await first.start()
    a, b, code = await pair(first, clock="5+3")
    a.send({"t": "move", "move": "b2"})
    await b.room(moves=["b2"])
    b.send({"t": "move", "move": "a1"})
    seen = await a.room(moves=["b2", "a1"])
    kept = json.loads(roomfile.path_for(first.keep, code).read_text())
    assert kept["moves"] == ["b2", "a1"] and kept["seats"] == ["key-a", "key-b"]
    await crash(first, a, b)

    second = RoomService(tmp_path / "rooms.sock", tmp_path / "users", grace=30.0)
    await second.start()
    try:
        room = second.rooms[code]
        assert room.texts == ["b2", "a1"] and room.conns == [None, None]
        assert set(room.dropped) == {0, 1}  # both seats kept, the grace time running
        # the clock goes on from its kept reading (the outage is not charged), once
        # both players are back: until then it waits
        assert room.clock is not None and room.clock.running is None and room.held == 0
        assert abs(room.clock.remaining(1, second.now()) - seen["clock"]["left"][1]) < 1.0
        a = await Line.open(second, second.issue("key-a", "alice"))
        b = await Line.open(second, second.issue("key-b", "bob"))
        a.send({"t": "join", "code": code})
        assert (await a.room())["moves"] == ["b2", "a1"]
        b.send({"t": "join", "code": code})
        back = await b.room(present=[True, True])
        assert back["you"] == 1 and not room.dropped
        assert room.held is None and room.clock.running == 0
        for mover, move in [(a, "b1"), (b, "c1"), (a, "b3")]:
            mover.send({"t": "move", "move": move})
            await b.room(moves=[*back["moves"], move])
            back["moves"].append(move)
        assert (await a.room(result="1-0"))["termination"] == "three in a row"
        for key in ("key-a", "key-b"):
            [record] = records(second, key)
            assert record.moves == ["b2", "a1", "b1", "c1", "b3"] and record.result == "1-0"
        assert not roomfile.path_for(second.keep, code).exists()  # recorded, then removed
    finally:
        await second.stop()


async def test_after_a_restart_the_clocks_wait_until_both_players_are_back(tmp_path):
    now = [1000.0]
    first = RoomService(tmp_path / "rooms.sock", tmp_path / "users", clock=lambda: now[0])
    await first.start()
    a, b, code = await pair(first, clock="1+0")
    a.send({"t": "move", "move": "b2"})
    await b.room(moves=["b2"])
    now[0] += 4.0  # O thinks 4 s, then the host dies
    first.save(first.rooms[code])
    await crash(first, a, b)
    second = RoomService(tmp_path / "rooms.sock", tmp_path / "users", grace=600.0,
                         clock=lambda: now[0])
    await second.start()
    try:
        room = second.rooms[code]
        assert room.clock is not None
        now[0] += 300.0  # nobody back for five minutes: more than O had
        assert room.clock.remaining(1, now[0]) == pytest.approx(56.0)
        assert not second.check_flag(room)
        b = await Line.open(second, second.issue("key-b", "bob"))
        b.send({"t": "join", "code": code})
        snap = await b.room()
        assert snap["clock"]["running"] is None and snap["clock"]["held"] == 1
        assert snap["note"] == "bob is back; the clocks wait for alice"
        b.send({"t": "move", "move": "a1"})  # one player back is not both
        assert "both players" in (await b.next("error"))["message"]
        now[0] += 30.0
        assert room.clock.remaining(1, now[0]) == pytest.approx(56.0)
        a = await Line.open(second, second.issue("key-a", "alice"))
        a.send({"t": "join", "code": code})
        running = await b.room(present=[True, True])
        assert running["clock"]["running"] == 1 and running["clock"]["held"] is None
        now[0] += 6.0
        assert room.clock.remaining(1, now[0]) == pytest.approx(50.0)
        b.send({"t": "move", "move": "a1"})
        await a.room(moves=["b2", "a1"])
    finally:
        await second.stop()


async def test_after_a_restart_a_player_who_never_returns_loses_by_abandonment(tmp_path):
    first = RoomService(tmp_path / "rooms.sock", tmp_path / "users")
    await first.start()
    a, b, code = await pair(first)
    a.send({"t": "move", "move": "b2"})
    await b.room(moves=["b2"])
    await crash(first, a, b)
    second = RoomService(tmp_path / "rooms.sock", tmp_path / "users", grace=0.5)
    await second.start()
    try:
        a = await Line.open(second, second.issue("key-a", "alice"))
        a.send({"t": "join", "code": code})
        final = await a.room(result="1-0")  # bob's grace (from the restart) runs out
        assert final["termination"] == "abandoned"
        [record] = records(second, "key-b")
        assert record.result == "1-0" and record.termination == "abandoned"
    finally:
        await second.stop()


async def test_a_clean_stop_records_the_game_and_the_next_start_goes_on_with_it(tmp_path):
    first = RoomService(tmp_path / "rooms.sock", tmp_path / "users")
    await first.start()
    a, b, code = await pair(first)
    a.send({"t": "move", "move": "b2"})
    await b.room(moves=["b2"])
    await first.stop()
    [record] = records(first, "key-a")
    assert record.result == "*" and record.termination == "unterminated"
    second = RoomService(tmp_path / "rooms.sock", tmp_path / "users")
    await second.start()
    try:
        b = await Line.open(second, second.issue("key-b", "bob"))
        b.send({"t": "join", "code": code})
        await b.room(moves=["b2"])
        b.send({"t": "resign"})
        assert (await b.room(result="1-0"))["termination"] == "resignation"
        [record] = records(second, "key-a")  # the same file, now with the result
        assert record.result == "1-0" and record.termination == "resignation"
    finally:
        await second.stop()


def test_a_damaged_room_file_is_one_line_and_kept_aside(tmp_path, caplog):
    good = RoomService(tmp_path / "rooms.sock", tmp_path / "users")
    keep = good.keep
    base = {"code": "ABCDE", "game": "tictactoe", "options": {}, "clock": "", "left": None,
            "seats": ["key-a", "key-b"], "names": ["alice", "bob"], "moves": ["b2", "a1"],
            "running": None, "file": "20261123-000000-1-abcd", "brain": None, "seed": 3,
            "rated": True, "result": None, "termination": ""}
    roomfile.save(keep, "ABCDE", base)
    roomfile.save(keep, "FGHJK", {**base, "code": "FGHJK", "moves": ["b2", "b2"]})
    roomfile.save(keep, "MNPQR", {**base, "code": "MNPQR", "file": "../../etc/passwd"})
    roomfile.save(keep, "STUVW", {**base, "code": "STUVW",
                                  "brain": {"side": 1, "spec": "mlp,model=/tmp/x.joblib"}})
    (keep / "XYZ23.json").write_bytes(b"\x00\xff" * 10 + b"{")
    (keep / ".ABCDE.json.1234.tmp").write_text("half a write")
    with caplog.at_level(logging.WARNING, logger="parlor.host.rooms"):
        rooms = roomfile.load(keep)
    assert [r.code for r in rooms] == ["ABCDE"] and rooms[0].texts == ["b2", "a1"]
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 4 and all("\n" not in line and len(line) < 300 for line in lines)
    assert any("FGHJK" in line and "move 2" in line for line in lines)
    assert any("model" in line for line in lines)
    for code in ("FGHJK", "MNPQR", "STUVW", "XYZ23"):
        assert (keep / f"{code}.json.damaged").exists()
        assert not (keep / f"{code}.json").exists()
    assert not (keep / ".ABCDE.json.1234.tmp").exists()


async def test_a_service_starts_past_damaged_room_files(tmp_path, caplog):
    keep = tmp_path / "rooms"
    keep.mkdir()
    (keep / "ABCDE.json").write_text('{"format": "parlor-room", "version": 1, "code": 5}')
    with caplog.at_level(logging.WARNING, logger="parlor.host.rooms"):
        service = RoomService(tmp_path / "rooms.sock", tmp_path / "users")
        await service.start()
    try:
        assert not service.rooms
        assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1
        a, b, _ = await pair(service)  # and it serves rooms as usual
        a.send({"t": "move", "move": "b2"})
        await b.room(moves=["b2"])
    finally:
        await service.stop()


# -- brains in rooms' seats ---------------------------------------------------------


async def test_a_room_with_a_brain_seat_plays_to_the_end_and_is_recorded(tmp_path):
    service = RoomService(tmp_path / "rooms.sock", tmp_path / "users", brain_slots=1)
    await service.start()
    try:
        a = await Line.open(service, service.issue("key-a", "alice"))
        for bad in ("mlp,model=/tmp/evil.joblib", "external:edax", "level:99", "nobody"):
            a.send({"t": "create", "game": "tictactoe", "opponent": bad})
            assert "not an opponent" in (await a.next("error"))["message"]
        a.send({"t": "create", "game": "tictactoe", "opponent": "level:8", "side": "second",
                "clock": "1"})
        first = await a.room(started=True)
        assert first["names"] == ["level:8", "alice"] and first["you"] == 1
        code = first["code"]
        c = await Line.open(service, service.issue("key-c", "carol"))
        c.send({"t": "watch", "code": code})
        moves = (await c.room())["moves"]
        while True:
            snap = await a.room()
            if snap["result"]:
                break
            if len(snap["moves"]) % 2 == 1 and len(snap["moves"]) > len(moves):
                moves = snap["moves"]
                state = service.rooms[code].state
                a.send({"t": "move", "move": state.format_move(state.legal_moves()[0])})
        watched = await c.room(result=snap["result"])
        assert watched["moves"] == snap["moves"] and len(snap["moves"]) >= 5
        [record] = records(service, "key-a")
        assert record.tags["First"] == "level:8" and record.moves == snap["moves"]
        assert not list((tmp_path / "users").glob("*brain*"))
    finally:
        await service.stop()


async def test_a_brain_seat_waits_for_a_free_host_slot(tmp_path):
    service = RoomService(tmp_path / "rooms.sock", tmp_path / "users", brain_slots=1)
    await service.start()
    try:
        holder = await Line.open(service, service.issue("k1", "a"))
        holder.send({"t": "brain"})
        assert (await holder.next())["t"] == "brain_ok"
        a = await Line.open(service, service.issue("key-a", "alice"))
        a.send({"t": "create", "game": "tictactoe", "opponent": "level:1", "side": "second"})
        await a.room(started=True, moves=[])
        with pytest.raises(asyncio.TimeoutError):  # the only slot is taken: it waits
            await asyncio.wait_for(moves_at_least(a, 1), 1.0)
        assert not service.rooms[next(iter(service.rooms))].moves
        holder.close()
        assert len((await moves_at_least(a, 1))["moves"]) == 1
    finally:
        await service.stop()


async def test_a_brain_whose_worker_process_died_plays_in_a_fresh_one(tmp_path):
    import os
    import signal

    service = RoomService(tmp_path / "rooms.sock", tmp_path / "users", brain_slots=1)
    await service.start()
    try:
        pool = service.brain_pool()
        assert await asyncio.get_running_loop().run_in_executor(
            pool, brainseat.warm, "tictactoe")
        for pid in list(pool._processes):  # the worker dies (killed, out of memory…)
            os.kill(pid, signal.SIGKILL)
        await asyncio.sleep(0.5)
        a = await Line.open(service, service.issue("key-a", "alice"))
        a.send({"t": "create", "game": "tictactoe", "opponent": "level:3", "side": "second"})
        snap = await moves_at_least(a, 1)
        assert len(snap["moves"]) == 1 and not snap["result"]
        assert service.pool is not pool
    finally:
        await service.stop()


async def test_a_brain_room_survives_a_restart_and_the_brain_plays_on(tmp_path):
    first = RoomService(tmp_path / "rooms.sock", tmp_path / "users")
    await first.start()
    a = await Line.open(first, first.issue("key-a", "alice"))
    a.send({"t": "create", "game": "tictactoe", "opponent": "level:4", "side": "first"})
    code = (await a.room(started=True))["code"]
    a.send({"t": "move", "move": "b2"})
    reply = await moves_at_least(a, 2)
    await crash(first, a)
    if first.pool is not None:
        first.pool.shutdown()
    second = RoomService(tmp_path / "rooms.sock", tmp_path / "users")
    await second.start()
    try:
        room = second.rooms[code]
        assert room.brain == "level:4" and room.brain_side == 1 and set(room.dropped) == {0}
        a = await Line.open(second, second.issue("key-a", "alice"))
        a.send({"t": "join", "code": code})
        snap = await a.room()
        assert snap["moves"] == reply["moves"] and snap["present"] == [True, True]
        state = room.state
        a.send({"t": "move", "move": state.format_move(state.legal_moves()[0])})
        later = await moves_at_least(a, 4)
        assert later["moves"][:2] == reply["moves"]
    finally:
        await second.stop()


# -- ratings: the host's database is their one source -----------------------------------


class Clock:
    """The database's clock: a fake, moved by hand."""

    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def rated(tmp_path):
    """A room service with its database (ratings live there; no database, no ratings)."""
    data = HostData.open(tmp_path / "data", now=Clock())
    rooms = RoomService(tmp_path / "rooms.sock", tmp_path / "users", host_data=data)
    await rooms.start()
    try:
        yield rooms
    finally:
        await rooms.stop()
        data.close()


async def rated_snapshot(line: Line) -> dict:
    """The room as shown once the game's ratings have committed (they follow the end)."""
    while True:
        snap = await line.room()
        if snap["rating"]:
            return snap


async def test_a_finished_game_between_people_rates_both_once_in_the_database(rated):
    data = rated.host_data
    for key in ("key-a", "key-b"):  # each starts with one earlier game, in the database
        await asyncio.wrap_future(data.set_rating_for_key(key, "tictactoe", 1500.0, 200.0,
                                                          0.06, 1))
    before = {k: kept_rating(data, k) for k in ("key-a", "key-b")}
    a, b, _ = await pair(rated)
    for ply, (mover, move) in enumerate([(a, "b2"), (b, "a1"), (a, "b1"), (b, "c1"), (a, "b3")]):
        mover.send({"t": "move", "move": move})
        await moves_at_least(mover, ply + 1)
    final = await rated_snapshot(b)
    after = {k: kept_rating(data, k) for k in ("key-a", "key-b")}
    ga, gb = (Glicko(r.rating, r.deviation, r.volatility) for r in
              (before["key-a"], before["key-b"]))
    want_a, want_b = update(ga, [(gb, 1.0)]), update(gb, [(ga, 0.0)])
    assert after["key-a"].games == after["key-b"].games == 2  # once each
    assert after["key-a"].rating == pytest.approx(want_a.rating)
    assert after["key-b"].rating == pytest.approx(want_b.rating)
    assert after["key-b"].deviation == pytest.approx(want_b.deviation)
    assert final["rating"] == PlayerRating("tictactoe", after["key-b"].rating,
                                           after["key-b"].deviation).text()
    # the players' own files are not the ratings of a hosted player any more
    assert user_ratings(rated.users, "key-a").current("tictactoe").games == 0
    # settled again (a retry; a room restored and finished again): counted once
    [room] = [r for r in rated.rooms.values() if r.over]
    again = await asyncio.wrap_future(data.settle(room.game_file, "tictactoe", [
        RatedSide(0, "key-a", 1.0), RatedSide(1, "key-b", 0.0)]))
    assert again == {} and kept_rating(data, "key-a") == after["key-a"]


async def test_games_without_a_move_and_games_with_a_takeback_are_not_rated(rated):
    a, b, _ = await pair(rated)
    b.send({"t": "resign"})  # before any move: nothing recorded, nothing rated
    await a.room(result="1-0")
    a2, b2, _ = await pair(rated)
    a2.send({"t": "move", "move": "b2"})
    await b2.room(moves=["b2"])
    a2.send({"t": "offer", "kind": "takeback"})
    await b2.room(offer={"kind": "takeback", "by": 0})
    b2.send({"t": "answer", "accept": True})
    assert (await a2.room(moves=[]))["rated"] is False
    a2.send({"t": "move", "move": "a1"})
    await b2.room(moves=["a1"])
    b2.send({"t": "resign"})
    await a2.room(result="1-0")
    for key in ("key-a", "key-b"):
        assert games_rated(rated.host_data, key) == 0
    assert len(records(rated, "key-a")) == 1  # recorded all the same


async def resign_to_a_brain(rated, game: str, opponent: str, move: str) -> dict:
    """alice plays ``move`` first against the brain ``opponent``, sees its reply and
    resigns; the room's last message."""
    a = await Line.open(rated, rated.issue("key-a", "alice"))
    a.send({"t": "create", "game": game, "opponent": opponent, "side": "first"})
    await a.room(started=True)
    a.send({"t": "move", "move": move})
    await moves_at_least(a, 2)
    a.send({"t": "resign"})
    return await a.room(result="0-1")


async def test_a_game_against_a_rated_level_rates_the_person_against_that_level(rated):
    ended = await resign_to_a_brain(rated, "connect4", "level:2", "4")
    assert ended["termination"] == "resignation"
    level = rated_level("level:2", "connect4")
    assert level is not None and level.deviation > 0
    fresh = PlayerRating.fresh("connect4")
    want = update(fresh.glicko, [(Glicko(level.rating, level.deviation), 0.0)])
    after = kept_rating(rated.host_data, "key-a", "connect4")
    assert after is not None and after.games == 1
    assert after.rating == pytest.approx(want.rating)


async def test_a_game_against_an_unrated_brain_leaves_the_rating_alone(rated):
    await resign_to_a_brain(rated, "tictactoe", "random", "b2")
    assert games_rated(rated.host_data, "key-a") == 0
    assert len(records(rated, "key-a")) == 1
