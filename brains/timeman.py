"""Per-move time management for a game clock.

The base allotment is the time left on the brain's clock divided by the moves it still
expects to play, plus a small constant (``remaining / moves + 0.05 s``). It is then
scaled by how critical the position is, the first rule that applies deciding:

- a single legal move is played at once (no time);
- a piece is attacked but can escape: 180 % (some of our moves let the opponent capture,
  others do not);
- a piece will be lost whatever we do: 150 % (every move lets the opponent capture);
- otherwise a game may supply its own factor (checkers gives 130 % when two or more
  pieces hold the centre) through its heuristics module's optional ``time_factor(state)``.

Captures are recognised from the notation alone (docs/RULES.md writes every capture with
an ``x``: ``15x24``, ``b4xe3``), so no game is special-cased here. A heuristics module may
also define ``moves_left(state)``, the moves the side to move still expects to play;
otherwise ``DEFAULT_MOVES_LEFT`` is used. No move is allotted more than ``SAFETY * max_seconds``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from brains.heuristics import game_module
from engine.protocol import AnyState

MARGIN = 0.05
"""Seconds added to every allotment."""
ATTACKED_CAN_ESCAPE = 1.8
PIECE_WILL_BE_LOST = 1.5
SAFETY = 0.85
"""Share of ``max_seconds`` a move is allotted at most: the search stops at the next
poll after its deadline, and a loaded machine makes that poll late, so the move as a
whole still stays within ``max_seconds``."""
DEFAULT_MOVES_LEFT = 20.0
MIN_MOVES_LEFT = 4.0


def is_capture(state: AnyState, move: Any) -> bool:
    """True if ``move`` captures, judged from its notation (captures contain ``x``)."""
    return "x" in state.format_move(move)


def threat_factor(state: AnyState) -> float:
    """1.8 if a piece is attacked but can escape, 1.5 if one will be lost, else 1.0."""
    moves = state.legal_moves()
    exposed = 0
    for move in moves:
        child = state.play(move)
        if any(is_capture(child, reply) for reply in child.legal_moves()):
            exposed += 1
    if exposed == 0:
        return 1.0
    return PIECE_WILL_BE_LOST if exposed == len(moves) else ATTACKED_CAN_ESCAPE


class TimeManager:
    """A game clock for one brain: how long to think on each move, and what is left.

    ``clock`` is the brain's thinking time for the whole game in seconds. A position
    with fewer plies than the last one seen starts a new game (the clock is reset).
    """

    def __init__(self, game: str, clock: float, max_seconds: float = 3.0):
        self.clock = float(clock)
        self.max_seconds = float(max_seconds)
        self.used = 0.0
        self._last_ply = -1
        self._moves_left: Callable[[AnyState], float] | None = None
        self._factor: Callable[[AnyState], float] | None = None
        module = game_module(game)
        self._moves_left = getattr(module, "moves_left", None)
        self._factor = getattr(module, "time_factor", None)

    def remaining(self) -> float:
        """Seconds left on the clock."""
        return max(0.0, self.clock - self.used)

    def allot(self, state: AnyState) -> float:
        """Seconds to spend on ``state``'s move (0 for a single legal move)."""
        if state.ply < self._last_ply:
            self.used = 0.0
        self._last_ply = state.ply
        moves = state.legal_moves()
        if len(moves) <= 1:
            return 0.0
        expected = self._moves_left(state) if self._moves_left else DEFAULT_MOVES_LEFT
        base = self.remaining() / max(MIN_MOVES_LEFT, expected) + MARGIN
        factor = threat_factor(state)
        if factor == 1.0 and self._factor is not None:
            factor = self._factor(state)
        return min(SAFETY * self.max_seconds, base * factor)

    def spent(self, state: AnyState, seconds: float) -> None:
        """Charge ``seconds`` of thinking on ``state`` to the clock."""
        self._last_ply = state.ply
        self.used += seconds


RESERVE_SHARE = 0.1
"""Share of the remaining time (at most RESERVE_SECONDS) never planned for: the search
stops at its next poll after the deadline, and a loaded machine makes that poll late."""
RESERVE_SECONDS = 2.0
MAX_SHARE = 0.35
"""Most of the usable time one move may take, however critical the position."""


def clock_allot(state: AnyState, remaining: float, increment: float = 0.0) -> float:
    """Seconds to think on ``state``'s move on a game clock: ``remaining`` seconds left
    for the side to move, ``increment`` added after each of its moves.

    The same rule as :class:`TimeManager` (remaining time over the moves still expected,
    scaled by how critical the position is, nothing for a single legal move), with three
    quarters of the increment added, a reserve kept back and no move taking more than
    ``MAX_SHARE`` of what is usable, so a brain does not lose on time.
    """
    moves = state.legal_moves()
    if len(moves) <= 1 or remaining <= 0:
        return 0.0
    module = game_module(state.GAME)
    moves_left = getattr(module, "moves_left", None)
    expected = moves_left(state) if moves_left else DEFAULT_MOVES_LEFT
    usable = max(0.0, remaining - min(RESERVE_SECONDS, RESERVE_SHARE * remaining))
    base = usable / max(MIN_MOVES_LEFT, expected) + 0.75 * increment
    factor = threat_factor(state)
    time_factor = getattr(module, "time_factor", None)
    if factor == 1.0 and time_factor is not None:
        factor = time_factor(state)
    return max(0.0, min(base * factor, MAX_SHARE * usable + 0.75 * increment))
