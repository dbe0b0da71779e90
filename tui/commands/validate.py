"""Check game record files: each prints `FILE: ok (N games)` or `FILE: line L: reason`."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files to check")


def run(args: argparse.Namespace) -> int:
    from engine import ParlorError
    from engine.record import load_records
    from tui.commands.common import one_line

    ok = True
    for path in args.files:
        try:
            records = load_records(path)
        except ParlorError as exc:
            print(one_line(exc))
            ok = False
        else:
            print(f"{path}: ok ({len(records)} game{'s' if len(records) != 1 else ''})")
    return 0 if ok else 1
