"""``parlor host --web PORT``: the hosted app in web browsers, in the same rooms as SSH.

The web front runs inside the host process, on the same asyncio loop as the SSH server
(aiohttp, through textual-serve): each browser's websocket gets its own
``python -m tui.host.session`` process, driven by textual-serve's web driver, with a
token for the host's one room service, so browser and SSH players meet in the same
rooms and count against the same ``max_sessions``, per-address and idle limits.

A browser has no SSH key, so the host issues it a guest identity, ``web-`` and 24 hex
digits, in a cookie signed (HMAC-SHA256) with a secret kept in the data folder. The
identity is never taken from the client: a cookie whose signature does not check, or
that names anything but a ``web-`` identity, is ignored, so a guest cannot pose as a
key's identity (a SHA-256 fingerprint) or as another guest. The same cookie brings a
browser that reloads (or comes back within its 30 days) back to the same identity:
its saved games, and its seat in a room (the page opens on that game, as an SSH
player's session does after reconnecting). The display name is the one the player
types on the first page, cleaned as SSH user names are.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import html
import json
import logging
import os
import re
import secrets
import signal
import time
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
import textual_serve
from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from engine.files import read_capped
from engine.protocol import ParlorError
from tui.host.limits import Bucket
from tui.host.rooms import RoomService, clean_name, user_home

log = logging.getLogger("parlor.host.web")

GUEST_PREFIX = "web-"
GUEST_PATTERN = re.compile(r"web-[0-9a-f]{24}")
GUEST_COOKIE = "parlor_guest"
NAME_COOKIE = "parlor_name"
COOKIE_SECONDS = 30 * 24 * 3600
SECRET_NAME = "web_secret"
SECRET_BYTES = 32
MAX_MESSAGE = 64 * 1024
"""Longest websocket message a browser may send (keys and sizes are far shorter)."""
STOP_SECONDS = 5.0
"""How long an app is given to quit when asked before it is killed."""
TEXTUAL_ENV = ("TEXTUAL_DRIVER", "TEXTUAL_FPS", "TEXTUAL_COLOR_SYSTEM", "TERM_PROGRAM",
               "TERM_PROGRAM_VERSION", "COLUMNS", "ROWS")
"""What a browser session's app takes of textual-serve's environment (the web driver
and the window size); the rest is the session's own, as for SSH."""
STDERR_KEPT = 4096
"""The tail of an app's error output kept for the host's log (one line of it is logged)."""


def is_guest(identity: str) -> bool:
    """True for an identity the web front issued (never an SSH key's fingerprint)."""
    return GUEST_PATTERN.fullmatch(identity) is not None


def load_secret(data: Path) -> bytes:
    """The key that signs guest cookies, kept in ``data`` (made, mode 0600, on first start)."""
    path = data / SECRET_NAME
    if not path.exists():
        secret = secrets.token_bytes(SECRET_BYTES)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as out:
            out.write(secret)
        return secret
    secret = read_capped(path, 4096)
    if len(secret) < SECRET_BYTES:
        raise ParlorError(f"{SECRET_NAME}: {len(secret)} bytes, too short for a key; "
                         "delete it to have a new one made")
    return secret


class GuestPass:
    """Issues guest identities and checks the cookies that carry them."""

    def __init__(self, secret: bytes) -> None:
        self.secret = secret

    def signature(self, identity: str) -> str:
        return hmac.new(self.secret, identity.encode(), hashlib.sha256).hexdigest()[:32]

    def issue(self) -> str:
        """A new guest identity."""
        return GUEST_PREFIX + secrets.token_hex(12)

    def cookie(self, identity: str) -> str:
        """The cookie value that proves ``identity`` (a guest's)."""
        assert is_guest(identity)
        return f"{identity}.{self.signature(identity)}"

    def identity(self, cookie: str | None) -> str | None:
        """The guest identity ``cookie`` proves, or None (absent, forged, not a guest's)."""
        if not cookie or len(cookie) > 100:
            return None
        identity, _, signature = cookie.partition(".")
        if not is_guest(identity):
            return None
        if not hmac.compare_digest(signature.encode(), self.signature(identity).encode()):
            return None
        return identity


def bounded(value: Any, default: int) -> int:
    """A window dimension from the page's address: an integer in 1..1000, else ``default``."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return default
    return max(1, min(1000, number))


def dimension(value: Any) -> int | None:
    """A window dimension from a resize message: an integer in 1..1000, else None."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 1000:
        return value
    return None


NAME_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Parlor</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body {{ background: #0c181f; color: #e8eef2; font-family: menlo, monospace;
       display: flex; justify-content: center; padding-top: 12vh; }}
form {{ background: #12232d; padding: 2em 3em; max-width: 34em; }}
input, button {{ font: inherit; padding: .4em .6em; margin: .3em 0; }}
button {{ background: #5e0ba7; color: white; border: none; cursor: pointer; }}
p.small {{ font-size: 85%; color: #9fb3bf; }}
</style></head>
<body><form method="post" action="{action}">
<h1>Parlor</h1>
<p>{message}</p>
<label for="name">Your name, as other players will see it:</label><br>
<input id="name" name="name" maxlength="24" pattern="[A-Za-z0-9._\\-]+" value="{name}"
 autofocus required> <button type="submit">Play</button>
<p class="small">Letters, digits and <code>. _ -</code>, up to 24. This browser keeps
a guest pass (a cookie) for 30 days: with it your saved games stay yours, and after a
reload you take your seat back by typing the room's code again.
Players with an SSH key can also play with <code>ssh</code> on the host's SSH port.</p>
</form></body></html>
"""

MESSAGE_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Parlor</title></head>
<body style="background:#0c181f;color:#e8eef2;font-family:monospace;padding:3em">
<p>{message}</p></body></html>
"""


class Hosting(Protocol):
    """What the web front uses of :class:`tui.host.server.Host` (named here rather
    than imported: the host imports this module when it serves browsers)."""

    config: Any
    """The host's ``HostConfig``."""
    data: Path
    users: Path
    rooms: RoomService
    sessions: set[Any]
    """Every session served, SSH and browser alike (``max_sessions`` counts both)."""

    def admit_address(self, address: str) -> bool: ...

    def session_environment(self, identity: str, token: str, term: str
                            ) -> dict[str, str]: ...


class WebFront:
    """The host's web port: a name page, then the hosted app over a websocket (with
    textual-serve's page, script and app service)."""

    def __init__(self, host: Hosting) -> None:
        self.host = host
        self.config = host.config
        self.guests = GuestPass(load_secret(host.data))
        package = Path(textual_serve.__file__).parent
        self.templates_path = package / "templates"
        self.statics_path = package / "static"
        self.download_manager = DownloadManager()
        self.runner: web.AppRunner | None = None
        self.site: web.TCPSite | None = None

    # -- lifecycle ------------------------------------------------------------------
    def make_app(self) -> web.Application:
        """The web application: pages, the websocket, textual-serve's files (the app
        delivers no files, so textual-serve's download route is left out)."""
        app = web.Application(client_max_size=64 * 1024)
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([
            web.get("/", self.handle_index, name="index"),
            web.get("/name", self.handle_name_page, name="name"),
            web.post("/name", self.handle_name, name="name-post"),
            web.get("/ws", self.handle_websocket, name="websocket"),
            web.static("/static", self.statics_path, name="static"),
        ])
        return app

    async def start(self) -> None:
        """Listen on the web port (on the running loop, beside the SSH server)."""
        self.runner = web.AppRunner(self.make_app(), shutdown_timeout=STOP_SECONDS,
                                    access_log=None)
        await self.runner.setup()
        bind = self.config.web_bind if self.config.web_bind is not None else self.config.bind
        self.site = web.TCPSite(self.runner, bind, self.config.web_port)
        await self.site.start()

    @property
    def bound_port(self) -> int:
        """The port listened on (the real one when 0 was asked for)."""
        assert self.runner is not None
        return int(self.runner.addresses[0][1])

    def address(self) -> str:
        """Where browsers go, as the host's log says it."""
        if self.config.web_url:
            return str(self.config.web_url)
        bind = self.config.web_bind if self.config.web_bind is not None else self.config.bind
        shown = "THIS-HOST" if bind in ("", "0.0.0.0", "::") else bind
        return f"http://{shown}:{self.bound_port}/"

    async def stop_listening(self) -> None:
        """Take no more connections (those open go on until their sessions end)."""
        if self.site is not None:
            await self.site.stop()

    async def stop(self) -> None:
        """Stop the web server (after the host has ended every session)."""
        if self.runner is not None:
            await self.runner.cleanup()

    # -- pages ----------------------------------------------------------------------
    def base(self, request: web.Request) -> str:
        """The address browsers reach this port at (no trailing slash)."""
        return (self.config.web_url or f"{request.scheme}://{request.host}").rstrip("/")

    def same_origin(self, request: web.Request) -> bool:
        """False for a browser request made by another site's page (its Origin differs)."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not sent by a page of another site
        allowed = {request.host.lower()}
        if self.config.web_url:
            allowed.add(urlsplit(self.config.web_url).netloc.lower())
        return urlsplit(origin).netloc.lower() in allowed

    def full_message(self) -> str | None:
        """Why no session can start now, or None."""
        if len(self.host.sessions) >= self.config.max_sessions:
            return (f"Parlor is full ({self.config.max_sessions} players); "
                    "try again later.")
        return None

    def page(self, text: str, status: int = 200) -> web.Response:
        response = web.Response(text=text, status=status, content_type="text/html")
        response.headers["Cache-Control"] = "no-store"
        return response

    def name_page(self, request: web.Request, message: str = "") -> web.Response:
        name = clean_name(request.cookies.get(NAME_COOKIE, "")[:100])
        return self.page(NAME_PAGE.format(
            action=html.escape(self.base(request) + "/name"),
            message=html.escape(message or "Play board games with people, in your browser."),
            name=html.escape(name if request.cookies.get(NAME_COOKIE) else "")))

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        """The app's page for a browser with a guest pass and a name; else the name page."""
        identity = self.guests.identity(request.cookies.get(GUEST_COOKIE))
        if identity is None or not request.cookies.get(NAME_COOKIE):
            return self.name_page(request)
        full = self.full_message()
        if full is not None:
            return self.page(MESSAGE_PAGE.format(message=html.escape(full)), status=503)
        base = self.base(request)
        websocket = ("wss:" if base.startswith("https:") else "ws:") + base.split(":", 1)[1]
        context = {"font_size": bounded(request.query.get("fontsize", "16"), 16),
                   "app_websocket_url": f"{websocket}/ws",
                   "config": {"static": {"url": f"{base}/static/"}},
                   "application": {"name": "Parlor"}}
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers["Cache-Control"] = "no-store"
        return response

    async def handle_name_page(self, request: web.Request) -> web.StreamResponse:
        """The name page (to change one's name)."""
        return self.name_page(request)

    async def handle_name(self, request: web.Request) -> web.StreamResponse:
        """Take the name typed; keep the browser's guest pass, or issue one."""
        if not self.same_origin(request):
            raise web.HTTPForbidden(text="Parlor takes names from its own page only.")
        form = await request.post()
        typed = form.get("name")
        name = clean_name(typed[:100]) if isinstance(typed, str) else "player"
        identity = self.guests.identity(request.cookies.get(GUEST_COOKIE)) or self.guests.issue()
        response = web.Response(status=303, headers={"Location": self.base(request) + "/"})
        secure = self.base(request).startswith("https:")
        response.set_cookie(GUEST_COOKIE, self.guests.cookie(identity), max_age=COOKIE_SECONDS,
                            path="/", httponly=True, samesite="Lax", secure=secure)
        response.set_cookie(NAME_COOKIE, name, max_age=COOKIE_SECONDS, path="/",
                            httponly=True, samesite="Lax", secure=secure)
        return response

    # -- sessions -------------------------------------------------------------------
    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One browser session: the hosted app, for the guest the cookie proves."""
        if not self.same_origin(request):
            raise web.HTTPForbidden(text="Parlor serves its own page only.")
        identity = self.guests.identity(request.cookies.get(GUEST_COOKIE))
        name = clean_name(request.cookies.get(NAME_COOKIE, "")[:100])
        refusal = None
        if identity is None:
            refusal = "Open Parlor's page and give your name first."
        elif not self.host.admit_address(request.remote or "?"):
            refusal = "Too many connections from your address; try again in a minute."
        elif sum(getattr(s, "address", None) == (request.remote or "?")
                 for s in self.host.sessions) >= self.config.per_address:
            refusal = "Too many connections from your address; close one first."
        else:
            refusal = self.full_message()
        ws = web.WebSocketResponse(heartbeat=15, max_msg_size=MAX_MESSAGE)
        session = None
        if refusal is None and identity is not None:
            session = WebSession(self, identity, name, ws)
            session.address = request.remote or "?"
            self.host.sessions.add(session)  # counted at once: no await since the check
        try:
            await ws.prepare(request)
            if session is None:
                await ws.send_bytes(f"{refusal}\r\n".encode())
                await ws.close(code=1013, message=(refusal or "")[:100].encode())
                return ws
            await session.run(bounded(request.query.get("width"), 80),
                              bounded(request.query.get("height"), 24))
        except ConnectionError:
            pass
        finally:
            if session is not None:
                session.end()
                await session.reap()
        return ws


class HostedAppService(AppService):
    """textual-serve's app service, running the hosted app as the session's own process
    (its environment and data folder, its own process group) rather than a shell
    command with the host's environment."""

    def __init__(self, session: WebSession) -> None:
        super().__init__("python -m tui.host.session", write_bytes=session.ws.send_bytes,
                         write_str=session.ws.send_str, close=session.close_page,
                         download_manager=session.front.download_manager)
        self.session = session
        self.proc: asyncio.subprocess.Process | None = None

    async def _open_app_process(self, width: int = 80, height: int = 24
                                ) -> asyncio.subprocess.Process:
        session = self.session
        textual = self._build_environment(width=width, height=height)
        env = session.front.host.session_environment(session.identity, session.token,
                                                     "xterm-256color")
        env.update({key: textual[key] for key in TEXTUAL_ENV if key in textual})
        self._process = self.proc = await asyncio.create_subprocess_exec(
            session.front.config.python, "-m", "tui.host.session",
            stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=env, cwd=str(session.home),
            start_new_session=True)
        assert self.proc.stdin is not None
        self._stdin = self.proc.stdin
        # textual-serve copies an app's error output, tracebacks and all, to the host's
        # stdout; the host reads it itself and logs one line (a browser that went away
        # leaves its app a broken pipe, and forty of them are not forty tracebacks)
        errors, self.proc.stderr = self.proc.stderr, asyncio.StreamReader()
        self.proc.stderr.feed_eof()
        if errors is not None:
            task = asyncio.get_running_loop().create_task(self.log_errors(errors))
            session.tasks.add(task)
            task.add_done_callback(session.tasks.discard)
        return self.proc

    async def log_errors(self, errors: asyncio.StreamReader) -> None:
        """Read the app's error output to its end; log its last line, once."""
        tail = b""
        with contextlib.suppress(OSError, ValueError):
            while chunk := await errors.read(65536):
                tail = (tail + chunk)[-STDERR_KEPT:]
        lines = [line.strip() for line in tail.decode("utf-8", "replace").splitlines()]
        last = next((line for line in reversed(lines) if line), "")
        if last:
            log.warning("a browser session's app (%s) ended with: %s",
                        self.session.name, last[:120])

    async def run(self) -> None:
        try:
            await super().run()
        except (OSError, ValueError, RuntimeError) as exc:  # one line, not a hang
            log.warning("a browser session's app service failed: %s", str(exc)[:120] or
                        type(exc).__name__)
        finally:
            # the app ended (quit, crashed, or died at once): so does the page's session
            self.session.end()


class WebSession:
    """One browser's session: the hosted app behind a websocket."""

    def __init__(self, front: WebFront, identity: str, name: str,
                 ws: web.WebSocketResponse) -> None:
        self.front = front
        self.host = front.host
        self.identity = identity
        self.name = name
        self.ws = ws
        self.home = user_home(self.host.users, identity)
        self.address = ""
        """The browser's address (``per_address`` caps the sessions of each)."""
        self.token = ""
        self.service: HostedAppService | None = None
        self.last_input = time.monotonic()
        self.closing = False
        self.tasks: set[asyncio.Task[None]] = set()
        self.reaping: asyncio.Task[None] | None = None
        config = front.config
        self.resizes = Bucket(2, config.resizes_per_second, config.clock)
        self.resize_to: tuple[int, int] | None = None
        self.resize_timer: asyncio.TimerHandle | None = None
        self.resizes_received = 0
        self.resizes_applied = 0
        """Window sizes asked for by the browser, and those passed on to the app."""

    async def run(self, width: int, height: int) -> None:
        """Start the app and pass it what the browser sends until either side ends."""
        self.home.mkdir(parents=True, exist_ok=True, mode=0o700)
        _, claimed = await self.host.rooms.accounts.login(self.identity)  # a guest's own
        self.name = claimed or self.name  # a name claimed is the one shown
        self.token = self.host.rooms.issue(self.identity, self.name, self.address)
        self.service = HostedAppService(self)
        try:
            await self.service.start(width, height)
        except OSError as exc:
            log.error("cannot start a browser session: %s", exc)
            self.end("The host cannot start Parlor now.")
            return
        async for message in self.ws:
            if self.closing:
                break
            if message.type == WSMsgType.TEXT:
                await self.received(message.data)

    async def received(self, text: str) -> None:
        """Act on one message of textual-serve's protocol; anything else is ignored."""
        try:
            envelope = json.loads(text)
        except (ValueError, RecursionError):
            return
        if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
            return
        kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
        service = self.service
        assert service is not None
        if kind == "stdin" and isinstance(data, str):
            self.last_input = time.monotonic()
            await service.send_bytes(data.encode("utf-8", "replace"))
        elif kind == "resize" and isinstance(data, dict):
            width, height = dimension(data.get("width")), dimension(data.get("height"))
            if width is not None and height is not None:
                self.resizes_received += 1
                self.resize_to = (width, height)
                await self.apply_resize()
        elif kind == "ping" and isinstance(data, str) and len(data) <= 100:
            await self.ws.send_json(["pong", data])
        elif kind == "blur":
            await service.blur()
        elif kind == "focus":
            await service.focus()

    async def apply_resize(self) -> None:
        """Pass the browser's latest window size to the app, at most as often as the
        throttle allows (sizes asked for meanwhile are folded into the next one)."""
        if self.resize_to is None or self.service is None or self.closing:
            return
        if self.resizes.take():
            (width, height), self.resize_to = self.resize_to, None
            self.resizes_applied += 1
            await self.service.set_terminal_size(width, height)
        elif self.resize_timer is None:
            delay = min(1.0, max(0.02, self.resizes.wait()))
            self.resize_timer = asyncio.get_running_loop().call_later(delay, self.resize_later)

    def resize_later(self) -> None:
        self.resize_timer = None
        task = asyncio.get_running_loop().create_task(self.apply_resize())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def end(self, message: str = "") -> None:
        """End the session: say ``message``, close the page's socket, free the seat's
        token (the app itself is stopped by :meth:`reap`)."""
        if self.closing:
            return
        self.closing = True
        if self.resize_timer is not None:
            self.resize_timer.cancel()
            self.resize_timer = None
        self.host.sessions.discard(self)
        if self.token:
            self.host.rooms.revoke(self.token)
        task = asyncio.get_running_loop().create_task(self.close_socket(message))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def close_page(self) -> None:
        """Close the page's socket (the app asked to exit)."""
        await self.ws.close()

    async def close_socket(self, message: str) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            if message and not self.ws.closed:
                await self.ws.send_bytes(f"\r\n{message}\r\n".encode())
            await self.ws.close()

    async def reap(self) -> None:
        """Stop the app: ask it to quit, then end its process group if it lingers."""
        if self.reaping is None:
            self.reaping = asyncio.get_running_loop().create_task(self.stop_app())
        await asyncio.shield(self.reaping)

    async def stop_app(self) -> None:
        service = self.service
        if service is None:
            return
        with contextlib.suppress(TimeoutError, ConnectionError, RuntimeError):
            await asyncio.wait_for(service.stop(), STOP_SECONDS)
        proc = service.proc
        if proc is not None and proc.returncode is None:
            for sig in (signal.SIGHUP, signal.SIGKILL):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, sig)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(proc.wait(), 3)
                    break
