"""``python -m brains.morrisdb build|verify|info``: build, check or describe the database."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Self

from brains.morrisdb import db as dbmod
from engine.games.morris import PIECES


class _Bar:
    """A progress bar on stderr (rich when stderr is a terminal, else a line a second)."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.rich: Any = None
        self.task: Any = None
        self.last = 0.0
        self.started = time.monotonic()
        if sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self.rich = Progress(TextColumn("{task.description}"), BarColumn(),
                                 TextColumn("{task.percentage:>3.0f}%"), TimeElapsedColumn(),
                                 console=Console(stderr=True), transient=True)

    def __enter__(self) -> Self:
        if self.rich is not None:
            self.rich.__enter__()
            self.task = self.rich.add_task(self.title, total=1)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.rich is not None:
            self.rich.__exit__(*exc)

    def __call__(self, done: int, total: int, what: str) -> None:
        if self.rich is not None:
            self.rich.update(self.task, completed=done, total=total,
                             description=f"{self.title}: {what}")
            return
        now = time.monotonic()
        if now - self.last >= 1.0 or done == total:
            self.last = now
            print(f"{self.title}: {100 * done // max(total, 1):3d}% {what} "
                  f"({now - self.started:.0f} s)", file=sys.stderr, flush=True)


def main(argv: list[str] | None = None) -> int:
    """Run the command; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m brains.morrisdb",
                                     description="The solved Five Men's Morris database.")
    sub = parser.add_subparsers(dest="command", required=True)
    build = sub.add_parser("build", help="solve the game and write the database")
    build.add_argument("--out", type=Path, default=None, help="file (default: the shipped one)")
    build.add_argument("--pieces", type=int, default=PIECES,
                       help="pieces a side (fewer solves a smaller game, for tests)")
    build.add_argument("--no-reachable", action="store_true",
                       help="skip counting the positions reachable from the start")
    verify = sub.add_parser("verify", help="check every position against its children")
    verify.add_argument("path", type=Path, nargs="?", default=None)
    verify.add_argument("--sample", type=int, default=2000,
                        help="positions also checked against the engine's own moves")
    info = sub.add_parser("info", help="print the manifest's figures")
    info.add_argument("path", type=Path, nargs="?", default=None)
    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            out = args.out or dbmod.default_path()
            with _Bar("solving Morris") as bar:
                manifest = dbmod.build(out, bar, pieces=args.pieces,
                                       count_reachable=not args.no_reachable,
                                       command="python -m brains.morrisdb build"
                                       + (f" --pieces {args.pieces}"
                                          if args.pieces != PIECES else ""))
            stats = manifest["stats"]
            print(f"{out}: {manifest['bytes']} bytes, {stats['positions']} positions, "
                  f"start {stats['start']}, longest win {stats['longest_win']} plies, "
                  f"solved in {stats['solve_seconds']} s")
            return 0
        db = dbmod.open_db(args.path)
        if args.command == "info":
            print(json.dumps(db.manifest, indent=2))
            return 0
        with _Bar("checking") as bar:
            bad = db.verify(bar)
        wrong = dbmod.sample_check(db, args.sample)
        for line in wrong[:20]:
            print(line)
        print(f"{db.path.name}: {db.layout.size} positions, {bad} disagree with their "
              f"children; {len(wrong)} of {args.sample} disagree with the engine's moves")
        return 0 if not bad and not wrong else 1
    except dbmod.MorrisDBError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
