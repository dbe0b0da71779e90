"""Fixtures for the host tests: a real SSH host on 127.0.0.1 and real SSH clients.

``host`` starts :class:`tui.host.server.Host` on a free port with a temporary data
folder; ``Player`` is an asyncssh client with a pseudo-terminal that reads everything
the app draws and can wait for text to appear on it (escape sequences removed).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import asyncssh  # the host extra; the dev extra installs it
import pytest

from tui.host.server import Host, HostConfig

ROOT = Path(__file__).resolve().parents[2]
WAIT = 40.0
"""Longest wait for anything to appear (the machine may be loaded)."""
_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|"
                      rb"\x1bP[^\x1b]*\x1b\\|\x1b[()][0-9A-Za-z]|\x1b[=>78DMEc]")
KEYS = {"f4": "\x1bOS", "shift+tab": "\x1b[Z", "ctrl+u": "\x15", "enter": "\r", "tab": "\t",
        "escape": "\x1b", "f2": "\x1bOQ", "f3": "\x1bOR",
        "down": "\x1b[B", "up": "\x1b[A", "left": "\x1b[D", "right": "\x1b[C"}


def plain(data: bytes) -> str:
    """What a terminal shows of ``data``, roughly: escape sequences removed."""
    return _ESCAPES.sub(b"", data).decode("utf-8", "replace")


class Player:
    """One SSH client with a terminal, driving the app by keys."""

    def __init__(self, conn: asyncssh.SSHClientConnection,
                 process: asyncssh.SSHClientProcess[bytes]) -> None:
        self.conn = conn
        self.process = process
        self.output = bytearray()
        self.mark = 0
        self.reader = asyncio.get_running_loop().create_task(self.read())
        self.changed = asyncio.Event()
        self.name = ""

    @classmethod
    async def connect(cls, port: int, name: str, key: asyncssh.SSHKey,
                      size: tuple[int, int] = (110, 34)) -> Player:
        conn = await asyncio.wait_for(asyncssh.connect(
            "127.0.0.1", port, username=name, client_keys=[key], known_hosts=None,
            agent_path=None, password=None, kbdint_auth=False), WAIT)
        process = await conn.create_process(term_type="xterm-256color", term_size=size,
                                            encoding=None)
        player = cls(conn, process)
        player.name = name
        return player

    async def read(self) -> None:
        try:
            while True:
                data = await self.process.stdout.read(65536)
                if not data:
                    break
                self.output += data
                self.changed.set()
        except (asyncssh.Error, OSError):
            pass
        self.changed.set()

    def text(self, since: int | None = None) -> str:
        return plain(bytes(self.output[self.mark if since is None else since:]))

    async def expect(self, *pieces: str, timeout: float = WAIT) -> str:
        """Wait until every piece has appeared since the mark; then move the mark."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            shown = self.text()
            if all(p in shown for p in pieces):
                self.mark = len(self.output)
                return shown
            left = end - loop.time()
            if left <= 0 or self.reader.done():
                tail = plain(bytes(self.output[-3000:]))
                if os.environ.get("PARLOR_HOST_DUMP"):
                    Path(os.environ["PARLOR_HOST_DUMP"]).write_bytes(bytes(self.output))
                raise AssertionError(
                    f"{self.name} never saw {pieces!r}; screen tail: {tail[-1500:]!r}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), min(left, 1.0))

    async def keys(self, *keys: str, pause: float = 0.1) -> None:
        """Type ``keys`` (names from KEYS, or text typed a character at a time), a little
        apart, as a person types."""
        for key in keys:
            for chunk in [KEYS[key]] if key in KEYS else list(key):
                self.process.stdin.write(chunk.encode())
                await asyncio.sleep(pause)

    async def close(self) -> None:
        self.conn.close()
        self.reader.cancel()
        with contextlib.suppress(TimeoutError, asyncssh.Error, OSError):
            await asyncio.wait_for(self.conn.wait_closed(), 10)


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    """A host on 127.0.0.1 and a free port, its data in a temporary folder."""
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    config = HostConfig(data=tmp_path / "host", port=0, bind="127.0.0.1", max_sessions=8,
                        python=sys.executable, env=env, grace_seconds=30.0)
    server = Host(config)
    await server.start()
    try:
        yield server
    finally:
        await asyncio.wait_for(server.stop(), 20)


@pytest.fixture
def keys() -> list[asyncssh.SSHKey]:
    """Three players' keys."""
    return [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]
