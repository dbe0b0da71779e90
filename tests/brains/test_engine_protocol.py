"""Engine line-protocol tests: whole sessions through string streams, bad lines included,
and one real ``parlor engine`` process."""

from __future__ import annotations

import io
import re
import subprocess
import sys

from brains.engine_protocol import COMMANDS, EngineSession, run_engine
from engine.registry import GAMES
from tests.brains.test_arena import pick_factory


def session(*lines: str) -> list[str]:
    """The output lines of an engine session fed ``lines`` (with the test brains)."""
    out = io.StringIO()
    run_engine(io.StringIO("".join(line + "\n" for line in lines)), out, seed=1,
               brain_factory=pick_factory, brain_names=lambda game: ["first", "rand"])
    return out.getvalue().splitlines()


def test_a_normal_session() -> None:
    out = session("games", "brains", "new tictactoe", "legal", "moves b2 a1", "legal",
                  "go first", "go rand 0.5", "analyse first 1", "quit", "legal")
    assert out[0].split() == list(GAMES)
    assert out[1] == "first rand"
    assert out[2] == "ok"
    assert out[3] == "a1 b1 c1 a2 b2 c2 a3 b3 c3"
    assert out[4:6] == ["ok", "b1 c1 a2 c2 a3 b3 c3"]
    assert re.fullmatch(r"info depth 1 score 0 nodes 7 time \d+ pv b1", out[6])
    assert out[7] == "bestmove b1"
    assert out[8].startswith("info depth 1") and out[9].split()[0] == "bestmove"
    assert out[9].split()[1] in out[5].split()
    # analyse: one line per legal move, best first, then ok; quit ends the session
    assert [line.split()[0] for line in out[10:17]] == ["c3", "b3", "a3", "c2", "a2", "c1", "b1"]
    assert [float(line.split()[1]) for line in out[10:17]] == [6, 5, 4, 3, 2, 1, 0]
    assert out[17:] == ["ok"]


def test_moves_always_start_from_the_beginning_and_play_appends() -> None:
    out = session("new tictactoe", "moves a1", "moves b2", "play c3", "show", "moves", "legal")
    assert out[:4] == ["ok"] * 4
    assert out[4:9] == ["3 . . O", "2 . X .", "1 . . .", "  a b c", "tomove X ply 2"]
    assert out[9:] == ["ok", "ok", "a1 b1 c1 a2 b2 c2 a3 b3 c3"]


def test_bad_lines_answer_one_error_line_and_the_engine_keeps_going() -> None:
    out = session("go first", "legal", "new chess", "new tictactoe size=3", "new tictactoe",
                  "frobnicate", "moves a1 z9", "moves a1 a1", "go nobody", "go first -1",
                  "go", "analyse first soon", "play", "seed x", 'moves "a1', "legal")
    assert out[4] == "ok"  # the one good `new`
    errors = out[:4] + out[5:-1]
    assert len(errors) == 14 and all(line.startswith("error ") for line in errors)
    assert "new GAME" in errors[0] and "new GAME" in errors[1]
    assert "unknown game 'chess'" in errors[2]
    assert "unknown option 'size'" in errors[3]
    assert "unknown command 'frobnicate'" in errors[4]
    assert "move 2" in errors[5] and "z9" in errors[5]
    assert "move 2" in errors[6] and "illegal" in errors[6]
    assert "unknown brain 'nobody'" in errors[7]
    assert "positive" in errors[8]
    assert "usage: go SPEC" in errors[9]
    assert "not a number" in errors[10]
    assert "usage: play" in errors[11]
    assert "not an integer" in errors[12]
    assert "cannot read the line" in errors[13]
    # a failed `moves` leaves the position as it was: still the start
    assert out[-1] == "a1 b1 c1 a2 b2 c2 a3 b3 c3"


def test_finished_games_and_broken_brains() -> None:
    out = session("new tictactoe", "moves a1 a2 b1 b2 c1", "legal", "go first", "show",
                  "moves", "go bad", "help")
    assert out[:3] == ["ok", "ok", ""]
    assert out[3] == "error the game is over (1-0, three in a row)"
    assert out[8:10] == ["result 1-0 three in a row", "ok"]
    assert out[10] == "ok"
    assert out[11] == "error brain 'bad' chose 'not a move', not a legal move"
    assert out[12].split() == list(COMMANDS)


def test_every_answer_is_flushed() -> None:
    class Counting(io.StringIO):
        flushes = 0

        def flush(self) -> None:
            Counting.flushes += 1
            super().flush()

    engine = EngineSession(Counting(), brain_factory=pick_factory)
    for line in ("isready", "new tictactoe", "bogus"):
        engine.handle(line)
    assert Counting.flushes == 3


def test_parlor_engine_process() -> None:
    script = "isready\nnew connect4\nmoves 4 4\nlegal\ngo random 1\nmove 4\nquit\n"
    proc = subprocess.run([sys.executable, "-m", "tui.cli", "engine", "--seed", "3"],
                          input=script, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:3] == ["readyok", "ok", "ok"]
    legal = lines[3].split()
    assert len(legal) == 7
    assert lines[-2].startswith("bestmove ") and lines[-2].split()[1] in legal
    assert lines[-1].startswith("error unknown command 'move'")
