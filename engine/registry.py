"""The registered games, by id, and the finder that gives a helpful error."""

from __future__ import annotations

from typing import Any

from engine.games.tictactoe import TicTacToe
from engine.protocol import Game, State, UnknownGameError

GAMES: dict[str, Game] = {
    game.id: game
    for game in (
        TicTacToe(),
    )
}
"""Every game Parlor plays, by id, in alphabetical order."""


def get_game(game_id: str) -> Game:
    """The game registered as ``game_id``; UnknownGameError lists the known ids."""
    try:
        return GAMES[game_id.strip().lower()]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise UnknownGameError(f"unknown game {game_id!r}; known: {known}") from None


def new_game(game_id: str, **options: Any) -> State:
    """The initial state of ``game_id`` with ``options`` (validated)."""
    return get_game(game_id).initial(**options)
