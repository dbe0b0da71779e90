"""The host's database is the one source of hosted players' ratings (tui/host/db.py):
a game is settled in one transaction, once per game id and account, from the ratings the
database holds; migration 4 brings the players' ratings.json in, once."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from brains.glicko import Glicko, update
from tui.host import db
from tui.host.db import HostData, HostDataError, RatedSide
from tui.host.rooms import RoomService, user_data, user_ratings
from tui.player.ratings import PlayerRating


class Clock:
    def __init__(self) -> None:
        self.t = 1_800_000_000.0

    def __call__(self) -> float:
        return self.t


def rating_of(data: HostData, key: str, game: str = "tictactoe") -> PlayerRating | None:
    player = data.player_for_key(key)
    kept = data.rating(player.id, game) if player is not None else None
    return None if kept is None else PlayerRating(game, kept.rating, kept.deviation,
                                                  kept.volatility, kept.games)


def test_a_game_is_counted_once_for_the_account_whichever_key(tmp_path: Path) -> None:
    with HostData.open(tmp_path, now=Clock()) as data:
        ada = data.ensure_player("key-ada").result()
        assert data.add_key(ada, "key-ada-2").result()
        fresh = PlayerRating.fresh("tictactoe")
        won = data.settle("g1", "tictactoe", [RatedSide(0, "key-ada-2", 1.0),
                                              RatedSide(1, "key-bob", 0.0)]).result()
        want = update(fresh.glicko, [(fresh.glicko, 1.0)])
        assert set(won) == {0, 1} and won[0][0] == fresh
        assert won[0][1].rating == pytest.approx(want.rating)
        mine = rating_of(data, "key-ada")  # the account's one rating, by either key
        assert mine is not None and mine.games == 1 and mine == rating_of(data, "key-ada-2")
        assert mine.rating == pytest.approx(want.rating)
        # settled again (retried, or a host restarted mid-way): nothing changes
        assert data.settle("g1", "tictactoe", [RatedSide(0, "key-ada", 1.0),
                                               RatedSide(1, "key-bob", 0.0)]).result() == {}
        assert rating_of(data, "key-ada") == mine and rating_of(data, "key-bob") is not None
        # the next game starts from the database's ratings, for both sides
        bob = rating_of(data, "key-bob")
        assert bob is not None
        drawn = data.settle("g2", "tictactoe", [RatedSide(1, "key-ada", 0.5),
                                                RatedSide(0, "key-bob", 0.5)]).result()
        assert drawn[1][1].rating == pytest.approx(
            update(mine.glicko, [(bob.glicko, 0.5)]).rating)
        assert drawn[0][1].rating == pytest.approx(
            update(bob.glicko, [(mine.glicko, 0.5)]).rating)
        # against a rated level: a fixed opponent
        level = data.settle("g3", "tictactoe", [RatedSide(0, "key-cat", 0.0,
                                                          (900.0, 0.0))]).result()
        assert level[0][1].rating == pytest.approx(update(
            fresh.glicko, [(Glicko(900.0, 1e-6), 0.0)]).rating)
        data.sync()
        assert data.counted(ada, "g1") and data.counted(ada, "g2")
        assert not data.counted(ada, "g3")
        [ada_rating] = data.ratings_of(ada)
        assert ada_rating.games == 2
        with pytest.raises(HostDataError):  # one account on both sides
            data.settle("g4", "tictactoe", [RatedSide(0, "key-ada", 1.0),
                                            RatedSide(1, "key-ada-2", 0.0)]).result()
        with pytest.raises(ValueError):
            data.settle("g5", "tictactoe", [RatedSide(0, "key-ada", 2.0,
                                                      (900.0, 50.0))])


def test_a_damaged_rating_row_is_one_line_and_changes_nothing(tmp_path: Path) -> None:
    with HostData.open(tmp_path, now=Clock()) as data:
        data.settle("g1", "tictactoe", [RatedSide(0, "key-a", 1.0),
                                        RatedSide(1, "key-b", 0.0)]).result()
        bob = rating_of(data, "key-b")
        conn = sqlite3.connect(tmp_path / db.FILE_NAME)
        player = data.player_for_key("key-a")
        assert player is not None
        conn.execute("UPDATE ratings SET deviation = -5 WHERE player = ?", (player.id,))
        conn.commit()
        conn.close()
        with pytest.raises(HostDataError, match="damaged rating") as caught:
            data.settle("g2", "tictactoe", [RatedSide(0, "key-a", 1.0),
                                            RatedSide(1, "key-b", 0.0)]).result()
        assert "\n" not in str(caught.value)
        assert rating_of(data, "key-b") == bob  # the whole settlement rolled back
        assert not data.counted(player.id, "g2")
        kept = data._read("SELECT deviation FROM ratings WHERE player = ?", (player.id,))
        assert kept == [(-5.0,)]  # the row is left for the keeper to look at


def write_ratings(users: Path, identity: str, games: dict[str, dict]) -> Path:
    path = user_data(users, identity) / "ratings.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"format": "parlor-player-ratings", "version": 1,
                                "games": games}))
    return path


async def test_an_old_database_migrates_and_takes_the_players_ratings_json_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path, users = tmp_path / "data" / db.FILE_NAME, tmp_path / "users"
    path.parent.mkdir()
    conn = sqlite3.connect(path, isolation_level=None)  # a host of schema version 3
    assert db.migrate(conn, path, upto=3) == 3
    conn.executescript("""
        INSERT INTO players (id, name, created) VALUES (1, 'ann', 1.0), (2, 'bob', 1.0),
            (3, 'cat', 1.0);
        INSERT INTO keys (fingerprint, player, added) VALUES ('key-ann', 1, 1.0),
            ('key-ann-2', 1, 2.0), ('key-bob', 2, 1.0), ('key-cat', 3, 1.0);
        INSERT INTO ratings VALUES (1, 'tictactoe', 1600.0, 120.0, 0.06, 2, 1.0);
        INSERT INTO ratings VALUES (2, 'tictactoe', 1700.0, 90.0, 0.06, 9, 1.0);
    """)
    conn.close()
    entry = {"rating": 1650.5, "deviation": 100.0, "volatility": 0.0601, "games": 3,
             "updated": "2026-11-23T18:02:11+00:00", "counted": ["g-old-1", "g-old-2"]}
    write_ratings(users, "key-ann", {"tictactoe": entry, "connect4": {
        **entry, "rating": 800.0, "games": 1, "counted": []}})
    write_ratings(users, "key-bob", {"tictactoe": {**entry, "games": 4, "counted": []}})
    damaged = write_ratings(users, "key-cat", {})
    damaged.write_bytes(b"\x00not json")
    with HostData.open(tmp_path / "data", now=Clock()) as data:
        assert data.schema_version == db.VERSION
        assert data.tasks() == [db.IMPORT_RATINGS]
        for _ in range(2):  # the host started twice: taken once
            service = RoomService(tmp_path / "rooms.sock", users, host_data=data)
            await service.start()
            await service.stop()
            assert data.tasks() == []
        ann, bob = rating_of(data, "key-ann-2"), rating_of(data, "key-bob")
        assert ann == PlayerRating("tictactoe", 1650.5, 100.0, 0.0601, 3)  # the file's
        assert rating_of(data, "key-ann", "connect4") == PlayerRating(
            "connect4", 800.0, 100.0, 0.0601, 1)
        assert bob == PlayerRating("tictactoe", 1700.0, 90.0, 0.06, 9)  # it counts more games
        assert rating_of(data, "key-cat") is None
        # a game the file had counted does not count again
        again = data.settle("g-old-1", "tictactoe", [RatedSide(0, "key-ann", 1.0),
                                                     RatedSide(1, "key-bob", 0.0)]).result()
        assert set(again) == {1} and rating_of(data, "key-ann") == ann
    lines = [r.getMessage() for r in caplog.records if "importing ratings" in r.getMessage()]
    assert len(lines) == 1 and "not JSON" in lines[0] and "\n" not in lines[0]
    assert damaged.read_bytes() == b"\x00not json"  # kept as it was
    assert user_ratings(users, "key-ann").current("tictactoe").games == 3  # untouched
