"""Load benchmark of ``parlor host`` (not a test): N simulated players in N/2 rooms.

Starts a host on 127.0.0.1 (a free port, a temporary data folder), connects N SSH
clients with terminals, pairs them into rooms by keys (F2, create with F4, join by
code) and has every room play tic-tac-toe games by keys (cursor keys and Enter, or
with ``--prompt`` the move typed in notation) with a short human-like pause before
each move. It reports the sessions held, the memory per session (resident set and
proportional set of each session's process: the pages a session shares with the others
count a share each in the second), the median and 95th percentile time from a move's
last key (Enter) to the opponent's screen showing it is their turn, and the CPU time
the play took (from the moment every room was set up): the sessions' per move, the
host process's and this benchmark's own (its simulated clients), figures that do not
depend on what else the machine runs as the times do.

    python -m benchmarks.host_load --players 40

Loopback only; the number of players and the run time are bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

MAX_PLAYERS = 200
LINE = ["b2", "a1", "b1", "c1", "b3"]
"""A tic-tac-toe game: X wins on the b file in five moves."""
UP, DOWN, LEFT, RIGHT = "\x1b[A", "\x1b[B", "\x1b[D", "\x1b[C"
CURSOR = [[], [LEFT, DOWN], [DOWN], [RIGHT, RIGHT], [UP, UP]]
"""The cursor keys before each move of LINE on the mover's board (each board's cursor
starts on b2 and stays where its player left it)."""
_ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|"
                      rb"\x1b[()][0-9A-Za-z]|\x1b[=>78DMEc]")


class Client:
    """One simulated player: an SSH client with a terminal."""

    def __init__(self, conn, process) -> None:  # type: ignore[no-untyped-def]
        self.conn, self.process = conn, process
        self.output = bytearray()
        self.mark = 0
        self.changed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self.read())

    async def read(self) -> None:
        try:
            while data := await self.process.stdout.read(65536):
                self.output += data
                self.changed.set()
        except Exception:  # noqa: BLE001 - a dropped client just stops reading
            pass

    async def expect(self, text: str, timeout: float) -> str:
        end = time.monotonic() + timeout
        while True:
            recent = self.output[max(self.mark, len(self.output) - 32768):]
            shown = _ESCAPES.sub(b"", bytes(recent)).decode("utf-8", "replace")
            if text in shown:
                self.mark = len(self.output)
                return shown
            if time.monotonic() > end:
                tail = " ".join(shown.split())[-300:]
                raise TimeoutError(f"never saw {text!r}; the screen ends: {tail}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 0.5)

    async def type(self, *keys: str) -> None:
        for key in keys:
            for chunk in ([key] if key.startswith("\x1b") else list(key)):
                self.process.stdin.write(chunk.encode())
                await asyncio.sleep(0.03)


async def connect(asyncssh, port: int, name: str) -> Client:  # type: ignore[no-untyped-def]
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn = await asyncssh.connect("127.0.0.1", port, username=name, client_keys=[key],
                                  known_hosts=None, agent_path=None)
    process = await conn.create_process(term_type="xterm-256color", term_size=(100, 30),
                                        encoding=None)
    return Client(conn, process)


async def meet(first: Client, second: Client, timeout: float) -> None:
    """Both open Play a person; the first creates a room, the second joins by its code."""
    for player in (first, second):
        await player.expect("Play a person", timeout)
        await player.type("\x1bOQ")
        await player.expect("Open rooms", timeout)
    await first.type("\x1bOS")
    code = re.search(r"Room ([A-Z2-9]{5}) \(you play", await first.expect("Waiting", timeout))
    assert code, "no room code"
    await second.type(code.group(1), "\r")
    await second.expect("Move 1: X to move", timeout)
    await first.expect("Move 1: your move", timeout)


async def room(first: Client, second: Client, games: int, timeout: float,
               samples: list[float], ready: asyncio.Barrier, prompt: bool,
               think: tuple[float, float], marks: list[CpuMark], host: int) -> None:
    """Pair two players in a room and play ``games`` games, timing each move (once
    every room is set up, so app start-up is not what is measured)."""
    try:
        await meet(first, second, timeout)
    except BaseException:
        await ready.abort()  # the other rooms go on without waiting for this one
        raise
    with contextlib.suppress(asyncio.BrokenBarrierError):
        if await ready.wait() == 0:  # one room notes the CPU used so far
            marks.append(CpuMark(host))
    for game in range(games):
        players = (first, second)
        for ply, text in enumerate(LINE):
            mover, other = players[ply % 2], players[1 - ply % 2]
            await asyncio.sleep(random.uniform(*think))  # a person looks at the board
            if prompt:  # the move typed in notation: m, the move, Enter
                await mover.type("m")
                await mover.expect("Your move", timeout)
                await mover.type(text)
            else:  # the cursor to the square, then Enter
                await mover.type(*CURSOR[ply])
            sent = time.monotonic()
            await mover.type("\r")
            if ply + 1 < len(LINE):
                await other.expect(f"Move {(ply + 1) // 2 + 1}: your move", timeout)
            else:
                await other.expect("Game over", timeout)
            samples.append(time.monotonic() - sent - 0.03)  # less the typing pause
        if game + 1 < games:  # the same two meet again in a new room
            for player in (first, second):
                await player.type("e")
                await player.expect("Open rooms", timeout)
            await first.type("\x1bOS")
            shown = await first.expect("Waiting", timeout)
            code = re.search(r"Room ([A-Z2-9]{5}) \(you play", shown)
            assert code, "no room code"
            await second.type(code.group(1), "\r")
            await first.expect("Move 1: your move", timeout)


def rss_kib(pid: int) -> int:
    """Resident set size of a process in KiB (0 if it is gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def pss_kib(pid: int) -> int:
    """Proportional set size of a process in KiB: each page it shares with others counts
    a share (0 if it is gone, or the kernel does not say)."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """User and system CPU seconds a process has used (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    """User and system CPU seconds this process (the simulated clients) has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class CpuMark:
    """CPU seconds of the sessions, the host and the clients at one moment."""

    def __init__(self, host: int) -> None:
        self.host_pid = host
        self.sessions = {pid: cpu_seconds(pid) for pid in children(host)}
        self.host = cpu_seconds(host)
        self.clients = own_cpu_seconds()


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


async def run(players: int, games: int, timeout: float, prompt: bool,
              think: tuple[float, float]) -> int:
    import asyncssh

    load = os.getloadavg()[0]  # what else the machine was running
    data = Path(tempfile.mkdtemp(prefix="parlor-host-load-"))
    root = str(Path(__file__).resolve().parents[1])
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root, os.environ.get("PYTHONPATH", "")]))
    # the host runs in its own process, as it would in use: the simulated clients'
    # work (SSH, reading screens) is not charged to it
    host = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tui.cli", "host", "--port", "0", "--bind", "127.0.0.1",
        "--data", str(data), "--max-sessions", str(players),
        "--per-minute", str(players + 10), "--per-address", str(players + 10),
        env=env, stdout=asyncio.subprocess.PIPE)  # every simulated player is on 127.0.0.1
    assert host.stdout is not None
    banner = (await asyncio.wait_for(host.stdout.readline(), 60)).decode()
    port = int(re.search(r"port (\d+)", banner).group(1))  # type: ignore[union-attr]
    started = time.monotonic()
    samples: list[float] = []
    failed: list[BaseException] = []
    try:
        clients = []
        for i in range(players):  # connect a few at a time, as people arrive
            clients.append(await connect(asyncssh, port, f"p{i}"))
            await asyncio.sleep(0.05)
        connected = time.monotonic() - started
        ready = asyncio.Barrier(players // 2)
        marks: list[CpuMark] = []
        pairs = [room(clients[i], clients[i + 1], games, timeout, samples, ready, prompt,
                      think, marks, host.pid)
                 for i in range(0, players - 1, 2)]
        results = await asyncio.gather(*pairs, return_exceptions=True)
        failed = [r for r in results if isinstance(r, BaseException)]
        end = CpuMark(host.pid)
        sessions = children(host.pid)
        held = len(sessions)
        rss = [rss_kib(pid) for pid in sessions]
        pss = [pss_kib(pid) for pid in sessions]
        host_rss = rss_kib(host.pid)
        for client in clients:
            client.conn.close()
    finally:
        host.terminate()
        await asyncio.wait_for(host.wait(), 30)
    if not samples:
        print(f"no moves timed; {len(failed)} rooms failed: {failed[:3]}")
        return 1
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    print(f"players {players} in {players // 2} rooms, {games} game(s) each, moves by "
          f"{'the m prompt' if prompt else 'cursor keys'}; "
          f"{think[0]:g}-{think[1]:g} s to think before each move; "
          f"{os.cpu_count()} CPUs, load average {load:.2f} before; connected in "
          f"{connected:.1f} s")
    print(f"sessions held: {held}/{players}; rooms failed: {len(failed)}"
          + (f" (first: {failed[0]!r:.100})" if failed else ""))
    if rss:
        print(f"memory per session: median {statistics.median(rss) / 1024:.1f} MiB RSS "
              f"(max {max(rss) / 1024:.1f}), {statistics.median(pss) / 1024:.1f} MiB PSS; "
              f"the host process itself {host_rss / 1024:.1f} MiB RSS")
    if marks:
        start = marks[0]
        spent = sum(end.sessions.get(pid, 0.0) - before
                    for pid, before in start.sessions.items())
        moves = max(1, len(samples))
        print(f"CPU while playing: sessions {spent:.1f} s ({spent / moves * 1000:.0f} ms a "
              f"move, both players' apps), host {end.host - start.host:.1f} s, "
              f"clients {end.clients - start.clients:.1f} s")
    print(f"key to opponent's screen over {len(samples)} moves: median "
          f"{statistics.median(samples) * 1000:.0f} ms, p95 {p95 * 1000:.0f} ms, "
          f"max {ordered[-1] * 1000:.0f} ms")
    return 0 if not failed else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.host_load",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=40, help="even, 2 to 200 (default 40)")
    parser.add_argument("--games", type=int, default=1, help="games per room (default 1)")
    parser.add_argument("--prompt", action="store_true",
                        help="type moves in notation (m, move, Enter) instead of cursor keys")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="longest wait for any screen, seconds (default 120)")
    parser.add_argument("--think", default="0.3-1.0", metavar="LO-HI",
                        help="seconds a player looks at the board before each move, drawn "
                             "evenly from LO to HI (default 0.3-1.0: every room in a hurry; "
                             "people take more like 3-10)")
    args = parser.parse_args(argv)
    match = re.fullmatch(r"(\d{1,2}(?:\.\d+)?)-(\d{1,2}(?:\.\d+)?)", args.think)
    if not match or float(match.group(1)) > float(match.group(2)):
        parser.error("--think must be LO-HI in seconds, such as 3-10")
    think = (float(match.group(1)), float(match.group(2)))
    if not 2 <= args.players <= MAX_PLAYERS or args.players % 2 or not 1 <= args.games <= 20:
        parser.error(f"--players must be even, 2 to {MAX_PLAYERS}; --games 1 to 20")
    limit = 60 + args.players * 20.0 + args.games * (120 + 5 * think[1])
    return asyncio.run(asyncio.wait_for(
        run(args.players, args.games, args.timeout, args.prompt, think), limit))


if __name__ == "__main__":
    sys.exit(main())
