"""brains.roundrobin, what `parlor tournament` does, called without the command line."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from brains.roundrobin import round_robins, variant_runs
from engine.protocol import ParlorError
from engine.registry import get_game


def test_variant_runs_one_per_variant_or_the_options_once():
    variants = {o.name: o for o in get_game("reversi").options}["variant"].choices
    runs = variant_runs("reversi", {"size": 6}, True)
    assert runs == [{"size": 6, "variant": v} for v in variants] and len(runs) >= 2
    assert variant_runs("reversi", {"size": 6}, False) == [{"size": 6}]
    with pytest.raises(ParlorError, match="tictactoe has no variants"):
        variant_runs("tictactoe", {}, True)
    with pytest.raises(ParlorError, match="leave out -o variant"):
        variant_runs("reversi", {"variant": variants[0]}, True)


def test_round_robins_play_each_run_and_report_it():
    seen = []

    @contextmanager
    def reporter(label, total):
        seen.append((label, total))
        yield None

    runs = [{}, {}]
    results = round_robins("tictactoe", ["random", "greedy", "perfect"], 2, runs, seed=1,
                           reporter=reporter)
    assert seen == [("tictactoe", 6), ("tictactoe", 6)]
    assert len(results) == 2 and all(r.players == ["random", "greedy", "perfect"]
                                     for r in results)
    assert results[0].score("perfect", "random") >= 0.5  # perfect never loses
