"""Puzzles: find the move that keeps the win (or the draw), each proven by an exact solver.

With no option, plays the shipped puzzles of a game in the terminal: shows a position,
reads a move line (an empty line skips, ``q`` quits). ``--list`` and ``--show N`` print
them; ``--from FILE`` makes puzzles of an analysed game's ``??`` moves; ``--build``
builds puzzle files from seeded self-play (one process; deterministic)."""

from __future__ import annotations

import argparse
from typing import Any

MAX_COUNT = 100_000
MAX_SEED = 2**31 - 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from tui.cli.common import int_range

    parser.add_argument("--game", "-g", metavar="ID",
                        help="the game (default: connect4 to play or list; every game with "
                             "an exact solver to build)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--build", action="store_true",
                      help="build puzzle files from seeded self-play")
    what.add_argument("--list", action="store_true", help="list the puzzles")
    what.add_argument("--show", type=int_range(1, MAX_COUNT), metavar="N",
                      help="show puzzle N (from 1) with its solution")
    what.add_argument("--from", dest="record", metavar="FILE",
                      help="puzzles from the ?? moves of an analysed game record "
                           "(parlor analyse --annotate writes one)")
    parser.add_argument("--count", "-n", type=int_range(0, MAX_COUNT), default=1000,
                        metavar="N", help="puzzles to build per game (default 1000)")
    parser.add_argument("--seed", type=int_range(0, MAX_SEED), default=0, metavar="S",
                        help="seed of the self-play games (default 0)")
    parser.add_argument("--out", metavar="DIR",
                        help="where --build writes (default: the shipped puzzles folder); "
                             "with --from, a puzzle file to write")
    parser.add_argument("--file", metavar="FILE", help="play or list a puzzle file instead "
                                                       "of the shipped puzzles")
    parser.add_argument("--start", type=int_range(1, MAX_COUNT), default=1, metavar="N",
                        help="the first puzzle to play (default 1)")


def run(args: argparse.Namespace) -> int:
    if args.build:
        return _build(args)
    if args.record is not None:
        return _from_record(args)
    puzzles = _load(args)
    if args.list:
        for n, p in enumerate(puzzles, 1):
            print(f"{n:5d}  {p.id}  {p.rating:6.0f}  keep the {p.goal:<4}  {p.position}")
        return 0
    if args.show is not None:
        if args.show > len(puzzles):
            print(f"parlor puzzles: there are {len(puzzles)} puzzles; --show takes 1 to "
                  f"{len(puzzles)}")
            return 2
        _print(puzzles[args.show - 1], args.show, solution=True)
        return 0
    return _play(puzzles, args.start)


def _load(args: argparse.Namespace) -> list[Any]:
    from brains import puzzles as pz
    from engine.registry import get_game

    if args.file is not None:
        found = pz.read_puzzles(args.file)
        if args.game is not None:
            game = get_game(args.game).id
            found = [p for p in found if p.game == game]
        return found
    return pz.load_shipped(args.game or "connect4")


def _print(puzzle: Any, number: int, solution: bool = False) -> None:
    state = puzzle.state()
    print(f"Puzzle {number} ({puzzle.game}, rated {puzzle.rating:.0f}): {puzzle.prompt()}")
    print(str(state))
    print(f"position: {puzzle.position}")
    if solution:
        print(f"solution: {puzzle.solution} ({puzzle.value})")
        for w in puzzle.wrong:
            line = " ".join(w.line) or "-"
            print(f"  {w.move}: {w.value}; refuted by {line}")
        if puzzle.source:
            print(f"from {puzzle.source}")


def _play(puzzles: list[Any], start: int) -> int:
    import sys

    from brains import puzzles as pz
    from engine.protocol import ParlorError
    from tui.cli.common import one_line

    solved = tried = 0
    for number in range(start, len(puzzles) + 1):
        puzzle = puzzles[number - 1]
        try:
            state = pz.check_puzzle(puzzle)
        except ParlorError as exc:
            print(f"puzzle {number}: skipped: {one_line(exc)}")
            continue
        _print(puzzle, number)
        while True:
            print("your move (empty: skip, q: quit): ", end="", flush=True)
            line = sys.stdin.readline(200)
            if not line or line.strip().lower() in ("q", "quit"):
                print(f"\nsolved {solved} of {tried}")
                return 0
            text = line.strip()
            if not text:
                print(f"skipped; the answer was {puzzle.solution}")
                break
            try:
                state.parse_move(text)
            except ParlorError as exc:
                print(one_line(exc))
                continue
            tried += 1
            if puzzle.is_right(text):
                solved += 1
                print(f"right: {puzzle.solution} keeps the {puzzle.goal} ({puzzle.value})")
            else:
                wrong = puzzle.refutation(text)
                why = f" ({wrong.value})" if wrong else ""
                line_text = " ".join(wrong.line) if wrong and wrong.line else "-"
                print(f"wrong{why}: the solver answers {line_text}; "
                      f"the move was {puzzle.solution}")
            break
    print(f"solved {solved} of {tried}")
    return 0


def _build(args: argparse.Namespace) -> int:
    import sys
    import time
    from pathlib import Path

    from brains import puzzles as pz
    from brains.analysis import ORACLES
    from engine.registry import get_game

    games = [get_game(args.game).id] if args.game else sorted(ORACLES)
    folder = Path(args.out) if args.out else pz.puzzles_dir()
    for game in games:
        started = time.monotonic()
        def progress(found: int, judged: int, played: int, game: str = game,
                     started: float = started, step: int = max(1, args.count // 20)) -> None:
            if found % step == 0 or found == args.count:
                print(f"{game}: {found}/{args.count} puzzles ({judged} positions judged, "
                      f"{played} games, {time.monotonic() - started:.0f} s)",
                      file=sys.stderr, flush=True)

        found = pz.build(game, args.count, args.seed, progress)
        seconds = time.monotonic() - started
        command = f"parlor puzzles --build --game {game} --count {args.count} --seed {args.seed}"
        path = pz.write_puzzles(folder, game, found, command=command, seed=args.seed,
                                seconds=seconds)
        short = "" if len(found) == args.count else " (the game has no more)"
        print(f"{game}: {len(found)} puzzles{short} in {seconds:.1f} s -> {path.name}")
    return 0


def _from_record(args: argparse.Namespace) -> int:
    from pathlib import Path

    from brains import puzzles as pz
    from engine.formats import load_records

    found = []
    for record in load_records(args.record):
        found += pz.from_record(record)
    if args.out:
        games = {p.game for p in found}
        Path(args.out).write_text(pz.format_puzzles(",".join(sorted(games)) or "none", found),
                                  encoding="utf-8")
    for n, p in enumerate(found, 1):
        _print(p, n, solution=True)
    print(f"{len(found)} puzzle{'s' if len(found) != 1 else ''} from {Path(args.record).name}")
    return 0
