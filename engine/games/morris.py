"""Five Men's Morris rules on two 16-bit bitboards (docs/RULES.md, Five Men's Morris).

Points are numbered 0..15 row by row from the top, left to right::

    5  0 ------- 1 ------- 2        a5 ------- c5 ------- e5
       |         |         |        |          |          |
    4  |   3 --- 4 --- 5   |        |    b4 -- c4 -- d4   |
       |   |           |   |        |    |           |    |
    3  6 - 7           8 - 9        a3 - b3          d3 - e3
       |   |           |   |        |    |           |    |
    2  |  10 -- 11 -- 12   |        |    b2 -- c2 -- d2   |
       |         |         |        |          |          |
    1 13 ------ 14 ------ 15        a1 ------- c1 ------- e1

so ``POINTS[p]`` is the name of point ``p`` and bit ``p`` of a bitboard is that point.

A move is a tuple ``(frm, to, removed)`` of point numbers: ``frm`` is None for a
placement, ``removed`` is None unless the move completes a mill. Notation (docs/RULES.md):
``b4`` = ``(None, 3, None)``, ``a5-c5`` = ``(0, 1, None)``, ``b4xe3`` = ``(None, 3, 9)``,
``a5-c5xd2`` = ``(0, 1, 12)``. Legal moves come in a fixed order: by ``frm`` (placements
first), then ``to``, then ``removed``.

The state stores its boards relative to the side to move (``_own`` / ``_opp``), the
pieces each side has in hand, the plies since the last removal and the keys of the
positions since the last irreversible move (a placement or a removal), so threefold
repetition is a membership count. Where two endings coincide, a loss (fewer than three
pieces, then blocked) takes precedence over a draw (threefold repetition, then the
100-ply rule), as checkmate does over the fifty-move rule in chess.
"""

from __future__ import annotations

import re
from typing import Any, Literal, NoReturn

from engine.positions import bad, format_rows, parse_rows, parse_side, split_fields
from engine.protocol import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Outcome,
    PositionError,
    Result,
    State,
)

MorrisMove = tuple[int | None, int, int | None]
"""A morris move: (from point or None for a placement, to point, the point of the piece a
new mill removes or None)."""

POINTS: tuple[str, ...] = ("a5", "c5", "e5", "b4", "c4", "d4", "a3", "b3",
                           "d3", "e3", "b2", "c2", "d2", "a1", "c1", "e1")
"""Point names by number: ``POINTS[3] == "b4"``."""
POINT_INDEX: dict[str, int] = {name: p for p, name in enumerate(POINTS)}
"""Point number by name: ``POINT_INDEX["b4"] == 3``."""

_RINGS = ("a5 c5 e5 e3 e1 c1 a1 a3", "b4 c4 d4 d3 d2 c2 b2 b3")
_SPOKES = ("c5 c4", "a3 b3", "e3 d3", "c1 c2")
_SIDES = ("a5 c5 e5", "e5 e3 e1", "a1 c1 e1", "a5 a3 a1",
          "b4 c4 d4", "d4 d3 d2", "b2 c2 d2", "b4 b3 b2")


def _adjacency() -> tuple[tuple[int, ...], ...]:
    """Neighbours of every point, from the rings and spokes of docs/RULES.md."""
    links: set[tuple[int, int]] = set()
    for ring in _RINGS:
        pts = [POINT_INDEX[n] for n in ring.split()]
        for a, b in zip(pts, pts[1:] + pts[:1], strict=True):
            links |= {(a, b), (b, a)}
    for spoke in _SPOKES:
        a, b = (POINT_INDEX[n] for n in spoke.split())
        links |= {(a, b), (b, a)}
    return tuple(tuple(sorted(b for a, b in links if a == p)) for p in range(16))


ADJACENT: tuple[tuple[int, ...], ...] = _adjacency()
"""``ADJACENT[p]``: the points joined to ``p`` by a line segment, ascending."""
MILLS: tuple[tuple[int, int, int], ...] = tuple(
    (POINT_INDEX[a], POINT_INDEX[b], POINT_INDEX[c])
    for a, b, c in (side.split() for side in _SIDES))
"""The eight mills (sides of the two squares) as point triples."""
MILL_MASKS: tuple[int, ...] = tuple(sum(1 << p for p in mill) for mill in MILLS)
"""The mills as 16-bit masks, in the order of ``MILLS``."""
FULL = 0xFFFF
"""All sixteen points."""
PIECES = 5
"""Pieces each player starts with in hand."""
DRAW_PLIES = 100
"""Consecutive plies without a removal that draw the game."""

_BIT = tuple(1 << p for p in range(16))
_ADJ_MASK = tuple(sum(1 << q for q in ADJACENT[p]) for p in range(16))
# The one or two mills through each point, as a pair (a single mill is repeated).
_MILLS_AT = tuple(
    (lambda ms: (ms[0], ms[-1]))([m for m in MILL_MASKS if m >> p & 1]) for p in range(16))
_LOW = tuple(tuple(p for p in range(8) if m >> p & 1) for m in range(256))
_HIGH = tuple(tuple(p + 8 for p in range(8) if m >> p & 1) for m in range(256))
# _MOVE[frm][to][removed], with index 16 standing for None: shared move tuples.
_MOVE = tuple(
    tuple(tuple((None if f == 16 else f, t, None if r == 16 else r) for r in range(17))
          for t in range(16))
    for f in range(17))
_SYNTAX = re.compile(r"(?:([a-e][1-5])-)?([a-e][1-5])(?:x([a-e][1-5]))?")


def _parsed(match: re.Match[str]) -> MorrisMove | None:
    """(from, to, removed) point indices of a ``_SYNTAX`` match; None if a name is not a
    point of the board."""
    frm, to, removed = match.groups()
    if any(n is not None and n not in POINT_INDEX for n in (frm, to, removed)):
        return None
    return (None if frm is None else POINT_INDEX[frm], POINT_INDEX[to],
            None if removed is None else POINT_INDEX[removed])


ROW_WIDTHS = (3, 3, 4, 3, 3)
"""Points in each row of the board, from the top (the position form's rows)."""
_ROW_SLICES = ((0, 3), (3, 6), (6, 10), (10, 13), (13, 16))

_new = object.__new__

Phase = Literal["placing", "moving", "flying"]


def _points(mask: int) -> tuple[int, ...]:
    """The point numbers set in a 16-bit ``mask``, ascending."""
    return _LOW[mask & 0xFF] + _HIGH[mask >> 8]


def milled(mask: int) -> int:
    """The points of ``mask`` that stand in a mill made of ``mask``'s own points."""
    out = 0
    for m in MILL_MASKS:
        if mask & m == m:
            out |= m
    return out


def removable(opp: int) -> tuple[int, ...]:
    """Points a mill may remove from the pieces ``opp``: those outside mills, else all."""
    return _points(opp & ~milled(opp) or opp)


def completes_mill(own_after: int, to: int) -> bool:
    """True if the piece that just arrived on ``to`` stands in a full line of ``own_after``.

    Such a line is new: ``to`` was empty before the move.
    """
    m1, m2 = _MILLS_AT[to]
    return own_after & m1 == m1 or own_after & m2 == m2


_WHITE_LOSES = Outcome(Result.SECOND_WINS, "fewer than three pieces")
_BLACK_LOSES = Outcome(Result.FIRST_WINS, "fewer than three pieces")
_WHITE_BLOCKED = Outcome(Result.SECOND_WINS, "blocked")
_BLACK_BLOCKED = Outcome(Result.FIRST_WINS, "blocked")
_REPETITION = Outcome(Result.DRAW, "threefold repetition")
_NO_REMOVAL = Outcome(Result.DRAW, "100 plies without removal")


class MorrisState(State[MorrisMove]):
    """A Five Men's Morris position: whose pieces stand where, hands, and draw counters."""

    __slots__ = (
        "_legal",
        "_moves",
        "_opp",
        "_opp_hand",
        "_own",
        "_own_hand",
        "history",
        "no_removal",
        "ply",
        "to_move",
    )
    GAME = "morris"
    PLAYERS = ("White", "Black")
    MOVE_SYNTAX = _SYNTAX
    ENCODING_VERSION = 1

    _own: int
    _opp: int
    _own_hand: int
    _opp_hand: int
    no_removal: int
    """Plies played since the last removal (or since the start)."""
    history: tuple[int, ...]
    """Keys of the earlier positions since the last placement or removal, oldest first."""
    _moves: tuple[MorrisMove, ...] | None
    _legal: frozenset[MorrisMove] | None

    # -- construction ---------------------------------------------------------------
    @classmethod
    def from_board(cls, board: str, to_move: int = 0, in_hand: tuple[int, int] = (0, 0),
                   no_removal: int = 0, ply: int = 0) -> MorrisState:
        """A position set up directly (tests, puzzles, the solver).

        ``board`` has 16 characters in point order (see ``POINTS``): ``W`` white, ``B``
        black, ``.`` or ``-`` empty; ``in_hand`` is (white, black). The history is empty.
        Raises ValueError for a board no game can reach piece-wise.
        """
        text = board.replace(" ", "").upper()
        if len(text) != 16 or set(text) - set("WB.-"):
            raise PositionError(f"morris board {board!r}: need 16 of W, B, '.'")
        white = sum(1 << p for p, c in enumerate(text) if c == "W")
        black = sum(1 << p for p, c in enumerate(text) if c == "B")
        for name, bb, hand in (("White", white, in_hand[0]), ("Black", black, in_hand[1])):
            if not 0 <= hand <= PIECES or bb.bit_count() + hand > PIECES:
                raise PositionError(f"morris board {board!r}: {name} has more than 5 pieces")
        if to_move not in (0, 1):
            raise PositionError(f"morris: to_move must be 0 or 1, not {to_move!r}")
        state = _new(cls)
        state.to_move = to_move
        state._own, state._opp = (black, white) if to_move else (white, black)
        state._own_hand, state._opp_hand = in_hand[::-1] if to_move else in_hand
        state.ply = ply
        state.no_removal = no_removal
        state.history = ()
        state._moves = state._legal = None
        return state

    # -- the protocol ---------------------------------------------------------------
    def legal_moves(self) -> tuple[MorrisMove, ...]:
        moves = self._moves
        if moves is None:
            if (self._own.bit_count() + self._own_hand < 3 or self.no_removal >= DRAW_PLIES
                    or (self.history and self.history.count(self.key()) >= 2)):
                moves = ()
            else:
                moves = self._generate()
            self._moves = moves
        return moves

    def _generate(self) -> tuple[MorrisMove, ...]:
        """Every move by the side to move, ignoring draws and material loss."""
        own = self._own
        opp = self._opp
        empty = FULL & ~(own | opp)
        out: list[MorrisMove] = []
        append = out.append
        victims: tuple[int, ...] | None = None
        if self._own_hand:
            placing = _MOVE[16]
            for t in _points(empty):
                after = own | _BIT[t]
                m1, m2 = _MILLS_AT[t]
                if after & m1 == m1 or after & m2 == m2:
                    if victims is None:
                        victims = removable(opp) or (16,)
                    row = placing[t]
                    out.extend(row[r] for r in victims)
                else:
                    append(placing[t][16])
            return tuple(out)
        flying = own.bit_count() == 3
        for f in _points(own):
            base = own ^ _BIT[f]
            row_f = _MOVE[f]
            for t in _points(empty if flying else _ADJ_MASK[f] & empty):
                after = base | _BIT[t]
                m1, m2 = _MILLS_AT[t]
                if after & m1 == m1 or after & m2 == m2:
                    if victims is None:
                        victims = removable(opp) or (16,)
                    row = row_f[t]
                    out.extend(row[r] for r in victims)
                else:
                    append(row_f[t][16])
        return tuple(out)

    def play(self, move: MorrisMove) -> MorrisState:
        legal = self._legal
        if legal is None:
            legal = self._legal = frozenset(self.legal_moves())
        try:
            known = move in legal
        except TypeError:  # an unhashable value is no move
            known = False
        if not known:
            self._illegal(self._text(move))
        frm, to, removed = move
        child = _new(MorrisState)
        child.to_move = self.to_move ^ 1
        child.ply = self.ply + 1
        opp = self._opp
        if frm is None:
            child._opp = self._own | _BIT[to]
            child._opp_hand = self._own_hand - 1
        else:
            child._opp = self._own ^ _BIT[frm] ^ _BIT[to]
            child._opp_hand = self._own_hand
        if removed is None:
            child._own = opp
            child.no_removal = self.no_removal + 1
            child.history = () if frm is None else (*self.history, self.key())
        else:
            child._own = opp ^ _BIT[removed]
            child.no_removal = 0
            child.history = ()
        child._own_hand = self._opp_hand
        child._moves = child._legal = None
        return child

    def outcome(self) -> Outcome | None:
        if self.legal_moves():
            return None
        black = self.to_move
        if self._own.bit_count() + self._own_hand < 3:
            return _BLACK_LOSES if black else _WHITE_LOSES
        if not self._own_hand and not self._generate():
            return _BLACK_BLOCKED if black else _WHITE_BLOCKED
        if self.history.count(self.key()) >= 2:
            return _REPETITION
        return _NO_REMOVAL

    def key(self) -> int:
        """The position as an int: white bits 0-15, black 16-31, hands, side to move.

        ``white | black << 16 | white_hand << 32 | black_hand << 35 | to_move << 38``.
        """
        if self.to_move:
            return (self._opp | self._own << 16 | self._opp_hand << 32
                    | self._own_hand << 35 | 1 << 38)
        return self._own | self._opp << 16 | self._own_hand << 32 | self._opp_hand << 35

    def encode(self) -> Any:
        """37 floats, side to move first: 16 own points, 16 opponent points, own and
        opponent pieces in hand / 5, own and opponent flying flags, plies since the
        last removal / 100."""
        import numpy as np

        out = np.zeros(37, dtype=np.float32)
        for p in _points(self._own):
            out[p] = 1.0
        for p in _points(self._opp):
            out[16 + p] = 1.0
        out[32] = self._own_hand / PIECES
        out[33] = self._opp_hand / PIECES
        out[34] = self.phase_of(self.to_move) == "flying"
        out[35] = self.phase_of(self.to_move ^ 1) == "flying"
        out[36] = min(self.no_removal, DRAW_PLIES) / DRAW_PLIES
        return out

    def format_move(self, move: MorrisMove) -> str:
        frm, to, removed = move
        text = POINTS[to] if frm is None else f"{POINTS[frm]}-{POINTS[to]}"
        return text if removed is None else f"{text}x{POINTS[removed]}"

    def parse_move(self, text: str) -> MorrisMove:
        """The legal move written ``text`` (``b4``, ``a5-c5``, ``b4xe3``, any case)."""
        norm = text.strip().lower()
        match = _SYNTAX.fullmatch(norm)
        points = None if match is None else _parsed(match)
        if points is None:
            raise InvalidMoveError(f"invalid morris move {text.strip()!r}: expected a "
                                   "point like b4, a move like a5-c5, or b4xe3 / a5-c5xd2")
        frm, to, removed = points
        move = _MOVE[16 if frm is None else frm][to][16 if removed is None else removed]
        if self._legal is None:
            self._legal = frozenset(self.legal_moves())
        if move in self._legal:
            return move
        return self._illegal(text)

    @property
    def options(self) -> dict[str, Any]:
        return {}

    # -- reading the position -------------------------------------------------------
    def piece_at(self, point: int) -> int | None:
        """0 (White), 1 (Black) or None for point number ``point`` (see ``POINTS``)."""
        bit = 1 << point
        if self._own & bit:
            return self.to_move
        if self._opp & bit:
            return self.to_move ^ 1
        return None

    def pieces(self, player: int) -> int:
        """The bitboard (bit p = point p) of ``player``'s pieces on the board."""
        return self._own if player == self.to_move else self._opp

    def in_hand(self, player: int) -> int:
        """How many pieces ``player`` (0 White, 1 Black) still has to place."""
        return self._own_hand if player == self.to_move else self._opp_hand

    def on_board(self, player: int) -> int:
        """How many pieces ``player`` has on the board."""
        return self.pieces(player).bit_count()

    def phase_of(self, player: int) -> Phase:
        """``'placing'`` while ``player`` has pieces in hand, else ``'flying'`` with
        exactly three on the board, else ``'moving'``."""
        if self.in_hand(player):
            return "placing"
        return "flying" if self.on_board(player) == 3 else "moving"

    def board_string(self) -> str:
        """The 16 points in order as ``W`` / ``B`` / ``.`` (the seed's board key)."""
        white, black = self.pieces(0), self.pieces(1)
        return "".join("W" if white >> p & 1 else "B" if black >> p & 1 else "."
                       for p in range(16))

    def to_position(self) -> str:
        """The five rows of points from the top (``w`` White, ``b`` Black, a digit for
        empty points), the side to move, White's and Black's pieces in hand, and the
        plies since the last removal when not 0: ``3/1w1/4/3/3 b 4 5``."""
        board = self.board_string().lower()
        rows = [board[a:b] for a, b in _ROW_SLICES]
        text = f"{format_rows(rows)} {'wb'[self.to_move]} {self.in_hand(0)} {self.in_hand(1)}"
        return f"{text} {self.no_removal}" if self.no_removal else text

    def _text(self, move: Any) -> str:
        """``move`` in notation if it is shaped like a move, else its repr."""
        try:
            return self.format_move(move)
        except (TypeError, ValueError, IndexError):
            return repr(move)

    def _illegal(self, text: str) -> NoReturn:
        """Raise IllegalMoveError for ``text``, with the reason when it is a simple one."""
        if not self.legal_moves():
            super()._illegal(text)
        match = _SYNTAX.fullmatch(text.strip().lower())
        points = None if match is None else _parsed(match)
        reason = "" if points is None else self._why(*points)
        who = self.PLAYERS[self.to_move]
        raise IllegalMoveError(f"illegal move {text.strip()!r} for {who} at ply "
                               f"{self.ply}{': ' + reason if reason else ''}")

    def _why(self, frm: int | None, to: int, removed: int | None) -> str:
        """A short reason why a well-formed move is illegal here ('' if none found)."""
        occupied = self._own | self._opp
        if occupied >> to & 1:
            return f"{POINTS[to]} is occupied"
        if self._own_hand and frm is not None:
            return "pieces in hand must be placed first"
        if not self._own_hand and frm is None:
            return "no pieces left in hand; move a piece"
        if frm is not None:
            if not self._own >> frm & 1:
                return f"no {self.PLAYERS[self.to_move]} piece on {POINTS[frm]}"
            if self._own.bit_count() != 3 and to not in ADJACENT[frm]:
                return f"{POINTS[frm]} is not next to {POINTS[to]}"
        after = (self._own if frm is None else self._own ^ _BIT[frm]) | _BIT[to]
        mill = completes_mill(after, to)
        if mill and removed is None and self._opp:
            return "it closes a mill: add the piece to remove (xPOINT)"
        if not mill and removed is not None:
            return "it closes no mill, so it removes nothing"
        if removed is not None and not self._opp >> removed & 1:
            return f"no opponent piece on {POINTS[removed]}"
        if removed is not None:
            return f"{POINTS[removed]} stands in a mill and other pieces do not"
        return ""

    def __str__(self) -> str:
        glyphs = {ord("A") + p: "W" if c == "W" else "B" if c == "B" else "."
                  for p, c in enumerate(self.board_string())}
        who = self.PLAYERS[self.to_move]
        status = (f"{who} to move; in hand: White {self.in_hand(0)}, "
                  f"Black {self.in_hand(1)}")
        return _TEMPLATE.translate(glyphs) + "\n" + status


_TEMPLATE = "\n".join((
    "5  A ------- B ------- C",
    "   |         |         |",
    "4  |   D --- E --- F   |",
    "   |   |           |   |",
    "3  G - H           I - J",
    "   |   |           |   |",
    "2  |   K --- L --- M   |",
    "   |         |         |",
    "1  N ------- O ------- P",
    "   a   b     c     d   e",
))


class FiveMensMorris(Game):
    """Five Men's Morris: place, move and fly five pieces; mills remove a piece."""

    id = "morris"
    name = "Five Men's Morris"
    description = "16 points, 5 pieces each; three in a line removes a piece"
    rules_summary = (
        "Place your five men, then move them along the lines. Three in\n"
        "a row on a line (a mill) takes one of the other side's men\n"
        "(not one in a mill while others are free). Down to three men,\n"
        "you may fly to any empty point. Fewer than three men, or no\n"
        "move, loses. Draws: a position three times, or 100 plies\n"
        "without a removal."
    )

    def _initial(self) -> MorrisState:
        return MorrisState.from_board("." * 16, 0, (PIECES, PIECES))

    def from_position(self, text: str) -> MorrisState:
        """The position ``3/1w1/4/3/3 b 4 5 [PLIES]`` (see :meth:`MorrisState.to_position`):
        each side has at most five pieces on the board and in hand together, and
        PLIES (plies since the last removal, default 0) is below the 100-ply draw."""
        fields = split_fields(self.id, text, 4, 5,
                              "BOARD SIDE WHITE-IN-HAND BLACK-IN-HAND [PLIES], "
                              "like 3/3/4/3/3 w 5 5")
        rows = parse_rows(self.id, text, fields[0].lower(),
                          lambda n: ROW_WIDTHS if n == len(ROW_WIDTHS) else None, "wb")
        to_move = parse_side(self.id, text, fields[1], ("w", "b"))
        numbers = []
        for name, field, top in (("White's pieces in hand", fields[2], PIECES),
                                 ("Black's pieces in hand", fields[3], PIECES),
                                 ("plies since the last removal",
                                  fields[4] if len(fields) == 5 else "0", DRAW_PLIES)):
            if not field.isdigit() or int(field[:4]) > top:
                raise bad(self.id, text, f"{name} must be a number from 0 to {top}")
            numbers.append(int(field))
        return MorrisState.from_board("".join(rows), to_move, (numbers[0], numbers[1]),
                                      no_removal=numbers[2])
