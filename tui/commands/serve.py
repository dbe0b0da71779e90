"""Serve the app to a web browser (the serve extra: pip install -e ".[serve]" in a clone).

Or pip install "parlor[serve]" where Parlor is installed as a package.

Each browser session runs ``parlor play`` in its own process, with the same game store
as the terminal (one file per game, see :mod:`tui.store`): a browser session starts its
own games and never replaces one a terminal session is playing.
"""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="localhost", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")


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
    command = f"{shlex.quote(sys.executable)} -m tui.cli play"
    Server(command, host=args.host, port=args.port, title="Parlor").serve()
    return 0
