"""Chat in rooms: the room service's handlers for ``say`` and ``chat_log``.

A player or a spectator in a room says a line (``{"t": "say", "text": ...}``); it is
refused with one line when said too fast (each connection: a burst of :data:`BURST`
lines, then one a second; a line refused for another reason counts too), cleaned
(:mod:`tui.link.chat`: text only, at most 200 characters) and refused when empty or too
long, kept in the host's database (:meth:`tui.host.db.HostData.say`) and
sent as ``{"t": "chat", "code": ..., "lines": [...], "log": false}``:

- a player's line to everyone in the room;
- a spectator's line to the spectators only while the game is on (no help from the
  gallery), and to the players too once it is over.

``{"t": "chat_log"}`` asks for the room's last :data:`LOG_LINES` lines (those the asker
may see, by the same rule), sent as ``chat`` messages, the first with ``"log": true``
(the whole log so far: it replaces what was shown). A session asks when it opens a room
and again when the game ends (then a player gets the spectators' lines too).

The database keeps each room's lines under a key made of the room's code and its game's
file name, so a later room with the same code starts with an empty chat, and a room
restored after the host restarts gets its chat back.

This module does not import :mod:`tui.host.rooms` (which dispatches to it): it sees a
room and a connection through the small protocols below.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import json
import logging
import time
import weakref
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from engine.protocol import ParlorError
from tui.host.db import MAX_CHAT, HostData, HostDataError
from tui.host.limits import Bucket
from tui.link import wire
from tui.link.chat import MAX_NAME, MAX_RAW, ChatLine, ChatRefused, check, clean

log = logging.getLogger("parlor.host.chat")

BURST, PER_SECOND = 5.0, 1.0
"""Lines one connection may say at once, then a second."""
LOG_BURST, LOG_PER_SECOND = 4.0, 0.5
"""Log requests one connection may make at once, then a second."""
KEPT = 200
"""Lines of each room kept in memory (and read back from the database)."""
LOG_LINES = 50
"""Lines sent to someone who opens a room."""
PACK_BYTES = wire.MAX_LINE - 1024
"""A chat message is cut into several below this size (each line fits in one)."""


class ChatConn(Protocol):
    """What chat needs of a connection (:class:`tui.host.rooms.Conn`)."""

    identity: str
    name: str

    def send(self, message: dict[str, Any]) -> None: ...


class ChatRoom(Protocol):
    """What chat needs of a room (:class:`tui.host.rooms.Room`)."""

    code: str
    game_file: str

    @property
    def conns(self) -> Sequence[Any]: ...

    @property
    def watchers(self) -> Iterable[Any]: ...

    @property
    def over(self) -> bool: ...

    def side_of(self, identity: str) -> int | None: ...


def room_key(room: ChatRoom) -> str:
    """The room's key in the database's chat table: its code and a digest of its game's
    file name (unique per game; at most 22 characters)."""
    digest = hashlib.sha256(room.game_file.encode()).hexdigest()[:16]
    return f"{room.code[:5]}-{digest}"


def stored(line: ChatLine) -> str:
    """A line as the database keeps it (its author's name and role with it)."""
    return json.dumps({"n": line.name, "s": line.spectator, "x": line.text},
                      ensure_ascii=False, separators=(",", ":"))


def restored(text: str) -> ChatLine | None:
    """A line read back from the database (None when it is not one of ours); a line of
    unknown role counts as a spectator's, so it is never shown to players mid-game."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, dict):
        return None
    spectator = value.get("s")
    return ChatLine.from_wire({"name": value.get("n"), "text": value.get("x"),
                               "spectator": spectator if isinstance(spectator, bool) else True})


class RoomChat:
    """The chat of every room of one room service."""

    def __init__(self, data: Callable[[], HostData | None],
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.data = data
        """The host's database now (None: chat is kept in memory only)."""
        self.clock = clock
        self.lines: weakref.WeakKeyDictionary[Any, deque[ChatLine]] = \
            weakref.WeakKeyDictionary()
        """Per room (forgotten with it): its last :data:`KEPT` lines, oldest first."""
        self.buckets: weakref.WeakKeyDictionary[Any, Bucket] = weakref.WeakKeyDictionary()
        self.log_buckets: weakref.WeakKeyDictionary[Any, Bucket] = weakref.WeakKeyDictionary()

    # -- who is who -------------------------------------------------------------------
    @staticmethod
    def role(room: ChatRoom, conn: ChatConn) -> bool | None:
        """True for a spectator, False for a player, None for neither."""
        side = room.side_of(conn.identity)
        if side is not None and room.conns[side] is conn:
            return False
        return True if conn in room.watchers else None

    def may_see(self, room: ChatRoom, spectator: bool, line: ChatLine) -> bool:
        """A spectator sees every line; a player, the players' lines, and the
        spectators' too once the game is over."""
        return spectator or room.over or not line.spectator

    # -- the lines kept -----------------------------------------------------------------
    def kept(self, room: ChatRoom) -> deque[ChatLine]:
        """The room's lines, read from the database the first time (after a restart)."""
        lines = self.lines.get(room)
        if lines is None:
            lines = deque(maxlen=KEPT)
            data = self.data()
            if data is not None:
                try:
                    for message in data.chat(room_key(room), KEPT):
                        line = restored(message.text)
                        if line is not None:
                            lines.append(line)
                except HostDataError as exc:
                    log.error("room %s: cannot read its chat: %s", room.code, str(exc)[:100])
            self.lines[room] = lines
        return lines

    def keep(self, room: ChatRoom, line: ChatLine) -> None:
        self.kept(room).append(line)
        data = self.data()
        if data is None:
            return
        text = stored(line)
        if len(text) > MAX_CHAT:  # cannot happen with the caps; never keep a cut line
            log.error("room %s: a chat line too long to keep", room.code)
            return
        try:
            future = data.say(room_key(room), None, text)
        except HostDataError as exc:
            log.error("room %s: cannot keep a chat line: %s", room.code, str(exc)[:100])
            return

        def done(future: concurrent.futures.Future[int]) -> None:
            error = future.exception()
            if error is not None:
                log.error("room %s: cannot keep a chat line: %s", room.code,
                          str(error)[:100])
        future.add_done_callback(done)

    # -- the requests -------------------------------------------------------------------
    def bucket(self, table: weakref.WeakKeyDictionary[Any, Bucket], conn: ChatConn,
               burst: float, rate: float) -> Bucket:
        bucket = table.get(conn)
        if bucket is None:
            bucket = table[conn] = Bucket(burst, rate, self.clock)
        return bucket

    def where(self, conn: ChatConn, room: ChatRoom | None) -> tuple[ChatRoom, bool]:
        if room is None:
            raise ParlorError("you are not in a room")
        spectator = self.role(room, conn)
        if spectator is None:
            raise ParlorError("you are not in a room")
        return room, spectator

    def on_say(self, conn: ChatConn, room: ChatRoom | None, msg: dict[str, Any]) -> None:
        """``conn`` says a line in its room (ParlorError, one line, when it cannot)."""
        room, spectator = self.where(conn, room)
        raw = wire.text(msg, "text", limit=MAX_RAW)
        bucket = self.bucket(self.buckets, conn, BURST, PER_SECOND)
        if not bucket.take():  # before the cleaning: a refused line costs no more
            raise ChatRefused(f"too many chat lines; wait {max(1, round(bucket.wait()))} s")
        text = check(raw)
        line = ChatLine(clean(conn.name)[:MAX_NAME] or "someone", spectator, text)
        self.keep(room, line)
        message = {"t": "chat", "code": room.code, "lines": [line.to_wire()], "log": False}
        players = [c for c in room.conns if c is not None] \
            if self.may_see(room, False, line) else []
        for member in dict.fromkeys([*players, *room.watchers]):  # each once
            member.send(message)

    def on_log(self, conn: ChatConn, room: ChatRoom | None) -> None:
        """Send ``conn`` its room's last lines that it may see."""
        room, spectator = self.where(conn, room)
        bucket = self.bucket(self.log_buckets, conn, LOG_BURST, LOG_PER_SECOND)
        if not bucket.take():
            raise ChatRefused("too many chat log requests; wait a little")
        lines = [line for line in self.kept(room) if self.may_see(room, spectator, line)]
        for message in self.packed(room.code, lines[-LOG_LINES:]):
            conn.send(message)

    @staticmethod
    def packed(code: str, lines: Sequence[ChatLine]) -> list[dict[str, Any]]:
        """``lines`` as chat messages each well below the wire's cap, the first marked
        as the whole log (there is always one, maybe with no line)."""
        messages: list[dict[str, Any]] = []
        batch: list[dict[str, Any]] = []
        size = 0
        for line in lines:
            item = line.to_wire()
            cost = len(json.dumps(item, ensure_ascii=True)) + 1
            if batch and size + cost > PACK_BYTES:
                messages.append({"t": "chat", "code": code, "lines": batch, "log": False})
                batch, size = [], 0
            batch.append(item)
            size += cost
        messages.append({"t": "chat", "code": code, "lines": batch, "log": False})
        messages[0]["log"] = True
        return messages
