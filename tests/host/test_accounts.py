"""Accounts end to end: real SSH clients against a host on 127.0.0.1 claim names, add a
key and come back with it as the same account, challenge a named player who accepts,
play a rated game and find it on their profiles, the leaderboard and Home; a challenge
to a name nobody claimed is refused in one line, and one declined is told to the
challenger."""

from __future__ import annotations

import asyncio
import re

from tests.host.conftest import Player, asyncssh, move
from tui.host.rooms import user_history, user_home
from tui.player.store import read_records

F6, F7 = "\x1b[17~", "\x1b[18~"
CODE = re.compile(r"Room ([A-Z2-9]{5}) \(you play")


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


async def test_names_keys_a_challenge_and_the_leaderboard(host, keys):
    host.rooms.accounts.min_games = 1  # one rated game puts a player on the board
    laptop = asyncssh.generate_private_key("ssh-ed25519")
    alice = await Player.connect(host.port, "alice", keys[0])
    bob = await Player.connect(host.port, "bob", keys[1])
    players = [alice, bob]
    try:
        # two accounts claim names; a name taken, in any case, is refused
        await alice.expect("Play a person")
        await alice.send(F6)
        await alice.expect("No name claimed yet")
        await alice.keys("Alice", "enter")
        await alice.expect("Name: Alice")
        await bob.expect("Play a person")
        await bob.send(F6)
        await bob.expect("No name claimed yet")
        await bob.keys("ALICE", "enter")
        await bob.expect("the name ALICE is taken")
        await bob.keys("ctrl+u", "Bob", "enter")
        await bob.expect("Name: Bob")
        # alice adds her laptop's key (pasted), then logs in with it, which makes it hers
        await alice.send(laptop.export_public_key().decode().strip() + " alice@laptop")
        await alice.keys("enter")
        await alice.expect("Key noted", "1 more waiting for its first login")
        await alice.close()
        data = host.rooms.host_data
        first = data.player_for_key(fingerprint(keys[0]))
        assert first is not None  # a rating of the account's, as a rated game leaves one
        await asyncio.wrap_future(data.set_rating(first.id, "connect4", 1555.0, 88.0, 0.06, 3))
        alice = await Player.connect(host.port, "alice-laptop", laptop)
        players.append(alice)
        await alice.expect("Play a person")
        await alice.send(F6)
        await alice.expect("Name: Alice", "Keys: 2",
                           "Connect Four: 1555 (deviation 88), 3 rated games")
        assert not user_home(host.users, fingerprint(laptop)).exists()  # the same folder
        # bob challenges Alice by name; the challenge pops up on her screen
        await bob.keys("escape")
        await bob.expect("Saved games")  # Home's button
        await bob.keys("f2")
        await bob.expect("Create room", "Open rooms")
        await bob.keys("tab", "tab")  # from the code field, past Join, to the challenge
        await bob.expect("Type the name of a player who is online")  # the focus is there
        await bob.keys("Alice")
        await bob.expect("Enter challenges Alice")
        await bob.keys("enter")
        shown = await bob.expect("waiting for Alice to answer your challenge")
        match = CODE.search(shown)
        assert match, shown[-500:]
        code = match.group(1)
        await alice.expect("Bob challenges you to Tic-tac-toe", "clock 5+3")
        await alice.keys("y")
        await alice.expect(f"Room {code} (you play O)")
        await bob.expect("Alice joined")
        line = [(bob, "b2"), (alice, "a1"), (bob, "b1"), (alice, "c1"), (bob, "b3")]
        for ply, (mover, text) in enumerate(line, start=1):
            await move(mover, text)
            if ply < len(line):
                await (alice if mover is bob else bob).expect(
                    f"Move {ply // 2 + 1}: your move")
        for player in (alice, bob):
            await player.expect("Game over: X wins 1-0")
        await asyncio.to_thread(host.rooms.host_data.sync)  # the ratings are in the database
        # the profile: her rating, record and recent game; under her first key's identity
        await alice.keys("e")
        await alice.expect("Open rooms")
        await alice.keys("escape")  # back on her account
        await alice.expect("1 rated games; 0 won, 0 drawn, 1 lost", "v Bob: lost 1-0")
        [path] = user_history(host.users, fingerprint(keys[0])).glob("*.pgn")
        [record] = read_records(path)
        assert (record.tags["First"], record.tags["Second"]) == ("Bob", "Alice")
        # Home shows bob's rank; the leaderboard lists both, the winner first
        await bob.keys("e")
        await bob.expect("Open rooms")
        await bob.keys("escape")
        await bob.expect("#1 of 2 on this host")
        await bob.send(F7)
        await bob.expect("players with at least 1 rated games", "1  Bob", "<- you",
                         "2  Alice")
    finally:
        for player in players:
            await player.close()


async def test_a_challenge_to_nobody_is_refused_and_one_declined_is_told(host, keys):
    data = host.rooms.host_data
    ids = []
    for key, name in ((keys[0], "Ann"), (keys[1], "Ben")):  # accounts named before
        player = await asyncio.wrap_future(data.ensure_player(fingerprint(key)))
        assert await asyncio.wrap_future(data.claim_first_name(player, name)) == "claimed"
        ids.append(player)
    ann = await Player.connect(host.port, "ann-ssh", keys[0])
    ben = await Player.connect(host.port, "ben-ssh", keys[1])
    try:
        await ben.expect("Play a person")
        await ann.expect("Play a person")
        await ann.keys("f2")
        await ann.expect("Create room", "Open rooms")
        await ann.keys("tab", "tab")
        await ann.expect("Type the name of a player who is online")
        await ann.keys("carl")
        await ann.expect("Enter challenges carl")
        await ann.keys("enter")
        await ann.expect("no player has claimed the name 'carl'")
        await ann.keys("ctrl+u", "Ben")
        await ann.expect("Enter challenges Ben")
        await ann.keys("enter")
        await ann.expect("waiting for Ben to answer your challenge")
        await ben.expect("Ann challenges you to Tic-tac-toe")  # the name claimed, shown
        await ben.keys("n")
        await ann.expect("Ben declined your challenge")
        await asyncio.to_thread(data.sync)
        [invitation] = data.invitations_for(ids[1], open_only=False)
        assert invitation.sender == ids[0] and invitation.accepted is False
    finally:
        await ann.close()
        await ben.close()
