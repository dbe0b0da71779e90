"""What the Othello formats share: replaying moves whose passes are left out."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

from engine.games.reversi import PASS, ReversiState, geometry
from engine.protocol import AnyState, ParlorError, RecordError

if TYPE_CHECKING:
    from engine.record import GameRecord


@functools.cache
def standard_start() -> ReversiState:
    """The standard 8×8 start (made once: states never change, and a database of
    thousands of games would otherwise build it thousands of times)."""
    from engine.registry import new_game

    state = new_game("reversi")
    assert isinstance(state, ReversiState)
    return state


def play_implicit(state: AnyState, text: str, moves: list[str], where: str) -> AnyState:
    """Play the move ``text`` (a square name or ``pass``) from the Reversi ``state``,
    first inserting the pass the side to move must make when it has no placement
    (transcripts, GGF and WTHOR leave passes out); ``moves`` gets the texts played;
    RecordError (prefixed ``where``) when the move is not legal.

    A placement is tried directly (``play`` checks that it flips a disc, which is all a
    legal placement needs), so long databases replay without listing every position's
    moves; only a refused placement asks whether a pass comes first.
    """
    assert isinstance(state, ReversiState), "the Othello formats hold Reversi games only"
    move = PASS if text == "pass" else geometry(state.size).index.get(text)
    if move is not None:
        try:
            child = state.play(move)
        except ParlorError:
            pass
        else:
            moves.append(text)
            return child
        if move != PASS and state.legal_moves() == (PASS,):
            moves.append("pass")
            return play_implicit(state.play(PASS), text, moves, where)
    try:
        state.parse_move(text)  # the engine's own words for what is wrong
    except ParlorError as exc:
        raise RecordError(f"{where}: move {len(moves) + 1}: {exc}") from None
    raise RecordError(f"{where}: move {len(moves) + 1}: illegal move {text!r}")


def finish(rec: GameRecord, state: AnyState) -> None:
    """Set ``rec``'s result and termination from the final position when it is over."""
    outcome = state.outcome()
    if outcome is not None:
        rec.result = outcome.result.value
        rec.termination = "normal"
    elif rec.result != "*":
        rec.termination = "recorded"


def placements(rec: GameRecord) -> list[str]:
    """The record's moves without its passes (which the formats leave implicit)."""
    return [m for m in rec.moves if m != "pass"]
