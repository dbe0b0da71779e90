"""Training learned brains and shipping their models: ``train_and_save`` and ``MODELS``.

Each learned kind is a module listed in :data:`KINDS` with ``KIND``, ``GAMES``
(the games it learns), ``DEFAULTS`` and
``train(game, *, games, seed, jobs, progress) -> (model, meta)``. This module trains
one of them, saves the model through the store (which hashes it into the manifest) and
measures its strength with a short seeded match against ``random`` and ``greedy``.

``parlor train --all`` (``make models``) retrains every model in :data:`MODELS` in
turn: every (game, kind) a kind's ``GAMES`` lists, so the games come from the engine
registry through each game's brains module (``LEARNED``) and the game-specific kinds'
own lists, never from a list written out here.
"""

from __future__ import annotations

import importlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

from engine.protocol import ParlorError

KINDS: dict[str, str] = {
    "table": "brains.learned.table",
    "qlearn": "brains.learned.qlearn",
    "linear": "brains.learned.linear",
    "mlp": "brains.learned.mlp",
    "patterns": "brains.learned.patterns",
}
"""Every learned kind and its module, in the order ``make models`` trains them."""


def _models() -> tuple[tuple[str, str, dict[str, Any]], ...]:
    modules = {kind: importlib.import_module(path) for kind, path in KINDS.items()}
    return tuple((game, kind, {}) for kind, module in modules.items()
                 if not getattr(module, "NEEDS_DATA", False) for game in module.GAMES)


MODELS: tuple[tuple[str, str, dict[str, Any]], ...] = _models()
"""Every shipped model: (game, kind, training arguments), for each kind every game of
its ``GAMES``, except the kinds that learn from a folder of game files (``NEEDS_DATA``:
their shipped model is rebuilt by the command in its manifest entry). Empty arguments
mean the kind's ``DEFAULTS[game]`` and seed 0; a row may set ``games``, ``seed`` or
``jobs``."""

EVAL_OPPONENTS: tuple[str, ...] = ("random", "greedy")
"""The brains a freshly trained model is measured against."""
EVAL_GAMES = 20
"""Games per opponent in that measurement (sides alternate, seeded)."""

Progress = Callable[[int, int], None]


class TrainError(ParlorError):
    """A bad training request: unknown game or kind, or a kind that does not apply."""


def kind_module(kind: str) -> ModuleType:
    """The module of learned kind ``kind``; TrainError for an unknown kind."""
    kind = str(kind).strip().lower()
    if kind not in KINDS:
        raise TrainError(f"unknown learned kind {kind[:60]!r}; known: {', '.join(KINDS)}")
    return importlib.import_module(KINDS[kind])


def check_request(game: str, kind: str) -> tuple[str, ModuleType]:
    """The normalised game id and the kind's module; TrainError if it cannot be trained."""
    from engine.registry import get_game

    game_id = get_game(game).id
    module = kind_module(kind)
    games = tuple(module.GAMES)
    if game_id not in games:
        raise TrainError(f"learned kind {module.KIND!r} does not apply to {game_id} "
                         f"(it plays: {', '.join(games) or 'nothing'})")
    return game_id, module


def training_games(module: ModuleType, game_id: str, games: int | None = None) -> int:
    """``games``, else the kind's default for ``game_id``; TrainError if neither is usable."""
    if games is None:
        games = module.DEFAULTS.get(game_id, {}).get("games")
        if games is None:
            raise TrainError(f"{module.KIND} has no default number of games for {game_id}; "
                             "give --games")
    if games < 1:
        raise TrainError("--games must be at least 1")
    return games


def models_folder(out: Path | str | None) -> Path:
    """The folder models are written to (default: the shipped one), created if need be;
    TrainError if it cannot hold them, so a bad ``--out`` fails before any training."""
    from brains.learned import store

    folder = Path(out).expanduser() if out is not None else store.MODELS_DIR
    if folder.exists() and not folder.is_dir():
        raise TrainError(f"{folder}: cannot be a models folder: it is a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TrainError(f"{folder}: cannot be a models folder: {exc.strerror or exc}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise TrainError(f"{folder}: cannot be a models folder: not writable")
    return folder


def train_command(game: str, kind: str, games: int, seed: int, jobs: int = 1,
                  out: Path | str | None = None, data: Path | str | None = None) -> str:
    """The ``parlor train`` command line that reproduces a model (a data folder by its
    last component only: where it lies is this machine's business)."""
    parts = ["parlor", "train", game, kind, "--games", str(games), "--seed", str(seed)]
    if data is not None:
        parts += ["--data", Path(data).name or str(data)]
    if jobs != 1:
        parts += ["--jobs", str(jobs)]
    if out is not None:
        parts += ["--out", str(out)]
    return " ".join(parts)


def measure_strength(game: str, kind: str, path: Path, *, games: int = EVAL_GAMES,
                     seed: int = 0, jobs: int = 1,
                     opponents: tuple[str, ...] = EVAL_OPPONENTS) -> dict[str, Any]:
    """Score of the model at ``path`` against each opponent in a seeded match."""
    from brains.arena import match

    spec = f"{kind},model={Path(path).resolve()}"
    if "," in str(Path(path).resolve()):
        raise TrainError(f"{path}: a model path may not contain a comma")
    out: dict[str, Any] = {"games": games, "seed": seed}
    for opponent in opponents:
        result = match(game, spec, opponent, games, seed=seed, jobs=jobs)
        wins, draws, losses = result.counts()
        out[f"vs_{opponent}"] = {"score": round(result.a_score, 4), "wins": wins,
                                 "draws": draws, "losses": losses}
    return out


def train_and_save(game: str, kind: str, *, games: int | None = None, seed: int = 0,
                   jobs: int = 1, out: Path | str | None = None,
                   progress: Progress | None = None, command: str | None = None,
                   evaluate: bool = True, eval_games: int = EVAL_GAMES,
                   data: Path | str | None = None) -> tuple[Path, dict[str, Any]]:
    """Train ``kind`` for ``game``, save it in ``out`` (default: the shipped models) and
    record it in that folder's manifest; returns the model's path and manifest entry.

    ``games=None`` uses the kind's ``DEFAULTS[game]``. With ``evaluate`` the new model
    plays ``eval_games`` seeded games against ``random`` and ``greedy`` and the scores go
    into the entry's ``strength``. ``data`` is the folder of game files a kind that
    learns from real games (``NEEDS_DATA``) reads; the others take none. Inside a
    :func:`brains.parallel.dask_cluster` block the self-play runs on the cluster (the
    model is the same) and the strength matches here.
    """
    from brains.learned import store
    from engine.registry import new_game

    game_id, module = check_request(game, kind)
    kind = module.KIND
    args = dict(module.DEFAULTS.get(game_id, {}))
    args["games"] = training_games(module, game_id, games)
    if jobs < 1:
        raise TrainError("--jobs must be at least 1")
    args.update(seed=seed, jobs=jobs)
    if data is not None:
        if not getattr(module, "NEEDS_DATA", False):
            raise TrainError(f"{kind} learns from its own games; it takes no --data")
        args["data"] = str(Path(data).expanduser())
    models_dir = models_folder(out)
    if command is None:
        command = train_command(game_id, kind, args["games"], seed, jobs,
                                None if out is None else out, data)
    start = time.perf_counter()
    model, meta = module.train(game_id, progress=progress, **args)
    seconds = round(time.perf_counter() - start, 2)
    meta = dict(meta)
    record: dict[str, Any] = {
        "command": command, "seed": seed, "games": args["games"],
        "data": meta.pop("data", None), "train_seconds": seconds,
        "encoding_version": type(new_game(game_id)).ENCODING_VERSION,
        "strength": None,
    }
    if meta:
        record["train_meta"] = meta
    path = store.save_model(model, game_id, kind, models_dir=models_dir, **record)
    if evaluate:
        from brains.parallel import locally

        # The new model file is on this machine only, so its matches are played here
        # even when the self-play ran on a Dask cluster.
        with locally():
            strength = measure_strength(game_id, kind, path, games=eval_games, seed=seed,
                                        jobs=jobs)
        return path, store.update_entry(path, strength=strength)
    return path, store.read_manifest(models_dir)[path.name]


def train_all(out: Path | str | None = None, jobs: int = 1, evaluate: bool = True,
              stream: Any = None) -> list[dict[str, Any]]:
    """Retrain every model in :data:`MODELS` in turn.

    Every row is checked before the first model is trained, so a row naming an unknown
    game or kind, or a game its kind does not learn, is a TrainError that costs nothing.
    """
    stream = stream if stream is not None else sys.stdout
    if jobs < 1:
        raise TrainError("--jobs must be at least 1")
    models_folder(out)
    for game, kind, _ in MODELS:
        check_request(game, kind)
    rows = []
    for game, kind, args in MODELS:
        start = time.perf_counter()
        path, entry = train_and_save(game, kind, games=args.get("games"),
                                     seed=args.get("seed", 0), jobs=args.get("jobs", jobs),
                                     out=out, evaluate=evaluate)
        took = time.perf_counter() - start
        print(f"{path.name}: {entry['train_seconds']:.1f} s training, {took:.1f} s in all, "
              f"{entry['bytes']} bytes, {strength_text(entry.get('strength'))}",
              file=stream, flush=True)
        rows.append({"game": game, "kind": kind, "seconds": round(took, 2),
                     "sha256": entry["sha256"]})
    return rows


def strength_text(strength: dict[str, Any] | None) -> str:
    """``vs random 0.950, vs greedy 0.600`` (or ``not measured``)."""
    if not strength:
        return "strength not measured"
    parts = [f"{key.replace('_', ' ')} {value['score']:.3f}"
             for key, value in strength.items() if key.startswith("vs_")]
    return ", ".join(parts) + f" ({strength.get('games')} games each)"
