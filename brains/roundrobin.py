"""Round robins between brains, once per set of game options: what ``parlor tournament``
does (the command reads its arguments and prints the tables and files)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from brains.calibrate import Reporter, reporting
from engine.protocol import ParlorError


def variant_runs(game: str, options: dict[str, Any], every_variant: bool) -> list[dict[str, Any]]:
    """The game options of each round robin: ``options`` once, or (``every_variant``) once
    per value of the game's ``variant`` option (ParlorError where it has none)."""
    from engine.registry import get_game

    if not every_variant:
        return [options]
    variant = {o.name: o for o in get_game(game).options}.get("variant")
    if variant is None or not variant.choices:
        raise ParlorError(f"{game} has no variants")
    if "variant" in options:
        raise ParlorError("--variants runs every variant; leave out -o variant=...")
    return [{**options, "variant": v} for v in variant.choices]


def round_robins(game: str, players: Sequence[str], games: int,
                 runs: Sequence[dict[str, Any]], *, seed: int = 0, jobs: int = 1,
                 opening_plies: int | None = None, budget_seconds: float | None = None,
                 reporter: Reporter | None = None) -> list[Any]:
    """One ``brains.arena.tournament`` of ``players`` per options of ``runs``, in order
    (each reported as ``GAME K=V …`` with its games in all)."""
    from brains.arena import tournament

    results = []
    for run_options in runs:
        label = " ".join([game, *(f"{k}={v}" for k, v in run_options.items())])
        pairs = len(players) * (len(players) - 1) // 2
        with reporting(reporter, label, pairs * games) as progress:
            results.append(tournament(
                game, list(players), games, seed=seed, jobs=jobs, options=run_options,
                opening_plies=opening_plies, budget_seconds=budget_seconds,
                progress=progress))
    return results
