"""Pilot tests of the analysis in Replay: run in a worker, marks, better move, graph,
a record's own analysis, writing the analysed game."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from brains import analysis
from brains.heuristics.connect4 import oracle as connect4_oracle
from brains.heuristics.tictactoe import EXACT as TICTACTOE
from engine.formats import load_records
from tests.tui.conftest import settle
from tui.app.main import Launch, ParlorApp
from tui.app.screens.replay import ReplayScreen
from tui.app.widgets.analysis_panel import AnalysisPanel
from tui.app.widgets.board import BoardWidget
from tui.app.widgets.eval_graph import EvalGraph, index_at
from tui.app.widgets.move_list import MoveList
from tui.player import paths

SIZE = (80, 24)

TTT_TEXT = """[Game "tictactoe"]
[First "x"]
[Second "o"]
[Result "1-0"]

1. b1 b2 2. c3 a3 3. c1 a2 4. a1 1-0
"""
"""O's a3 (4th ply) turns a drawn position into a loss: a1 holds the draw (the blunder
game of tests/brains/test_analysis.py, checked there by full search)."""
BLUNDER = 4
"""The position after the blunder (moves played)."""

TTT_ANNOTATED = """[Game "tictactoe"]
[First "x"]
[Second "o"]
[Result "1-0"]

{[%eval =0]} 1. b1 {[%eval =0]} b2 {[%eval =0]} 2. c3 {[%eval =0]}
a3?? {[%eval #3] [%best a1 =0]} 3. c1 {[%eval #2]} a2 {[%eval #1]} 4. a1 {[%eval #+0]} 1-0
"""
"""The same game with its analysis written in (docs/ANALYSIS.md, "In the record")."""

C4_SEARCH_ANNOTATED = """[Game "connect4"]
[First "a"]
[Second "b"]
[Result "*"]

1. 4 {[%eval 0.12]} 4 {[%eval 0.05]} 2. 3 {[%eval 0.20]} 7?! {[%eval 0.45] [%best 5 0.15]} *
"""
"""A Connect Four record with search scores and an inaccuracy (5 was better than 7)."""


C4_TEXT = """[Game "connect4"]
[First "first"]
[Second "second"]
[Result "1-0"]

5 2 2 6 6 2 1 2 4 4 3 3 7 3 4 7 5 4 3 7 2 1-0
"""
"""Yellow's 20th ply (column 7) throws a won position away: column 2 wins, 7 lets Red win
at once (the game of tests/brains/test_analysis.py, checked there by the solver)."""
C4_BLUNDER = 20
"""The position after the blunder (moves played)."""


def text_of(widget: Any) -> str:
    """What a Static-like widget shows now, as plain text."""
    return str(widget.render())


def replay_app(tmp_path: Path, text: str, name: str = "game.pgn", **kwargs: Any) -> ParlorApp:
    """The app replaying ``text`` saved as ``name``."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return ParlorApp(Launch(kind="replay", path=path), **kwargs)


def gated_oracle(gate: threading.Event, entered: threading.Event) -> analysis.Oracle:
    """The tic-tac-toe oracle, held back until ``gate`` is set (or its budget stops)."""

    def oracle(state: Any, budget: Any, cache: dict[str, Any]) -> Any:
        entered.set()
        while not gate.wait(0.02):
            if budget.expired():
                return None
        return TICTACTOE.values(state, budget, cache)

    return oracle


async def test_evaluate_marks_the_blunder_and_draws_the_better_move(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # the solver settles every position at once; a busy machine must not turn it into search
    monkeypatch.setattr("tui.app.widgets.analysis_panel.ANALYSIS_SECONDS", 600.0)
    app = replay_app(tmp_path, TTT_TEXT, "ttt.pgn")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        panel = screen.query_one(AnalysisPanel)
        graph = screen.query_one(EvalGraph)
        assert not panel.display and not graph.display  # nothing to show before `e`
        assert "??" not in text_of(screen.query_one(MoveList))
        await pilot.press("e")
        await settle(pilot)
        assert panel.complete and not panel.running
        assert "a3??" in text_of(screen.query_one(MoveList))
        assert [panel.mark(i) for i in range(7)] == ["", "", "", "??", "", "", ""]
        board = screen.query_one(BoardWidget)
        states = screen.states
        await pilot.press("home", *["right"] * BLUNDER)
        assert screen.index == BLUNDER
        assert board.hint == states[BLUNDER - 1].parse_move("a1")
        shown = text_of(panel)
        assert "a3?? blunder (draw->loss)\n  better a1 (draw, exact), shown > <" in shown
        assert "X to move: win in 3 (exact)" in shown
        await pilot.press("left")  # b2 -> c3: no better move, no hint
        assert board.hint is None and "Here: O to move: draw (exact)" in text_of(panel)
        # the graph: every position valued, its cursor on the shown position
        assert graph.display and len(graph.values) == 8 and None not in graph.values
        assert graph.cursor == BLUNDER - 1
        assert "X accuracy 100.0, ?! 0, ? 0, ?? 0" in text_of(panel)
        o_accuracy = round((100 + analysis.move_accuracy(0.5) + 100) / 3, 1)  # b2, a3??, a2
        assert f"O accuracy {o_accuracy}, ?! 0, ? 0, ?? 1" in text_of(panel)
        await pilot.press("end")
        assert graph.cursor == 7 and "X has won (exact)" in text_of(panel)


async def test_a_connect4_move_that_throws_a_win_away_is_marked_by_the_solver(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def late(state: Any, budget: Any, cache: dict[str, Any]) -> Any:  # the solver, late only
        return connect4_oracle(state, budget, cache) if state.ply >= 17 else None

    from brains.kernels import connect4 as kernel

    kernel.warm_up()  # a fresh clone compiles the solver first: not the analysis' time
    monkeypatch.setitem(analysis.ORACLES, "connect4", late)
    monkeypatch.setattr("tui.app.widgets.analysis_panel.ANALYSIS_SECONDS", 600.0)
    monkeypatch.setattr("tui.app.widgets.analysis_panel.ANALYSIS_SEARCH",
                        "alphabeta,depth=2,seconds=none")
    app = replay_app(tmp_path, C4_TEXT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("e")
        await settle(pilot)
        screen = app.screen
        panel = screen.query_one(AnalysisPanel)
        assert panel.complete
        assert panel.mark(C4_BLUNDER - 1) == "??" and "7??" in text_of(screen.query_one(MoveList))
        await pilot.press("end", "left")
        assert screen.index == C4_BLUNDER
        hint = screen.query_one(BoardWidget).hint
        assert hint == screen.states[C4_BLUNDER - 1].parse_move("2")
        shown = text_of(panel)
        assert "7?? blunder (win->loss)" in shown and "better 2 (win in" in shown
        assert "Red to move: win in 1 (exact)" in shown
        await pilot.press("home")
        assert "(search score)" in text_of(panel)  # the start is valued by the search


async def test_the_graph_follows_the_cursor_and_a_click_moves_it(tmp_path: Path) -> None:
    app = replay_app(tmp_path, TTT_ANNOTATED)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        graph = screen.query_one(EvalGraph)
        lines = text_of(graph).splitlines()
        width = graph.content_size.width
        assert len(lines) == 3 and lines[2].index("^") == analysis.column_of(7, 8, width)
        await pilot.press("home")
        assert text_of(graph).splitlines()[2].index("^") == 0
        await pilot.click(EvalGraph, offset=(graph.gutter.left + 4, 0))
        assert screen.index == index_at(4, 8, width) == 4
        assert screen.query_one(BoardWidget).hint is not None  # a3?? has a better move


async def test_stepping_works_while_the_analysis_runs_and_leaving_stops_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate, entered = threading.Event(), threading.Event()
    monkeypatch.setitem(analysis.ORACLES, "tictactoe", gated_oracle(gate, entered))
    monkeypatch.setattr("tui.app.widgets.analysis_panel.ANALYSIS_SECONDS", 60.0)
    app = replay_app(tmp_path, TTT_TEXT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        panel = screen.query_one(AnalysisPanel)
        board = screen.query_one(BoardWidget)
        await pilot.press("e")
        await pilot.pause()
        assert entered.wait(10)  # the worker is inside the (held) oracle
        assert panel.running and "analysing 0/7" in text_of(panel)
        await pilot.press("home", "right", "right")
        assert screen.index == 2 and board.state.key() == screen.states[2].key()
        await pilot.press("end", "left")
        assert screen.index == 6 and panel.running
        gate.set()  # let it go: every move is analysed, from the last back
        await settle(pilot)
        assert panel.complete and screen.index == 6
        assert "a3??" in text_of(screen.query_one(MoveList))
        # a second run, held again, then leave the screen: its stop event ends the worker
        gate.clear()
        entered.clear()
        await pilot.press("e")
        await pilot.pause()
        assert entered.wait(10) and panel.running
        stop = panel.stop_event
        workers = [w for w in app.workers if w.group == "analysis" and w.is_running]
        assert workers
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, ReplayScreen)
        assert stop.is_set() and not any(w.is_running for w in workers)


async def test_e_while_running_stops_it_and_nothing_found_is_not_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gate, entered = threading.Event(), threading.Event()
    monkeypatch.setitem(analysis.ORACLES, "tictactoe", gated_oracle(gate, entered))
    monkeypatch.setattr("tui.app.widgets.analysis_panel.ANALYSIS_SECONDS", 60.0)
    app = replay_app(tmp_path, TTT_TEXT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(AnalysisPanel)
        await pilot.press("e")
        assert entered.wait(10)
        await pilot.press("e")
        await settle(pilot)
        assert not panel.running and panel.stop_event.is_set() and not panel.complete
        assert "stopped" in text_of(panel)
        assert panel.done == 0 and "Here: not valued yet" in text_of(panel)
        await pilot.press("w")  # nothing was found: nothing to write
        assert not paths.saved_games_dir().exists() or not list(
            paths.saved_games_dir().glob("*.pgn"))


async def test_a_record_with_analysis_shows_it_without_running_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the analysis ran")

    monkeypatch.setattr("tui.app.widgets.analysis_panel.iter_analysis", refuse)
    app = replay_app(tmp_path, TTT_ANNOTATED)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        panel = screen.query_one(AnalysisPanel)
        assert panel.source == "record" and panel.complete and panel.display
        assert not [w for w in app.workers if w.group == "analysis"]
        assert "a3??" in text_of(screen.query_one(MoveList))
        await pilot.press("home", *["right"] * BLUNDER)
        assert screen.query_one(BoardWidget).hint == screen.states[BLUNDER - 1].parse_move("a1")
        shown = text_of(panel)
        assert "from the record" in shown and "better a1 (draw, exact)" in shown
        assert "(draw->loss)" in shown
        o_accuracy = round((100 + analysis.move_accuracy(0.5) + 100) / 3, 1)  # b2, a3??, a2
        assert f"O accuracy {o_accuracy}, ?! 0, ? 0, ?? 1" in shown
        await pilot.press("w")  # nothing new to write
        assert not list(paths.saved_games_dir().glob("*.pgn"))


async def test_search_scores_from_a_record_are_marked_as_such(tmp_path: Path) -> None:
    app = replay_app(tmp_path, C4_SEARCH_ANNOTATED)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        panel = screen.query_one(AnalysisPanel)
        shown = text_of(panel)
        assert "Red to move: +0.45 (search score)" in shown
        assert "7?! inaccuracy\n  better 5 (-0.15, search), shown > <" in shown
        assert screen.query_one(BoardWidget).hint == screen.states[3].parse_move("5")
        assert "7?!" in text_of(screen.query_one(MoveList))
        assert panel.evals() == [None, 0.12, 0.05, 0.20, 0.45] and not panel.complete


@pytest.mark.parametrize("best", ["zz9", "b1", "9" * 16])
async def test_a_bad_better_move_in_a_record_is_not_drawn(tmp_path: Path, best: str) -> None:
    text = TTT_ANNOTATED.replace("[%best a1 =0]", f"[%best {best} =0]")
    app = replay_app(tmp_path, text)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("home", *["right"] * BLUNDER)
        assert screen.index == BLUNDER and screen.query_one(BoardWidget).hint is None
        assert "a3??" in text_of(screen.query_one(MoveList))  # the mark itself stays


async def test_w_writes_the_analysed_game_to_a_new_file_each_time(tmp_path: Path) -> None:
    app = replay_app(tmp_path, TTT_TEXT, "ttt.pgn")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("w")  # nothing analysed yet: nothing written
        assert not paths.saved_games_dir().exists() or not list(
            paths.saved_games_dir().glob("*.pgn"))
        await pilot.press("e")
        await settle(pilot)
        await pilot.press("w")
        first = paths.saved_games_dir() / "ttt.analysed.pgn"
        assert first.is_file()
        panel = app.screen.query_one(AnalysisPanel)
        assert "written to ttt.analysed.pgn (saved games)" in text_of(panel)  # it stays
        assert "w saves" not in text_of(panel)
        written = first.read_text(encoding="utf-8")
        assert "a3??" in written and "[%best a1 =0]" in written
        await pilot.press("w")
        second = paths.saved_games_dir() / "ttt.analysed-2.pgn"
        assert second.is_file() and first.read_text(encoding="utf-8") == written
    record = load_records(first)[0]
    assert record.moves == load_records(tmp_path / "ttt.pgn")[0].moves
    assert [a.mark for a in analysis.read_annotations(record) if a.mark] == ["??"]


async def test_the_graph_is_ascii_when_the_app_is(tmp_path: Path) -> None:
    app = replay_app(tmp_path, TTT_ANNOTATED, ascii_board=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        graph = app.screen.query_one(EvalGraph)
        assert graph.ascii and text_of(graph).isascii() and "%" in text_of(graph)
        await pilot.press("b")
        assert not graph.ascii and "█" in text_of(graph)


async def test_evaluate_is_in_the_command_palette(tmp_path: Path) -> None:
    app = replay_app(tmp_path, TTT_TEXT)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Evaluate (e)" in titles and "Write (w)" in titles
