"""Walk an OpenSpiel game tree with ``state.child(a)``, to compare perft speed with a peer.

Usage: python -m benchmarks.openspiel_perft GAME DEPTH   (GAME: an OpenSpiel game name)
Prints the number of nodes at DEPTH. Needs ``pip install open-spiel`` (the ``bench`` extra).
"""

from __future__ import annotations

import sys


def main(argv: list[str]) -> int:
    import pyspiel

    name, depth = argv[0], int(argv[1])
    game = pyspiel.load_game(name)

    def walk(state, d: int) -> int:
        if d == 0:
            return 1
        total = 0
        for action in state.legal_actions():
            total += walk(state.child(action), d - 1)
        return total

    print(walk(game.new_initial_state(), depth))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
