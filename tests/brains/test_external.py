"""External engines as opponents (brains/external.py), tested with small fake engines:
a GTP engine that plays the first legal move, one that dies, one that stalls, one that
answers an illegal move, and Parlor's own `parlor engine` in another process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from brains.external import ExternalEngineError, load_engines
from brains.registry import make_brain
from engine import new_game

ROOT = Path(__file__).resolve().parents[2]

FAKE_GTP = """
import sys
sys.path.insert(0, {root!r})
from engine.registry import new_game
MODE = {mode!r}
state = new_game("reversi")
def answer(text=""):
    sys.stdout.write("= " + text + "\\n\\n")
    sys.stdout.flush()
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "boardsize":
        state = new_game("reversi", size=int(words[1])); answer()
    elif cmd == "clear_board":
        state = new_game("reversi", size=state.size); answer()
    elif cmd == "play":
        state = state.play_text(words[2]); answer()
    elif cmd == "genmove":
        if MODE == "dies":
            sys.exit(3)
        if MODE == "stalls":
            import time; time.sleep(60)
        move = "z9" if MODE == "illegal" else state.format_move(state.legal_moves()[0])
        if move != "z9":
            state = state.play_text(move)
        answer(move.upper())
    elif cmd == "quit":
        answer(); break
    else:
        sys.stdout.write("? unknown command\\n\\n"); sys.stdout.flush()
"""


@pytest.fixture
def engines(tmp_path, monkeypatch):
    """Write fake engines and an engines.toml in a fresh XDG_CONFIG_HOME."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    config = tmp_path / "config" / "parlor"
    config.mkdir(parents=True)
    lines = []
    for mode in ("first", "dies", "stalls", "illegal"):
        script = tmp_path / f"gtp_{mode}.py"
        script.write_text(FAKE_GTP.format(root=str(ROOT), mode=mode))
        lines += [f"[engines.{mode}]", f"command = [{sys.executable!r}, {str(script)!r}]",
                  'protocol = "gtp"', 'game = "reversi"', "timeout = 2.0", ""]
    lines += ["[engines.parlor-random]",
              f"command = [{sys.executable!r}, '-m', 'tui.cli', 'engine']",
              'protocol = "parlor"', 'game = "connect4"', 'brain = "greedy"',
              "timeout = 30", "seconds = 0.5", ""]
    (config / "engines.toml").write_text("\n".join(lines))
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    return config / "engines.toml"


def test_a_gtp_engine_plays_a_whole_othello_game(engines):
    brain = make_brain("external:first", "reversi")
    state = new_game("reversi")
    plies = 0
    while state.legal_moves():
        move = brain.choose(state) if state.to_move == 0 else state.legal_moves()[-1]
        state = state.play(move)
        plies += 1
    assert state.outcome() is not None and plies >= 50
    proc = brain._process.proc
    brain.close()
    assert proc.poll() is not None  # the process is gone


@pytest.mark.parametrize("mode, reason", [
    ("dies", "exited with status 3"),
    ("stalls", "did not answer within 2 s"),
    ("illegal", "answered an illegal move"),
])
def test_a_broken_engine_is_one_clear_error_and_its_process_ends(engines, mode, reason,
                                                                  monkeypatch):
    from brains import external

    started = []
    original = external._Process.__init__

    def spy(self, config):
        original(self, config)
        started.append(self.proc)

    monkeypatch.setattr(external._Process, "__init__", spy)
    brain = make_brain(f"external:{mode}", "reversi")
    with pytest.raises(ExternalEngineError, match=reason) as info:
        brain.choose(new_game("reversi"))
    assert "\n" not in str(info.value) and isinstance(info.value, ValueError)
    assert brain._process is None  # forgotten: the next move starts afresh
    assert len(started) == 1 and started[0].poll() is not None  # and the process is gone


def test_the_parlor_protocol_plays_through_parlor_engine(engines):
    brain = make_brain("external:parlor-random", "connect4")
    state = new_game("connect4").play_line("4453")
    move = brain.choose(state)
    assert move in state.legal_moves()
    brain.close()


def test_match_plays_an_othello_game_against_the_gtp_engine(engines, tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "tui.cli", "match", "reversi", "external:first", "greedy",
         "-n", "2", "--save", str(tmp_path / "games")],
        check=False, capture_output=True, text=True, timeout=300, cwd=ROOT, env=dict(os.environ))
    assert out.returncode == 0, out.stderr
    from engine.formats import load_records

    saved = sorted((tmp_path / "games").glob("*.pgn"))
    assert len(saved) == 2
    for path in saved:
        (rec,) = load_records(path)
        assert rec.termination == "normal" and rec.final().outcome() is not None
        assert "external:first" in (rec.tags["First"], rec.tags["Second"])


@pytest.mark.parametrize("body, reason", [
    ('[engines.x]\ncommand = "edax"\nprotocol = "gtp"\ngame = "reversi"\n', "list of 1 to"),
    ('[engines.x]\ncommand = ["edax"]\nprotocol = "uci"\ngame = "reversi"\n', "protocol 'uci'"),
    ('[engines.x]\ncommand = ["edax"]\nprotocol = "gtp"\ngame = "chess"\n', "unknown game"),
    ('[engines.x]\ncommand = ["edax"]\nprotocol = "gtp"\ngame = "checkers"\n', "GTP engines play"),
    ('[engines.x]\ncommand = ["e"]\nprotocol = "gtp"\ngame = "reversi"\ntimeout = -1\n',
     "timeout must be"),
    ('[engines.x]\ncommand = ["e"]\nprotocol = "gtp"\ngame = "reversi"\nshell = true\n',
     "unknown field 'shell'"),
    ('[engines.BAD]\ncommand = ["e"]\nprotocol = "gtp"\ngame = "reversi"\n', "names are"),
    ("[engines.x\n", "not a TOML file"),
    ('[other]\n', "unknown table"),
])
def test_every_config_field_is_checked(tmp_path, body, reason):
    path = tmp_path / "engines.toml"
    path.write_text(body)
    with pytest.raises(ExternalEngineError, match=reason) as info:
        load_engines(path)
    assert "\n" not in str(info.value)


def test_unknown_or_missing_engines_are_refused_before_any_process(engines, tmp_path):
    with pytest.raises(ValueError, match="no engine 'nope'"):
        make_brain("external:nope", "reversi")
    with pytest.raises(ValueError, match="plays reversi, not connect4"):
        make_brain("external:first", "connect4")
    with pytest.raises(ValueError, match="external needs an engine name"):
        make_brain("external", "reversi")
    engines.unlink()
    with pytest.raises(ValueError, match="cannot read"):
        make_brain("external:first", "reversi")


def test_menus_list_the_engines_configured_for_the_game(engines):
    from brains.registry import list_brains

    reversi = {info.name for info in list_brains("reversi")}
    assert {"external:first", "external:dies"} <= reversi and "external" not in reversi
    assert "external:parlor-random" in {info.name for info in list_brains("connect4")}
    engines.unlink()
    assert not any(info.name.startswith("external") for info in list_brains("reversi"))
