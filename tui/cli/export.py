"""Write the games of a file in another program's format (PDN, GGF, WTHOR, transcripts, …).

Damaged games are left out, each named on standard error (game number, line, reason);
the exit status is then 1 (the good games are written all the same), 2 when nothing
could be written."""

from __future__ import annotations

import argparse

FORMATS = ("pdn", "ggf", "transcript", "wtb", "pgn", "c4")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", metavar="FILE",
                        help="a game file in any format Parlor reads (records, PDN, GGF, "
                             "WTHOR .wtb, Othello transcripts, Connect Four columns)")
    parser.add_argument("--format", "-f", required=True, choices=FORMATS,
                        help="pdn: checkers; ggf, transcript, wtb: Othello; c4: Connect "
                             "Four columns; pgn: Parlor records (any game)")
    parser.add_argument("-o", "--output", metavar="OUT",
                        help="the file to write (replaced atomically); default: standard "
                             "output (wtb, which is binary, needs -o)")


def run(args: argparse.Namespace) -> int:
    import sys
    from pathlib import Path

    from engine.files import write_atomic
    from engine.formats import load_collection, write_games
    from engine.protocol import ParlorError, RecordError
    from tui.cli.common import one_line

    try:
        found = load_collection(args.file)
        if not found.records:
            raise RecordError(f"{found.damaged[0]} (no game of the file reads)")
        data = write_games(found.records, args.format)
    except ParlorError as exc:
        print(f"parlor export: {one_line(exc)}", file=sys.stderr)
        return 2
    for damage in found.damaged:
        print(f"parlor export: left out {one_line(damage)}", file=sys.stderr)
    if found.damaged:
        print(f"parlor export: {len(found.records)} of {found.total} games written, "
              f"{len(found.damaged)} damaged left out", file=sys.stderr)
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    if args.output is None:
        if isinstance(data, bytes):
            print("parlor export: wtb is a binary format; give a file with -o OUT",
                  file=sys.stderr)
            return 2
        sys.stdout.write(data)
        return 1 if found.damaged else 0
    target = Path(args.output)
    try:
        write_atomic(target, raw)
    except OSError as exc:
        print(f"parlor export: cannot write {one_line(args.output)}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 2
    return 1 if found.damaged else 0
