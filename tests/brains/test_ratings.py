"""Rating tests: Elo from a score, its interval, and Bradley-Terry on synthetic results."""

from __future__ import annotations

import json
import math
import random

import pytest

from brains.ratings import (
    bradley_terry,
    elo_estimate,
    elo_from_score,
    fit_bradley_terry,
    score_from_elo,
    wilson_interval,
)


def test_a_75_percent_score_is_about_191_elo() -> None:
    assert elo_from_score(0.75) == pytest.approx(400 * math.log10(3))
    assert round(elo_from_score(0.75)) == 191
    assert elo_estimate(30, 0, 10).diff == pytest.approx(190.85, abs=0.01)
    assert elo_estimate(20, 20, 0).diff == pytest.approx(190.85, abs=0.01)  # draws are half


def test_elo_and_score_are_inverse_and_symmetric() -> None:
    for diff in (-600.0, -100.0, 0.0, 37.5, 400.0):
        assert elo_from_score(score_from_elo(diff)) == pytest.approx(diff)
    good, bad = elo_estimate(27, 6, 7), elo_estimate(7, 6, 27)
    assert good.diff == pytest.approx(-bad.diff)
    assert (good.lo, good.hi) == pytest.approx((-bad.hi, -bad.lo))
    assert elo_estimate(10, 20, 10).diff == pytest.approx(0.0)


def test_interval_contains_the_estimate_and_narrows_with_more_games() -> None:
    small, large = elo_estimate(15, 0, 5), elo_estimate(150, 0, 50)
    assert small.diff == pytest.approx(large.diff)
    assert small.lo < large.lo <= large.diff <= large.hi < small.hi
    lo, hi = wilson_interval(15, 20)
    assert 0 < lo < 0.75 < hi < 1


def test_clean_sweeps_stay_finite_and_json_safe() -> None:
    sweep = elo_estimate(40, 0, 0)
    assert math.isfinite(sweep.diff) and math.isfinite(sweep.lo) and sweep.diff > 500
    assert sweep.lo < sweep.diff
    json.dumps([sweep.diff, sweep.lo, sweep.hi], allow_nan=False)
    assert elo_estimate(0, 0, 40).diff == pytest.approx(-sweep.diff)
    assert elo_estimate(0, 0, 0).games == 0


def synthetic(strengths: dict[str, float], games: int, seed: int) -> dict:
    """Round-robin results drawn from a Bradley-Terry model with these Elo strengths."""
    rng = random.Random(seed)
    names = list(strengths)
    out = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = score_from_elo(strengths[a] - strengths[b])
            wins = sum(rng.random() < p for _ in range(games))
            out[a, b] = (wins, 0, games - wins)
    return out


def test_bradley_terry_orders_players_and_recovers_differences() -> None:
    truth = {"weak": -300.0, "fair": 0.0, "good": 150.0, "best": 400.0}
    results = synthetic(truth, 400, seed=1)
    ratings = bradley_terry(list(truth), results, bootstrap=60, seed=0)
    assert [r.player for r in ratings] == ["best", "good", "fair", "weak"]
    by_name = {r.player: r for r in ratings}
    assert by_name["best"].elo - by_name["weak"].elo == pytest.approx(700, abs=100)
    for r in ratings:
        assert r.lo <= r.elo <= r.hi and r.hi - r.lo < 150
        assert r.games == 1200


def test_bradley_terry_two_players_matches_the_elo_of_their_score() -> None:
    a, b = fit_bradley_terry(["a", "b"], {("a", "b"): (300, 0, 100)}, prior=0.0)
    assert a - b == pytest.approx(elo_from_score(0.75), abs=0.01)
    assert a == pytest.approx(-b)


def test_bradley_terry_keeps_unbeaten_players_finite_and_is_reproducible() -> None:
    results = {("a", "b"): (10, 0, 0), ("b", "c"): (10, 0, 0), ("a", "c"): (10, 0, 0)}
    one = bradley_terry(["a", "b", "c"], results, bootstrap=30, seed=5)
    two = bradley_terry(["a", "b", "c"], results, bootstrap=30, seed=5)
    assert one == two
    assert [r.player for r in one] == ["a", "b", "c"]
    assert all(math.isfinite(x) for r in one for x in (r.elo, r.lo, r.hi))
