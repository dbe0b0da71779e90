"""The analysis panel says how much of its verdict is proven: exact positions against
search scores, counted over what it has valued (a Connect Four game in its opening is
mostly search scores where the solver runs out of time)."""

from __future__ import annotations

from brains.analysis import Annotation, Exact
from engine.record import GameRecord
from engine.registry import new_game
from tui.app.widgets.analysis_panel import AnalysisPanel


def panel_for(line: str) -> AnalysisPanel:
    state = new_game("connect4")
    moves = []
    for text in line.split():
        move = state.parse_move(text)
        moves.append(move)
        state = state.play(move)
    record = GameRecord.from_moves(new_game("connect4"), moves, First="a", Second="b")
    return AnalysisPanel(record, record.states())


def test_the_panel_counts_exact_positions_and_search_scores() -> None:
    panel = panel_for("4 4 3")
    panel.source = "record"
    panel.annotations = {0: Annotation(0, 0.25), 1: Annotation(1, Exact(1, 12)),
                         2: Annotation(2, Exact(0)), 3: Annotation(3, -0.5)}
    text = panel.text(3).plain
    assert "2 of 4 positions exact, 2 search scores" in text
    panel.annotations = {0: Annotation(0, 0.25), 1: Annotation(1, None)}
    assert "0 of 1 positions exact, 1 search scores" in panel.text(1).plain


def test_nothing_valued_yet_says_no_count() -> None:
    panel = panel_for("4")
    panel.source = "record"
    panel.annotations = {}
    assert "positions exact" not in panel.text(1).plain
