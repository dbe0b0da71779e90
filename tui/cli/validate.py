"""Check game record files: `FILE: ok (N games)`, or one line per damaged game
(`FILE: game N: line L: reason`) and how many of the file's games read."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files to check")


def run(args: argparse.Namespace) -> int:
    from engine import ParlorError
    from engine.formats import load_collection
    from tui.cli.common import one_line

    ok = True
    for path in args.files:
        try:
            found = load_collection(path)
        except ParlorError as exc:
            print(one_line(exc))
            ok = False
            continue
        if not found.damaged:
            count = len(found.records)
            print(f"{path}: ok ({count} game{'s' if count != 1 else ''})")
            continue
        ok = False
        for damage in found.damaged:
            print(one_line(damage))
        print(f"{path}: {len(found.records)} of {found.total} games read, "
              f"{len(found.damaged)} damaged")
    return 0 if ok else 1
