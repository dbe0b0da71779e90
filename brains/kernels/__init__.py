"""Compiled search kernels: the one door to numba.

Each kernel lives in a module of this package that imports numba at its top; the public
modules of ``brains`` import a kernel module only inside the function that first needs
it, so starting the app never imports the compiler.

Importing this package (which happens before any of its modules) points numba's on-disk
cache at a writable per-user folder when the installed package's folder is read-only
(a system-wide or pipx install), so the compiled code is cached across runs either way;
``NUMBA_CACHE_DIR``, when set, is left as it is.

The first compilation of a kernel in a process takes seconds (less once cached on disk).
:func:`preparing` tells whoever listens, once per kernel and process, that it is under
way ("preparing the Connect Four solver…"): the command line prints it, the app shows it
as a notification. Kernels are compiled on the thread that first calls them; callers
from the app run them in workers, never on the UI thread.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import platformdirs

__all__ = ["THREADS", "cache_dir", "listen", "no_refcount", "no_refcount_typed", "preparing"]

THREADS = max(1, min(2, os.cpu_count() or 1))
"""Threads a solver uses by default for one search (Connect Four's analysis, Reversi's
endgame): two where the machine has them. The kernels release the GIL, so the threads
run at once."""


def cache_dir() -> Path | None:
    """The folder numba caches compiled kernels in, or None for numba's own default
    (the ``__pycache__`` beside each kernel module, when that is writable)."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"])
    here = Path(__file__).resolve().parent
    pycache = here / "__pycache__"
    if os.access(pycache if pycache.is_dir() else here, os.W_OK):
        return None
    return Path(platformdirs.user_cache_dir("parlor", appauthor=False)) / "numba"


_folder = cache_dir()
if _folder is not None and not os.environ.get("NUMBA_CACHE_DIR"):
    os.environ["NUMBA_CACHE_DIR"] = str(_folder)

_listeners: list[Callable[[str], None]] = []
_announced: set[str] = set()
_lock = threading.Lock()


def listen(callback: Callable[[str], None]) -> Callable[[], None]:
    """Call ``callback(message)`` when a kernel starts being prepared; returns a function
    that stops listening."""
    with _lock:
        _listeners.append(callback)

    def stop() -> None:
        with _lock:
            if callback in _listeners:
                _listeners.remove(callback)

    return stop


@contextmanager
def preparing(what: str) -> Iterator[None]:
    """Wrap a kernel's first call: the first time in this process, tell the listeners
    ``preparing {what}…`` (for example ``what="the Connect Four solver"``)."""
    with _lock:
        first = what not in _announced
        _announced.add(what)
        listeners = list(_listeners) if first else []
    for callback in listeners:
        callback(f"preparing {what}…")
    yield


def no_refcount(fn: Callable[..., Any]) -> Any:
    """``numba.njit(cache=True)`` without numba's reference counting (``_nrt=False``, an
    option numba keeps for its own use: a release without it fails loudly at import): for
    the recursive searches, which allocate nothing and use only arrays their callers
    hold, and would otherwise count the references of every array argument (atomic
    increments and decrements) on entry and exit of every call. (Imports numba: only a
    kernel module calls it.)"""
    return no_refcount_typed(None)(fn)


def no_refcount_typed(signature: Any) -> Callable[[Callable[..., Any]], Any]:
    """:func:`no_refcount` compiled for one explicit ``signature`` (None: any)."""
    from numba import njit

    options: dict[str, Any] = {"cache": True, "_nrt": False}

    def wrap(fn: Callable[..., Any]) -> Any:
        return njit(**options)(fn) if signature is None else njit(signature, **options)(fn)

    return wrap
