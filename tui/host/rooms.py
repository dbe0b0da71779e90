"""The room service: every room's game lives here, in the host process.

Sessions (each a Parlor app in its own process) connect over a Unix socket and speak
:mod:`tui.link.wire`. A session proves who it is with the token the SSH server issued
for it (:meth:`RoomService.issue`), so the identity is the one the server checked, never
one a client claims. The service checks every move with the engine, runs the clocks,
sends every change to both players and every spectator at once, and records each
finished game into both players' finished games (``history/`` of each player's data
directory, through :func:`tui.player.store.save_new`), and updates both players' ratings.
Each room's game itself (positions, clock, ending, record, takebacks, rating, the brain
seat's turns) is a :class:`tui.game.session.Session`, as a local game's is; the service
keeps the network, the timers, the rooms on disk and the seats.

No game is lost when the host is killed: every room in progress is written to disk
after each change (:mod:`tui.host.roomfile`) and restored when the service starts
again, each person's seat kept as if they had just dropped. A room may also seat a
brain (:mod:`tui.host.brainseat`), which searches in a worker process under the
host-wide cap on brain searches, on the room's clock.

Nothing a client sends is trusted: each message is size-capped and validated, a client
that sends too much is refused or cut off, and a client that stops reading is dropped
rather than allowed to hold anyone else up (writes never wait).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import hashlib
import logging
import multiprocessing
import os
import random
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.protocol import AnyState, ParlorError, Result
from engine.record import GameRecord
from engine.registry import GAMES, get_game
from tui.game.session import TAKEBACK, Session
from tui.host import accounts, brainseat, correspondence, roomfile
from tui.host.chat import RoomChat
from tui.host.db import IMPORT_RATINGS, ArchivedGame, HostData, HostDataError, RatedSide, Seat
from tui.host.limits import Bucket
from tui.link import wire
from tui.player import store
from tui.player.clock import Clock, TimeControl
from tui.player.ratings import FILE_NAME as RATINGS_FILE
from tui.player.ratings import PlayerRating, PlayerRatings

log = logging.getLogger("parlor.host.rooms")

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
"""Room codes avoid letters and digits that look alike (0/O, 1/I/L)."""
CODE_LENGTH = 5
GRACE_SECONDS = 180.0
"""How long a dropped player keeps the seat (their clock runs meanwhile)."""
HELLO_SECONDS = 10.0
"""A connection must say who it is within this time."""
MAX_ROOMS = 500
ROOMS_PER_PLAYER = 3
"""Games in progress one player may hold a seat in at once (the host's default)."""
ROOMS_PER_MINUTE = 6
"""Rooms one player may create per minute, after a burst of as many (the default)."""
MAX_LISTED = 50
WRITE_BUFFER_CAP = 512 * 1024
"""A client that lets this much pile up unread is cut off (it never slows the others)."""
RATE_BURST, RATE_PER_SECOND = 60.0, 20.0
"""Each connection may send a burst of this many messages, then this many a second."""
FINISHED_KEPT_SECONDS = 600.0
"""A finished room stays (for its players to see the result) this long."""
NAME_PATTERN = re.compile(r"[^A-Za-z0-9._-]+")
BRAIN_SEAT = "brain:"
"""A brain seat's identity is this and its spec (no person's identity starts so)."""
BRAIN_SLACK_SECONDS = 60.0
"""A brain's search that has not answered this long after its time is given up."""


def clean_name(name: str) -> str:
    """A display name safe to show and record: letters, digits, ``._-``, 1–24 characters."""
    return NAME_PATTERN.sub("", str(name))[:24] or "player"


def user_home(users: Path, identity: str) -> Path:
    """The folder given as ``XDG_DATA_HOME`` to the sessions of ``identity``."""
    return users / hashlib.sha256(identity.encode()).hexdigest()[:24]


def user_data(users: Path, identity: str) -> Path:
    """The Parlor data directory of ``identity``'s sessions."""
    return user_home(users, identity) / "parlor"


def user_history(users: Path, identity: str) -> Path:
    """Where the finished games of ``identity`` go (``history/`` of its data directory)."""
    return user_data(users, identity) / "history"


def user_ratings(users: Path, identity: str) -> PlayerRatings:
    """The ratings of ``identity`` (``ratings.json`` of its data directory)."""
    return PlayerRatings(user_data(users, identity) / RATINGS_FILE)


@dataclass(eq=False)
class Conn:
    """One session's connection to the service."""

    writer: asyncio.StreamWriter
    identity: str = ""
    name: str = ""
    address: str = ""
    room: Room | None = None
    brain_held: bool = False
    brain_wait: asyncio.Task[None] | None = None
    allowance: float = RATE_BURST
    refilled: float = field(default_factory=time.monotonic)
    closed: bool = False

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message``; a client that does not read is cut off, never waited for."""
        if self.closed:
            return
        transport = self.writer.transport
        if transport.is_closing() or transport.get_write_buffer_size() > WRITE_BUFFER_CAP:
            self.close()
            return
        self.writer.write(wire.encode(message))

    def close(self) -> None:
        """Close the connection (its reader then cleans up)."""
        self.closed = True
        self.writer.close()

    def allowed(self) -> bool:
        """Take one message from the rate allowance; False when the client sends too fast."""
        now = time.monotonic()
        self.allowance = min(RATE_BURST, self.allowance + (now - self.refilled) * RATE_PER_SECOND)
        self.refilled = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True


class Room:
    """One game between two people (or a person and a brain), its clock, its offers and
    its spectators."""

    def __init__(self, code: str, state: AnyState, control: TimeControl | None,
                 history: list[AnyState] | None = None, moves: list[Any] | None = None):
        self.code = code
        self.game_id = state.GAME
        self.session = Session(history or [state], moves or [], ("", ""), control=control,
                               seed=random.randrange(2**31), hosted=True)
        """The game: positions, the people's names, clock, ending, rating, brain turns."""
        self.seats: list[str | None] = [None, None]
        self.conns: list[Conn | None] = [None, None]
        self.dropped: dict[int, asyncio.TimerHandle] = {}
        self.watchers: set[Conn] = set()
        self.offer: dict[str, Any] | None = None
        self.note = ""
        self.flag_timer: asyncio.TimerHandle | None = None
        self.game_file = store.new_game_id()
        self.started = False
        self.finished_at = 0.0
        self.brain = ""
        """The brain spec in :attr:`brain_side` (empty: two people)."""
        self.address = ""
        """The address its creator connected from (empty for a room restored)."""
        self.thinking: asyncio.Task[None] | None = None
        self.ratings: dict[int, str] = {}
        """Each rated person's new rating, shown to them once the game is over."""
        self.rated_now = False
        """Whether the game's end was counted in the ratings (by this host run)."""
        self.held: int | None = None
        """After a restart: the side to move, whose clock waits (with every move) until
        both players are back; None when the game runs."""

    # -- the game, kept by the session ---------------------------------------------------
    @property
    def history(self) -> list[AnyState]:
        return self.session.history

    @property
    def moves(self) -> list[Any]:
        return self.session.moves

    @property
    def texts(self) -> list[str]:
        return self.session.texts

    @property
    def control(self) -> TimeControl | None:
        return self.session.control

    @property
    def clock(self) -> Clock | None:
        return self.session.clock

    @property
    def names(self) -> list[str]:
        """The players' names (a brain seat's is its spec)."""
        return list(self.session.players)

    def set_name(self, side: int, name: str) -> None:
        names = self.names
        names[side] = name
        self.session.players = (names[0], names[1])

    @property
    def brain_side(self) -> int | None:
        return self.session.brain_side

    @property
    def seed(self) -> int:
        """The brain's seed (plus the ply, for each move)."""
        return self.session.seed or 0

    @property
    def result(self) -> str | None:
        """The result once the room's game was finished (``*``: without one)."""
        return self.session.ending[0] if self.session.ending is not None else None

    @property
    def termination(self) -> str:
        return self.session.ending[1] if self.session.ending is not None else ""

    @property
    def rated(self) -> bool:
        """False once a move was taken back (as an undo makes a local game unrated)."""
        return self.session.unrated is None

    def seat_brain(self, side: int, spec: str) -> None:
        """Put the brain ``spec`` (already checked) in ``side``'s seat."""
        self.brain, self.session.brain_side = spec, side
        self.seats[side] = BRAIN_SEAT + spec
        self.set_name(side, spec)

    def people(self) -> list[str]:
        """The identities of the people seated (a brain is not one)."""
        return list(dict.fromkeys(s for side, s in enumerate(self.seats)
                                  if s and side != self.brain_side))

    def to_saved(self, now: float) -> dict[str, Any]:
        """The room as :mod:`tui.host.roomfile` keeps it (clocks read at ``now``)."""
        clock = self.clock
        return {"code": self.code, "game": self.game_id,
                "options": {k: str(v) for k, v in self.history[0].options.items()},
                "clock": str(self.control) if self.control else "",
                "seats": [None if s == self.brain_side else self.seats[s] for s in (0, 1)],
                "names": self.names, "moves": self.texts,
                "left": [clock.remaining(s, now) for s in (0, 1)] if clock else None,
                "running": (clock.running if clock.running is not None else self.held)
                           if clock else None, "file": self.game_file,
                "brain": ({"side": self.brain_side, "spec": self.brain}
                          if self.brain_side is not None else None),
                "seed": self.seed, "rated": self.rated, "result": self.result,
                "termination": self.termination}

    @classmethod
    def from_saved(cls, saved: roomfile.SavedRoom, now: float) -> Room:
        """A room restored from its file; its clock runs again from ``now``."""
        room = cls(saved.code, saved.history[0], saved.control, saved.history, saved.moves)
        for side in (0, 1):
            room.seats[side] = saved.seats[side]
            room.set_name(side, clean_name(saved.names[side]))
        if saved.brain_side is not None:
            room.seat_brain(saved.brain_side, saved.brain)
        room.game_file, room.session.seed = saved.game_file, saved.seed
        room.session.unrated = None if saved.rated else TAKEBACK
        room.started = True
        if room.clock is not None and saved.left is not None:
            room.clock.left = list(saved.left)
            if saved.running is not None and saved.result is None:
                room.clock.start(saved.running, now)
        if saved.result is not None:
            room.session.ending = (saved.result, saved.termination or "unterminated")
        return room

    @property
    def state(self) -> AnyState:
        return self.session.state

    @property
    def over(self) -> bool:
        return self.result is not None

    def side_of(self, identity: str) -> int | None:
        for side in (0, 1):
            if self.seats[side] == identity:
                return side
        return None

    def members(self) -> list[Conn]:
        return [c for c in self.conns if c is not None] + list(self.watchers)

    def summary(self, identity: str) -> dict[str, Any]:
        """One line's worth for the room lists."""
        return {"code": self.code, "game": self.game_id, "names": self.names,
                "moves": len(self.moves), "clock": str(self.control) if self.control else "",
                "mine": self.side_of(identity) is not None, "started": self.started}

    def snapshot(self, side: int | None, now: float) -> dict[str, Any]:
        """The whole room as one message for a player on ``side`` (None: a spectator)."""
        clock = None
        if self.clock is not None:
            clock = {"left": [round(self.clock.remaining(s, now), 3) for s in (0, 1)],
                     "running": self.clock.running, "control": str(self.control),
                     "held": self.held}
        return {"t": "room", "code": self.code, "game": self.game_id,
                "options": {k: str(v) for k, v in self.history[0].options.items()},
                "names": self.names, "moves": self.texts, "result": self.result,
                "termination": self.termination, "clock": clock, "offer": self.offer,
                "present": [self.conns[s] is not None or s == self.brain_side for s in (0, 1)],
                "started": self.started, "you": -1 if side is None else side,
                "note": self.note, "brain": self.brain_side if self.brain else None,
                "rated": self.rated,
                "rating": self.ratings.get(side, "") if side is not None else ""}

    def record(self, result: str | None = None, termination: str = "") -> GameRecord:
        """The game as a record, with the players' names and the time control (and
        ``result``/``termination`` instead of the room's own when given)."""
        return self.session.record(result=result, termination=termination, Room=self.code)


class SeatRatings:
    """The ratings of a room's people as its session's sink: the session says who is
    rated and their scores; the host's database counts them all in one transaction
    (:meth:`tui.host.db.HostData.settle`), each person against the other's rating as the
    database had it before the game (or against the brain seat's rated level)."""

    def __init__(self, data: HostData, room: Room) -> None:
        self.data, self.room = data, room
        self.sides: list[RatedSide] = []

    def current(self, side: int) -> tuple[float, float]:
        player = self.data.player_for_key(self.room.seats[side] or "")
        kept = self.data.rating(player.id, self.room.game_id) if player else None
        rating = (PlayerRating(kept.game, kept.rating, kept.deviation) if kept is not None
                  else PlayerRating.fresh(self.room.game_id))
        return rating.rating, rating.deviation

    def record(self, side: int, opponent: tuple[float, float], score: float) -> Any:
        identity = self.room.seats[side]
        if identity is None:
            return None
        fixed = opponent if self.room.brain_side is not None else None
        self.sides.append(RatedSide(side, identity, score, fixed))
        return None


class RoomService:
    """The rooms of one host, served on a Unix socket."""

    def __init__(self, socket_path: Path, users: Path, *, brain_slots: int = 2,
                 grace: float = GRACE_SECONDS, keep: Path | None = None,
                 clock: Callable[[], float] = time.monotonic,
                 rooms_per_player: int = ROOMS_PER_PLAYER,
                 rooms_per_minute: int = ROOMS_PER_MINUTE,
                 rooms_per_address: int = ROOMS_PER_PLAYER * 8,
                 host_data: HostData | None = None) -> None:
        self.socket_path = Path(socket_path)
        self.host_data = host_data
        """The host's database (:mod:`tui.host.db`): finished games are archived there
        and the players' ratings live there (none are kept without it)."""
        self.users = Path(users)
        self.keep = Path(keep) if keep is not None else self.socket_path.parent / "rooms"
        """Where rooms in progress are kept (:mod:`tui.host.roomfile`)."""
        self.grace = grace
        self.now = clock
        self.rooms: dict[str, Room] = {}
        self.tokens: dict[str, tuple[str, str, str]] = {}
        self.conns: set[Conn] = set()
        self.brain_count = max(1, brain_slots)
        self.brain_slots = asyncio.Semaphore(self.brain_count)
        self.pool: concurrent.futures.ProcessPoolExecutor | None = None
        """The worker processes where room brains search (started on first use)."""
        self.rooms_per_player = max(1, rooms_per_player)
        self.rooms_per_minute = max(1, rooms_per_minute)
        self.rooms_per_address = max(1, rooms_per_address)
        self.creations: dict[str, Bucket] = {}
        """Per player: the allowance of rooms they may create (``rooms_per_minute``)."""
        self.server: asyncio.AbstractServer | None = None
        self.recorded: list[Path] = []
        """Every record written (for the host's log and for tests)."""
        self.accounts = accounts.Accounts(self)
        """Names, keys, profiles, leaderboards, challenges (:mod:`tui.host.accounts`)."""
        self.chat = RoomChat(lambda: self.host_data, clock)
        """The rooms' chat (:mod:`tui.host.chat`)."""
        self.corr = correspondence.Correspondence(self)
        """Correspondence games, kept in the database (:mod:`tui.host.correspondence`)."""

    # -- lifecycle ------------------------------------------------------------------
    async def start(self) -> None:
        """Restore the rooms kept from the last run, then listen on the socket (only
        this user may connect: the folder is private)."""
        self.socket_path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        await self.import_ratings()
        self.restore()
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()
        self.server = await asyncio.start_unix_server(self.serve, path=str(self.socket_path),
                                                      limit=wire.MAX_LINE + 1)
        os.chmod(self.socket_path, 0o600)
        self.corr.start()

    async def import_ratings(self) -> None:
        """Once, after the database's migration 4: bring the players' ``ratings.json``
        into it (:meth:`tui.host.db.HostData.import_ratings`), before any game is rated.
        Trouble with a file is one line in the log each; the others are taken."""
        data = self.host_data
        if data is None:
            return
        try:
            if IMPORT_RATINGS not in data.tasks():
                return
            taken, lines = await asyncio.wrap_future(data.import_ratings(
                lambda identity: user_ratings(self.users, identity)))
        except HostDataError as exc:
            log.error("cannot bring the players' ratings into the database: %s",
                      str(exc)[:200])
            return
        for line in lines:
            log.error("importing ratings: %s", line[:300])
        log.info("%d ratings brought from the players' ratings.json into the database",
                 taken)

    async def stop(self) -> None:
        """Stop listening and close every connection. Games in progress are recorded as
        unterminated and stay kept, so they go on when the host starts again."""
        await self.corr.stop()
        for room in list(self.rooms.values()):
            if room.thinking is not None:
                room.thinking.cancel()
            if room.started and not room.over:
                self.save(room)
                if room.moves:
                    self.record(room, "*", "unterminated")
                room.note = "the host is stopping: this game goes on when it is back"
                self.broadcast(room)
        if self.server is not None:
            self.server.close()
        for conn in list(self.conns):
            conn.close()
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
        with contextlib.suppress(OSError):
            self.socket_path.unlink()

    def restore(self) -> None:
        """Bring back the rooms kept on disk: each person's seat counts as dropped (the
        grace time runs from now), the clocks go on from their kept readings, and a game
        already over is recorded."""
        now = self.now()
        loop = asyncio.get_running_loop()
        for saved in roomfile.load(self.keep):
            if saved.code in self.rooms or len(self.rooms) >= MAX_ROOMS:
                continue
            room = Room.from_saved(saved, now)
            self.rooms[room.code] = room
            if room.over:
                self.finish(room, room.result or "*", room.termination)
                continue
            outcome = room.state.outcome()
            if outcome is not None:
                self.finish(room, outcome.result.value, outcome.termination)
                continue
            for side in (0, 1):
                if side != room.brain_side:
                    room.dropped[side] = loop.call_later(self.grace, self.abandon, room, side)
            room.note = f"the host restarted: seats are kept for {self.grace:.0f} s"
            if room.clock is not None and room.clock.running is not None:
                # nobody is back yet: the clock waits for both players (or their grace)
                room.held = room.clock.running
                room.clock.stop(now)
                room.note += "; the clocks start when both players are back"
            self.arm_flag(room)
            self.brain_turn(room)
            log.info("room %s restored (%s, %d moves)", room.code, room.game_id,
                     len(room.moves))

    def save(self, room: Room) -> None:
        """Keep ``room`` on disk (after every change of a game in progress)."""
        if not room.started:
            return
        try:
            roomfile.save(self.keep, room.code, room.to_saved(self.now()))
        except (OSError, ValueError) as exc:
            log.error("room %s cannot be kept on disk: %s", room.code,
                      getattr(exc, "strerror", None) or str(exc)[:100])

    def forget(self, room: Room) -> None:
        """The room's game is recorded (or had no move): its kept file goes."""
        try:
            roomfile.remove(self.keep, room.code)
        except OSError as exc:
            log.error("room %s: its kept file cannot be removed: %s", room.code,
                      exc.strerror or exc)

    def issue(self, identity: str, name: str, address: str = "") -> str:
        """A token a session presents to be ``identity`` (shown as ``name``), connected
        from ``address`` (a new key or guest per connection is still one address)."""
        token = secrets.token_urlsafe(18)
        self.tokens[token] = (identity, clean_name(name), address)
        return token

    def revoke(self, token: str) -> None:
        """The session of ``token`` has ended."""
        self.tokens.pop(token, None)

    # -- one connection ---------------------------------------------------------------
    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        conn = Conn(writer)
        self.conns.add(conn)
        try:
            line = await asyncio.wait_for(reader.readline(), HELLO_SECONDS)
            hello = wire.decode(line)
            identity = (self.tokens.get(wire.text(hello, "token", ""))
                        if hello["t"] == "hello" else None)
            if identity is None:
                conn.send({"t": "error", "message": "unknown session"})
                return
            conn.identity, conn.name, conn.address = identity
            conn.send({"t": "welcome", "name": conn.name,
                       "yours": [r.summary(conn.identity) for r in self.rooms.values()
                                 if r.side_of(conn.identity) is not None and not r.over],
                       "back": self.seats_kept(conn.identity)})
            while not conn.closed:
                line = await reader.readline()
                if not line:
                    break
                if not conn.allowed():
                    conn.send({"t": "error", "message": "too many requests; slow down"})
                    continue
                try:
                    self.handle(conn, wire.decode(line))
                except wire.WireError as exc:
                    conn.send({"t": "error", "message": f"bad request: {exc}"[:200]})
                except ParlorError as exc:
                    conn.send({"t": "error", "message": store.short(exc, 200)})
        except (TimeoutError, wire.WireError, asyncio.LimitOverrunError, ValueError,
                ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            self.conns.discard(conn)
            self.disconnected(conn)
            conn.close()

    def handle(self, conn: Conn, msg: dict[str, Any]) -> None:
        """Act on one validated message from ``conn``."""
        kind = msg["t"]
        if kind == "list":
            self.send_list(conn, wire.text(msg, "kind", "open"))
        elif kind == "create":
            self.create(conn, msg)
        elif kind == "join":
            self.join(conn, wire.text(msg, "code").strip().upper())
        elif kind == "watch":
            self.watch(conn, wire.text(msg, "code").strip().upper())
        elif kind == "leave":
            self.leave(conn)
        elif kind == "say":
            self.chat.on_say(conn, conn.room, msg)
        elif kind == "chat_log":
            self.chat.on_log(conn, conn.room)
        elif kind == "brain":
            self.brain_acquire(conn)
        elif kind == "brain_done":
            self.brain_release(conn)
        elif kind in accounts.KINDS:
            self.accounts.handle(conn, msg)
        elif kind in correspondence.KINDS:
            self.corr.handle(conn, msg)
        elif kind in ("move", "resign", "offer", "answer"):
            room = conn.room
            side = room.side_of(conn.identity) if room else None
            if room is None or side is None or room.conns[side] is not conn:
                raise ParlorError("you are not playing in a room")
            if room.over:
                raise ParlorError("the game is over")
            if not room.started:
                raise ParlorError("waiting for an opponent to join")
            if room.held is not None and kind != "resign":
                raise ParlorError("the host restarted: the game goes on when both players "
                                  "are back")
            getattr(self, f"on_{kind}")(room, side, msg)
        else:
            raise wire.WireError(f"unknown request {kind[:30]!r}")

    # -- rooms ------------------------------------------------------------------------
    def new_code(self) -> str:
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self.rooms:
                return code

    def create(self, conn: Conn, msg: dict[str, Any]) -> None:
        game_id = wire.text(msg, "game").strip().lower()
        if game_id not in GAMES:
            raise ParlorError(f"unknown game {game_id[:40]!r}")
        state = get_game(game_id).initial(**wire.options(msg))
        control = TimeControl.parse(wire.text(msg, "clock", ""))
        seat = wire.text(msg, "side", "first")
        if seat not in ("first", "second", "random"):
            raise wire.WireError("side must be first, second or random")
        opponent = wire.text(msg, "opponent", "").strip()
        brain = brainseat.check_brain(opponent, game_id) if opponent else ""
        self.may_create(conn)
        if len(self.rooms) >= MAX_ROOMS:
            self.sweep(crowded=True)
            if len(self.rooms) >= MAX_ROOMS:
                raise ParlorError("the host has too many rooms; try again later")
        self.leave(conn)
        room = Room(self.new_code(), state, control)
        room.address = conn.address
        side = {"first": 0, "second": 1}.get(seat, random.randrange(2))
        self.rooms[room.code] = room
        self.seat(room, side, conn)
        if brain:
            room.seat_brain(1 - side, brain)
            with contextlib.suppress(RuntimeError):  # a broken pool is replaced at the move
                self.brain_pool().submit(brainseat.warm, game_id)
            self.begin(room, f"{brain} plays {room.state.PLAYERS[1 - side]}")
            return
        room.note = f"room {room.code}: waiting for an opponent"
        self.broadcast(room)

    def may_create(self, conn: Conn) -> None:
        """Check that ``conn``'s player may create one more room now (ParlorError,
        one line, if not): a seat in at most ``rooms_per_player`` games in progress
        (the room being left counts only if its game has begun), and no more than
        ``rooms_per_minute`` rooms created a minute."""
        mine = [r for r in self.rooms.values()
                if r.started and not r.over and r.side_of(conn.identity) is not None]
        if len(mine) >= self.rooms_per_player:
            codes = ", ".join(sorted(r.code for r in mine)[:5])
            raise ParlorError(f"you have {len(mine)} games in progress ({codes}); "
                              "finish or resign one before you open another")
        if conn.address and sum(r.started and not r.over and r.address == conn.address
                                for r in self.rooms.values()) >= self.rooms_per_address:
            raise ParlorError("too many games in progress were opened from your address; "
                              "finish one before you open another")
        bucket = self.creations.get(conn.identity)
        if bucket is None:
            if len(self.creations) > 10 * MAX_ROOMS:  # forget full allowances
                for bucket in self.creations.values():
                    bucket.refill()
                self.creations = {k: b for k, b in self.creations.items()
                                  if b.tokens < b.burst}
            bucket = self.creations[conn.identity] = Bucket(
                self.rooms_per_minute, self.rooms_per_minute / 60.0, self.now)
        if not bucket.take():
            raise ParlorError(f"you have opened {self.rooms_per_minute} rooms in a minute; "
                              f"wait {max(1, round(bucket.wait()))} s")

    def begin(self, room: Room, note: str) -> None:
        """Both seats are taken: the game and its clock start."""
        room.started = True
        room.note = note
        if room.clock is not None:
            room.clock.start(room.state.to_move, self.now())
            self.arm_flag(room)
        self.save(room)
        self.broadcast(room)
        self.brain_turn(room)

    def seat(self, room: Room, side: int, conn: Conn) -> None:
        room.seats[side] = conn.identity
        room.set_name(side, conn.name)
        room.conns[side] = conn
        conn.room = room

    def join(self, conn: Conn, code: str) -> None:
        room = self.rooms.get(code)
        if room is None:
            raise ParlorError(f"no room {code[:10]!r}")
        side = room.side_of(conn.identity)
        if side is not None:  # back in one's own seat (a reconnection)
            old = room.conns[side]
            if old is not None and old is not conn:
                old.room = None
                old.send({"t": "left", "why": "this game was opened in another session"})
            self.leave(conn, keep=room)
            room.conns[side] = conn
            conn.room = room
            timer = room.dropped.pop(side, None)
            if timer is not None:
                timer.cancel()
                room.note = f"{room.names[side]} is back"
            self.resume(room)
            self.broadcast(room)
            return
        if room.over or None not in room.seats:
            raise ParlorError(f"room {code} is full; watch it instead")
        self.accounts.may_join(room, conn)  # a challenge's room waits for the one challenged
        self.leave(conn)
        side = room.seats.index(None)
        self.seat(room, side, conn)
        self.begin(room, f"{conn.name} joined: the game begins")

    def seats_kept(self, identity: str) -> list[str]:
        """The codes of the games in progress where ``identity``'s seat is kept for them
        (they dropped, or the host restarted): where their next session should land."""
        codes = []
        for room in self.rooms.values():
            side = room.side_of(identity)
            if side is not None and room.started and not room.over and room.conns[side] is None:
                codes.append(room.code)
        return codes[:MAX_LISTED]

    def resume(self, room: Room) -> None:
        """After a restart, start the held clock once every person seated is back."""
        if room.held is None or room.over:
            return
        away = [room.names[s] for s in (0, 1) if s != room.brain_side and room.conns[s] is None]
        if away:
            wait = f"the clocks wait for {away[0]}"
            if wait not in room.note:
                room.note = f"{room.note}; {wait}"
            return
        side, room.held = room.held, None
        if room.clock is not None:
            room.clock.start(side, self.now())
            room.note = "both players are back: the game goes on"
        self.arm_flag(room)
        self.save(room)
        self.brain_turn(room)

    def watch(self, conn: Conn, code: str) -> None:
        room = self.rooms.get(code)
        if room is None:
            raise ParlorError(f"no room {code[:10]!r}")
        if room.side_of(conn.identity) is not None:
            self.join(conn, code)
            return
        self.leave(conn)
        room.watchers.add(conn)
        conn.room = room
        conn.send(room.snapshot(None, self.now()))

    def leave(self, conn: Conn, keep: Room | None = None) -> None:
        """``conn`` leaves its room (a player's seat is kept, as for a dropped line)."""
        room, conn.room = conn.room, None
        if room is None or room is keep:
            return
        room.watchers.discard(conn)
        for side in (0, 1):
            if room.conns[side] is conn:
                self.seat_dropped(room, side)

    def disconnected(self, conn: Conn) -> None:
        self.brain_release(conn)
        self.leave(conn)

    def seat_dropped(self, room: Room, side: int) -> None:
        """A player's session went: keep the seat for the grace time, or close an open room."""
        room.conns[side] = None
        if not room.started:
            self.rooms.pop(room.code, None)
            return
        if room.over:
            return
        room.note = f"{room.names[side]} left; their seat is kept for {self.grace:.0f} s"
        loop = asyncio.get_running_loop()
        room.dropped[side] = loop.call_later(self.grace, self.abandon, room, side)
        self.broadcast(room)

    def abandon(self, room: Room, side: int) -> None:
        room.dropped.pop(side, None)
        if room.over or room.conns[side] is not None:
            return
        other = 1 - side
        if other != room.brain_side and room.conns[other] is None:
            # neither player is there (as after a restart nobody came back to): no winner
            self.finish(room, "*", "unterminated", "neither player came back")
            return
        self.finish(room, Result.win_for(other).value, "abandoned",
                    f"{room.names[side]} did not come back")

    def sweep(self, crowded: bool = False) -> None:
        """Forget finished rooms kept long enough (``crowded``: every finished room,
        since their games are recorded and a new room needs the place)."""
        now = self.now()
        for code, room in list(self.rooms.items()):
            if room.over and (crowded or now - room.finished_at > FINISHED_KEPT_SECONDS):
                del self.rooms[code]

    def send_list(self, conn: Conn, kind: str) -> None:
        self.sweep()
        rooms = [r for r in self.rooms.values() if not r.over]
        if kind == "open":
            rooms = [r for r in rooms if not r.started or r.side_of(conn.identity) is not None]
        elif kind == "live":
            rooms = [r for r in rooms if r.started]
        else:
            raise wire.WireError("kind must be open or live")
        rooms.sort(key=lambda r: (r.side_of(conn.identity) is None, r.code))
        conn.send({"t": "rooms", "kind": kind,
                   "rooms": [r.summary(conn.identity) for r in rooms[:MAX_LISTED]]})

    # -- play -------------------------------------------------------------------------
    def on_move(self, room: Room, side: int, msg: dict[str, Any]) -> None:
        if room.state.to_move != side:
            raise ParlorError("it is not your turn")
        self.play(room, wire.text(msg, "move", limit=64))

    def play(self, room: Room, text: str) -> None:
        """Play the move ``text`` for the side to move (ParlorError if it is not legal),
        keep the room on disk and tell everyone."""
        state = room.state
        now = self.now()
        if self.check_flag(room, now):
            return
        room.session.play(state.parse_move(text), now)
        room.offer = None
        room.note = ""
        outcome = room.state.outcome()
        if outcome is not None:
            self.finish(room, outcome.result.value, outcome.termination)
            return
        self.arm_flag(room)
        self.save(room)
        self.broadcast(room)
        self.brain_turn(room)

    def on_resign(self, room: Room, side: int, msg: dict[str, Any]) -> None:
        self.finish(room, Result.win_for(1 - side).value, "resignation",
                    f"{room.names[side]} resigned")

    def on_offer(self, room: Room, side: int, msg: dict[str, Any]) -> None:
        kind = wire.text(msg, "kind")
        if kind not in ("draw", "takeback"):
            raise wire.WireError("an offer is a draw or a takeback")
        if kind == "takeback" and not self.own_moves(room, side):
            raise ParlorError("you have no move to take back")
        room.offer = {"kind": kind, "by": side}
        room.note = (f"{room.names[side]} offers a draw" if kind == "draw"
                     else f"{room.names[side]} asks to take back a move")
        self.broadcast(room)
        if room.brain_side is not None:  # a brain grants a takeback and declines a draw
            self.on_answer(room, room.brain_side, {"t": "answer", "accept": kind == "takeback"})

    @staticmethod
    def own_moves(room: Room, side: int) -> list[int]:
        return room.session.own_moves(side)

    def on_answer(self, room: Room, side: int, msg: dict[str, Any]) -> None:
        offer = room.offer
        if offer is None or offer["by"] == side:
            raise ParlorError("there is no offer to answer")
        accept = wire.flag(msg, "accept")
        room.offer = None
        asker = room.names[offer["by"]]
        if not accept:
            room.note = f"{room.names[side]} declined"
            self.broadcast(room)
            return
        if offer["kind"] == "draw":
            self.finish(room, Result.DRAW.value, "agreement", "draw agreed")
            return
        room.session.take_back({offer["by"]}, self.now())  # back to the asker's last turn
        self.arm_flag(room)
        room.session.make_unrated(TAKEBACK)
        room.note = f"move taken back for {asker} (the game is no longer rated)"
        self.save(room)
        self.broadcast(room)
        self.brain_turn(room)

    # -- clocks -----------------------------------------------------------------------
    def arm_flag(self, room: Room) -> None:
        """Wake up when the running clock would run out."""
        if room.flag_timer is not None:
            room.flag_timer.cancel()
        clock = room.clock
        if clock is None or clock.running is None or room.over:
            return
        left = clock.remaining(clock.running, self.now())
        loop = asyncio.get_running_loop()
        room.flag_timer = loop.call_later(max(0.0, left) + 0.01, self.check_flag, room)

    def check_flag(self, room: Room, now: float | None = None) -> bool:
        """End the game if the side to move's time has run out."""
        if room.clock is None or room.over:
            return False
        side = room.clock.flagged(self.now() if now is None else now)
        if side is None:
            self.arm_flag(room)
            return False
        self.finish(room, Result.win_for(1 - side).value, "time forfeit",
                    f"{room.names[side]}'s flag fell")
        return True

    # -- the end ----------------------------------------------------------------------
    def finish(self, room: Room, result: str, termination: str, note: str = "") -> None:
        """End the game, record it for both players, and tell everyone."""
        now = self.now()
        room.session.end(result, termination, now)
        if room.flag_timer is not None:
            room.flag_timer.cancel()
        for timer in room.dropped.values():
            timer.cancel()
        room.dropped.clear()
        room.offer = None
        room.finished_at = now
        room.note = note or termination
        if room.moves:  # kept with its result until recorded, then rated once
            self.save(room)
            self.record(room)
        self.forget(room)
        if room.moves:
            self.rate(room)
            self.share(room)
        self.broadcast(room)

    def record(self, room: Room, result: str | None = None, termination: str = "") -> None:
        """Write the game into each person's finished games (the same file each time,
        so a later record of the same game replaces an earlier one)."""
        record = room.record(result, termination)
        for identity in room.people():
            target = user_history(self.users, identity) / f"{room.game_file}.pgn"
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                self.recorded.append(store.save_new(target, record, replace=True))
            except OSError as exc:
                log.error("room %s: cannot record the game: %s", room.code, exc)

    def share(self, room: Room) -> None:
        """Archive the finished game in the host's database (once per game: a game
        finished again after a restart is not archived twice)."""
        if self.host_data is None:
            return
        try:
            keys = {side: who for side, who in enumerate(room.seats)
                    if who and side != room.brain_side}
            game = ArchivedGame(
                room.game_file, room.game_id, room.result or "*", room.record().to_text(),
                self.host_data.now(), room.rated_now,
                tuple(Seat(side, None, room.names[side]) for side in (0, 1)),
                room.termination, room.code)
            self.written(room, "archive the game", self.host_data.archive(game, keys))
        except (ParlorError, ValueError) as exc:
            log.error("room %s: cannot archive the game: %s", room.code, str(exc)[:100])

    @staticmethod
    def written(room: Room, what: str, future: concurrent.futures.Future[Any]) -> None:
        """Log a database write that failed (the writes are not waited for)."""
        def done(future: concurrent.futures.Future[Any]) -> None:
            error = future.exception()
            if error is not None:
                log.error("room %s: cannot %s in the host database: %s", room.code, what,
                          str(error)[:100])
        future.add_done_callback(done)

    def rate(self, room: Any) -> None:
        """Update the players' ratings for a finished game (a room, or a correspondence
        game seen as one), as its session settles it: two people each against the
        other's rating before the game; a person against a brain seat when it is a rated
        level, against that level's measured rating. Unrated: games with a move taken
        back, and unfinished ones. The ratings are the host's database's (no database,
        no ratings): counted once per game id, in one transaction queued to its writer;
        each player is shown their new rating when it has committed."""
        people = [room.seats[side] for side in (0, 1) if side != room.brain_side]
        data = self.host_data
        if data is None or None in people or len(set(people)) != len(people):
            return
        sink = SeatRatings(data, room)
        try:
            room.session.settle(sink)
            if not sink.sides:
                return
            room.rated_now = True
            future = data.settle(room.game_file, room.game_id, sink.sides)
        except (ValueError, OSError) as exc:
            log.error("room %s: cannot rate the game: %s", room.code, str(exc)[:100])
            return
        self.written(room, "rate the game", future)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a caller outside the service): nothing to show
            return

        def show(counted: dict[int, tuple[Any, Any]]) -> None:
            for side, (_before, after) in counted.items():
                room.ratings[side] = after.text()
            if counted and isinstance(room, Room):
                self.broadcast(room)

        def done(future: concurrent.futures.Future[dict[int, tuple[Any, Any]]]) -> None:
            if future.exception() is None:
                with contextlib.suppress(RuntimeError):  # the loop has closed
                    loop.call_soon_threadsafe(show, future.result())
        future.add_done_callback(done)

    def broadcast(self, room: Room) -> None:
        now = self.now()
        for side in (0, 1):
            conn = room.conns[side]
            if conn is not None:
                conn.send(room.snapshot(side, now))
        if room.watchers:
            message = room.snapshot(None, now)
            for conn in list(room.watchers):
                conn.send(message)

    # -- the host-wide cap on brain searches -------------------------------------------
    def brain_acquire(self, conn: Conn) -> None:
        if conn.brain_held or conn.brain_wait is not None:
            conn.send({"t": "brain_ok"} if conn.brain_held else {"t": "error",
                                                                "message": "already waiting"})
            return

        async def wait() -> None:
            await self.brain_slots.acquire()
            conn.brain_wait = None
            if conn.closed:
                self.brain_slots.release()
                return
            conn.brain_held = True
            conn.send({"t": "brain_ok"})

        conn.brain_wait = asyncio.get_running_loop().create_task(wait())

    def brain_release(self, conn: Conn) -> None:
        if conn.brain_wait is not None:
            conn.brain_wait.cancel()
            conn.brain_wait = None
        if conn.brain_held:
            conn.brain_held = False
            self.brain_slots.release()

    # -- brain seats ------------------------------------------------------------------
    def brain_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        """The worker processes for room brains (fresh interpreters: ``spawn``)."""
        if self.pool is None:
            self.pool = concurrent.futures.ProcessPoolExecutor(
                self.brain_count, mp_context=multiprocessing.get_context("spawn"))
        return self.pool

    def brain_turn(self, room: Room) -> None:
        """If it is the brain seat's turn, start its search (one at a time per room)."""
        side = room.brain_side
        if (side is None or room.over or not room.started or room.thinking is not None
                or room.held is not None or room.state.to_move != side
                or room.state.outcome() is not None):
            return
        room.thinking = asyncio.get_running_loop().create_task(self.brain_move(room))

    async def brain_move(self, room: Room) -> None:
        """Search for the brain's move in a worker process, holding one of the host's
        brain-search slots (it waits for one rather than starve the other searches), with
        the time :func:`brains.timeman.clock_allot` gives on the room's clock."""
        session = room.session
        turn, ply = session.token, len(room.moves)
        loop = asyncio.get_running_loop()
        text = ""
        problem = ""
        request = None
        try:
            async with self.brain_slots:
                if room.over or not session.current(turn, ply):
                    return
                request = session.brain_request(self.now())
                if request is None:
                    return
                seconds = request.seconds
                limit = (seconds if seconds is not None else brainseat.NO_CLOCK_SECONDS)
                for attempt in (1, 2):  # once more in a fresh pool if a worker died
                    pool = self.brain_pool()
                    try:
                        text = await asyncio.wait_for(loop.run_in_executor(
                            pool, brainseat.choose_move, room.game_id, request.options,
                            list(request.texts), request.spec, request.seed or 0, seconds),
                            limit + BRAIN_SLACK_SECONDS)
                        break
                    except (concurrent.futures.process.BrokenProcessPool, RuntimeError):
                        if self.pool is pool:
                            self.pool = None
                        if attempt == 2:
                            raise
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - a brain's failure ends its game, not the host
            problem = f"{room.brain} cannot play: {str(exc)[:100] or type(exc).__name__}"
        finally:
            room.thinking = None
        if room.over:
            return
        if problem:
            log.error("room %s: %s", room.code, problem)
            self.finish(room, "*", "unterminated", problem)
            return
        if request is None or not session.accepts(request.token, request.ply):
            self.brain_turn(room)  # a move was taken back meanwhile: think again
            return
        try:
            self.play(room, text)
        except ParlorError as exc:
            self.finish(room, "*", "unterminated", f"{room.brain} played a bad move: "
                                                   f"{str(exc)[:80]}")
