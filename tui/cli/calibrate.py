"""Measure a game's ladder of levels (random = 0) and write its ratings file, or check it."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from engine.files import write_atomic
from engine.protocol import ParlorError
from tui.cli.common import (
    MAX_SEED,
    add_scheduler_argument,
    int_range,
    jobs_type,
    max_jobs,
    seed_type,
)

MAX_GAMES = 10_000
"""Most games per pairing."""
MAX_BOOTSTRAP = 10_000
"""Most bootstrap resamples."""


def _pair(text: str) -> tuple[int, int]:
    """``3:5`` -> (3, 5): two different rungs."""
    a, sep, b = text.partition(":")
    try:
        pair = (int(a), int(b))
    except ValueError:
        pair = (0, 0)
    if not sep or min(pair) < 1 or pair[0] == pair[1] or max(pair) > 99:
        raise argparse.ArgumentTypeError(f"{text[:60]!r} is not two rungs such as 3:5")
    return pair


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", help="game id (see `parlor games`)")
    parser.add_argument("-n", "--games", type=int_range(1, MAX_GAMES), default=20,
                        help=f"games per pairing, 1 to {MAX_GAMES} (default 20)")
    parser.add_argument("--seed", type=seed_type, default=0,
                        help=f"seed of the openings and tie-breaks, 0 to {MAX_SEED} (default 0)")
    parser.add_argument("-j", "--jobs", type=jobs_type, default=1,
                        help=f"games played at once in worker processes, 1 to {max_jobs()} "
                             "(default 1)")
    add_scheduler_argument(parser)
    parser.add_argument("--span", type=int_range(1, 99), default=None, metavar="K",
                        help="play only the pairings of rungs at most K apart (random is rung "
                             "0); default: every pairing (a full round robin)")
    parser.add_argument("--bootstrap", type=int_range(0, MAX_BOOTSTRAP), default=1000,
                        metavar="B", help="bootstrap resamples for the 95%% intervals "
                                          "(default 1000)")
    parser.add_argument("--out", metavar="FILE",
                        help="where to write the ratings (default: the shipped file "
                             "saved/ratings/GAME.json); with --check, a JSON report")
    parser.add_argument("--check", type=_pair, nargs="+", metavar="A:B",
                        help="instead of measuring: play rung A against rung B with this "
                             "seed and compare the score with the one the shipped ratings "
                             "predict (e.g. --check 1:3 4:6 --seed 7)")
    parser.add_argument("--reuse", metavar="FILE",
                        help="take up the games of an earlier ratings file played with the "
                             "same seed (the shipped file, or one written with --out): "
                             "pairings it has are extended to --games instead of replayed; "
                             "the result is the same as playing them all")
    parser.add_argument("--probe", nargs="+", metavar="SPEC",
                        help="instead of measuring: place each brain SPEC on the shipped "
                             "scale by playing it against rungs whose ratings stay fixed "
                             "(e.g. --probe alphabeta,depth=2,temperature=0.03 --against "
                             "4 5 6)")
    parser.add_argument("--against", type=int_range(0, 99), nargs="+", metavar="K",
                        help="with --probe: the rungs to play (0 = random); default: random "
                             "and every rung")


def run(args: argparse.Namespace) -> int:
    from brains.arena import ArenaError
    from tui.cli.common import cluster, one_line

    try:
        with cluster(args.scheduler):
            if args.check:
                return check(args)
            if args.probe:
                return probe(args)
            return calibrate(args)
    except ArenaError as exc:
        print(f"parlor calibrate: {one_line(exc)}", file=sys.stderr)
        return 1
    except (ParlorError, OSError) as exc:
        print(f"parlor calibrate: {one_line(exc)}", file=sys.stderr)
        return 2


def write_json(path: str | Path, obj: Any) -> None:
    """Write ``obj`` as indented JSON, atomically (readable by all: a shipped file)."""
    write_atomic(path, json.dumps(obj, indent=1) + "\n", mode=0o644)


def command_line(args: argparse.Namespace) -> str:
    """The command that reproduces this run (written into the ratings file)."""
    parts = ["parlor calibrate", args.game, f"--games {args.games}", f"--seed {args.seed}"]
    if args.span is not None:
        parts.append(f"--span {args.span}")
    parts.append(f"--bootstrap {args.bootstrap}")
    return " ".join(parts)


def calibrate(args: argparse.Namespace) -> int:
    """Play the ladder, fit the ratings (random = 0) and write the ratings file."""
    import datetime as dt

    from brains.arena import tournament
    from brains.ladder import ANCHOR, FOLDER, PACKAGE, LadderRatings, LevelRating, ladder
    from engine.registry import get_game
    from saved import data_path
    from tui.cli.match import ProgressReporter

    game = get_game(args.game).id
    rungs = ladder(game)
    players = [ANCHOR, *rungs]
    span = args.span if args.span is not None else len(rungs)
    pairs = [(players[i], players[j]) for i in range(len(players))
             for j in range(i + 1, min(len(players), i + span + 1))]
    reuse = reusable(game, args) if args.reuse else {}
    wanted = set(pairs)
    reused_games = sum(sum(c) for pair, c in reuse.items() if pair in wanted)
    started = time.monotonic()
    with ProgressReporter(f"calibrate {game}",
                          len(pairs) * args.games - reused_games) as progress:
        result = tournament(game, players, args.games, seed=args.seed, jobs=args.jobs,
                            progress=progress, pairs=pairs, reuse=reuse)
    wall = time.monotonic() - started
    if reused_games:
        print(f"{game}: {reused_games} games taken up from {args.reuse[:60]!r}, "
              f"{len(pairs) * args.games - reused_games} played now")
    rated = {r.player: r for r in result.ratings(bootstrap=args.bootstrap, anchor=ANCHOR)}
    levels = tuple(LevelRating(k, spec, rated[spec].elo, rated[spec].lo, rated[spec].hi)
                   for k, spec in enumerate(rungs, start=1))
    played = result.pair_counts()
    counts = tuple((a, b, *played[a, b]) for a, b in pairs)
    ratings = LadderRatings(game, command_line(args), args.games, args.seed,
                            dt.datetime.now(dt.UTC).date().isoformat(), levels,
                            counts, wall)
    out = Path(args.out) if args.out else data_path(PACKAGE, FOLDER, f"{game}.json")
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out, ratings.to_json())
    print(f"{game}: {len(pairs)} pairings x {args.games} games, seed {args.seed}, "
          f"{wall:.0f} s; ratings (random = 0, 95% interval) written to {out}")
    print_ladder(levels)
    return 0


def reusable(game: str, args: argparse.Namespace) -> dict[tuple[str, str], tuple[int, int, int]]:
    """The pairings of ``--reuse``'s ratings file that this run can take up: same game
    and seed, at most ``--games`` games each, every game of the pairing counted."""
    from brains.ladder import MAX_BYTES, RatingsFileError, parse_ratings
    from engine.files import FileReadError, read_capped

    try:
        earlier = parse_ratings(read_capped(Path(args.reuse), MAX_BYTES), game,
                                any_ladder=True)
    except (FileReadError, RatingsFileError) as exc:
        raise ParlorError(f"--reuse: {str(exc)[:160]}") from None
    if earlier.seed != args.seed:
        raise ParlorError(f"--reuse: its games were played with seed {earlier.seed}, "
                         f"not {args.seed}")
    if earlier.games > args.games:
        raise ParlorError(f"--reuse: it has {earlier.games} games a pairing, more than "
                         f"--games {args.games}")
    return {(a, b): (w, d, lost) for a, b, w, d, lost in earlier.pairs
            if w + d + lost == earlier.games}


def print_ladder(levels: Any) -> None:
    """One line per rung: number, rating, interval, spec."""
    for r in levels:
        print(f"  {r.level:>2}  {round(r.rating):>6}  [{round(r.lo):>6}, {round(r.hi):>6}]  "
              f"{r.spec}")


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


def check(args: argparse.Namespace) -> int:
    """Play each ``--check`` pairing and compare the observed score with the prediction.

    ``agree``: the predicted score lies in the observed score's 95 % Wilson interval;
    ``overlap``: at least the two 95 % intervals overlap."""
    from brains.arena import match
    from brains.ladder import ladder
    from brains.ratings import wilson_interval
    from engine.registry import get_game
    from tui.cli.match import ProgressReporter

    game = get_game(args.game).id
    rungs = ladder(game)
    rows = []
    for a, b in args.check:
        if max(a, b) > len(rungs):
            raise ParlorError(f"{game}'s ladder has {len(rungs)} rungs, not {max(a, b)}")
        expected, lo, hi = predict(game, a, b, args.bootstrap)
        started = time.monotonic()
        with ProgressReporter(f"check {game} {a}:{b}", args.games) as progress:
            result = match(game, rungs[a - 1], rungs[b - 1], args.games, seed=args.seed,
                           jobs=args.jobs, progress=progress)
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
    print(f"{game}: score of rung A against rung B, predicted from the ratings file "
          f"(95% bootstrap interval) and observed (95% Wilson interval), seed {args.seed}")
    for r in rows:
        print(f"  {r['a']}:{r['b']}  predicted {r['predicted']:.2f} "
              f"[{r['predicted_ci95'][0]:.2f}, {r['predicted_ci95'][1]:.2f}]  observed "
              f"{r['observed']:.2f} [{r['observed_ci95'][0]:.2f}, {r['observed_ci95'][1]:.2f}]"
              f"  over {r['games']} games (+{r['a_wins']} ={r['draws']} -{r['b_wins']})  "
              f"{'agree' if r['agree'] else 'overlap' if r['overlap'] else 'DISAGREE'}")
    if args.out:
        write_json(args.out, {"game": game, "seed": args.seed, "checks": rows})
    return 0


def probe(args: argparse.Namespace) -> int:
    """Place each ``--probe`` spec on the shipped scale: play it against the chosen rungs
    (whose ratings stay fixed) and fit its rating by maximum likelihood. The 95 %
    interval comes from a bootstrap that redraws both the probe's games and the
    calibration's own (so it carries the rungs' uncertainty too)."""
    import numpy as np

    from brains.arena import check_setup, match
    from brains.ladder import ANCHOR, load_ratings
    from brains.ratings import bradley_terry_samples, rate_against, wilson_interval
    from engine.registry import get_game
    from tui.cli.match import ProgressReporter

    game = get_game(args.game).id
    saved = load_ratings(game)
    players = [ANCHOR, *(r.spec for r in saved.levels)]
    against = sorted(set(args.against)) if args.against else list(range(len(players)))
    if max(against) >= len(players):
        raise ParlorError(f"{game}'s ladder has {len(players) - 1} rungs, not {max(against)}")
    check_setup(game, args.probe)
    results = {(a, b): (w, d, lost) for a, b, w, d, lost in saved.pairs}
    base, samples = bradley_terry_samples(players, results, bootstrap=args.bootstrap,
                                          seed=saved.seed, anchor=ANCHOR)
    rng = np.random.default_rng(args.seed)
    rows = []
    for spec in args.probe:
        counts = []
        started = time.monotonic()
        for k in against:
            with ProgressReporter(f"probe {spec[:40]} vs {k}", args.games) as progress:
                m = match(game, spec, players[k], args.games, seed=args.seed,
                          jobs=args.jobs, progress=progress)
            counts.append(m.counts())
        rating = rate_against([float(base[k]) for k in against], counts)
        refits = []
        for b in range(args.bootstrap):
            redrawn = []
            for c in counts:
                shares = [v / sum(c) for v in c]
                won, drawn, lost = (int(x) for x in rng.multinomial(sum(c), shares))
                redrawn.append((won, drawn, lost))
            refits.append(rate_against([float(samples[b, k]) for k in against], redrawn))
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
                        for k, c in zip(against, counts, strict=True)],
            "seconds": round(time.monotonic() - started, 1)})
    print(f"{game}: probes placed on the shipped scale (random = 0), {args.games} games "
          f"against each of rungs {', '.join(map(str, against))}, seed {args.seed}")
    for r in rows:
        scores = "  ".join(f"{a['rung']}:{a['score']:.2f}" for a in r["against"])
        print(f"  {round(r['rating']):>6}  [{round(r['ci95'][0]):>6}, "
              f"{round(r['ci95'][1]):>6}]  {r['spec']}   scores {scores}")
    if args.out:
        write_json(args.out, {"game": game, "seed": args.seed, "games": args.games,
                              "probes": rows})
    return 0
