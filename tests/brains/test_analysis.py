"""Game analysis (brains/analysis.py): exact and search values, marks, write-back, graph."""

from __future__ import annotations

import random
import threading

import pytest

from brains import c4solver
from brains.analysis import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    ORACLES,
    Exact,
    _judge,
    analyse_game,
    annotate,
    column_of,
    eval_graph,
    eval_text,
    expected,
    iter_analysis,
    parse_eval,
    position_oracle,
    read_annotations,
)
from brains.heuristics.connect4 import oracle as connect4_oracle
from brains.heuristics.tictactoe import EXACT as TICTACTOE
from brains.protocol import Budget
from engine.formats import parse_records
from engine.record import GameRecord
from engine.registry import get_game

C4_TEXT = """[Game "connect4"]
[First "first"]
[Second "second"]
[Result "1-0"]

5 2 2 6 6 2 1 2 4 4 3 3 7 3 4 7 5 4 3 7 2 1-0
"""
"""A Connect Four game in which the second player's 20th ply (column 7) throws a won
position away: column 2 wins, column 7 lets the first player win at once."""
C4_BLUNDER = 19

TTT_TEXT = """[Game "tictactoe"]
[First "x"]
[Second "o"]
[Result "1-0"]

1. b1 b2 2. c3 a3 3. c1 a2 4. a1 1-0
"""
"""O's a3 (4th ply) turns a drawn position into a loss (a1 holds the draw)."""

FAST_SEARCH = "alphabeta,depth=2,seconds=none"


def late_only(stones: int):
    """The Connect Four oracle, but only from ``stones`` on (keeps the tests fast)."""
    def oracle(state, budget, cache):
        return connect4_oracle(state, budget, cache) if state.ply >= stones else None
    return oracle


def test_connect4_win_to_loss_is_marked_and_checked_by_the_solver():
    rec = parse_records(C4_TEXT)[0]
    # the solver itself: before the move the mover wins (column 2), the move played loses
    before = rec.states()[C4_BLUNDER]
    scores = c4solver.Solver().analyse(c4solver.position_of(before))
    assert scores[1] > 0 and scores[6] < 0
    result = analyse_game(rec, 30.0, oracles={"connect4": late_only(15)},
                          search_spec=FAST_SEARCH)
    blunder = result.moves[C4_BLUNDER]
    assert blunder.kind == "exact" and blunder.player == 1 and blunder.move == "7"
    assert blunder.change == "win->loss" and blunder.mark == "??"
    assert blunder.best == "2" and blunder.best_value.outcome == 1
    assert blunder.after == Exact(-1, 2, blunder.after.score)  # the opponent wins next ply
    others = [m for m in result.moves if m is not None and m.index != C4_BLUNDER]
    assert all(m.change is None for m in others)
    assert result.moves[0].kind == "search" and result.moves[-1].kind == "exact"
    first, second = result.summary()
    assert second.marks["??"] >= 1 and second.changes == {"win->loss": 1}
    assert first.gifts == 1 and second.gifts == 0


def test_tictactoe_blunder_draw_to_loss():
    result = analyse_game(parse_records(TTT_TEXT)[0], 10.0)
    assert result.complete and all(m.kind == "exact" for m in result.moves)
    marked = [(m.index, m.move, m.mark, m.change, m.best) for m in result.moves if m.mark]
    assert marked == [(3, "a3", "??", "draw->loss", "a1")]
    assert result.moves[3].after == Exact(-1, 4)  # x wins with its 4th move from here
    assert result.moves[6].after == Exact(1, 1)
    assert result.summary()[1].accuracy < result.summary()[0].accuracy == 100.0


def test_search_scored_marks_follow_the_scale():
    game = get_game("reversi").initial()
    rng, state, moves = random.Random(2), game, []
    while not state.is_terminal():  # a random game to its end
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    rec = GameRecord.from_moves(game, moves)
    # search scores only (no oracle), even where the Reversi endgame solver could settle it
    result = analyse_game(rec, 30.0, search_spec=FAST_SEARCH, oracles={})
    assert result.complete and all(m.kind == "search" for m in result.moves)
    for m in result.moves:
        drop = expected(m.before) - expected(m.after)
        want = ("??" if drop >= BLUNDER else "?" if drop >= MISTAKE
                else "?!" if drop >= INACCURACY else None)
        assert m.mark == want, (m, drop)
    assert any(m.mark == "??" for m in result.moves)  # random play errs by this scale


@pytest.mark.parametrize(("after", "mark"), [
    (0.4, None), (0.21, None), (0.2, "?!"), (0.0, "?"), (-0.2, "??"), (-1.0, "??")])
def test_the_scale_on_search_scores(after, mark):
    state = get_game("tictactoe").initial()
    best, played = state.legal_moves()[:2]
    m = _judge(0, state, played, {best: 0.4, played: after}, "search")
    assert m.mark == mark
    assert (m.best is None) == (after == 0.4)


def test_exact_changes_and_slower_wins():
    state = get_game("tictactoe").initial()
    a, b, c = state.legal_moves()[:3]
    slow = _judge(0, state, b, {a: Exact(1, 3), b: Exact(1, 5), c: Exact(0)}, "exact")
    assert slow.mark is None and slow.change is None and slow.best == state.format_move(a)
    draw = _judge(0, state, c, {a: Exact(1, 3), b: Exact(1, 5), c: Exact(0)}, "exact")
    assert (draw.mark, draw.change) == ("??", "win->draw")


def test_position_oracle_agrees_with_the_tictactoe_oracle():
    """The adapter that turns a position-value function into an oracle (how a database
    such as Morris's plugs in) gives the same values as the move-valuing oracle."""
    memo: dict = {}

    def value(state):
        key = state.key()
        if key not in memo:
            outcome = state.outcome()
            if outcome is not None:
                memo[key] = Exact(outcome.value_for(state.to_move), 0)
            else:
                kids = []
                for move in state.legal_moves():
                    v = value(state.play(move)).flipped()
                    kids.append(Exact(v.outcome, v.plies + 1 if v.outcome else None))
                memo[key] = max(kids, key=Exact.rank)
        return memo[key]

    oracle = position_oracle(lambda state, budget: value(state))
    state = get_game("tictactoe").initial().play_line("b2 a1 c3")
    for line in ("", "c1", "c1 a3", "c1 a3 a2"):
        s = state.play_line(line) if line else state
        assert oracle(s, Budget(), {}) == TICTACTOE.values(s, Budget(), {})


def test_oracles_cover_the_solved_games():
    assert set(ORACLES) >= {"tictactoe", "connect4"}


def test_an_oracle_out_of_time_gives_none():
    # 10 stones: out of the opening book's reach, a search of millions of nodes
    state = get_game("connect4").initial().play_line(list("4327742771"))
    stopped = threading.Event()
    stopped.set()
    assert connect4_oracle(state, Budget(stop=stopped).start(), {}) is None


def test_write_back_round_trip_and_read_back():
    rec = parse_records(TTT_TEXT)[0]
    rec.comments[1] = "a first move [%clk 0:01:00]"
    result = analyse_game(rec, 10.0)
    text = annotate(rec, result).to_text()
    assert "a3??" in text and "[%eval #3]" in text and "[%best a1 =0]" in text
    again = parse_records(text)[0]
    assert (again.moves, again.result, again.termination) == (rec.moves, rec.result,
                                                              rec.termination)
    assert "a first move [%clk 0:01:00]" in again.comments[1]
    notes = {a.index: a for a in read_annotations(again)}
    evals = result.evals()
    assert sorted(notes) == list(range(len(rec.moves) + 1))
    assert [eval_text(notes[i].eval) for i in notes] == [eval_text(v) for v in evals]
    assert notes[4].mark == "??" and notes[4].best == "a1" and notes[4].best_value == Exact(0)
    assert all(notes[i].mark is None for i in notes if i != 4)
    assert [_texts(a) for a in read_annotations(again)] == [_texts(a) for a in result.annotations()]
    # analysing the annotated record again replaces the analysis, keeps the rest
    assert annotate(again, analyse_game(again, 10.0)).to_text() == text


def _texts(a):
    return (a.index, None if a.eval is None else eval_text(a.eval), a.best,
            None if a.best_value is None else eval_text(a.best_value), a.mark)


def test_annotations_read_back_from_a_search_scored_record():
    rec = parse_records(C4_TEXT)[0]
    result = analyse_game(rec, 30.0, oracles={}, search_spec=FAST_SEARCH)
    again = parse_records(annotate(rec, result).to_text())[0]
    notes = read_annotations(again)
    assert [n.eval for n in notes] == pytest.approx(
        [round(v, 2) for v in result.evals()], abs=1e-9)
    assert [n.mark for n in notes[1:]] == [m.mark for m in result.moves]
    assert [_texts(a) for a in notes] == [_texts(a) for a in result.annotations()]


@pytest.mark.parametrize("comment", [
    "[%eval]", "[%eval 7.5]", "[%eval #x]", "[%best]", "[%best a1 a2 a3]", "[%eval #-]",
    "[%eval " + "9" * 500 + "]", "[%best " + "a" * 100 + " 0.1]"])
def test_malformed_analysis_comments_are_ignored(comment):
    rec = parse_records('[Game "tictactoe"]\n\n1. b2 {' + comment + '} *\n')[0]
    assert all(a.eval is None and a.best is None for a in read_annotations(rec))


@pytest.mark.parametrize("value", [Exact(1, 7), Exact(-1, 3), Exact(0), Exact(1, 0),
                                   Exact(-1, 0), Exact.of(12, score=12), Exact.of(-4, score=-4),
                                   Exact(1), 0.35, -1.0, 0.0, -0.001])
def test_eval_text_round_trip(value):
    assert eval_text(value) != "-0.00"
    back = parse_eval(eval_text(value))
    assert eval_text(back) == eval_text(value)
    assert expected(back) == pytest.approx(expected(value), abs=0.01)


def test_stop_from_another_thread_returns_what_was_found():
    rec = parse_records(C4_TEXT)[0]
    stop = threading.Event()
    seen = []

    def progress(m, done, total):
        seen.append((m.index, done, total))
        if done == 3:
            stop.set()

    worker = threading.Thread(target=lambda: seen.append(analyse_game(
        rec, 30.0, progress=progress, stop=stop, oracles={}, search_spec=FAST_SEARCH)))
    worker.start()
    worker.join(60)
    assert not worker.is_alive()
    result = seen.pop()
    assert [s[1:] for s in seen] == [(1, 21), (2, 21), (3, 21)]
    assert not result.complete and sum(m is not None for m in result.moves) == 3


def test_iter_analysis_yields_exact_moves_from_the_end():
    rec = parse_records(C4_TEXT)[0]
    order = [m.index for m in iter_analysis(rec, 30.0, oracles={"connect4": late_only(17)},
                                            search_spec=FAST_SEARCH)]
    assert order == [20, 19, 18, 17, *range(17)]


# --------------------------------------------------------------------------- graph

def test_graph_blocks_follow_the_first_players_expected_score():
    values = [Exact(1, 3), 0.0, Exact(-1, 2), None, 1.0, -1.0]
    assert eval_graph(values, 80) == ["█▄ ·█ "]
    assert eval_graph(values, 80, ascii=True) == ["%= ?% "]
    two = eval_graph([0.0, 1.0, -1.0, 0.5], 80, height=2)
    assert two == [" █ ▄", "██ █"]


def test_graph_fits_the_width_and_maps_positions_to_columns():
    values = [i / 50 - 1 for i in range(101)]  # -1 .. +1 over 101 positions
    line = eval_graph(values, 20)[0]
    assert len(line) == 20 and line[0] == " " and line[-1] == "█"
    assert list(line) == sorted(line, key=" ▁▂▃▄▅▆▇█".index)
    assert column_of(0, 101, 20) == 0 and column_of(100, 101, 20) == 19
    assert column_of(50, 101, 20) in (9, 10)
    assert eval_graph([], 10) == [""] and eval_graph(values, 0) == [""]
