"""Glicko-2 ratings: a rating, its deviation (how uncertain it is) and a volatility.

This is Mark Glickman's Glicko-2 system as his paper "Example of the Glicko-2 system"
describes it (step numbers below are the paper's). A player's results in one rating
period update the rating once; Parlor makes every rated game its own period, as online
game servers do, so the rating moves after each game.

The ratings are on the usual Glicko scale (1500 for a new player, deviation 350), but
only differences enter the formulas, so any scale whose points mean the same as Elo's
works: a player rated against levels measured on another scale simply starts at
:data:`INITIAL_RATING` of that scale or wherever the caller starts them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from engine.protocol import ParlorError

SCALE = 173.7178
"""Glicko points per Glicko-2 unit (400 / ln 10)."""
INITIAL_RATING = 1500.0
INITIAL_DEVIATION = 350.0
"""The deviation of a player with no games; a deviation never grows beyond it."""
INITIAL_VOLATILITY = 0.06
TAU = 0.5
"""The system constant: how much the volatility may change (the paper suggests 0.3 to 1.2;
its example uses 0.5)."""
EPSILON = 1e-6
"""Convergence tolerance of the volatility iteration (the paper's value)."""
MAX_ITERATIONS = 100
"""The volatility iteration stops after this many steps whatever happens (it converges in
a handful for any sensible input)."""
MAX_ABS_RATING = 10_000.0
"""Ratings beyond this are refused as input (nothing real comes near; within it every
step of the update stays in floating-point range)."""
MAX_VOLATILITY = 1.0
"""Volatilities beyond this are refused as input (a typical one is 0.06)."""


@dataclass(frozen=True, slots=True)
class Glicko:
    """A Glicko-2 rating on the Glicko scale: rating, deviation and volatility."""

    rating: float = INITIAL_RATING
    deviation: float = INITIAL_DEVIATION
    volatility: float = INITIAL_VOLATILITY

    def __post_init__(self) -> None:
        check_rating(self.rating, self.deviation, self.volatility)

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % interval of the rating: rating ± 1.96 deviations."""
        return self.rating - 1.96 * self.deviation, self.rating + 1.96 * self.deviation


def check_rating(rating: object, deviation: object, volatility: object = INITIAL_VOLATILITY
                 ) -> None:
    """ValueError unless the three are finite numbers in their ranges: ``|rating|`` at
    most :data:`MAX_ABS_RATING`, deviation above 0 and at most
    :data:`INITIAL_DEVIATION`, volatility above 0 and at most :data:`MAX_VOLATILITY`."""
    for name, value in (("rating", rating), ("deviation", deviation),
                        ("volatility", volatility)):
        if isinstance(value, bool) or not isinstance(value, (int, float)) \
                or not math.isfinite(value):
            raise ParlorError(f"a Glicko {name} must be a finite number, not {value!r:.40}")
    assert isinstance(rating, (int, float)) and isinstance(deviation, (int, float)) \
        and isinstance(volatility, (int, float))  # checked just above; for the type checker
    if abs(rating) > MAX_ABS_RATING:
        raise ParlorError(f"a Glicko rating must be within ±{MAX_ABS_RATING:g}, not {rating:g}")
    if not 0 < deviation <= INITIAL_DEVIATION:
        raise ParlorError(f"a Glicko deviation must be above 0 and at most "
                         f"{INITIAL_DEVIATION:g}, not {deviation:g}")
    if not 0 < volatility <= MAX_VOLATILITY:
        raise ParlorError(f"a Glicko volatility must be above 0 and at most "
                         f"{MAX_VOLATILITY:g}, not {volatility:g}")


def _g(phi: float) -> float:
    """Step 3's g: how much an opponent's uncertainty flattens the expected score."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _logistic(x: float) -> float:
    """1 / (1 + e^-x), without overflow and with full precision for large ``|x|``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    ex = math.exp(x)
    return ex / (1.0 + ex)


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    """Step 3's E: the expected score against an opponent (Glicko-2 units)."""
    return _logistic(_g(phi_j) * (mu - mu_j))


def expected_score(player: Glicko, opponent: Glicko) -> float:
    """The player's expected score (0 to 1) against the opponent, counting the
    opponent's deviation (step 3's E)."""
    return _expected((player.rating - INITIAL_RATING) / SCALE,
                     (opponent.rating - INITIAL_RATING) / SCALE, opponent.deviation / SCALE)


def _check_score(score: float) -> float:
    if isinstance(score, bool) or not isinstance(score, (int, float)) \
            or not math.isfinite(score) or not 0.0 <= score <= 1.0:
        raise ParlorError(f"a game's score must be a number from 0 to 1 "
                         f"(1 win, 0.5 draw, 0 loss), not {score!r:.40}")
    return float(score)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm on f(x) = 0."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau))

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0 and k < MAX_ITERATIONS:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    for _ in range(MAX_ITERATIONS):
        if abs(big_b - big_a) <= EPSILON:
            break
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Glicko, results: Iterable[tuple[Glicko, float]], tau: float = TAU
           ) -> Glicko:
    """The player's rating after one rating period: ``results`` are
    ``(opponent, score)`` pairs, score 1 for a win, 0.5 a draw, 0 a loss.

    With no results only the deviation grows (step 6), up to :data:`INITIAL_DEVIATION`.
    Raises ValueError for a score outside 0..1 or a non-finite ``tau``.
    """
    if isinstance(tau, bool) or not isinstance(tau, (int, float)) \
            or not math.isfinite(tau) or tau <= 0:
        raise ParlorError(f"tau must be a positive number, not {tau!r:.40}")
    games = [(opponent, _check_score(score)) for opponent, score in results]
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - INITIAL_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    max_phi = INITIAL_DEVIATION / SCALE
    if not games:
        return Glicko(player.rating, min(math.sqrt(phi * phi + sigma * sigma), max_phi) * SCALE,
                      sigma)
    # Steps 3 and 4: the estimated variance v and improvement delta.
    inverse_v = 0.0
    total = 0.0
    for opponent, score in games:
        mu_j = (opponent.rating - INITIAL_RATING) / SCALE
        phi_j = opponent.deviation / SCALE
        g = _g(phi_j)
        # E and 1 - E each from its own logistic, so that neither rounds to 0 when the
        # ratings are far apart (v would divide by zero).
        e, rest = _logistic(g * (mu - mu_j)), _logistic(g * (mu_j - mu))
        inverse_v += g * g * e * rest
        total += g * (score * rest - (1.0 - score) * e)  # score - E
    v = 1.0 / inverse_v
    delta = v * total
    # Steps 5 to 7: the new volatility, the pre-period deviation, the new values.
    new_sigma = min(_new_volatility(sigma, phi, v, delta, tau), MAX_VOLATILITY)
    phi_star = min(math.sqrt(phi * phi + new_sigma * new_sigma), max_phi)
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    new_mu = mu + new_phi * new_phi * total
    # Step 8: back to the Glicko scale.
    rating = max(-MAX_ABS_RATING, min(MAX_ABS_RATING, SCALE * new_mu + INITIAL_RATING))
    return Glicko(rating, SCALE * new_phi, new_sigma)
