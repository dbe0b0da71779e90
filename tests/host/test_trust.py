"""A host open to strangers, tried as a hostile client would: real SSH clients against a
host on 127.0.0.1, with its limits made small (and its app a stand-in that only says it
started, where the case is about the host rather than the app)."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import signal
import struct
import termios
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.host.conftest import WAIT, asyncssh, host_config, running
from tests.host.test_rooms import Line
from tui.host.limits import Bucket, LogLimiter
from tui.host.rooms import RoomService
from tui.host.server import Session, loop_errors

STAND_IN = "#!/bin/sh\necho APP STARTED\nexec sleep 600\n"
"""The app a host starts in these tests: it says so, then waits to be hung up on."""


def stand_in(tmp_path: Path) -> str:
    path = tmp_path / "app.sh"
    path.write_text(STAND_IN)
    path.chmod(0o700)
    return str(path)


async def connect(port: int, key: asyncssh.SSHKey, name: str = "eve"
                  ) -> asyncssh.SSHClientConnection:
    return await asyncio.wait_for(asyncssh.connect(
        "127.0.0.1", port, username=name, client_keys=[key], known_hosts=None,
        agent_path=None, kbdint_auth=False), WAIT)


async def until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition`` (the loop runs meanwhile); fail after a generous while."""
    loop = asyncio.get_running_loop()
    end = loop.time() + WAIT
    while not condition():
        assert loop.time() < end, "the condition never came true"
        await asyncio.sleep(0.02)


async def opening(conn: asyncssh.SSHClientConnection) -> str:
    """What a session on ``conn`` shows until it says the app started or it ends."""
    process = await conn.create_process(term_type="xterm", term_size=(80, 24),
                                        encoding=None)
    seen = b""
    while b"APP STARTED" not in seen:
        data = await asyncio.wait_for(process.stdout.read(1024), WAIT)
        if not data:
            break
        seen += data
    return seen.decode("utf-8", "replace")


async def test_sessions_count_from_their_channel_so_a_burst_cannot_pass_the_cap(tmp_path, keys):
    config = host_config(tmp_path / "h", max_sessions=2, per_address=10,
                         python=stand_in(tmp_path))
    async with running(config) as host:
        conns = [await connect(host.port, keys[i % 3], f"p{i}") for i in range(5)]
        try:
            # all five ask for a terminal and a shell at once
            shown = await asyncio.gather(*(opening(conn) for conn in conns))
            assert sum("APP STARTED" in text for text in shown) == 2, shown
            assert sum("Parlor is full (2 players)" in text for text in shown) == 3, shown
            assert len(host.sessions) == 2
            # a refused connection is closed, not left holding a file
            for conn, text in zip(conns, shown, strict=True):
                if "Parlor is full" in text:
                    await asyncio.wait_for(conn.wait_closed(), WAIT)
        finally:
            for conn in conns:
                conn.close()


async def test_a_connection_that_starts_no_session_is_closed_after_the_login_grace(
        tmp_path, keys):
    config = host_config(tmp_path / "h", login_seconds=0.5, python=stand_in(tmp_path))
    async with running(config) as host:
        # logged in, then nothing: today's hosts kept these for ever
        idle = await connect(host.port, keys[0])
        # a bare TCP connection that never says a word
        reader, writer = await asyncio.open_connection("127.0.0.1", host.port)
        player = await connect(host.port, keys[1], "alice")
        try:
            assert "APP STARTED" in await opening(player)
            await asyncio.wait_for(idle.wait_closed(), WAIT)
            while await asyncio.wait_for(reader.read(1024), WAIT):
                pass  # the host's greeting, then the end
            await until(lambda: sum(host.connections.values()) == 1)
            assert len(host.sessions) == 1  # the player who started a session stays
        finally:
            writer.close()
            idle.close()
            player.close()


async def test_one_address_holds_at_most_per_address_connections(tmp_path, keys):
    config = host_config(tmp_path / "h", per_address=2, per_minute=100,
                         python=stand_in(tmp_path))
    async with running(config) as host:
        first = await connect(host.port, keys[0])
        second = await connect(host.port, keys[0])
        try:
            with pytest.raises((asyncssh.Error, OSError)):
                await connect(host.port, keys[0])
            assert host.connections["127.0.0.1"] == 2
            first.close()
            await until(lambda: host.connections["127.0.0.1"] == 1)
            third = await connect(host.port, keys[0])  # a place is free again
            third.close()
        finally:
            first.close()
            second.close()


async def test_a_resize_flood_is_folded_into_a_few_resizes(tmp_path, keys):
    now = [0.0]
    config = host_config(tmp_path / "h", python=stand_in(tmp_path), clock=lambda: now[0],
                         resizes_per_second=4.0)
    async with running(config) as host:
        conn = await connect(host.port, keys[0])
        try:
            process = await conn.create_process(term_type="xterm", term_size=(80, 24),
                                                encoding=None)
            while b"APP STARTED" not in await asyncio.wait_for(process.stdout.read(1024), WAIT):
                pass
            [session] = [s for s in host.sessions if isinstance(s, Session)]
            for step in range(40):  # the host's clock stands still meanwhile
                process.change_terminal_size(100 + step, 30 + step % 7)
            await until(lambda: session.resizes_received == 40)
            assert session.resizes_applied == 2  # the burst; the other 38 wait
            now[0] += 1.0  # a quarter second's allowance is there again
            await until(lambda: session.resizes_applied == 3)
            await asyncio.sleep(0.1)  # a fourth would need more time than has passed
            assert session.resizes_applied == 3
            size = fcntl.ioctl(session.master, termios.TIOCGWINSZ, b"\0" * 8)
            rows, cols = struct.unpack("HHHH", size)[:2]
            assert (cols, rows) == (139, 30 + 39 % 7)  # the last size asked for
        finally:
            conn.close()


async def test_one_player_cannot_fill_the_host_with_rooms(tmp_path):
    now = [0.0]
    service = RoomService(tmp_path / "rooms.sock", tmp_path / "users", clock=lambda: now[0],
                          rooms_per_player=2, rooms_per_minute=3)
    await service.start()
    try:
        a = await Line.open(service, service.issue("key-a", "alice"))
        b = await Line.open(service, service.issue("key-b", "bob"))
        for _ in range(2):  # two games in progress, each left for the next
            a.send({"t": "create", "game": "tictactoe", "side": "first"})
            code = (await a.room(started=False))["code"]
            b.send({"t": "join", "code": code})
            await a.room(started=True)
        a.send({"t": "create", "game": "tictactoe", "side": "first"})
        assert "you have 2 games in progress" in (await a.next("error"))["message"]
        # creating in a loop: three a minute, then a wait
        c = await Line.open(service, service.issue("key-c", "carol"))
        for _ in range(3):
            c.send({"t": "create", "game": "tictactoe"})
            await c.room(started=False)
        c.send({"t": "create", "game": "tictactoe"})
        assert "you have opened 3 rooms in a minute" in (await c.next("error"))["message"]
        # the others are not held up
        d = await Line.open(service, service.issue("key-d", "dave"))
        d.send({"t": "create", "game": "tictactoe"})
        await d.room(started=False)
        now[0] += 20.0  # one room's allowance back
        c.send({"t": "create", "game": "tictactoe"})
        await c.room(started=False)
        for line in (a, b, c, d):
            line.close()
    finally:
        await service.stop()


def test_a_flood_of_one_log_line_is_cut_to_a_few_and_a_count():
    now = [0.0]
    limiter = LogLimiter(burst=3, interval=60.0, clock=lambda: now[0])
    records = [logging.LogRecord("asyncio", logging.ERROR, __file__, 1,
                                 "socket.accept() out of system resource", None, None)
               for _ in range(1000)]
    assert sum(limiter.filter(r) for r in records) == 3
    other = logging.LogRecord("parlor.host", logging.INFO, __file__, 1, "another line",
                              None, None)
    assert limiter.filter(other)  # each kind has its own allowance
    now[0] += 61.0
    later = logging.LogRecord("asyncio", logging.ERROR, __file__, 1,
                              "socket.accept() out of system resource", None, None)
    assert limiter.filter(later)
    assert "997 more like this dropped" in later.getMessage()


def test_a_client_that_went_away_is_one_line_without_a_traceback(caplog):
    limiter = LogLimiter()
    try:
        raise BrokenPipeError(32, "Broken pipe")
    except BrokenPipeError as exc:
        record = logging.LogRecord("parlor.host", logging.ERROR, __file__, 1, "write failed",
                                   None, (type(exc), exc, exc.__traceback__))
    assert limiter.filter(record)
    assert record.exc_info is None and "a client went away" in record.getMessage()

    loop = asyncio.new_event_loop()
    try:
        with caplog.at_level(logging.WARNING):
            loop_errors(loop, {"message": "Fatal write error on socket transport",
                               "exception": BrokenPipeError(32, "Broken pipe")})
    finally:
        loop.close()
    [line] = caplog.records
    assert line.exc_info is None and "Broken pipe" in line.getMessage()


def test_a_bucket_gives_its_burst_then_its_rate():
    now = [0.0]
    bucket = Bucket(2, 4.0, lambda: now[0])
    assert [bucket.take() for _ in range(3)] == [True, True, False]
    assert bucket.wait() == pytest.approx(0.25)
    now[0] += 0.25
    assert bucket.take() and not bucket.take()


def script(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    path.chmod(0o700)
    return str(path)


async def test_a_browser_sessions_app_errors_are_one_log_line_not_a_traceback(
        tmp_path, capfd, caplog):
    from tests.host.test_web import Browser

    dying = script(tmp_path, "dying.sh", "#!/bin/sh\necho __GANGLION__\n"
                   "echo 'Traceback (most recent call last):' >&2\n"
                   "echo '  File \"app.py\", line 1, in <module>' >&2\n"
                   "echo 'BrokenPipeError: [Errno 32] Broken pipe' >&2\nexit 1\n")
    caplog.set_level(logging.WARNING, "parlor.host.web")
    async with running(host_config(tmp_path / "h", web_port=0, python=dying)) as host:
        browser = await Browser.open(host.web_port, "dave")
        try:
            await asyncio.wait_for(browser.reader, WAIT)  # the app died; the page closes
            await until(lambda: any("ended with" in r.getMessage() for r in caplog.records))
        finally:
            await browser.close()
    out, err = capfd.readouterr()
    assert "Traceback" not in out + err
    [line] = [r.getMessage() for r in caplog.records if "ended with" in r.getMessage()]
    assert "BrokenPipeError" in line and "\n" not in line


async def test_a_browsers_resize_flood_is_folded_too(tmp_path, monkeypatch):
    from tests.host.test_web import Browser
    from tui.host import web

    monkeypatch.setattr(web, "STOP_SECONDS", 0.5)  # the stand-in never answers "quit"
    waiting = script(tmp_path, "waiting.sh", "#!/bin/sh\necho __GANGLION__\nexec sleep 600\n")
    now = [0.0]
    config = host_config(tmp_path / "h", web_port=0, python=waiting, clock=lambda: now[0])
    async with running(config) as host:
        browser = await Browser.open(host.web_port, "dave")
        try:
            await until(lambda: len(host.sessions) == 1)
            [session] = host.sessions
            await until(lambda: session.service is not None and session.service.proc)
            for step in range(30):
                await browser.ws.send_json(["resize", {"width": 90 + step, "height": 30}])
            await until(lambda: session.resizes_received >= 30)
            assert session.resizes_applied == 2
            now[0] += 1.0
            await until(lambda: session.resizes_applied == 3)
            assert session.resize_to is None  # the last size went with it
        finally:
            await browser.close()


async def test_one_address_holds_at_most_per_address_browser_sessions(tmp_path, monkeypatch):
    from tests.host.test_web import Browser
    from tui.host import web

    monkeypatch.setattr(web, "STOP_SECONDS", 0.5)  # the stand-in never answers "quit"
    waiting = script(tmp_path, "waiting.sh", "#!/bin/sh\necho __GANGLION__\nexec sleep 600\n")
    config = host_config(tmp_path / "h", web_port=0, python=waiting, per_address=1)
    async with running(config) as host:
        first = await Browser.open(host.web_port, "dave")
        try:
            await until(lambda: len(host.sessions) == 1)
            second = await Browser.open(host.web_port, "erin")
            await second.expect("Too many connections from your address")
            await second.close()
            assert len(host.sessions) == 1
        finally:
            await first.close()


async def test_idle_logins_at_the_file_limit_lock_nobody_out_and_the_log_stays_short(
        tmp_path, keys):
    import resource

    from tests.host.test_host_crash import start_host

    def few_files() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))

    log = tmp_path / "host.log"
    proc, port = await start_host(tmp_path / "h", log, "--per-address", "1000",
                                  "--per-minute", "10000", "--login-grace", "1",
                                  preexec_fn=few_files)
    idle: list[asyncssh.SSHClientConnection] = []

    async def log_in_and_wait() -> None:
        with contextlib.suppress(asyncssh.Error, OSError, TimeoutError):
            idle.append(await connect(port, keys[0]))

    flood = [asyncio.get_running_loop().create_task(log_in_and_wait()) for _ in range(80)]
    try:
        # more connections than the host has files: it stops accepting for a while
        await until(lambda: "out of system resource" in log.read_text(errors="replace"))
        player = await connect(port, keys[1], "alice")  # let in once the idle ones go
        player.close()
        await asyncio.wait_for(asyncio.gather(*flood), WAIT)
    finally:
        for task in flood:
            task.cancel()
        for conn in idle:
            conn.close()
        proc.send_signal(signal.SIGTERM)
        await asyncio.wait_for(proc.wait(), WAIT)
    text = log.read_text(errors="replace")
    assert "Traceback" not in text
    assert 1 <= text.count("out of system resource") <= 6, text[-2000:]


async def test_fresh_keys_from_one_address_cannot_fill_the_host_with_games(tmp_path):
    service = RoomService(tmp_path / "rooms.sock", tmp_path / "users", rooms_per_player=2,
                          rooms_per_address=3)
    await service.start()
    lines: list[Line] = []
    try:
        friend = await Line.open(service, service.issue("key-f", "friend", "10.0.0.2"))
        lines.append(friend)
        for n in range(4):  # a new key for every room, all from one address
            eve = await Line.open(service, service.issue(f"key-e{n}", "eve", "10.0.0.1"))
            lines.append(eve)
            eve.send({"t": "create", "game": "tictactoe", "side": "first"})
            if n == 3:
                assert "from your address" in (await eve.next("error"))["message"]
                break
            code = (await eve.room(started=False))["code"]
            helper = await Line.open(service, service.issue(f"key-h{n}", "h", "10.0.0.3"))
            lines.append(helper)
            helper.send({"t": "join", "code": code})
            await eve.room(started=True)
        friend.send({"t": "create", "game": "tictactoe"})  # another address is not held up
        await friend.room(started=False)
    finally:
        for line in lines:
            line.close()
        await service.stop()
