"""A session's link to the room service (one per app process, shared by its screens).

The SSH server starts each session with the socket's path and the session's token in
its environment (:data:`ENV_SOCKET`, :data:`ENV_TOKEN`); without them the app runs on
its own and offers no rooms.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable, Iterator
from typing import Any

from tui.link import wire

log = logging.getLogger("parlor.host.client")

ENV_SOCKET = "PARLOR_ROOMS"
ENV_TOKEN = "PARLOR_ROOM_TOKEN"

Listener = Callable[[dict[str, Any]], None]


def available() -> bool:
    """True when this app runs under ``parlor host`` (rooms can be reached)."""
    return bool(os.environ.get(ENV_SOCKET) and os.environ.get(ENV_TOKEN))


class RoomLink:
    """The connection to the room service; listeners get every message it sends."""

    def __init__(self) -> None:
        self.listeners: list[Listener] = []
        self.writer: asyncio.StreamWriter | None = None
        self.reader_task: asyncio.Task[None] | None = None
        self.name = ""
        self.yours: list[dict[str, Any]] = []
        """The rooms where this player has a seat in a game in progress (at connection)."""
        self.back: list[str] = []
        """The codes of those where the seat waits for them (no session of theirs in it)."""
        self.account: dict[str, Any] = {}
        """The host's last word on this player's account (``account``: the name claimed,
        the ranks on the leaderboards)."""

    @property
    def connected(self) -> bool:
        return self.writer is not None and not self.writer.is_closing()

    async def connect(self) -> None:
        """Connect and say who this session is (OSError / WireError on failure)."""
        if not available():
            raise OSError("this session is not served by parlor host")
        reader, writer = await asyncio.open_unix_connection(
            os.environ[ENV_SOCKET], limit=wire.MAX_LINE + 1)
        writer.write(wire.encode({"t": "hello", "token": os.environ[ENV_TOKEN]}))
        welcome = wire.decode(await asyncio.wait_for(reader.readline(), 10))
        if welcome["t"] != "welcome":
            writer.close()
            refusal = welcome.get("message", "the room service refused this session")
            raise OSError(str(refusal)[:100])
        self.name = str(welcome.get("name", ""))[:40]
        yours = welcome.get("yours")
        self.yours = [r for r in yours if isinstance(r, dict)] if isinstance(yours, list) else []
        back = welcome.get("back")
        self.back = ([c[:8] for c in back if isinstance(c, str)][:50]
                     if isinstance(back, list) else [])
        self.writer = writer
        self.reader_task = asyncio.get_running_loop().create_task(self.read(reader))

    async def read(self, reader: asyncio.StreamReader) -> None:
        try:
            while True:
                line = await reader.readline()
                if not line:
                    break
                try:
                    message = wire.decode(line)
                except wire.WireError:
                    continue
                self.deliver(message)
        except (OSError, ValueError, asyncio.IncompleteReadError):
            pass
        finally:
            self.writer = None
            self.deliver({"t": "closed"})

    def deliver(self, message: dict[str, Any]) -> None:
        """Give ``message`` to every listener; one that fails never cuts the link for the
        others (its error is logged at debug level: the terminal is the app's)."""
        if message.get("t") == "account":
            self.account = message
        for listener in list(self.listeners):
            try:
                listener(message)
            except Exception:  # a screen's trouble must not end the session's link
                log.debug("a room listener failed", exc_info=True)

    def send(self, message: dict[str, Any]) -> bool:
        """Send ``message``; False if the link is down."""
        if not self.connected:
            return False
        assert self.writer is not None
        self.writer.write(wire.encode(message))
        return True

    @contextlib.contextmanager
    def listening(self, listener: Listener) -> Iterator[None]:
        self.listeners.append(listener)
        try:
            yield
        finally:
            self.listeners.remove(listener)

    def subscribe(self, listener: Listener) -> None:
        self.listeners.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        with contextlib.suppress(ValueError):
            self.listeners.remove(listener)


_link: RoomLink | None = None


def current_link() -> RoomLink | None:
    """The session's link if it is connected, else None."""
    return _link if _link is not None and _link.connected else None


async def get_link() -> RoomLink:
    """The session's link, connected on first use (OSError if the service is gone)."""
    global _link
    if _link is None or not _link.connected:
        link = RoomLink()
        await link.connect()
        _link = link
    return _link


@contextlib.contextmanager
def brain_slot(timeout: float = 600.0) -> Iterator[None]:
    """Hold one of the host's brain-search slots (from a worker thread; blocks until one
    is free). Outside the host, or if the service cannot be reached, it holds nothing."""
    if not available():
        yield
        return
    sock = None
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(timeout)
        sock.connect(os.environ[ENV_SOCKET])
        sock.sendall(wire.encode({"t": "hello", "token": os.environ[ENV_TOKEN]})
                     + wire.encode({"t": "brain"}))
        stream = sock.makefile("rb")
        for _ in range(4):
            line = stream.readline(wire.MAX_LINE + 1)
            if not line or wire.decode(line)["t"] in ("brain_ok", "error"):
                break
    except (OSError, wire.WireError):
        pass
    try:
        yield
    finally:
        if sock is not None:
            sock.close()  # closing releases the slot
