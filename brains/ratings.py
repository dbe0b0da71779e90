"""Ratings from game results: Elo differences with confidence intervals, and Bradley-Terry.

Two players' match gives a score ``s`` (wins + draws/2 over games); its Elo difference is
``-400 log10(1/s - 1)`` and the 95 % interval comes from the Wilson score interval of
``s``. A round robin gives a Bradley-Terry fit on the Elo scale (maximum likelihood by
Newton's method, draws counted as half a win to each side), with intervals from a seeded
bootstrap over the games of each pairing. Perfect scores are pulled in by a tiny prior
(half a game for the Elo difference, a quarter game for its interval, one virtual draw
against a 0-Elo anchor for Bradley-Terry), so every number stays finite and JSON-safe.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import TYPE_CHECKING

from engine.protocol import ParlorError

if TYPE_CHECKING:  # numpy is imported only when a Bradley-Terry fit runs
    import numpy as np


def elo_from_score(score: float) -> float:
    """The Elo difference that predicts ``score`` (0 < score < 1): 0.75 -> +190.8."""
    if not 0.0 < score < 1.0:
        raise ParlorError(f"score {score} must lie strictly between 0 and 1")
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(diff: float) -> float:
    """The expected score of a player ``diff`` Elo above the opponent."""
    return 1.0 / (1.0 + math.pow(10.0, -diff / 400.0))


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """A score over ``games`` and the Elo difference it implies, with an interval."""

    games: int
    score: float
    """Points per game: (wins + draws / 2) / games."""
    diff: float
    """Elo difference (player minus opponent)."""
    lo: float
    """Lower end of the confidence interval, in Elo."""
    hi: float
    """Upper end of the confidence interval, in Elo."""
    confidence: float = 0.95


def wilson_interval(points: float, games: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of ``points`` successes in ``games`` trials."""
    if games <= 0:
        return 0.0, 1.0
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    p = points / games
    denom = 1.0 + z * z / games
    centre = (p + z * z / (2.0 * games)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / games + z * z / (4.0 * games * games))
    return max(0.0, centre - half), min(1.0, centre + half)


def elo_estimate(wins: int, draws: int, losses: int, confidence: float = 0.95) -> EloEstimate:
    """The Elo difference of a player with this record, and its confidence interval.

    The interval is the Wilson interval of the score (draws count as half a point),
    mapped to Elo. A score of exactly 0 or 1 is pulled half a game inward (a clean
    sweep of n games reads as the Elo of (n - 1/2) / n), and interval ends a quarter of
    a game, so every number is finite and the estimate lies inside its interval.
    """
    games = wins + draws + losses
    if games <= 0:
        return EloEstimate(0, 0.5, 0.0, 0.0, 0.0, confidence)
    points = wins + draws / 2.0
    score = points / games

    def elo(p: float, edge: float) -> float:
        return elo_from_score(min(max(p, edge / games), 1.0 - edge / games))

    lo, hi = wilson_interval(points, games, confidence)
    return EloEstimate(games, score, elo(score, 0.5), elo(lo, 0.25), elo(hi, 0.25), confidence)


# --------------------------------------------------------------------------- Bradley-Terry


@dataclass(frozen=True, slots=True)
class Rating:
    """One player's Bradley-Terry rating on the Elo scale (mean of all players = 0)."""

    player: str
    elo: float
    lo: float
    """Lower end of the bootstrap confidence interval."""
    hi: float
    """Upper end of the bootstrap confidence interval."""
    games: int
    score: float
    """The player's points per game over all their games."""


PairResults = Mapping[tuple[str, str], tuple[int, int, int]]
"""``(a, b) -> (a's wins, draws, b's wins)`` for every pairing that played."""


def fit_bradley_terry(players: Sequence[str], results: PairResults, *,
                      prior: float = 1.0, tol: float = 1e-10, max_iter: int = 10_000,
                      ) -> list[float]:
    """Elo-scale Bradley-Terry strengths for ``players``, centred on mean 0.

    The maximum-likelihood fit, where a player's points count wins plus half the draws.
    Each player also has ``prior`` virtual drawn games against a fixed anchor of
    strength 0 Elo, which keeps unbeaten and winless players finite.
    """
    strengths: list[float] = _fit(_win_matrix(players, results), prior, tol, max_iter).tolist()
    return strengths


def _win_matrix(players: Sequence[str], results: PairResults) -> np.ndarray:
    """Matrix ``W[i, j]`` = points player i scored against player j."""
    import numpy as np

    index = {p: i for i, p in enumerate(players)}
    w = np.zeros((len(players), len(players)))
    for (a, b), (a_wins, draws, b_wins) in results.items():
        i, j = index[a], index[b]
        w[i, j] += a_wins + draws / 2.0
        w[j, i] += b_wins + draws / 2.0
    return w


def _fit(w: np.ndarray, prior: float, tol: float, max_iter: int) -> np.ndarray:
    """Maximise the Bradley-Terry likelihood of a points matrix; centred Elo strengths.

    Newton's method on the log-strengths ``t``, with P(i beats j) = sigmoid(t_i - t_j).
    The prior's virtual draws against a fixed anchor (t = 0) make the likelihood strictly
    concave, so the iteration converges from zero in a few steps (each step is capped
    to keep far-off starts stable).
    """
    import numpy as np

    n = w + w.T
    points = w.sum(axis=1) + prior / 2.0
    t = np.zeros(len(points))
    for _ in range(max_iter):
        p = 1.0 / (1.0 + np.exp(t[None, :] - t[:, None]))  # p[i, j] = P(i beats j)
        p0 = 1.0 / (1.0 + np.exp(-t))  # P(i beats the anchor)
        grad = points - (n * p).sum(axis=1) - prior * p0
        curv = n * p * (1.0 - p)
        hess = curv - np.diag(curv.sum(axis=1) + prior * p0 * (1.0 - p0))
        step = np.clip(np.linalg.lstsq(hess, grad, rcond=None)[0], -2.0, 2.0)
        t = t - step
        if np.max(np.abs(step)) < tol:
            break
    elo: np.ndarray = 400.0 / math.log(10.0) * t
    return elo - float(elo.mean()) + 0.0


def bradley_terry(players: Sequence[str], results: PairResults, *, bootstrap: int = 200,
                  seed: int = 0, confidence: float = 0.95, prior: float = 1.0,
                  anchor: str | None = None) -> list[Rating]:
    """Bradley-Terry ratings with bootstrap confidence intervals, best first.

    With ``anchor`` (one of ``players``) every fit, the refits included, is shifted so
    that the anchor is rated 0: the intervals are then those of each player's
    difference from the anchor (the anchor's own interval is [0, 0]). Without it the
    ratings are centred on their mean.

    The bootstrap redraws each pairing's games (win/draw/loss counts from a multinomial
    with the observed frequencies) ``bootstrap`` times from ``seed`` and refits; the
    interval is the central ``confidence`` share of the refitted ratings. The redraws
    use the same frequencies as the fit: smoothing them (say with a virtual half win
    and half loss per pairing) would pull every refit of a player who swept several
    pairings below the fit itself, which in a round robin full of sweeps puts the fit
    at the top edge of its own interval.
    """
    players = list(players)
    base, samples = bradley_terry_samples(players, results, bootstrap=bootstrap, seed=seed,
                                          prior=prior, anchor=anchor)
    import numpy as np

    tail = (1.0 - confidence) / 2.0 * 100.0
    lo = np.percentile(samples, tail, axis=0) if bootstrap else base
    hi = np.percentile(samples, 100.0 - tail, axis=0) if bootstrap else base
    totals = _totals(players, results.items())
    ratings = [
        Rating(p, float(base[i]), float(min(lo[i], base[i])), float(max(hi[i], base[i])),
               totals[p][0], totals[p][1] / totals[p][0] if totals[p][0] else 0.5)
        for i, p in enumerate(players)
    ]
    return sorted(ratings, key=lambda r: -r.elo)


def bradley_terry_samples(players: Sequence[str], results: PairResults, *,
                          bootstrap: int = 200, seed: int = 0, prior: float = 1.0,
                          anchor: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The Bradley-Terry fit of ``results`` and ``bootstrap`` refits (one row each) on
    redrawn games, as :func:`bradley_terry` makes them; for intervals of anything that
    depends on several ratings at once (a predicted score between two players).
    """
    import numpy as np

    players = list(players)
    if anchor is not None and anchor not in players:
        raise ParlorError(f"the anchor {anchor!r} is not one of the players")

    def shift(elo: np.ndarray) -> np.ndarray:
        return elo - elo[players.index(anchor)] if anchor is not None else elo

    base = shift(_fit(_win_matrix(players, results), prior, 1e-10, 10_000))
    rng = np.random.default_rng(seed)
    pairs = [(pair, counts) for pair, counts in results.items() if sum(counts) > 0]
    samples = np.empty((bootstrap, len(players)))
    for k in range(bootstrap):
        redrawn: dict[tuple[str, str], tuple[int, int, int]] = {}
        for pair, (a_wins, draws, b_wins) in pairs:
            total = a_wins + draws + b_wins
            a, d, b = (int(c) for c in rng.multinomial(
                total, [c / total for c in (a_wins, draws, b_wins)]))
            redrawn[pair] = (a, d, b)
        samples[k] = shift(_fit(_win_matrix(players, redrawn), prior, 1e-8, 10_000))
    return base, samples


def rate_against(opponents: Sequence[float], results: Sequence[tuple[int, int, int]], *,
                 prior: float = 1.0) -> float:
    """The Elo rating of a player whose games against opponents of fixed ratings ended
    ``results`` (``(wins, draws, losses)`` against each), by maximum likelihood.

    The opponents' ratings stay as they are (a ladder measured before): this places one
    more player on that scale. ``prior`` virtual draws against an opponent of the mean
    rating keep a clean sweep finite.
    """
    if len(opponents) != len(results) or not opponents:
        raise ParlorError("one result per opponent, and at least one opponent")
    centre = sum(opponents) / len(opponents)
    points = sum(w + d / 2.0 for w, d, _ in results) + prior / 2.0

    def expected(x: float) -> float:
        return sum(sum(c) * score_from_elo(x - r) for r, c in zip(opponents, results,
                                                                    strict=True)) \
            + prior * score_from_elo(x - centre)

    lo, hi = min(opponents) - 4000.0, max(opponents) + 4000.0
    for _ in range(100):  # the expected points rise with x: bisect
        mid = (lo + hi) / 2.0
        if expected(mid) < points:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2.0


def _totals(players: Sequence[str],
            items: Iterable[tuple[tuple[str, str], tuple[int, int, int]]],
            ) -> dict[str, tuple[int, float]]:
    """Games and points of each player over all pairings."""
    games = {p: 0 for p in players}
    points = {p: 0.0 for p in players}
    for (a, b), (a_wins, draws, b_wins) in items:
        total = a_wins + draws + b_wins
        games[a] += total
        games[b] += total
        points[a] += a_wins + draws / 2.0
        points[b] += b_wins + draws / 2.0
    return {p: (games[p], points[p]) for p in players}
