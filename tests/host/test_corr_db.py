"""Correspondence games in the host's database (tui/host/db.py, schema version 3): the
migration from version 2, a game kept and read back, a change refused when the game
changed meanwhile, the lists, and a damaged row reported in one line and skipped."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from pathlib import Path

import pytest

from tui.host import db
from tui.host.db import CorrGame, HostData, HostDataError


def game(game_id: str = "c-1", **changes: object) -> CorrGame:
    base = CorrGame(id=game_id, game="tictactoe", options={}, seats=("key-a", "key-b"),
                    names=("ann", "bob"), invited=None, moves=(), days=1,
                    deadline=86_400.0, result=None, termination="", told=0, version=0,
                    created=10.0, updated=10.0)
    return replace(base, **changes)  # type: ignore[arg-type]


def test_version_two_database_is_migrated_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / db.FILE_NAME
    conn = sqlite3.connect(path, isolation_level=None)
    assert db.migrate(conn, path, upto=2) == 2
    conn.execute("INSERT INTO players (name, created) VALUES ('Ada', 5.0)")
    conn.close()
    with HostData.open(tmp_path, now=lambda: 50.0) as data:
        assert data.schema_version == db.VERSION
        assert data.player_named("ada") is not None
        data.corr_create(game()).result()
        assert data.corr_game("c-1") == game()


def test_a_game_is_kept_changed_once_and_listed(tmp_path: Path) -> None:
    with HostData.open(tmp_path, now=lambda: 50.0) as data:
        data.corr_create(game(moves=("b2",))).result()
        with pytest.raises(HostDataError):  # the id is taken
            data.corr_create(game()).result()
        kept = data.corr_game("c-1")
        assert kept is not None and kept.moves == ("b2",)
        moved = replace(kept, moves=("b2", "a1"), deadline=200.0, version=kept.version + 1)
        assert data.corr_save(moved).result()
        assert not data.corr_save(moved).result()  # read before that change: refused
    with HostData.open(tmp_path, now=lambda: 50.0) as data:  # reopened: still there
        again = data.corr_game("c-1")
        assert again is not None and again.moves == ("b2", "a1") and again.version == 1
        mine, bad = data.corr_of("key-b")
        assert [g.id for g in mine] == ["c-1"] and bad == []
        assert data.corr_of("key-z") == ([], [])
        assert data.corr_due(199.0) == [] and data.corr_due(200.0) == ["c-1"]
        data.corr_told("c-1", 2).result()
        told = data.corr_game("c-1")
        assert told is not None and told.told == 2
        data.corr_create(game("c-2", seats=("key-a", None), names=("ann", ""))).result()
        data.corr_create(game("c-3", seats=(None, "key-b"), invited="key-c")).result()
        listed, _ = data.corr_open()
        assert [g.id for g in listed] == ["c-2"]  # c-3 waits for the one challenged


def test_bad_values_are_refused_before_writing(tmp_path: Path) -> None:
    with HostData.open(tmp_path, now=lambda: 50.0) as data:
        with pytest.raises(HostDataError, match="1, 3 or 7"):
            data.corr_create(game(days=2))
        assert data.corr_game("c-1") is None


@pytest.mark.parametrize(("column", "value", "said"), [
    ("moves", "[1, 2", "not JSON"),
    ("moves", '["b2", 7]', "moves"),
    ("days", 5, "days per move"),
    ("options", '["x"]', "options"),
    ("told", 9, "told"),
])
def test_a_damaged_row_is_one_line_and_skipped(tmp_path: Path, column: str, value: object,
                                                said: str) -> None:
    with HostData.open(tmp_path, now=lambda: 50.0) as data:
        data.corr_create(game("c-good")).result()
        data.corr_create(game("c-bad")).result()
    conn = sqlite3.connect(tmp_path / db.FILE_NAME, isolation_level=None)
    conn.execute(f"UPDATE corr_games SET {column} = ? WHERE id = 'c-bad'", (value,))
    conn.close()
    with HostData.open(tmp_path, now=lambda: 50.0) as data:
        with pytest.raises(HostDataError, match=said) as raised:
            data.corr_game("c-bad")
        assert "\n" not in str(raised.value)
        games, bad = data.corr_of("key-a")
        assert [g.id for g in games] == ["c-good"]
        assert len(bad) == 1 and said in bad[0] and "\n" not in bad[0]
