"""Correspondence games on a ``parlor host``: days per move, one move at a time.

A correspondence game lives in the host's database (:mod:`tui.host.db`, table
``corr_games``), never in a room's memory: every request reads it back, replays its moves
through the engine (a :class:`tui.game.session.Session`, as a room's game is), and every
change is written at once, so a game survives any number of host restarts and upgrades.
A row that cannot be read back or replayed is one log line and is skipped.

The time control is :data:`tui.host.db.CORR_DAYS` days per move: the side to move has a
deadline (wall-clock epoch seconds, from the database's clock); a move moves the deadline
to the other side. A side that does not move in time loses on time: checked whenever
anyone reads the game and by a periodic sweep (:meth:`Correspondence.sweep`). A finished
game is recorded in both players' finished games, counted in their ratings and archived,
through the room service's own paths (as a finished room is); each player is told the
result once, when it happens if they are online, else at their next login.

The app reaches it through the room service's wire (:mod:`tui.link.wire`), with the
messages in :data:`KINDS`, each validated and capped like the others:

- ``corr_new``: ``game``, ``options``, ``days`` (1, 3 or 7), ``side`` (first, second,
  random) and ``name``: a named player is challenged (the game begins when they accept
  it with ``corr_join``); without a name the game is open to anyone (``corr_list``);
- ``corr_list``: the asker's games (``your move``, ``their move``, ``waiting``,
  ``challenge``, ``over``, with the seconds left) and the open games of others;
- ``corr_join``: take the open seat of an open game, or accept a challenge;
- ``corr_open``: one game, its moves and whose turn it is;
- ``corr_move``: play one move (``move``, and ``ply``, the moves the client saw);
- ``corr_resign``: resign (declining a challenge, or ending a game no one has moved in,
  is not rated);
- ``corr_news``: what a session shows first at login: how many games wait for the
  player's move, and the results they were not told yet (told once).

This module does not import :mod:`tui.host.rooms` (which dispatches to it): it sees the
room service and a connection through the small protocols below.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
import secrets
from collections import OrderedDict
from collections.abc import Coroutine
from dataclasses import replace
from typing import Any, Protocol

from engine.protocol import AnyState, ParlorError, Result
from engine.record import GameRecord
from engine.registry import GAMES, get_game
from tui.game.session import Session
from tui.host.accounts import NAME_RULE, Member
from tui.host.db import CORR_DAYS, MAX_CORR_MOVES, CorrGame, HostData, HostDataError
from tui.host.limits import Bucket
from tui.link import wire

log = logging.getLogger("parlor.host.correspondence")

KINDS = frozenset({"corr_new", "corr_list", "corr_join", "corr_open", "corr_move",
                   "corr_resign", "corr_news"})
"""The room service's messages handled here."""
DAY = 86_400.0
SWEEP_SECONDS = 300.0
"""How often the service looks for games out of time (besides every read)."""
MAX_ACTIVE = 50
"""Correspondence games one player may have going (or waiting) at once."""
MAX_WAITING = 5
"""Games one player may have waiting for an opponent (open or a challenge)."""
MAX_OPEN = 200
"""Open games host-wide."""
LISTED = 40
"""Games listed in one answer (each list)."""
NEW_BURST, NEW_PER_SECOND = 5.0, 5.0 / 3600
"""Games one player may create at once, then per second (five an hour)."""
ID_RULE = re.compile(r"corr-[0-9a-f]{16}")


class Service(Protocol):
    """What this module needs of the room service."""

    host_data: HostData | None
    accounts: Any
    """:class:`tui.host.accounts.Accounts`: its ``online`` sessions are the players'
    (a brain-search connection is never one)."""

    def record(self, room: Any, result: str | None = None, termination: str = "") -> None: ...

    def rate(self, room: Any) -> None: ...

    def share(self, room: Any) -> None: ...


class CorrError(ParlorError):
    """A correspondence request that cannot be done (one line, for the player)."""


class Finished:
    """A finished correspondence game, seen as the room service's paths for finished
    rooms see a room (record, rating, archive)."""

    brain_side = None

    def __init__(self, game: CorrGame, session: Session) -> None:
        self.code = "corr"
        self.game_id = game.game
        self.game_file = game.id
        """The key it is counted and archived under (unique: the game's id)."""
        self.seats: list[str | None] = list(game.seats)
        self.session = session
        self.ratings: dict[int, str] = {}
        self.rated_now = False
        self.days = game.days

    @property
    def names(self) -> list[str]:
        return list(self.session.players)

    @property
    def moves(self) -> list[Any]:
        return self.session.moves

    @property
    def result(self) -> str | None:
        return self.session.ending[0] if self.session.ending is not None else None

    @property
    def termination(self) -> str:
        return self.session.ending[1] if self.session.ending is not None else ""

    def people(self) -> list[str]:
        return list(dict.fromkeys(s for s in self.seats if s))

    def record(self, result: str | None = None, termination: str = "") -> GameRecord:
        return self.session.record(result=result, termination=termination,
                                   TimeControl=f"{self.days} days per move")


REPLAYS_KEPT = 500
"""Replays remembered (positions and moves, keyed by the game's kept text): a list of
many long games is not replayed again at every request."""
_replays: OrderedDict[tuple[str, str, str, tuple[str, ...]],
                      tuple[list[AnyState], list[Any]]] = OrderedDict()


def replay(game: CorrGame) -> Session:
    """The game's session, its moves replayed through the engine (HostDataError, one
    line, for a game that cannot be: an unknown game, bad options, an illegal move).
    The positions of a game read before are remembered, by its game, options and moves
    exactly as kept (so a change of any is a replay again); each call has its own
    session."""
    key = (game.id, game.game, repr(sorted(game.options.items())), game.moves)
    found = _replays.get(key)
    if found is None:
        try:
            if game.game not in GAMES:
                raise ParlorError(f"unknown game {game.game[:40]!r}")
            state = get_game(game.game).initial(**game.options)
            history, moves = [state], []
            for text in game.moves:
                move = history[-1].parse_move(text)
                moves.append(move)
                history.append(history[-1].play(move))
        except (ParlorError, ValueError, TypeError) as exc:
            raise HostDataError(f"correspondence game {game.id} cannot be replayed: "
                                f"{str(exc)[:100]}") from None
        found = _replays[key] = (history, moves)
        while len(_replays) > REPLAYS_KEPT:
            _replays.popitem(last=False)
    else:
        _replays.move_to_end(key)
    session = Session(list(found[0]), list(found[1]), game.names, hosted=True)
    if game.result is not None:
        session.ending = (game.result, game.termination or "unterminated")
    return session


def started(game: CorrGame) -> bool:
    return None not in game.seats


class Correspondence:
    """The correspondence games' side of the room service (see the module's doc)."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.tasks: set[asyncio.Task[None]] = set()
        self.sweeper: asyncio.Task[None] | None = None
        self.auto_sweep = True
        """Whether :meth:`start` starts the periodic sweep (tests call :meth:`sweep`)."""
        self.swept = asyncio.Event()
        """Set after each pass of the periodic sweep."""
        self.buckets: dict[str, Bucket] = {}

    # -- plumbing -----------------------------------------------------------------------
    def data(self) -> HostData:
        data = self.service.host_data
        if data is None:
            raise CorrError("this host keeps no correspondence games")
        return data

    def now(self) -> float:
        """Wall-clock epoch seconds (the database's clock: deadlines outlive the host)."""
        return self.data().now()

    def online(self, identity: str) -> list[Member]:
        """The sessions of ``identity`` that said who they are (an app's, at login)."""
        return [c for c in self.service.accounts.online(identity) if not c.closed]

    def tell(self, identity: str | None, message: dict[str, Any]) -> bool:
        """Send ``message`` to every session of ``identity``; True when one had it."""
        told = False
        for conn in self.online(identity or ""):
            conn.send(message)
            told = True
        return told

    def later(self, conn: Member, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` without holding up the service; its refusal is one error line."""
        async def run() -> None:
            try:
                await work
            except ParlorError as exc:
                conn.send({"t": "error", "message": str(exc)[:200]})
            except Exception:  # a bug here must not end the service
                log.exception("a correspondence request failed")
                conn.send({"t": "error", "message": "the host could not do that"})
        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def start(self) -> None:
        """Start the periodic sweep for games out of time (once, then every
        :data:`SWEEP_SECONDS`)."""
        if self.service.host_data is None or self.sweeper is not None or not self.auto_sweep:
            return

        async def loop() -> None:
            self.settle_left()
            while True:
                try:
                    await self.sweep()
                except Exception:  # one bad pass must not end the sweeps
                    log.exception("the correspondence sweep failed")
                self.swept.set()
                await asyncio.sleep(SWEEP_SECONDS)
        self.sweeper = asyncio.get_running_loop().create_task(loop())

    async def stop(self) -> None:
        tasks = [t for t in (self.sweeper, *self.tasks) if t is not None]
        self.sweeper = None
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    # -- reading ------------------------------------------------------------------------
    async def read(self, game_id: str) -> tuple[CorrGame, Session]:
        """The game ``game_id`` as it is now (one out of time is finished first)."""
        data = self.data()
        game = data.corr_game(game_id)
        if game is None:
            raise CorrError(f"no correspondence game {game_id[:30]}")
        session = replay(game)
        if game.result is None and game.deadline is not None and game.deadline <= self.now():
            await self.time_out(game, session)
            return await self.read(game_id)
        return game, session

    async def time_out(self, game: CorrGame, session: Session) -> None:
        side = session.state.to_move
        await self.finish(game, session, Result.win_for(1 - side).value, "time forfeit")

    def settle_left(self) -> int:
        """Record, rate and archive the decided games the host stopped before archiving
        (each is counted once: the ratings by the game's id, the archive by its id);
        how many there were."""
        data = self.service.host_data
        if data is None:
            return 0
        done = 0
        try:
            for game_id in data.corr_unsettled():
                try:
                    game = data.corr_game(game_id)
                    if game is None:
                        continue
                    self.settle(game, replay(game))
                    done += 1
                except HostDataError as exc:
                    log.error("%s", str(exc)[:200])
        except HostDataError as exc:
            log.error("cannot look for correspondence games to settle: %s", str(exc)[:100])
        return done

    def settle(self, game: CorrGame, session: Session) -> None:
        """A finished game, through the room service's paths for a finished room."""
        finished = Finished(game, session)
        self.service.record(finished)
        self.service.rate(finished)
        self.service.share(finished)

    async def sweep(self) -> int:
        """Finish every game whose side to move is out of time; how many were."""
        data = self.service.host_data
        if data is None:
            return 0
        done = 0
        for game_id in data.corr_due(data.now()):
            try:
                game = data.corr_game(game_id)
                if game is None or game.result is not None:
                    continue
                await self.time_out(game, replay(game))
                done += 1
            except HostDataError as exc:
                log.error("%s", str(exc)[:200])
        return done

    def mine(self, identity: str) -> list[tuple[CorrGame, Session]]:
        """``identity``'s games that read back (a damaged one is a log line)."""
        games, bad = self.data().corr_of(identity)
        for line in bad:
            log.error("%s", line)
        out = []
        for game in games:
            try:
                out.append((game, replay(game)))
            except HostDataError as exc:
                log.error("%s", str(exc)[:200])
        return out

    @staticmethod
    def side(game: CorrGame, identity: str) -> int | None:
        for side in (0, 1):
            if game.seats[side] == identity:
                return side
        return None

    def status(self, game: CorrGame, session: Session, identity: str) -> str:
        side = self.side(game, identity)
        if game.result is not None:
            return "over"
        if not started(game):
            return "waiting" if side is not None else "challenge"
        return "your move" if session.state.to_move == side else "their move"

    def summary(self, game: CorrGame, session: Session, identity: str, now: float
                ) -> dict[str, Any]:
        side = self.side(game, identity)
        return {"id": game.id, "game": game.game, "names": list(game.names),
                "you": -1 if side is None else side, "days": game.days,
                "moves": len(game.moves), "status": self.status(game, session, identity),
                "left": None if game.deadline is None else round(game.deadline - now),
                "result": game.result, "termination": game.termination}

    def snapshot(self, game: CorrGame, session: Session, identity: str) -> dict[str, Any]:
        message = self.summary(game, session, identity, self.now())
        message.update({"t": "corr_game", "options": dict(game.options),
                        "moves": list(session.texts), "to_move": session.state.to_move})
        return message

    # -- the messages -------------------------------------------------------------------
    def handle(self, conn: Member, msg: dict[str, Any]) -> None:
        """Act on one message of :data:`KINDS` from ``conn``."""
        kind = msg["t"]
        if kind == "corr_news" and self.service.host_data is None:
            conn.send({"t": "corr_news", "your_move": 0, "lines": []})  # asked at login
            return
        self.data()
        if kind == "corr_new":
            self.on_new(conn, msg)
        elif kind == "corr_list":
            self.later(conn, self.on_list(conn))
        elif kind == "corr_news":
            self.later(conn, self.on_news(conn))
        elif kind in ("corr_join", "corr_open", "corr_move", "corr_resign"):
            game_id = wire.text(msg, "id", limit=40)
            if not ID_RULE.fullmatch(game_id):
                raise wire.WireError("field 'id' must be a correspondence game's id")
            if kind == "corr_move":
                move = wire.text(msg, "move", limit=64)
                ply = msg.get("ply")
                if ply is not None and (isinstance(ply, bool) or not isinstance(ply, int)
                                        or not 0 <= ply <= MAX_CORR_MOVES):
                    raise wire.WireError("field 'ply' must be a number of moves")
                self.later(conn, self.on_move(conn, game_id, move, ply))
            else:
                self.later(conn, getattr(self, f"on_{kind[5:]}")(conn, game_id))
        else:
            raise wire.WireError(f"unknown request {kind[:30]!r}")

    def on_new(self, conn: Member, msg: dict[str, Any]) -> None:
        data = self.data()
        game_id = wire.text(msg, "game").strip().lower()
        if game_id not in GAMES:
            raise CorrError(f"unknown game {game_id[:40]!r}")
        options = wire.options(msg)
        get_game(game_id).initial(**options)  # bad options: one line now
        days = msg.get("days")
        if isinstance(days, bool) or days not in CORR_DAYS:
            raise wire.WireError("field 'days' must be 1, 3 or 7")
        seat = wire.text(msg, "side", "first")
        if seat not in ("first", "second", "random"):
            raise wire.WireError("side must be first, second or random")
        name = wire.text(msg, "name", "", limit=64).strip()
        invited = None
        shown = ""
        if name:
            target = data.player_named(name) if NAME_RULE.fullmatch(name) else None
            identity = data.first_key(target.id) if target is not None else None
            if target is None or identity is None:
                raise CorrError(f"no player has claimed the name {name[:24]!r}")
            if identity == conn.identity:
                raise CorrError("you cannot challenge yourself")
            invited, shown = identity, target.name or name
        bucket = self.buckets.get(conn.identity)
        if bucket is None:
            if len(self.buckets) > 10_000:
                self.buckets.clear()
            bucket = self.buckets[conn.identity] = Bucket(NEW_BURST, NEW_PER_SECOND)
        if not bucket.take():
            raise CorrError("you have created enough correspondence games for now; "
                            "wait a little")
        side = {"first": 0, "second": 1}.get(seat, random.randrange(2))
        seats: list[str | None] = [None, None]
        names = ["", ""]
        seats[side], names[side] = conn.identity, conn.name
        names[1 - side] = shown
        now = self.now()
        game = CorrGame(id=f"corr-{secrets.token_hex(8)}", game=game_id, options=options,
                        seats=(seats[0], seats[1]), names=(names[0], names[1]),
                        invited=invited, moves=(), days=days, deadline=None, result=None,
                        termination="", told=0, version=0, created=now, updated=now)
        self.later(conn, self.create(conn, game, shown))

    async def create(self, conn: Member, game: CorrGame, shown: str) -> None:
        data = self.data()
        active = [g for g, _ in self.mine(conn.identity)
                  if g.result is None and self.side(g, conn.identity) is not None]
        if len(active) >= MAX_ACTIVE:
            raise CorrError(f"you have {len(active)} correspondence games going; finish one "
                            "first")
        if sum(not started(g) for g in active) >= MAX_WAITING:
            raise CorrError(f"you have {MAX_WAITING} correspondence games waiting for an "
                            "opponent already")
        if game.invited is None and len(data.corr_open(MAX_OPEN)[0]) >= MAX_OPEN:
            raise CorrError("the host has too many open correspondence games; try later")
        await asyncio.wrap_future(data.corr_create(game))
        conn.send({"t": "corr_made", "id": game.id, "name": shown})
        if game.invited is not None:
            self.tell(game.invited, {"t": "corr_note", "id": game.id,
                                     "text": f"{conn.name} challenges you to a "
                                             f"correspondence game of {game.game} "
                                             f"({game.days} days per move)"})

    async def on_list(self, conn: Member) -> None:
        data = self.data()
        now = self.now()
        games = []
        for game, session in self.mine(conn.identity):
            if game.result is None and game.deadline is not None and game.deadline <= now:
                game, session = await self.read(game.id)
            games.append(self.summary(game, session, conn.identity, now))
        order = {"your move": 0, "challenge": 1, "their move": 2, "waiting": 3, "over": 4}
        games.sort(key=lambda g: order[g["status"]])
        opened, bad = data.corr_open(LISTED * 2)
        for line in bad:
            log.error("%s", line)
        others = [{"id": g.id, "game": g.game, "name": next(n for n in g.names if n) if any(
            g.names) else "someone", "days": g.days, "side": 0 if g.seats[0] is None else 1}
                  for g in opened if conn.identity not in g.seats][:LISTED]
        conn.send(fitted({"t": "corr_list", "games": games[:LISTED], "open": others}))

    async def on_open(self, conn: Member, game_id: str) -> None:
        game, session = await self.read(game_id)
        if self.side(game, conn.identity) is None and game.invited != conn.identity:
            raise CorrError("that is not one of your correspondence games")
        self.send_game(conn, game, session)

    def send_game(self, conn: Member, game: CorrGame, session: Session) -> None:
        message = self.snapshot(game, session, conn.identity)
        try:
            wire.encode(message)
        except wire.WireError:
            raise CorrError("that game is too long to send") from None
        conn.send(message)

    async def on_join(self, conn: Member, game_id: str) -> None:
        data = self.data()
        game, session = await self.read(game_id)
        if game.result is not None or started(game):
            raise CorrError("that game has begun already, or is over")
        if conn.identity in game.seats:
            raise CorrError("that game is yours: it waits for an opponent")
        if game.invited is not None and game.invited != conn.identity:
            raise CorrError("that game waits for the player challenged")
        active = [g for g, _ in self.mine(conn.identity)
                  if g.result is None and self.side(g, conn.identity) is not None]
        if len(active) >= MAX_ACTIVE:
            raise CorrError(f"you have {len(active)} correspondence games going; finish one "
                            "first")
        side = 0 if game.seats[0] is None else 1
        seats = list(game.seats)
        names = list(game.names)
        seats[side], names[side] = conn.identity, conn.name
        now = self.now()
        joined = replace(game, seats=(seats[0], seats[1]), names=(names[0], names[1]),
                         invited=None, deadline=now + game.days * DAY,
                         version=game.version + 1, updated=now)
        if not await asyncio.wrap_future(data.corr_save(joined)):
            raise CorrError("someone else took that seat first")
        session = replay(joined)
        self.send_game(conn, joined, session)
        self.tell(joined.seats[1 - side], {
            "t": "corr_note", "id": game.id,
            "text": f"{conn.name} joined your correspondence game of {game.game}"})

    async def on_move(self, conn: Member, game_id: str, text: str, ply: int | None) -> None:
        data = self.data()
        game, session = await self.read(game_id)
        side = self.side(game, conn.identity)
        if side is None:
            raise CorrError("that is not one of your correspondence games")
        if game.result is not None:
            raise CorrError(f"that game is over ({game.result}, {game.termination})")
        if not started(game):
            raise CorrError("that game waits for an opponent")
        if ply is not None and ply != len(game.moves):
            raise CorrError("the game has changed since you saw it; look again")
        if session.state.to_move != side:
            raise CorrError("it is not your turn")
        session.play(session.state.parse_move(text), 0.0)
        now = self.now()
        moved = replace(game, moves=tuple(session.texts), deadline=now + game.days * DAY,
                        version=game.version + 1, updated=now)
        outcome = session.state.outcome()
        if outcome is not None:
            await self.finish(moved, session, outcome.result.value, outcome.termination,
                              saved=False)
            return
        if not await asyncio.wrap_future(data.corr_save(moved)):
            raise CorrError("the game has changed since you saw it; look again")
        self.send_game(conn, moved, session)
        other = moved.seats[1 - side]
        self.tell(other, {"t": "corr_note", "id": game.id,
                          "text": f"{conn.name} moved {session.texts[-1]} in {game.game}: "
                                  "your move"})

    async def on_resign(self, conn: Member, game_id: str) -> None:
        game, session = await self.read(game_id)
        side = self.side(game, conn.identity)
        if game.result is not None:
            raise CorrError("that game is over")
        if side is None and game.invited == conn.identity:  # a challenge declined
            await self.finish(game, session, "*", "unterminated", note="declined")
            conn.send({"t": "corr_note", "id": game.id, "text": "challenge declined"})
            return
        if side is None:
            raise CorrError("that is not one of your correspondence games")
        if not started(game) or not game.moves:
            await self.finish(game, session, "*", "unterminated", note="withdrawn")
            return
        await self.finish(game, session, Result.win_for(1 - side).value, "resignation")

    async def on_news(self, conn: Member) -> None:
        """At login: the games waiting for the player's move, and the results not told."""
        data = self.data()
        now = self.now()
        yours = 0
        lines: list[str] = []
        for game, session in self.mine(conn.identity):
            if game.result is None and game.deadline is not None and game.deadline <= now:
                game, session = await self.read(game.id)
            side = self.side(game, conn.identity)
            if side is None:
                continue
            if game.result is None and started(game) and session.state.to_move == side:
                yours += 1
            if game.result is not None and not game.told & (1 << side):
                lines.append(self.result_line(game, side))
                await asyncio.wrap_future(data.corr_told(game.id, 1 << side))
        conn.send(fitted({"t": "corr_news", "your_move": yours, "lines": lines[:LISTED]}))

    # -- the end ------------------------------------------------------------------------
    @staticmethod
    def result_line(game: CorrGame, side: int) -> str:
        """The result as told to the player of ``side``."""
        other = game.names[1 - side] or "nobody"
        score = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}.get(game.result or "")
        if score is None:
            return f"your correspondence game of {game.game} with {other} ended " \
                   f"({game.termination or 'unfinished'})"
        mine = score if side == 0 else 1.0 - score
        how = {"time forfeit": " on time", "resignation": " by resignation"}.get(
            game.termination, "")
        if mine == 0.5:
            return f"you drew against {other} in {game.game}"
        word = "won" if mine == 1.0 else "lost"
        return f"you {word}{how} against {other} in {game.game}"

    async def finish(self, game: CorrGame, session: Session, result: str, termination: str,
                     saved: bool = True, note: str = "") -> None:
        """End the game: keep its result (once: a game changed meanwhile is left to that
        change), then record it for both players, rate and archive it as a finished room
        is, and tell the players online (the others are told at their next login)."""
        data = self.data()
        session.end(result, termination, 0.0)
        now = self.now()
        online = [bool(self.online(who or "")) for who in game.seats]
        told = sum(1 << side for side in (0, 1) if online[side] and game.seats[side])
        ended = replace(game, result=result, termination=note or termination, deadline=None,
                        told=told, invited=None, updated=now,
                        version=game.version + (1 if saved else 0))
        if not await asyncio.wrap_future(data.corr_save(ended)):
            return  # someone else changed it first (and finished it, if it is over)
        if session.moves and started(game):
            self.settle(ended, session)
        for side in (0, 1):
            if online[side]:
                self.tell(game.seats[side], {"t": "corr_note", "id": game.id,
                                             "text": self.result_line(ended, side)})
                for conn in self.online(game.seats[side] or ""):
                    self.send_game(conn, ended, session)


def fitted(message: dict[str, Any]) -> dict[str, Any]:
    """``message`` with its lists cut until it fits on one wire line."""
    while True:
        try:
            wire.encode(message)
            return message
        except wire.WireError:
            lists = [k for k, v in message.items() if isinstance(v, list) and v]
            if not lists:
                raise
            longest = max(lists, key=lambda k: len(message[k]))
            message[longest] = message[longest][:len(message[longest]) // 2]
