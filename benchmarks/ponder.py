"""Checkers against Ponder: a Parlor brain plays Ponder, an American checkers engine.

Usage: python -m benchmarks.ponder [--engine PATH] [--spec SPEC] [--games N]
    [--seconds S] [--opening K] [--seed S] [--timeout T] [--json]

Ponder (Gong Jie's checkers engine in C++, GPL) is built from its public repository
(neo954/checkers) with ``make``; pass its ``ponder`` binary as ``--engine`` (default
``build/ponder/ponder``). Without it the benchmark says so and exits 0 (nothing measured).

The two engines play in lock step over Ponder's console protocol. Ponder is kept in
force mode (it only records the moves it is sent, and does not think on the opponent's
time); ``st S`` gives it S seconds a move; ``go`` makes it move, after which it is put
back in force mode. Both programs number the squares 1..32 in the standard way (Black
on 1..12, moving first) and write a step ``11-15``; a capture goes to Ponder one hop a
line (``15x24``, ``24x31``), as Ponder prints its own. Every Ponder move is checked legal
in Parlor's engine, every Parlor move must be accepted by Ponder, and where Parlor's game
ends with a win (no legal move) Ponder must name the same winner. Ponder knows no draw:
Parlor's rules end the game (threefold repetition, the 40-move rule; docs/RULES.md).
Ponder's board does not remember which piece is capturing, so now and then it goes on
with a capture by another piece that can jump (``22x13`` then ``14x5``): an illegal move,
and like any referee the benchmark scores the game as lost for Ponder (a forfeit, shown
as such; the summary also gives the score over the games played out). Any other move
that is not Parlor's stops the match as a mismatch.

Sides alternate (the Parlor brain has Black in games 1, 3, 5, ...), each pair of games
after the same ``--opening`` random plies (seeded by ``--seed``), as ``parlor match``
does. Prints each game, then a table (games, W/D/L, score with its 95 % interval,
Parlor's CPU seconds a move, Ponder's seconds a move and its CPU seconds, read from
/proc) and with ``--json`` one JSON line. Ponder's limit is wall-clock time: on a loaded
machine it searches less in its second than it would alone. When Ponder answers ``go``
without a move (its first iteration not done in time, or, in some lost positions, its
hash table answering the root without a move), it is asked again, then restarted on the
position (see ``Ponder.move``); the table says how often.
If Ponder dies, refuses a move or gives no answer within ``--timeout`` seconds, one line
says so, the process is killed and the games finished so far are reported (exit 1).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import queue
import random
import re
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.egaroucid import interval

DEFAULT_ENGINE = Path("build") / "ponder" / "ponder"
HOP = re.compile(r"\d{1,2}[-x]\d{1,2}")
"""One line of a move as Ponder writes it (a step, or one hop of a capture)."""
SYNC_TIMEOUT = 30.0
"""Seconds Ponder may take to answer ``ping`` (it answers at once unless stuck)."""
PROMPT = re.compile(r"\*\*\* (Black|White) \*\*\*")
WINNER = re.compile(r"\{(Black|White) win\}")


class PonderError(RuntimeError):
    """Ponder died, gave no answer in time, or refused a move."""


class MismatchError(RuntimeError):
    """The engines disagree (a move legal in one and not the other, or the result)."""


class BrokenJumpError(MismatchError):
    """Ponder went on with a capture by another piece than the one that jumped (its board
    does not remember which piece jumped: a bug of its rules). The game is lost for it."""


# --------------------------------------------------------------------------- notation


def to_ponder(state: Any, move: Sequence[int]) -> list[str]:
    """Parlor's ``move`` as the lines Ponder reads: ``11-15``, or one hop a line for a
    capture (``15x24``, ``24x31``)."""
    text = state.format_move(tuple(move))
    if "x" not in text:
        return [text]
    squares = text.split("x")
    return [f"{a}x{b}" for a, b in itertools.pairwise(squares)]


def from_ponder(state: Any, hops: Sequence[str]) -> Any:
    """The legal Parlor move made of Ponder's ``hops`` (MismatchError if there is none)."""
    squares: list[str] = []
    for hop in hops:
        if not HOP.fullmatch(hop):
            raise MismatchError(f"checkers: {hop!r} is not a move Ponder writes")
        a, b = re.split(r"[-x]", hop)
        if squares and squares[-1] != a:
            raise BrokenJumpError(f"checkers: Ponder's hops {' '.join(hops)} do not join up")
        squares += [b] if squares else [a, b]
    text = ("x" if any("x" in h for h in hops) else "-").join(squares)
    try:
        return state.parse_move(text)
    except ValueError as exc:
        raise MismatchError(f"checkers: Ponder's move {text!r} is not legal in Parlor: "
                            f"{exc}") from None


# --------------------------------------------------------------------------- the process


class Ponder:
    """A Ponder process in force mode, driven line by line."""

    def __init__(self, command: Sequence[str], seconds: int, timeout: float) -> None:
        self.command = list(command)
        self.seconds = seconds
        self.timeout = timeout
        self.restarts = 0
        """Times the process was started afresh on a position (see :meth:`move`)."""
        self._start()

    def _start(self) -> None:
        self._pings = 0
        try:
            self._proc = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT, text=True, bufsize=1)
        except OSError as exc:
            raise PonderError(f"Ponder did not start: {exc}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read_all, daemon=True)
        self._reader.start()
        self.send("force")
        self.send(f"st {self.seconds}")
        self.sync()

    def restart(self, position: str) -> None:
        """A fresh process (an empty hash table), in force mode at ``position`` (a PDN FEN)."""
        self.close()
        self._start()
        self.send(f"setboard {position}")
        errors = [line for line in self.sync() if line.startswith("Error")]
        if errors:
            raise PonderError(f"Ponder refused the position {position}: {errors[0]}")
        self.restarts += 1

    def _read_all(self) -> None:
        assert self._proc.stdout is not None
        for line in self._proc.stdout:
            self._lines.put(line.rstrip("\n"))
        self._lines.put(None)

    def send(self, line: str) -> None:
        """Write one line to Ponder."""
        assert self._proc.stdin is not None
        try:
            self._proc.stdin.write(line + "\n")
            self._proc.stdin.flush()
        except OSError:
            raise PonderError(f"Ponder exited (code {self._proc.poll()}) before {line!r}"
                              ) from None

    def _line(self, deadline: float, waiting_for: str, limit: float) -> str:
        """The next line Ponder writes, before ``deadline`` (a perf_counter time, ``limit``
        seconds after the question)."""
        try:
            line = self._lines.get(timeout=max(0.0, deadline - time.perf_counter()))
        except queue.Empty:
            raise PonderError(f"Ponder gave no answer within {limit:g} s "
                              f"(waiting for {waiting_for})") from None
        if line is None:
            self._lines.put(None)
            raise PonderError(f"Ponder exited (code {self._proc.wait()}) while Parlor "
                              f"waited for {waiting_for}")
        return line

    def sync(self) -> list[str]:
        """Ping Ponder and return the lines it wrote before the pong."""
        self._pings += 1
        pong = f"pong {self._pings}"
        self.send(f"ping {self._pings}")
        deadline = time.perf_counter() + SYNC_TIMEOUT
        lines = []
        while (line := self._line(deadline, pong, SYNC_TIMEOUT)) != pong:
            lines.append(line)
        return lines

    def new_game(self) -> None:
        """The start position, in force mode."""
        self.send("new")
        self.sync()

    def play(self, hops: Sequence[str]) -> list[str]:
        """Send a move (its hops); the lines Ponder answers (a result, perhaps).
        PonderError when Ponder refuses it."""
        for hop in hops:
            self.send(hop)
        lines = self.sync()
        errors = [line for line in lines if line.startswith("Error")]
        if errors:
            raise PonderError(f"Ponder refused Parlor's move {' '.join(hops)}: {errors[0]}")
        return lines

    def cpu_seconds(self) -> float | None:
        """Ponder's CPU seconds so far (user and system; None where /proc cannot say)."""
        try:
            with open(f"/proc/{self._proc.pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, ValueError, IndexError):
            return None

    def move(self, position: str) -> tuple[list[str], list[str], float | None, int]:
        """Ponder's move at ``position`` (the position it holds, as a PDN FEN): its hops,
        the lines after it, its CPU seconds (None where /proc cannot say) and how many
        times it answered ``go`` without a move first.

        Ponder answers without a move when its search keeps no move: when its first
        iteration does not end within its (wall-clock) time, and in some positions where
        its hash table answers the root without one, which asking again does not mend.
        So ``go`` is sent a second time, then to a fresh process set up at ``position``;
        a third answer without a move is a PonderError.
        """
        cpu: float | None = 0.0
        for empty in range(3):
            if empty == 2:
                self.restart(position)
            before = self.cpu_seconds()
            hops, after = self.go()
            spent = self.cpu_seconds()
            if cpu is not None and before is not None and spent is not None:
                cpu += spent - before
            else:
                cpu = None
            if hops:
                return hops, after, cpu, empty
        raise PonderError("Ponder answered go without a move 3 times running, the last "
                          f"time started afresh at {position}")

    def go(self) -> tuple[list[str], list[str]]:
        """Ponder's move (its hops, none if it found none in time) and the lines after it
        (a result, perhaps); Ponder is back in force mode after it."""
        self.send("go")
        deadline = time.perf_counter() + self.timeout
        thinking = False
        hops: list[str] = []
        after: list[str] = []
        while True:
            line = self._line(deadline, "its move", self.timeout)
            text = line.strip()
            if not thinking:
                thinking = text == "Thinking ..."
                if text.startswith("Error"):
                    raise PonderError(f"Ponder refused go: {text}")
            elif PROMPT.fullmatch(text):
                break
            elif HOP.fullmatch(text):
                hops.append(text)
            elif hops:
                after.append(text)
        self.send("force")
        after += self.sync()
        return hops, after

    def close(self) -> None:
        """Quit Ponder (killed if it does not stop within 2 s)."""
        if self._proc.poll() is None:
            try:
                self.send("quit")
                self._proc.wait(timeout=2)
            except (PonderError, subprocess.TimeoutExpired):
                self._proc.kill()
                self._proc.wait()
        for stream in (self._proc.stdin, self._proc.stdout):
            if stream is not None:
                stream.close()


def winner(lines: Sequence[str]) -> int | None:
    """The side Ponder names as the winner in ``lines`` (0 Black, 1 White), or None."""
    for line in lines:
        found = WINNER.search(line)
        if found:
            return 0 if found.group(1) == "Black" else 1
    return None


# --------------------------------------------------------------------------- games


def opening(seed: int, pair: int, plies: int) -> list[Any]:
    """The random opening of games ``2 * pair`` and ``2 * pair + 1`` (as parlor match
    plays them: no move that ends the game)."""
    from brains.arena import derive_seed
    from brains.openings import random_opening
    from engine.registry import get_game

    rng = random.Random(derive_seed(seed, "opening", pair))
    return random_opening(get_game("checkers").initial(), plies, rng)[1]


def play_one(ponder: Ponder, spec: str, index: int, seed: int,
             opening_plies: int) -> dict[str, Any]:
    """One game; the Parlor brain has Black when ``index`` is even."""
    from brains.arena import derive_seed
    from brains.registry import make_brain
    from engine.registry import get_game

    brain = make_brain(spec, "checkers", seed=derive_seed(seed, "game", index))
    ours = index % 2
    state = get_game("checkers").initial()
    ponder.new_game()
    moves: list[str] = []
    parlor_s: list[float] = []
    ponder_s: list[float] = []
    ponder_cpu: list[float] = []
    retries, restarts = 0, ponder.restarts
    forfeit = ""
    said: int | None = None
    for move in opening(seed, index // 2, opening_plies):
        said = winner(ponder.play(to_ponder(state, move)))
        moves.append(state.format_move(move))
        state = state.play(move)
    while state.legal_moves():
        if said is not None:
            raise MismatchError(f"checkers: Ponder ended the game, Parlor did not "
                                f"({' '.join(moves)})")
        if state.to_move == ours:
            started = time.thread_time()
            move = brain.choose(state)
            parlor_s.append(time.thread_time() - started)
            said = winner(ponder.play(to_ponder(state, move)))
        else:
            started = time.perf_counter()
            hops, after, cpu, empty = ponder.move(state.to_position())
            ponder_s.append(time.perf_counter() - started)
            if cpu is not None:
                ponder_cpu.append(cpu)
            retries += empty
            try:
                move = from_ponder(state, hops)
            except BrokenJumpError:
                forfeit = " ".join(hops)
                break
            said = winner(after)
        moves.append(state.format_move(move))
        state = state.play(move)
    if forfeit:
        moves.append(f"{{Ponder: {forfeit}}}")
        return {"index": index, "parlor": ("Black", "White")[ours], "points": 1.0,
                "reason": f"forfeit: Ponder's capture {forfeit} goes on with another piece",
                "plies": len(moves) - 1, "moves": " ".join(moves), "parlor_s": parlor_s,
                "ponder_s": ponder_s, "ponder_cpu_s": ponder_cpu, "empty_answers": retries,
                "restarts": ponder.restarts - restarts, "forfeit": True}
    outcome = state.outcome()
    assert outcome is not None
    value = outcome.value_for(ours)
    if outcome.winner is not None:
        if said != outcome.winner:
            raise MismatchError(f"checkers: Parlor's game ended ({outcome.termination}), "
                                f"Ponder's did not the same way ({' '.join(moves)})")
    elif said is not None:
        raise MismatchError(f"checkers: Ponder named a winner in a draw ({' '.join(moves)})")
    return {"index": index, "parlor": ("Black", "White")[ours],
            "points": {1: 1.0, 0: 0.5, -1: 0.0}[value], "reason": outcome.termination,
            "plies": len(moves), "moves": " ".join(moves),
            "parlor_s": parlor_s, "ponder_s": ponder_s, "ponder_cpu_s": ponder_cpu,
            "empty_answers": retries, "restarts": ponder.restarts - restarts,
            "forfeit": False}


def warm_up(spec: str) -> None:
    """One move of the brain, so that loading it is not counted in the first game."""
    from brains.registry import make_brain
    from engine.registry import get_game

    make_brain(spec, "checkers", seed=0).choose(get_game("checkers").initial())


def summarize(spec: str, seconds: int, opening_plies: int, seed: int,
              rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The games' figures: W/D/L, score and its interval, seconds a move each side."""
    points = [r["points"] for r in rows]
    wins, draws, losses = points.count(1.0), points.count(0.5), points.count(0.0)
    lo, hi = interval(wins, draws, losses)
    ours = [t for r in rows for t in r["parlor_s"]]
    theirs = [t for r in rows for t in r["ponder_s"]]
    theirs_cpu = [t for r in rows for t in r["ponder_cpu_s"]]

    def side(rows_: list[dict[str, Any]]) -> float | None:
        return round(sum(r["points"] for r in rows_) / len(rows_), 4) if rows_ else None

    return {"benchmark": "ponder", "spec": spec, "seconds": seconds,
            "opening_plies": opening_plies, "seed": seed, "games": len(rows),
            "wins": wins, "draws": draws, "losses": losses,
            "score": round(sum(points) / len(points), 4) if points else 0.5,
            "ci95": [round(lo, 3), round(hi, 3)],
            "score_black": side([r for r in rows if r["parlor"] == "Black"]),
            "score_white": side([r for r in rows if r["parlor"] == "White"]),
            "cpu_s_median": round(statistics.median(ours), 3) if ours else 0.0,
            "cpu_s_max": round(max(ours), 3) if ours else 0.0,
            "ponder_s_median": round(statistics.median(theirs), 3) if theirs else 0.0,
            "ponder_s_max": round(max(theirs), 3) if theirs else 0.0,
            "ponder_cpu_s_median": round(statistics.median(theirs_cpu), 3) if theirs_cpu
            else None,
            "empty_answers": sum(r["empty_answers"] for r in rows),
            "restarts": sum(r["restarts"] for r in rows),
            "forfeits": sum(r["forfeit"] for r in rows),
            "score_played_out": side([r for r in rows if not r["forfeit"]])}


def table(s: dict[str, Any]) -> str:
    """The summary as a table people read."""
    wdl = f"{s['wins']}/{s['draws']}/{s['losses']}"
    cpu = s["ponder_cpu_s_median"]
    lines = [
        "games  W/D/L     score  95 % interval  Parlor CPU s a move: median  max  "
        "Ponder s a move: median  max  CPU median",
        f"{s['games']:>5}  {wdl:<8}  {s['score']:5.2f}  {s['ci95'][0]:.2f} - "
        f"{s['ci95'][1]:.2f}  {s['cpu_s_median']:27.2f}  {s['cpu_s_max']:4.2f}  "
        f"{s['ponder_s_median']:23.2f}  {s['ponder_s_max']:4.2f}  "
        f"{'?' if cpu is None else f'{cpu:.2f}':>10}"]
    if s["forfeits"]:
        lines.append(f"({s['forfeits']} games won by forfeit: Ponder went on with a capture "
                     "by another piece; score over the games played out: "
                     f"{s['score_played_out']})")
    if s["empty_answers"]:
        lines.append(f"(Ponder answered go without a move {s['empty_answers']} times and "
                     "was asked again; started afresh at the position "
                     f"{s['restarts']} times)")
    return "\n".join(lines)


def run(engine: Sequence[str], spec: str, games: int, seconds: int, opening_plies: int,
        seed: int, timeout: float, report: Any = None) -> tuple[list[dict[str, Any]], str]:
    """Play the match; the games finished and, if Ponder failed, the line saying how."""
    rows: list[dict[str, Any]] = []
    ponder = None
    try:
        ponder = Ponder(engine, seconds, timeout)
        for index in range(games):
            rows.append(play_one(ponder, spec, index, seed, opening_plies))
            if report is not None:
                report(rows[-1])
    except (PonderError, MismatchError) as exc:
        return rows, f"{exc} (game {len(rows) + 1}); {len(rows)} games finished"
    finally:
        if ponder is not None:
            ponder.close()
    return rows, ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ponder", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", type=Path, default=DEFAULT_ENGINE, metavar="PATH",
                        help="Ponder's binary (default build/ponder/ponder)")
    parser.add_argument("--spec", default="level:hard", help="the Parlor brain")
    parser.add_argument("--games", type=int, default=10, help="games (default 10)")
    parser.add_argument("--seconds", type=int, default=1,
                        help="Ponder's seconds a move, a whole number (default 1)")
    parser.add_argument("--opening", type=int, default=2,
                        help="random plies before the engines play (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=None,
                        help="seconds Ponder may take for a move (default 30 + 10 x seconds)")
    parser.add_argument("--json", action="store_true", help="end with one line of JSON")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= 10_000 or not 1 <= args.seconds <= 3600 or args.opening < 0:
        parser.error("games are 1..10000, seconds 1..3600 and the opening 0 or more plies")
    if not args.engine.is_file():
        print(f"Ponder not measured: no engine at {args.engine} (build it from Ponder's "
              "public repository, neo954/checkers, with make, and pass --engine PATH)")
        return 0
    timeout = args.timeout if args.timeout is not None else 30.0 + 10.0 * args.seconds
    print(f"{args.spec} against Ponder at {args.seconds} s a move, {args.games} games, "
          f"{args.opening} random opening plies, seed {args.seed}", flush=True)
    warm_up(args.spec)

    def report(r: dict[str, Any]) -> None:
        print(f"  game {r['index'] + 1:>3}: Parlor {r['parlor']:<5} {r['points']:>3}  "
              f"{r['plies']:>3} plies, {r['reason']}", flush=True)

    rows, failure = run([str(args.engine)], args.spec, args.games, args.seconds,
                        args.opening, args.seed, timeout, report)
    if failure:
        print(f"Ponder match stopped: {failure}", flush=True)
    if rows:
        summary = summarize(args.spec, args.seconds, args.opening, args.seed, rows)
        print(table(summary))
        print(f"goal >= 0.9: {'met' if summary['score'] >= 0.9 else 'MISSED'} "
              f"(as Black {summary['score_black']}, as White {summary['score_white']})")
        if args.json:
            summary["games_played"] = [{k: r[k] for k in ("index", "parlor", "points",
                                                          "reason", "plies", "moves")}
                                       for r in rows]
            print(json.dumps(summary))
    return 1 if failure else 0


if __name__ == "__main__":
    sys.exit(main())
