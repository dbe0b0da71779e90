"""Five Men's Morris knowledge: mill and block bonuses, material, mobility.

Everything is from the side to move's view. The ``table`` brain scores each candidate
move as the learned value of the resulting board, +200 if the move closes a mill and
+100 if it blocks an opponent's two-in-a-line; :func:`closes_mill`, :func:`blocks_two`
and :func:`move_bonus` give it those bonuses. The ``mills`` heuristic turns the same
ideas into a position evaluation: material and mobility, plus own mills, own open
two-in-a-lines (a mill one piece away) and opponent two-in-a-lines we block. The block
test looks at the board before the move: after it, the moved-to point is no longer
empty, so a test there would never find the two it blocks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from brains.exact import (
    BuildOptions,
    Exact,
    ExactSolver,
    PositionSolver,
    Say,
    Solved,
    SolveOptions,
    cut,
)
from brains.protocol import Budget
from engine.games.morris import ADJACENT, MILL_MASKS, MorrisState, completes_mill
from engine.protocol import AnyState

if TYPE_CHECKING:
    from brains.morrisdb import Value

MILL_BONUS = 200
"""Bonus for a move that closes a mill."""
BLOCK_BONUS = 100
"""Bonus for a move that blocks an opponent's two-in-a-line."""

_ADJ_MASK = tuple(sum(1 << q for q in ADJACENT[p]) for p in range(16))
_MILLS_AT = tuple(tuple(m for m in MILL_MASKS if m >> p & 1) for p in range(16))
_FULL = 0xFFFF

FEATURE_NAMES: tuple[str, ...] = (
    "material", "own_pieces", "opp_pieces", "own_mobility", "opp_mobility",
    "own_mills", "opp_mills", "own_twos", "opp_twos", "own_blocks", "opp_blocks",
    "own_placing", "opp_placing", "own_flying", "opp_flying",
)
"""Names of :func:`features`, side to move (``own``) first; each scaled to about [0, 1]
(``material`` to [-1, 1]): pieces / 5, mobility / 16, mills / 2, twos and blocks / 4."""


def _sides(state: AnyState) -> tuple[int, int, int, int]:
    """(own pieces, opponent pieces, own in hand, opponent in hand)."""
    assert isinstance(state, MorrisState)
    me = state.to_move
    return (state.pieces(me), state.pieces(me ^ 1), state.in_hand(me), state.in_hand(me ^ 1))


def _mobility(own: int, empty: int, hand: int) -> int:
    """Movement options: empty points reachable by one step from own pieces, or every
    empty point for a flying player (three on board, none in hand).

    A placing player is counted by its pieces' steps, as it will move them later.
    """
    if not hand and own.bit_count() == 3:
        return empty.bit_count()
    total = 0
    p = 0
    bits = own
    while bits:
        if bits & 1:
            total += (_ADJ_MASK[p] & empty).bit_count()
        bits >>= 1
        p += 1
    return total


def _lines(own: int, opp: int) -> tuple[int, int, int, int, int, int]:
    """Mills, open twos (two + empty) and blocks (their two + our one), own then theirs."""
    own_mills = opp_mills = own_twos = opp_twos = own_blocks = opp_blocks = 0
    for mask in MILL_MASKS:
        mine = (own & mask).bit_count()
        theirs = (opp & mask).bit_count()
        if mine == 3:
            own_mills += 1
        elif theirs == 3:
            opp_mills += 1
        elif mine == 2:
            if theirs:
                opp_blocks += 1
            else:
                own_twos += 1
        elif theirs == 2:
            if mine:
                own_blocks += 1
            else:
                opp_twos += 1
    return own_mills, opp_mills, own_twos, opp_twos, own_blocks, opp_blocks


def material(state: AnyState) -> float:
    """(Own pieces on board + in hand − the opponent's) / 5."""
    own, opp, own_hand, opp_hand = _sides(state)
    return (own.bit_count() + own_hand - opp.bit_count() - opp_hand) / 5


def mobility(state: AnyState) -> float:
    """(Own − opponent movement options) / (their sum); 0 when neither can move."""
    own, opp, own_hand, opp_hand = _sides(state)
    empty = _FULL & ~(own | opp)
    mine = _mobility(own, empty, own_hand)
    theirs = _mobility(opp, empty, opp_hand)
    total = mine + theirs
    return (mine - theirs) / total if total else 0.0


def mills(state: AnyState) -> float:
    """The mill and block ideas as a position evaluation (the default).

    0.5 material + 0.1 mobility + 0.15 (mills difference / 2) + 0.15 (open twos
    difference / 4) + 0.1 (blocks difference / 4), each term clipped to [-1, 1]. The
    mobility term here is damped, (own − theirs) / (own + theirs + 4), so that a few
    steps either way early in the game do not outweigh a mill.
    """
    own, opp, own_hand, opp_hand = _sides(state)
    empty = _FULL & ~(own | opp)
    mine = _mobility(own, empty, own_hand)
    theirs = _mobility(opp, empty, opp_hand)
    om, pm, ot, pt, ob, pb = _lines(own, opp)
    value = (0.5 * (own.bit_count() + own_hand - opp.bit_count() - opp_hand) / 5
             + 0.1 * (mine - theirs) / (mine + theirs + 4)
             + 0.15 * (om - pm) / 2
             + 0.15 * max(-1.0, min(1.0, (ot - pt) / 4))
             + 0.1 * max(-1.0, min(1.0, (ob - pb) / 4)))
    return max(-1.0, min(1.0, value))


def features(state: AnyState) -> list[float]:
    """The :data:`FEATURE_NAMES` values of ``state`` from the side to move's view."""
    own, opp, own_hand, opp_hand = _sides(state)
    empty = _FULL & ~(own | opp)
    own_total = own.bit_count() + own_hand
    opp_total = opp.bit_count() + opp_hand
    om, pm, ot, pt, ob, pb = _lines(own, opp)
    return [
        (own_total - opp_total) / 5, own_total / 5, opp_total / 5,
        _mobility(own, empty, own_hand) / 16, _mobility(opp, empty, opp_hand) / 16,
        om / 2, pm / 2, ot / 4, pt / 4, ob / 4, pb / 4,
        float(own_hand > 0), float(opp_hand > 0),
        float(not own_hand and own.bit_count() == 3),
        float(not opp_hand and opp.bit_count() == 3),
    ]


HEURISTICS: dict[str, Callable[[AnyState], float]] = {
    "material": material,
    "mobility": mobility,
    "mills": mills,
}
"""The Morris evaluations by name, each in [-1, 1] from the side to move's view."""
DEFAULT = "mills"
"""The heuristic used when none is named."""


def closes_mill(state: AnyState, move: Any) -> bool:
    """True if ``move`` (legal in ``state``) completes a mill of the side to move."""
    assert isinstance(state, MorrisState)
    frm, to, _ = move
    own = state.pieces(state.to_move)
    if frm is not None:
        own &= ~(1 << frm)
    return completes_mill(own | 1 << to, to)


def blocks_two(state: AnyState, move: Any) -> bool:
    """True if ``move`` puts a piece on the empty third point of an opponent's two."""
    assert isinstance(state, MorrisState)
    to = move[1]
    opp = state.pieces(state.to_move ^ 1)
    return any((opp & m).bit_count() == 2 for m in _MILLS_AT[to])


def move_bonus(state: AnyState, move: Any) -> int:
    """The move bonus: +200 for closing a mill, +100 for blocking a two."""
    return (MILL_BONUS if closes_mill(state, move) else 0) + (
        BLOCK_BONUS if blocks_two(state, move) else 0)


# --------------------------------------------------------------------------- tuning
# The parts every game module declares (schema: brains/heuristics/__init__.py).

MINIMAX_DEPTHS = (2, 3, 4)
"""Plain minimax depth at easy / medium / hard."""
ALPHABETA_DEPTHS = (2, 5)
"""Alpha-beta depth at easy / medium (hard is timed)."""
GAME_CLOCK = 60.0
"""Seconds ``alphabeta:hard`` may think over a whole game."""
TRAPS = False
"""Alpha-beta prefers, among moves of equal proven value, the one most likely to make the
opponent err."""
REPETITION = True
"""Positions can recur: alpha-beta scores a repetition as a draw."""
ENDGAME = False
"""``alphabeta:hard`` asks the ``outcomes`` of ``EXACT`` which moves keep the best outcome."""
PERFECT: dict[str, Any] | None = {"method": "morrisdb", "teacher": True}
"""The ``perfect`` brain's options here (None: it does not play this game)."""
OPENING_PLIES = 2
"""Random plies the arena plays before the brains take over."""
LEARNED: dict[str, dict[str, Any]] = {
    "linear": {"games": 2000, "rate": 0.5},  # the default 0.1 step left it drawing
    "mlp": {"games": 300, "network": {
        "hidden": (64,), "nets": 1, "depth": 2, "mix": 0.2, "eps": 0.2, "iters": 120,
        "phases": True, "children": True, "mixed": True,
        "inputs": ("encode", "features", "heuristic"), "residual": 0.9}},
}
"""Training recipes of the generic learners (see brains.learned.linear and .mlp)."""
LADDER: tuple[str, ...] = (
    "alphabeta,depth=1,temperature=0.3,repetition=true,seconds=none",
    "alphabeta,depth=1,temperature=0.1,repetition=true,seconds=none",
    "alphabeta,depth=1,temperature=0.03,repetition=true,seconds=none",
    "alphabeta,depth=1,temperature=0.01,repetition=true,seconds=none",
    "alphabeta,depth=2,repetition=true,seconds=none",
    "alphabeta,depth=3,repetition=true,seconds=none",
    "alphabeta,depth=4,repetition=true,seconds=none",
    "alphabeta,depth=6,nodes=20000,repetition=true,seconds=none",
)
"""The rated levels, weakest first (see brains.ladder; ratings: saved/ratings/morris.json)."""


# --------------------------------------------------------------------------- exact solver


def morris_score(value: Value) -> float:
    """A Morris database value (``win``/``loss`` in N plies, ``draw``) as a search score:
    a win in N is ``WIN - N * EPS`` (faster is better), a loss its negation."""
    from brains.minimax import EPS, WIN

    if value.result == "draw" or value.plies is None:
        return 0.0
    score: float = WIN - EPS * value.plies
    return score if value.result == "win" else -score


def oracle(state: AnyState, budget: Budget, cache: dict[str, Any]) -> dict[Any, Exact] | None:
    """Five Men's Morris from its database (docs/MORRIS.md): every move's exact value
    (None when the database cannot be opened; the analysis then searches)."""
    from brains.morrisdb import MorrisDBError, shared

    assert isinstance(state, MorrisState)
    try:
        values = shared().move_values(state)
    except MorrisDBError:
        return None
    return {m: Exact.of(v.result, v.plies) for m, v in values.items()}


class MorrisSolver(ExactSolver):
    """Five Men's Morris from its retrograde database (:mod:`brains.morrisdb`,
    docs/MORRIS.md). As the ``perfect`` brain's method: fastest win, slowest loss; the
    game's ``PERFECT`` options make it a teacher (``teacher``, :mod:`brains.perfect`), so
    among drawing moves it sets traps. The database ignores the 100-ply and repetition
    draws (the game is a draw from the start either way)."""

    method = "morrisdb"
    solves = True
    build_flag = "--build"

    def position_of(self, line: str) -> str | None:
        return line.strip()  # a blank line is the start

    def solver(self, options: SolveOptions, say: Say) -> PositionSolver:
        """One line per position (its moves from the start): ``MOVES: VALUE; MOVE VALUE,
        …`` (best moves first), values from the side to move's view, ignoring the
        100-ply and repetition draws. A MorrisDBError where the database cannot be used."""
        from brains.morrisdb import MorrisDBError, shared
        from engine.protocol import ParlorError
        from engine.registry import new_game

        db = shared()

        def solve(moves: str) -> Solved:
            shown = cut(" ".join(moves.split())) or "start"
            try:
                state = new_game(MorrisState.GAME).play_line(moves)
                assert isinstance(state, MorrisState)
                value = db.value(state)
                values = db.move_values(state)
            except (ParlorError, MorrisDBError) as exc:
                return Solved(f"{shown} error: {exc}", failed=True)
            ranked = sorted(values.items(), key=lambda mv: mv[1].rank, reverse=True)
            listed = ", ".join(f"{state.format_move(m)} {v}" for m, v in ranked)
            return Solved(f"{shown}: {value}" + (f"; {listed}" if listed else ""))

        return solve

    def build(self, options: BuildOptions, say: Say) -> tuple[int, str]:
        """Solve the game and write the database (``python -m brains.morrisdb build``)."""
        from brains.morrisdb.__main__ import main as morrisdb

        return morrisdb(["build"]), ""

    def values(self, state: AnyState, budget: Budget,
               cache: dict[str, Any]) -> dict[Any, Exact] | None:
        return oracle(state, budget, cache)

    def scores(self, brain: Any, state: AnyState, budget: Budget) -> dict[Any, float]:
        from brains.morrisdb import shared

        assert isinstance(state, MorrisState)
        return {m: morris_score(v) for m, v in shared().move_values(state).items()}


EXACT = MorrisSolver()
"""The exact hook (brains.exact): analysis, hints, ``perfect`` and ``parlor solve``."""


# --------------------------------------------------------------------------- puzzles

PUZZLE_MAX_NO_REMOVAL = 40
"""Puzzles come from positions at most this many plies after the last removal (the
database ignores the 100-ply draw, so a puzzle keeps well clear of it)."""


_RING_SWAP = ("a5 b4", "c5 c4", "e5 d4", "a3 b3", "e3 d3", "a1 b2", "c1 c2", "e1 d2")
"""The outer and inner squares swapped: a symmetry too (the squares are joined only at
their midpoints, and each square's sides are its mills)."""


def _point_symmetries() -> tuple[tuple[int, ...], ...]:
    """The board's sixteen symmetries as permutations of the 16 points: the eight of the
    square (:data:`engine.symmetry.TRANSFORMS`; the points sit on a 5 x 5 grid, ``a5``
    its top left corner), each with or without the swap of the two squares. Checked
    against the adjacency and the mills."""
    from engine.games.morris import ADJACENT, MILL_MASKS, POINT_INDEX, POINTS
    from engine.symmetry import TRANSFORMS

    cell_of = [(5 - int(name[1]), "abcde".index(name[0])) for name in POINTS]
    point_at = {cell: p for p, cell in enumerate(cell_of)}
    square = [tuple(point_at[transform(r, c, 5)] for r, c in cell_of)
              for transform in TRANSFORMS]
    swap = list(range(16))
    for pair in _RING_SWAP:
        a, b = (POINT_INDEX[name] for name in pair.split())
        swap[a], swap[b] = b, a
    out = [*square, *(tuple(perm[swap[p]] for p in range(16)) for perm in square)]
    mills = set(MILL_MASKS)
    for perm in out:
        assert all({perm[q] for q in ADJACENT[p]} == set(ADJACENT[perm[p]]) for p in range(16))
        assert {sum(1 << perm[p] for p in range(16) if m >> p & 1) for m in mills} == mills
    return tuple(out)


def _permute(bits: int, perm: tuple[int, ...]) -> int:
    """``bits`` with bit ``i`` moved to bit ``perm[i]``."""
    return sum(1 << perm[i] for i in range(len(perm)) if bits >> i & 1)


_POINT_SYMMETRIES: tuple[tuple[int, ...], ...] = ()


def canonical_key(state: AnyState) -> tuple[int, ...]:
    """The same key for a position and its symmetric images (rotations, reflections,
    the squares swapped): the smallest of the transformed (White, Black) bitboards,
    then hands and the side to move (the plies since the last removal do not count: the
    database's values ignore them)."""
    global _POINT_SYMMETRIES
    assert isinstance(state, MorrisState)
    if not _POINT_SYMMETRIES:
        _POINT_SYMMETRIES = _point_symmetries()
    white, black = state.pieces(0), state.pieces(1)
    w, b = min((_permute(white, p), _permute(black, p)) for p in _POINT_SYMMETRIES)
    return w, b, state.in_hand(0), state.in_hand(1), state.to_move


def puzzle_ready(state: AnyState) -> bool:
    """Positions the database values exactly under the rules: well before the 100-ply
    draw (a puzzle is set up from its position text, so no earlier repetition counts)."""
    assert isinstance(state, MorrisState)
    return state.no_removal <= PUZZLE_MAX_NO_REMOVAL
