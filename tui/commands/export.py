"""Write the games of a file in another program's format (PDN, GGF, WTHOR, transcripts, …)."""

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
    from engine.formats import write_games
    from engine.protocol import ParlorError
    from engine.record import load_records
    from tui.commands.common import one_line

    try:
        data = write_games(load_records(args.file), args.format)
    except ParlorError as exc:
        print(f"parlor export: {one_line(exc)}", file=sys.stderr)
        return 2
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    if args.output is None:
        if isinstance(data, bytes):
            print("parlor export: wtb is a binary format; give a file with -o OUT",
                  file=sys.stderr)
            return 2
        sys.stdout.write(data)
        return 0
    target = Path(args.output)
    try:
        write_atomic(target, raw)
    except OSError as exc:
        print(f"parlor export: cannot write {one_line(args.output)}: "
              f"{exc.strerror or exc}", file=sys.stderr)
        return 2
    return 0
