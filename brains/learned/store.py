"""The model store: the only module that loads model files, and never with a plain unpickle.

Trained models live in ``saved/models/<game>-<kind>.joblib`` beside a ``manifest.json``
that records, for each file, its sha256, the library versions it was trained with, the
engine's encoding version, the exact training command, the data size and the measured
strength.

joblib files are pickles, and a plain unpickle can run any code the file names. Loading
here reads the file's bytes once (a regular file of bounded size, see
:func:`brains.learned.safeload.read_regular`), checks the sha256 of those bytes against
the manifest, and unpickles those same bytes with a restricted unpickler that builds
only the classes a Parlor model is made of (:func:`brains.learned.safeload.loads`). The
hash check guards against damage; the restricted unpickler is what keeps a file from
running code, whatever its hash or its manifest say (docs/SECURITY.md, Models). A file
the manifest does not list, and a manifest that does not parse, are refused too.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import platform
import warnings
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

from brains.learned import safeload
from brains.learned.safeload import shorten
from engine.files import write_atomic
from engine.protocol import ParlorError

# The shipped models (read-only package data of saved/), re-exported for callers of store.
from saved import MODELS_DIR as MODELS_DIR

MANIFEST = "manifest.json"
MANIFEST_FORMAT = 1
MAX_MANIFEST_BYTES = 4 << 20
"""The largest manifest read (the shipped one lists 14 models in 17 kB)."""


class ModelError(ParlorError):
    """A model that cannot be used: missing, unknown, modified, or a bad manifest."""


class ModelVersionWarning(UserWarning):
    """A model trained with other library versions than the ones installed."""


def model_filename(game: str, kind: str) -> str:
    """``connect4-mlp.joblib`` for game ``connect4`` and kind ``mlp``."""
    return f"{game}-{kind}.joblib"


def sha256_of(path: Path) -> str:
    """Hex sha256 of the model file at ``path`` (a regular file of bounded size)."""
    return hashlib.sha256(_read(Path(path), safeload.MAX_FILE_BYTES)).hexdigest()


def _where(path: Path) -> str:
    """``path`` for a one-line message: whole up to 160 characters, else its last 160 (a
    path given as an option is as long, and holds what characters, its author likes)."""
    text = str(path).replace("\n", "\\n").replace("\r", "\\r")
    return text if len(text) <= 160 else "…" + text[-159:]


def _read(path: Path, limit: int) -> bytes:
    """The bytes of the regular file at ``path``, read once; ModelError if it cannot be
    (FileNotFoundError passes through)."""
    try:
        return safeload.read_regular(path, limit)
    except safeload.UnsafeModel as exc:
        raise ModelError(f"{_where(path)}: {exc}") from None


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
    try:
        text = _read(path, MAX_MANIFEST_BYTES)
    except FileNotFoundError:
        return {}
    try:
        data = json.loads(text.decode("utf-8"))
    except UnicodeDecodeError:
        raise ModelError(f"{_where(path)}: manifest does not parse: not UTF-8") from None
    except RecursionError:
        raise ModelError(f"{_where(path)}: manifest does not parse: nested too deeply"
                         ) from None
    except ValueError as exc:  # json.JSONDecodeError, and numbers too long to convert
        raise ModelError(f"{_where(path)}: manifest does not parse: {shorten(exc)}"
                         ) from None
    models = data.get("models") if isinstance(data, dict) else None
    if not isinstance(models, dict) or not all(
            isinstance(e, dict) and _is_sha256(e.get("sha256")) for e in models.values()):
        raise ModelError(f"{_where(path)}: manifest has no valid 'models' table")
    return models


def _is_sha256(value: Any) -> bool:
    return (isinstance(value, str) and len(value) == 64
            and all(c in "0123456789abcdef" for c in value))


def _write_manifest(models_dir: Path, models: dict[str, Any]) -> None:
    path = Path(models_dir) / MANIFEST
    text = json.dumps({"format": MANIFEST_FORMAT, "models": dict(sorted(models.items()))},
                      indent=2, sort_keys=False) + "\n"
    write_atomic(path, text, mode=0o644)  # models and the manifest are shared: not 0600


def verify(path: Path, models_dir: Path | None = None) -> dict[str, Any]:
    """The manifest entry of the model file at ``path`` once its hash matches; else ModelError."""
    return _read_verified(Path(path), models_dir)[0]


def _read_verified(path: Path, models_dir: Path | None = None) -> tuple[dict[str, Any], bytes]:
    """(manifest entry, bytes) of the model file at ``path``: the bytes are read once, and
    it is those bytes whose sha256 must match the entry (a check against damage; what
    keeps a file from running code is :func:`_unpickle`)."""
    models_dir = Path(models_dir) if models_dir is not None else path.parent
    entry = read_manifest(models_dir).get(path.name)
    if entry is None:
        raise ModelError(f"{_where(path)}: not listed in {_where(models_dir / MANIFEST)}; "
                         "refusing to load an unknown model file")
    try:
        data = _read(path, safeload.MAX_FILE_BYTES)
    except FileNotFoundError:
        raise ModelError(f"{_where(path)}: model file is missing (expected sha256 "
                         f"{entry['sha256']}); run `make models` to rebuild it") from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != entry["sha256"]:
        raise ModelError(f"{_where(path)}: sha256 mismatch: expected {entry['sha256']}, "
                         f"actual {actual}; the file was modified, refusing to load it")
    return entry, data


def _unpickle(path: Path, data: bytes) -> Any:
    """The object in a model file's bytes, built only from the classes a Parlor model is
    made of (:data:`brains.learned.safeload.ALLOWED`); ModelError naming the file and the
    refused class otherwise."""
    try:
        return safeload.loads(data)
    except safeload.UnsafeModel as exc:
        raise ModelError(f"{_where(path)}: {exc}") from None


def check_encoding(path: Path, game: str, entry: dict[str, Any]) -> None:
    """ModelError if ``entry`` records another encoding version than ``game`` has now."""
    from engine.registry import new_game

    trained = entry.get("encoding_version")
    current = type(new_game(game)).ENCODING_VERSION
    if trained is not None and trained != current:
        raise ModelError(f"{_where(path)}: trained on encoding version "
                         f"{shorten(trained, 20)} of {game}, the engine now encodes "
                         f"version {current}; retrain it "
                         f"(`{shorten(entry.get('command') or 'make models')}`)")


def load_model(game: str, kind: str, models_dir: Path | None = None) -> Any:
    """The verified model for ``game`` and ``kind`` (see :func:`verify`), unpickled from
    the bytes that were verified, with only the classes a model is made of."""
    models_dir = Path(models_dir) if models_dir is not None else MODELS_DIR
    path = models_dir / model_filename(game, kind)
    entry, data = _read_verified(path, models_dir)
    return _checked_load(path, game, entry, data)


def _checked_load(path: Path, game: str, entry: dict[str, Any], data: bytes) -> Any:
    """The model in ``data`` once its entry's encoding version fits ``game`` (a warning
    if it was trained with other library versions)."""
    check_encoding(path, game, entry)
    trained = entry.get("versions")
    trained = trained if isinstance(trained, dict) else {}
    installed = library_versions()
    for lib in ("scikit-learn", "numpy"):
        if trained.get(lib) and trained[lib] != installed[lib]:
            warnings.warn(f"{path.name} was trained with {lib} {shorten(trained[lib], 20)}; "
                          f"{installed[lib]} is installed", ModelVersionWarning, stacklevel=3)
    return _unpickle(path, data)


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
        raise ModelError(f"{_where(path)}: a {kind} model for {game} must be named "
                         f"{expected}")
    entry, data = _read_verified(path, path.parent)
    # The key names the bytes that were verified and unpickled, not what the path holds
    # by the time the entry is used.
    key = (os.path.realpath(path), entry["sha256"])
    if key not in _LOADED:
        model = _checked_load(path, game, entry, data)
        if not _usable(model, lambda m: m.get("kind") == kind and m.get("game") == game):
            raise ModelError(f"{_where(path)}: not a {kind} model for {game}")
        _LOADED[key] = model
    if prepare is None:
        return _LOADED[key], entry
    if (*key, prepare) not in _LOADED:
        try:
            _LOADED[(*key, prepare)] = prepare(_LOADED[key])
        except ModelError as exc:
            if str(exc).startswith(_where(path)):
                raise
            raise ModelError(f"{_where(path)}: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - a model that unpickles but has the wrong parts
            raise ModelError(f"{_where(path)}: not a usable {kind} model for {game} "
                             f"({type(exc).__name__}: {shorten(exc)})") from None
    return _LOADED[(*key, prepare)], entry


def _usable(model: Any, test: Callable[[dict[str, Any]], bool]) -> bool:
    """Whether ``model`` is a dict passing ``test``; an error in the test (keys of odd
    types) counts as no."""
    try:
        return isinstance(model, dict) and bool(test(model))
    except Exception:  # noqa: BLE001 - unpickled keys may compare in any way
        return False


def save_model(model: Any, game: str, kind: str, models_dir: Path | None = None,
               **meta: Any) -> Path:
    """Dump ``model`` and record it in the manifest (hash, versions, ``meta``); atomic.
    The recorded hash is that of the bytes written."""
    import joblib

    models_dir = Path(models_dir) if models_dir is not None else MODELS_DIR
    models_dir.mkdir(parents=True, exist_ok=True)
    path = models_dir / model_filename(game, kind)
    buffer = io.BytesIO()
    joblib.dump(model, buffer, compress=3)
    data = buffer.getvalue()
    write_atomic(path, data, mode=0o644)
    models = read_manifest(models_dir)
    models[path.name] = {"sha256": hashlib.sha256(data).hexdigest(), "game": game,
                         "kind": kind, "bytes": len(data), "versions": library_versions(),
                         "created": date.today().isoformat(), **meta}
    _write_manifest(models_dir, models)
    return path


def update_entry(path: Path, **fields: Any) -> dict[str, Any]:
    """Add ``fields`` to the manifest entry of the (verified) model at ``path``; the entry."""
    path = Path(path)
    models = read_manifest(path.parent)
    models[path.name] = {**verify(path), **fields}
    _write_manifest(path.parent, models)
    entry: dict[str, Any] = models[path.name]
    return entry


def list_models(models_dir: Path = MODELS_DIR) -> dict[str, Any]:
    """The manifest's entries (without checking the files)."""
    return read_manifest(models_dir)
