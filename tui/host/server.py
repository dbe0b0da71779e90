"""The SSH server of ``parlor host`` (asyncssh): keys in, the Parlor app out.

Each client authenticates with a public key only; its identity is the key's SHA-256
fingerprint and its display name the SSH user name. A session must ask for a terminal
and a shell; it then gets its own ``python -m tui.host.session`` process on a
pseudo-terminal sized like the client's window (resizes follow through TIOCSWINSZ). No
exec, subsystem (SFTP), port, agent or X11 forwarding is served.

Hostile clients get no more than their share. A session counts against
``max_sessions`` from the moment its channel is accepted (not when its app starts); one
address may hold ``per_address`` connections at once; a connection that has not started
its session within ``login_seconds`` is closed, and so is one whose session has ended;
a client's window resizes are applied at most ``resizes_per_second`` (the rest are
folded into the next), so resizing in a loop cannot make the app redraw in a loop.

Every client is isolated: reading from and writing to its terminal never waits (a
client that does not read has its app paused by the pty, one that floods has its input
paused by the SSH window), so no client can slow another. Limits: sessions at once,
connections per address per minute, an idle timeout, and the room service's cap on
brain searches across the host. With ``web_port`` the host also serves browsers
(:mod:`tui.host.web`), whose sessions count against the same limits.
"""

from __future__ import annotations

import asyncio
import codecs
import collections
import contextlib
import fcntl
import logging
import os
import re
import signal
import struct
import sys
import termios
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import asyncssh

from engine.files import read_capped
from engine.protocol import ParlorError
from tui.host.db import HostData
from tui.host.limits import Bucket, LogLimiter
from tui.host.rooms import RoomService, user_home
from tui.link import client

if TYPE_CHECKING:
    from tui.host.web import WebFront

log = logging.getLogger("parlor.host")

HOST_KEY_NAME = "ssh_host_ed25519_key"
SOCKET_NAME = "rooms.sock"
MAX_KEYS_BYTES = 1_000_000
OUTPUT_PAUSE_BYTES = 256 * 1024
"""Output waiting for a slow client above which its app's output is paused."""
INPUT_PAUSE_BYTES = 64 * 1024
"""Input waiting for a busy app above which the client's input is paused."""
NO_KEY_MESSAGE = ("Parlor lets players in with an SSH key only (no passwords).\n"
                  "Make one with: ssh-keygen -t ed25519   then connect again.\n")
NOT_LISTED_MESSAGE = "This Parlor host admits listed keys only; ask its keeper to add yours.\n"
TERM_PATTERN = re.compile(r"[A-Za-z0-9._+-]{1,40}")


@dataclass
class HostConfig:
    """Everything ``parlor host`` can be told."""

    data: Path
    port: int = 2222
    bind: str = "0.0.0.0"
    max_sessions: int = 40
    keys: Path | None = None
    per_minute: int = 30
    """Connections one address may open per minute."""
    idle_seconds: float = 1800.0
    brain_slots: int = max(1, (os.cpu_count() or 2) // 2)
    grace_seconds: float = 180.0
    login_seconds: float = 20.0
    """A connection must have logged in and started its session within this time."""
    per_address: int = 8
    """Connections one address may hold open at once."""
    resizes_per_second: float = 1.0
    """Window resizes applied per session per second (a burst of 2, the rest folded)."""
    rooms_per_player: int = 3
    """Games in progress one player may hold seats in at once."""
    rooms_per_minute: int = 6
    """Rooms one player may create per minute (after a burst of as many)."""
    clock: Callable[[], float] = time.monotonic
    """The clock of the resize throttle (tests give one they move themselves)."""
    python: str = sys.executable
    env: dict[str, str] = field(default_factory=dict)
    """Extra environment for the sessions (e.g. PYTHONPATH)."""
    web_port: int | None = None
    """Also serve the app to web browsers on this port (None: SSH only)."""
    web_bind: str | None = None
    """Address the web port listens on (None: the same as ``bind``)."""
    web_url: str = ""
    """The address browsers use to reach the web port when it is behind a proxy
    (e.g. ``https://play.example.org``); empty: the address each browser asked for."""


class HostedSession(Protocol):
    """What the host needs of a session, whether SSH's or a browser's."""

    last_input: float

    def end(self, message: str = "") -> None: ...

    async def reap(self) -> None: ...


def load_host_key(data: Path) -> asyncssh.SSHKey:
    """The host key kept in ``data`` (an ed25519 key made, mode 0600, on first start)."""
    path = data / HOST_KEY_NAME
    if not path.exists():
        key = asyncssh.generate_private_key("ssh-ed25519")
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(key.export_private_key())
        return key
    return asyncssh.import_private_key(read_capped(path, 64 * 1024))


def load_authorized_keys(path: Path) -> asyncssh.SSHAuthorizedKeys:
    """The keys listed in an authorized_keys file (ValueError, one line, if unreadable)."""
    data = read_capped(path, MAX_KEYS_BYTES)
    try:
        return asyncssh.import_authorized_keys(data.decode("utf-8", "replace"))
    except (asyncssh.KeyImportError, ValueError) as exc:
        raise ParlorError(f"{path.name}: not an authorized_keys file: {str(exc)[:60]}") from None


class Host:
    """The SSH server, its sessions and its room service."""

    def __init__(self, config: HostConfig) -> None:
        self.config = config
        self.data = Path(config.data)
        self.users = self.data / "users"
        self.sessions: set[HostedSession] = set()
        """Every session served, SSH and browser alike (``max_sessions`` counts both)."""
        self.reaping: set[asyncio.Task[None]] = set()
        """The SSH sessions' ends still waiting for their app's process to exit
        (:meth:`stop` waits for them, so no app outlives the host)."""
        self.attempts: dict[str, collections.deque[float]] = {}
        self.connections: collections.Counter[str] = collections.Counter()
        """SSH connections open now, per address (``per_address`` caps each)."""
        self.rooms = RoomService(self.data / SOCKET_NAME, self.users,
                                 brain_slots=config.brain_slots, grace=config.grace_seconds,
                                 rooms_per_player=config.rooms_per_player,
                                 rooms_per_minute=config.rooms_per_minute,
                                 rooms_per_address=config.rooms_per_player * config.per_address)
        if config.keys and config.web_port is not None:
            raise ParlorError("--web lets in browsers, which have no key, so it cannot be "
                             "combined with --keys (a host for listed keys only)")
        self.authorized = load_authorized_keys(config.keys) if config.keys else None
        self.server: asyncssh.SSHAcceptor | None = None
        self.sweeper: asyncio.Task[None] | None = None
        self.host_key: asyncssh.SSHKey | None = None
        self.web: WebFront | None = None

    @property
    def port(self) -> int:
        """The port listened on (the real one when 0 was asked for)."""
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    @property
    def web_port(self) -> int:
        """The web port listened on (the real one when 0 was asked for)."""
        assert self.web is not None
        return self.web.bound_port

    async def start(self) -> None:
        """Make the data folder, the host key and the room service; listen."""
        self.data.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.users.mkdir(exist_ok=True, mode=0o700)
        self.host_key = load_host_key(self.data)
        if self.rooms.host_data is None:
            self.rooms.host_data = HostData.open(self.data)  # one line if it cannot be used
        await self.rooms.start()
        self.server = await asyncssh.create_server(
            lambda: HostServer(self), self.config.bind, self.config.port,
            server_host_keys=[self.host_key], encoding=None, allow_scp=False,
            agent_forwarding=False, x11_forwarding=False, allow_pty=True,
            login_timeout=self.config.login_seconds, keepalive_interval=30,
            keepalive_count_max=3)
        if self.config.web_port is not None:
            from tui.host.web import WebFront

            self.web = WebFront(self)
            try:
                await self.web.start()
            except BaseException:
                self.server.close()
                await self.rooms.stop()
                await self.close_data()
                raise
        self.sweeper = asyncio.get_running_loop().create_task(self.sweep())

    async def stop(self) -> None:
        """Close every session and stop listening."""
        if self.sweeper is not None:
            self.sweeper.cancel()
        if self.server is not None:
            self.server.close()
        if self.web is not None:
            await self.web.stop_listening()
        sessions = list(self.sessions)  # each one's end takes it out of the set
        for session in sessions:
            session.end("The host is shutting down.")
        await self.rooms.stop()
        for session in sessions:
            await session.reap()
        if self.reaping:
            await asyncio.gather(*self.reaping)
        if self.web is not None:
            await self.web.stop()
        await self.close_data()

    async def close_data(self) -> None:
        """Close the host's database once its queued writes are done (off the loop)."""
        data, self.rooms.host_data = self.rooms.host_data, None
        if data is not None:
            await asyncio.to_thread(data.close)

    def admit_address(self, address: str) -> bool:
        """Count a connection from ``address``; False once it is over the per-minute limit."""
        now = time.monotonic()
        seen = self.attempts.setdefault(address, collections.deque())
        while seen and now - seen[0] > 60:
            seen.popleft()
        if len(seen) >= self.config.per_minute:
            return False
        seen.append(now)
        return True

    def session_environment(self, identity: str, token: str, term: str) -> dict[str, str]:
        """The whole environment of a session's app: its own data folder, the room
        service's socket and the session's token, nothing inherited from the host but
        PATH (and PYTHONPATH)."""
        home = user_home(self.users, identity)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "TERM": term,
               "LANG": "C.UTF-8", "HOME": str(home), "XDG_DATA_HOME": str(home),
               "XDG_CONFIG_HOME": str(home / "config"), "XDG_CACHE_HOME": str(home / "cache"),
               client.ENV_SOCKET: str(self.rooms.socket_path), client.ENV_TOKEN: token,
               "COLORTERM": "truecolor"}
        if "PYTHONPATH" in os.environ:
            env["PYTHONPATH"] = os.environ["PYTHONPATH"]
        env.update(self.config.env)
        return env

    async def sweep(self) -> None:
        """Once in a while: end idle sessions and forget old connection counts."""
        while True:
            await asyncio.sleep(min(5.0, self.config.idle_seconds / 4))
            now = time.monotonic()
            for session in list(self.sessions):
                if now - session.last_input > self.config.idle_seconds:
                    session.end("Idle for too long: goodbye.")
            for address in [a for a, seen in self.attempts.items()
                            if not seen or now - seen[-1] > 60]:
                del self.attempts[address]


class HostServer(asyncssh.SSHServer):
    """One SSH connection: public-key authentication only, then one session."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = ""
        self.identity = ""
        self.username = ""
        self.sessions = 0
        self.told = False
        self.started = False
        """True once this connection's session has started (its app, or a refusal)."""
        self.counted = False
        self.grace: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self.address = str(peer[0])
        connections = self.host.connections
        if connections[self.address] >= self.host.config.per_address:
            log.warning("refused a connection from %s: it holds %d already", self.address,
                        connections[self.address])
            # raised here, asyncssh closes the connection before it says a word
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                           "too many connections from your address")
        connections[self.address] += 1
        self.counted = True
        self.grace = asyncio.get_running_loop().call_later(
            self.host.config.login_seconds, self.grace_over)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.grace is not None:
            self.grace.cancel()
            self.grace = None
        if self.counted:
            self.counted = False
            self.host.connections[self.address] -= 1
            if self.host.connections[self.address] <= 0:
                del self.host.connections[self.address]

    def grace_over(self) -> None:
        """Close the connection if it has not started a session in the login grace time
        (it would otherwise hold a file and a slot of its address for ever)."""
        self.grace = None
        if not self.started and self.conn is not None:
            log.info("closed a connection from %s that started no session in %.0f s",
                     self.address, self.host.config.login_seconds)
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION,
                                 "no session started in time: goodbye")

    def session_ended(self) -> None:
        """This connection's one session is over: so is the connection."""
        self.started = True
        if self.conn is not None:
            with contextlib.suppress(Exception):
                self.conn.close()

    def begin_auth(self, username: str) -> bool:
        if not self.host.admit_address(self.address):
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                           "too many connections from your address; "
                                           "try again in a minute")
        self.username = username
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        authorized = self.host.authorized
        if authorized is not None and authorized.validate(key, "", self.address) is None:
            return False
        self.identity = key.get_fingerprint("sha256")
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return True  # only to tell a client without a (listed) key why it cannot enter

    def get_kbdint_challenge(
            self, username: str, lang: str, submethods: str,
    ) -> bool | tuple[str, str, str, list[tuple[str, bool]]]:
        if self.told:  # once per connection: a client that asks again is sent away
            assert self.conn is not None
            self.conn.disconnect(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                 "Parlor needs an SSH key")
            return False
        self.told = True
        message = NOT_LISTED_MESSAGE if self.host.authorized is not None else NO_KEY_MESSAGE
        return ("Parlor", message, "", [])

    def validate_kbdint_response(self, username: str, responses: Any) -> bool:
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def session_requested(self) -> asyncssh.SSHServerSession[bytes] | bool:
        if self.sessions >= 1:  # one app per connection
            return False
        self.sessions += 1
        if len(self.host.sessions) >= self.host.config.max_sessions:
            return Refusal(self, f"Parlor is full ({self.host.config.max_sessions} players); "
                                 "try again later.")
        session = Session(self.host, self.identity, self.username, self)
        self.host.sessions.add(session)  # counted now, before its terminal and shell
        return session


class Refusal(asyncssh.SSHServerSession[bytes]):
    """A session that only says why it cannot go on."""

    def __init__(self, server: HostServer, message: str) -> None:
        self.server = server
        self.message = message
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.session_ended()

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: Any, term_modes: Any) -> bool:
        return True

    def shell_requested(self) -> bool:
        return True

    def session_started(self) -> None:
        assert self.chan is not None
        self.server.started = True
        self.chan.write(f"{self.message}\r\n".encode())
        self.chan.exit(1)


TERMINAL_RESET = (b"\x1b[<u"  # pop the keyboard protocol
                  b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l"  # mouse off
                  b"\x1b[?2004l\x1b[?1004l"  # bracketed paste and focus events off
                  b"\x1b[?1049l\x1b[?25h")  # back to the main screen, cursor shown
"""What an ended session writes to its client before closing, in case the app could not
(it is killed when the host stops): the client's shell gets its own screen back."""


class Session(asyncssh.SSHServerSession[bytes]):
    """One player's session: the Parlor app on a pseudo-terminal."""

    def __init__(self, host: Host, identity: str, username: str,
                 server: HostServer | None = None) -> None:
        self.host = host
        self.server = server
        self.identity = identity
        self.username = username
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.size = (80, 24)
        self.term = ""
        self.master = -1
        self.proc: asyncio.subprocess.Process | None = None
        self.reaper: asyncio.Task[None] | None = None
        """Waits for the app to exit after the hang-up, then kills it (see :meth:`reap`)."""
        self.token = ""
        self.inbuf = bytearray()
        self.decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        """Client bytes pass to the app only as UTF-8: a client's invalid bytes become
        U+FFFD here, so no input can make the app's terminal decoder fail."""
        self.reading = False
        self.input_paused = False
        self.last_input = time.monotonic()
        self.closing = False
        self.resizes = Bucket(2, host.config.resizes_per_second, host.config.clock)
        self.resize_pending = False
        self.resize_timer: asyncio.TimerHandle | None = None
        self.resizes_received = 0
        self.resizes_applied = 0
        """Window sizes asked for by the client, and those passed on to the app."""

    # -- asyncssh callbacks -------------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Any) -> bool:
        self.term = term_type if TERM_PATTERN.fullmatch(term_type or "") else "xterm-256color"
        self.size = (term_size[0] or 80, term_size[1] or 24)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        assert self.chan is not None
        if not self.term:
            self.chan.write(b"Parlor needs a terminal: connect with ssh -t.\r\n")
            self.chan.exit(1)
            return
        if self.closing:
            return
        if self.server is not None:
            self.server.started = True
        asyncio.get_running_loop().create_task(self.spawn())

    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = time.monotonic()
        if self.closing:
            return
        # Kept until the app's terminal exists (flush_input holds it till then), so keys
        # typed while the session starts reach the app.
        self.inbuf += self.decoder.decode(data).encode("utf-8")
        self.flush_input()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        self.size = (width or 80, height or 24)
        self.resizes_received += 1
        self.resize_pending = True
        self.apply_resize()

    def pause_writing(self) -> None:
        self.watch_output(False)

    def resume_writing(self) -> None:
        self.watch_output(True)

    def eof_received(self) -> bool:
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self.end()
        if self.server is not None:
            self.server.session_ended()

    # -- the app's process --------------------------------------------------------------
    def environment(self) -> dict[str, str]:
        return self.host.session_environment(self.identity, self.token, self.term)

    async def spawn(self) -> None:
        # The key is the account: a player's sessions, whichever of their keys logged
        # in, all go by the account's identity (its first key), with its claimed name.
        self.identity, claimed = await self.host.rooms.accounts.login(self.identity)
        if claimed:
            self.username = claimed
        if self.closing:
            return
        home = user_home(self.host.users, self.identity)
        home.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.token = self.host.rooms.issue(self.identity, self.username,
                                           self.server.address if self.server else "")
        master, slave = os.openpty()
        # Raw from the start: before the app sets its own modes, a client's ctrl+c or
        # ctrl+\ must not become a signal that kills the session (the app reads keys).
        tty.setraw(slave)
        self.master = master
        self.set_size()
        self.resize_pending = False
        try:
            self.proc = await asyncio.create_subprocess_exec(
                self.host.config.python, "-m", "tui.host.session", stdin=slave, stdout=slave,
                stderr=slave, start_new_session=True, env=self.environment(), cwd=str(home))
        except OSError as exc:
            log.error("cannot start a session: %s", exc)
            self.end("The host cannot start Parlor now.")
            return
        finally:
            os.close(slave)
        if self.closing:
            self.kill()
            return
        os.set_blocking(master, False)
        self.watch_output(True)
        self.flush_input()
        asyncio.get_running_loop().create_task(self.wait_child())

    def apply_resize(self) -> None:
        """Pass the client's latest window size to the app, at most as often as the
        throttle allows: sizes asked for meanwhile are folded into the next one applied
        (each one applied makes the app redraw its whole screen)."""
        if not self.resize_pending or self.master < 0 or self.closing:
            return
        if self.resizes.take():
            self.resize_pending = False
            self.resizes_applied += 1
            self.set_size()
        elif self.resize_timer is None:  # one wake-up at a time, however many ask
            delay = min(1.0, max(0.02, self.resizes.wait()))
            self.resize_timer = asyncio.get_running_loop().call_later(delay, self.resize_later)

    def resize_later(self) -> None:
        self.resize_timer = None
        self.apply_resize()

    def set_size(self) -> None:
        if self.master >= 0:
            cols, rows = (max(1, min(1000, v)) for v in self.size)
            with contextlib.suppress(OSError):
                fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def watch_output(self, on: bool) -> None:
        """Read the app's output (or stop reading it while the client is behind)."""
        if self.master < 0 or on == self.reading:
            return
        loop = asyncio.get_running_loop()
        if on:
            loop.add_reader(self.master, self.output_ready)
        else:
            loop.remove_reader(self.master)
        self.reading = on

    def output_ready(self) -> None:
        try:
            data = os.read(self.master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self.watch_output(False)
            return
        assert self.chan is not None
        self.chan.write(data)
        if self.chan.get_write_buffer_size() > OUTPUT_PAUSE_BYTES:
            self.watch_output(False)

    def flush_input(self) -> None:
        """Write what the client typed to the app; pause the client while the app lags."""
        if self.master < 0 or self.proc is None:
            if len(self.inbuf) > INPUT_PAUSE_BYTES and self.chan is not None:
                self.chan.pause_reading()
                self.input_paused = True
            return
        loop = asyncio.get_running_loop()
        try:
            while self.inbuf:
                written = os.write(self.master, self.inbuf[:4096])
                del self.inbuf[:written]
        except BlockingIOError:
            pass
        except OSError:
            self.inbuf.clear()
        loop.remove_writer(self.master)
        if self.inbuf:
            loop.add_writer(self.master, self.flush_input)
        if self.chan is not None:
            if len(self.inbuf) > INPUT_PAUSE_BYTES and not self.input_paused:
                self.chan.pause_reading()
                self.input_paused = True
            elif len(self.inbuf) <= INPUT_PAUSE_BYTES // 2 and self.input_paused:
                self.chan.resume_reading()
                self.input_paused = False

    async def wait_child(self) -> None:
        assert self.proc is not None
        code = await self.proc.wait()
        # let the last output through before the channel closes
        for _ in range(20):
            if not self.reading:
                break
            await asyncio.sleep(0.01)
        if self.chan is not None and not self.closing:
            self.chan.exit(code if code >= 0 else 1)
        self.end()

    def kill(self) -> None:
        """Hang up on the app; kill it if it is still there a few seconds later."""
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGHUP)
            if self.reaper is None:
                self.reaper = asyncio.get_running_loop().create_task(self.wait_or_kill())
                self.host.reaping.add(self.reaper)
                self.reaper.add_done_callback(self.host.reaping.discard)

    def force_kill(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)

    def end(self, message: str = "") -> None:
        """End the session: say ``message``, stop the app, free everything."""
        if self.closing:
            return
        self.closing = True
        self.host.sessions.discard(self)
        if self.resize_timer is not None:
            self.resize_timer.cancel()
            self.resize_timer = None
        if self.chan is not None and (message or self.proc is not None):
            with contextlib.suppress(Exception):
                # The app may not live to restore the client's terminal: leave its screen
                # as a shell expects it (main screen, cursor shown, no mouse or paste modes).
                reset = TERMINAL_RESET if self.proc is not None else b""
                self.chan.write(reset + (f"\r\n{message}\r\n".encode() if message else b""))
                if message:
                    self.chan.exit(0)
        self.kill()
        if self.master >= 0:
            loop = asyncio.get_running_loop()
            self.watch_output(False)
            loop.remove_writer(self.master)
            os.close(self.master)
            self.master = -1
        if self.token:
            self.host.rooms.revoke(self.token)
        if self.chan is not None:
            with contextlib.suppress(Exception):
                self.chan.close()

    async def reap(self) -> None:
        """Wait (briefly) for the app's process to end; kill it if it does not (one
        task per session, whether the session or the host's stop asks first)."""
        if self.reaper is None:
            self.reaper = asyncio.get_running_loop().create_task(self.wait_or_kill())
        await asyncio.shield(self.reaper)

    async def wait_or_kill(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.proc.wait(), 5)
            if self.proc.returncode is None:
                self.force_kill()
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(self.proc.wait(), 5)


def quiet_logging(limiter: LogLimiter | None = None) -> LogLimiter:
    """Log to stderr, one line per record, each kind of record rate-limited (a flood of
    one error, say ``Too many open files`` on every accept, cannot fill the disk)."""
    limiter = limiter or LogLimiter()
    root = logging.getLogger()
    if not root.handlers:
        stream = logging.StreamHandler()
        stream.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(stream)
        root.setLevel(logging.INFO)
    for handler in root.handlers:
        if limiter not in handler.filters:
            handler.addFilter(limiter)
    logging.getLogger("asyncssh").setLevel(logging.WARNING)  # a line per packet otherwise
    return limiter


def loop_errors(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """The event loop's errors as one log line each: a client that vanished (a broken
    pipe, a reset) or a file limit reached is the host's weather, not a traceback."""
    exc = context.get("exception")
    if isinstance(exc, OSError):
        log.warning("%s: %s", str(context.get("message", "error"))[:100],
                    exc.strerror or type(exc).__name__)
        return
    loop.default_exception_handler(context)


async def serve(config: HostConfig) -> None:
    """Run a host until SIGINT or SIGTERM."""
    quiet_logging()
    asyncio.get_running_loop().set_exception_handler(loop_errors)
    host = Host(config)
    await host.start()
    assert host.host_key is not None
    print(f"parlor host: listening on {config.bind} port {host.port}; host key "
          f"{host.host_key.get_fingerprint('sha256')}; data in {config.data}", flush=True)
    if host.web is not None:
        print(f"parlor host: browsers play at {host.web.address()}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    await host.stop()
