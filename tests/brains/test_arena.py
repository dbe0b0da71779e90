"""Arena tests: reproducible matches (also across worker processes), alternating sides,
openings that differ, tournaments and the records they write."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from brains.arena import (
    ArenaError,
    GameTask,
    match,
    match_tasks,
    play_game,
    run_task,
    tournament,
)
from brains.protocol import Brain, Budget, Thought, UnknownBrainError
from engine.formats import parse_records
from engine.registry import new_game


class PickBrain(Brain):
    """Test brain: ``first`` plays the first legal move, ``rand`` a seeded random one,
    ``win`` a winning move when there is one (else random), ``bad`` an illegal move."""

    name = "pick"

    def think(self, state: Any, budget: Budget) -> Iterator[Thought]:
        moves = state.legal_moves()
        if self.spec == "first":
            move = moves[0]
        elif self.spec == "bad":
            move = "not a move"
        else:
            wins = [m for m in moves if self.spec == "win"
                    and state.play(m).outcome() is not None
                    and state.play(m).outcome().winner == state.to_move]
            move = self.rng.choice(wins or list(moves))
        yield Thought(move, 0.0, 1, len(moves), (move,), final=True)

    def analyse(self, state: Any, budget: Budget | None = None) -> dict[Any, float]:
        return {m: float(i) for i, m in enumerate(state.legal_moves())}


def pick_factory(spec: str, game_id: str, seed: int | None = None) -> Brain:
    """The test brains' registry: specs ``first``, ``rand``, ``win`` and ``bad``."""
    if spec not in ("first", "rand", "win", "bad"):
        raise UnknownBrainError(f"unknown brain {spec!r}; known: first, rand, win, bad")
    return PickBrain(game_id, seed=seed, spec=spec)


def outcomes(result: Any) -> list[tuple[str, tuple[str, ...]]]:
    """Each game's result and moves, to compare two runs."""
    return [(r.result, tuple(r.record.moves)) for r in result.results]


def test_same_seed_same_games_and_other_seed_other_games() -> None:
    one = match("tictactoe", "rand", "win", 8, seed=3, brain_factory=pick_factory)
    two = match("tictactoe", "rand", "win", 8, seed=3, brain_factory=pick_factory)
    other = match("tictactoe", "rand", "win", 8, seed=4, brain_factory=pick_factory)
    assert outcomes(one) == outcomes(two)
    assert outcomes(one) != outcomes(other)


def test_parallel_workers_give_the_same_results_as_one_process() -> None:
    serial = match("tictactoe", "rand", "win", 6, seed=11, jobs=1, brain_factory=pick_factory)
    parallel = match("tictactoe", "rand", "win", 6, seed=11, jobs=2, brain_factory=pick_factory)
    assert outcomes(serial) == outcomes(parallel)
    assert [r.index for r in parallel.results] == list(range(6))


def test_sides_alternate_and_each_opening_is_played_from_both_sides() -> None:
    result = match("tictactoe", "first", "rand", 6, seed=1, opening_plies=2,
                   brain_factory=pick_factory)
    firsts = [r.record.tags["First"] for r in result.results]
    assert firsts == ["first", "rand"] * 3
    assert [r.task.a_first for r in result.results] == [True, False] * 3
    openings = [tuple(r.record.moves[:2]) for r in result.results]
    assert openings[0] == openings[1] and openings[2] == openings[3]
    assert len(set(openings)) > 1  # different pairs start differently (seeded)
    assert all(r.record.comments == {2: "end of the random opening (2 plies)"}
               for r in result.results)


def test_deterministic_brains_still_play_different_games() -> None:
    result = match("tictactoe", "first", "first", 10, seed=0, brain_factory=pick_factory)
    assert len({tuple(r.record.moves) for r in result.results}) > 1


def test_counts_score_and_summary_add_up() -> None:
    result = match("tictactoe", "win", "rand", 10, seed=5, brain_factory=pick_factory)
    a_wins, draws, b_wins = result.counts()
    assert a_wins + draws + b_wins == 10
    assert result.counts(True)[0] + result.counts(False)[0] == a_wins
    summary = result.summary()
    assert summary["a_score"] == pytest.approx((a_wins + draws / 2) / 10)
    lo, hi = summary["elo_ci95"]
    assert lo <= summary["elo_diff"] <= hi
    points = sum(r.a_points for r in result.results)
    assert points == pytest.approx(a_wins + draws / 2)


def test_the_records_replay_to_their_results() -> None:
    result = match("tictactoe", "rand", "rand", 4, seed=2, brain_factory=pick_factory)
    for r in result.results:
        (back,) = parse_records(r.record.to_text())
        assert back.moves == r.record.moves
        assert back.result == r.result == back.final().outcome().result.value


def test_game_options_and_random_starts_pass_through() -> None:
    games = match("reversi", "rand", "rand", 4, seed=9, options={"size": 4},
                  brain_factory=pick_factory)
    assert all(r.record.options["size"] == 4 for r in games.results)
    flips = match("reversi", "first", "first", 4, seed=9, opening_plies=0,
                  options={"size": 6, "variant": "flipcolor"}, brain_factory=pick_factory)
    seeds = [r.record.options["seed"] for r in flips.results]
    assert seeds[0] == seeds[1] and seeds[1] != seeds[2]  # one random start per pair


def test_play_game_alone() -> None:
    record = play_game("tictactoe", "win", "first", seed=1, brain_factory=pick_factory)
    assert record.result in ("1-0", "0-1", "1/2-1/2")
    assert record.tags["First"] == "win" and record.tags["Second"] == "first"
    assert new_game("tictactoe").play_line(record.moves).outcome() is not None


def test_bad_specs_and_bad_brains_fail_clearly() -> None:
    with pytest.raises(UnknownBrainError, match="nope"):
        match("tictactoe", "rand", "nope", 2, brain_factory=pick_factory)
    with pytest.raises(ValueError, match="unknown game"):
        match("chess", "rand", "rand", 2, brain_factory=pick_factory)
    with pytest.raises(ArenaError, match="not a legal move"):
        run_task(GameTask("tictactoe", "bad", "rand", {}, 1, 1), pick_factory)


def test_tournament_pairs_everyone_and_ranks_the_winner_first() -> None:
    result = tournament("tictactoe", ["rand", "win", "first"], 6, seed=1,
                        brain_factory=pick_factory)
    assert set(result.matches) == {("rand", "win"), ("rand", "first"), ("win", "first")}
    for row in result.players:
        for col in result.players:
            if row != col:
                assert result.score(row, col) == pytest.approx(1 - result.score(col, row))
    ratings = result.ratings(bootstrap=50)
    assert abs(sum(r.elo for r in ratings)) < 1e-6
    assert all(r.lo <= r.elo <= r.hi for r in ratings)
    summary = result.summary(ratings)
    assert len(summary["pairs"]) == 3 and summary["players"] == ["rand", "win", "first"]
    # a pairing plays the same games whoever else is in the tournament
    alone = tournament("tictactoe", ["rand", "win"], 6, seed=1, brain_factory=pick_factory)
    assert outcomes(alone.matches["rand", "win"]) == outcomes(result.matches["rand", "win"])


def test_match_tasks_differ_per_game() -> None:
    tasks = match_tasks("tictactoe", "a", "b", 4, seed=0)
    assert len({t.seed for t in tasks}) == 4
    assert len({t.opening_seed for t in tasks}) == 2
    assert tasks[0].opening_plies == 1  # tic-tac-toe's default
