"""English checkers knowledge: two evaluations, their features and the time hooks.

Every value is from the side to move's view. ``material`` counts pieces only
(men 1, kings 1.5). ``improved`` adds positional terms: men 5, kings 7.5,
+0.8 for a man still on its own back row, +0.5 for a piece in the centre (rows 4-5,
files c-f: squares 14 15 18 19), +0.1 for one on the sides of the centre (13 16 17 20),
-0.6 for a piece the opponent could capture if it were its move, +0.6 for a piece that
cannot be jumped as the board stands (each of its two diagonals ends at the board's
edge or at one of its own pieces on one side). Both are divided by the largest value
one side can reach, so they lie in [-1, 1].
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.games.checkers import CROWN, VALID, CheckersState, is_capture, mask_of, squares_of
from engine.protocol import AnyState

BACK_ROW = (CROWN[1], CROWN[0])
"""Each player's own back row: Black's 1-4 (White crowns there), White's 29-32."""
CENTRE = mask_of((14, 15, 18, 19))
"""Rows 4-5, files c-f."""
CENTRE_SIDES = mask_of((13, 16, 17, 20))
"""Rows 4-5, files a-b and g-h."""
_OFF = ((1 << 45) - 1) & ~VALID
"""Ghost bits and the bits just past the board: off-board for the protection test."""

MAN, KING = 5.0, 7.5
BACK_BONUS, CENTRE_BONUS, SIDE_BONUS = 0.8, 0.5, 0.1
ATTACKED, PROTECTED = -0.6, 0.6
_IMPROVED_SCALE = 12 * (KING + CENTRE_BONUS + PROTECTED)
"""The most one side can score with ``improved`` (twelve protected centre kings)."""
CENTRE_TIME_FACTOR = 1.3
"""130 % of the average time when two or more own pieces hold the centre."""

FEATURE_NAMES = (
    "men", "kings", "back_row", "centre", "centre_sides", "attacked", "protected",
    "opp_men", "opp_kings", "opp_back_row", "opp_centre", "opp_centre_sides",
    "opp_attacked", "opp_protected", "no_progress",
)
"""Feature names: the side to move's counts (each over 12), then the opponent's, then
the no-progress counter over the 40-move limit."""


def _sides(state: AnyState) -> tuple[int, int]:
    """(own, opponent) bitboards of a checkers state."""
    assert isinstance(state, CheckersState)
    s = state
    return (s.white, s.black) if s.to_move else (s.black, s.white)


def protected_mask(own: int) -> int:
    """Pieces of ``own`` that no jump can take as the board stands.

    A jump needs, on one diagonal, an attacker on one side and an empty square on the
    other; a piece whose every diagonal is closed on at least one side by the board's
    edge or by a piece of its own colour cannot be jumped.
    """
    closed = own | _OFF
    line4 = closed >> 4 | (closed << 4 | 0xF)
    line5 = closed >> 5 | (closed << 5 | 0x1F)
    return own & line4 & line5


def _side_terms(state: CheckersState, player: int, pieces: int) -> tuple[int, ...]:
    """(men, kings, back-row men, centre, centre sides, attacked, protected) counts."""
    kings = pieces & state.kings
    men = pieces ^ kings
    return (men.bit_count(), kings.bit_count(), (men & BACK_ROW[player]).bit_count(),
            (pieces & CENTRE).bit_count(), (pieces & CENTRE_SIDES).bit_count(),
            state.attacked(player).bit_count(), protected_mask(pieces).bit_count())


def material(state: AnyState) -> float:
    """Men 1, kings 1.5: own minus the opponent's, over 18 (the most one side can have)."""
    assert isinstance(state, CheckersState)
    s = state
    own, opp = _sides(s)
    k = s.kings
    return ((own.bit_count() - opp.bit_count())
            + 0.5 * ((own & k).bit_count() - (opp & k).bit_count())) / 18.0


def _improved_side(terms: tuple[int, ...]) -> float:
    men, kings, back, centre, sides, attacked, protected = terms
    return (MAN * men + KING * kings + BACK_BONUS * back + CENTRE_BONUS * centre
            + SIDE_BONUS * sides + ATTACKED * attacked + PROTECTED * protected)


def improved(state: AnyState) -> float:
    """Material plus the positional terms of the module docstring, in [-1, 1]."""
    assert isinstance(state, CheckersState)
    s = state
    me = s.to_move
    own, opp = _sides(s)
    value = (_improved_side(_side_terms(s, me, own))
             - _improved_side(_side_terms(s, 1 - me, opp))) / _IMPROVED_SCALE
    return max(-1.0, min(1.0, value))


def features(state: AnyState) -> list[float]:
    """The :data:`FEATURE_NAMES` values of ``state``, side to move first."""
    assert isinstance(state, CheckersState)
    s = state
    me = s.to_move
    own, opp = _sides(s)
    out = [n / 12.0 for n in _side_terms(s, me, own) + _side_terms(s, 1 - me, opp)]
    out.append(s.quiet / 80.0)
    return out


HEURISTICS: dict[str, Callable[[AnyState], float]] = {
    "improved": improved,
    "material": material,
}
"""Every checkers heuristic, by name."""
DEFAULT = "improved"


# --------------------------------------------------------------------------- time hooks


def attacked_pieces(state: AnyState) -> tuple[int, ...]:
    """Squares of the side to move's pieces that the opponent could capture now
    (if it were the opponent's move; multi-jump victims included)."""
    assert isinstance(state, CheckersState)
    s = state
    return squares_of(s.attacked(s.to_move))


def escape_moves(state: AnyState) -> tuple[tuple[int, ...], ...]:
    """The legal moves after which the opponent has no capture."""
    assert isinstance(state, CheckersState)
    s = state
    me = s.to_move
    return tuple(m for m in s.legal_moves() if not s.play(m).attacked(me))


def longest_captures(state: AnyState) -> tuple[tuple[int, ...], ...]:
    """The capture moves that jump the most pieces (empty when no capture is on)."""
    moves = state.legal_moves()
    if not moves or not is_capture(moves[0]):
        return ()
    most = max(len(m) for m in moves)
    return tuple(m for m in moves if len(m) == most)


def time_factor(state: AnyState) -> float:
    """The game's time factor for :mod:`brains.timeman`: 1.3 when two or more own pieces
    hold the centre, else 1."""
    own, _ = _sides(state)
    return CENTRE_TIME_FACTOR if (own & CENTRE).bit_count() >= 2 else 1.0


def moves_left(state: AnyState) -> float:
    """Moves the side to move may still expect to play: fewer as material comes off."""
    own, opp = _sides(state)
    return 8.0 + 1.5 * (own | opp).bit_count()


# --------------------------------------------------------------------------- tuning
# The parts every game module declares (schema: brains/heuristics/__init__.py).

MINIMAX_DEPTHS = (2, 4, 6)
"""Plain minimax depth at easy / medium / hard."""
ALPHABETA_DEPTHS = (3, 6)
"""Alpha-beta depth at easy / medium (hard is timed)."""
GAME_CLOCK = 80.0
"""Seconds ``alphabeta:hard`` may think over a whole game."""
TRAPS = False
"""Alpha-beta prefers, among moves of equal proven value, the one most likely to make the
opponent err."""
REPETITION = True
"""Positions can recur: alpha-beta scores a repetition as a draw."""
ENDGAME = False
"""``alphabeta:hard`` asks the ``outcomes`` of ``EXACT`` which moves keep the best outcome."""
PERFECT: dict[str, Any] | None = None
"""The ``perfect`` brain's options here (None: it does not play this game)."""
OPENING_PLIES = 4
"""Random plies the arena plays before the brains take over."""
LEARNED: dict[str, dict[str, Any]] = {
    "linear": {"games": 4000},
    "mlp": {"games": 200, "network": {
        "hidden": (32,), "nets": 1, "depth": 4, "child_depth": 3, "mix": 0.0, "eps": 0.15,
        "iters": 300, "mixed": True, "inputs": ("features",), "skip": True, "rounds": 2}},
}
"""Training recipes of the generic learners (see brains.learned.linear and .mlp)."""
LADDER: tuple[str, ...] = (
    "alphabeta,depth=1,temperature=0.02,repetition=true,seconds=none",
    "alphabeta,depth=1,temperature=0.006,repetition=true,seconds=none",
    "alphabeta,depth=1,repetition=true,seconds=none",
    "alphabeta,depth=2,temperature=0.004,repetition=true,seconds=none",
    "alphabeta,depth=3,repetition=true,seconds=none",
    "alphabeta,depth=4,repetition=true,seconds=none",
    "alphabeta,depth=6,repetition=true,seconds=none",
    "alphabeta,depth=8,repetition=true,seconds=none",
)
"""The rated levels, weakest first (see brains.ladder; ratings: saved/ratings/checkers.json)."""
