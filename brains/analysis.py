"""Game analysis: the value of every move of a recorded game, its best alternative and a mark.

Each position of a game gets values for its legal moves, from the side to move's view:

- **exact** where the game's *oracle* (the ``values`` of its exact hook,
  :mod:`brains.exact`) settles the position within the time (see :data:`ORACLES`): an
  :class:`Exact` value, win/draw/loss with the distance to the end in plies, or a finer
  game score where the game has one;
- else a **search score** in [-1, 1] from ``alphabeta`` given ``seconds`` per position
  (beyond ±0.9 a proven win or loss, within it a heuristic estimate).

A move is then marked from its player's view (docs/ANALYSIS.md gives the whole scale):

- by the drop in expected score from the best move to the played one, where an exact
  win is 1, a draw 0.5, a loss 0 and a search score ``s`` is ``(s + 1) / 2``: ``?!``
  inaccuracy from 0.1, ``?`` mistake from 0.2, ``??`` blunder from 0.3 (lichess's
  thresholds in win probability). So every change of an exact outcome (win→draw,
  draw→loss, win→loss) is a blunder, named by its change; the same move is a *gift* to
  the opponent, counted in the opponent's summary. A slower exact win, or a faster loss,
  is not marked, but the better move is shown.

A player's accuracy is the mean over their moves of lichess's move accuracy,
``103.1668 * exp(-0.04354 * d) - 3.1669`` (clamped to 0..100), where ``d`` is the drop in
expected score in percentage points (an exact win is 1, a draw 0.5, a loss 0).

The analysis is written into a record as comments and annotation glyphs
(:func:`annotate`) and read back by :func:`read_annotations`::

    1. 4 {[%eval 0.12]} 4 2. 3?? {[%eval #-9] [%best 5 #11]} ...

``[%eval V]`` after a move is the value of the position it reached, from the first
player's view (the comment before the first move values the start position): a search
score ``0.35``, or an exact ``#N`` (the first player wins in N plies; ``#+0``: has won),
``#-N`` (the second player does), ``=0`` (a draw), ``=+D`` / ``=-D`` (a final game score,
such as a disc difference, with no distance). ``[%best M V]`` names the better move and its value.

:func:`iter_analysis` yields each move's result as it is found (a worker thread can drive
it, with a ``stop`` event); :func:`analyse_game` collects them; :func:`eval_graph` draws
the evaluation over the game as text.
"""

from __future__ import annotations

import copy
import math
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from brains.exact import Exact as Exact  # re-exported
from brains.exact import Oracle
from brains.exact import position_oracle as position_oracle  # re-exported
from brains.protocol import Budget
from engine.protocol import AnyState, ParlorError
from engine.record import GameRecord

DEFAULT_SECONDS = 0.5
"""Seconds per position, for the oracle and again for the search when the oracle fails."""
SEARCH_SPEC = "alphabeta,depth=none,seconds=none"
"""The brain whose ``analyse`` gives search scores (the time comes from the budget)."""

INACCURACY, MISTAKE, BLUNDER = 0.1, 0.2, 0.3
"""Drops in expected score (0..1) that mark a search-scored move ``?!``, ``?``, ``??``."""
MARKS = {"?!": "inaccuracy", "?": "mistake", "??": "blunder"}
"""The annotation glyphs analysis writes, and what each means."""
EQUAL = 1e-9
"""Slack in comparing a drop with the thresholds (floating-point noise)."""
BEST_MARGIN = 0.01
"""A search-scored best move is shown only when it scores at least this much more."""

# --------------------------------------------------------------------------- values


Value = Exact | float
"""An exact value or a search score in [-1, 1] (side to move's view)."""


def expected(value: Value) -> float:
    """Expected score in 0..1: exact win 1, draw 0.5, loss 0; a search score s maps to (s+1)/2."""
    if isinstance(value, Exact):
        return (value.outcome + 1) / 2
    return (max(-1.0, min(1.0, value)) + 1) / 2


def flip(value: Value) -> Value:
    """``value`` from the other side's view."""
    return value.flipped() if isinstance(value, Exact) else -value


def eval_text(value: Value) -> str:
    """The ``[%eval]`` form of ``value`` (already from the first player's view)."""
    if isinstance(value, Exact):
        if value.outcome and value.plies is not None:
            return f"#{'-' if value.outcome < 0 else '+' if not value.plies else ''}{value.plies}"
        if value.score is not None:
            return f"={value.score:+d}" if value.score else "=0"
        return {1: "=+", 0: "=0", -1: "=-"}[value.outcome]
    return f"{round(value, 2) + 0.0:.2f}"  # + 0.0: never "-0.00"


_EVAL = re.compile(r"#([+-]?\d{1,4})|=(?:([+-]\d{1,4})|(0)|([+-]))|(-?\d{1,2}(?:\.\d{1,4})?)")


def parse_eval(text: str) -> Value | None:
    """The value written by :func:`eval_text`, or None for anything else."""
    m = _EVAL.fullmatch(text.strip())
    if not m:
        return None
    mate, score, zero, sign, number = m.groups()
    if mate is not None:
        return Exact(-1 if mate[0] == "-" else 1, abs(int(mate)))
    if score is not None:
        return Exact.of(int(score), score=int(score))
    if zero is not None:
        return Exact(0)
    if sign is not None:
        return Exact(1 if sign == "+" else -1)
    value = float(number)
    return value if -1.0 <= value <= 1.0 else None


def reached(value: Value, player: int) -> Value:
    """A move's value for ``player`` (who made it) as the value of the position it reached,
    from the first player's view: an exact distance then counts from after the move."""
    if isinstance(value, Exact) and value.plies:
        value = Exact(value.outcome, value.plies - 1, value.score)
    return value if player == 0 else flip(value)


def rank(value: Value) -> tuple[float, ...]:
    """Sort key for values of one kind (bigger is better for the side whose view it is)."""
    return value.rank() if isinstance(value, Exact) else (value,)


# --------------------------------------------------------------------------- oracles


def _oracles() -> dict[str, Oracle]:
    """Each game's exact oracle: the ``values`` of its ``EXACT`` hook (brains.exact)."""
    from brains.heuristics import exact_solver
    from engine.registry import GAMES

    return {game: hook.values for game in GAMES if (hook := exact_solver(game)) is not None}


ORACLES: dict[str, Oracle] = _oracles()
"""Game id -> its exact oracle (from the game's ``EXACT`` hook); a game not listed is
analysed by search only."""


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """One move: its values before and after (the mover's view), the best move and a mark."""

    index: int
    """Moves played before it (0 for the first move)."""
    player: int
    move: str
    kind: Literal["exact", "search"]
    before: Value
    """The position's value: that of its best move."""
    after: Value
    """The value of the move played."""
    best: str | None = None
    """A better move, when the played one is worse (else None)."""
    best_value: Value | None = None
    mark: str | None = None
    """``??``, ``?`` or ``?!`` (see :data:`MARKS`), or None."""
    change: str | None = None
    """For exact values, the change of outcome (``win->loss``), or None."""

    @property
    def drop(self) -> float:
        """Expected score lost by this move (0..1)."""
        return max(0.0, expected(self.before) - expected(self.after))

    @property
    def accuracy(self) -> float:
        """Lichess's move accuracy (0..100) for this drop."""
        return move_accuracy(self.drop)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (values from the mover's view, with their kind)."""
        return {
            "ply": self.index + 1, "player": self.player, "move": self.move, "kind": self.kind,
            "before": value_json(self.before), "after": value_json(self.after),
            "best": self.best,
            "best_value": None if self.best_value is None else value_json(self.best_value),
            "mark": self.mark, "label": MARKS.get(self.mark or ""), "change": self.change,
            "drop": round(self.drop, 4),
        }


def value_json(value: Value) -> dict[str, Any]:
    """A value as JSON: ``{"exact": …}`` or ``{"score": …}``, with its text."""
    if isinstance(value, Exact):
        return {"outcome": {1: "win", 0: "draw", -1: "loss"}[value.outcome],
                "plies": value.plies, "score": value.score, "text": value.words()}
    return {"score": round(value, 4), "text": f"{round(value, 2) + 0.0:+.2f}"}


def move_accuracy(drop: float) -> float:
    """Lichess's accuracy of a move that loses ``drop`` (0..1) of expected score."""
    return max(0.0, min(100.0, 103.1668 * math.exp(-0.04354 * 100 * drop) - 3.1669))


@dataclass
class PlayerSummary:
    """One player's moves in the analysis: accuracy and counts of each mark."""

    moves: int = 0
    accuracy: float | None = None
    marks: dict[str, int] = field(default_factory=lambda: {g: 0 for g in MARKS})
    changes: dict[str, int] = field(default_factory=dict)
    """Changes of outcome this player made (exact values), by kind."""
    gifts: int = 0
    """The opponent's changes of outcome in this player's favour."""


@dataclass(frozen=True, slots=True)
class Annotation:
    """What a record says of the position after ``index`` moves (0 = the start)."""

    index: int
    eval: Value | None
    best: str | None = None
    best_value: Value | None = None
    mark: str | None = None


@dataclass
class GameAnalysis:
    """The analysis of one game: a result per move (None where not yet analysed)."""

    record: GameRecord
    moves: list[MoveAnalysis | None]
    seconds: float
    complete: bool = False
    """False when the analysis was stopped before every move was analysed."""
    search_spec: str = SEARCH_SPEC
    """The brain that gave the search scores."""

    def summary(self) -> tuple[PlayerSummary, PlayerSummary]:
        """Per player (first, second): moves analysed, accuracy, marks, changes, gifts."""
        out = (PlayerSummary(), PlayerSummary())
        totals = [0.0, 0.0]
        for m in self.moves:
            if m is None:
                continue
            s = out[m.player]
            s.moves += 1
            totals[m.player] += m.accuracy
            if m.mark:
                s.marks[m.mark] += 1
            if m.change:
                s.changes[m.change] = s.changes.get(m.change, 0) + 1
                out[1 - m.player].gifts += 1
        for p in (0, 1):
            if out[p].moves:
                out[p].accuracy = round(totals[p] / out[p].moves, 1)
        return out

    def evals(self) -> list[Value | None]:
        """The value of every position (start first) from the first player's view:
        the start's from the first move's analysis, then each move's value after it."""
        out: list[Value | None] = [None] * (len(self.moves) + 1)
        first = self.moves[0] if self.moves else None
        if first is not None:
            out[0] = first.before if first.player == 0 else flip(first.before)
        for m in self.moves:
            if m is not None:
                out[m.index + 1] = reached(m.after, m.player)
        return out

    def annotations(self) -> list[Annotation]:
        """The analysis as :func:`read_annotations` reads it from an annotated record:
        one per position with a value or a mark (values from the first player's view)."""
        out = []
        for i, value in enumerate(self.evals()):
            m = self.moves[i - 1] if i else None
            best = m.best if m is not None else None
            best_value = (reached(m.best_value, m.player)
                          if m is not None and m.best_value is not None and best else None)
            mark = m.mark if m is not None else None
            if value is not None or best is not None or mark is not None:
                out.append(Annotation(i, value, best, best_value, mark))
        return out

    def to_json(self) -> dict[str, Any]:
        """The whole analysis as a JSON-ready dict."""
        summary = self.summary()
        players = (self.record.tags.get("First", "first"), self.record.tags.get("Second", "second"))
        return {
            "game": self.record.game, "result": self.record.result, "seconds": self.seconds,
            "search": self.search_spec, "complete": self.complete,
            "moves": [m.to_json() for m in self.moves if m is not None],
            "evals": [None if v is None else eval_text(v) for v in self.evals()],
            "players": [{"name": players[p], "moves": s.moves, "accuracy": s.accuracy,
                         "marks": {MARKS[g]: n for g, n in s.marks.items()},
                         "changes": s.changes, "gifts": s.gifts}
                        for p, s in enumerate(summary)],
        }


# --------------------------------------------------------------------------- analysis

Progress = Callable[[MoveAnalysis, int, int], None]
"""Called after each move's analysis with the result, moves done and moves in all."""


def _judge(index: int, state: AnyState, move: Any, values: dict[Any, Value],
           kind: Literal["exact", "search"]) -> MoveAnalysis:
    """The analysis of ``move`` in ``state`` from every legal move's value."""
    best_move = max(values, key=lambda m: rank(values[m]))
    before, after = values[best_move], values[move]
    better = rank(after) < rank(before) and (
        kind == "exact" or float(before) - float(after) >= BEST_MARGIN)  # type: ignore[arg-type]
    drop = expected(before) - expected(after)
    mark = ("??" if drop >= BLUNDER - EQUAL else "?" if drop >= MISTAKE - EQUAL
            else "?!" if drop >= INACCURACY - EQUAL else None)
    change = None
    if isinstance(before, Exact) and isinstance(after, Exact) and after.outcome < before.outcome:
        names = {1: "win", 0: "draw", -1: "loss"}
        change = f"{names[before.outcome]}->{names[after.outcome]}"
    return MoveAnalysis(index, state.to_move, state.format_move(move), kind, before, after,
                        state.format_move(best_move) if better else None,
                        before if better else None, mark, change)


def check_search(spec: str, game: str) -> None:
    """Refuse (ValueError, one line) a brain spec that cannot score ``game``'s moves."""
    from brains.protocol import Brain
    from brains.registry import make_brain

    brain = make_brain(spec, game)
    if type(brain).analyse is Brain.analyse:
        raise ParlorError(f"{brain.name} cannot score moves; use alphabeta or minimax")


def iter_analysis(record: GameRecord, seconds: float = DEFAULT_SECONDS, *,
                  stop: threading.Event | None = None,
                  oracles: dict[str, Oracle] | None = None,
                  search_spec: str = SEARCH_SPEC) -> Iterator[MoveAnalysis]:
    """Yield the analysis of each move of ``record`` as it is found.

    Exact values first, from the last move back (a solver's table then serves the
    earlier positions, and once the oracle cannot settle a position in ``seconds`` the
    earlier, harder ones are not tried); then the remaining moves, first to last, by a
    search of ``seconds`` each. Setting ``stop`` ends it promptly (no more yields).
    """
    from brains.minimax import Stopped
    from brains.registry import make_brain

    stop = stop or threading.Event()
    states = record.states()
    moves = [states[i].parse_move(text) for i, text in enumerate(record.moves)]
    oracle = (ORACLES if oracles is None else oracles).get(record.game)
    todo = list(range(len(moves)))
    if oracle is not None:
        cache: dict[str, Any] = {}
        for i in reversed(todo):
            if stop.is_set():
                return
            values = oracle(states[i], Budget(seconds=seconds, stop=stop).start(), cache)
            if values is None or moves[i] not in values:
                break
            todo.remove(i)
            yield _judge(i, states[i], moves[i], dict(values), "exact")
    brain = None
    for i in todo:
        if stop.is_set():
            return
        if brain is None:
            brain = make_brain(search_spec, record.game)
        try:
            scores = brain.analyse(states[i], Budget(seconds=seconds, stop=stop))
        except Stopped:
            scores = {}
        if stop.is_set():
            return
        if moves[i] not in scores:  # not even one ply finished: the position stays unscored
            continue
        yield _judge(i, states[i], moves[i], dict(scores), "search")


def analyse_game(record: GameRecord, seconds: float = DEFAULT_SECONDS, *,
                 progress: Progress | None = None, stop: threading.Event | None = None,
                 oracles: dict[str, Oracle] | None = None,
                 search_spec: str = SEARCH_SPEC) -> GameAnalysis:
    """Analyse every move of ``record`` (see :func:`iter_analysis`), calling ``progress``
    after each; a ``stop`` set from another thread returns what was found so far."""
    result = GameAnalysis(record, [None] * len(record.moves), seconds, search_spec=search_spec)
    found = iter_analysis(record, seconds, stop=stop, oracles=oracles, search_spec=search_spec)
    for done, m in enumerate(found, 1):
        result.moves[m.index] = m
        if progress is not None:
            progress(m, done, len(record.moves))
    result.complete = all(m is not None for m in result.moves) and not (stop and stop.is_set())
    return result


# --------------------------------------------------------------------------- records

_COMMAND = re.compile(r"\[%(eval|best)\s+([^\]]*)\]\s*")


def _strip(comment: str) -> str:
    """``comment`` without earlier analysis commands."""
    return _COMMAND.sub("", comment).strip()


def annotate(record: GameRecord, analysis: GameAnalysis) -> GameRecord:
    """A copy of ``record`` with the analysis as ``[%eval]``/``[%best]`` comments and marks.

    Comments already there are kept (earlier analysis commands are replaced), and so are
    annotation glyphs other than the marks analysis writes.
    """
    out = copy.deepcopy(record)
    evals = analysis.evals()
    for i, value in enumerate(evals):
        m = analysis.moves[i - 1] if i else None
        parts = [] if value is None else [f"[%eval {eval_text(value)}]"]
        if m is not None and m.best is not None and m.best_value is not None:
            best = reached(m.best_value, m.player)
            parts.append(f"[%best {m.best} {eval_text(best)}]")
        kept = _strip(out.comments.get(i, ""))
        text = " ".join(parts + ([kept] if kept else []))
        if text:
            out.comments[i] = text
        else:
            out.comments.pop(i, None)
        if i:
            nags = [g for g in out.nags.get(i, [])
                    if g not in MARKS and g not in ("$2", "$4", "$6")]
            if m is not None and m.mark:
                nags.insert(0, m.mark)
            if nags:
                out.nags[i] = nags
            else:
                out.nags.pop(i, None)
    return out


def read_annotations(record: GameRecord) -> list[Annotation]:
    """Analysis comments and marks of ``record``, one per annotated position, in order.

    Values are from the first player's view, as written. Commands that do not parse are
    ignored (a record may come from anywhere).
    """
    out = []
    for i in range(len(record.moves) + 1):
        comment = record.comments.get(i, "")
        value = best = best_value = None
        for name, arg in _COMMAND.findall(comment):
            if name == "eval" and value is None:
                value = parse_eval(arg)
            elif name == "best" and best is None:
                fields = arg.split()
                if len(fields) == 2 and len(fields[0]) <= 16:
                    best, best_value = fields[0], parse_eval(fields[1])
        symbols = {"$2": "?", "$4": "??", "$6": "?!"}
        marks = [symbols.get(g, g) for g in record.nags.get(i, []) if symbols.get(g, g) in MARKS]
        mark = marks[0] if marks and i else None
        if value is not None or best is not None or mark is not None:
            out.append(Annotation(i, value, best, best_value, mark))
    return out


# --------------------------------------------------------------------------- graph

BLOCKS = " ▁▂▃▄▅▆▇█"
ASCII_BLOCKS = " .:-=+*#%"
UNKNOWN = {False: "·", True: "?"}
"""The bottom of a column whose position has no value (Unicode, ASCII)."""


def column_of(index: int, count: int, width: int) -> int:
    """The column of :func:`eval_graph`'s output that shows position ``index`` of ``count``."""
    if count <= 1 or width <= 1:
        return 0
    columns = min(width, count)
    return round(index * (columns - 1) / (count - 1))


def eval_graph(values: Sequence[Value | None], width: int, height: int = 1, *,
               ascii: bool = False) -> list[str]:
    """The evaluation over a game as ``height`` lines of at most ``width`` block characters.

    Each column shows the first player's expected score (full: the first player wins,
    empty: the second does, half: equal); a position without a value shows only a dot
    (``?`` in ASCII) at the bottom.
    With more positions than columns, each column shows the position
    :func:`column_of` maps to it.
    """
    blocks = ASCII_BLOCKS if ascii else BLOCKS
    count = len(values)
    if count == 0 or width < 1 or height < 1:
        return [""] * max(height, 0)
    columns = min(width, count)
    levels: list[int | None] = []
    for c in range(columns):
        i = c if columns == count else round(c * (count - 1) / (columns - 1)) if columns > 1 else 0
        v = values[i]
        levels.append(None if v is None else round(expected(v) * 8 * height))
    rows = []
    for r in range(height):
        base = (height - 1 - r) * 8
        unknown = UNKNOWN[ascii] if r == height - 1 else " "
        rows.append("".join(unknown if lv is None else blocks[max(0, min(8, lv - base))]
                            for lv in levels))
    return rows
