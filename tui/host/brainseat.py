"""A computer opponent in a room's seat: which ones a room may have, their ratings, and
the search itself (run in a worker process of the room service, never in its event loop).

A room's brain is one of the opponents the app's chooser offers for the game (the rated
levels ``level:1`` … and the named brains such as ``alphabeta:hard``), given exactly as
listed: no options, so no spec can name a model file. External engines are not offered
(they run programs of the host's own configuration).
"""

from __future__ import annotations

import math

from brains import registry
from brains.protocol import Budget
from engine.protocol import ParlorError, quote
from engine.registry import get_game
from tui.game.opponents import room_brains

NO_CLOCK_SECONDS = 30.0
"""Longest a brain thinks on one move in a room without a clock (its own budget, when it
has a time limit, is used as is)."""


class BrainSeatError(ParlorError):
    """A brain a room cannot have."""




def check_brain(spec: str, game_id: str) -> str:
    """``spec`` normalised if a room of ``game_id`` may have it in a seat;
    BrainSeatError (one line) otherwise."""
    norm = str(spec).strip().lower()
    game = get_game(game_id).id
    if norm not in room_brains(game):
        raise BrainSeatError(f"{quote(spec)} is not an opponent rooms offer for {game} "
                             "(choose one of the list, e.g. level:3)")
    try:
        registry.check_spec(norm, game)
    except ValueError as exc:
        raise BrainSeatError(str(exc)[:200]) from None
    return norm


def warm(game_id: str) -> bool:
    """Import what a search needs (run once in a fresh worker so a brain's first move
    does not pay for it on its clock)."""
    get_game(game_id)
    registry.available_brains()
    return True


def choose_move(game_id: str, options: dict[str, str], moves: list[str], spec: str,
                seed: int, seconds: float | None) -> str:
    """The move ``spec`` plays after ``moves`` in a game of ``game_id``, in notation.

    Runs in a worker process: the position is rebuilt from the move texts and a brain
    built for this one move (so no state is shared between rooms), thinking for
    ``seconds`` (on a clock) or within its own budget, at most :data:`NO_CLOCK_SECONDS`.
    """
    state = get_game(game_id).initial(**options)
    for text in moves:
        state = state.play_text(text)
    brain = registry.make_brain(spec, game_id, seed=seed)
    if seconds is not None:
        budget = Budget(seconds=max(0.0, seconds))
    else:
        budget = brain.default_budget()
        if budget.seconds is None or not math.isfinite(budget.seconds) \
                or budget.seconds > NO_CLOCK_SECONDS:
            budget = Budget(seconds=NO_CLOCK_SECONDS, depth=budget.depth, nodes=budget.nodes)
    best = None
    for thought in brain.think(state, budget.start()):
        best = thought
    move = best.move if best is not None else brain.choose(state, Budget(depth=1))
    return state.format_move(move)
