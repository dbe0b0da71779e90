"""A host killed with SIGKILL in the middle of a room's game loses nothing: a new host on
the same data folder restores the room, both players come back with their keys and
finish the game, and it is in both players' saved games."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import Callable
from pathlib import Path

from tests.host.conftest import ROOT, WAIT, Player
from tests.host.test_host_ssh import create_room, fingerprint, join_room, move
from tui.host.rooms import user_history
from tui.player.store import read_records


async def start_host(data: Path, log: Path, *options: str,
                     preexec_fn: Callable[[], None] | None = None,
                     ) -> tuple[asyncio.subprocess.Process, int]:
    """``parlor host`` (with ``options``) in its own process on 127.0.0.1 and a free port."""
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    with log.open("ab") as err:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "tui.cli", "host", "--port", "0", "--bind", "127.0.0.1",
            "--data", str(data), *options, stdout=asyncio.subprocess.PIPE, stderr=err,
            env=env, start_new_session=True, preexec_fn=preexec_fn)
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), WAIT * 2)).decode()
    found = re.search(r"port (\d+)", line)
    assert found, f"the host did not start: {line!r} {log.read_text()[-800:]!r}"
    return proc, int(found.group(1))


async def test_a_killed_hosts_room_game_is_finished_after_a_restart(tmp_path, keys):
    data, log = tmp_path / "host", tmp_path / "host.log"
    proc, port = await start_host(data, log)
    players: list[Player] = []
    try:
        alice = await Player.connect(port, "alice", keys[0])
        bob = await Player.connect(port, "bob", keys[1])
        players += [alice, bob]
        code = await create_room(alice)
        await join_room(bob, code)
        await move(alice, "b2")
        await bob.expect("Move 1: your move")
        await move(bob, "a1")
        await alice.expect("Move 2: your move")
        await move(alice, "b1")
        await bob.expect("Move 2: your move")  # the host keeps each move before showing it
        proc.send_signal(signal.SIGKILL)
        await asyncio.wait_for(proc.wait(), WAIT)
        for player in players:
            await player.close()
        players.clear()

        proc, port = await start_host(data, log)
        alice = await Player.connect(port, "alice", keys[0])
        bob = await Player.connect(port, "bob", keys[1])
        players += [alice, bob]
        # each lands on the game, in the same position, the same turn; the clock waits
        # until both are back
        await bob.expect(f"Room {code} (you play O)", "Move 2: your move")
        await alice.expect(f"Room {code} (you play X)", "Move 2: O to move")
        await bob.expect("both players are back")
        await move(bob, "c1")
        await alice.expect("Move 3: your move")
        await move(alice, "b3")
        for player in (alice, bob):
            await player.expect("Game over: X wins 1-0 (three in a row)")
        # stopped with its players still connected: each told, no traceback logged
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.wait_for(proc.wait(), WAIT) == 0
        for player in (alice, bob):
            await player.expect("The host is shutting down.")
    finally:
        for player in players:
            await player.close()
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(proc.wait(), WAIT)
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    for key in keys[:2]:
        [path] = list(user_history(data / "users", fingerprint(key)).glob("*.pgn"))
        [record] = read_records(path)
        assert record.moves == ["b2", "a1", "b1", "c1", "b3"] and record.result == "1-0"
        assert record.tags["First"] == "alice" and record.tags["Second"] == "bob"
    assert not list((data / "rooms").glob("*.json"))  # recorded, so no longer kept
    assert "Traceback" not in log.read_text(errors="replace")
