"""The host's database (tui/host/db.py): schema and migrations, refusals, one writer,
players/keys/names, ratings, the archive, invitations, chat, and the online backup."""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from tui.host import db
from tui.host.db import ArchivedGame, HostData, HostDataError, Seat


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


@pytest.fixture
def data(tmp_path: Path) -> Iterator[HostData]:
    with HostData.open(tmp_path / "host", now=Clock()) as opened:
        yield opened


def test_new_database_is_wal_with_the_current_schema(tmp_path: Path) -> None:
    with HostData.open(tmp_path, now=Clock()) as data:
        assert data.schema_version == db.VERSION == 5
    assert (tmp_path / db.FILE_NAME).stat().st_mode & 0o777 == 0o600
    conn = sqlite3.connect(tmp_path / db.FILE_NAME)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA application_id").fetchone()[0] == db.APPLICATION_ID
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"players", "keys", "ratings", "games", "game_players", "invitations",
            "chat", "corr_games", "rated_games", "host_tasks", "pending_keys"} <= tables
    conn.close()


def test_version_one_database_is_migrated(tmp_path: Path) -> None:
    path = tmp_path / db.FILE_NAME
    conn = sqlite3.connect(path, isolation_level=None)
    assert db.migrate(conn, path, upto=1) == 1
    conn.execute("INSERT INTO players (name, created) VALUES ('Ada', 5.0)")
    conn.close()
    with HostData.open(tmp_path, now=Clock()) as data:
        assert data.schema_version == db.VERSION
        ada = data.player_named("ada")
        assert ada is not None and ada.name == "Ada"
        assert data.say("r1", ada.id, "hello").result() >= 1
        assert [m.text for m in data.chat("r1")] == ["hello"]


def test_newer_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / db.FILE_NAME
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA application_id = {db.APPLICATION_ID}")
    conn.execute(f"PRAGMA user_version = {db.VERSION + 1}")
    conn.execute("CREATE TABLE future (x)")
    conn.commit()
    conn.close()
    with pytest.raises(HostDataError, match="newer Parlor") as caught:
        HostData.open(tmp_path)
    assert "\n" not in str(caught.value)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == db.VERSION + 1
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal"
    conn.close()


def test_foreign_files_are_refused_in_one_line(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage"
    garbage.mkdir()
    (garbage / db.FILE_NAME).write_bytes(b"not a database at all\n" * 200)
    with pytest.raises(HostDataError, match="not a Parlor host database") as caught:
        HostData.open(garbage)
    assert "\n" not in str(caught.value)
    assert (garbage / db.FILE_NAME).read_bytes() == b"not a database at all\n" * 200

    other = tmp_path / "other"
    other.mkdir()
    conn = sqlite3.connect(other / db.FILE_NAME)
    conn.execute("CREATE TABLE mine (x)")
    conn.commit()
    conn.close()
    with pytest.raises(HostDataError, match="not a Parlor host database"):
        HostData.open(other)

    linked = tmp_path / "linked"
    linked.mkdir()
    os.symlink(garbage / db.FILE_NAME, linked / db.FILE_NAME)
    with pytest.raises(HostDataError, match="not a regular file"):
        HostData.open(linked)
    folder = tmp_path / "folder"
    (folder / db.FILE_NAME).mkdir(parents=True)
    with pytest.raises(HostDataError, match="not a regular file"):
        HostData.open(folder)


def test_players_keys_and_names(data: HostData) -> None:
    ada = data.ensure_player("SHA256:aaa").result()
    assert data.ensure_player("SHA256:aaa").result() == ada
    bob = data.ensure_player("SHA256:bbb").result()
    assert bob != ada
    assert data.add_key(ada, "SHA256:aaa2").result() is True
    assert data.add_key(bob, "SHA256:aaa2").result() is False  # already Ada's
    assert data.keys_of(ada) == ["SHA256:aaa", "SHA256:aaa2"]
    found = data.player_for_key("SHA256:aaa2")
    assert found is not None and found.id == ada and found.name is None
    assert data.player_for_key("SHA256:zzz") is None
    assert data.claim_name(ada, " Ada ").result() is True
    assert data.claim_name(bob, "ADA").result() is False  # unique in any case
    assert data.claim_name(bob, "Bob").result() is True
    named = data.player_named("aDa")
    assert named is not None and named.id == ada and named.name == "Ada"
    with pytest.raises(HostDataError):
        data.claim_name(bob, "x" * 40)


def test_ratings(data: HostData) -> None:
    ada = data.ensure_player("k1").result()
    assert data.rating(ada, "connect4") is None
    data.set_rating(ada, "connect4", 900.0, 200.0, 0.06, 1).result()
    data.set_rating(ada, "connect4", 950.5, 150.0, 0.0601, 2).result()
    rating = data.rating(ada, "connect4")
    assert rating is not None
    assert (rating.rating, rating.deviation, rating.games) == (950.5, 150.0, 2)
    with pytest.raises(Exception, match="deviation"):
        data.set_rating(ada, "connect4", 900.0, -1.0, 0.06, 1)


def test_damaged_rows_are_one_line_errors(tmp_path: Path) -> None:
    with HostData.open(tmp_path, now=Clock()) as data:
        ada = data.ensure_player("k1").result()
        data.set_rating(ada, "connect4", 900.0, 200.0, 0.06, 1).result()
    conn = sqlite3.connect(tmp_path / db.FILE_NAME)
    conn.execute("UPDATE ratings SET deviation = 'lots'")
    conn.execute("UPDATE players SET created = 'yesterday'")
    conn.commit()
    conn.close()
    with HostData.open(tmp_path) as data:
        with pytest.raises(HostDataError, match="damaged deviation"):
            data.rating(ada, "connect4")
        with pytest.raises(HostDataError, match="damaged time"):
            data.player(ada)


def test_archive_once_and_per_player(data: HostData) -> None:
    ada = data.ensure_player("k1").result()
    bob = data.ensure_player("k2").result()
    first = ArchivedGame("g1", "connect4", "1-0", "[Game]\n1. d1 d2 1-0", 10.0, True,
                         (Seat(0, ada, "ada"), Seat(1, bob, "bob")), "", "ABCD")
    second = ArchivedGame("g2", "connect4", "1/2-1/2", "record", 20.0, False,
                          (Seat(0, ada, "ada"), Seat(1, None, "level 3")))
    assert data.archive(first).result() is True
    assert data.archive(first).result() is False  # finished again: kept once
    assert data.archive(second).result() is True
    assert [g.id for g in data.games_of(ada)] == ["g2", "g1"]
    assert data.games_of(bob) == [first]
    assert data.game("g2") == second
    assert data.game("missing") is None


def test_invitations_and_chat(data: HostData) -> None:
    ada = data.ensure_player("k1").result()
    bob = data.ensure_player("k2").result()
    invitation = data.invite("ROOM", ada, bob).result()
    assert [i.id for i in data.invitations_for(bob)] == [invitation]
    assert data.invitations_for(ada) == []
    assert data.answer(invitation, True).result() is True
    assert data.answer(invitation, False).result() is False
    assert data.invitations_for(bob) == []
    answered = data.invitations_for(bob, open_only=False)
    assert answered[0].accepted is True and answered[0].answered is not None
    for n in range(5):
        data.say("ROOM", ada if n % 2 else bob, f"line {n}\x1b[2J")
    data.say("OTHER", None, "elsewhere").result()
    messages = data.chat("ROOM", limit=3)
    assert [m.text for m in messages] == ["line 2[2J", "line 3[2J", "line 4[2J"]
    assert messages[1].author == ada
    with pytest.raises(HostDataError):
        data.say("ROOM", ada, " \x07 ")


def test_writes_from_many_threads_all_land(data: HostData) -> None:
    player = data.ensure_player("k").result()

    def speak(who: int) -> None:
        futures = [data.say("R", player, f"{who}:{n}") for n in range(50)]
        for future in futures:
            future.result()
    threads = [threading.Thread(target=speak, args=(w,)) for w in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    messages = data.chat("R", limit=1000)
    assert len(messages) == 200
    assert len({m.text for m in messages}) == 200


def test_closed_database_refuses(tmp_path: Path) -> None:
    data = HostData.open(tmp_path)
    data.close()
    with pytest.raises(HostDataError, match="closed"):
        data.ensure_player("k").result()
    with pytest.raises(HostDataError, match="closed"):
        data.chat("R")


def test_backup_while_writing(tmp_path: Path) -> None:
    folder = tmp_path / "host"
    data = HostData.open(folder, now=Clock())
    player = data.ensure_player("k").result()
    for n in range(100):
        data.say("R", player, f"before {n}").result()
    stop = threading.Event()
    written: list[int] = []

    def keep_writing() -> None:
        n = 0
        while not stop.is_set() or n < 50:  # at least 50 writes, some during the copy
            data.say("R", player, f"during {n}").result()
            written.append(n)
            n += 1
    writer = threading.Thread(target=keep_writing)
    writer.start()
    try:
        target = tmp_path / "copy.db"
        assert db.backup(folder, target) == db.VERSION
    finally:
        stop.set()
        writer.join()
    data.close()
    restored = tmp_path / "restored"
    restored.mkdir()
    os.replace(target, restored / db.FILE_NAME)
    with HostData.open(restored) as copy:
        texts = [m.text for m in copy.chat("R", limit=10_000)]
    assert texts[:100] == [f"before {n}" for n in range(100)]
    during = texts[100:]
    assert during == [f"during {n}" for n in range(len(during))]  # a consistent prefix
    assert len(written) >= 50


def test_backup_refuses(tmp_path: Path) -> None:
    with HostData.open(tmp_path / "host") as data:
        data.ensure_player("k").result()
    existing = tmp_path / "exists.db"
    existing.write_text("keep me")
    with pytest.raises(HostDataError, match="exists already"):
        db.backup(tmp_path / "host", existing)
    assert existing.read_text() == "keep me"
    with pytest.raises(HostDataError, match="no host database"):
        db.backup(tmp_path / "empty", tmp_path / "x.db")
    assert not (tmp_path / "x.db").exists()
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / db.FILE_NAME).write_bytes(b"junk" * 1000)
    with pytest.raises(HostDataError, match="not a Parlor host database"):
        db.backup(bad, tmp_path / "y.db")
    assert not (tmp_path / "y.db").exists()


def test_cli_backup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tui.cli import main

    folder = tmp_path / "host"
    with HostData.open(folder, now=Clock()) as data:
        ada = data.ensure_player("SHA256:ada").result()
        data.claim_name(ada, "Ada").result()
        target = tmp_path / "backup.db"
        assert main(["host", "--data", str(folder), "--backup", str(target)]) == 0
    assert "backed up" in capsys.readouterr().out
    restored = tmp_path / "restored"
    restored.mkdir()
    os.replace(target, restored / db.FILE_NAME)
    with HostData.open(restored) as copy:
        player = copy.player_for_key("SHA256:ada")
        assert player is not None and player.name == "Ada"

    (tmp_path / "taken.db").write_text("mine")
    assert main(["host", "--data", str(folder), "--backup", str(tmp_path / "taken.db")]) == 1
    err = capsys.readouterr().err
    assert "exists already" in err and err.count("\n") == 1
    assert (tmp_path / "taken.db").read_text() == "mine"
    assert main(["host", "--data", str(tmp_path / "none"), "--backup",
                 str(tmp_path / "n.db")]) == 1
    assert "no host database" in capsys.readouterr().err


def test_close_finishes_the_writes_queued(tmp_path: Path) -> None:
    data = HostData.open(tmp_path)
    futures = [data.say("R", None, f"m{n}") for n in range(20)]
    data.close()
    assert all(f.done() and f.exception() is None for f in futures)
    with HostData.open(tmp_path) as again:
        assert [m.text for m in again.chat("R")] == [f"m{n}" for n in range(20)]

