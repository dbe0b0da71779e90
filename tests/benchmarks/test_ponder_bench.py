"""The Ponder benchmark's driver without Ponder: the notation both ways over many random
positions, the message without the binary, and whole games against a stand-in speaking
the part of Ponder's console protocol the driver uses (``force``, ``st``, ``new``,
``ping``, ``go``, ``quit``, moves one hop a line; board noise and prompts around them),
which plays its first legal move, or dies, stalls, refuses moves, plays an illegal one,
goes on with a capture by another piece (a bug of Ponder's) or
answers without a move (as Ponder does when its time ends before its first iteration, and
in some positions until it is started afresh, which ``setboard`` stands for here)."""

from __future__ import annotations

import json
import random
import stat
import sys
from pathlib import Path
from typing import cast

import pytest

from benchmarks import ponder
from engine.games.checkers import CheckersState, is_capture
from engine.registry import get_game

ROOT = Path(__file__).resolve().parents[2]

STAND_IN = r'''
import sys, time
sys.path.insert(0, ROOT)
from engine.registry import get_game

MODE = sys.argv[1] if len(sys.argv) > 1 else "first"
game = get_game("checkers")
state = game.initial()
path = []
gos = 0
fresh = False


def say(*lines):
    for line in lines:
        print(line)
    sys.stdout.flush()


def board():
    say(';[FEN "' + state.to_position() + '"]', "  +---+---+---+---+---+---+---+---+",
        "  |   |(w)|   |(w)|   |(w)|   |(w)|")


def prompt():
    say("  *** " + ("Black", "White")[state.to_move] + " ***")


def result():
    outcome = state.outcome()
    if outcome is not None and outcome.termination == "no legal moves":
        say('[Result "?"]', "{" + ("Black", "White")[outcome.winner] + " win}")


def hops(move):
    mark = "x" if abs((move[0] - 1) // 4 - (move[1] - 1) // 4) == 2 else "-"
    return [f"{a}{mark}{b}" for a, b in zip(move, move[1:])]


board()
prompt()
for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    command = words[0]
    if command == "quit":
        break
    if command == "ping":
        say("pong " + words[1])
    elif command in ("force", "st", "sd"):
        pass
    elif command == "new":
        state, path = game.initial(), []
        board()
    elif command == "setboard":
        state, path, fresh = game.from_position(words[1]), [], True
        board()
    elif command == "go":
        if MODE == "die":
            sys.exit(3)
        if MODE == "stall":
            continue
        gos += 1
        if (MODE == "empty" or (MODE == "hesitant" and gos % 2)
                or (MODE == "stuck" and not fresh)):
            say("  Thinking ...")  # Ponder when its first iteration did not end in time
            prompt()
            continue
        say("  Thinking ...")
        if MODE == "broken":  # a capture going on with another piece
            board()
            say("22x13", "14x5")
            result()
            prompt()
            continue
        move = (1, 2) if MODE == "illegal" else state.legal_moves()[0]
        if MODE != "illegal":
            state = state.play(move)
        board()
        say(*hops(move))
        result()
    elif MODE == "refuse":
        say("Error (illegal move): " + command)
    else:
        a, b = command.replace("x", "-").split("-")
        if path and path[-1] != int(a):
            say("Error (illegal move): " + command)
            continue
        path = path + [int(b)] if path else [int(a), int(b)]
        legal = state.legal_moves()
        if tuple(path) in legal:
            state, path = state.play(tuple(path)), []
            board()
            result()
        elif not any(m[:len(path)] == tuple(path) for m in legal):
            path = []
            say("Error (illegal move): " + command)
    prompt()
'''


def stand_in(folder: Path, mode: str = "first") -> Path:
    """An executable stand-in for Ponder playing in ``mode``."""
    script = folder / f"ponder-{mode}"
    script.write_text(f"#!{sys.executable}\nROOT = {str(ROOT)!r}\nMODE_ARG = {mode!r}\n"
                      + STAND_IN.replace('sys.argv[1] if len(sys.argv) > 1 else "first"',
                                         "MODE_ARG"), encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script


def random_positions(count: int, seed: int) -> list[CheckersState]:
    """Positions from random games (kings and multiple jumps among them)."""
    rng = random.Random(seed)
    out: list[CheckersState] = []
    while len(out) < count:
        state = cast(CheckersState, get_game("checkers").initial())
        while (legal := state.legal_moves()) and len(out) < count:
            out.append(state)
            state = state.play(rng.choice(legal))
    return out


def test_notation_both_ways_on_random_positions() -> None:
    jumps = multi = 0
    for state in random_positions(3000, seed=5):
        for move in state.legal_moves():
            lines = ponder.to_ponder(state, move)
            assert all(ponder.HOP.fullmatch(line) for line in lines)
            assert len(lines) == len(move) - 1
            assert all(("x" in line) == is_capture(move) for line in lines)
            assert ponder.from_ponder(state, lines) == move
            jumps += is_capture(move)
            multi += len(move) > 2
    assert jumps > 100 and multi > 10


def test_ponders_moves_that_are_not_parlors_are_refused() -> None:
    state = get_game("checkers").initial()
    with pytest.raises(ponder.MismatchError, match="not legal in Parlor"):
        ponder.from_ponder(state, ["22-18"])
    with pytest.raises(ponder.MismatchError, match="not a move Ponder writes"):
        ponder.from_ponder(state, ["11 15"])
    with pytest.raises(ponder.MismatchError, match="do not join up"):
        ponder.from_ponder(state, ["26x17", "18x9"])


def test_without_the_binary_nothing_is_measured(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ponder.main(["--engine", str(tmp_path / "ponder")]) == 0
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and "Ponder not measured: no engine at" in out
    assert "make" in out


def test_whole_games_against_a_stand_in(tmp_path: Path) -> None:
    rows, failure = ponder.run([str(stand_in(tmp_path))], "random", games=4, seconds=1,
                               opening_plies=2, seed=3, timeout=60)
    assert failure == "" and len(rows) == 4
    assert [r["parlor"] for r in rows] == ["Black", "White", "Black", "White"]
    # each pair of games starts with the same random opening
    assert rows[0]["moves"].split()[:2] == rows[1]["moves"].split()[:2]
    for r in rows:
        state = get_game("checkers").initial()
        for text in r["moves"].split():
            state = state.play(state.parse_move(text))
        outcome = state.outcome()
        assert outcome is not None and outcome.termination == r["reason"]
        assert r["points"] == {1: 1.0, 0: 0.5, -1: 0.0}[outcome.value_for(r["index"] % 2)]
        assert len(r["parlor_s"]) + len(r["ponder_s"]) + 2 == r["plies"]


def test_a_capture_going_on_with_another_piece_forfeits(tmp_path: Path) -> None:
    rows, failure = ponder.run([str(stand_in(tmp_path, "broken"))], "random", games=3,
                               seconds=1, opening_plies=0, seed=1, timeout=60)
    assert failure == "" and len(rows) == 3
    assert all(r["forfeit"] and r["points"] == 1.0 for r in rows)
    assert rows[0]["moves"].endswith("{Ponder: 22x13 14x5}") and rows[0]["plies"] == 1
    assert rows[1]["plies"] == 0 and "another piece" in rows[1]["reason"]
    summary = ponder.summarize("random", 1, 0, 1, rows)
    assert summary["forfeits"] == 3 and summary["score_played_out"] is None
    assert "3 games won by forfeit" in ponder.table(summary)


def test_an_answer_without_a_move_is_asked_again(tmp_path: Path) -> None:
    rows, failure = ponder.run([str(stand_in(tmp_path, "hesitant"))], "random", games=2,
                               seconds=1, opening_plies=0, seed=4, timeout=60)
    assert failure == "" and len(rows) == 2
    assert all(r["empty_answers"] == len(r["ponder_s"]) for r in rows)
    summary = ponder.summarize("random", 1, 0, 4, rows)
    assert summary["empty_answers"] == sum(len(r["ponder_s"]) for r in rows) > 0
    assert "asked again" in ponder.table(summary)
    assert summary["restarts"] == 0


def test_an_engine_stuck_without_a_move_is_started_afresh(tmp_path: Path) -> None:
    rows, failure = ponder.run([str(stand_in(tmp_path, "stuck"))], "random", games=2,
                               seconds=1, opening_plies=2, seed=5, timeout=60)
    assert failure == "" and len(rows) == 2
    # the first Ponder move of the match restarts it; the fresh process then plays on
    assert [r["restarts"] for r in rows] == [1, 0] and rows[0]["empty_answers"] == 2
    assert "started afresh at the position 1 times" in ponder.table(
        ponder.summarize("random", 1, 2, 5, rows))


def test_the_command_line_prints_a_table_and_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ponder.main(["--engine", str(stand_in(tmp_path)), "--spec", "level:1",
                        "--games", "2", "--opening", "0", "--json"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("level:1 against Ponder at 1 s a move, 2 games")
    assert any(line.startswith("games  W/D/L") for line in lines)
    summary = json.loads(lines[-1])
    assert summary["games"] == 2 and len(summary["games_played"]) == 2
    assert summary["wins"] + summary["draws"] + summary["losses"] == 2
    assert summary["ci95"][0] <= summary["score"] <= summary["ci95"][1]


@pytest.mark.parametrize(("mode", "message"), [
    ("die", "Ponder exited (code 3) while Parlor waited for its move"),
    ("stall", "Ponder gave no answer within 0.5 s (waiting for its move)"),
    ("illegal", "Ponder's move '1-2' is not legal in Parlor"),
    ("refuse", "Ponder refused Parlor's move"),
    ("empty", "Ponder answered go without a move 3 times running"),
])
def test_a_failing_engine_is_one_line(tmp_path: Path, mode: str, message: str) -> None:
    rows, failure = ponder.run([str(stand_in(tmp_path, mode))], "random", games=2,
                               seconds=1, opening_plies=0, seed=1, timeout=0.5)
    assert rows == [] and message in failure and "\n" not in failure
    assert failure.endswith("(game 1); 0 games finished")


def test_the_command_line_reports_a_failure(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert ponder.main(["--engine", str(stand_in(tmp_path, "die")), "--games", "1"]) == 1
    out = capsys.readouterr().out
    assert "Ponder match stopped: Ponder exited (code 3)" in out


def test_a_missing_program_is_an_engine_error(tmp_path: Path) -> None:
    rows, failure = ponder.run([str(tmp_path / "none")], "random", games=1, seconds=1,
                               opening_plies=0, seed=1, timeout=5)
    assert rows == [] and failure.startswith("Ponder did not start")


def test_winner_lines() -> None:
    assert ponder.winner(["x", '[Result "1-0"]', "{White win}"]) == 1
    assert ponder.winner(["{Black win}"]) == 0
    assert ponder.winner(["  *** Black ***"]) is None
