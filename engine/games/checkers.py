"""English checkers (draughts) on three Python-int bitboards (docs/RULES.md, English checkers).

Squares are numbered 1..32 in the standard way: Black at the top, four dark squares per
row, left to right and top to bottom (row 1 = squares 1-4 on files b d f h, row 2 =
squares 5-8 on files a c e g, ...). Black's men start on 1-12 and move towards 32;
White's start on 21-32 and move towards 1. Black moves first.

A move is the tuple of squares the piece visits: ``(11, 15)`` for a simple move,
``(15, 24)`` or ``(15, 24, 31)`` for a capture (a move is a capture when it jumps,
whatever its length). Notation is PDN: ``11-15``, ``15x24``, ``15x24x31``.

Internally square ``s`` lives on bit ``(9 * row + file - 1) // 2`` of a 35-bit word
(row 0..7 from the top, file 0..7 from the left): the classic layout with a ghost bit
after every second row, in which every diagonal step is one shift (+4 down-left,
+5 down-right, -4 up-right, -5 up-left) and stepping off the board lands on a ghost
bit or outside the word. ``black``, ``white`` and ``kings`` are such bitboards;
:data:`BIT_OF_SQUARE` / :data:`SQUARE_OF_BIT` translate.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Hashable, Iterable
from enum import Enum
from typing import Any

from engine.protocol import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
    PositionError,
    Result,
    State,
    quote,
)

CheckersMove = tuple[int, ...]
"""A checkers move: the squares the piece stands on, from the first to the last (a step
is two squares, a jump one more square per capture)."""

# --------------------------------------------------------------------------- geometry

SQUARES = range(1, 33)
"""The 32 playable squares."""
FILES = "abcdefgh"


def _row(square: int) -> int:
    """0..7 from Black's side (the top)."""
    return (square - 1) // 4


def _file(square: int) -> int:
    """0..7 from the left (file a)."""
    i = (square - 1) % 4
    return 2 * i + 1 if _row(square) % 2 == 0 else 2 * i


BIT_OF_SQUARE: tuple[int, ...] = (-1, *((9 * _row(s) + _file(s) - 1) // 2 for s in SQUARES))
"""Bit index of each square (index 0 unused)."""
SQUARE_OF_BIT: tuple[int, ...] = tuple(
    BIT_OF_SQUARE.index(b) if b in BIT_OF_SQUARE[1:] else 0 for b in range(35))
"""Square at each bit index, 0 for the three ghost bits."""
MASK_OF_SQUARE: tuple[int, ...] = (0, *(1 << BIT_OF_SQUARE[s] for s in SQUARES))
"""Single-bit mask of each square (index 0 unused)."""
VALID = sum(MASK_OF_SQUARE)
"""Mask of the 32 real squares."""


def mask_of(squares: Iterable[int]) -> int:
    """The bitboard holding ``squares``."""
    out = 0
    for s in squares:
        out |= MASK_OF_SQUARE[s]
    return out


def squares_of(mask: int) -> tuple[int, ...]:
    """The squares set in bitboard ``mask``, ascending."""
    return tuple(SQUARE_OF_BIT[b] for b in range(35) if mask >> b & 1)


ROW_MASKS = tuple(mask_of(range(4 * r + 1, 4 * r + 5)) for r in range(8))
"""Bitboard of each row, 0 (squares 1-4) to 7 (squares 29-32)."""
CROWN = (ROW_MASKS[7], ROW_MASKS[0])
"""Where each player's men are crowned: Black on 29-32, White on 1-4."""
_CROWN_BLACK, _CROWN_WHITE = CROWN
DIRECTIONS = (4, 5, -4, -5)
"""Bit offsets of the diagonal steps: down-left, down-right, up-right, up-left."""
FORWARD = ((4, 5), (-4, -5))
"""The steps a man of each player may take (Black down, White up)."""
NO_PROGRESS_LIMIT = 80
"""Plies without a capture or a man move after which the game is drawn (40-move rule)."""


def _jump_table(dirs: tuple[int, ...]) -> tuple[tuple[tuple[int, int, int, int], ...], ...]:
    """Per bit index: ``(jumped mask, landing mask, landing bit, landing square)``."""
    table = []
    for b in range(35):
        entries = []
        if VALID >> b & 1:
            for d in dirs:
                mid, land = b + d, b + 2 * d
                if 0 <= land < 35 and VALID >> mid & 1 and VALID >> land & 1:
                    entries.append((1 << mid, 1 << land, land, SQUARE_OF_BIT[land]))
        table.append(tuple(entries))
    return tuple(table)


_MAN_JUMPS = (_jump_table(FORWARD[0]), _jump_table(FORWARD[1]))
_KING_JUMPS = _jump_table(DIRECTIONS)

# _STEP_MOVES[d][bit_length of target mask] -> the move tuple (from, to) for step d
_STEP_MOVES: dict[int, tuple[tuple[int, int] | None, ...]] = {
    d: (None, *(
        (SQUARE_OF_BIT[t - d], SQUARE_OF_BIT[t])
        if 0 <= t - d < 35 and VALID >> t & 1 and VALID >> (t - d) & 1 else None
        for t in range(35)))
    for d in DIRECTIONS
}

# (from, to) of every step and single jump -> (from mask, to mask, captured mask)
_PAIR_INFO: dict[tuple[int, ...], tuple[int, int, int]] = {}
for _b in range(35):
    if VALID >> _b & 1:
        for _d in DIRECTIONS:
            if 0 <= _b + _d < 35 and VALID >> (_b + _d) & 1:
                _PAIR_INFO[(SQUARE_OF_BIT[_b], SQUARE_OF_BIT[_b + _d])] = (
                    1 << _b, 1 << (_b + _d), 0)
        for _mid, _land, _lb, _lsq in _KING_JUMPS[_b]:
            _PAIR_INFO[(SQUARE_OF_BIT[_b], _lsq)] = (1 << _b, _land, _mid)
del _b, _d, _mid, _land, _lb, _lsq


def is_capture(move: CheckersMove) -> bool:
    """True when ``move`` jumps (its first hop spans two rows)."""
    return abs(_row(move[0]) - _row(move[1])) == 2


def _path_info(move: CheckersMove) -> tuple[int, int, int] | None:
    """(from mask, to mask, captured mask) of a multi-jump path, None if malformed."""
    cap = 0
    for a, b in itertools.pairwise(move):
        info = _PAIR_INFO.get((a, b))
        if info is None or not info[2]:
            return None
        cap |= info[2]
    return MASK_OF_SQUARE[move[0]], MASK_OF_SQUARE[move[-1]], cap


def _add_jumps(b: int, path: tuple[int, ...], opp: int, empty: int,
               table: tuple[tuple[tuple[int, int, int, int], ...], ...], crown: int,
               out: list[CheckersMove]) -> None:
    """Append every complete jump sequence continuing ``path`` from bit ``b``."""
    extended = False
    for mid, land, lb, lsq in table[b]:
        if opp & mid and empty & land:
            extended = True
            nxt = (*path, lsq)
            if land & crown:  # a man crowned: the move ends here
                out.append(nxt)
            else:
                _add_jumps(lb, nxt, opp ^ mid, empty, table, crown, out)
    if not extended and len(path) > 1:
        out.append(path)


def _jumpers(movers: int, kings: int, opp: int, empty: int, player: int) -> int:
    """Pieces of ``movers`` (``kings`` among them) that can capture now."""
    if player == 0:
        fwd = ((empty >> 4 & opp) >> 4 | (empty >> 5 & opp) >> 5) & movers
        back = ((empty << 4 & opp) << 4 | (empty << 5 & opp) << 5) & kings
    else:
        fwd = ((empty << 4 & opp) << 4 | (empty << 5 & opp) << 5) & movers
        back = ((empty >> 4 & opp) >> 4 | (empty >> 5 & opp) >> 5) & kings
    return fwd | back


# --------------------------------------------------------------------------- pieces


class Piece(Enum):
    """What stands on a square: a man or a king of either colour."""

    BLACK_MAN = "b"
    BLACK_KING = "B"
    WHITE_MAN = "w"
    WHITE_KING = "W"

    @property
    def player(self) -> int:
        """0 for Black, 1 for White."""
        return 0 if self.value in "bB" else 1

    @property
    def king(self) -> bool:
        """True for a king."""
        return self.value.isupper()


_new = object.__new__
_PLAYERS = ("Black", "White")


class CheckersState(State[CheckersMove]):
    """A checkers position: Black's, White's and the kings' bitboards, plus history.

    ``quiet`` counts the plies since the last capture or man move (the 40-move rule)
    and ``history`` holds the keys of the positions since then, oldest first, so
    threefold repetition is a count over a short tuple; ``key()`` leaves both out.
    """

    __slots__ = ("_moves", "black", "history", "kings", "ply", "quiet", "to_move", "white")
    GAME = "checkers"
    PLAYERS = _PLAYERS
    MOVE_SYNTAX = re.compile(r"\d{1,2}(?:-\d{1,2}|(?:x\d{1,2})+)")
    ENCODING_VERSION = 1

    black: int
    """Bitboard of Black's pieces (men and kings)."""
    white: int
    """Bitboard of White's pieces (men and kings)."""
    kings: int
    """Bitboard of the kings of both colours."""
    quiet: int
    """Plies since the last capture or man move."""
    history: tuple[Hashable, ...]
    """Keys of the positions since the last capture or man move, this one excluded."""
    _moves: tuple[CheckersMove, ...] | None

    # -- construction ----------------------------------------------------------------
    @classmethod
    def setup(cls, black: Iterable[int] = (), white: Iterable[int] = (),
              black_kings: Iterable[int] = (), white_kings: Iterable[int] = (),
              to_move: int = 0) -> CheckersState:
        """A position from square lists (for tests, puzzles and analysis).

        ``black``/``white`` are men, ``black_kings``/``white_kings`` kings; ply, the
        no-progress counter and the history start at zero. Raises ValueError for a
        square outside 1..32, a square used twice or a man on its crowning row.
        """
        groups = [tuple(black), tuple(white), tuple(black_kings), tuple(white_kings)]
        seen: list[int] = [s for g in groups for s in g]
        bad = [s for s in seen if not isinstance(s, int) or not 1 <= s <= 32]
        if bad:
            raise PositionError(f"checkers: squares must be 1..32, got {bad}")
        if len(set(seen)) != len(seen):
            raise PositionError(f"checkers: a square is used twice in {seen}")
        if mask_of(groups[0]) & CROWN[0] or mask_of(groups[1]) & CROWN[1]:
            raise PositionError("checkers: a man stands on its crowning row")
        if to_move not in (0, 1):
            raise PositionError(f"checkers: to_move must be 0 or 1, got {to_move!r}")
        state = _new(cls)
        state.black = mask_of(groups[0]) | mask_of(groups[2])
        state.white = mask_of(groups[1]) | mask_of(groups[3])
        state.kings = mask_of(groups[2]) | mask_of(groups[3])
        state.to_move = to_move
        state.ply = state.quiet = 0
        state.history = ()
        state._moves = None
        return state

    # -- the protocol ------------------------------------------------------------------
    def _generate(self) -> tuple[CheckersMove, ...]:
        """The moves the rules of movement allow, ignoring the draw rules."""
        player = self.to_move
        if player:
            me, opp = self.white, self.black
        else:
            me, opp = self.black, self.white
        empty = VALID & ~(me | opp)
        mk = me & self.kings
        jumpers = _jumpers(me, mk, opp, empty, player)
        if jumpers:
            out: list[CheckersMove] = []
            man_table, crown = _MAN_JUMPS[player], CROWN[player]
            while jumpers:
                low = jumpers & -jumpers
                b = low.bit_length() - 1
                if mk & low:
                    _add_jumps(b, (SQUARE_OF_BIT[b],), opp, empty | low, _KING_JUMPS, 0, out)
                else:
                    _add_jumps(b, (SQUARE_OF_BIT[b],), opp, empty | low, man_table, crown, out)
                jumpers ^= low
            return tuple(out)
        moves: list[CheckersMove] = []
        add = moves.append
        if player:
            targets = ((-4, me >> 4 & empty), (-5, me >> 5 & empty),
                       (4, mk << 4 & empty), (5, mk << 5 & empty))
        else:
            targets = ((4, me << 4 & empty), (5, me << 5 & empty),
                       (-4, mk >> 4 & empty), (-5, mk >> 5 & empty))
        for d, t in targets:
            if t:
                table = _STEP_MOVES[d]
                while t:
                    low = t & -t
                    # t holds real target squares only, so the slot is never None
                    add(table[low.bit_length()])  # type: ignore[arg-type]
                    t ^= low
        moves.sort()
        return tuple(moves)

    def legal_moves(self) -> tuple[CheckersMove, ...]:
        moves = self._moves
        if moves is None:
            moves = self._generate()
            if moves and self.quiet >= 8 and (
                    self.quiet >= NO_PROGRESS_LIMIT or self._repeated()):
                moves = ()
            self._moves = moves
        return moves

    def _repeated(self) -> bool:
        """True when this position occurred twice before with the same side to move."""
        return self.history.count(self.key()) >= 2

    def play(self, move: CheckersMove) -> CheckersState:
        moves = self._moves
        if moves is None:
            moves = self.legal_moves()
        if move not in moves:
            self._illegal(self._text(move))
        info = _PAIR_INFO.get(move) or _path_info(move)
        assert info is not None  # a legal move's path is well formed
        fm, tm, cap = info
        kings = self.kings
        child = _new(CheckersState)
        if self.to_move:
            child.white = (self.white & ~fm) | tm
            child.black = self.black & ~cap
            child.to_move = 0
            crown = _CROWN_WHITE
        else:
            child.black = (self.black & ~fm) | tm
            child.white = self.white & ~cap
            child.to_move = 1
            crown = _CROWN_BLACK
        child.ply = self.ply + 1
        child._moves = None
        if kings & fm:
            if cap:
                child.kings = (kings & ~fm & ~cap) | tm
                child.quiet = 0
                child.history = ()
            else:
                child.kings = (kings & ~fm) | tm
                child.quiet = self.quiet + 1
                child.history = (*self.history, self.key())
        else:
            child.kings = (kings & ~cap) | (tm & crown)
            child.quiet = 0
            child.history = ()
        return child

    def outcome(self) -> Outcome | None:
        """None while the game goes on; a loss for the side with no move, or a draw.

        A side left with no legal move loses even on the 80th quiet ply (as checkmate
        beats the fifty-move rule in chess); repetition is checked before the 40-move rule.
        """
        if self.legal_moves():
            return None
        if not self._generate():
            return Outcome(Result.win_for(1 - self.to_move), "no legal moves")
        if self._repeated():
            return Outcome(Result.DRAW, "threefold repetition")
        return Outcome(Result.DRAW, "40-move rule")

    def key(self) -> Hashable:
        return (self.black, self.white, self.kings, self.to_move)

    def encode(self) -> Any:
        """129 floats: own men, own kings, opponent men, opponent kings (32 squares
        each, seen from the side to move, so White's board is turned round), then the
        no-progress counter as a fraction of the 40-move limit."""
        import numpy as np

        out = np.zeros(129, dtype=np.float32)
        own, opp = (self.white, self.black) if self.to_move else (self.black, self.white)
        for s in SQUARES:
            m = MASK_OF_SQUARE[s]
            i = (32 - s) if self.to_move else (s - 1)
            if own & m:
                out[i + (32 if self.kings & m else 0)] = 1.0
            elif opp & m:
                out[64 + i + (32 if self.kings & m else 0)] = 1.0
        out[128] = self.quiet / NO_PROGRESS_LIMIT
        return out

    # -- notation ----------------------------------------------------------------------
    def why_illegal(self, text: str) -> str:
        """Capturing is compulsory: a plain move while a capture is there says so."""
        jumps = [self.format_move(m) for m in self.legal_moves()]
        jumps = [m for m in jumps if "x" in m]
        if jumps and "x" not in text:
            return f"you must capture: {', '.join(jumps[:3])}" + (" …" if len(jumps) > 3 else "")
        return super().why_illegal(text)

    def format_move(self, move: CheckersMove) -> str:
        return ("x" if is_capture(move) else "-").join(map(str, move))

    @staticmethod
    def _text(move: Any) -> str:
        """A best-effort text of a possibly malformed move, for error messages."""
        try:
            return ("x" if is_capture(move) else "-").join(map(str, move))
        except (TypeError, IndexError):
            return repr(move)

    def parse_move(self, text: str) -> CheckersMove:
        """The legal move written ``text`` (``11-15``, ``15x24x31``).

        InvalidMoveError for text that is not a move between squares 1..32;
        IllegalMoveError for a well-formed move that is not legal here (the message
        says when a capture was compulsory).
        """
        norm = text.strip().lower()
        if not self.MOVE_SYNTAX.fullmatch(norm):
            raise InvalidMoveError(f"invalid checkers move {text.strip()!r}")
        move = tuple(int(p) for p in re.split(r"[-x]", norm))
        if not all(1 <= s <= 32 for s in move):
            raise InvalidMoveError(
                f"invalid checkers move {text.strip()!r}: squares are 1 to 32")
        legal = self.legal_moves()
        if move in legal and self.format_move(move) == norm:
            return move
        if legal and "-" in norm and is_capture(legal[0]) and self.outcome() is None:
            raise IllegalMoveError(
                f"illegal move {text.strip()!r} for {self.PLAYERS[self.to_move]} "
                f"at ply {self.ply}: a capture is compulsory")
        return self._illegal(text)

    def to_position(self) -> str:
        """The position as a PDN FEN: the side to move, then White's and Black's pieces,
        kings prefixed ``K``: ``B:W18,24,K10:B12,K3``."""
        def pieces(mask: int) -> str:
            return ",".join(f"K{s}" if MASK_OF_SQUARE[s] & self.kings else str(s)
                            for s in squares_of(mask))

        return f"{'BW'[self.to_move]}:W{pieces(self.white)}:B{pieces(self.black)}"

    # -- views -------------------------------------------------------------------------
    def piece_at(self, square: int) -> Piece | None:
        """The piece on ``square`` (1..32), or None when it is empty."""
        m = MASK_OF_SQUARE[square]
        if self.black & m:
            return Piece.BLACK_KING if self.kings & m else Piece.BLACK_MAN
        if self.white & m:
            return Piece.WHITE_KING if self.kings & m else Piece.WHITE_MAN
        return None

    def pieces(self, player: int) -> tuple[int, ...]:
        """The squares of ``player``'s pieces (0 Black, 1 White), ascending."""
        return squares_of(self.white if player else self.black)

    def attacked(self, player: int) -> int:
        """Bitboard of ``player``'s pieces that the other side could capture now.

        Computed as if it were the other side's turn, over every capture sequence it
        would have (multi-jumps included); used by heuristics and time managers.
        """
        me, opp = (self.white, self.black) if player else (self.black, self.white)
        other = 1 - player
        empty = VALID & ~(me | opp)
        ok = opp & self.kings
        jumpers = _jumpers(opp, ok, me, empty, other)
        if not jumpers:
            return 0
        paths: list[tuple[int, ...]] = []
        while jumpers:
            low = jumpers & -jumpers
            b = low.bit_length() - 1
            table = _KING_JUMPS if ok & low else _MAN_JUMPS[other]
            _add_jumps(b, (SQUARE_OF_BIT[b],), me, empty | low, table,
                       0 if ok & low else CROWN[other], paths)
            jumpers ^= low
        out = 0
        for path in paths:
            for a, b2 in itertools.pairwise(path):
                out |= _PAIR_INFO[(a, b2)][2]
        return out

    def __str__(self) -> str:
        lines = ["   " + " ".join(FILES)]
        for r in range(8):
            cells = [" "] * 8
            for s in range(4 * r + 1, 4 * r + 5):
                p = self.piece_at(s)
                cells[_file(s)] = p.value if p else "."
            lines.append(f"{r + 1}  " + " ".join(cells) + f"   {4 * r + 1}-{4 * r + 4}")
        lines.append(f"{self.PLAYERS[self.to_move]} to move")
        return "\n".join(lines)


class Checkers(Game):
    """English checkers: 8×8, men forward, compulsory captures, kings both ways."""

    id = "checkers"
    name = "English checkers"
    description = "8×8 draughts, Black first, compulsory capture, 40-move rule"
    rules_summary = (
        "Men move one square diagonally forward, kings (crowned on the\n"
        "far row) forward and back. Capturing is compulsory and a\n"
        "capture goes on while it can (multi-jump); any capture may be\n"
        "chosen. No move left loses. Draws: the same position three\n"
        "times, or 40 moves each without a capture or a man's move."
    )

    def _initial(self) -> CheckersState:
        return CheckersState.setup(black=range(1, 13), white=range(21, 33))

    def from_position(self, text: str) -> CheckersState:
        """A PDN FEN: ``B:W18,24,K10:B12,K3`` (side to move, then each colour's squares,
        ``K`` before a king; a range ``1-12`` of men is allowed; a final ``.`` and
        blanks are ignored)."""
        norm = "".join(text.split()).rstrip(".").upper()
        fields = norm.split(":")
        if len(fields) != 3 or fields[0] not in ("B", "W"):
            raise _bad_fen(text, "expected SIDE:WSQUARES:BSQUARES, like B:W21,22,K3:B1,2")
        lists: dict[str, tuple[list[int], list[int]]] = {}
        for field in fields[1:]:
            colour, items = field[:1], field[1:]
            if colour not in ("B", "W"):
                raise _bad_fen(text, f"{field[:10]!r} does not start with W or B")
            if colour in lists:
                raise _bad_fen(text, f"colour {colour} is given twice")
            men: list[int] = []
            kings: list[int] = []
            for item in items.split(",") if items else ():
                m = re.fullmatch(r"(K?)(\d{1,2})(?:-(\d{1,2}))?", item)
                if m is None or (m.group(1) and m.group(3)):
                    raise _bad_fen(text, f"{item[:10]!r} is not a square, K and a square, "
                                         "or a range like 1-12")
                low, high = int(m.group(2)), int(m.group(3) or m.group(2))
                if not 1 <= low <= high <= 32:
                    raise _bad_fen(text, f"{item!r}: squares are 1 to 32")
                (kings if m.group(1) else men).extend(range(low, high + 1))
            lists[colour] = (men, kings)
        (black, black_kings), (white, white_kings) = lists["B"], lists["W"]
        try:
            return CheckersState.setup(black, white, black_kings, white_kings,
                                       to_move=0 if fields[0] == "B" else 1)
        except ValueError as exc:
            raise _bad_fen(text, str(exc).removeprefix("checkers: ")) from None


def _bad_fen(text: str, reason: str) -> PositionError:
    return PositionError(f"checkers: bad FEN {quote(text)}: {reason}")
