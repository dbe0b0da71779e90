"""The Egaroucid benchmark's GTP front, played through Parlor's ``external:`` brain with a
stand-in for Egaroucid's compiled engine (same exports: ``_init_ai``, ``_malloc``,
``HEAP32``, ``_ai_js``; it answers the legal move on the lowest square), so every move the
front tracks (flips, passes) is checked by Parlor's engine over whole games."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from benchmarks import egaroucid

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

STAND_IN = r"""
// Egaroucid for Web's interface, with the lowest legal square as its move.
const HEAP32 = new Int32Array(1024);
let next = 16;
const M = {
  HEAP32,
  _malloc(bytes) { const at = next * 4; next += Math.ceil(bytes / 4); return at; },
  _init_ai(_percent) { console.log("noise on stdout"); return 0; },
  _ai_js(ptr, level, player) {
    const b = Array.from(HEAP32.subarray(ptr >> 2, (ptr >> 2) + 64));
    for (let cell = 0; cell < 64; cell++) {
      if (b[cell] !== -1) continue;
      const r0 = Math.floor(cell / 8), c0 = cell % 8;
      for (const [dr, dc] of [[-1,-1],[-1,0],[-1,1],[0,-1],[0,1],[1,-1],[1,0],[1,1]]) {
        let r = r0 + dr, c = c0 + dc, n = 0;
        while (r >= 0 && r < 8 && c >= 0 && c < 8 && b[r * 8 + c] === 1 - player) {
          r += dr; c += dc; n++;
        }
        if (n && r >= 0 && r < 8 && c >= 0 && c < 8 && b[r * 8 + c] === player) {
          return 1000 * cell + 100 + level;
        }
      }
    }
    return -1;
  },
};
module.exports = M;
setTimeout(() => M.onRuntimeInitialized(), 0);
"""


def stand_in(folder: Path) -> Path:
    (folder / "ai.js").write_text(STAND_IN, encoding="utf-8")
    (folder / "ai.wasm").write_bytes(b"\0asm")
    return folder


def test_whole_games_through_the_gtp_front(tmp_path: Path) -> None:
    rows = egaroucid.run("random", [3], games=4, opening=0, seed=2,
                         engine_dir=stand_in(tmp_path))
    (row,) = rows
    assert row["games"] == 4 and row["wins"] + row["draws"] + row["losses"] == 4
    assert row["level"] == 3 and row["cpu_s_max"] >= row["cpu_s_median"] >= 0


def test_the_front_refuses_what_gtp_does_not_allow(tmp_path: Path) -> None:
    import subprocess

    commands = "boardsize 6\nboardsize 8\nplay b a1\nplay b f5\n7 genmove w\nfoo\nquit\n"
    out = subprocess.run(["node", str(egaroucid.FRONT), str(stand_in(tmp_path)), "5"],
                         input=commands, capture_output=True, text=True, timeout=60).stdout
    answers = [block for block in out.split("\n\n") if block]
    assert answers == ["? unacceptable size", "= ", "? illegal move", "= ", "=7 f4",
                       "? unknown command", "= "]


def test_without_the_engine_files_nothing_is_measured(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert egaroucid.main(["--engine", str(tmp_path)]) == 0
    assert "Egaroucid not measured: ai.js and ai.wasm not in" in capsys.readouterr().out


def test_the_score_interval_holds_the_score() -> None:
    lo, hi = egaroucid.interval(9, 2, 5)
    assert lo < (9 + 1) / 16 < hi and lo >= 0 and hi <= 1
    assert egaroucid.interval(0, 0, 0) == (0.0, 1.0)
