"""No session's app outlives its terminal or its host, even when the host was started
with SIGHUP ignored (``nohup parlor host``: the sessions inherit that) or the app
ignores the hang-up."""

from __future__ import annotations

import asyncio
import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
from pathlib import Path

from tests.host.conftest import ROOT, WAIT, Player, host_config, running
from tests.pty_io import drain, wait_for


def ignore_sighup() -> None:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def test_a_session_ends_when_its_terminal_closes_though_sighup_was_ignored(
        tmp_path: Path) -> None:
    """The app of ``python -m tui.host.session`` started the way a ``nohup`` host
    starts it exits once the pty's other end is closed, instead of running on."""
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "TERM": "xterm-256color",
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    for name in ("COLUMNS", "LINES"):  # the app sizes itself from the pty alone
        env.pop(name, None)
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 34, 110, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", "tui.host.session"], stdin=slave,
                            stdout=slave, stderr=slave, env=env, cwd=tmp_path,
                            start_new_session=True, preexec_fn=ignore_sighup)
    os.close(slave)
    try:
        shown = bytearray()
        wait_for(lambda: drain(master, shown) and b"Quit" in shown, "the app to draw", WAIT)
        os.close(master)
        master = -1
        assert proc.wait(timeout=WAIT) != 0  # ended by the hang-up, not by quitting
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if master >= 0:
            os.close(master)


async def test_stopping_the_host_ends_an_app_that_ignores_the_hang_up(
        tmp_path: Path, keys) -> None:
    """A session whose client has just left and whose app ignores SIGHUP: by the time
    the host's ``stop`` returns, the app's process is gone (killed and reaped)."""
    pidfile = tmp_path / "app.pid"
    fake = tmp_path / "fake-python"
    fake.write_text(f"#!/bin/sh\ntrap '' HUP\necho $$ > '{pidfile}'\nexec sleep 300\n")
    fake.chmod(0o755)
    async with running(host_config(tmp_path / "host", python=str(fake))) as server:
        player = await Player.connect(server.port, "alice", keys[0])
        for _ in range(int(WAIT / 0.05)):
            if pidfile.exists() and pidfile.read_text().strip():
                break
            await asyncio.sleep(0.05)
        pid = int(pidfile.read_text())
        assert alive(pid)
        await player.close()  # the session ends: SIGHUP, which the app ignores
    assert not alive(pid)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
