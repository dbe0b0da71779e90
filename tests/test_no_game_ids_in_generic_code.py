"""Game knowledge stays in the game's own modules: no generic module of engine/, brains/ or
tui/ compares anything with a literal game id (``state.GAME == "checkers"``,
``game in ("morris", "reversi")``, ``case "connect4":``). Generic code asks the game's
parts instead (docs/ADDING_A_GAME.md): its rules module, its brains module and the hooks
there (``EXACT``, ``exact_outcomes``…), its board widget.

Exempt are the modules of one game: ``engine/games/<game>.py``,
``brains/heuristics/<game>.py``, the compiled kernels ``brains/kernels/<game>.py``, the
solvers (:data:`SOLVERS`) and ``tui/app/widgets/<game>_board.py``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

from engine.registry import GAMES

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "brains", "tui")

SOLVERS = ("brains/c4solver.py", "brains/c4book.py", "brains/reversi_endgame.py",
           "brains/morrisdb/")
"""One game's exact solvers (and their data), outside the per-game folders."""


def per_game(relative: str) -> bool:
    """Whether the module at ``relative`` (a path from the repository root) is one game's."""
    if relative.startswith(SOLVERS):
        return True
    return any(relative in (f"engine/games/{game}.py", f"brains/heuristics/{game}.py",
                            f"brains/kernels/{game}.py", f"tui/app/widgets/{game}_board.py")
               for game in GAMES)


def game_ids(node: ast.AST) -> Iterator[str]:
    """The literal game ids ``node`` is or holds (a tuple, list or set of literals)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in GAMES:
        yield node.value
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for element in node.elts:
            yield from game_ids(element)


def comparisons(source: str) -> Iterator[tuple[int, str]]:
    """(line, game id) of every comparison with a literal game id in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            for side in (node.left, *node.comparators):
                for game in game_ids(side):
                    yield node.lineno, game
        elif isinstance(node, ast.MatchValue):
            for game in game_ids(node.value):
                yield node.lineno, game


def generic_modules() -> list[Path]:
    """Every module of engine/, brains/ and tui/ that is not one game's."""
    return [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))
            if not per_game(path.relative_to(ROOT).as_posix())]


def test_no_generic_module_compares_with_a_game_id() -> None:
    found = [f"{path.relative_to(ROOT).as_posix()}:{line} compares with {game!r}"
             for path in generic_modules()
             for line, game in comparisons(path.read_text(encoding="utf-8"))]
    assert found == [], ("generic code branches on a game id; ask the game's own module "
                         "(docs/ADDING_A_GAME.md) instead:\n" + "\n".join(found))


def test_the_scan_sees_every_form_of_comparison() -> None:
    game = next(iter(GAMES))
    source = (f"if state.GAME == {game!r}: pass\n"
              f"x = g in ({game!r}, 'other')\n"
              f"y = {game!r} != g\n"
              f"match g:\n    case {game!r}:\n        pass\n"
              f"z = {{{game!r}: 1}}.get(g)\n"  # a table keyed by game is no comparison
              f"w = g == 'not-a-game'\n")
    assert [line for line, _ in comparisons(source)] == [1, 2, 3, 5]


def test_the_exemptions_are_one_games_modules_only() -> None:
    generic = {p.relative_to(ROOT).as_posix() for p in generic_modules()}
    assert {"brains/analysis.py", "brains/perfect.py", "tui/app/hints.py",
            "tui/cli/solve.py", "tui/app/screens/play.py", "tui/app/screens/help.py",
            "brains/registry.py", "engine/protocol.py"} <= generic
    for game in GAMES:
        assert f"engine/games/{game}.py" not in generic
        assert f"brains/heuristics/{game}.py" not in generic
    assert "brains/heuristics/__init__.py" in generic
