"""Every perft number in tests/data/perft, the deep ones included (too slow for make test)."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from engine import new_game
from engine.perft import perft
from engine.perftdata import read_perft_file

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "perft"


def main(argv: list[str] | None = None) -> int:
    failures = 0
    for path in sorted(DATA.glob("*.perft")):
        for case in read_perft_file(path):
            state = new_game(case.game, **case.options).play_line(case.moves)
            start = time.perf_counter()
            got = perft(state, max(case.counts))
            took = time.perf_counter() - start
            bad = {d: (n, got[d - 1]) for d, n in case.counts.items() if got[d - 1] != n}
            failures += bool(bad)
            verdict = "ok" if not bad else f"MISMATCH {bad}"
            print(f"{case.id:<40} depth {max(case.counts)}  {took:7.2f} s  {verdict}", flush=True)
    print(f"{'all perft numbers agree' if not failures else f'{failures} cases disagree'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
