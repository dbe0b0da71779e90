"""Serve Parlor over SSH to a group, with rooms to play and watch (needs parlor[host]).

With ``--web PORT`` the same host also serves browsers (needs parlor[serve] too): they
play in the same rooms as the SSH players, as guests (docs/HOSTING.md, From a browser).
"""

from __future__ import annotations

import argparse
import contextlib

from tui.cli.common import int_range


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int_range(0, 65535), default=2222,
                        help="port to listen on (default 2222)")
    parser.add_argument("--bind", default="0.0.0.0", metavar="ADDR",
                        help="address to listen on (default all: 0.0.0.0)")
    parser.add_argument("--data", default=None, metavar="DIR",
                        help="folder for the host key, rooms and players' games "
                             "(default: host/ in Parlor's data folder)")
    parser.add_argument("--max-sessions", type=int_range(1, 10_000), default=40, metavar="N",
                        help="players connected at once (default 40)")
    parser.add_argument("--keys", default=None, metavar="FILE",
                        help="admit only the keys in this authorized_keys file")
    parser.add_argument("--per-minute", type=int_range(1, 10_000), default=30, metavar="N",
                        help="connections one address may open per minute (default 30)")
    parser.add_argument("--per-address", type=int_range(1, 10_000), default=8, metavar="N",
                        help="connections one address may hold open at once (default 8)")
    parser.add_argument("--login-grace", type=int_range(1, 600), default=20, metavar="SECONDS",
                        help="close a connection that has not logged in and started its "
                             "session in this time (default 20)")
    parser.add_argument("--resizes", type=int_range(1, 100), default=1, metavar="N",
                        help="window resizes applied per session per second, after a burst "
                             "of 2; more are folded into the next (default 1)")
    parser.add_argument("--rooms-per-player", type=int_range(1, 100), default=3, metavar="N",
                        help="games in progress one player may hold seats in (default 3)")
    parser.add_argument("--rooms-per-minute", type=int_range(1, 1000), default=6, metavar="N",
                        help="rooms one player may create per minute (default 6)")
    parser.add_argument("--idle", type=int_range(10, 86_400), default=1800, metavar="SECONDS",
                        help="end a session with no key pressed for this long (default 1800)")
    parser.add_argument("--brains", type=int_range(1, 256), default=None, metavar="N",
                        help="brain searches at once across the host (default: half the CPUs)")
    parser.add_argument("--web", type=int_range(0, 65535), default=None, metavar="PORT",
                        help="also serve browsers on this port, in the same rooms "
                             "(needs parlor[serve])")
    parser.add_argument("--web-bind", default=None, metavar="ADDR",
                        help="address the web port listens on (default: as --bind)")
    parser.add_argument("--web-url", default="", metavar="URL",
                        help="address browsers use, when the web port is behind a proxy "
                             "(e.g. https://play.example.org)")
    parser.add_argument("--backup", default=None, metavar="FILE",
                        help="copy the host's database (host.db in --data) to FILE, safely "
                             "while the host runs, and exit; FILE must not exist")


def run(args: argparse.Namespace) -> int:
    import asyncio
    import sys
    from pathlib import Path

    if args.backup is not None:
        return backup(args)
    try:
        from tui.host.server import HostConfig, serve
    except ImportError:
        print("parlor host: asyncssh is not installed; install the extra with\n"
              "  pip install 'parlor[host]'   (or: pip install asyncssh)", file=sys.stderr)
        return 1
    if args.web is not None:
        try:
            import textual_serve  # noqa: F401
        except ImportError:
            print("parlor host: --web needs textual-serve; install the extra with\n"
                  "  pip install 'parlor[host,serve]'   (or: pip install textual-serve)",
                  file=sys.stderr)
            return 1
    if args.web_url and not args.web_url.startswith(("http://", "https://")):
        print(f"parlor host: --web-url must start with http:// or https://, "
              f"not {args.web_url[:60]!r}", file=sys.stderr)
        return 2
    from tui.player import paths

    data = Path(args.data).expanduser() if args.data else paths.data_dir() / "host"
    config = HostConfig(data=data, port=args.port, bind=args.bind,
                        max_sessions=args.max_sessions,
                        keys=Path(args.keys).expanduser() if args.keys else None,
                        per_minute=args.per_minute, idle_seconds=float(args.idle),
                        per_address=args.per_address, login_seconds=float(args.login_grace),
                        resizes_per_second=float(args.resizes),
                        rooms_per_player=args.rooms_per_player,
                        rooms_per_minute=args.rooms_per_minute,
                        web_port=args.web, web_bind=args.web_bind, web_url=args.web_url)
    if args.brains:
        config.brain_slots = args.brains
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(serve(config))
    return 0


def backup(args: argparse.Namespace) -> int:
    """``--backup FILE``: SQLite's online backup of the host's database to FILE."""
    import sys
    from pathlib import Path

    from tui.host.db import HostDataError
    from tui.host.db import backup as copy
    from tui.player import paths

    data = Path(args.data).expanduser() if args.data else paths.data_dir() / "host"
    target = Path(args.backup).expanduser()
    try:
        version = copy(data, target)
    except HostDataError as error:
        print(f"parlor host: backup: {error}", file=sys.stderr)
        return 1
    print(f"parlor host: backed up the host's database (schema version {version}) "
          f"to {target}")
    return 0
