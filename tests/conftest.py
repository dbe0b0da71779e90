"""Shared fixtures: every registered game, and the perft data files."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from engine import GAMES

DATA = Path(__file__).parent / "data"

# Hypothesis's own wall-clock checks (a deadline per example, "input generation is slow")
# fail on a busy machine without anything being wrong: every property test goes without.
settings.register_profile("parlor", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("parlor")


@pytest.fixture(params=sorted(GAMES), ids=str)
def game_id(request: pytest.FixtureRequest) -> str:
    """Each registered game id in turn."""
    return request.param
