"""Reading and unpickling model files that nobody vouches for.

A model file is a joblib file, and joblib files are pickles: a plain unpickle calls
whatever callable the file names, so loading one can run any code. This module never
does a plain unpickle:

- :func:`read_regular` reads a file's bytes once, and only from a regular file of at
  most a given size (a FIFO, a device such as ``/dev/zero``, a directory or a huge file
  is refused without blocking), so the bytes that are hashed are the bytes that are
  loaded;
- :func:`loads` unpickles those bytes with :func:`restricted_unpickler`, joblib's own
  unpickler whose ``find_class`` resolves only the classes and functions in
  :data:`ALLOWED` (what a Parlor model is made of) and refuses every other name, so no
  other callable can be reached, whatever the file says.

Errors are :class:`UnsafeModel` with a one-line message that does not name the file;
the caller (:mod:`brains.learned.store`) adds the path.
"""

from __future__ import annotations

import bz2
import functools
import importlib
import io
import lzma
import os
import pickle
import zlib
from typing import Any

from engine.files import FileReadError, MissingFileError, read_capped
from engine.protocol import ParlorError

MAX_FILE_BYTES = 64 << 20
"""The largest model file read (the shipped ones are at most 2 MiB)."""
MAX_PICKLE_BYTES = 256 << 20
"""The largest uncompressed pickle unpickled (the shipped ones are at most 6 MiB)."""

ALLOWED: frozenset[tuple[str, str]] = frozenset({
    # joblib writes each numpy array as a wrapper followed by the raw array bytes.
    ("joblib.numpy_pickle", "NumpyArrayWrapper"),
    # numpy arrays, dtypes and scalars, and the helpers numpy's own pickles call
    # (numpy._core since numpy 2, numpy.core before).
    ("numpy", "dtype"),
    ("numpy", "ndarray"),
    ("numpy._core.multiarray", "_reconstruct"),
    ("numpy._core.multiarray", "scalar"),
    ("numpy.core.multiarray", "_reconstruct"),
    ("numpy.core.multiarray", "scalar"),
    # The random state a fitted scikit-learn estimator keeps.
    ("numpy.random._pickle", "__randomstate_ctor"),
    ("numpy.random._pickle", "__bit_generator_ctor"),
    ("numpy.random._mt19937", "MT19937"),
    # scikit-learn networks (mlp models) and what they hold.
    ("sklearn.neural_network._multilayer_perceptron", "MLPRegressor"),
    ("sklearn.neural_network._stochastic_optimizers", "AdamOptimizer"),
    ("sklearn.neural_network._stochastic_optimizers", "SGDOptimizer"),
    ("sklearn.preprocessing._data", "StandardScaler"),
    # Containers that have no opcode of their own in older pickle protocols.
    ("builtins", "set"),
    ("builtins", "frozenset"),
})
"""The (module, name) pairs a model file may name; every other global is refused.
Dicts, lists, tuples, strings, bytes, numbers, booleans and None need no name."""

# Leading bytes of the compressed formats joblib writes, and their stdlib decompressors
# (each with a ``max_length`` so that a small file cannot inflate without bound).
_DECOMPRESSORS = (
    (b"\x78", lambda: zlib.decompressobj()),
    (b"\x1f\x8b", lambda: zlib.decompressobj(wbits=31)),
    (b"BZh", lambda: bz2.BZ2Decompressor()),
    (b"\xfd7zXZ", lambda: lzma.LZMADecompressor()),
    (b"\x5d\x00", lambda: lzma.LZMADecompressor()),
)


class UnsafeModel(ParlorError):
    """A model file that is not read or not unpickled; the message is one line."""


class RefusedGlobal(pickle.UnpicklingError):
    """A pickle names a class or function outside :data:`ALLOWED`."""

    def __init__(self, module: str, name: str):
        self.qualname = f"{shorten(module, 60)}.{shorten(name, 60)}"
        super().__init__(f"refusing to load {self.qualname}: not a class a Parlor model is "
                         "made of (see docs/SECURITY.md, Models)")


def shorten(text: Any, limit: int = 60) -> str:
    """``text`` as one line of at most about ``limit`` characters, for error messages."""
    line = str(text).replace("\n", " ").replace("\r", " ")
    return line if len(line) <= limit else line[:limit] + "…"


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at ``path``, read once (through
    :func:`engine.files.read_capped`); UnsafeModel if it is not a regular file, cannot be
    read or holds more than ``limit`` bytes. FileNotFoundError passes through (callers
    say how to get a missing file back)."""
    try:
        return read_capped(path, limit)
    except MissingFileError:
        raise FileNotFoundError(os.fspath(path)) from None
    except FileReadError as exc:
        raise UnsafeModel(exc.reason.removeprefix("cannot read: ")) from None


def decompress(data: bytes, limit: int | None = None) -> bytes:
    """The pickle inside a joblib file's bytes (zlib, gzip, bz2, xz, lzma or none), at
    most ``limit`` (default :data:`MAX_PICKLE_BYTES`) bytes of it; UnsafeModel for
    anything else."""
    limit = MAX_PICKLE_BYTES if limit is None else limit
    if data[:1] == pickle.PROTO:
        return data
    for prefix, make in _DECOMPRESSORS:
        if data.startswith(prefix):
            decompressor = make()
            try:
                out = decompressor.decompress(data, limit + 1)
            except (zlib.error, OSError, lzma.LZMAError, EOFError, ValueError) as exc:
                raise UnsafeModel(f"damaged compressed data ({shorten(exc)})") from None
            if len(out) > limit:
                raise UnsafeModel(f"uncompresses to more than the {limit} bytes allowed")
            if not decompressor.eof:
                raise UnsafeModel("compressed data is truncated")
            return out
    raise UnsafeModel(f"not a joblib file (starts with {data[:8]!r})")


@functools.cache
def _unpickler_class() -> type:
    from joblib.numpy_pickle import NumpyUnpickler

    class Restricted(NumpyUnpickler):  # type: ignore[misc]  # joblib ships no type information
        """joblib's unpickler (arrays stored beside the pickle opcodes) resolving only
        :data:`ALLOWED` names. joblib's unpickler is pickle's Python implementation, so
        every route to a global (GLOBAL, STACK_GLOBAL, INST, OBJ, the EXT codes, and
        the nested pickle of an object array, which joblib routes through this
        ``find_class``) ends here; persistent ids are refused by the base class."""

        def find_class(self, module: str, name: str) -> Any:
            if (module, name) not in ALLOWED:
                raise RefusedGlobal(module, name)
            return getattr(importlib.import_module(module), name)

        def load_build(self) -> None:
            # BUILD on a class (not an instance) would set attributes of a library
            # class for the whole process; a model never needs it.
            if isinstance(self.stack[-2] if len(self.stack) > 1 else None, type):
                raise pickle.UnpicklingError("refusing to set the state of a class")
            super().load_build()

        dispatch = NumpyUnpickler.dispatch.copy()
        dispatch[pickle.BUILD[0]] = load_build

    return Restricted


def restricted_unpickler(file: io.BufferedIOBase) -> Any:
    """joblib's NumpyUnpickler over ``file`` that resolves only :data:`ALLOWED` names."""
    return _unpickler_class()("", file, ensure_native_byte_order=True)


def loads(data: bytes) -> Any:
    """The object in a joblib file's bytes, built from :data:`ALLOWED` classes only;
    UnsafeModel (naming the refused ``module.qualname``) for anything else, and for a
    file that does not unpickle."""
    pickled = decompress(data)
    try:
        return restricted_unpickler(io.BytesIO(pickled)).load()
    except RefusedGlobal as exc:
        raise UnsafeModel(str(exc)) from None
    except Exception as exc:  # noqa: BLE001 - hostile bytes can make any library code raise
        detail = f"{type(exc).__name__}: {shorten(exc)}" if str(exc) else type(exc).__name__
        raise UnsafeModel(f"does not unpickle ({detail})") from None
