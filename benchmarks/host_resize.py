"""What a client resizing its window in a loop costs ``parlor host`` (not a test).

Starts a host on 127.0.0.1 (a free port, a temporary data folder), connects one SSH
client with a terminal, waits for Home, then changes the window size ``--rate`` times a
second for ``--seconds`` seconds. It reports the resizes applied to the app and the CPU
time its process used meanwhile, as a share of one core, for each ``--resizes`` setting
given (the host's per-session throttle; a large value is no throttle).

    python -m benchmarks.host_resize --rate 10 --seconds 15 --resizes 2 1000

Loopback only; the rate and the run time are bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def one(resizes: float, rate: float, seconds: float) -> tuple[int, int, float]:
    import asyncssh

    from tui.host.server import Host, HostConfig, Session

    root = Path(__file__).resolve().parents[1]
    env = {"PYTHONPATH": os.pathsep.join([str(root), os.environ.get("PYTHONPATH", "")])}
    with tempfile.TemporaryDirectory() as data:
        host = Host(HostConfig(data=Path(data), port=0, bind="127.0.0.1",
                               python=sys.executable, env=env, resizes_per_second=resizes))
        await host.start()
        try:
            key = asyncssh.generate_private_key("ssh-ed25519")
            conn = await asyncssh.connect("127.0.0.1", host.port, username="flood",
                                          client_keys=[key], known_hosts=None, agent_path=None)
            process = await conn.create_process(term_type="xterm-256color",
                                                term_size=(100, 30), encoding=None)
            seen = b""
            while b"Play a person" not in seen:
                seen += await asyncio.wait_for(process.stdout.read(65536), 60)

            async def drain() -> None:
                while await process.stdout.read(65536):
                    pass

            reader = asyncio.get_running_loop().create_task(drain())
            [session] = [s for s in host.sessions if isinstance(s, Session)]
            assert session.proc is not None
            await asyncio.sleep(2)  # Home settles
            before = cpu_seconds(session.proc.pid)
            steps = int(rate * seconds)
            for step in range(steps):
                process.change_terminal_size(90 + step % 30, 28 + step % 5)
                await asyncio.sleep(1 / rate)
            if not steps:  # the baseline: the same time with no resize at all
                await asyncio.sleep(seconds)
            used = cpu_seconds(session.proc.pid) - before
            applied = session.resizes_applied
            conn.close()
            reader.cancel()
            return steps, applied, used / seconds
        finally:
            await host.stop()


async def run(settings: list[float], rate: float, seconds: float) -> None:
    print(f"one client resizing {rate:g} times a second for {seconds:g} s")
    _, _, idle = await one(settings[0], 0.0, seconds)
    print(f"  (no resize at all: the app used {idle:.2f} of a core)")
    for resizes in settings:
        asked, applied, share = await one(resizes, rate, seconds)
        print(f"  --resizes {resizes:g}: {applied} of {asked} resizes applied; "
              f"the app used {share:.2f} of a core")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.host_resize",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--rate", type=float, default=10.0, help="resizes a second (1-100)")
    parser.add_argument("--seconds", type=float, default=15.0, help="flood time (1-120)")
    parser.add_argument("--resizes", type=float, nargs="+", default=[2.0, 1000.0],
                        help="the host's --resizes settings to compare (default 2 1000)")
    args = parser.parse_args(argv)
    rate, seconds = min(100.0, max(1.0, args.rate)), min(120.0, max(1.0, args.seconds))
    asyncio.run(run(args.resizes, rate, seconds))
    return 0


if __name__ == "__main__":
    sys.exit(main())
