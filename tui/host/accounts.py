"""Accounts on a ``parlor host``: the key is the account, names, keys, profiles,
leaderboards and challenges.

A player's account is a row of the host's database (:mod:`tui.host.db`), made the first
time one of their keys logs in (:meth:`Accounts.login`). An account may hold several keys; every
session of the account, whichever key logged in, goes by ONE identity: the account's
first key's fingerprint (so a player's data folder, rooms and seats stay where that key
has always had them, and a second key reaches the same ones); the account's ratings are
the database's, whichever key played.

The app reaches everything here through the room service's wire (:mod:`tui.link.wire`):
:class:`Accounts` handles the messages in :data:`KINDS`, each validated and capped like
the room service's own:

- ``account``: who this session is (the claimed name, if any, the player's rating in
  each game they have one in, the one their Home shows, and their rank on each game's
  leaderboard); it also marks the session as present, so it can be
  challenged, and (with ``"invitations": true``, as a session's first one says) brings
  the challenges still waiting for it;
- ``profile``: name, keys, rating and deviation per game, record (wins, draws, losses)
  per game, recent games from the archive;
- ``leaders``: one game's leaderboard (players with at least :data:`MIN_GAMES` rated
  games): rank, name, rating, deviation, games;
- ``claim``: claim a display name, once (unique whatever the case, kept);
- ``add_key``: add another key to the account, given as an OpenSSH public key line (a
  key another account holds is refused). A public key is no secret, so pasting one
  proves nothing: the key is only *noted* for the account, and becomes one of its keys
  when it first logs in, within :data:`PENDING_SECONDS` (a key that has logged in
  before is an account of its own already, and is refused). So no one can add a
  stranger's key to their own account and have the stranger land in it later. The
  offer is kept in the database with its end (its clock's wall time), so it outlives
  a restart of the host;
- ``challenge``: create a room (as ``create`` does) and invite a named player who is
  online; the invitation is kept in the database and shown on their screen, and the
  room's open seat is theirs until they decline;
- ``reply``: accept or decline an invitation (accepting, the app then joins its room).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import re
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from engine.protocol import ParlorError
from engine.registry import GAMES
from tui.host.db import HostData, HostDataError
from tui.link import wire

log = logging.getLogger("parlor.host.accounts")

KINDS = frozenset({"account", "profile", "leaders", "claim", "add_key", "challenge",
                   "reply"})
"""The room service's messages handled here."""
MIN_GAMES = 5
"""Rated games a player needs in a game to be on its leaderboard."""
LEADERS = 50
"""Players listed on a leaderboard (the best)."""
RECENT = 10
"""Recent games shown on a profile."""
MAX_KEYS = 8
"""Keys one account may hold."""
PENDING_SECONDS = 600.0
"""How long a key pasted on the account screen waits for its first login (which makes
it one of the account's keys)."""
MAX_PENDING = 1000
"""Keys waiting for their first login, host-wide (the oldest are forgotten)."""
MAX_KEY_TEXT = 8192
"""Longest public key line taken (an RSA 16384-bit key's line fits)."""
NAME_RULE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{1,23}")
"""A claimed name: 2 to 24 letters, digits and ``._-`` (ASCII), beginning with a letter
or a digit; unique on the host whatever the case."""


class Member(Protocol):
    """What this module needs of a session's connection to the room service."""

    identity: str
    name: str
    closed: bool

    def send(self, message: dict[str, Any]) -> None: ...


class Service(Protocol):
    """What this module needs of the room service."""

    host_data: HostData | None
    rooms: Any
    tokens: dict[str, tuple[str, str, str]]
    now: Callable[[], float]

    def create(self, conn: Any, msg: dict[str, Any]) -> None: ...

    def broadcast(self, room: Any) -> None: ...


class AccountError(ParlorError):
    """A request about accounts that cannot be done (one line, for the player)."""


def check_name(name: str) -> str:
    """``name`` if it may be claimed (AccountError, one line, if not)."""
    name = name.strip()
    if not NAME_RULE.fullmatch(name):
        raise AccountError("a name is 2 to 24 letters, digits, '.', '_' or '-', beginning "
                           "with a letter or a digit")
    return name


def key_fingerprint(text: str) -> str:
    """The SHA-256 fingerprint of the OpenSSH public key line ``text`` (AccountError,
    one line, for anything else: a private key, a damaged or truncated line)."""
    import asyncssh  # the host's extra: only a host gets here

    line = text.strip()
    if not line or "\n" in line or len(line) > MAX_KEY_TEXT:
        raise AccountError("paste one public key line, as in a .pub file "
                           "(ssh-ed25519 AAAA... comment)")
    if "PRIVATE KEY" in line:
        raise AccountError("that is a private key: paste the public one (the .pub file)")
    try:
        key = asyncssh.import_public_key(line)
        return str(key.get_fingerprint("sha256"))
    except Exception:  # noqa: BLE001 - whatever a bad key raises, it is one line
        raise AccountError("not an OpenSSH public key line (ssh-ed25519 AAAA... comment)"
                           ) from None


def game_of(msg: dict[str, Any]) -> str:
    game = wire.text(msg, "game").strip().lower()
    if game not in GAMES:
        raise AccountError(f"unknown game {game[:40]!r}")
    return game


class Accounts:
    """The accounts' side of the room service (see the module's doc)."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self.present: dict[Member, None] = {}
        """The sessions that said who they are (``account``), in order: these are
        online and can be challenged (a brain-slot connection never is)."""
        self.tasks: set[asyncio.Task[None]] = set()
        self.min_games = MIN_GAMES
        """Rated games a player needs in a game to be on its leaderboard."""
        self.reserved: dict[str, tuple[Any, str]] = {}
        """A challenge's room code -> the room and the identity of the player challenged:
        until they decline, no one else may take the seat."""

    async def login(self, key: str) -> tuple[str, str]:
        """The identity of the account ``key`` belongs to and the name it claimed ("" if
        none). A key never seen joins the account it was pasted in (within
        :data:`PENDING_SECONDS`), or else is an account of its own, made now with ``key``
        its first key. Without a database, or when it cannot be used, the key is its own
        identity (one log line)."""
        data = self.service.host_data
        if data is None:
            return key, ""
        try:
            found = data.player_for_key(key)
            player = found.id if found is not None else None
            if player is None:
                player = await asyncio.wrap_future(data.take_offer(key))
                if player is not None:
                    log.info("a key joined account %d at its first login", player)
                else:  # no offer in time, or it logged in meanwhile (an account of its own)
                    found = data.player_for_key(key)
                    player = found.id if found is not None else None
            if player is None:  # a new account, with this key its first: no need to wait
                data.ensure_player(key).add_done_callback(self.made)
                return key, ""
            identity = data.first_key(player) or key
            account = data.player(player)
        except (HostDataError, ValueError) as exc:
            log.error("cannot find the account of a key: %s", str(exc)[:100])
            return key, ""
        return identity, (account.name or "") if account is not None else ""

    @staticmethod
    def made(future: concurrent.futures.Future[int]) -> None:
        """Log an account that could not be made (the write is not waited for)."""
        error = future.exception()
        if error is not None:
            log.error("cannot make an account for a key: %s", str(error)[:100])

    def may_join(self, room: Any, conn: Member) -> None:
        """AccountError unless ``conn`` may take the open seat of ``room``: a challenge's
        room is kept for the player challenged until they decline (or it is gone)."""
        self.forget_gone()
        waiting = self.reserved.get(room.code)
        if waiting is not None and waiting[0] is room and waiting[1] != conn.identity:
            raise AccountError(f"room {room.code} waits for the player challenged")

    def forget_gone(self) -> None:
        """Forget the reservations of rooms gone (a code may come back, for another)."""
        rooms = self.service.rooms
        for code, (room, _) in list(self.reserved.items()):
            if rooms.get(code) is not room or room.started:
                del self.reserved[code]

    # -- plumbing -----------------------------------------------------------------------
    def data(self) -> HostData:
        data = self.service.host_data
        if data is None:
            raise AccountError("this host keeps no accounts")
        return data

    def online(self, identity: str) -> list[Member]:
        """The present sessions of ``identity`` (closed ones are forgotten)."""
        for conn in [c for c in self.present if c.closed]:
            del self.present[conn]
        return [c for c in self.present if c.identity == identity]

    def later(self, conn: Member, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (a request that writes to the database) without holding up the
        service; its refusal is one error line to ``conn``."""
        async def run() -> None:
            try:
                await work
            except ParlorError as exc:
                conn.send({"t": "error", "message": str(exc)[:200]})
            except Exception:  # a bug here must not end the service
                log.exception("an account request failed")
                conn.send({"t": "error", "message": "the host could not do that"})
        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def player(self, conn: Member) -> int:
        """The account (player id) of ``conn``, made on first sight (a browser guest's
        identity counts as its key)."""
        data = self.data()
        found = data.player_for_key(conn.identity)
        if found is not None:
            return found.id
        return await asyncio.wrap_future(data.ensure_player(conn.identity))

    def shown_name(self, conn: Member) -> str:
        return conn.name or "player"

    # -- the messages -------------------------------------------------------------------
    def handle(self, conn: Member, msg: dict[str, Any]) -> None:
        """Act on one message of :data:`KINDS` from ``conn``."""
        kind = msg["t"]
        self.data()
        if kind == "account":
            self.online("")  # forget the sessions gone
            self.present[conn] = None
            self.later(conn, self.on_account(conn, wire.flag(msg, "invitations")))
        elif kind == "profile":
            self.later(conn, self.on_profile(conn))
        elif kind == "leaders":
            self.on_leaders(conn, game_of(msg))
        elif kind == "claim":
            name = check_name(wire.text(msg, "name", limit=64))
            self.later(conn, self.on_claim(conn, name))
        elif kind == "add_key":
            fingerprint = key_fingerprint(wire.text(msg, "key", limit=MAX_KEY_TEXT))
            self.later(conn, self.on_add_key(conn, fingerprint))
        elif kind == "challenge":
            self.on_challenge(conn, msg)
        elif kind == "reply":
            number = msg.get("id")
            if isinstance(number, bool) or not isinstance(number, int) \
                    or not 0 < number < 2**62:
                raise wire.WireError("field 'id' must be an invitation's number")
            self.later(conn, self.on_reply(conn, number, wire.flag(msg, "accept")))
        else:
            raise wire.WireError(f"unknown request {kind[:30]!r}")

    async def on_account(self, conn: Member, invitations: bool) -> None:
        data = self.data()
        player = await self.player(conn)
        account = data.player(player)
        ranks, ratings = {}, {}
        for rating in data.ratings_of(player):
            place = data.rank(player, rating.game, self.min_games)
            ranks[rating.game] = ([place[0], place[1]] if place is not None
                                  else [0, rating.games])
            ratings[rating.game] = [rating.rating, rating.deviation, rating.volatility,
                                    rating.games]
        conn.send({"t": "account", "name": (account.name or "") if account else "",
                   "shown": conn.name, "ranks": ranks, "ratings": ratings,
                   "min_games": self.min_games})
        if not invitations:
            return
        for invitation in data.invitations_for(player):
            room = self.service.rooms.get(invitation.room)
            if room is None or room.started or room.over:
                continue
            self.tell_invited(conn, invitation.id, room)

    async def on_profile(self, conn: Member) -> None:
        data = self.data()
        player = await self.player(conn)
        account = data.player(player)
        recent = []
        for game in data.games_of(player, RECENT):
            seats = {s.seat: s for s in game.seats}
            side = next((s.seat for s in game.seats if s.player == player), 0)
            other = seats.get(1 - side)
            recent.append({"game": game.game, "result": game.result, "side": side,
                           "opponent": other.name[:40] if other else "",
                           "termination": game.termination[:60], "finished": game.finished,
                           "rated": game.rated})
        conn.send({"t": "profile", "name": (account.name or "") if account else "",
                   "shown": conn.name, "keys": len(data.keys_of(player)),
                   "pending": data.pending_keys(player),
                   "ratings": [[r.game, round(r.rating, 1), round(r.deviation, 1), r.games]
                               for r in data.ratings_of(player)],
                   "record": [[game, *tally] for game, tally in data.record_of(player).items()],
                   "recent": recent, "min_games": self.min_games})

    def on_leaders(self, conn: Member, game: str) -> None:
        data = self.data()
        me = data.player_for_key(conn.identity)
        rows = []
        for place, (player, rating) in enumerate(data.leaderboard(game, self.min_games, LEADERS),
                                                 start=1):
            rows.append([place, player.name or f"(no name #{player.id})",
                         round(rating.rating, 1), round(rating.deviation, 1), rating.games,
                         me is not None and player.id == me.id])
        conn.send({"t": "leaders", "game": game, "min_games": self.min_games, "rows": rows})

    async def on_claim(self, conn: Member, name: str) -> None:
        data = self.data()
        player = await self.player(conn)
        answer = await asyncio.wrap_future(data.claim_first_name(player, name))
        if answer == "taken":
            raise AccountError(f"the name {name} is taken; choose another")
        if answer == "named":
            account = data.player(player)
            raise AccountError("you have claimed a name already"
                               + (f": {account.name}" if account and account.name else ""))
        if answer != "claimed":
            raise AccountError("your account cannot be found")
        for other in [c for c in self.service_conns() if c.identity == conn.identity]:
            other.name = name  # rooms created or joined from now on show it
        tokens = self.service.tokens
        for token, (identity, _, address) in list(tokens.items()):
            if identity == conn.identity:
                tokens[token] = (identity, name, address)
        conn.send({"t": "claimed", "name": name})

    def service_conns(self) -> list[Member]:
        conns = getattr(self.service, "conns", ())
        return list(conns)

    async def on_add_key(self, conn: Member, fingerprint: str) -> None:
        data = self.data()
        player = await self.player(conn)
        owner = data.player_for_key(fingerprint)
        if owner is not None:
            raise AccountError("that key is yours already" if owner.id == player
                               else "that key has logged in here already, so it is an "
                               "account of its own; it stays there")
        if len(data.keys_of(player)) + data.pending_keys(player) >= MAX_KEYS:
            raise AccountError(f"an account holds at most {MAX_KEYS} keys")
        answer = await asyncio.wrap_future(data.offer_key(player, fingerprint,
                                                          PENDING_SECONDS, MAX_PENDING))
        if answer == "offered":
            raise AccountError("that key was offered to another account; it stays there")
        if answer == "taken":
            raise AccountError("that key has logged in here already, so it is an "
                               "account of its own; it stays there")
        conn.send({"t": "key_added", "fingerprint": fingerprint,
                   "keys": len(data.keys_of(player)), "minutes": PENDING_SECONDS / 60})

    def on_challenge(self, conn: Member, msg: dict[str, Any]) -> None:
        data = self.data()
        name = wire.text(msg, "name", limit=64).strip()
        target = data.player_named(name) if NAME_RULE.fullmatch(name) else None
        if target is None:
            raise AccountError(f"no player has claimed the name {name[:24]!r}")
        me = data.player_for_key(conn.identity)
        if me is not None and me.id == target.id:
            raise AccountError("you cannot challenge yourself")
        identity = data.first_key(target.id)
        shown = target.name or name
        if identity is None or not self.online(identity):
            raise AccountError(f"{shown} is not online now")
        request: dict[str, Any] = {"t": "create"}
        request.update((k, msg[k]) for k in ("game", "options", "clock", "side") if k in msg)
        self.service.create(conn, request)  # checks it all; seats conn
        room = getattr(conn, "room", None)
        if room is None:
            raise AccountError("the room could not be made")
        self.forget_gone()
        self.reserved[room.code] = (room, identity)
        room.note = f"room {room.code}: waiting for {shown} to answer your challenge"
        self.service.broadcast(room)
        self.later(conn, self.invite(conn, room, target.id, identity))

    async def invite(self, conn: Member, room: Any, recipient: int, identity: str) -> None:
        data = self.data()
        sender = await self.player(conn)
        number = await asyncio.wrap_future(data.invite(room.code, sender, recipient))
        for other in self.online(identity):
            self.tell_invited(other, number, room)

    def tell_invited(self, conn: Member, number: int, room: Any) -> None:
        sender = next((n for n in room.names if n), "someone")
        conn.send({"t": "invited", "id": number, "code": room.code, "from": sender,
                   "game": room.game_id,
                   "options": {k: str(v) for k, v in room.history[0].options.items()},
                   "clock": str(room.control) if room.control else ""})

    async def on_reply(self, conn: Member, number: int, accept: bool) -> None:
        data = self.data()
        player = await self.player(conn)
        invitation = next((i for i in data.invitations_for(player) if i.id == number), None)
        if invitation is None or not await asyncio.wrap_future(data.answer(number, accept)):
            raise AccountError("that challenge was answered already, or withdrawn")
        room = self.service.rooms.get(invitation.room)
        if not accept and room is not None and not room.started and not room.over:
            self.reserved.pop(room.code, None)  # the code may be shared with another now
            room.note = f"{self.shown_name(conn)} declined your challenge"
            self.service.broadcast(room)
        conn.send({"t": "replied", "id": number, "accept": accept, "code": invitation.room})
