"""Glicko-2: the worked example of Glickman's paper, the direction of every update, and
any valid input giving a valid rating."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brains.glicko import (
    INITIAL_DEVIATION,
    MAX_ABS_RATING,
    Glicko,
    expected_score,
    update,
)


def test_the_papers_example() -> None:
    """A 1500/200/0.06 player beats a 1400/30 player, loses to 1550/100 and to 1700/300
    (tau 0.5): the paper gives 1464.06, 151.52 and 0.05999."""
    player = Glicko(1500, 200, 0.06)
    after = update(player, [(Glicko(1400, 30), 1), (Glicko(1550, 100), 0),
                            (Glicko(1700, 300), 0)], tau=0.5)
    # The paper rounds its intermediate values to four decimals (mu' = -0.2069,
    # phi' = 0.8722) before converting back; unrounded, the rating is 1464.051.
    assert round((after.rating - 1500) / 173.7178, 4) == -0.2069
    assert round(after.deviation / 173.7178, 4) == 0.8722
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert round(after.deviation, 2) == 151.52
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    player = Glicko(1500, 200, 0.06)
    after = update(player, [])
    assert after.rating == 1500 and after.volatility == 0.06
    # step 6: phi* = sqrt(phi^2 + sigma^2), on the Glicko-2 scale
    assert after.deviation == pytest.approx(173.7178 * math.hypot(200 / 173.7178, 0.06))
    assert update(Glicko(1500, INITIAL_DEVIATION), []).deviation == INITIAL_DEVIATION


def test_wins_raise_losses_lower_and_every_game_narrows_the_deviation() -> None:
    player, opponent = Glicko(1500, 120), Glicko(1500, 80)
    win, draw, loss = (update(player, [(opponent, s)]) for s in (1, 0.5, 0))
    assert win.rating > player.rating > loss.rating
    assert draw.rating == pytest.approx(player.rating)
    assert max(win.deviation, draw.deviation, loss.deviation) < player.deviation
    # beating a stronger opponent is worth more than beating a weaker one
    assert update(player, [(Glicko(1700, 80), 1)]).rating > win.rating


def test_expected_scores_are_complementary_and_favour_the_stronger() -> None:
    a, b = Glicko(1600, 50), Glicko(1400, 50)
    assert expected_score(a, b) > 0.5 > expected_score(b, a)
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0)
    assert expected_score(a, a) == pytest.approx(0.5)


@pytest.mark.parametrize("fields", [
    (math.nan, 100, 0.06), (1500, math.inf, 0.06), (1500, 0, 0.06), (1500, 351, 0.06),
    (1500, 100, 0), (1500, 100, 2.0), (MAX_ABS_RATING * 2, 100, 0.06), ("1500", 100, 0.06),
    (True, 100, 0.06),
])
def test_impossible_ratings_are_refused(fields: tuple) -> None:
    with pytest.raises(ValueError, match="Glicko"):
        Glicko(*fields)


@pytest.mark.parametrize("score", [-0.1, 1.5, math.nan, "1", None])
def test_impossible_scores_are_refused(score: object) -> None:
    with pytest.raises(ValueError, match="score"):
        update(Glicko(), [(Glicko(), score)])  # type: ignore[list-item]


ratings = st.builds(Glicko,
                    st.floats(-MAX_ABS_RATING, MAX_ABS_RATING),
                    st.floats(1.0, INITIAL_DEVIATION),
                    st.floats(0.001, 1.0))


@given(ratings, st.lists(st.tuples(ratings, st.sampled_from([0.0, 0.5, 1.0])), max_size=5))
def test_any_valid_period_gives_a_valid_rating(player: Glicko, games: list) -> None:
    after = update(player, games)  # Glicko() checks every field of the result
    assert after.deviation <= max(player.deviation, INITIAL_DEVIATION)
    # (within rounding: a win over a far weaker player moves the rating by ~0, and the
    # conversion to Glicko-2's scale and back may round that either way)
    if games and all(score == 1.0 for _, score in games):
        assert after.rating >= player.rating - 1e-9
    if games and all(score == 0.0 for _, score in games):
        assert after.rating <= player.rating + 1e-9
