"""AnalysisPanel: a recorded game's analysis in Replay, run in a thread worker or read
from the record.

The panel owns the analysis (:mod:`brains.analysis`): :meth:`AnalysisPanel.start` runs
:func:`brains.analysis.iter_analysis` in a thread worker that posts each move's result
as it is found, so the screen keeps stepping while it runs; :meth:`AnalysisPanel.stop`
(and leaving the screen) sets its stop event. A record that already carries an analysis
(``[%eval]``/``[%best]`` comments and marks, docs/ANALYSIS.md) is shown at once from
:func:`brains.analysis.read_annotations`, without running anything.

Whatever the source, what is shown is one :class:`brains.analysis.Annotation` per
position (values from the first player's view); the screen asks the panel for each
move's mark (:meth:`AnalysisPanel.mark`), the better move to draw on the board
(:meth:`AnalysisPanel.better_move`) and every position's value (for the graph), and
gets :class:`AnalysisPanel.Changed` whenever any of them changes.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from rich.text import Text
from textual import on, work
from textual.message import Message
from textual.widgets import Static

from brains.analysis import (
    DEFAULT_SECONDS,
    MARKS,
    SEARCH_SPEC,
    Annotation,
    Exact,
    GameAnalysis,
    MoveAnalysis,
    Value,
    annotate,
    expected,
    flip,
    iter_analysis,
    move_accuracy,
    read_annotations,
)
from engine.protocol import AnyState
from engine.record import GameRecord

ANALYSIS_SECONDS = DEFAULT_SECONDS
"""Seconds per position (exact oracle, then search where it cannot settle one)."""
ANALYSIS_SEARCH = SEARCH_SPEC
"""The brain giving search scores where no oracle settles a position."""
ERROR_CHARS = 60
"""How much of a failed analysis's error message is quoted."""


def mover_view(value: Value, mover: int) -> Value:
    """A value from the first player's view, seen by ``mover``."""
    return value if mover == 0 else flip(value)


def value_words(value: Value, state: AnyState) -> str:
    """The value of ``state`` (first player's view) for people, from the side to move's
    view, marked exact or search: ``X to move: win in 5 (exact)``."""
    names = state.PLAYERS
    if isinstance(value, Exact):
        if value.outcome and value.plies == 0:
            return f"{names[0 if value.outcome > 0 else 1]} has won (exact)"
        if state.outcome() is not None and value.outcome == 0:
            return "drawn (exact)"
        own = value if state.to_move == 0 else value.flipped()
        return f"{names[state.to_move]} to move: {own.words()} (exact)"
    score = value if state.to_move == 0 else -value
    return f"{names[state.to_move]} to move: {round(score, 2) + 0.0:+.2f} (search score)"


def best_words(value: Value | None, mover: int) -> str:
    """The value of a better move (written as the value of the position it reaches, first
    player's view) from the mover's view, with an exact distance counted from before it."""
    if value is None:
        return "?"
    own = mover_view(value, mover)
    if isinstance(own, Exact):
        if own.outcome and own.plies is not None:
            own = Exact(own.outcome, own.plies + 1, own.score)
        return f"{own.words()}, exact"
    return f"{round(own, 2) + 0.0:+.2f}, search"


def change_of(before: Value | None, after: Value | None, mover: int) -> str | None:
    """``draw->loss`` and the like when two exact values (first player's view) show the
    mover's move changed the outcome against them; else None."""
    if not isinstance(before, Exact) or not isinstance(after, Exact):
        return None
    was = before if mover == 0 else before.flipped()
    now = after if mover == 0 else after.flipped()
    if now.outcome >= was.outcome:
        return None
    names = {1: "win", 0: "draw", -1: "loss"}
    return f"{names[was.outcome]}->{names[now.outcome]}"


class AnalysisProgress(Message):
    """One move's analysis, found by the worker of run ``token``."""

    def __init__(self, token: int, result: MoveAnalysis) -> None:
        super().__init__()
        self.token = token
        self.result = result


class AnalysisEnded(Message):
    """The worker of run ``token`` ended: finished, stopped, or failed with ``error``."""

    def __init__(self, token: int, error: str | None = None) -> None:
        super().__init__()
        self.token = token
        self.error = error


class AnalysisPanel(Static):
    """The analysis at the replay's cursor: progress, the position's value, the move's
    mark and better move, and once complete a summary per player."""

    DEFAULT_CSS = """
    AnalysisPanel {
        width: 100%;
        height: auto;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: ellipsis;
    }
    """

    class Changed(Message):
        """What the analysis says changed (a move analysed, a run started or ended)."""

    def __init__(self, record: GameRecord, states: list[AnyState], *,
                 id: str | None = None) -> None:
        super().__init__(id=id, markup=False)
        self.record = record
        self.states = states
        self.annotations: dict[int, Annotation] = {}
        """What is known of each position (index: moves played), first player's view."""
        self.source: str | None = None
        """``record`` (read from its comments), ``analysis`` (run here) or None."""
        self.analysis: GameAnalysis | None = None
        """The analysis run here, filled in as moves are analysed."""
        self.running = False
        self.done = 0
        self.message = ""
        self.index = len(states) - 1
        self.token = 0
        self.stop_event = threading.Event()
        self.started = 0.0
        self.elapsed = 0.0
        self.read_record()

    # -- sources --------------------------------------------------------------------
    def read_record(self) -> None:
        """Take the analysis the record carries, if any."""
        found = read_annotations(self.record)
        if found:
            self.annotations = {a.index: a for a in found}
            self.source = "record"

    def start(self, seconds: float | None = None) -> None:
        """Analyse the game in a thread worker (a run already going is stopped first)."""
        self.stop()
        self.token += 1
        self.stop_event = threading.Event()
        self.analysis = GameAnalysis(self.record, [None] * len(self.record.moves),
                                     ANALYSIS_SECONDS if seconds is None else seconds,
                                     search_spec=ANALYSIS_SEARCH)
        self.annotations = {}
        self.source = "analysis"
        self.running = True
        self.done = 0
        self.message = ""
        self.started = time.monotonic()
        self.run_analysis(self.record, self.analysis.seconds, self.stop_event, self.token)
        self.changed()

    def stop(self) -> None:
        """Stop a running analysis; what was found stays shown."""
        self.stop_event.set()
        if self.running:
            self.running = False
            self.elapsed = time.monotonic() - self.started
            self.message = "stopped"
            self.changed()

    def on_unmount(self) -> None:
        self.stop_event.set()  # the worker thread checks it between (and inside) positions

    @work(thread=True, exclusive=True, group="analysis", exit_on_error=False)
    def run_analysis(self, record: GameRecord, seconds: float, stop: threading.Event,
                     token: int) -> None:
        """Post each move's analysis as it is found, then the end of the run."""
        try:
            for result in iter_analysis(record, seconds, stop=stop, search_spec=ANALYSIS_SEARCH):
                self.post_message(AnalysisProgress(token, result))
        except Exception as exc:  # noqa: BLE001 - a failing brain must not take the app down
            self.post_message(AnalysisEnded(token, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(AnalysisEnded(token))

    @on(AnalysisProgress)
    def on_progress(self, event: AnalysisProgress) -> None:
        if event.token != self.token or self.analysis is None or not self.running:
            return
        result = event.result
        if not 0 <= result.index < len(self.analysis.moves):
            return
        if self.analysis.moves[result.index] is None:
            self.done += 1
        self.analysis.moves[result.index] = result
        self.annotations = {a.index: a for a in self.analysis.annotations()}
        self.changed()

    @on(AnalysisEnded)
    def on_ended(self, event: AnalysisEnded) -> None:
        if event.token != self.token or self.analysis is None:
            return
        if self.running:
            self.elapsed = time.monotonic() - self.started
        stopped = self.stop_event.is_set()
        self.running = False
        self.analysis.complete = (not stopped and event.error is None
                                  and all(m is not None for m in self.analysis.moves))
        if event.error is not None:
            self.message = f"failed: {event.error[:ERROR_CHARS]}"
        elif stopped:
            self.message = "stopped"
        elif not self.record.moves:
            self.message = "(no moves)"
        self.changed()

    def changed(self) -> None:
        """Redraw, and tell the screen (marks, hint and graph follow the analysis)."""
        self.show_at(self.index)
        self.post_message(self.Changed())

    # -- what the screen asks -------------------------------------------------------
    @property
    def complete(self) -> bool:
        """Every move has its value and mark (a finished run, or a fully annotated record)."""
        if self.source == "analysis":
            return self.analysis is not None and self.analysis.complete
        n = len(self.record.moves)
        return self.source == "record" and all(
            i in self.annotations and self.annotations[i].eval is not None for i in range(n + 1))

    @property
    def shown(self) -> bool:
        """Whether there is anything to show (a run started, or a record's analysis)."""
        return self.source is not None

    def evals(self) -> list[Value | None]:
        """Every position's value (start first), first player's view; None where unknown."""
        return [a.eval if (a := self.annotations.get(i)) is not None else None
                for i in range(len(self.states))]

    def mark(self, move: int) -> str:
        """The mark (``??``, ``?``, ``?!`` or "") of move ``move`` (0-based)."""
        a = self.annotations.get(move + 1)
        return a.mark if a is not None and a.mark else ""

    def better_move(self, index: int) -> Any:
        """The better move than the one that led to position ``index`` (a move of the
        position before it), or None; a record's text that does not parse gives None."""
        a = self.annotations.get(index)
        if index < 1 or a is None or a.best is None:
            return None
        try:
            move = self.states[index - 1].parse_move(a.best)
        except Exception:  # noqa: BLE001 - a record's [%best] text is untrusted input
            return None
        return move if move in self.states[index - 1].legal_moves() else None

    def annotated_record(self) -> GameRecord | None:
        """The record with the analysis run here written in (None while it runs, or when
        it found nothing)."""
        if self.source != "analysis" or self.analysis is None or self.running or not self.done:
            return None
        return annotate(self.record, self.analysis)

    def written(self, name: str) -> None:
        """Say, in the panel (it stays until the next run), that the analysed copy was
        written to the saved game ``name``."""
        self.message = f"written to {name} (saved games)"
        self.changed()

    # -- drawing --------------------------------------------------------------------
    def show_at(self, index: int) -> None:
        """Show the analysis of the position after ``index`` moves."""
        self.index = index
        self.display = self.shown
        if not self.shown:
            return
        self.update(self.text(index))

    def text(self, index: int) -> Text:
        """The panel's lines for position ``index``."""
        total = len(self.record.moves)
        text = Text(no_wrap=True, overflow="ellipsis")
        if self.source == "record":
            text.append("Analysis (from the record)", "bold")
        elif self.running:
            text.append(f"analysing {self.done}/{total}…", "bold")
            text.append("  e stops", "dim")
        else:
            text.append(f"Analysis {self.done}/{total}", "bold")
            if self.message:
                text.append(f" {self.message}")
            else:
                text.append(f" in {self.elapsed:.1f} s")
            if self.annotated_record() is not None and not self.message.startswith("written"):
                text.append("  w saves", "dim")
        known = [v for v in self.evals() if v is not None]
        if known:  # how much of it is proven, and how much only a search's opinion
            exact = sum(isinstance(v, Exact) for v in known)
            text.append(f"\n{exact} of {len(known)} positions exact, "
                        f"{len(known) - exact} search scores")
        state = self.states[index]
        a = self.annotations.get(index)
        text.append("\nHere: ")
        text.append(value_words(a.eval, state) if a is not None and a.eval is not None
                    else "not valued yet", "italic" if a is None or a.eval is None else "")
        if index:
            text.append("\n")
            text.append_text(self.move_text(index))
        if self.complete:
            for line in self.summary_lines():
                text.append("\n" + line)
        return text

    def move_text(self, index: int) -> Text:
        """The move that led to position ``index``: its mark, a change of outcome, and
        the better move with its value."""
        before = self.states[index - 1]
        mover = before.to_move
        number = f"{(index + 1) // 2}{'.' if mover == 0 else '...'}"
        text = Text(f"{number} {self.record.moves[index - 1]}{self.mark(index - 1)}")
        a = self.annotations.get(index)
        prev = self.annotations.get(index - 1)
        if a is None:
            return text
        if a.mark:
            text.append(f" {MARKS[a.mark]}", "bold")
        change = change_of(prev.eval if prev is not None else None, a.eval, mover)
        if change:
            text.append(f" ({change})")
        if a.best is not None and self.better_move(index) is not None:
            text.append(f"\n  better {a.best} ({best_words(a.best_value, mover)}), shown > <")
        elif not a.mark and a.eval is not None:
            text.append(" (no better move)", "dim")
        return text

    def summary_lines(self) -> list[str]:
        """One line per player: accuracy and counts of each mark."""
        names = self.states[0].PLAYERS  # who played them is in the status above
        lines = []
        for p, (accuracy, counts) in enumerate(self.summary()):
            acc = "-" if accuracy is None else f"{accuracy:.1f}"
            marks = ", ".join(f"{g} {n}" for g, n in counts.items())
            lines.append(f"{names[p]} accuracy {acc}, {marks}")
        return lines

    def summary(self) -> list[tuple[float | None, dict[str, int]]]:
        """Per player: accuracy and counts of each mark. A run here uses its own summary;
        a record's analysis takes each move's drop between the values written before and
        after it (the lichess way)."""
        if self.source == "analysis" and self.analysis is not None:
            return [(s.accuracy, dict(s.marks)) for s in self.analysis.summary()]
        counts = [{g: 0 for g in MARKS}, {g: 0 for g in MARKS}]
        scores: list[list[float]] = [[], []]
        evals = self.evals()
        for i in range(1, len(self.states)):
            mover = self.states[i - 1].to_move
            mark = self.mark(i - 1)
            if mark:
                counts[mover][mark] += 1
            before, after = evals[i - 1], evals[i]
            if before is not None and after is not None:
                drop = expected(mover_view(before, mover)) - expected(mover_view(after, mover))
                scores[mover].append(move_accuracy(max(0.0, drop)))
        return [(round(sum(s) / len(s), 1) if s else None, counts[p])
                for p, s in enumerate(scores)]
