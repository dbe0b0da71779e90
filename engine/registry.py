"""The registered games, by id, and the finder that gives a helpful error.

Game modules are imported on first use, so a command that needs one game (``parlor
perft tictactoe 1``) loads only that game's tables.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any

from engine.protocol import AnyState, Game, OptionError, UnknownGameError, quote

_GAME_CLASSES: dict[str, str] = {
    "checkers": "engine.games.checkers:Checkers",
    "connect4": "engine.games.connect4:ConnectFour",
    "gomoku": "engine.games.gomoku:Gomoku",
    "morris": "engine.games.morris:FiveMensMorris",
    "reversi": "engine.games.reversi:Reversi",
    "tictactoe": "engine.games.tictactoe:TicTacToe",
}
"""Game id -> ``module:class``; the one place that says which games exist."""


class _Registry(Mapping[str, Game]):
    """A read-only mapping of game id to Game that imports each game when first used."""

    def __init__(self, classes: dict[str, str]):
        self._classes = classes
        self._loaded: dict[str, Game] = {}

    def __getitem__(self, game_id: str) -> Game:
        game = self._loaded.get(game_id)
        if game is None:
            module, _, cls = self._classes[game_id].partition(":")
            game = self._loaded[game_id] = getattr(importlib.import_module(module), cls)()
        return game

    def __iter__(self) -> Iterator[str]:
        return iter(self._classes)

    def __len__(self) -> int:
        return len(self._classes)


GAMES: Mapping[str, Game] = _Registry(_GAME_CLASSES)
"""Every game Parlor plays, by id, in alphabetical order."""

DEFAULT_GAME = "tictactoe"
"""The game a chooser offers first (the shortest to play)."""


def default_game() -> str:
    """:data:`DEFAULT_GAME` where it is registered, else the first registered game."""
    return DEFAULT_GAME if DEFAULT_GAME in _GAME_CLASSES else next(iter(_GAME_CLASSES))


def get_game(game_id: str) -> Game:
    """The game registered as ``game_id``; UnknownGameError lists the known ids."""
    norm = str(game_id).strip().lower()
    if norm not in _GAME_CLASSES:
        known = ", ".join(_GAME_CLASSES)
        raise UnknownGameError(f"unknown game {quote(game_id)}; known: {known}")
    return GAMES[norm]


def new_game(game_id: str, **options: Any) -> AnyState:
    """The initial state of ``game_id`` with ``options`` (validated)."""
    return get_game(game_id).initial(**options)

def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["size=6", "variant=flipcolor"]`` -> a dict; a pair without ``=`` is an OptionError."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise OptionError(f"option {quote(pair)} is not KEY=VALUE")
        out[name.strip()] = value.strip()
    return out
