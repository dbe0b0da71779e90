"""Explore openings: the moves played from a position in game collections, with results.

Each FILE (any format Parlor reads) is indexed once and the index kept in the player's
data directory (rebuilt when the file changes); without FILE, or with ``--mine``, the
player's own games (finished and saved) and the databases among their saved games (files
of other formats) are explored too. A row per move: how many games
played it, the win / draw / loss share of those with a result from the view of the side
to move, and its exact value where a solver settles the position within
``--exact-seconds``."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tui.cli.common import MAX_SECONDS, float_range

MAX_FILES = 64
"""Most collections one command explores."""
NOTE_SECONDS = 1.0
"""A build that takes longer is reported on stderr (with progress for large files)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="*", metavar="FILE",
                        help="game files in any format Parlor reads (records, PDN, GGF, "
                             "WTHOR .wtb, Othello transcripts, Connect Four columns)")
    parser.add_argument("--game", metavar="ID",
                        help="the game to explore (default: the one the files hold)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option of the start position, e.g. -o size=6 (repeatable)")
    parser.add_argument("--moves", default="", metavar="MOVES",
                        help='the position after these moves from the start, e.g. "f5 d6" '
                             "(default: the start position)")
    parser.add_argument("--mine", action="store_true",
                        help="explore your own games (finished and saved) and the "
                             "databases among your saved games as well as FILE")
    parser.add_argument("--exact-seconds", type=float_range(0.0, MAX_SECONDS), default=None,
                        metavar="S", help="time the exact solver may take for the position "
                                          "(default: 0.5; 0: no exact values)")
    parser.add_argument("--rebuild", action="store_true",
                        help="rebuild the indexes even if they are up to date")
    parser.add_argument("--json", action="store_true", help="print the rows as JSON")


def run(args: argparse.Namespace) -> int:
    import json
    import time

    from engine.protocol import ParlorError, quote
    from engine.registry import get_game
    from tui.cli.common import one_line, parse_options
    from tui.player import explorer

    if len(args.files) > MAX_FILES:
        raise ParlorError(f"at most {MAX_FILES} files at once (got {len(args.files)})")
    wanted = [explorer.file_collection(name) for name in args.files]
    if args.mine or not wanted:  # your games, and the databases among your saved games
        wanted.extend(explorer.collections_for())
    collections: list[explorer.Collection] = []
    for collection in wanted:  # a file named twice (or by two paths) counts once
        if all(c.index_path != collection.index_path for c in collections):
            collections.append(collection)
    indexes = []
    for collection in collections:
        started = time.perf_counter()

        def progress(done: int, total: int, name: str = collection.name) -> None:
            if not args.json and total >= 5 * explorer.PROGRESS_EVERY:
                print(f"indexing {one_line(name)}: {done}/{total} games", file=sys.stderr)

        index = explorer.open_index(collection, progress, rebuild=args.rebuild)
        took = time.perf_counter() - started
        if index.built and not args.json and took >= NOTE_SECONDS:
            print(f"indexed {one_line(collection.name)}: {index.games} games"
                  + (f", {index.damaged} damaged skipped" if index.damaged else "")
                  + f" in {took:.1f} s", file=sys.stderr)
        for problem in index.problems:
            print(f"parlor explore: skipped: {one_line(problem)}", file=sys.stderr)
        indexes.append(index)

    games: dict[str, int] = {}
    for index in indexes:
        for game_id, count in index.by_game.items():
            games[game_id] = games.get(game_id, 0) + count
    if args.game is not None:
        game_id = args.game.strip().lower()
    elif len(games) == 1:
        game_id = next(iter(games))
    elif not games:
        raise ParlorError("no games to explore in "
                          + ", ".join(one_line(c.name) for c in collections)
                          + " (give --game to see an empty table)")
    else:
        raise ParlorError(f"the collections hold several games ({', '.join(sorted(games))}); "
                          f"choose one with --game")
    start = get_game(game_id).initial(**parse_options(args.option))
    try:
        state = start.play_line(args.moves)
    except ParlorError as exc:
        raise ParlorError(f"--moves {quote(args.moves)}: {one_line(exc)}") from None
    seconds = explorer.EXACT_SECONDS if args.exact_seconds is None else args.exact_seconds
    rows = explorer.explore(indexes, state, seconds)
    total = sum(r.games for r in rows)
    side = state.PLAYERS[state.to_move]
    if args.json:
        out: dict[str, Any] = {
            "game": game_id, "moves": state.split_moves(args.moves), "to_move": side,
            "games": total, "rows": [r.to_json() for r in rows],
            "collections": [{"source": i.collection.name, "games": i.games,
                             "damaged": i.damaged, "built": i.built} for i in indexes]}
        print(json.dumps(out, indent=2))
        return 0
    where = f"after {' '.join(state.split_moves(args.moves))}" if args.moves.strip() \
        else "start position"
    print(f"{game_id}, {where}: {side} to move; {total} game{'s' if total != 1 else ''} "
          f"went on from here")
    if not rows:
        print("no game in the collections reached this position"
              if state.outcome() is None else "the game is over here")
        return 0
    print(table(rows))
    return 0


def table(rows: list[Any]) -> str:
    """The rows as a fixed-width table: move, games, win/draw/loss %, exact value."""
    head = ("move", "games", "win %", "draw %", "loss %", "exact")
    lines: list[tuple[str, ...]] = [head]
    for row in rows:
        shares = row.shares()
        cells = ("-", "-", "-") if shares is None else tuple(f"{s:.1f}" for s in shares)
        lines.append((row.text, str(row.games), *cells,
                      row.exact.words() if row.exact is not None else ""))
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    out = []
    for line in lines:
        padded = [line[0].ljust(widths[0])] + [c.rjust(w) for c, w in zip(line[1:5], widths[1:5],
                                                                         strict=True)]
        out.append("  ".join([*padded, line[5]]).rstrip())
    return "\n".join(out)
