"""Measuring a game's ladder of levels (random = 0), checking it, and placing other brains
on its scale: what ``parlor calibrate`` does (the command only reads its arguments and
prints what these return).

- :func:`measure` plays the ladder's pairings (all, or those of rungs at most ``span``
  apart), taking up the games of an earlier ratings file where asked (:func:`reusable`),
  and fits the ratings with bootstrap intervals: a :class:`Calibration`, whose
  ``ratings`` :func:`write_ratings` writes as the game's ratings file;
- :func:`check_pairs` plays rung A against rung B and compares the score with the one the
  shipped ratings predict (:func:`predict`);
- :func:`probe` places brain specs on the shipped scale against rungs held fixed.

Each takes a ``reporter(label, total)``: a context manager giving the progress callback
of the arena's games (the command shows a bar; None shows nothing).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.files import write_atomic
from engine.protocol import ParlorError

Reporter = Callable[[str, int], AbstractContextManager[Any]]
"""``reporter(label, total)``: a context manager whose value is the games' progress
callback (or None)."""


def reporting(reporter: Reporter | None, label: str, total: int) -> AbstractContextManager[Any]:
    """``reporter(label, total)``, or a context giving no callback where ``reporter`` is None."""
    return reporter(label, total) if reporter is not None else nullcontext(None)


def write_json(path: str | Path, obj: Any) -> None:
    """Write ``obj`` as indented JSON, atomically (readable by all: a shipped file)."""
    write_atomic(path, json.dumps(obj, indent=1) + "\n", mode=0o644)


def command_line(game: str, games: int, seed: int, span: int | None, bootstrap: int) -> str:
    """The command that reproduces a calibration (written into the ratings file)."""
    parts = ["parlor calibrate", game, f"--games {games}", f"--seed {seed}"]
    if span is not None:
        parts.append(f"--span {span}")
    parts.append(f"--bootstrap {bootstrap}")
    return " ".join(parts)


@dataclass(frozen=True)
class Calibration:
    """A measured ladder: the ratings (``brains.ladder.LadderRatings``), the pairings
    played, the games taken up from an earlier file, and the seconds it took."""

    ratings: Any
    pairs: int
    reused_games: int
    wall: float


def measure(game: str, games: int, *, seed: int = 0, jobs: int = 1, span: int | None = None,
            bootstrap: int = 1000, reuse: str | None = None,
            reporter: Reporter | None = None) -> Calibration:
    """Play ``game``'s ladder (random as rung 0) ``games`` games a pairing and fit the
    ratings (random = 0, 95 % bootstrap intervals)."""
    import datetime as dt

    from brains.arena import tournament
    from brains.ladder import ANCHOR, LadderRatings, LevelRating, ladder
    from engine.registry import get_game

    game = get_game(game).id
    rungs = ladder(game)
    players = [ANCHOR, *rungs]
    reach = span if span is not None else len(rungs)
    pairs = [(players[i], players[j]) for i in range(len(players))
             for j in range(i + 1, min(len(players), i + reach + 1))]
    taken = reusable(game, reuse, seed, games) if reuse else {}
    wanted = set(pairs)
    reused_games = sum(sum(c) for pair, c in taken.items() if pair in wanted)
    started = time.monotonic()
    with reporting(reporter, f"calibrate {game}",
                 len(pairs) * games - reused_games) as progress:
        result = tournament(game, players, games, seed=seed, jobs=jobs,
                            progress=progress, pairs=pairs, reuse=taken)
    wall = time.monotonic() - started
    rated = {r.player: r for r in result.ratings(bootstrap=bootstrap, anchor=ANCHOR)}
    levels = tuple(LevelRating(k, spec, rated[spec].elo, rated[spec].lo, rated[spec].hi)
                   for k, spec in enumerate(rungs, start=1))
    played = result.pair_counts()
    counts = tuple((a, b, *played[a, b]) for a, b in pairs)
    ratings = LadderRatings(game, command_line(game, games, seed, span, bootstrap), games,
                            seed, dt.datetime.now(dt.UTC).date().isoformat(), levels,
                            counts, wall)
    return Calibration(ratings, len(pairs), reused_games, wall)


def ratings_path(game: str, out: str | None = None) -> Path:
    """Where a calibration of ``game`` is written: ``out``, else the shipped file."""
    from brains.ladder import FOLDER, PACKAGE
    from saved import data_path

    return Path(out) if out else data_path(PACKAGE, FOLDER, f"{game}.json")


def write_ratings(ratings: Any, out: Path) -> None:
    """Write ``ratings`` (``LadderRatings``) as a ratings file at ``out``."""
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out, ratings.to_json())


def reusable(game: str, path: str, seed: int,
             games: int) -> dict[tuple[str, str], tuple[int, int, int]]:
    """The pairings of the ratings file at ``path`` that a calibration can take up: same
    game and seed, at most ``games`` games each, every game of the pairing counted."""
    from brains.ladder import MAX_BYTES, RatingsFileError, parse_ratings
    from engine.files import FileReadError, read_capped

    try:
        earlier = parse_ratings(read_capped(Path(path), MAX_BYTES), game, any_ladder=True)
    except (FileReadError, RatingsFileError) as exc:
        raise ParlorError(f"--reuse: {str(exc)[:160]}") from None
    if earlier.seed != seed:
        raise ParlorError(f"--reuse: its games were played with seed {earlier.seed}, "
                          f"not {seed}")
    if earlier.games > games:
        raise ParlorError(f"--reuse: it has {earlier.games} games a pairing, more than "
                          f"--games {games}")
    return {(a, b): (w, d, lost) for a, b, w, d, lost in earlier.pairs
            if w + d + lost == earlier.games}


def predict(game: str, a: int, b: int, bootstrap: int = 1000) -> tuple[float, float, float]:
    """Rung ``a``'s expected score against rung ``b`` from the shipped ratings, with the
    95 % interval of the prediction (a bootstrap over the calibration's own games)."""
    import numpy as np

    from brains.ladder import ANCHOR, load_ratings
    from brains.ratings import bradley_terry_samples

    saved = load_ratings(game)
    players = [ANCHOR, *(r.spec for r in saved.levels)]
    results = {(pa, pb): (w, d, lost) for pa, pb, w, d, lost in saved.pairs}
    base, samples = bradley_terry_samples(players, results, bootstrap=bootstrap,
                                          seed=saved.seed, anchor=ANCHOR)

    def score(elo: Any) -> Any:
        return 1.0 / (1.0 + 10.0 ** (-(elo[..., a] - elo[..., b]) / 400.0))

    draws = score(samples) if bootstrap else np.array([score(base)])
    return (float(score(base)), float(np.percentile(draws, 2.5)),
            float(np.percentile(draws, 97.5)))


def check_pairs(game: str, pairs: Sequence[tuple[int, int]], games: int, *, seed: int = 0,
                jobs: int = 1, bootstrap: int = 1000,
                reporter: Reporter | None = None) -> list[dict[str, Any]]:
    """Play each pairing of rungs (A, B) and compare the observed score with the
    prediction: one row each. ``agree``: the predicted score lies in the observed score's
    95 % Wilson interval; ``overlap``: at least the two 95 % intervals overlap."""
    from brains.arena import match
    from brains.ladder import ladder
    from brains.ratings import wilson_interval

    rungs = ladder(game)
    rows = []
    for a, b in pairs:
        if max(a, b) > len(rungs):
            raise ParlorError(f"{game}'s ladder has {len(rungs)} rungs, not {max(a, b)}")
        expected, lo, hi = predict(game, a, b, bootstrap)
        started = time.monotonic()
        with reporting(reporter, f"check {game} {a}:{b}", games) as progress:
            result = match(game, rungs[a - 1], rungs[b - 1], games, seed=seed,
                           jobs=jobs, progress=progress)
        wins, draws, losses = result.counts()
        obs_lo, obs_hi = wilson_interval(wins + draws / 2.0, result.games)
        rows.append({"a": a, "b": b, "games": result.games, "a_wins": wins, "draws": draws,
                     "b_wins": losses, "predicted": round(expected, 3),
                     "predicted_ci95": [round(lo, 3), round(hi, 3)],
                     "observed": round(result.a_score, 3),
                     "observed_ci95": [round(obs_lo, 3), round(obs_hi, 3)],
                     "agree": bool(obs_lo <= expected <= obs_hi),
                     "overlap": bool(obs_lo <= hi and lo <= obs_hi),
                     "seconds": round(time.monotonic() - started, 1)})
    return rows


def probe(game: str, specs: Sequence[str], games: int, *, against: Sequence[int] | None = None,
          seed: int = 0, jobs: int = 1, bootstrap: int = 1000,
          reporter: Reporter | None = None) -> tuple[list[int], list[dict[str, Any]]]:
    """Place each spec on the shipped scale: play it against the rungs ``against`` (0 is
    random; default all), whose ratings stay fixed, and fit its rating by maximum
    likelihood. The 95 % interval comes from a bootstrap that redraws both the probe's
    games and the calibration's own (so it carries the rungs' uncertainty too).
    Returns the rungs played and one row per spec."""
    import numpy as np

    from brains.arena import check_setup, match
    from brains.ladder import ANCHOR, load_ratings
    from brains.ratings import bradley_terry_samples, rate_against, wilson_interval

    saved = load_ratings(game)
    players = [ANCHOR, *(r.spec for r in saved.levels)]
    rungs = sorted(set(against)) if against else list(range(len(players)))
    if max(rungs) >= len(players):
        raise ParlorError(f"{game}'s ladder has {len(players) - 1} rungs, not {max(rungs)}")
    check_setup(game, list(specs))
    results = {(a, b): (w, d, lost) for a, b, w, d, lost in saved.pairs}
    base, samples = bradley_terry_samples(players, results, bootstrap=bootstrap,
                                          seed=saved.seed, anchor=ANCHOR)
    rng = np.random.default_rng(seed)
    rows = []
    for spec in specs:
        counts = []
        started = time.monotonic()
        for k in rungs:
            with reporting(reporter, f"probe {spec[:40]} vs {k}", games) as progress:
                m = match(game, spec, players[k], games, seed=seed, jobs=jobs,
                          progress=progress)
            counts.append(m.counts())
        rating = rate_against([float(base[k]) for k in rungs], counts)
        refits = []
        for b in range(bootstrap):
            redrawn = []
            for c in counts:
                shares = [v / sum(c) for v in c]
                won, drawn, lost = (int(x) for x in rng.multinomial(sum(c), shares))
                redrawn.append((won, drawn, lost))
            refits.append(rate_against([float(samples[b, k]) for k in rungs], redrawn))
        lo, hi = ((float(np.percentile(refits, 2.5)), float(np.percentile(refits, 97.5)))
                  if refits else (rating, rating))
        rows.append({
            "spec": spec, "rating": round(rating, 1),
            "ci95": [round(min(lo, rating), 1), round(max(hi, rating), 1)],
            "against": [{"rung": k, "rating": round(float(base[k]), 1), "wins": c[0],
                         "draws": c[1], "losses": c[2],
                         "score": round((c[0] + c[1] / 2.0) / sum(c), 3),
                         "score_ci95": [round(v, 3) for v in
                                        wilson_interval(c[0] + c[1] / 2.0, sum(c))]}
                        for k, c in zip(rungs, counts, strict=True)],
            "seconds": round(time.monotonic() - started, 1)})
    return rungs, rows
