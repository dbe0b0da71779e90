"""A session's terminal at its two ends: keys typed before the app's terminal exists
reach the app, and a client whose app was killed (the host stopped) gets its own screen
back rather than the app's last picture under the prompt."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.host.conftest import WAIT, Player, host_config, running
from tui.host.server import TERMINAL_RESET, Host, Session


async def test_keys_typed_before_the_apps_terminal_exists_are_kept(host: Host) -> None:
    session = Session(host, "identity", "alice")
    assert session.master < 0  # no terminal yet: the app is still being started
    session.data_received(b"q\x1b[A", None)
    assert bytes(session.inbuf) == b"q\x1b[A"
    session.closing = True  # an ended session takes nothing more
    session.data_received(b"x", None)
    assert bytes(session.inbuf) == b"q\x1b[A"


async def test_stopping_the_host_gives_the_client_its_screen_back(
        tmp_path: Path, keys) -> None:
    pidfile = tmp_path / "app.pid"
    fake = tmp_path / "fake-python"  # an app that draws nothing and never restores
    fake.write_text(f"#!/bin/sh\necho $$ > '{pidfile}'\nexec sleep 300\n")
    fake.chmod(0o755)
    async with running(host_config(tmp_path / "host", python=str(fake))) as server:
        player = await Player.connect(server.port, "alice", keys[0])
        for _ in range(int(WAIT / 0.05)):
            if pidfile.exists() and pidfile.read_text().strip():
                break
            await asyncio.sleep(0.05)
        assert pidfile.read_text().strip()
    await asyncio.wait_for(player.reader, WAIT)  # the host closed the channel
    output = bytes(player.output)
    assert TERMINAL_RESET in output
    assert b"\x1b[?1049l" in TERMINAL_RESET
    await player.close()
