"""Real SSH clients against a real host on 127.0.0.1: rooms played and watched by keys."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.host.conftest import (
    WAIT,
    Player,
    asyncssh,
    create_room,
    join_room,
    move,
    to_clock_field,
)
from tui.host.rooms import user_history
from tui.player.store import read_records


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


async def test_two_players_play_a_clocked_game_to_the_end_while_a_third_watches(host, keys):
    alice = await Player.connect(host.port, "alice", keys[0])
    bob = await Player.connect(host.port, "bob", keys[1])
    carol = await Player.connect(host.port, "carol", keys[2])
    try:
        code = await create_room(alice)
        await join_room(bob, code)
        await alice.expect("bob joined")
        await carol.expect("Play a person")
        await carol.keys("f3")
        await carol.expect("Games in progress: 1", code)
        await carol.keys("enter")
        await carol.expect(f"Room {code} (spectator)")
        # X: b2 b1 b3 (the b file), O: a1 c1
        line = [(alice, "b2"), (bob, "a1"), (alice, "b1"), (bob, "c1"), (alice, "b3")]
        for ply, (mover, text) in enumerate(line, start=1):
            waiting = bob if mover is alice else alice
            await move(mover, text)
            if ply < len(line):
                side = "O" if ply % 2 else "X"
                number = ply // 2 + 1  # a move is one of each side's: X's and O's move 1
                await waiting.expect(f"Move {number}: your move")
                await carol.expect(f"Move {number}: {side} to move", text)
        for player in (alice, bob, carol):
            await player.expect("Game over: X wins 1-0 (three in a row)")
        for player in (alice, bob):  # leave the room, back Home, open Saved games
            await player.keys("e")
            await player.expect("Open rooms")  # the room list, not a second room screen
            await player.keys("escape")
            await player.expect("Saved games")  # Home's button: only Home shows it
            await player.keys("r")
            await player.expect("alice", "bob", "1-0")
    finally:
        for player in (alice, bob, carol):
            await player.close()
    for key in keys[:2]:
        [path] = list(user_history(host.users, fingerprint(key)).glob("*.pgn"))
        [record] = read_records(path)
        assert record.moves == ["b2", "a1", "b1", "c1", "b3"]
        assert record.result == "1-0"
        assert record.tags["First"] == "alice" and record.tags["Second"] == "bob"
        assert record.tags["TimeControl"] == "5+3"
    assert not list(user_history(host.users, fingerprint(keys[2])).glob("*.pgn"))


async def test_a_dropped_player_reconnects_with_the_same_key_and_lands_on_the_game(host, keys):
    alice = await Player.connect(host.port, "alice", keys[0])
    bob = await Player.connect(host.port, "bob", keys[1])
    try:
        code = await create_room(alice)
        await join_room(bob, code)
        await move(alice, "b2")
        await bob.expect("Move 1: your move")  # O's half of move 1
        await bob.close()
        await alice.expect("bob left; their seat is kept")
        bob = await Player.connect(host.port, "bob", keys[1])
        # no key pressed: the live game is the first thing bob sees
        await bob.expect(f"Room {code} (you play O)", "Move 1: your move")
        await alice.expect("bob is back")
        await move(bob, "a1")
        await alice.expect("Move 2: your move")
    finally:
        await alice.close()
        await bob.close()


async def test_a_fallen_flag_ends_the_game_as_a_time_forfeit(host, keys):
    alice = await Player.connect(host.port, "alice", keys[0])
    bob = await Player.connect(host.port, "bob", keys[1])
    try:
        code = await create_room(alice, clock="0.05")  # three seconds each
        await join_room(bob, code)
        for player in (alice, bob):  # X (alice) never moves
            await player.expect("Game over: O wins 0-1 (time forfeit)")
    finally:
        await alice.close()
        await bob.close()
    # no move was played: nothing to record
    assert not list(host.users.glob("*/parlor/history/*.pgn"))


async def test_a_client_without_a_key_is_told_why_and_refused(host):
    seen: list[str] = []

    class Client(asyncssh.SSHClient):
        def kbdint_auth_requested(self) -> str:
            return ""

        def kbdint_challenge_received(self, name, instructions, lang, prompts):
            seen.append(instructions)
            return []

    with pytest.raises(asyncssh.PermissionDenied):
        await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", host.port, username="eve", client_keys=None, known_hosts=None,
            agent_path=None, password="secret", client_factory=Client), WAIT)
    assert seen and "SSH key" in seen[0]


async def test_exec_sftp_and_forwarding_are_refused_and_the_others_play_on(host, keys):
    alice = await Player.connect(host.port, "alice", keys[0])
    bob = await Player.connect(host.port, "bob", keys[1])
    eve_key = asyncssh.generate_private_key("ssh-ed25519")
    opened: list[asyncssh.SSHClientConnection] = []

    async def eve() -> asyncssh.SSHClientConnection:
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", host.port, username="eve", client_keys=[eve_key], known_hosts=None,
            agent_path=None), WAIT)
        opened.append(conn)
        return conn

    try:
        code = await create_room(alice)
        await join_room(bob, code)
        with pytest.raises(asyncssh.ChannelOpenError):  # exec
            await asyncio.wait_for((await eve()).run("cat /etc/passwd"), WAIT)
        with pytest.raises((asyncssh.ChannelOpenError, asyncssh.SFTPError)):
            await asyncio.wait_for((await eve()).start_sftp_client(), WAIT)
        with pytest.raises(asyncssh.ChannelOpenError):
            # a port that does listen (the host's own), so only a refusal can fail it
            await asyncio.wait_for((await eve()).open_connection("127.0.0.1", host.port), WAIT)
        with pytest.raises(asyncssh.ChannelListenError):
            await asyncio.wait_for((await eve()).forward_remote_port("127.0.0.1", 0,
                                                                   "127.0.0.1", 22), WAIT)
        # a session with a terminal that sends garbage, then floods keys
        flood = await (await eve()).create_process(term_type="xterm", term_size=(80, 24),
                                                    encoding=None)
        # every byte but the quit keys (q, ctrl+c, ctrl+q), which would rightly end it
        noise = bytes(b for b in range(256) if b not in b"q\x03\x11")
        junk = noise * 64 + b"\x1b[" * 2000 + b"\x1b]" + b"x" * 100_000
        flood.stdin.write(junk)
        flood.stdin.write(b"jjjjkkkkhhhhllll" * 20_000)
        await move(alice, "b2")
        await bob.expect("Move 1: your move")
        await move(bob, "a1")
        await alice.expect("Move 2: your move")
        assert len(host.sessions) == 3  # the flooding session is still served, apart
    finally:
        for conn in opened:
            conn.close()
        await alice.close()
        await bob.close()


async def test_too_many_connections_from_one_address_are_turned_away(tmp_path: Path, keys):
    from tui.host.server import Host, HostConfig

    server = Host(HostConfig(data=tmp_path / "h", port=0, bind="127.0.0.1", per_minute=2))
    await server.start()
    try:
        for _ in range(2):
            conn = await asyncssh.connect("127.0.0.1", server.port, username="a",
                                          client_keys=[keys[0]], known_hosts=None,
                                          agent_path=None)
            conn.close()
        with pytest.raises((asyncssh.Error, OSError)):
            await asyncio.wait_for(asyncssh.connect(
                "127.0.0.1", server.port, username="a", client_keys=[keys[0]],
                known_hosts=None, agent_path=None), WAIT)
    finally:
        await server.stop()


async def test_the_app_follows_the_clients_window_size(host, keys):
    alice = await Player.connect(host.port, "alice", keys[0])
    try:
        await alice.expect("Play a person")
        alice.process.change_terminal_size(60, 20)
        await alice.expect("Terminal 60×20 is too small")
        alice.process.change_terminal_size(100, 30)
        await alice.expect("Play a person")
    finally:
        await alice.close()


async def test_keys_file_admits_only_the_listed_keys_and_the_host_key_is_private(
        tmp_path: Path, keys):
    from tui.host.server import HOST_KEY_NAME, Host, HostConfig

    listed = tmp_path / "authorized_keys"
    listed.write_bytes(keys[0].export_public_key())
    server = Host(HostConfig(data=tmp_path / "h", port=0, bind="127.0.0.1", keys=listed))
    await server.start()
    try:
        assert (tmp_path / "h" / HOST_KEY_NAME).stat().st_mode & 0o777 == 0o600
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", server.port, username="alice", client_keys=[keys[0]],
            known_hosts=None, agent_path=None), WAIT)
        conn.close()
        with pytest.raises(asyncssh.PermissionDenied):
            await asyncio.wait_for(asyncssh.connect(
                "127.0.0.1", server.port, username="bob", client_keys=[keys[1]],
                known_hosts=None, agent_path=None, kbdint_auth=False), WAIT)
    finally:
        await server.stop()
    first_key = (tmp_path / "h" / HOST_KEY_NAME).read_bytes()
    again = Host(HostConfig(data=tmp_path / "h", port=0, bind="127.0.0.1"))
    await again.start()
    await again.stop()
    assert (tmp_path / "h" / HOST_KEY_NAME).read_bytes() == first_key  # kept, not remade


def test_an_unreadable_keys_file_is_one_clear_line(tmp_path: Path):
    import subprocess
    import sys

    bad = tmp_path / "keys"
    bad.write_text("this is not a key\n")
    out = subprocess.run([sys.executable, "-m", "tui.cli", "host", "--port", "0", "--bind",
                          "127.0.0.1", "--data", str(tmp_path / "h"), "--keys", str(bad)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "not an authorized_keys file" in out.stderr


async def test_a_full_host_says_so_and_an_idle_session_is_ended(tmp_path: Path, keys):
    import os
    import sys

    from tests.host.conftest import ROOT
    from tui.host.server import Host, HostConfig

    env = {"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    server = Host(HostConfig(data=tmp_path / "h", port=0, bind="127.0.0.1", max_sessions=1,
                             idle_seconds=3.0, python=sys.executable, env=env))
    await server.start()
    alice = await Player.connect(server.port, "alice", keys[0])
    bob = await Player.connect(server.port, "bob", keys[1])
    try:
        await bob.expect("Parlor is full (1 players)")
        # no key pressed for 3 s (counted from the start: on a busy machine the app may
        # not have drawn Home by then, so the test does not wait for it)
        await alice.expect("Idle for too long")
        await asyncio.wait_for(alice.reader, WAIT)  # and the connection closes
        assert not server.sessions
    finally:
        await alice.close()
        await bob.close()
        await server.stop()


async def test_a_player_meets_a_brain_in_a_room_by_keys_and_finds_the_game_saved(host, keys):
    alice = await Player.connect(host.port, "alice", keys[0])
    carol = await Player.connect(host.port, "carol", keys[2])
    try:
        await alice.expect("Play a person")
        await alice.keys("f2")
        await alice.expect("Create room", "Open rooms")
        # From the code field back to the opponent picker, open it, find the level, pick
        # it. A key typed before a Shift+Tab has moved the focus can reach the field it
        # leaves, so the way goes by what the screen shows: the clock field (its time
        # typed again, after Ctrl+U showed the field emptied), then two fields back, the
        # picker, the first field that is no text field: the footer shows q Quit again.
        await to_clock_field(alice, "5+3")
        await alice.keys("shift+tab", "shift+tab")
        await alice.expect("q Quit")
        await alice.keys("enter")
        await alice.expect("a person (share", "level:8")
        await alice.keys("level:8", "enter", "f4")
        await alice.expect("(you play X)", "O: level:8", "Move 1: your move")
        await move(alice, "b2")
        await alice.expect("Move 2: your move")  # the brain (in the host) has replied
        code = next(iter(host.rooms.rooms))
        await carol.expect("Play a person")
        await carol.keys("f3")
        await carol.expect("Games in progress: 1", code)
        await carol.keys("enter")
        await carol.expect(f"Room {code} (spectator)", "Move 2: X to move")
        await alice.keys("x")  # resign, after saying so
        await alice.expect("Resign this game?")
        await alice.keys("j", "enter")
        await carol.expect("Game over: O wins 0-1 (resignation)")
        # a game against a rated level counts for the person's rating
        await alice.expect("Game over: O wins 0-1 (resignation)", "Your rating now:")
        await alice.keys("e")
        await alice.expect("Open rooms")
        await alice.keys("escape")
        await alice.expect("Saved games")  # Home's button: only Home shows it
        await alice.keys("r")
        await alice.expect("alice", "level:8", "0-1")
    finally:
        await alice.close()
        await carol.close()
    [path] = list(user_history(host.users, fingerprint(keys[0])).glob("*.pgn"))
    [record] = read_records(path)
    assert record.tags["First"] == "alice" and record.tags["Second"] == "level:8"
    assert len(record.moves) == 2 and record.result == "0-1"
