"""What the Othello formats share: replaying moves whose passes are left out."""

from __future__ import annotations

from engine.games.reversi import PASS
from engine.protocol import ParlorError, RecordError, State


def play_implicit(state: State, text: str, moves: list[str], where: str) -> State:
    """Play the move ``text`` from ``state``, first inserting the pass the side to move
    must make when it has no placement (transcripts, GGF and WTHOR leave passes out);
    ``moves`` gets the texts played; RecordError (prefixed ``where``) when illegal."""
    if text != "pass" and state.legal_moves() == (PASS,):
        state = state.play(PASS)
        moves.append("pass")
    try:
        state = state.play_text(text)
    except ParlorError as exc:
        raise RecordError(f"{where}: move {len(moves) + 1}: {exc}") from None
    moves.append(text)
    return state


def finish(rec, state: State) -> None:
    """Set ``rec``'s result and termination from the final position when it is over."""
    outcome = state.outcome()
    if outcome is not None:
        rec.result = outcome.result.value
        rec.termination = "normal"
    elif rec.result != "*":
        rec.termination = "recorded"


def placements(rec) -> list[str]:
    """The record's moves without its passes (which the formats leave implicit)."""
    return [m for m in rec.moves if m != "pass"]
