"""What room chat costs the room service (not a test).

Cleaning: the time :func:`tui.link.chat.check` takes on a plain line of 200 characters
and on a hostile one (1000 characters of escape sequences, C1 controls, bidi overrides,
combining marks).

Fan-out: a room service on a Unix socket in a temporary folder, with the host's database,
one tic-tac-toe room with two players and ``--watchers`` spectators, all raw clients in
this process. Every spectator says ``--lines`` lines (within the rate limit's burst) at
once; it reports the time until every member has every line it should get (spectators:
all of them; players: none, mid-game), and the room service's share of it is not apart
(the clients run in the same process: the figures are an upper bound).

    python -m benchmarks.host_chat --watchers 50 --lines 5
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path

HOSTILE = ("\x1b]52;c;QUJD\x07\x9b31m\u202eab\u0301\u0301\u0301\u0301\x1b[2J\u200b" * 40)[:1000]
PLAIN = ("a plain line of chat, nothing odd in it. " * 5)[:200]


def cleaning(repeat: int) -> dict[str, float]:
    from tui.link.chat import check

    out = {}
    for name, line in (("plain", PLAIN), ("hostile", HOSTILE)):
        start = time.perf_counter()
        for _ in range(repeat):
            check(line)
        out[name] = (time.perf_counter() - start) / repeat * 1e6
    return out


async def fan_out(watchers: int, lines: int) -> tuple[float, int]:
    from tui.host.db import HostData
    from tui.host.rooms import RoomService
    from tui.link import wire

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        data = HostData.open(root / "data")
        service = RoomService(root / "r.sock", root / "users", host_data=data)
        await service.start()
        try:
            async def client(identity: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
                reader, writer = await asyncio.open_unix_connection(
                    str(service.socket_path), limit=wire.MAX_LINE + 1)
                writer.write(wire.encode({"t": "hello",
                                          "token": service.issue(identity, identity)}))
                await reader.readline()
                return reader, writer

            async def until(reader: asyncio.StreamReader, kind: str) -> dict[str, object]:
                while True:
                    message: dict[str, object] = json.loads(await reader.readline())
                    if message["t"] == kind:
                        return message

            a = await client("a")
            b = await client("b")
            a[1].write(wire.encode({"t": "create", "game": "tictactoe"}))
            code = (await until(a[0], "room"))["code"]
            b[1].write(wire.encode({"t": "join", "code": code}))
            await until(b[0], "room")
            crowd = [await client(f"w{n}") for n in range(watchers)]
            for reader, writer in crowd:
                writer.write(wire.encode({"t": "watch", "code": code}))
                await until(reader, "room")
            expected = watchers * lines

            async def count(reader: asyncio.StreamReader) -> int:
                got = 0
                while got < expected:
                    message = await until(reader, "chat")
                    got += len(message["lines"])  # type: ignore[arg-type]
                return got

            start = time.perf_counter()
            for n, (_, writer) in enumerate(crowd):
                for k in range(lines):
                    writer.write(wire.encode({"t": "say", "text": f"w{n} line {k}"}))
            await asyncio.gather(*(count(reader) for reader, _ in crowd))
            elapsed = time.perf_counter() - start
            a[1].write(wire.encode({"t": "say", "text": "the players' line"}))
            first = await until(b[0], "chat")  # the first chat a player gets is this one
            assert first["lines"] == [{"name": "a", "spectator": False,
                                       "text": "the players' line"}], first
            for _, writer in (a, b, *crowd):
                writer.close()
            return elapsed, expected * watchers
        finally:
            await service.stop()
            data.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=50)
    parser.add_argument("--lines", type=int, default=5, help="per spectator (at most 5)")
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    watchers = max(1, min(args.watchers, 400))
    lines = max(1, min(args.lines, 5))
    micro = cleaning(max(1, min(args.repeat, 100_000)))
    print(f"check(): plain 200 chars {micro['plain']:.1f} us, "
          f"hostile 1000 chars {micro['hostile']:.1f} us")
    elapsed, delivered = asyncio.run(fan_out(watchers, lines))
    said = watchers * lines
    print(f"{said} lines said by {watchers} spectators, {delivered} deliveries: "
          f"{elapsed * 1000:.0f} ms in all, {elapsed / said * 1000:.2f} ms a line "
          f"({delivered / elapsed:.0f} deliveries/s); the players got none of them")


if __name__ == "__main__":
    main()
