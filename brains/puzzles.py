"""Puzzles: "find the move that keeps the win (or the draw)", each proven by an exact solver.

A position is a puzzle when the game's exact oracle (:data:`brains.analysis.ORACLES`:
Pons' solver for Connect Four, the Morris database, the full search of tic-tac-toe, the
endgame solver of late Reversi) values every legal move and

- the side to move has at least two legal moves;
- the best outcome is a win, or a draw when every other move loses;
- exactly one move reaches that outcome: every other move really loses value;
- that move does not end the game at once (a win in one is too easy).

:func:`judge` decides that for one position. :func:`build` finds puzzles in positions
from seeded self-play of the game's lower ladder rungs and random play, keeps those the
game's module marks ``puzzle_ready`` (positions its solver settles quickly), drops
positions already seen up to symmetry (the module's ``canonical_key`` hook), and rates
each (:func:`estimate_rating`). The same game, count and seed always give the same
puzzles in the same order: nothing depends on the clock (the oracles run without a time
limit; only positions they settle quickly are offered to them).

:func:`from_record` makes puzzles of a player's own analysed game: every move marked
``??`` whose position the solver settles (learn from your mistakes). There any move that
keeps the best outcome is accepted, and a missed win in one counts.

A puzzle file is JSON lines: a header, then one puzzle a line::

    {"format": "parlor-puzzles", "version": 1, "game": "connect4", "count": 2, ...}
    {"id": "c4-1a2b3c4d5e", "game": "connect4", "options": {}, "position": "...",
     "goal": "win", "solution": "4", "accepted": ["4"], "value": "win in 9",
     "wrong": [{"move": "3", "value": "loss in 12", "line": ["4", "4", "5"]}],
     "rating": 1412.0, "deviation": 250.0, "source": "self-play: ... vs ..."}

``wrong`` gives each other move's exact value and its refutation line: the opponent's
best reply and a few best moves after it. Everything read is checked
(:func:`read_puzzles`); a bad file or line is one :class:`~engine.protocol.ParlorError`.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from brains.analysis import ORACLES, Exact, read_annotations
from brains.protocol import Budget
from engine.files import read_capped
from engine.protocol import AnyState, ParlorError, quote
from engine.record import GameRecord
from engine.registry import get_game

FORMAT = "parlor-puzzles"
VERSION = 1
MAX_FILE = 16_000_000
"""Largest puzzle file read, in bytes."""
MAX_LINE = 8_000
"""Longest line of a puzzle file."""
MAX_PUZZLES = 100_000
"""Most puzzles one file may hold."""
REFUTATION_PLIES = 3
"""Plies of each wrong move's refutation line: the best reply and two more best moves."""
PROBES = ("alphabeta,depth=1", "alphabeta,depth=2", "alphabeta,depth=3")
"""Searches of growing depth tried on each puzzle: each that misses the solution makes it
harder (:func:`estimate_rating`)."""
START_DEVIATION = 250.0
"""A new puzzle's rating deviation: its rating is an estimate until players try it."""
MIN_RATING, MAX_RATING = 400.0, 2600.0
STALL_GAMES = 3000
""":func:`build` stops when this many self-play games in a row give no new puzzle (a game
with few positions, like tic-tac-toe, runs out: it has 136 puzzles in all)."""
BRANCHES = 4
"""Games played from each self-play game's first ``puzzle_ready`` position."""
MAX_GAME_PLIES = 200
"""Self-play games are cut after this many plies."""
GOALS = ("win", "draw")


@dataclass(frozen=True, slots=True)
class WrongMove:
    """A move that loses value: its exact value (for the mover) and the refutation."""

    move: str
    value: str
    line: tuple[str, ...] = ()
    """The opponent's best reply, then best moves after it (may be empty)."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle: a position, the move that keeps its best outcome, the others' values."""

    id: str
    game: str
    position: str
    goal: str
    """``win`` or ``draw``: the best outcome the side to move can keep."""
    solution: str
    value: str
    """The solution's exact value in words (``win in 9``, ``draw``, ``win by 4``)."""
    wrong: tuple[WrongMove, ...]
    rating: float
    deviation: float = START_DEVIATION
    options: dict[str, Any] = field(default_factory=dict)
    accepted: tuple[str, ...] = ()
    """Every move that keeps the outcome (just the solution in a built puzzle)."""
    source: str = ""

    def state(self) -> AnyState:
        """The puzzle's position (PositionError, one line, if it does not read)."""
        from engine.positions import parse_position

        return parse_position(self.game, self.position)

    def side(self) -> str:
        """The name of the side to move (``White``, ``X``, …)."""
        state = self.state()
        return state.PLAYERS[state.to_move]

    def prompt(self) -> str:
        """``White to play and keep the win`` (or the draw)."""
        return f"{self.side()} to play and keep the {self.goal}"

    def is_right(self, move_text: str) -> bool:
        """True when ``move_text`` is a move that keeps the outcome."""
        norm = move_text.strip().lower()
        return norm in (self.accepted or (self.solution,))

    def refutation(self, move_text: str) -> WrongMove | None:
        """The wrong move ``move_text``'s value and refutation, or None if not listed."""
        norm = move_text.strip().lower()
        return next((w for w in self.wrong if w.move == norm), None)

    def to_json(self) -> dict[str, Any]:
        """The puzzle as one JSON object (a line of a puzzle file)."""
        return {"id": self.id, "game": self.game, "options": self.options,
                "position": self.position, "goal": self.goal, "solution": self.solution,
                "accepted": list(self.accepted or (self.solution,)), "value": self.value,
                "wrong": [{"move": w.move, "value": w.value, "line": list(w.line)}
                          for w in self.wrong],
                "rating": round(self.rating, 1), "deviation": round(self.deviation, 1),
                "source": self.source}

    @classmethod
    def from_json(cls, data: Any) -> Puzzle:
        """A puzzle from :meth:`to_json`'s object; ParlorError (one line) for anything else.
        The position and moves are checked against the rules by :func:`check_puzzle`."""
        if not isinstance(data, dict):
            raise ParlorError("a puzzle is a JSON object")

        def text(name: str, limit: int = 200) -> str:
            value = data.get(name)
            if not isinstance(value, str) or not value or len(value) > limit:
                raise ParlorError(f"puzzle field {name!r} must be text of 1-{limit} characters")
            return value

        def number(name: str, low: float, high: float) -> float:
            value = data.get(name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) \
                    or not math.isfinite(value) or not low <= value <= high:
                raise ParlorError(f"puzzle field {name!r} must be a number in {low:g}..{high:g}")
            return float(value)

        goal = text("goal")
        if goal not in GOALS:
            raise ParlorError(f"puzzle goal {quote(goal)}: must be win or draw")
        options = data.get("options", {})
        if not isinstance(options, dict) or len(options) > 8 or not all(
                isinstance(k, str) and isinstance(v, (str, int, bool)) for k, v in options.items()):
            raise ParlorError("puzzle field 'options' must be a small object of values")
        wrong_data = data.get("wrong", [])
        if not isinstance(wrong_data, list) or len(wrong_data) > 400:
            raise ParlorError("puzzle field 'wrong' must be a list")
        wrong = []
        for item in wrong_data:
            if not isinstance(item, dict):
                raise ParlorError("a wrong move is a JSON object")
            move, value, line = item.get("move"), item.get("value"), item.get("line", [])
            if not (isinstance(move, str) and 0 < len(move) <= 40 and isinstance(value, str)
                    and len(value) <= 40 and isinstance(line, list) and len(line) <= 20
                    and all(isinstance(m, str) and 0 < len(m) <= 40 for m in line)):
                raise ParlorError("a wrong move needs move, value and a short line of moves")
            wrong.append(WrongMove(move, value, tuple(line)))
        accepted = data.get("accepted", [])
        if not isinstance(accepted, list) or len(accepted) > 400 or not all(
                isinstance(m, str) and 0 < len(m) <= 40 for m in accepted):
            raise ParlorError("puzzle field 'accepted' must be a list of moves")
        source = data.get("source", "")
        if not isinstance(source, str) or len(source) > 300:
            raise ParlorError("puzzle field 'source' must be short text")
        solution = text("solution", 40)
        return cls(text("id", 60), text("game", 40), text("position", 1000), goal, solution,
                   text("value", 40), tuple(wrong),
                   number("rating", -10_000, 10_000), number("deviation", 1, 350),
                   dict(options), tuple(accepted) or (solution,), source)


# --------------------------------------------------------------------------- solving


def oracle_for(game: str) -> Callable[[AnyState, Budget, dict[str, Any]], dict[Any, Exact] | None]:
    """The exact oracle of ``game``; ParlorError when the game has none."""
    oracle = ORACLES.get(get_game(game).id)
    if oracle is None:
        raise ParlorError(f"no puzzles for {game}: it has no exact solver "
                          f"(games with one: {', '.join(sorted(ORACLES))})")
    return oracle


def exact_values(state: AnyState, cache: dict[str, Any],
                 budget: Budget | None = None) -> dict[Any, Exact] | None:
    """Every legal move's exact value for the side to move (None if not settled: only
    with a ``budget`` that runs out, or when the game's data cannot be opened)."""
    values = oracle_for(state.GAME)(state, (budget or Budget()).start(), cache)
    if values is None or any(m not in values for m in state.legal_moves()):
        return None
    return dict(values)


def best_of(values: dict[Any, Exact], order: Iterable[Any]) -> Any:
    """The best move by exact value (fastest win, biggest score, slowest loss); ties go
    to the first in ``order`` (the game's fixed move order)."""
    return max(order, key=lambda m: values[m].rank())


def refutation_line(state: AnyState, cache: dict[str, Any], plies: int = REFUTATION_PLIES,
                    budget: Budget | None = None) -> tuple[str, ...]:
    """The best moves from ``state`` on for up to ``plies`` plies (the solver's line)."""
    line: list[str] = []
    for _ in range(plies):
        if state.outcome() is not None:
            break
        values = exact_values(state, cache, budget)
        if values is None:
            break
        move = best_of(values, state.legal_moves())
        line.append(state.format_move(move))
        state = state.play(move)
    return tuple(line)


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the solver says of a position as a puzzle."""

    goal: str
    keeping: tuple[Any, ...]
    """The moves that keep the best outcome, the best first."""
    values: dict[Any, Exact]


def verdict(state: AnyState, cache: dict[str, Any], budget: Budget | None = None
            ) -> Verdict | None:
    """The best outcome (win or draw) and the moves keeping it; None when the position
    is over, has one legal move, is lost whatever is played, every move keeps the
    outcome, or the solver does not settle it."""
    moves = state.legal_moves()
    if len(moves) < 2 or state.outcome() is not None:
        return None
    values = exact_values(state, cache, budget)
    if values is None:
        return None
    best = max(v.outcome for v in values.values())
    keeping = [m for m in moves if values[m].outcome == best]
    if best < 0 or len(keeping) == len(moves):
        return None
    keeping.sort(key=lambda m: values[m].rank(), reverse=True)
    return Verdict("win" if best > 0 else "draw", tuple(keeping), values)


def _words(value: Exact) -> str:
    return value.words()


def puzzle_id(game: str, options: dict[str, Any], position: str) -> str:
    """A short id from the game, options and position (the same puzzle, the same id)."""
    digest = hashlib.sha256(json.dumps([game, options, position], sort_keys=True)
                            .encode()).hexdigest()
    return f"{game}-{digest[:10]}"


def estimate_rating(moves: int, plies: int | None, misses: int) -> float:
    """A puzzle's starting rating from its difficulty: ``misses`` of the :data:`PROBES`
    searches that do not find the solution (each adds 250), the legal moves to choose
    from (150 per natural log), and the plies to the end with best play when known (10
    each, up to 40; an immediate win is 200 easier)."""
    rating = 800.0 + 250.0 * misses + 150.0 * math.log(max(moves, 2))
    if plies is not None:
        rating += 10.0 * min(plies, 40)
        if plies <= 1:
            rating -= 200.0
    return max(MIN_RATING, min(MAX_RATING, round(rating, 1)))


def probe_misses(state: AnyState, solution: Any) -> int:
    """How many of the :data:`PROBES` searches (seeded, depth-limited) miss ``solution``."""
    from brains.registry import make_brain

    misses = 0
    for spec in PROBES:
        if make_brain(spec, state.GAME, seed=0).choose(state, Budget()) != solution:
            misses += 1
    return misses


def judge(state: AnyState, cache: dict[str, Any], *, unique: bool = True, source: str = "",
          budget: Budget | None = None, refute: bool = True,
          immediate: bool = False) -> Puzzle | None:
    """``state`` as a puzzle, or None when it is not one (see the module docstring).
    With ``unique=False`` a position with several keeping moves is a puzzle too (any of
    them is accepted). A position whose answer ends the game at once (a win in one) is
    too easy to be a puzzle unless ``immediate`` is set."""
    found = verdict(state, cache, budget)
    if found is None or (unique and len(found.keeping) != 1):
        return None
    if not immediate and any(state.play(m).outcome() is not None for m in found.keeping):
        return None
    solution = found.keeping[0]
    wrong = []
    for move in state.legal_moves():
        if move in found.keeping:
            continue
        line = refutation_line(state.play(move), cache, budget=budget) if refute else ()
        wrong.append(WrongMove(state.format_move(move), _words(found.values[move]), line))
    position = state.to_position()
    options = {k: v for k, v in state.options.items() if isinstance(v, (str, int, bool))}
    value = found.values[solution]
    rating = estimate_rating(len(state.legal_moves()), value.plies,
                             probe_misses(state, solution))
    return Puzzle(puzzle_id(state.GAME, options, position), state.GAME, position, found.goal,
                  state.format_move(solution), _words(value), tuple(wrong), rating,
                  START_DEVIATION, options,
                  tuple(state.format_move(m) for m in found.keeping), source)


# --------------------------------------------------------------------------- building


def _hooks(game: str) -> tuple[Callable[[AnyState], Any], Callable[[AnyState], bool]]:
    """The game module's ``canonical_key`` and ``puzzle_ready`` hooks (the plain key and
    every position where the module has none)."""
    from brains.heuristics import game_module

    module = game_module(game)
    key = getattr(module, "canonical_key", None)
    ready = getattr(module, "puzzle_ready", None)
    return (key if callable(key) else (lambda s: s.key()),
            ready if callable(ready) else (lambda s: True))


def players(game: str) -> tuple[str, ...]:
    """The brains whose self-play gives the candidate positions: ``random`` and the lower
    half of the game's ladder (fixed-depth searches, seeded: never timed)."""
    from brains.heuristics import game_module

    ladder = game_module(game).LADDER
    return ("random", *(s for s in ladder[: (len(ladder) + 1) // 2]
                        if not s.startswith("perfect")))


def candidates(game: str, seed: int) -> Iterator[tuple[AnyState, str]]:
    """Positions of seeded self-play games, each with where it came from, endlessly (a
    position with an empty source marks the end of a game). Each game is played on
    :data:`BRANCHES` times from its first ``puzzle_ready`` position by new pairs of
    brains, so the (slow) way to the positions puzzles come from is played less often."""
    from brains.heuristics import game_module
    from brains.registry import make_brain

    rng = random.Random(seed)
    specs = players(game)
    opening = game_module(game).OPENING_PLIES
    _, ready = _hooks(game)
    number = 0
    while True:
        number += 1
        start: AnyState = get_game(game).initial()
        for branch in range(BRANCHES):
            a, b = rng.choice(specs), rng.choice(specs)
            brains = (make_brain(a, game, seed=rng.randrange(1 << 30)),
                      make_brain(b, game, seed=rng.randrange(1 << 30)))
            source = f"self-play {seed}/{number}.{branch + 1}: {a} vs {b}"
            state = start
            while state.outcome() is None and state.ply < MAX_GAME_PLIES:
                if branch == 0 and start.ply == 0 and state.ply and ready(state):
                    start = state  # later branches start here
                yield state, source
                if state.ply < opening:
                    move = rng.choice(state.legal_moves())
                else:
                    move = brains[state.to_move].choose(state, Budget())
                state = state.play(move)
            yield state, ""  # the end of a game (no position to judge)
            if start.ply == 0 and branch == 0 and not ready(start):
                break  # no position of this game was ready: no branches


Progress = Callable[[int, int, int], None]
"""Called with (puzzles found, positions judged, games played) after each new puzzle."""


def build(game: str, count: int, seed: int = 0, progress: Progress | None = None,
          seen: set[Any] | None = None) -> list[Puzzle]:
    """Up to ``count`` distinct puzzles of ``game`` from seeded self-play (deterministic:
    the same arguments give the same list). Fewer when the game runs out of new ones
    (:data:`STALL_GAMES` games in a row without one)."""
    if count < 0:
        raise ParlorError(f"puzzle count must be 0 or more, not {count}")
    game = get_game(game).id
    oracle_for(game)
    canonical, ready = _hooks(game)
    seen = set() if seen is None else seen
    cache: dict[str, Any] = {}
    out: list[Puzzle] = []
    judged = games = since_new = 0
    for state, source in candidates(game, seed):
        if len(out) >= count:
            break
        if not source:
            games += 1
            since_new += 1
            if since_new >= STALL_GAMES:
                break
            continue
        if not ready(state):
            continue
        key = canonical(state)
        if key in seen:
            continue
        seen.add(key)
        judged += 1
        puzzle = judge(state, cache, source=source)
        if puzzle is not None:
            out.append(puzzle)
            since_new = 0
            if progress is not None:
                progress(len(out), judged, games)
    return out


def from_record(record: GameRecord, seconds: float | None = 5.0,
                stop: Callable[[], bool] | None = None) -> list[Puzzle]:
    """Puzzles from the ``??`` moves of an analysed record (its ``[%eval]`` comments and
    marks, :func:`brains.analysis.read_annotations`): the position before each such move,
    when the solver settles it (within ``seconds`` each) and some move keeps a better
    outcome. Every keeping move is accepted."""
    if record.game not in ORACLES:
        return []
    states = record.states()
    first = record.tags.get("First", "first")
    second = record.tags.get("Second", "second")
    cache: dict[str, Any] = {}
    out = []
    for note in read_annotations(record):
        if note.mark != "??" or not 0 < note.index <= len(record.moves):
            continue
        if stop is not None and stop():
            break
        state = states[note.index - 1]
        budget = Budget(seconds=seconds) if seconds is not None else None
        who = first if state.to_move == 0 else second
        source = f"your game: {who}'s move {note.index} ({record.moves[note.index - 1]}??)"
        puzzle = judge(state, cache, unique=False, source=source, budget=budget,
                       immediate=True)
        if puzzle is not None and record.moves[note.index - 1].lower() not in puzzle.accepted:
            out.append(puzzle)
    return out


# --------------------------------------------------------------------------- files


def header(game: str, puzzles: list[Puzzle], **extra: Any) -> dict[str, Any]:
    """The first line of a puzzle file."""
    return {"format": FORMAT, "version": VERSION, "game": game, "count": len(puzzles), **extra}


def format_puzzles(game: str, puzzles: list[Puzzle], **extra: Any) -> str:
    """A puzzle file's text: the header, then one puzzle a line (stable key order)."""
    lines = [json.dumps(header(game, puzzles, **extra), sort_keys=True)]
    lines += [json.dumps(p.to_json(), sort_keys=True, ensure_ascii=False) for p in puzzles]
    return "\n".join(lines) + "\n"


def parse_puzzles(text: str, source: str = "puzzles") -> list[Puzzle]:
    """The puzzles of a puzzle file's text; ParlorError naming the line for a bad one."""
    lines = text.splitlines()
    if not lines:
        raise ParlorError(f"{source}: empty puzzle file")
    try:
        head = json.loads(lines[0]) if len(lines[0]) <= MAX_LINE else None
    except ValueError:
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT:
        raise ParlorError(f"{source}: not a Parlor puzzle file (line 1)")
    if head.get("version") != VERSION:
        raise ParlorError(f"{source}: puzzle file version {quote(head.get('version'))} "
                          f"(this Parlor reads {VERSION})")
    if len(lines) - 1 > MAX_PUZZLES:
        raise ParlorError(f"{source}: more than {MAX_PUZZLES} puzzles")
    out = []
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        if len(line) > MAX_LINE:
            raise ParlorError(f"{source}: line {number}: longer than {MAX_LINE} characters")
        try:
            out.append(Puzzle.from_json(json.loads(line)))
        except ValueError as exc:  # JSON errors and ParlorError alike
            why = str(exc).splitlines()[0][:100] if str(exc) else type(exc).__name__
            raise ParlorError(f"{source}: line {number}: {why}") from None
    return out


def read_puzzles(path: str | Path) -> list[Puzzle]:
    """The puzzles of the file at ``path`` (size-capped, checked line by line)."""
    data = read_capped(path, MAX_FILE)
    name = Path(path).name
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ParlorError(f"{name}: not UTF-8 text") from None
    return parse_puzzles(text, name)


def check_puzzle(puzzle: Puzzle) -> AnyState:
    """The puzzle's position, with its solution and wrong moves checked as legal there;
    ParlorError (one line) otherwise."""
    state = puzzle.state()
    legal = {state.format_move(m) for m in state.legal_moves()}
    for move in (puzzle.solution, *puzzle.accepted, *(w.move for w in puzzle.wrong)):
        if move not in legal:
            raise ParlorError(f"puzzle {puzzle.id}: {quote(move)} is not a legal move")
    return state


def prove(puzzle: Puzzle, cache: dict[str, Any] | None = None) -> str | None:
    """Re-prove ``puzzle`` by the solver: None when its solution is the one move that
    keeps its goal (and every listed wrong move loses value), else what is wrong."""
    try:
        state = check_puzzle(puzzle)
    except ParlorError as exc:
        return str(exc)
    found = verdict(state, {} if cache is None else cache)
    if found is None:
        return f"puzzle {puzzle.id}: the solver finds no puzzle in its position"
    keeping = [state.format_move(m) for m in found.keeping]
    if found.goal != puzzle.goal:
        return f"puzzle {puzzle.id}: the best outcome is a {found.goal}, not a {puzzle.goal}"
    if sorted(keeping) != sorted(puzzle.accepted or (puzzle.solution,)):
        return f"puzzle {puzzle.id}: the moves keeping the {found.goal} are {keeping}"
    wrong = {w.move for w in puzzle.wrong}
    if wrong & set(keeping):
        return f"puzzle {puzzle.id}: a move listed as wrong keeps the {found.goal}"
    return None


# --------------------------------------------------------------------------- shipped

MANIFEST = "manifest.json"
"""The shipped puzzle files' manifest (in ``saved/puzzles/``): each file's size, sha256,
puzzle count and the command that built it."""


def file_name(game: str) -> str:
    """The name of ``game``'s puzzle file: ``connect4.jsonl``."""
    return f"{game}.jsonl"


def puzzles_dir() -> Path:
    """Where the shipped puzzle files are (package data of ``saved``; not checked)."""
    from saved import data_path

    return data_path("saved", "puzzles")


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest in ``folder`` (an empty one when there is none yet); ParlorError
    (one line) for a damaged one."""
    path = folder / MANIFEST
    if not path.exists():
        return {"format": 1, "files": {}}
    try:
        manifest = json.loads(read_capped(path, 1_000_000).decode("utf-8"))
        if not isinstance(manifest, dict) or not isinstance(manifest.get("files"), dict):
            raise ValueError("no files")
    except ValueError as exc:
        raise ParlorError(f"{path.name}: damaged ({type(exc).__name__})") from None
    return manifest


def write_puzzles(folder: Path, game: str, puzzles: list[Puzzle], *, command: str,
                  seed: int, seconds: float | None = None) -> Path:
    """Write ``game``'s puzzle file into ``folder`` (atomically) and list it, with its
    size and sha256, in the folder's manifest. Returns the file's path."""
    from engine.files import write_atomic

    folder.mkdir(parents=True, exist_ok=True)
    text = format_puzzles(game, puzzles, seed=seed, command=command)
    path = folder / file_name(game)
    data = text.encode("utf-8")
    write_atomic(path, data, mode=0o644)
    manifest = read_manifest(folder)
    entry: dict[str, Any] = {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                             "count": len(puzzles), "seed": seed, "command": command}
    if seconds is not None:
        entry["build_seconds"] = round(seconds, 1)
    manifest["files"][path.name] = entry
    write_atomic(folder / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n",
                 mode=0o644)
    return path


def shipped_games() -> list[str]:
    """The games with a shipped puzzle file listed in the manifest."""
    manifest = read_manifest(puzzles_dir())
    return sorted(name.removesuffix(".jsonl") for name in manifest["files"]
                  if isinstance(name, str) and name.endswith(".jsonl"))


def load_shipped(game: str) -> list[Puzzle]:
    """``game``'s shipped puzzles, checked against the manifest's size and sha256:
    ShippedDataError when missing, ParlorError when damaged (one line each)."""
    from saved import ShippedDataError, shipped_file

    game = get_game(game).id
    folder = puzzles_dir()
    listed = read_manifest(folder)["files"].get(file_name(game))
    if not isinstance(listed, dict):
        raise ShippedDataError(f"no shipped puzzles for {game}")
    path = shipped_file("saved", "puzzles", file_name(game))
    data = read_capped(path, MAX_FILE)
    if len(data) != listed.get("bytes") or hashlib.sha256(data).hexdigest() != listed.get(
            "sha256"):
        raise ParlorError(f"{path.name}: does not match {MANIFEST} (size or sha256): "
                          "reinstall Parlor or rebuild the puzzles")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ParlorError(f"{path.name}: not UTF-8 text") from None
    return parse_puzzles(text, path.name)
