"""Analyse a recorded game: every move's value, the better move, and marks on mistakes."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from engine.protocol import ParlorError
from tui.cli.common import MAX_SECONDS, float_range, int_range

MAX_GAME = 100_000
"""Highest ``--game`` number accepted (a record file holds far fewer)."""
GRAPH_WIDTH, GRAPH_HEIGHT = 72, 4
"""Size of the evaluation graph under the table, in characters."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a game record (.pgn)")
    parser.add_argument("--game", type=int_range(1, MAX_GAME), default=1, metavar="N",
                        help="which game of the file (default: the first)")
    parser.add_argument("--seconds", type=float_range(0.0, MAX_SECONDS, above=True),
                        default=None, metavar="S",
                        help="seconds per position for the exact oracle, and again for the "
                             "search where the oracle cannot settle it (default: 0.5)")
    parser.add_argument("--search", metavar="SPEC", default=None,
                        help="the brain giving search scores, e.g. alphabeta,depth=6 "
                             "(default: alphabeta for the time per position)")
    parser.add_argument("--json", action="store_true", help="print the analysis as JSON")
    out = parser.add_mutually_exclusive_group()
    out.add_argument("-o", "--output", metavar="OUT",
                     help="write the file with the analysis as comments to OUT "
                          "(never the input file itself)")
    out.add_argument("--write", action="store_true",
                     help="write it to a new file next to FILE (NAME.analysed.pgn, "
                          "NAME.analysed-2.pgn, … : an existing file is never replaced)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress on stderr")


def run(args: argparse.Namespace) -> int:
    import json
    import os
    import time
    from pathlib import Path

    from brains.analysis import (
        DEFAULT_SECONDS,
        SEARCH_SPEC,
        MoveAnalysis,
        analyse_game,
        annotate,
        check_search,
    )
    from engine.formats import load_records
    from engine.protocol import quote
    from engine.record import save_records

    records = load_records(args.file)
    if args.game > len(records):
        print(f"parlor analyse: {quote(args.file)} holds {len(records)} game(s); "
              f"--game {args.game} is not one of them", file=sys.stderr)
        return 2
    target = _target(Path(args.file), args.output, args.write)
    record = records[args.game - 1]
    search = args.search or SEARCH_SPEC
    check_search(search, record.game)
    seconds = args.seconds if args.seconds is not None else DEFAULT_SECONDS
    tty = sys.stderr.isatty()
    started = time.monotonic()

    def progress(m: MoveAnalysis, done: int, total: int) -> None:
        if args.quiet:
            return
        line = f"analysed {done}/{total} moves ({m.kind} values) {time.monotonic() - started:.1f} s"
        print(f"\r{line}" if tty else line, end="" if tty else "\n", file=sys.stderr, flush=True)

    analysis = analyse_game(record, seconds, progress=progress, search_spec=search)
    if tty and not args.quiet and record.moves:
        print(file=sys.stderr)
    if target is not None:
        records[args.game - 1] = annotate(record, analysis)
        if os.path.lexists(target) and args.write:  # raced: another process took the name
            raise FileExistsError(f"{target} appeared while analysing; nothing written")
        save_records(target, records)
        if not args.quiet:
            print(f"parlor analyse: wrote {target}", file=sys.stderr)
    if args.json:
        print(json.dumps(analysis.to_json(), indent=1))  # ASCII: no raw control characters
    else:
        print(_table(analysis))
    return 0


def _target(source: Any, output: str | None, write: bool) -> Any:
    """Where to write the annotated file (None: nowhere); never the input file itself."""
    import os
    from pathlib import Path

    if output is not None:
        out = Path(output)
        if out.exists() and source.exists() and os.path.samefile(out, source):
            raise ParlorError(f"{output[:60]!r} is the input file; give another name "
                             "(the input is never overwritten)")
        if out.is_dir() or not out.parent.is_dir():  # said now, not after the analysis
            raise ParlorError(f"cannot write {output[:60]!r}: a folder, or in no folder")
        return out
    if not write:
        return None
    stem, suffix = source.stem, source.suffix or ".pgn"
    for n in range(1, 1000):
        name = f"{stem}.analysed{'' if n == 1 else f'-{n}'}{suffix}"
        candidate = source.with_name(name)
        if not os.path.lexists(candidate):
            return candidate
    raise FileExistsError(f"no free name {stem}.analysed-N{suffix} next to the input")


def _printable(text: str) -> str:
    """``text`` with every control or unprintable character (terminal escapes) as ``?``."""
    return "".join(c if c.isprintable() else "?" for c in text)


def _value_text(value: Any) -> str:
    from brains.analysis import Exact

    return value.words() if isinstance(value, Exact) else f"{round(value, 2) + 0.0:+.2f}"


def search_words(spec: str, seconds: float) -> str:
    """The search brain in words: ``alphabeta, up to 0.5 s a position`` for the spec
    ``alphabeta,depth=none,seconds=none`` (options set to ``none`` are left out; the
    time a position gets is ``seconds`` unless the spec gives its own)."""
    head, *pairs = [part.strip() for part in spec.split(",")]
    words = [_printable(head[:60])]
    own_seconds = False
    for pair in pairs:
        key, _, value = pair.partition("=")
        key, value = key.strip(), value.strip()
        if value.lower() == "none":
            continue
        own_seconds = own_seconds or key == "seconds"
        words.append(_printable(f"{key} {value}"[:40]))
    if not own_seconds:
        words.append(f"up to {seconds:g} s a position")
    return ", ".join(words)


def _table(analysis: Any) -> str:
    """The analysis as a plain-text table and a summary per player (values: mover's view)."""
    from brains.analysis import MARKS, eval_graph

    record = analysis.record
    rows = [("ply", "player", "move", "kind", "before", "after", "mark", "best")]
    for m in analysis.moves:
        if m is None:
            continue
        mark = f"{m.mark} {MARKS[m.mark]}" if m.mark else ""
        if m.change:
            mark += f" ({m.change})"
        best = f"{m.best} ({_value_text(m.best_value)})" if m.best else ""
        rows.append((str(m.index + 1), "12"[m.player], m.move, m.kind, _value_text(m.before),
                     _value_text(m.after), mark, best))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append("")
    search = search_words(analysis.search_spec, analysis.seconds)
    lines.append("values are from the mover's view: exact = proven (win/draw/loss in N plies), "
                 f"search = score in [-1, 1] from {search}")
    names = tuple(_printable(record.tags.get(tag, default)[:40])
                  for tag, default in (("First", "first player"), ("Second", "second player")))
    for p, s in enumerate(analysis.summary()):
        acc = "-" if s.accuracy is None else f"{s.accuracy:.1f}"
        counts = ", ".join(f"{MARKS[g]} {n}" for g, n in s.marks.items())
        extra = "".join(f", {c} {n}" for c, n in s.changes.items())
        gifts = f", gifts received {s.gifts}" if s.gifts else ""
        lines.append(f"player {p + 1} ({names[p]}): {s.moves} moves, accuracy {acc}, "
                     f"{counts}{extra}{gifts}")
    ascii = "utf" not in (getattr(sys.stdout, "encoding", "") or "").lower()
    graph = eval_graph(analysis.evals(), GRAPH_WIDTH, GRAPH_HEIGHT, ascii=ascii)
    lines.append("")
    lines.append("evaluation, first player's expected score (top: wins, bottom: loses):")
    lines += ["|" + row + "|" for row in graph]
    if not analysis.complete:
        lines.append("(analysis incomplete: some positions were not scored)")
    return "\n".join(lines)
