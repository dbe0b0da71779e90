"""Fixtures for the host tests: a real SSH host on 127.0.0.1 and real SSH clients.

``host`` starts :class:`tui.host.server.Host` on a free port with a temporary data
folder (``web_host`` also on a free web port); ``Player`` is an asyncssh client with a
pseudo-terminal that reads everything the app draws and can wait for text to appear on
it (escape sequences removed). ``create_room``, ``join_room`` and ``move`` drive the
rooms screens by keys, for any :class:`Terminal` (an SSH player or a browser's).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncssh  # the host extra; the dev extra installs it
import pytest

from tui.host.rooms import RoomService
from tui.host.server import Host, HostConfig

ROOT = Path(__file__).resolve().parents[2]
WAIT = 180.0
"""Longest wait for anything to appear: only a safety net, minutes, for a loaded machine
(every wait ends as soon as what it waits for has come)."""
_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|"
                      rb"\x1bP[^\x1b]*\x1b\\|\x1b[()][0-9A-Za-z]|\x1b[=>78DMEc]")
KEYS = {"f4": "\x1bOS", "shift+tab": "\x1b[Z", "ctrl+u": "\x15", "enter": "\r", "tab": "\t",
        "escape": "\x1b", "f2": "\x1bOQ", "f3": "\x1bOR",
        "down": "\x1b[B", "up": "\x1b[A", "left": "\x1b[D", "right": "\x1b[C"}


def plain(data: bytes) -> str:
    """What a terminal shows of ``data``, roughly: escape sequences removed."""
    return _ESCAPES.sub(b"", data).decode("utf-8", "replace")


class Terminal:
    """What a player sees of the app, and the keys they type: a base for the SSH and
    the browser clients (each reads into ``output`` and sends keys its own way)."""

    def __init__(self) -> None:
        self.output = bytearray()
        self.mark = 0
        self.changed = asyncio.Event()
        self.name = ""
        self.reader: asyncio.Task[None] = asyncio.get_running_loop().create_task(self.read())

    async def read(self) -> None:
        raise NotImplementedError

    async def send(self, chunk: str) -> None:
        raise NotImplementedError

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
                await self.send(chunk)
                await asyncio.sleep(pause)


class Player(Terminal):
    """One SSH client with a terminal, driving the app by keys."""

    def __init__(self, conn: asyncssh.SSHClientConnection,
                 process: asyncssh.SSHClientProcess[bytes]) -> None:
        self.conn = conn
        self.process = process
        super().__init__()

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

    async def send(self, chunk: str) -> None:
        self.process.stdin.write(chunk.encode())

    async def close(self) -> None:
        self.conn.close()
        self.reader.cancel()
        with contextlib.suppress(TimeoutError, asyncssh.Error, OSError):
            await asyncio.wait_for(self.conn.wait_closed(), 10)


CODE = re.compile(r"Room ([A-Z2-9]{5}) \(you play")


CLOCK_PLACEHOLDER = "5+3, 10 or none"
"""What the rooms screen's clock field shows when it is empty."""


async def to_clock_field(player: Terminal, clock: str) -> None:
    """On the rooms screen (the code field focused, as it opens), type ``clock`` into the
    clock field, three fields back.

    The app sends a key to the widget focused when it takes the key, and a Shift+Tab
    moves the focus only when it has reached the screen, so keys typed right after a
    Shift+Tab can reach the field it leaves (on a loaded machine they did: "0.05" became
    "05", its "0." lost on the way). So each step waits for what the screen shows: the
    field emptied by Ctrl+U (its placeholder) says the focus is there, then the time
    typed, shown in the field.
    """
    await player.keys("shift+tab", "shift+tab", "shift+tab", "ctrl+u")
    await player.expect(CLOCK_PLACEHOLDER)
    if clock:
        await player.keys(clock)
        await player.expect(clock)


async def create_room(player: Terminal, clock: str | None = None) -> str:
    """Open Play a person, create a room (optionally with ``clock``); return its code."""
    await player.expect("Play a person")
    await player.keys("f2")
    await player.expect("Create room", "Open rooms")
    if clock is not None:  # focus is on the code field: back to the clock field
        await to_clock_field(player, clock)
    await player.keys("f4")
    shown = await player.expect("Waiting for an opponent")
    match = CODE.search(shown)
    assert match, shown[-500:]
    return match.group(1)


async def join_room(player: Terminal, code: str) -> None:
    """Open Play a person and join the room ``code`` by typing it."""
    await player.expect("Play a person")
    await player.keys("f2")
    await player.expect("Create room", "Open rooms")
    await player.keys(code, "enter")
    await player.expect(f"Room {code} (you play")


async def move(player: Terminal, text: str) -> None:
    """Type a move in notation (m, the move, Enter)."""
    await player.keys("m")
    await player.expect("Your move")
    await player.keys(text, "enter")


def host_config(data: Path, **changes: Any) -> HostConfig:
    """A host's configuration for tests: 127.0.0.1, free ports, sessions running this
    checkout's code."""
    env = {"PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    settings: dict[str, Any] = {"port": 0, "bind": "127.0.0.1", "max_sessions": 8,
                                "python": sys.executable, "env": env,
                                "grace_seconds": 30.0}
    settings.update(changes)
    return HostConfig(data=data, **settings)


@contextlib.asynccontextmanager
async def running(config: HostConfig) -> AsyncIterator[Host]:
    """A started host, stopped on the way out."""
    server = Host(config)
    await server.start()
    try:
        yield server
    finally:
        await asyncio.wait_for(server.stop(), 20)


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[Host]:
    """A host on 127.0.0.1 and a free port, its data in a temporary folder."""
    async with running(host_config(tmp_path / "host")) as server:
        yield server


@pytest.fixture
async def web_host(tmp_path: Path) -> AsyncIterator[Host]:
    """A host with SSH and a web port, both on 127.0.0.1 and free ports."""
    async with running(host_config(tmp_path / "host", web_port=0)) as server:
        yield server


@pytest.fixture
def keys() -> list[asyncssh.SSHKey]:
    """Three players' keys."""
    return [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[RoomService]:
    """A room service on a socket in ``tmp_path`` (a dropped seat is kept 0.5 s)."""
    rooms = RoomService(tmp_path / "rooms.sock", tmp_path / "users", grace=0.5)
    await rooms.start()
    try:
        yield rooms
    finally:
        await rooms.stop()
