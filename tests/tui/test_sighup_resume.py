"""End to end: parlor play in a pseudo-terminal, one move, then SIGHUP (the terminal
closes, the SSH connection drops); the game must be resumable (slow: run with -m slow)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.pty_io import drain, wait_for
from tui.player import paths, store

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_sighup_loses_nothing_and_the_game_resumes(tmp_path: Path) -> None:
    """A real ``parlor play`` in a pseudo-terminal: one move, SIGHUP, then resume."""
    import fcntl
    import pty
    import struct
    import termios

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data"), "TERM": "xterm-256color"}
    env.pop("NO_COLOR", None)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui.cli", "play", "--game", "tictactoe", "--first", "human",
         "--second", "random", "--seed", "1"],
        stdin=slave, stdout=slave, stderr=slave, env=env, cwd=ROOT, start_new_session=True)
    os.close(slave)
    folder = tmp_path / "data" / "parlor" / "unfinished"
    try:
        screen = bytearray()
        wait_for(lambda: drain(master, screen) and b"to move" in screen, "the game to show")
        os.write(master, b"\r")  # Enter: the cursor starts on a legal square
        wait_for(lambda: drain(master) and [len(read_moves(p)) for p in folder.glob("*.pgn")]
                 == [2], "two moves saved")
        proc.send_signal(signal.SIGHUP)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    assert paths.unfinished_dir() == folder  # tui_env points XDG_DATA_HOME there too
    record = store.most_recent_unfinished()
    assert record is not None and len(record.moves) == 2 and record.result == "*"


def read_moves(path: Path) -> list[str]:
    """The moves of the record at ``path`` ([] while it is not readable)."""
    from engine.formats import load_records

    try:
        return load_records(path)[0].moves
    except (ValueError, IndexError):
        return []

