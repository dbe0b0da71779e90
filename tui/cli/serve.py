"""Serve the app to a web browser (the serve extra: pip install -e ".[serve]" in a clone).

Or pip install "parlor[serve]" where Parlor is installed as a package.

Each browser session runs ``parlor play`` in its own process, with the same game store
as the terminal (one file per game, see :mod:`tui.player.store`): a browser session starts its
own games and never replaces one a terminal session is playing. It has no rooms: to let
browsers play each other, and players over SSH, ``parlor host --web PORT`` serves the
same app with rooms (:mod:`tui.host.web`).
"""

from __future__ import annotations

import argparse

ROOMS_HINT = ("Each browser plays on its own here (no rooms). For rooms where browsers "
              "play each other and players over SSH, run: parlor host --web PORT "
              "(see docs/HOSTING.md, From a browser).")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="localhost", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.epilog = ROOMS_HINT


def run(args: argparse.Namespace) -> int:
    import shlex
    import sys

    try:
        from textual_serve.server import Server
    except ImportError:
        print("parlor serve: textual-serve is not installed; install the extra: "
              "pip install -e \".[serve]\" in a clone, or pip install \"parlor[serve]\"",
              file=sys.stderr)
        return 1
    print(f"parlor serve: {ROOMS_HINT}", flush=True)
    command = f"{shlex.quote(sys.executable)} -m tui.cli play"
    Server(command, host=args.host, port=args.port, title="Parlor").serve()
    return 0
