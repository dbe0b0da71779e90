"""Where the arena's games and the learners' self-play run: here, in local worker
processes, or on a Dask cluster.

Everything parallel in Parlor goes through :func:`run_unordered` or :func:`run_calls`:

- with no cluster, ``jobs <= 1`` runs the calls one after the other in this process
  and ``jobs > 1`` runs them in ``jobs`` local worker processes (joblib's loky backend);
- inside ``with dask_cluster(address):`` they run through joblib's Dask backend on the
  cluster whose scheduler is at ``address`` (``jobs`` is then the cluster's business:
  every worker thread takes calls).

Each call is a module-level function and its picklable arguments (brain specs, seeds,
weights), and every result comes back with the call's position, so the results never
depend on where or in which order the calls ran. The functions are pickled by
reference: a Dask worker needs the same version of Parlor installed.

Dask is optional (``pip install "parlor[dask]"``); nothing here imports it until a
cluster is asked for.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import Any

from engine.protocol import ParlorError, quote

CONNECT_TIMEOUT = 10.0
"""Seconds to reach a scheduler and to see at least one worker there."""

INSTALL_HINT = 'pip install "parlor[dask]"'
"""What to run when Dask is missing."""

_CLIENT: ContextVar[Any] = ContextVar("parlor_dask_client", default=None)
"""The Dask client of the innermost :func:`dask_cluster` block (None: run locally)."""


class ClusterError(ParlorError):
    """A Dask cluster that cannot be used: Dask missing, a scheduler out of reach, no
    workers, or a cluster that failed during the run. The message is one line."""


def on_cluster() -> bool:
    """True inside a :func:`dask_cluster` block (and not inside :func:`locally`)."""
    return _CLIENT.get() is not None


@contextlib.contextmanager
def dask_cluster(address: str, timeout: float | None = None) -> Iterator[Any]:
    """Run the parallel work of the block on the Dask cluster at ``address``.

    Connects a ``distributed.Client`` (within ``timeout`` seconds, default
    :data:`CONNECT_TIMEOUT`, and waits as long for a worker), yields it, and closes it
    at the end. Raises :class:`ClusterError` when Dask is not installed or the scheduler
    cannot be used.
    """
    timeout = CONNECT_TIMEOUT if timeout is None else timeout
    try:
        import distributed
    except ImportError:
        raise ClusterError(f"--scheduler needs Dask, which is not installed: "
                           f"{INSTALL_HINT}") from None
    with _quiet_dask_logs(), _connected(distributed, address, timeout) as client:
        yield client


@contextlib.contextmanager
def _connected(distributed: Any, address: str, timeout: float) -> Iterator[Any]:
    """The body of :func:`dask_cluster`: connect, wait for a worker, yield, close."""
    where = quote(address)
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except Exception as exc:  # noqa: BLE001 (OSError, TimeoutError, ValueError for a bad address, …)
        raise ClusterError(f"cannot reach the Dask scheduler at {where} within "
                           f"{timeout:g} s: {_reason(exc)}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=timeout)
        except Exception as exc:  # noqa: BLE001 (TimeoutError, or a lost connection)
            raise ClusterError(f"the Dask scheduler at {where} has no workers "
                               f"(none joined within {timeout:g} s): {_reason(exc)}") from None
        token = _CLIENT.set(client)
        try:
            yield client
        finally:
            _CLIENT.reset(token)
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=timeout)


@contextlib.contextmanager
def _quiet_dask_logs() -> Iterator[None]:
    """Hold back Dask's own log output (tracebacks of lost connections) for the block:
    what goes wrong reaches the caller as one :class:`ClusterError` instead."""
    handlers = logging.getLogger("distributed").handlers
    levels = [h.level for h in handlers]
    for handler in handlers:
        handler.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for handler, level in zip(handlers, levels, strict=True):
            handler.setLevel(level)


@contextlib.contextmanager
def locally() -> Iterator[None]:
    """Run the parallel work of the block here, even inside a :func:`dask_cluster` block
    (for work that reads files only this machine has)."""
    token = _CLIENT.set(None)
    try:
        yield
    finally:
        _CLIENT.reset(token)


def run_unordered(fn: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
                  jobs: int = 1) -> Iterator[tuple[int, Any]]:
    """``(k, fn(*calls[k]))`` for every call, as each finishes (in order when serial).

    An exception raised by ``fn`` comes back as itself; a failure of the cluster
    (a lost worker or scheduler) is a :class:`ClusterError`.
    """
    client = _CLIENT.get()
    if client is None and (jobs <= 1 or len(calls) <= 1):
        for k, args in enumerate(calls):
            yield k, fn(*args)
        return
    from joblib import Parallel, delayed, parallel_config

    numbered = [delayed(_numbered)(fn, k, args) for k, args in enumerate(calls)]
    if client is None:
        yield from Parallel(n_jobs=min(jobs, len(calls)), backend="loky",
                            return_as="generator_unordered")(numbered)
        return
    try:
        with parallel_config(backend=_cluster_backend(client)):
            yield from Parallel(return_as="generator_unordered")(numbered)
    except Exception as exc:
        if _from_dask(exc):
            raise ClusterError(f"the Dask cluster failed during the run: "
                               f"{_reason(exc)}") from None
        raise


def run_calls(fn: Callable[..., Any], calls: Sequence[tuple[Any, ...]],
              jobs: int = 1) -> list[Any]:
    """``[fn(*args) for args in calls]``, run as :func:`run_unordered` runs them."""
    results = dict(run_unordered(fn, calls, jobs))
    return [results[k] for k in range(len(calls))]


def _cluster_backend(client: Any) -> Any:
    """Joblib's Dask backend on ``client``, never taken for a single job.

    Joblib runs the calls in this process when the backend counts one job, which the
    Dask backend does for a cluster of one worker thread; counting at least two keeps
    the work on the cluster, as ``--scheduler`` asks.
    """
    from joblib._dask import DaskDistributedBackend

    class ClusterBackend(DaskDistributedBackend):  # type: ignore[misc]
        def effective_n_jobs(self, n_jobs: int) -> int:
            return max(2, int(super().effective_n_jobs(n_jobs)))

    return ClusterBackend(client=client)


def _numbered(fn: Callable[..., Any], position: int,
              args: tuple[Any, ...]) -> tuple[int, Any]:
    """``fn(*args)`` with the call's position, for workers that finish out of order."""
    return position, fn(*args)


def _from_dask(exc: BaseException) -> bool:
    """True for errors of the cluster itself rather than of the work it ran."""
    module = type(exc).__module__ or ""
    return module.split(".")[0] in ("distributed", "tornado", "dask")


def _reason(exc: BaseException) -> str:
    """The error as a short phrase on one line."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= 160 else text[:159] + "…"
