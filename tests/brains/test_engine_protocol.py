"""Engine line-protocol tests: whole sessions through string streams, bad lines included,
and one real ``parlor engine`` process."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import Any

from brains.engine_protocol import COMMANDS, MAX_LINE, EngineSession, run_engine
from brains.protocol import Brain, Budget, Thought
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
                  "go", "analyse first soon", "play", "seed x", "x" * 70_000, "seed -1",
                  "seed " + "9" * 5000, "new tictactoe " + "k" * 60_000, "legal")
    assert out[4] == "ok"  # the one good `new`
    errors = out[:4] + out[5:-1]
    assert len(errors) == 17 and all(line.startswith("error ") for line in errors)
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
    assert "line too long" in errors[13]
    assert "out of range; allowed: 0 to 4294967295" in errors[14]
    assert "not an integer" in errors[15]
    assert "is not KEY=VALUE" in errors[16] and "(60000 characters)" in errors[16]
    assert all(len(line) < 200 for line in errors)
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


def _engine(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tui.cli", "engine", *args],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def test_a_megabyte_line_is_answered_quickly() -> None:
    """A 1 MB line of words gets its one error line at once (the limit is generous: it
    guards against the quadratic tokenising that took minutes, not for speed)."""
    huge = "moves " + "4 " * 500_000
    script = "isready\nnew connect4\n" + huge + "\nlegal\n" + "y" * 1_000_000 + "\nquit\n"
    proc = subprocess.run([sys.executable, "-m", "tui.cli", "engine"], input=script,
                          capture_output=True, text=True, timeout=30, check=False)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[:2] == ["readyok", "ok"]
    assert lines[2].startswith("error line too long") and len(lines[2]) < 100
    assert lines[3].split() == ["1", "2", "3", "4", "5", "6", "7"]
    assert lines[4].startswith("error line too long")
    assert len(lines) == 5


def test_a_long_line_under_the_limit_is_answered_quickly() -> None:
    line = "moves " + "4 " * (MAX_LINE // 2 - 10)
    out = _in_thread(lambda: session("new connect4", line, "legal"))
    assert out[0] == "ok"
    assert out[1].startswith("error move 7: illegal move '4'") and len(out[1]) < 200
    assert out[2].split() == ["1", "2", "3", "4", "5", "6", "7"]


def test_bad_utf8_is_one_error_line() -> None:
    out = io.StringIO()
    stdin = io.TextIOWrapper(io.BytesIO(b"isready\n\xff\xfe bad\nisready\n"))
    run_engine(stdin, out)
    assert out.getvalue().splitlines() == ["readyok", "error cannot read the line: not UTF-8 text",
                                           "readyok"]


class WaitBrain(Brain):
    """Test brain that thinks until stopped (or 60 s), then plays the first legal move."""

    name = "wait"

    def think(self, state: Any, budget: Budget) -> Iterator[Thought]:
        budget.stop.wait(60)
        move = state.legal_moves()[0]
        yield Thought(move, 0.0, 1, 1, (move,))


def wait_factory(spec: str, game_id: str, seed: int | None = None) -> Brain:
    return WaitBrain(game_id, seed=seed) if spec == "wait" else pick_factory(spec, game_id, seed)


def _in_thread(func: Any, timeout: float = 30) -> Any:
    box: list = []
    thread = threading.Thread(target=lambda: box.append(func()), daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), "the engine hangs"
    return box[0]


def _session_with(factory: Any, *lines: str) -> list[str]:
    out = io.StringIO()
    run_engine(io.StringIO("".join(line + "\n" for line in lines)), out, brain_factory=factory)
    return out.getvalue().splitlines()


def test_stop_ends_a_running_go_with_its_bestmove() -> None:
    out = _in_thread(lambda: _session_with(
        wait_factory, "new tictactoe", "stop", "go wait 3600", "stop", "isready",
        "go first 3600", "legal"))
    assert out[0] == "ok"  # a stop with no search running has no answer
    assert out[1].startswith("info depth 1") and out[2] == "bestmove a1"
    assert out[3] == "readyok"
    # a stop applies to the searches sent before it, not to later ones
    assert out[4].startswith("info") and out[5] == "bestmove a1"
    assert len(out[6].split()) == 9


def test_quit_ends_a_running_go() -> None:
    out = _in_thread(lambda: _session_with(wait_factory, "new tictactoe", "go wait 3600",
                                           "quit", "legal"))
    assert out[0] == "ok" and out[-1] == "bestmove a1"


def test_stop_reaches_a_real_search_in_a_parlor_engine_process() -> None:
    proc = _engine()
    killer = threading.Timer(60, proc.kill)
    killer.start()
    try:
        proc.stdin.write("new connect4\ngo alphabeta 3600\n")
        proc.stdin.flush()
        first = proc.stdout.readline()
        assert first == "ok\n"
        info = proc.stdout.readline()
        assert info.startswith("info depth"), info
        proc.stdin.write("stop\nisready\nquit\n")
        proc.stdin.flush()
        rest, _ = proc.communicate(timeout=50)
    finally:
        killer.cancel()
        proc.kill()
    lines = rest.splitlines()
    assert lines[-2].startswith("bestmove ") and lines[-1] == "readyok"
    assert all(line.startswith("info ") for line in lines[:-2])


def test_position_sets_the_start_and_bad_text_is_one_error_line():
    import io

    from brains.engine_protocol import EngineSession

    out = io.StringIO()
    session = EngineSession(out)
    for line in ("position x2/1o1/3 x", "new tictactoe", "position x2/1o1/3 x", "legal",
                 "moves c3", "show", "position xxx/3/3 o", "legal"):
        session.handle(line)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("error no game")
    assert lines[1:3] == ["ok", "ok"]
    assert lines[3] == "a1 b1 c1 a2 c2 b3 c3"
    assert lines[4] == "ok" and "tomove O ply 1" in lines
    bad = [line for line in lines if "bad position" in line]
    assert len(bad) == 1 and bad[0].startswith("error tictactoe: bad position")
    assert lines[-1] == "a1 b1 c1 a2 c2 b3"  # the failed position changed nothing
