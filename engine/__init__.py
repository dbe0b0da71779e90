"""Parlor's rules engine: five games behind one small immutable-state protocol."""

from engine.protocol import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Option,
    OptionError,
    Outcome,
    ParlorError,
    PositionError,
    RecordError,
    Result,
    State,
    UnknownGameError,
)
from engine.registry import GAMES, get_game, new_game

__all__ = [
    "GAMES",
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Option",
    "OptionError",
    "Outcome",
    "ParlorError",
    "PositionError",
    "RecordError",
    "Result",
    "State",
    "UnknownGameError",
    "get_game",
    "new_game",
]
