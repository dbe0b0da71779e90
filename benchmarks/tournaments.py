"""Round-robin tables of every search and learned brain, per game.

Usage: python -m benchmarks.tournaments [--games N] [--jobs J] [--seed S] [--game G ...]
    [--out DIR] [--bootstrap B] [--index]

For each game (default: all five), runs ``parlor tournament GAME SPEC... --games N
--seed S --csv F --json F`` through the command's own entry point, with the roster
:func:`roster` gives: random, greedy, alphabeta:easy, alphabeta:medium, mcts:easy, every
learned brain that plays the game and has a shipped model (``table``, ``qlearn``,
``linear``, ``mlp``), and ``alphabeta:easy,eval=mlp`` where the game's MLP model ships.

Writes into DIR (default ``docs/tournaments``): ``GAME.txt`` (the command line, then the
table exactly as the command prints it), ``GAME.csv`` and ``GAME.json`` (the command's
own files), ``runs.json`` (per game: command, date, games per pairing, jobs, wall time,
ranking, learned brains left out for want of a model) and ``README.md``, rebuilt from
``runs.json`` so games run at different times share one index. ``make bench`` runs it
with 2 games a pairing into ``build/tournaments`` (ignored by git), leaving the
committed tables alone.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as _dt
import io
import json
import shlex
import sys
import time
from pathlib import Path
from typing import Any

from engine.registry import GAMES

SEARCH = ("random", "greedy", "alphabeta:easy", "alphabeta:medium", "mcts:easy")
"""The search brains every game's roster starts with."""
LEARNED = ("table", "qlearn", "linear", "mlp")
"""Learned brains, in roster order; each plays where the registry lets it and its model
ships in ``saved/models``."""
MLP_SEARCH = "alphabeta:easy,eval=mlp"
"""Alpha-beta on the MLP value network, added where the game's MLP model ships."""
DEFAULT_OUT = Path("docs") / "tournaments"
MACHINE = "2 CPU cores shared with other work (timings are indicative only)"


def roster(game: str) -> tuple[list[str], list[str]]:
    """The brain specs for ``game``'s round robin, and the learned brains left out
    because their model does not ship (yet)."""
    from brains.learned.store import list_models
    from brains.registry import list_brains

    plays = {b.name for b in list_brains(game)}
    shipped = {(e["game"], e["kind"]) for e in list_models().values()}
    players, missing = [s for s in SEARCH], []
    for kind in LEARNED:
        if kind not in plays:
            continue
        (players if (game, kind) in shipped else missing).append(kind)
    if (game, "mlp") in shipped:
        players.append(MLP_SEARCH)
    return players, missing


def model_hashes(game: str, players: list[str]) -> dict[str, str]:
    """The start of the manifest's sha256 of each model that a brain in ``players``
    plays (``mlp`` also for ``alphabeta:easy,eval=mlp``), by model kind."""
    from brains.learned.store import list_models

    kinds = {p for p in players if p in LEARNED} | ({"mlp"} if MLP_SEARCH in players else set())
    return {e["kind"]: e["sha256"][:12] for e in sorted(list_models().values(),
                                                        key=lambda e: e["kind"])
            if e["game"] == game and e["kind"] in kinds}


def shown_path(path: Path) -> str:
    """``path`` relative to the working directory when inside it, else its name (so no
    machine path lands in the written files)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return path.name


def run_game(game: str, games: int, seed: int, jobs: int, out: Path,
             bootstrap: int = 200) -> dict[str, Any]:
    """Run one game's tournament through ``parlor tournament``; write its files and
    return its entry for ``runs.json`` (raises RuntimeError when the command fails)."""
    from tui.cli import main as parlor

    players, missing = roster(game)
    models = model_hashes(game, players)
    csv_path, json_path = out / f"{game}.csv", out / f"{game}.json"
    shown = ["parlor", "tournament", game, *players, "--games", str(games),
             "--seed", str(seed), "--jobs", str(jobs)]
    if bootstrap != 200:
        shown += ["--bootstrap", str(bootstrap)]
    argv = [*shown[1:], "--csv", str(csv_path), "--json", str(json_path)]
    shown += ["--csv", shown_path(csv_path), "--json", shown_path(json_path)]
    command = shlex.join(shown)
    print(f"$ {command}", flush=True)
    buffer = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(buffer):
        status = parlor(argv)
    wall = time.perf_counter() - start
    table = buffer.getvalue()
    print(table, end="", flush=True)
    if status != 0:
        raise RuntimeError(f"parlor tournament {game} exited with status {status}")
    (out / f"{game}.txt").write_text(f"$ {command}\n\n{table}", encoding="utf-8")
    summary = json.loads(json_path.read_text(encoding="utf-8"))
    ratings = summary["tournaments"][0]["ratings"]
    return {
        "game": game, "command": command,
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "games_per_pairing": games, "seed": seed, "jobs": jobs, "players": players,
        "pairings": len(players) * (len(players) - 1) // 2,
        "wall_seconds": round(wall, 1), "left_out": missing, "models": models,
        "ranking": [{k: r[k] for k in ("player", "elo", "ci95", "score")} for r in ratings],
        "learned_vs_search": learned_vs_search(summary["tournaments"][0]["table"], players),
    }


def learned_vs_search(table: dict[str, dict[str, float]], players: list[str],
                      ) -> dict[str, dict[str, float]]:
    """Each learned brain's score (points per game) against each search brain."""
    search = [p for p in players if p in SEARCH]
    return {p: {s: round(table[p][s], 3) for s in search}
            for p in players if p not in SEARCH}


def read_runs(out: Path) -> dict[str, Any]:
    """``runs.json`` in ``out``: game -> its latest run (empty when absent)."""
    path = out / "runs.json"
    if not path.exists():
        return {}
    return json.loads(path.read_text(encoding="utf-8"))


def write_runs(out: Path, runs: dict[str, Any]) -> None:
    ordered = {g: runs[g] for g in sorted(runs, key=lambda g: (
        list(GAMES).index(g) if g in GAMES else len(GAMES), g))}
    (out / "runs.json").write_text(json.dumps(ordered, indent=2) + "\n", encoding="utf-8")


def render_readme(runs: dict[str, Any]) -> str:
    """The index of the tables: per game the command, date, games per pairing, wall time
    and the ranking."""
    lines = [
        "# Tournaments: every search and learned brain against every other",
        "",
        "Round robins, one per game, written by",
        "`python -m benchmarks.tournaments` (which runs `parlor tournament`). Each game has",
        "`GAME.txt` (the command, then the table as it prints), `GAME.csv` and `GAME.json`",
        "(every pairing's counts); `runs.json` holds what this page shows.",
        "",
        "The score table gives the row brain's points per game against the column brain",
        "(wins + draws/2), sides alternating, after the game's default random opening plies.",
        "Ratings are Bradley-Terry on the Elo scale (mean 0 over the roster) with 95 %",
        "bootstrap intervals over the games of each pairing; with few games per pairing the",
        "intervals are wide, and brains whose intervals overlap are not separated. The",
        "rankings below round the JSON's one-decimal ratings, so a figure can differ by one",
        "from the `.txt` table. Every pairing is seeded and the searches stop at fixed depths",
        "or simulation counts, so the same command replays the same games, except where a",
        "search meets its time cap first (`mcts:easy` stops at 1 s a move, `alphabeta` at",
        "10 s), which a heavily loaded machine can make happen.",
        "",
        f"Machine: {MACHINE}.",
        "",
    ]
    for game, run in runs.items():
        left = run.get("left_out") or []
        lines += [
            f"## {game}",
            "",
            f"- command: `{run['command']}`",
            f"- written by: `python -m benchmarks.tournaments --game {game} --games "
            f"{run['games_per_pairing']} --seed {run['seed']} --jobs {run['jobs']}`",
            f"- date: {run['date']}; {run['games_per_pairing']} games per pairing, "
            f"{run['pairings']} pairings, {run['jobs']} job(s); wall time "
            f"{_duration(run['wall_seconds'])}",
        ]
        if run.get("models"):
            lines.append("- models (sha256 in `saved/models/manifest.json`, first 12 digits): "
                         + ", ".join(f"{k} `{h}`" for k, h in run["models"].items()))
        if left:
            lines.append(f"- left out (no shipped model at the time): {', '.join(left)}")
        lines += ["", "| rank | brain | elo | 95 % interval | score |", "|---|---|---|---|---|"]
        for k, r in enumerate(run["ranking"], 1):
            lo, hi = r["ci95"]
            lines.append(f"| {k} | `{r['player']}` | {_elo(r['elo'])} | "
                         f"[{_elo(lo)}, {_elo(hi)}] | {r['score']:.2f} |")
        versus = run.get("learned_vs_search") or {}
        search = list(next(iter(versus.values()), {}))
        if search:
            lines += ["", "Learned brains' scores against the search brains:", "",
                      "| learned | " + " | ".join(f"`{s}`" for s in search) + " |",
                      "|---" * (len(search) + 1) + "|"]
            for player, scores in versus.items():
                lines.append(f"| `{player}` | "
                             + " | ".join(f"{scores[s]:.2f}" for s in search) + " |")
        lines += ["", f"Full table: [{game}.txt]({game}.txt).", ""]
    return "\n".join(lines)


def _elo(value: float) -> str:
    return f"{round(value) + 0:+d}"


def _duration(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes} min {secs:02d} s" if minutes else f"{secs} s"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tournaments",
                                     description=__doc__.strip().splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per pairing (default 10)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (default 1)")
    parser.add_argument("--game", action="append", choices=list(GAMES),
                        help="only this game (repeatable; default all five)")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT,
                        help=f"output folder (default {DEFAULT_OUT})")
    parser.add_argument("--bootstrap", type=int, default=200,
                        help="bootstrap resamples for the intervals (default 200)")
    parser.add_argument("--index", action="store_true",
                        help="only rebuild README.md from runs.json; play nothing")
    args = parser.parse_args(argv)
    if args.index:
        (args.out / "README.md").write_text(render_readme(read_runs(args.out)),
                                            encoding="utf-8")
        return 0
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    args.out.mkdir(parents=True, exist_ok=True)
    status = 0
    for game in args.game or GAMES:
        try:
            entry = run_game(game, args.games, args.seed, args.jobs, args.out, args.bootstrap)
        except RuntimeError as exc:
            print(f"benchmarks.tournaments: {exc}", file=sys.stderr)
            status = 1
            continue
        runs = read_runs(args.out)
        runs[game] = entry
        write_runs(args.out, runs)
        (args.out / "README.md").write_text(render_readme(read_runs(args.out)),
                                            encoding="utf-8")
        print(f"{game}: {entry['pairings']} pairings x {args.games} games in "
              f"{_duration(entry['wall_seconds'])}\n", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
