"""The model store: the only module that calls ``joblib.load``, and only after a hash check.

Trained models live in ``saved/models/<game>-<kind>.joblib`` beside a ``manifest.json``
that records, for each file, its sha256, the library versions it was trained with, the
engine's encoding version, the exact training command, the data size and the measured
strength. joblib files are pickles and can run code when loaded, so a file whose hash
does not match the manifest is refused before it is opened; so is a file the manifest
does not list, and a manifest that does not parse.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import tempfile
import warnings
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from saved import MODELS_DIR  # the shipped models: package data of saved/
"""The shipped models (read-only at run time)."""
MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1


class ModelError(ValueError):
    """A model that cannot be used: missing, unknown, modified, or a bad manifest."""


class ModelVersionWarning(UserWarning):
    """A model trained with other library versions than the ones installed."""


def model_filename(game: str, kind: str) -> str:
    """``connect4-mlp.joblib`` for game ``connect4`` and kind ``mlp``."""
    return f"{game}-{kind}.joblib"


def sha256_of(path: Path) -> str:
    """Hex sha256 of the file at ``path``."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def library_versions() -> dict[str, str]:
    """Versions of the libraries a pickled model depends on."""
    from importlib.metadata import PackageNotFoundError, version

    def installed(dist: str) -> str:
        try:
            return version(dist)
        except PackageNotFoundError:
            return "missing"

    # Package metadata, not imports: checking a table model must not load scikit-learn.
    return {"python": platform.python_version(),
            **{dist: installed(dist) for dist in ("numpy", "scikit-learn", "joblib")}}


def read_manifest(models_dir: Path = MODELS_DIR) -> dict[str, Any]:
    """The manifest's ``models`` table (file name -> entry); a bad manifest is a ModelError."""
    path = Path(models_dir) / MANIFEST
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelError(f"{path}: manifest does not parse: {exc}") from None
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, dict) or not all(
            isinstance(e, dict) and isinstance(e.get("sha256"), str) for e in models.values()):
        raise ModelError(f"{path}: manifest has no valid 'models' table")
    return models


def _write_manifest(models_dir: Path, models: dict[str, Any]) -> None:
    path = Path(models_dir) / MANIFEST
    text = json.dumps({"format": MANIFEST_FORMAT, "models": dict(sorted(models.items()))},
                      indent=2, sort_keys=False) + "\n"
    fd, tmp = tempfile.mkstemp(prefix=".manifest.", dir=models_dir)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.chmod(tmp, 0o644)  # mkstemp makes files private; models and the manifest are shared
    os.replace(tmp, path)


def verify(path: Path, models_dir: Path | None = None) -> dict[str, Any]:
    """The manifest entry of the model file at ``path`` once its hash matches; else ModelError."""
    path = Path(path)
    models_dir = Path(models_dir) if models_dir is not None else path.parent
    entry = read_manifest(models_dir).get(path.name)
    if entry is None:
        raise ModelError(f"{path}: not listed in {models_dir / MANIFEST}; refusing to load "
                         "an unknown model file")
    if not path.is_file():
        raise ModelError(f"{path}: model file is missing (expected sha256 {entry['sha256']}); "
                         "run `make models` to rebuild it")
    actual = sha256_of(path)
    if actual != entry["sha256"]:
        raise ModelError(f"{path}: sha256 mismatch: expected {entry['sha256']}, actual {actual}; "
                         "the file was modified, refusing to load it")
    return entry


def check_encoding(path: Path, game: str, entry: dict[str, Any]) -> None:
    """ModelError if ``entry`` records another encoding version than ``game`` has now."""
    from engine.registry import new_game

    trained = entry.get("encoding_version")
    current = type(new_game(game)).ENCODING_VERSION
    if trained is not None and trained != current:
        raise ModelError(f"{path}: trained on encoding version {trained} of {game}, the "
                         f"engine now encodes version {current}; retrain it "
                         f"(`{entry.get('command') or 'make models'}`)")


def load_model(game: str, kind: str, models_dir: Path | None = None) -> Any:
    """The verified model for ``game`` and ``kind`` (see :func:`verify`)."""
    import joblib

    models_dir = Path(models_dir) if models_dir is not None else MODELS_DIR
    path = models_dir / model_filename(game, kind)
    entry = verify(path, models_dir)
    check_encoding(path, game, entry)
    trained = entry.get("versions", {})
    installed = library_versions()
    for lib in ("scikit-learn", "numpy"):
        if trained.get(lib) and trained[lib] != installed[lib]:
            warnings.warn(f"{path.name} was trained with {lib} {trained[lib]}; "
                          f"{installed[lib]} is installed", ModelVersionWarning, stacklevel=2)
    return joblib.load(path)


_LOADED: dict[tuple[Any, ...], Any] = {}


def load(game: str, kind: str, option: str | None = None,
         prepare: Callable[[Any], Any] | None = None) -> tuple[Any, dict[str, Any]]:
    """(model, manifest entry) for a brain: the shipped model, or the file named by its
    ``model`` option, which must be called ``<game>-<kind>.joblib`` and be listed in the
    ``manifest.json`` of its own folder. A model that is not a ``kind`` dict for ``game``
    is a ModelError. With ``prepare``, the model comes back as ``prepare(model)`` (the
    brain's playing form: unpacked tables, numpy weights). Both are cached per process
    by path and sha256, so brains made one after another share one loaded copy."""
    expected = model_filename(game, kind)
    path = Path(option).expanduser() if option else MODELS_DIR / expected
    if path.name != expected:
        raise ModelError(f"{path}: a {kind} model for {game} must be named {expected}")
    entry = verify(path, path.parent)
    key = (str(path.resolve()), entry["sha256"])
    if key not in _LOADED:
        model = load_model(game, kind, models_dir=path.parent)
        if not isinstance(model, dict) or model.get("kind") != kind or model.get("game") != game:
            raise ModelError(f"{path}: not a {kind} model for {game}")
        _LOADED[key] = model
    if prepare is None:
        return _LOADED[key], entry
    if (*key, prepare) not in _LOADED:
        _LOADED[(*key, prepare)] = prepare(_LOADED[key])
    return _LOADED[(*key, prepare)], entry


def save_model(model: Any, game: str, kind: str, models_dir: Path | None = None,
               **meta: Any) -> Path:
    """Dump ``model`` and record it in the manifest (hash, versions, ``meta``); atomic."""
    import joblib

    models_dir = Path(models_dir) if models_dir is not None else MODELS_DIR
    models_dir.mkdir(parents=True, exist_ok=True)
    path = models_dir / model_filename(game, kind)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=models_dir)
    os.close(fd)
    try:
        joblib.dump(model, tmp, compress=3)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    models = read_manifest(models_dir)
    models[path.name] = {"sha256": sha256_of(path), "game": game, "kind": kind,
                         "bytes": path.stat().st_size, "versions": library_versions(),
                         "created": date.today().isoformat(), **meta}
    _write_manifest(models_dir, models)
    return path


def update_entry(path: Path, **fields: Any) -> dict[str, Any]:
    """Add ``fields`` to the manifest entry of the (verified) model at ``path``; the entry."""
    path = Path(path)
    models = read_manifest(path.parent)
    models[path.name] = {**verify(path), **fields}
    _write_manifest(path.parent, models)
    return models[path.name]


def list_models(models_dir: Path = MODELS_DIR) -> dict[str, Any]:
    """The manifest's entries (without checking the files)."""
    return read_manifest(models_dir)
