"""Browsers in the host's rooms: a websocket client speaking textual-serve's protocol
(as its page's script does) meets SSH players in the same room service."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import json
from pathlib import Path

import aiohttp
import pytest
from yarl import URL

from tests.host.conftest import (
    WAIT,
    Player,
    Terminal,
    create_room,
    host_config,
    join_room,
    move,
    running,
)
from tui.host.rooms import user_history
from tui.host.web import GUEST_COOKIE, SECRET_NAME, GuestPass, is_guest
from tui.player.store import read_records


class Browser(Terminal):
    """A browser's session: the name page, then the app over textual-serve's websocket
    (keys go as ``["stdin", ...]``, the screen comes back as binary messages)."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse,
                 port: int) -> None:
        self.http = http
        self.ws = ws
        self.port = port
        super().__init__()

    @staticmethod
    def session(cookies: dict[str, str] | None = None) -> aiohttp.ClientSession:
        """A browser's cookie jar (one that keeps cookies of an IP address)."""
        jar = aiohttp.CookieJar(unsafe=True)
        http = aiohttp.ClientSession(cookie_jar=jar)
        if cookies:
            jar.update_cookies(cookies)
        return http

    @classmethod
    async def open(cls, port: int, name: str, http: aiohttp.ClientSession | None = None,
                   size: tuple[int, int] = (110, 34)) -> Browser:
        """Give ``name`` on the name page, load the app's page, open its websocket."""
        http = http or cls.session()
        async with http.post(f"http://127.0.0.1:{port}/name", data={"name": name}) as reply:
            page = await reply.text()
        assert f'data-session-websocket-url="ws://127.0.0.1:{port}/ws"' in page, page[:300]
        browser = await cls.attach(port, http, size)
        browser.name = name
        return browser

    @classmethod
    async def attach(cls, port: int, http: aiohttp.ClientSession,
                     size: tuple[int, int] = (110, 34)) -> Browser:
        """Open the app's websocket as the page's script does."""
        ws = await http.ws_connect(
            f"ws://127.0.0.1:{port}/ws?width={size[0]}&height={size[1]}")
        await ws.send_json(["resize", {"width": size[0], "height": size[1]}])
        return cls(http, ws, port)

    @property
    def identity(self) -> str:
        cookie = self.http.cookie_jar.filter_cookies(URL(f"http://127.0.0.1:{self.port}/"))
        return cookie[GUEST_COOKIE].value.partition(".")[0]

    async def read(self) -> None:
        try:
            async for message in self.ws:
                if message.type == aiohttp.WSMsgType.BINARY:
                    self.output += message.data
                    self.changed.set()
        except (aiohttp.ClientError, OSError):
            pass
        self.changed.set()

    async def send(self, chunk: str) -> None:
        await self.ws.send_json(["stdin", chunk])

    async def reload(self) -> Browser:
        """What a reload does: this page's socket closes, a new page opens one."""
        await self.ws.close()
        self.reader.cancel()
        again = await Browser.attach(self.port, self.http)
        again.name = self.name
        return again

    async def close(self, keep_http: bool = False) -> None:
        await self.ws.close()
        self.reader.cancel()
        if not keep_http:
            await self.http.close()


async def test_a_browser_plays_an_ssh_player_to_the_end_and_reloads_back_into_its_seat(
        web_host, keys):
    alice = await Player.connect(web_host.port, "alice", keys[0])
    dave = await Browser.open(web_host.web_port, "dave!")  # cleaned like SSH names
    try:
        assert is_guest(dave.identity)
        code = await create_room(alice)
        await join_room(dave, code)
        await alice.expect("dave joined")
        await move(alice, "b2")
        await dave.expect("Move 1: your move")
        dave = await dave.reload()  # the same guest pass: back in the seat, at once
        await alice.expect("dave left; their seat is kept")
        await dave.expect(f"Room {code} (you play O)", "Move 1: your move")
        await alice.expect("dave is back")
        line = [(dave, "a1"), (alice, "b1"), (dave, "c1"), (alice, "b3")]
        for ply, (mover, text) in enumerate(line, start=2):
            await move(mover, text)
            if ply < 5:  # a move is one of each side's: after O's a1 it is X's move 2
                waiting = dave if mover is alice else alice
                await waiting.expect(f"Move {ply // 2 + 1}: your move")
        for player in (alice, dave):
            await player.expect("Game over: X wins 1-0 (three in a row)")
        identity = dave.identity
    finally:
        await alice.close()
        await dave.close()
    fingerprint = keys[0].get_fingerprint("sha256")
    for who in (fingerprint, identity):  # in both players' saved games
        [path] = list(user_history(web_host.users, who).glob("*.pgn"))
        [record] = read_records(path)
        assert record.moves == ["b2", "a1", "b1", "c1", "b3"] and record.result == "1-0"
        assert record.tags["First"] == "alice" and record.tags["Second"] == "dave"


async def test_a_guest_cannot_pose_as_a_key_identity(web_host, keys):
    port = web_host.web_port
    alice_id = keys[0].get_fingerprint("sha256")
    secret = (web_host.data / SECRET_NAME).read_bytes()
    signed = hmac.new(secret, alice_id.encode(), hashlib.sha256).hexdigest()[:32]
    guest = GuestPass(secret).issue()
    forged = [f"{alice_id}.{signed}",  # a key's identity, even signed with the host's key
              f"{guest}.{'0' * 32}",  # a guest's identity with a wrong signature
              f"{guest}.{GuestPass(b'x' * 32).signature(guest)}"]  # signed by another key
    for cookie in forged:
        assert web_host.web.guests.identity(cookie) is None
    alice = await Player.connect(web_host.port, "alice", keys[0])
    eve = None
    try:
        code = await create_room(alice)
        for cookie in forged:
            async with Browser.session({GUEST_COOKIE: cookie, "parlor_name": "alice"}) as http:
                async with http.get(f"http://127.0.0.1:{port}/") as reply:
                    assert "Your name" in await reply.text()  # not let in: the name page
                ws = await http.ws_connect(f"ws://127.0.0.1:{port}/ws")
                message = await ws.receive(timeout=WAIT)
                assert message.type == aiohttp.WSMsgType.BINARY
                assert b"give your name first" in message.data
                await ws.close()
        # a page of another site cannot open a session with a visitor's pass
        async with Browser.session() as http:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"ws://127.0.0.1:{port}/ws",
                                      origin="http://elsewhere.example")
            assert refused.value.status == 403
        # Giving a name with a forged pass gets a new guest identity, never alice's: by
        # the room's code eve takes the open seat, not alice's.
        http = Browser.session({GUEST_COOKIE: forged[0]})
        eve = await Browser.open(port, "alice", http)
        assert is_guest(eve.identity) and eve.identity not in (alice_id, guest)
        await join_room(eve, code)
        await alice.expect("alice joined: the game begins")
        room = web_host.rooms.rooms[code]
        assert room.seats == [alice_id, eve.identity]
        tokens = {identity for identity, _, _ in web_host.rooms.tokens.values()}
        assert tokens == {alice_id, eve.identity}
    finally:
        await alice.close()
        if eve is not None:
            await eve.close()


async def test_browser_sessions_count_against_the_hosts_limits(tmp_path: Path, keys):
    config = host_config(tmp_path / "h", web_port=0, max_sessions=1)
    async with running(config) as host:
        dave = await Browser.open(host.web_port, "dave")
        try:
            await dave.expect("Play a person")
            # garbage in textual-serve's protocol is ignored; the session goes on
            for junk in ("not json", "[]", "{}", '["stdin", 5]', '["resize", "big"]',
                         '["resize", {"width": "x", "height": -3}]', "[[[[[[[[[[]]]]]]]]]]",
                         json.dumps(["stdin", "\ud800"]), '["ping", {}]', '["nothing"]'):
                await dave.ws.send_str(junk)
            await dave.keys("f2")
            await dave.expect("Create room", "Open rooms")
            bob = await Player.connect(host.port, "bob", keys[1])  # the one seat is taken
            await bob.expect("Parlor is full (1 players)")
            await bob.close()
            async with Browser.session() as http:
                async with http.post(f"http://127.0.0.1:{host.web_port}/name",
                                     data={"name": "erin"}) as reply:
                    assert reply.status == 503 and "Parlor is full" in await reply.text()
                ws = await http.ws_connect(f"ws://127.0.0.1:{host.web_port}/ws")
                message = await ws.receive(timeout=WAIT)
                assert b"Parlor is full (1 players)" in message.data
                await ws.close()
            await dave.close()
            for _ in range(int(WAIT * 10)):  # the seat frees when the page closes
                if not host.sessions:
                    break
                await asyncio.sleep(0.1)
            assert not host.sessions
        finally:
            await dave.close()


async def test_an_idle_browser_session_is_ended(tmp_path: Path):
    async with running(host_config(tmp_path / "h", web_port=0, idle_seconds=3.0)) as host:
        dave = await Browser.open(host.web_port, "dave")
        try:
            # no key pressed for 3 s (counted from the start: on a busy machine the app may
            # not have drawn Home by then, so the test does not wait for it)
            await dave.expect("Idle for too long")
            await asyncio.wait_for(dave.reader, WAIT)  # and the page's socket closes
            assert not host.sessions
        finally:
            await dave.close()


async def test_behind_a_proxy_the_page_uses_the_public_address(tmp_path: Path):
    config = host_config(tmp_path / "h", web_port=0, web_url="https://play.example.org")
    async with running(config) as host, Browser.session() as http:
        base = f"http://127.0.0.1:{host.web_port}"
        async with http.post(f"{base}/name", data={"name": "dave"},
                             allow_redirects=False) as reply:
            assert reply.status == 303
            assert reply.headers["Location"] == "https://play.example.org/"
            cookies = reply.headers.getall("Set-Cookie")
            assert len(cookies) == 2 and all("Secure" in c and "HttpOnly" in c for c in cookies)
        # the proxy's page may post the name; another site's may not
        async with http.post(f"{base}/name", data={"name": "dave"}, allow_redirects=False,
                             headers={"Origin": "https://play.example.org"}) as reply:
            assert reply.status == 303
        async with http.post(f"{base}/name", data={"name": "dave"}, allow_redirects=False,
                             headers={"Origin": "https://elsewhere.example"}) as reply:
            assert reply.status == 403
        identity = host.web.guests.issue()
        http.cookie_jar.update_cookies({GUEST_COOKIE: host.web.guests.cookie(identity),
                                        "parlor_name": "dave"})
        async with http.get(f"{base}/") as reply:
            page = await reply.text()
        assert 'data-session-websocket-url="wss://play.example.org/ws"' in page


def test_web_and_a_keys_file_do_not_go_together(tmp_path: Path):
    from tui.host.server import Host

    listed = tmp_path / "authorized_keys"
    listed.write_text("")
    with pytest.raises(ValueError, match="cannot be combined with --keys"):
        Host(host_config(tmp_path / "h", web_port=0, keys=listed))


def test_parlor_serve_says_where_the_rooms_are(capsys):
    from tui import cli

    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    assert "parlor host --web PORT" in " ".join(capsys.readouterr().out.split())
