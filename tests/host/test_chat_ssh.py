"""Room chat by keys: real SSH clients against a real host on 127.0.0.1 (two players and a
spectator), and a raw client of the room service as a second spectator (it can send
what no keyboard types: escape sequences)."""

from __future__ import annotations

import json

from tests.host.conftest import Player, asyncssh, create_room, join_room
from tests.host.test_chat_service import Line
from tui.host.rooms import user_data


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


async def say(player: Player, prompt: str, text: str) -> None:
    """c, wait for the chat prompt, type ``text``, Enter."""
    await player.keys("c")
    await player.expect(prompt)
    await player.keys(text, "enter")


async def test_chat_spectators_wait_for_the_end_escapes_never_pass_mute_hides(host, keys):
    alice = await Player.connect(host.port, "alice", keys[0])
    bob = await Player.connect(host.port, "bob", keys[1])
    carol = await Player.connect(host.port, "carol", keys[2])
    dave = None
    try:
        code = await create_room(alice)
        await join_room(bob, code)
        await alice.expect("bob joined")
        await carol.expect("Play a person")
        await carol.keys("f3")
        await carol.expect("Games in progress: 1", code)
        await carol.keys("enter")
        await carol.expect(f"Room {code} (spectator)", "No chat yet")
        dave = await Line.open(host.rooms, "raw-dave", "dave")
        dave.send({"t": "watch", "code": code})
        await dave.room(code=code)

        await say(alice, "Say to the room", "hello all")
        for player in (alice, bob, carol):
            await player.expect("alice: hello all")
        assert await dave.said() == ["alice: hello all"]

        await say(carol, "Say to the spectators", "psst b2")
        await carol.expect("carol (spectator): psst b2")
        assert await dave.said() == ["carol (spectator): psst b2"]  # the other spectator
        dave.send({"t": "say", "text": "\x1b]52;c;SElKQUNL\x07\x1b]0;PWNED\x07evil"
                                       "\x1b[2J\x9b31mline\u202e"})
        await carol.expect("dave (spectator): evilline")

        # said after the spectators' lines were handled: had those gone to the
        # players, they would have been shown before this one
        await say(alice, "Say to the room", "your move")
        for player in (alice, bob):
            shown = await player.expect("alice: your move")
            assert "psst" not in player.text(0) and "evilline" not in player.text(0), shown
        await carol.expect("alice: your move")
        for player in (alice, bob, carol):  # nothing of the escapes reached a terminal
            assert b"]52;" not in player.output and b"PWNED" not in player.output

        await bob.keys("t")  # mute: kept in bob's settings
        await bob.expect("Chat muted (t shows it): 0 lines hidden")
        settings = json.loads((user_data(host.users, fingerprint(keys[1]))
                               / "settings.json").read_text())
        assert settings["chat_muted"] is True
        start = len(bob.output)
        await say(alice, "Say to the room", "quiet now")
        await alice.expect("alice: quiet now")
        await bob.expect("1 line hidden")
        assert "quiet now" not in bob.text(start)

        await alice.keys("x")  # resign: the game ends, the gallery's lines are shown
        await alice.expect("Resign this game?")
        await alice.keys("down", "enter")
        await alice.expect("Game over", "carol (spectator): psst b2",
                           "dave (spectator): evilline")
        await bob.expect("Game over", "3 lines hidden")  # still muted: counted only
        await bob.keys("t")
        await bob.expect("carol (spectator): psst b2", "alice: quiet now")
        dave.send({"t": "say", "text": "gg"})
        for player in (alice, bob, carol):
            await player.expect("dave (spectator): gg")
    finally:
        if dave is not None:
            dave.close()
        for player in (alice, bob, carol):
            await player.close()
