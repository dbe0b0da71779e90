"""Shared fixtures: every registered game, and the perft data files."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import GAMES

DATA = Path(__file__).parent / "data"


@pytest.fixture(params=sorted(GAMES), ids=str)
def game_id(request: pytest.FixtureRequest) -> str:
    """Each registered game id in turn."""
    return request.param
