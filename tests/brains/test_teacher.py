"""The ``perfect`` brain's teaching level (``teacher=true``): it never gives up the exact
outcome, prefers the move whose replies most often lose, and does no worse than plain
perfect play against a fallible rung (benchmarks/teacher.py measures by how much)."""

from __future__ import annotations

import random

import pytest

from brains import Budget, make_brain
from brains.arena import match
from brains.heuristics import exact_solver, get_heuristic
from brains.perfect import teaching_key
from engine import new_game
from engine.protocol import AnyState

TEACHERS = {"tictactoe": "perfect,teacher=true", "morris": "perfect,teacher=true",
            "connect4": "perfect,method=connect4,teacher=true"}
STONES = {"tictactoe": (1, 6), "morris": (4, 30), "connect4": (16, 24)}
"""Random plies before a position is tried (Connect Four late enough to solve at once)."""


def positions(game: str, seed: int, count: int) -> list[AnyState]:
    rng, out = random.Random(seed), []
    low, high = STONES[game]
    while len(out) < count:
        state = new_game(game)
        for _ in range(rng.randint(low, high)):
            moves = [m for m in state.legal_moves() if not state.play(m).is_terminal()]
            if not moves:
                break
            state = state.play(rng.choice(moves))
        if state.legal_moves() and not state.is_terminal():
            out.append(state)
    return out


@pytest.mark.parametrize("game", list(TEACHERS))
def test_the_teachers_move_keeps_the_exact_outcome(game: str) -> None:
    hook = exact_solver(game)
    assert hook is not None
    brain = make_brain(TEACHERS[game], game, seed=5)
    for state in positions(game, seed=3, count=4):
        values = hook.values(state, Budget().start(), {})
        assert values is not None
        best = max(v.outcome for v in values.values())
        thought = list(brain.think(state, Budget().start()))[-1]
        assert thought.final and values[thought.move].outcome == best, str(state)


def test_the_teacher_opens_tictactoe_in_a_corner() -> None:
    """Every first move draws; after a corner 7 of O's 8 replies lose (all but the
    centre), after the centre or an edge at most half do: the teacher takes a corner."""
    start = new_game("tictactoe")
    plain = make_brain("perfect", "tictactoe")
    heuristic = get_heuristic("tictactoe")
    keys = {}
    for move in start.legal_moves():
        child = start.play(move)
        replies = {r: (s > 0) - (s < 0) for r, s in plain.analyse(child).items()}
        keys[start.format_move(move)] = teaching_key(child, replies, heuristic)
    assert keys["a1"][1] == 7 / 8 and keys["b2"][1] == 4 / 8
    assert max(keys, key=keys.__getitem__) in ("a1", "c1", "a3", "c3")
    for seed in range(4):
        move = make_brain("perfect,teacher=true", "tictactoe", seed=seed).choose(start)
        assert start.format_move(move) in ("a1", "c1", "a3", "c3")


def test_the_teacher_scores_at_least_plain_perfect_against_a_fallible_rung() -> None:
    teacher = match("tictactoe", "perfect,teacher=true", "level:5", 60, seed=1)
    plain = match("tictactoe", "perfect,teacher=false", "level:5", 60, seed=1)
    assert teacher.counts()[2] == plain.counts()[2] == 0
    assert teacher.a_score >= plain.a_score


def test_without_time_for_the_replies_it_plays_a_best_move_and_says_so() -> None:
    state = new_game("tictactoe").play_line(["b2"])
    brain = make_brain("perfect,teacher=true", "tictactoe", seed=0)
    scores = brain.analyse(state)
    spent = Budget(seconds=1e-9).start()
    while not spent.expired():
        pass
    move, note = brain.best_move(state, scores, spent)
    assert scores[move] == max(scores.values()) and "not solved in time" in note
