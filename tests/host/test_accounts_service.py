"""Accounts on the host (tui/host/accounts.py and its tui/host/db.py queries): the key is
the account, names claimed once, keys added, profiles, leaderboards, challenges; all
through the room service's wire, as a session's app reaches them."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh
import pytest

from tests.host.test_rooms import Line
from tui.host import accounts
from tui.host.db import ArchivedGame, HostData, Seat
from tui.host.rooms import RoomService


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        self.t += 1.0
        return self.t


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[RoomService, HostData]]:
    data = HostData.open(tmp_path / "data", now=Clock())
    service = RoomService(tmp_path / "rooms.sock", tmp_path / "users", host_data=data)
    await service.start()
    try:
        yield service, data
    finally:
        await service.stop()
        data.close()


def public_line(key: asyncssh.SSHKey) -> str:
    return key.export_public_key().decode().strip()


async def session(service: RoomService, key: str, name: str) -> Line:
    """A session of the account of ``key``, logged in as the SSH server logs it in."""
    identity, claimed = await service.accounts.login(key)
    line = await Line.open(service, service.issue(identity, claimed or name))
    line.send({"t": "account"})
    await line.next("account")
    return line


# --- the database's queries ---------------------------------------------------------------

def test_first_key_stays_the_accounts_identity_and_names_are_claimed_once(tmp_path: Path):
    with HostData.open(tmp_path, now=lambda: 5.0) as data:  # every key added "at once"
        ada = data.ensure_player("SHA256:zzz").result()
        assert data.add_key(ada, "SHA256:aaa").result()
        assert data.first_key(ada) == "SHA256:zzz"  # the order added, not the text's
        bob = data.ensure_player("SHA256:bbb").result()
        assert data.claim_first_name(ada, "Ada").result() == "claimed"
        assert data.claim_first_name(bob, "ADA").result() == "taken"
        assert data.claim_first_name(ada, "Ada2").result() == "named"
        assert data.claim_first_name(9999, "nobody").result() == "unknown"
        named = data.player(ada)
        assert named is not None and named.name == "Ada"


def test_leaderboard_rank_and_record(tmp_path: Path):
    with HostData.open(tmp_path, now=Clock()) as data:
        ids = [data.ensure_player(f"key-{i}").result() for i in range(4)]
        for player, name in zip(ids, ("ann", "ben", "cat", "dan"), strict=True):
            data.claim_first_name(player, name).result()
        for player, rating, deviation, games in [(ids[0], 1600, 80, 6), (ids[1], 1700, 90, 5),
                                                 (ids[2], 1900, 60, 4), (ids[3], 1600, 70, 9)]:
            data.set_rating(player, "connect4", rating, deviation, 0.06, games).result()
        board = data.leaderboard("connect4", 5)
        assert [(p.name, r.rating, r.games) for p, r in board] == [
            ("ben", 1700, 5), ("dan", 1600, 9), ("ann", 1600, 6)]  # cat: 4 games only
        assert data.rank(ids[1], "connect4", 5) == (1, 3)
        assert data.rank(ids[0], "connect4", 5) == (3, 3)  # tie on rating: deviation
        assert data.rank(ids[3], "connect4", 5) == (2, 3)
        assert data.rank(ids[2], "connect4", 5) is None
        assert data.rank(ids[0], "reversi", 5) is None
        for number, (result, first, second) in enumerate(
                [("1-0", 0, 1), ("0-1", 0, 1), ("1/2-1/2", 1, 0), ("*", 0, 1),
                 ("1-0", 1, 0)]):
            data.archive(ArchivedGame(f"g{number}", "connect4", result, "rec", 10.0 + number,
                                      True, (Seat(0, ids[first], "x"), Seat(1, ids[second],
                                                                             "y")))).result()
        # ann: won g0 (first), lost g1 (first), drew g2 (second), g3 unfinished, lost g4
        assert data.record_of(ids[0]) == {"connect4": (1, 1, 2)}
        assert data.record_of(ids[1]) == {"connect4": (2, 1, 1)}
        assert data.ratings_of(ids[0])[0].deviation == 80


# --- the wire -----------------------------------------------------------------------------

async def test_names_are_claimed_once_unique_whatever_the_case_and_checked(served):
    service, _ = served
    ann = await session(service, "key-ann", "ann")
    ben = await session(service, "key-ben", "ben")
    ann.send({"t": "claim", "name": "Annie"})
    assert (await ann.next())["name"] == "Annie"
    ben.send({"t": "claim", "name": "ANNIE"})
    refused = await ben.next()
    assert refused["t"] == "error" and "taken" in refused["message"]
    for bad in ("a", "x" * 25, "-dash", "an nie", "ann\x1b[2J", "Ünïcode", 12):
        ben.send({"t": "claim", "name": bad})
        answer = await ben.next()
        assert answer["t"] == "error", bad
    ann.send({"t": "claim", "name": "Other"})
    again = await ann.next()
    assert again["t"] == "error" and "Annie" in again["message"]
    # the name is the one shown in rooms from now on, and the next login's
    ann.send({"t": "create", "game": "tictactoe"})
    assert (await ann.room())["names"][0] == "Annie"
    assert await service.accounts.login("key-ann") == ("key-ann", "Annie")


async def test_a_second_key_joins_the_account_at_its_first_login(served):
    service, data = served
    first, second, other = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(3))
    fp = [k.get_fingerprint("sha256") for k in (first, second, other)]
    ann = await session(service, fp[0], "ann")
    await session(service, fp[2], "olga")  # the third key is another account's already
    ann.send({"t": "add_key", "key": public_line(second) + " laptop"})
    added = await ann.next()
    assert added["t"] == "key_added" and added["fingerprint"] == fp[1]
    assert added["keys"] == 1  # noted, not yet the account's: it must log in first
    ann.send({"t": "profile"})
    assert (await ann.next("profile"))["pending"] == 1
    assert await service.accounts.login(fp[1]) == (fp[0], "")  # the first key's identity
    ann_id = data.player_for_key(fp[0])
    assert ann_id is not None and data.keys_of(ann_id.id) == [fp[0], fp[1]]
    assert await service.accounts.login(fp[1]) == (fp[0], "")  # and ever after
    for text, says in [(public_line(second), "yours already"),
                       (public_line(other), "account of its own"),
                       ("ssh-ed25519 AAAAnotbase64", "not an OpenSSH public key"),
                       ("-----BEGIN OPENSSH PRIVATE KEY-----", "private key"),
                       ("", "one public key line")]:
        ann.send({"t": "add_key", "key": text})
        answer = await ann.next()
        assert answer["t"] == "error" and says in answer["message"], (text, answer)
    ann.send({"t": "add_key", "key": "x" * 10_000})  # over the cap on a key line
    assert (await ann.next())["t"] == "error"


async def test_a_pasted_key_not_logged_in_soon_stays_its_own(tmp_path: Path):
    now = [1_800_000_000.0]  # the database's clock: the offers' window is kept there
    data = HostData.open(tmp_path / "data", now=lambda: now[0])
    service = RoomService(tmp_path / "rooms.sock", tmp_path / "users", host_data=data)
    await service.start()
    try:
        late, taken = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
        ann = await session(service, "key-ann", "ann")
        ben = await session(service, "key-ben", "ben")
        ann.send({"t": "add_key", "key": public_line(late)})
        await ann.next("key_added")
        ann.send({"t": "add_key", "key": public_line(taken)})
        await ann.next("key_added")
        ben.send({"t": "add_key", "key": public_line(taken)})  # offered to ann already
        assert "another account" in (await ben.next("error"))["message"]
        now[0] += accounts.PENDING_SECONDS + 1
        fingerprint = late.get_fingerprint("sha256")
        assert await service.accounts.login(fingerprint) == (fingerprint, "")
        await asyncio.to_thread(data.sync)  # its account is made without holding up login
        owner = data.player_for_key(fingerprint)
        assert owner is not None and owner.id != data.player_for_key("key-ann").id
    finally:
        await service.stop()
        data.close()


async def test_a_pasted_key_outlives_a_host_restart_within_its_window(tmp_path: Path):
    now = [1_800_000_000.0]
    key = asyncssh.generate_private_key("ssh-ed25519")
    fingerprint = key.get_fingerprint("sha256")
    for step in ("paste", "log in"):  # the host restarts between the two
        data = HostData.open(tmp_path / "data", now=lambda: now[0])
        service = RoomService(tmp_path / "rooms.sock", tmp_path / "users", host_data=data)
        await service.start()
        try:
            if step == "paste":
                ann = await session(service, "key-ann", "ann")
                ann.send({"t": "add_key", "key": public_line(key)})
                await ann.next("key_added")
                ann.send({"t": "profile"})
                assert (await ann.next("profile"))["pending"] == 1
            else:
                now[0] += accounts.PENDING_SECONDS - 1
                assert await service.accounts.login(fingerprint) == ("key-ann", "")
                ann_id = data.player_for_key("key-ann")
                assert ann_id is not None and data.keys_of(ann_id.id) == [
                    "key-ann", fingerprint]
                assert data.pending_keys(ann_id.id) == 0  # used up
        finally:
            await service.stop()
            data.close()


async def test_profile_and_leaderboard_come_from_the_database(served):
    service, data = served
    ann = await session(service, "key-ann", "ann")
    ann.send({"t": "claim", "name": "ann"})
    await ann.next("claimed")
    me = data.player_for_key("key-ann")
    assert me is not None
    rival = data.ensure_player("key-rival").result()
    data.claim_first_name(rival, "rival").result()
    data.set_rating(me.id, "tictactoe", 1650.0, 75.0, 0.06, 7).result()
    data.set_rating(rival, "tictactoe", 1700.0, 60.0, 0.06, 12).result()
    data.archive(ArchivedGame("g1", "tictactoe", "0-1", "rec", 50.0, True,
                              (Seat(0, me.id, "ann"), Seat(1, rival, "rival")),
                              "three in a row")).result()
    ann.send({"t": "profile"})
    profile = await ann.next("profile")
    assert profile["name"] == "ann" and profile["keys"] == 1
    assert profile["ratings"] == [["tictactoe", 1650.0, 75.0, 7]]
    assert profile["record"] == [["tictactoe", 0, 0, 1]]
    assert [(g["opponent"], g["result"], g["side"]) for g in profile["recent"]] == [
        ("rival", "0-1", 0)]
    ann.send({"t": "leaders", "game": "tictactoe"})
    board = await ann.next("leaders")
    assert board["rows"] == [[1, "rival", 1700.0, 60.0, 12, False],
                             [2, "ann", 1650.0, 75.0, 7, True]]
    ann.send({"t": "account"})
    account = await ann.next("account")
    assert account["ranks"] == {"tictactoe": [2, 2]}
    assert account["ratings"] == {"tictactoe": [1650.0, 75.0, 0.06, 7]}  # Home's rating
    ann.send({"t": "leaders", "game": "no-such-game"})
    assert (await ann.next())["t"] == "error"


async def test_a_challenge_reaches_the_named_player_online_and_is_kept(served):
    service, data = served
    ann = await session(service, "key-ann", "ann")
    ben = await session(service, "key-ben", "ben")
    for line, name in ((ann, "ann"), (ben, "ben")):
        line.send({"t": "claim", "name": name})
        await line.next("claimed")
    ann.send({"t": "challenge", "name": "BEN", "game": "tictactoe", "clock": "5+3"})
    waiting = await ann.room(started=False)  # the room made, then the challenge sent
    assert waiting["note"] == f"room {waiting['code']}: waiting for an opponent"
    waiting = await ann.room(note=f"room {waiting['code']}: waiting for ben to answer "
                                  "your challenge")
    invited = await ben.next("invited")
    assert invited["from"] == "ann" and invited["code"] == waiting["code"]
    assert invited["game"] == "tictactoe" and invited["clock"] == "5+3"
    cat = await session(service, "key-cat", "cat")  # knows the code, was not challenged
    cat.send({"t": "join", "code": invited["code"]})
    assert "waits for the player challenged" in (await cat.next("error"))["message"]
    ben.send({"t": "reply", "id": invited["id"], "accept": True})
    assert (await ben.next("replied"))["accept"] is True
    ben.send({"t": "join", "code": invited["code"]})
    assert (await ann.room(started=True))["names"] == ["ann", "ben"]
    ben.send({"t": "reply", "id": invited["id"], "accept": True})  # answered once only
    assert "answered already" in (await ben.next("error"))["message"]
    me = data.player_for_key("key-ben")
    assert me is not None
    [kept] = data.invitations_for(me.id, open_only=False)
    assert kept.room == invited["code"] and kept.accepted is True


async def test_a_declined_challenge_is_told_and_bad_challenges_are_refused(served):
    service, data = served
    ann = await session(service, "key-ann", "ann")
    ben = await session(service, "key-ben", "ben")
    for line, name in ((ann, "ann"), (ben, "ben")):
        line.send({"t": "claim", "name": name})
        await line.next("claimed")
    offline = data.ensure_player("key-cat").result()
    data.claim_first_name(offline, "cat").result()
    for request, says in [({"name": "cat"}, "not online"), ({"name": "ann"}, "yourself"),
                          ({"name": "nobody"}, "no player"),
                          ({"name": "ben", "game": "chess?"}, "unknown game")]:
        ann.send({"t": "challenge", "game": "tictactoe", **request})
        answer = await ann.next("error")
        assert says in answer["message"], (request, answer)
    ann.send({"t": "challenge", "name": "ben", "game": "tictactoe"})
    invited = await ben.next("invited")
    ben.send({"t": "reply", "id": invited["id"], "accept": False})
    declined = await ann.room(started=False, note="ben declined your challenge")
    cat = await session(service, "key-cat", "cat")  # the code may go to another now
    cat.send({"t": "join", "code": declined["code"]})
    assert (await ann.room(started=True))["names"] == ["ann", "cat"]
    ben.send({"t": "reply", "id": "1", "accept": False})
    assert (await ben.next("error"))["message"].startswith("bad request")


async def test_a_challenge_waiting_is_shown_to_a_session_that_comes_later(served):
    service, _ = served
    ann = await session(service, "key-ann", "ann")
    ben = await session(service, "key-ben", "ben")
    for line, name in ((ann, "ann"), (ben, "ben")):
        line.send({"t": "claim", "name": name})
        await line.next("claimed")
    ann.send({"t": "challenge", "name": "ben", "game": "tictactoe"})
    first = await ben.next("invited")
    later = await Line.open(service, service.issue("key-ben", "ben"))
    later.send({"t": "account"})  # a refresh of the ranks does not bring them
    assert (await later.next())["t"] == "account"
    later.send({"t": "account", "invitations": True})
    assert (await later.next("invited"))["id"] == first["id"]


async def test_without_a_database_accounts_say_so_in_one_line(tmp_path: Path):
    service = RoomService(tmp_path / "rooms.sock", tmp_path / "users")
    await service.start()
    try:
        assert await service.accounts.login("key") == ("key", "")
        line = await Line.open(service, service.issue("key", "ann"))
        line.send({"t": "profile"})
        assert "keeps no accounts" in (await line.next("error"))["message"]
    finally:
        await service.stop()
