"""Loading a model never executes code from the file, never blocks on what it reads,
and refuses bad files and manifests with one line."""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import re
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from brains.learned import safeload, store
from brains.learned.store import ModelError
from brains.registry import make_brain

GAME, KIND = "tictactoe", "mlp"
NAME = store.model_filename(GAME, KIND)


def _touch(path: str) -> None:
    """What a hostile model runs when unpickled: leaves a marker file."""
    Path(path).write_text("ran")


class Payload:
    """An object that pickles as ``func(*args)``: unpickling it calls ``func``."""

    def __init__(self, func, *args):
        self.func, self.args = func, args

    def __reduce__(self):
        return self.func, self.args


def _qualname(func) -> str:
    return f"{func.__module__}.{func.__qualname__}"


def _payloads(marker: Path) -> dict[str, Payload]:
    return {
        "module function": Payload(_touch, str(marker)),
        "os.system": Payload(os.system, f"touch {marker}"),
        "builtins.exec": Payload(builtins.exec, f"open({str(marker)!r}, 'w').close()"),
    }


def _hostile(folder: Path, payload: Payload) -> Path:
    """A hostile model file in ``folder``, listed in the manifest beside it with its
    correct sha256 (save_model pickles ``payload`` with its ``__reduce__``)."""
    model = {"kind": KIND, "game": GAME, "nets": {"all": [payload]}}
    return store.save_model(model, GAME, KIND, folder)


def _in_thread(func, timeout: float = 30.0) -> BaseException | None:
    """The exception ``func()`` raises (None if it returns), run in a daemon thread so
    that a call that blocks fails the test instead of hanging the suite."""
    outcome: list[BaseException | None] = []

    def run():
        try:
            func()
            outcome.append(None)
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            outcome.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"{func} still running after {timeout} s (blocked?)"
    return outcome[0]


def _one_line_error(exc: BaseException | None, *parts: str) -> str:
    assert isinstance(exc, ModelError), f"expected a ModelError, got {exc!r}"
    message = str(exc)
    assert "\n" not in message
    for part in parts:
        assert part in message, message
    return message


# ------------------------------------------------------------------ no code runs

@pytest.mark.parametrize("which", ["module function", "os.system", "builtins.exec"])
def test_hostile_model_with_a_correct_hash_is_refused_naming_the_class(tmp_path, which):
    marker = tmp_path / "marker"
    payload = _payloads(marker)[which]
    path = _hostile(tmp_path / "models", payload)
    assert store.verify(path)["sha256"] == store.sha256_of(path)  # the hash check passes
    with pytest.raises(ModelError) as info:
        store.load(GAME, KIND, option=str(path))
    _one_line_error(info.value, str(path), _qualname(payload.func), "refusing to load")
    with pytest.raises(ModelError) as info:
        make_brain(f"mlp,model={path}", GAME)
    _one_line_error(info.value, str(path), _qualname(payload.func))
    assert not marker.exists()


def test_hostile_model_under_the_shipped_name_is_refused(tmp_path):
    """A models folder whose manifest was edited to the hostile file's hash (as an edit of
    the shipped manifest would be) still runs nothing."""
    marker = tmp_path / "marker"
    _hostile(tmp_path, Payload(_touch, str(marker)))
    with pytest.raises(ModelError, match=r"test_safe_load\._touch"):
        store.load_model(GAME, KIND, tmp_path)
    assert not marker.exists()


def test_hostile_object_array_inside_a_model_is_refused(tmp_path):
    """joblib pickles object arrays as a nested pickle: it goes through the same allowlist."""
    marker = tmp_path / "marker"
    cells = np.empty(2, dtype=object)
    cells[0], cells[1] = 1.5, Payload(_touch, str(marker))
    store.save_model({"kind": KIND, "game": GAME, "nets": cells}, GAME, KIND, tmp_path)
    with pytest.raises(ModelError, match=r"test_safe_load\._touch"):
        store.load_model(GAME, KIND, tmp_path)
    assert not marker.exists()


def test_swapping_the_file_while_loading_never_runs_the_payload(tmp_path):
    """One thread replaces the model file by a hostile one and back, over and over, while
    this one loads it: each load gives the good model or a ModelError, and the hostile
    bytes never run, because the bytes hashed are the bytes unpickled."""
    marker = tmp_path / "marker"
    folder = tmp_path / "models"
    good_model = {"kind": "linear", "game": GAME, "weights": np.arange(5.0)}
    path = store.save_model(good_model, GAME, "linear", folder)
    good = path.read_bytes()
    bad_path = store.save_model({"kind": "linear", "game": GAME,
                                 "weights": Payload(_touch, str(marker))},
                                GAME, "linear", tmp_path / "bad")
    bad = bad_path.read_bytes()
    store.save_model(good_model, GAME, "linear", folder)  # the manifest lists the good hash
    stop = threading.Event()
    swaps = [0]

    def swap():
        while not stop.is_set():
            for data in (bad, good):
                tmp = folder / ".swap"
                tmp.write_bytes(data)
                os.replace(tmp, path)
            swaps[0] += 1

    swapper = threading.Thread(target=swap, daemon=True)
    swapper.start()
    loaded = refused = 0
    deadline = time.monotonic() + 5.0
    try:
        for _ in range(400):
            if time.monotonic() > deadline:
                break
            try:
                model = store.load_model(GAME, "linear", folder)
            except ModelError as exc:
                assert not marker.exists(), "the hostile payload ran"
                assert "\n" not in str(exc)
                refused += 1
            else:
                assert not marker.exists(), "the hostile payload ran"
                assert np.array_equal(model["weights"], good_model["weights"])
                loaded += 1
    finally:
        stop.set()
        swapper.join(10)
    assert not marker.exists()
    assert swaps[0] > 0 and loaded + refused > 0


# ------------------------------------------------------------ nothing blocks or crashes

@pytest.fixture
def listed(tmp_path):
    """A folder with a good tic-tac-toe linear model and its manifest."""
    store.save_model({"kind": "linear", "game": GAME, "weights": np.ones(3)},
                     GAME, "linear", tmp_path)
    return tmp_path


def _load_linear(folder: Path):
    return lambda: store.load(GAME, "linear", option=str(folder / f"{GAME}-linear.joblib"))


def test_manifest_of_deeply_nested_brackets_is_refused(listed):
    (listed / "manifest.json").write_text("[" * 100_000)
    error = _in_thread(_load_linear(listed))
    message = _one_line_error(error, "manifest does not parse")
    assert "[[[[" not in message


def test_manifest_with_a_huge_number_is_refused(listed):
    (listed / "manifest.json").write_text('{"models": {}, "n": ' + "1" * 5000 + "}")
    message = _one_line_error(_in_thread(_load_linear(listed)), "manifest does not parse")
    assert len(message) < len(str(listed)) + 200


def test_long_bad_manifest_values_are_not_quoted_at_length(listed):
    path = listed / "manifest.json"
    data = json.loads(path.read_text())
    data["models"][f"{GAME}-linear.joblib"]["sha256"] = "a" * 10_000
    path.write_text(json.dumps(data))
    message = _one_line_error(_in_thread(_load_linear(listed)), "manifest")
    assert len(message) < len(str(listed)) + 200


def test_fifo_model_file_is_refused_without_blocking(listed):
    path = listed / f"{GAME}-linear.joblib"
    path.unlink()
    os.mkfifo(path)
    try:
        _one_line_error(_in_thread(_load_linear(listed)), "not a regular file", "FIFO")
    finally:
        _release(path)


def test_fifo_manifest_is_refused_without_blocking(listed):
    manifest = listed / "manifest.json"
    manifest.unlink()
    os.mkfifo(manifest)
    try:
        _one_line_error(_in_thread(_load_linear(listed)), "not a regular file", "FIFO")
    finally:
        _release(manifest)


def _release(fifo: Path) -> None:
    """Open a FIFO for writing and close it, so that a reader blocked on it wakes."""
    with contextlib.suppress(OSError):  # no reader waiting: nothing to release
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


@pytest.mark.parametrize("name", [f"{GAME}-linear.joblib", "manifest.json"])
def test_symlink_to_dev_zero_is_refused_without_reading_it(listed, name):
    path = listed / name
    path.unlink()
    path.symlink_to("/dev/zero")
    _one_line_error(_in_thread(_load_linear(listed)), "not a regular file",
                    "character device")


def test_directory_in_place_of_the_model_is_refused(listed):
    path = listed / f"{GAME}-linear.joblib"
    path.unlink()
    path.mkdir()
    _one_line_error(_in_thread(_load_linear(listed)), "not a regular file", "directory")


@pytest.mark.parametrize("name, limit", [(f"{GAME}-linear.joblib", safeload.MAX_FILE_BYTES),
                                         ("manifest.json", store.MAX_MANIFEST_BYTES)])
def test_huge_file_is_refused_without_reading_it(listed, name, limit):
    path = listed / name
    os.truncate(path, limit + 1)  # sparse: no disk space, and never read
    _one_line_error(_in_thread(_load_linear(listed)), "more than")


def test_unreadable_model_file_is_refused(listed):
    path = listed / f"{GAME}-linear.joblib"
    path.chmod(0)
    try:
        try:
            os.close(os.open(path, os.O_RDONLY))
        except PermissionError:
            pass
        else:
            pytest.skip("this user reads files whatever their mode (root)")
        _one_line_error(_in_thread(_load_linear(listed)), "cannot open")
    finally:
        path.chmod(0o644)


@pytest.mark.parametrize("data, expected", [
    (b"not a pickle at all", "not a joblib file"),
    (b"\x78\x9c" + b"\x00" * 40, "damaged compressed data"),
    (b"\x80\x05", "does not unpickle"),
])
def test_garbage_with_a_correct_hash_is_refused(listed, data, expected):
    path = listed / f"{GAME}-linear.joblib"
    path.write_bytes(data)
    models = store.read_manifest(listed)
    models[path.name]["sha256"] = store.sha256_of(path)
    (listed / "manifest.json").write_text(json.dumps({"models": models}))
    _one_line_error(_in_thread(_load_linear(listed)), str(path), expected)


def test_zip_bomb_is_refused(listed, monkeypatch):
    import zlib

    monkeypatch.setattr(safeload, "MAX_PICKLE_BYTES", 1 << 20)
    path = listed / f"{GAME}-linear.joblib"
    path.write_bytes(zlib.compress(b"\x80\x05" + b"N" * (4 << 20), 9))
    models = store.read_manifest(listed)
    models[path.name]["sha256"] = store.sha256_of(path)
    (listed / "manifest.json").write_text(json.dumps({"models": models}))
    with pytest.raises(ModelError, match="uncompresses to more than"):
        store.load_model(GAME, "linear", listed)


# ------------------------------------------------------------------ what loads

def test_allowed_model_round_trips(tmp_path):
    model = {"kind": "linear", "game": GAME, "weights": np.linspace(-1, 1, 7),
             "ints": np.arange(6, dtype=np.int16).reshape(2, 3), "scale": np.float64(0.5),
             "names": ["a", "b"], "pair": (1, 2.5), "none": None, "set": {1, 2}}
    store.save_model(model, GAME, "linear", tmp_path)
    loaded = store.load_model(GAME, "linear", tmp_path)
    assert loaded.keys() == model.keys()
    for key in ("weights", "ints"):
        assert loaded[key].dtype == model[key].dtype
        assert np.array_equal(loaded[key], model[key])
    assert loaded["scale"] == 0.5 and type(loaded["scale"]) is np.float64
    assert [loaded[k] for k in ("names", "pair", "none", "set")] == \
        [model[k] for k in ("names", "pair", "none", "set")]


@pytest.mark.parametrize("solver", ["adam", "sgd"])
def test_fitted_scikit_learn_objects_round_trip(tmp_path, solver):
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(40, 3)), rng.normal(size=40)
    scaler = StandardScaler().fit(X)
    with pytest.warns(ConvergenceWarning):
        net = MLPRegressor(hidden_layer_sizes=(4,), max_iter=3, solver=solver,
                           random_state=0).fit(scaler.transform(X), y)
    store.save_model({"net": net, "scaler": scaler}, GAME, "linear", tmp_path)
    loaded = store.load_model(GAME, "linear", tmp_path)
    assert np.array_equal(loaded["net"].predict(loaded["scaler"].transform(X)),
                          net.predict(scaler.transform(X)))


def test_every_allowed_name_exists():
    """The allowlist names real objects (a typo would make a legitimate model fail)."""
    import importlib
    import warnings

    for module, name in sorted(safeload.ALLOWED):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)  # numpy.core under numpy 2
            assert callable(getattr(importlib.import_module(module), name)), (module, name)


# ------------------------------------------------------- every route to a global

@pytest.mark.parametrize("pickled, name", [
    (b"\x80\x02cbuiltins\neval\nX\x03\x00\x00\x001+1\x85R.", "builtins.eval"),
    (b"\x80\x02cbuiltins\ngetattr\n.", "builtins.getattr"),
    (b"\x80\x02cbuiltins\n__import__\n.", "builtins.__import__"),
    (b"\x80\x02cfunctools\npartial\n.", "functools.partial"),
    (b"\x80\x02csubprocess\nPopen\n.", "subprocess.Popen"),
    (b"\x80\x04\x8c\x02os\x94\x8c\x06system\x94\x93.", "os.system"),  # STACK_GLOBAL
    (b"\x80\x02(X\x04\x00\x00\x00trueios\nsystem\n.", "os.system"),  # INST
    (b"\x80\x02(cos\nsystem\nX\x04\x00\x00\x00trueo.", "os.system"),  # OBJ
    (b"\x80\x04\x8c\x05numpy\x94\x8c\x0ftesting.assert_\x94\x93.", "numpy.testing.assert_"),
])
def test_restricted_unpickler_refuses_every_other_name(pickled, name):
    with pytest.raises(safeload.UnsafeModel, match=f"refusing to load {name}:"):
        safeload.loads(pickled)


def test_extension_codes_go_through_the_allowlist():
    import copyreg

    copyreg.add_extension("os", "system", 0x7FFF0000)
    try:
        with pytest.raises(safeload.UnsafeModel, match=re.escape("refusing to load os.system")):
            safeload.loads(b"\x80\x02\x84\x00\x00\xff\x7f.")  # EXT4
    finally:
        copyreg.remove_extension("os", "system", 0x7FFF0000)


def test_setting_the_state_of_an_allowed_class_is_refused():
    pickled = b"\x80\x02cnumpy\ndtype\n}X\x01\x00\x00\x00xK\x01sb."  # dtype class, BUILD
    with pytest.raises(safeload.UnsafeModel, match="state of a class"):
        safeload.loads(pickled)
    assert not hasattr(np.dtype, "x")


def test_persistent_ids_are_refused():
    with pytest.raises(safeload.UnsafeModel, match="does not unpickle"):
        safeload.loads(b"\x80\x02X\x01\x00\x00\x00xQ.")  # BINPERSID


# ------------------------------------------- models that unpickle but do not fit

@pytest.mark.parametrize("weights", ["abc", 3, [1.0, "x"], [0.5]])
def test_linear_model_with_unusable_weights_is_refused_at_load(tmp_path, weights):
    from brains.learned import linear

    model = {"kind": "linear", "game": GAME, "weights": weights,
             "features": list(linear.feature_names(GAME))}
    path = store.save_model(model, GAME, "linear", tmp_path)
    with pytest.raises(ModelError) as info:
        make_brain(f"linear,model={path}", GAME)
    _one_line_error(info.value, str(path))


def test_mlp_model_whose_layers_do_not_fit_is_refused_at_load(tmp_path):
    model = store.load_model(GAME, KIND)
    net = model["nets"][model["phases"][0]][0]
    net.coefs_[1] = np.zeros((net.coefs_[1].shape[0] + 1, 1))  # one row too many
    path = store.save_model(model, GAME, KIND, tmp_path)
    with pytest.raises(ModelError) as info:
        make_brain(f"mlp,model={path}", GAME)
    _one_line_error(info.value, str(path), "not a usable mlp model", "ValueError")


def test_mlp_model_with_a_long_unknown_input_part_is_quoted_short(tmp_path):
    model = store.load_model(GAME, KIND)
    model["layout"] = ["encode", "x" * 10_000]
    path = store.save_model(model, GAME, KIND, tmp_path)
    with pytest.raises(ModelError) as info:
        make_brain(f"mlp,model={path}", GAME)
    assert len(_one_line_error(info.value, str(path), "unknown input part")) < len(str(path)) + 150


@pytest.mark.parametrize("folder", ["a" * 5000, "x\ny" * 100])
def test_long_or_multiline_model_path_gives_one_short_line(folder):
    # Through the store: make_brain refuses a spec this long before it reaches a loader.
    with pytest.raises(ModelError) as info:
        store.load(GAME, "linear", option=f"/{folder}/{GAME}-linear.joblib")
    assert len(_one_line_error(info.value)) < 300
