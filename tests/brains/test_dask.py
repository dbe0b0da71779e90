"""Games and self-play on a Dask cluster (two worker processes on this machine) give
exactly the local results: the same tournament table, the same match games, the same
model bytes; and a cluster that cannot be used is one clear line."""

from __future__ import annotations

import json
import logging
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from brains import parallel
from brains.arena import match, tournament
from brains.parallel import (
    ClusterError,
    dask_cluster,
    on_cluster,
    run_calls,
    run_unordered,
)
from brains.train import train_and_save
from tui.cli import main

ROOT = str(Path(__file__).resolve().parents[2])


@pytest.fixture(scope="module")
def address() -> Iterator[str]:
    """A LocalCluster of two single-threaded worker processes, importing this checkout
    (Dask comes with the dev extras)."""
    import distributed

    path = os.pathsep.join([ROOT, *filter(None, [os.environ.get("PYTHONPATH")])])
    cluster = distributed.LocalCluster(
        n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
        silence_logs=logging.ERROR, env={"PYTHONPATH": path})
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


def games_of(result: Any) -> list[tuple[str, tuple[str, ...]]]:
    """Each game's result and moves, to compare two runs."""
    return [(r.result, tuple(r.record.moves)) for r in result.results]


def ran_on_workers(client: Any) -> Any:
    """A task-stream recorder: its ``data`` lists the tasks the workers ran."""
    import distributed

    return distributed.get_task_stream(client)


def test_a_tournament_on_the_cluster_matches_the_local_one(address: str) -> None:
    players = ["random", "greedy", "alphabeta:easy"]
    local = tournament("tictactoe", players, 4, seed=7, jobs=1)
    with dask_cluster(address) as client, ran_on_workers(client) as stream:
        assert on_cluster()
        remote = tournament("tictactoe", players, 4, seed=7, jobs=1)
    assert not on_cluster()
    assert len(stream.data) > 0  # the games really went to the workers
    assert {task["worker"] for task in stream.data} <= set(client_workers(address))
    assert remote.summary(remote.ratings(bootstrap=20)) == local.summary(
        local.ratings(bootstrap=20))
    for pair, played in local.matches.items():
        assert games_of(remote.matches[pair]) == games_of(played)


def client_workers(address: str) -> list[str]:
    """The addresses of the cluster's workers."""
    import distributed

    with distributed.Client(address, set_as_default=False) as client:
        return list(client.scheduler_info()["workers"])


def test_a_match_on_the_cluster_matches_the_local_one(address: str) -> None:
    local = match("connect4", "greedy", "random", 6, seed=3, jobs=1)
    with dask_cluster(address):
        remote = match("connect4", "greedy", "random", 6, seed=3, jobs=1)
    assert games_of(remote) == games_of(local)
    assert remote.summary() == local.summary()


def test_training_on_the_cluster_writes_the_same_model(address: str, tmp_path: Path) -> None:
    here, _ = train_and_save("tictactoe", "linear", games=60, seed=4, out=tmp_path / "here",
                             evaluate=False)
    with dask_cluster(address) as client, ran_on_workers(client) as stream:
        there, entry = train_and_save("tictactoe", "linear", games=60, seed=4,
                                      out=tmp_path / "there", eval_games=2)
    assert len(stream.data) > 0
    assert there.read_bytes() == here.read_bytes()
    # the strength matches read the new model file, so they ran here, not on the cluster
    assert entry["strength"]["vs_random"]["wins"] + entry["strength"]["vs_random"]["draws"] \
        + entry["strength"]["vs_random"]["losses"] == 2


def test_the_tournament_command_prints_the_same_json_with_scheduler(
        address: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["tournament", "tictactoe", "random", "greedy", "-n", "4", "--seed", "2",
            "--bootstrap", "10"]
    assert main([*args, "--json", str(tmp_path / "local.json")]) == 0
    assert main([*args, "--json", str(tmp_path / "dask.json"), "--scheduler", address]) == 0
    capsys.readouterr()
    local = json.loads((tmp_path / "local.json").read_text())
    remote = json.loads((tmp_path / "dask.json").read_text())
    assert remote == local and local["tournaments"][0]["pairs"][0]["games"] == 4


def free_port() -> int:
    """A TCP port on which nothing listens (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("command", [
    ["match", "tictactoe", "random", "greedy", "-n", "2"],
    ["tournament", "tictactoe", "random", "greedy", "-n", "2"],
    ["train", "tictactoe", "linear", "-n", "10", "--no-eval"],
])
def test_an_unreachable_scheduler_is_one_line_within_the_timeout(
        command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{free_port()}"
    if command[0] == "train":
        command = [*command, "--out", str(tmp_path)]
    assert main([*command, "--scheduler", address]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert f"cannot reach the Dask scheduler at {address!r} within 1 s" in err
    assert not list(tmp_path.iterdir())  # nothing was trained


def test_missing_dask_names_the_extra(monkeypatch: pytest.MonkeyPatch,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    with pytest.raises(ClusterError, match=r'pip install "parlor\[dask\]"'), \
            dask_cluster("tcp://127.0.0.1:8786"):
        pass
    assert main(["match", "tictactoe", "random", "greedy", "-n", "2",
                 "--scheduler", "tcp://127.0.0.1:8786"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and 'pip install "parlor[dask]"' in err


@pytest.mark.parametrize("address", ["", "tcp://a b", "x" * 300, "tcp://\x1b[2J:1"])
def test_bad_scheduler_addresses_are_refused_by_the_parser(
        address: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "tictactoe", "random", "greedy", "--scheduler", address]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a scheduler address" in err and "\x1b" not in err


def test_work_goes_to_the_workers_even_with_one_worker_thread() -> None:
    """Joblib would run the calls in this process for a cluster it counts as one job."""
    import distributed

    one = distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                   dashboard_address=":0", silence_logs=logging.ERROR)
    with one, dask_cluster(one.scheduler_address):
        threads = run_calls(worker_name, [(k,) for k in range(4)])
    assert threads == [threads[0]] * 4 and threads[0] != "MainThread"


def worker_name(_: int) -> str:
    """The name of the thread that runs this call."""
    import threading

    return threading.current_thread().name


def test_a_cluster_lost_during_the_run_is_a_cluster_error() -> None:
    import distributed

    lost = distributed.LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                                    dashboard_address=":0", silence_logs=logging.ERROR)
    with pytest.raises(ClusterError, match="the Dask cluster failed during the run"), \
            dask_cluster(lost.scheduler_address, timeout=1):
        for _ in run_unordered(pause, [(0.2,)] * 20):
            lost.close()
    assert not on_cluster()


def pause(seconds: float) -> float:
    """Wait ``seconds``, then return them."""
    import time

    time.sleep(seconds)
    return seconds
