"""Reversi (Othello) on Python-int bitboards, with the RandomStart and FlipColor variants.

Implements docs/RULES.md, Reversi, for boards of size ``n`` = 8, 6 or 4.

Squares are numbered ``row * n + column``, where row 0 is rank ``1`` at the **top** and
column 0 is file ``a`` (the Othello convention): on 8×8, a1=0, h1=7, a2=8, … h8=63; on
6×6, a1=0 … f6=35. A move is the square number (an ``int``) where the disc goes, or the
constant :data:`PASS` (notation ``pass``), which is legal only when the side to move has
no placement but the opponent has one. A pass is a real move: it counts as a ply and in
perft.

A state stores the discs of the side to move and of the opponent as two bitmasks, so a
move is the same few integer operations for either colour. Legal placements come from
shift-based flood fills with column masks (Kogge-Stone style, stopping as soon as a ray
runs out); the discs a placement flips come from precomputed rays per square, using the
lowest or highest non-opponent bit on each ray.
"""

from __future__ import annotations

import random
import re
from collections.abc import Hashable
from functools import cache
from typing import Any, NoReturn

from engine.positions import bad, format_rows, parse_rows, parse_side, split_fields
from engine.protocol import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Option,
    Outcome,
    PositionError,
    Result,
    State,
)
from engine.symmetry import dihedral

PASS = 64
"""The pass move (``pass``); no square of any board size has this number."""
SIZES = (8, 6, 4)
"""Board sizes the game offers."""
VARIANTS = ("standard", "randomstart", "flipcolor")
"""Start variants (docs/RULES.md, Reversi › Variants)."""
FILES = "abcdefgh"

_new = object.__new__


class Geometry:
    """Precomputed tables for one board size (shared by every state of that size)."""

    __slots__ = ("full", "index", "inner", "n", "names", "neg_rays", "pos_rays", "syntax")

    def __init__(self, n: int):
        self.n = n
        """Board side."""
        self.full = (1 << n * n) - 1
        """Mask of every square."""
        self.inner = sum(1 << r * n + c for r in range(n) for c in range(1, n - 1))
        """Squares not in the first or last column (stops horizontal wrap-around)."""
        self.names = tuple(f"{FILES[s % n]}{s // n + 1}" for s in range(n * n))
        """Square names by number: ``names[0] == "a1"``."""
        self.index = {name: s for s, name in enumerate(self.names)}
        """Square number by name."""
        self.syntax = re.compile(rf"[a-{FILES[n - 1]}][1-{n}]")
        """Shape of a square name on this board."""
        pos: list[tuple[tuple[int, int], ...]] = []
        neg: list[tuple[tuple[int, int], ...]] = []
        for s in range(n * n):
            r0, c0 = divmod(s, n)
            up: list[tuple[int, int]] = []
            down: list[tuple[int, int]] = []
            for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1),
                           (0, -1), (-1, 1), (-1, 0), (-1, -1)):
                ray, r, c = 0, r0 + dr, c0 + dc
                while 0 <= r < n and 0 <= c < n:
                    ray |= 1 << r * n + c
                    r, c = r + dr, c + dc
                if ray.bit_count() < 2:  # a flip needs an opponent disc and one beyond it
                    continue
                first = 1 << (r0 + dr) * n + c0 + dc
                (up if dr * n + dc > 0 else down).append((first, ray))
            pos.append(tuple(up))
            neg.append(tuple(down))
        self.pos_rays = tuple(pos)
        """Per square: (neighbour bit, ray mask) for directions of increasing index."""
        self.neg_rays = tuple(neg)
        """Per square: (neighbour bit, ray mask) for directions of decreasing index."""

    def mobility(self, me: int, them: int) -> int:
        """Mask of the empty squares where the owner of ``me`` may place a disc."""
        n = self.n
        empty = ~(me | them) & self.full
        inner = them & self.inner
        moves = 0
        n1, n2 = n + 1, n - 1
        t = me << 1 & inner
        while t:
            t <<= 1
            moves |= t & empty
            t &= inner
        t = me >> 1 & inner
        while t:
            t >>= 1
            moves |= t & empty
            t &= inner
        t = me << n & them
        while t:
            t <<= n
            moves |= t & empty
            t &= them
        t = me >> n & them
        while t:
            t >>= n
            moves |= t & empty
            t &= them
        t = me << n1 & inner
        while t:
            t <<= n1
            moves |= t & empty
            t &= inner
        t = me >> n1 & inner
        while t:
            t >>= n1
            moves |= t & empty
            t &= inner
        t = me << n2 & inner
        while t:
            t <<= n2
            moves |= t & empty
            t &= inner
        t = me >> n2 & inner
        while t:
            t >>= n2
            moves |= t & empty
            t &= inner
        return moves

    def flips(self, me: int, them: int, square: int) -> int:
        """Mask of the opponent discs that a disc placed on ``square`` would flip."""
        flips = 0
        for nb, ray in self.pos_rays[square]:
            if them & nb:
                b = ray & ~them
                if b:
                    f = b & -b
                    if f & me:
                        flips |= ray & (f - 1)
        for nb, ray in self.neg_rays[square]:
            if them & nb:
                b = ray & ~them
                if b:
                    f = 1 << b.bit_length() - 1
                    if f & me:
                        flips |= ray & -(f << 1)
        return flips


@cache
def geometry(n: int) -> Geometry:
    """The shared tables for board size ``n`` (built on first use)."""
    return Geometry(n)


def _squares(mask: int) -> tuple[int, ...]:
    """The set bits of ``mask`` in increasing order."""
    out = []
    while mask:
        b = mask & -mask
        out.append(b.bit_length() - 1)
        mask ^= b
    return tuple(out)


class Setup:
    """What a game fixes at its start: board size, options and FlipColor's drawn squares."""

    __slots__ = ("drawn", "geo", "seed", "size", "variant")

    def __init__(self, size: int, variant: str, seed: int, drawn: int = 0):
        self.geo = geometry(size)
        """Tables for this size."""
        self.size = size
        """Board side."""
        self.variant = variant
        """``standard``, ``randomstart`` or ``flipcolor``."""
        self.seed = seed
        """Seed of the variant's random start."""
        self.drawn = drawn
        """FlipColor's drawn squares as a mask (0 in the other variants)."""


class ReversiState(State[int]):
    """A Reversi position: the mover's and the opponent's discs as bitmasks.

    Public accessors for a board view: :attr:`size`, :meth:`cell`, :meth:`is_drawn`,
    :attr:`drawn_squares`, :meth:`square_name`, :meth:`counts`.
    """

    __slots__ = ("_moves", "_setup", "me", "ply", "them", "to_move")
    GAME = "reversi"
    PLAYERS = ("Black", "White")
    MOVE_SYNTAX = re.compile(r"[a-h][1-8]|pass")
    TRANSCRIPTS = True
    ENCODING_VERSION = 1

    me: int
    """Discs of the side to move."""
    them: int
    """Discs of the other side."""
    _moves: tuple[int, ...] | None
    _setup: Setup

    # -- the protocol ---------------------------------------------------------------
    def legal_moves(self) -> tuple[int, ...]:
        """Placements in increasing square order, or ``(PASS,)``, or ``()`` at the end."""
        moves = self._moves
        if moves is None:
            geo = self._setup.geo
            mask = geo.mobility(self.me, self.them)
            if mask:
                moves = _squares(mask)
            elif geo.mobility(self.them, self.me):
                moves = (PASS,)
            else:
                moves = ()
            self._moves = moves
        return moves

    def play(self, move: int) -> ReversiState:
        """The state after ``move``; IllegalMoveError if it is not legal here."""
        me, them, setup = self.me, self.them, self._setup
        child = _new(ReversiState)
        if move == PASS:
            if self.legal_moves() != (PASS,):
                self._reject("pass", "a pass is legal only with no placement to make")
            child.me, child.them = them, me
        else:
            try:
                flips = setup.geo.flips(me, them, move)
                bit = 1 << move
            except (IndexError, TypeError, ValueError):
                raise IllegalMoveError(f"illegal reversi move {move!r}: not a square") from None
            if not flips or (me | them) & bit:
                self._reject(self.format_move(move),
                             "the square is taken" if (me | them) & bit
                             else "it flips no disc")
            if bit & setup.drawn:  # FlipColor: the placed disc turns to the opponent
                child.me = them ^ flips | bit
                child.them = me | flips
            else:
                child.me = them ^ flips
                child.them = me | flips | bit
        child.to_move = self.to_move ^ 1
        child.ply = self.ply + 1
        child._moves = None
        child._setup = setup
        return child

    def outcome(self) -> Outcome | None:
        """None while someone can move; otherwise more discs wins, equal counts draw."""
        if self.legal_moves():
            return None
        black, white = self.counts()
        reason = f"no legal moves ({black}-{white})"
        if black > white:
            return Outcome(Result.FIRST_WINS, reason)
        if white > black:
            return Outcome(Result.SECOND_WINS, reason)
        return Outcome(Result.DRAW, reason)

    def key(self) -> Hashable:
        """(mover's discs, opponent's discs, side to move, FlipColor's drawn squares)."""
        return (self.me, self.them, self.to_move, self._setup.drawn)

    def symmetric_keys(self) -> tuple[tuple[int, int, int, int, int], ...]:
        """``(size, mover's discs, opponent's discs, side to move, drawn squares)`` in each
        of the board's eight symmetries (:mod:`engine.symmetry`; the rules have them all)."""
        n = self._setup.size
        d = dihedral(n)
        side = self.to_move
        return tuple((n, me, them, side, drawn) for me, them, drawn in zip(
            d.images(self.me), d.images(self.them), d.images(self._setup.drawn), strict=True))

    def symmetric_move(self, move: int, symmetry: int) -> int:
        """The square's image under ``symmetry``; a pass stays a pass."""
        return move if move == PASS else dihedral(self._setup.size).cell(move, symmetry)

    def encode(self) -> Any:
        """Four planes of n*n floats: own discs, opponent discs, own legal squares, drawn."""
        import numpy as np

        n2 = self._setup.size ** 2
        nbytes = (n2 + 7) // 8
        mob = self._setup.geo.mobility(self.me, self.them)
        raw = b"".join(x.to_bytes(nbytes, "little")
                       for x in (self.me, self.them, mob, self._setup.drawn))
        bits = np.unpackbits(np.frombuffer(raw, dtype=np.uint8), bitorder="little")
        return bits.reshape(4, nbytes * 8)[:, :n2].reshape(-1).astype(np.float32)

    def format_move(self, move: int) -> str:
        """``"f5"`` for a square, ``"pass"`` for :data:`PASS`."""
        return "pass" if move == PASS else self._setup.geo.names[move]

    def parse_move(self, text: str) -> int:
        """The legal move written ``text`` (case and surrounding blanks ignored)."""
        norm = text.strip().lower()
        geo = self._setup.geo
        if norm == "pass":
            move = PASS
        elif geo.syntax.fullmatch(norm):
            move = geo.index[norm]
        else:
            raise InvalidMoveError(
                f"invalid reversi move {text.strip()!r}: expected a square a1-"
                f"{geo.names[-1]} or 'pass'")
        if move in self.legal_moves():
            return move
        if self.outcome() is not None:
            return self._illegal(text)
        if move == PASS:
            self._reject(norm, "a pass is legal only with no placement to make")
        if self.legal_moves() == (PASS,):
            self._reject(norm, "no placement flips a disc, so the move is 'pass'")
        bit = 1 << move
        self._reject(norm, "the square is taken" if (self.me | self.them) & bit
                     else "it flips no disc")

    def to_position(self) -> str:
        """Ranks 1 to n as the board shows them, top down (``x`` Black, ``o`` White, a
        digit for empty squares), the side to move, then FlipColor's drawn squares
        when there are any: ``8/8/8/3ox3/3xo3/8/8/8 x`` is the standard start."""
        n = self._setup.size
        black, white = self.black, self.white
        rows = ["".join("x" if black >> s & 1 else "o" if white >> s & 1 else "."
                        for s in range(r * n, r * n + n)) for r in range(n)]
        text = f"{format_rows(rows)} {'xo'[self.to_move]}"
        if self._setup.drawn:
            text += " " + ",".join(self.square_name(s) for s in self.drawn_squares)
        return text

    @property
    def options(self) -> dict[str, Any]:
        """``size``, ``variant`` and ``seed`` as the game was started."""
        s = self._setup
        return {"size": s.size, "variant": s.variant, "seed": s.seed}

    # -- board view -----------------------------------------------------------------
    @property
    def size(self) -> int:
        """Board side (8, 6 or 4)."""
        return self._setup.size

    @property
    def black(self) -> int:
        """Black's discs as a bitmask."""
        return self.them if self.to_move else self.me

    @property
    def white(self) -> int:
        """White's discs as a bitmask."""
        return self.me if self.to_move else self.them

    @property
    def drawn_squares(self) -> tuple[int, ...]:
        """FlipColor's drawn squares (empty in the other variants)."""
        return _squares(self._setup.drawn)

    def cell(self, square: int) -> int | None:
        """0 (Black), 1 (White) or None (empty) for ``square``."""
        if self.black >> square & 1:
            return 0
        if self.white >> square & 1:
            return 1
        return None

    def is_drawn(self, square: int) -> bool:
        """True if ``square`` is one of FlipColor's drawn squares."""
        return bool(self._setup.drawn >> square & 1)

    def square_name(self, square: int) -> str:
        """The name of ``square`` on this board (``"d3"``)."""
        return self._setup.geo.names[square]

    def counts(self) -> tuple[int, int]:
        """(Black's discs, White's discs)."""
        return self.black.bit_count(), self.white.bit_count()

    def _reject(self, text: str, why: str) -> NoReturn:
        raise IllegalMoveError(
            f"illegal move {text!r} for {self.PLAYERS[self.to_move]} at ply {self.ply}: {why}")

    def __str__(self) -> str:
        """Rows 1..n top to bottom: X Black, O White, . empty, * an empty drawn square;
        lower-case x/o mark discs on drawn squares."""
        n = self._setup.size
        black, white, drawn = self.black, self.white, self._setup.drawn
        lines = ["  " + " ".join(FILES[:n])]
        for r in range(n):
            marks = []
            for s in range(r * n, r * n + n):
                ch = "X" if black >> s & 1 else "O" if white >> s & 1 else "."
                if drawn >> s & 1:
                    ch = "*" if ch == "." else ch.lower()
                marks.append(ch)
            lines.append(f"{r + 1} " + " ".join(marks))
        b, w = self.counts()
        lines.append(f"{self.PLAYERS[self.to_move]} to move (X {b}, O {w})")
        return "\n".join(lines)


def _start(setup: Setup, black: int, white: int) -> ReversiState:
    state = _new(ReversiState)
    state.me, state.them = black, white
    state.to_move = state.ply = 0
    state._moves = None
    state._setup = setup
    return state


class Reversi(Game):
    """Reversi (Othello): outflank and flip; most discs when neither side can move wins."""

    id = "reversi"
    name = "Reversi"
    description = "Othello rules on 8×8, 6×6 or 4×4; Black first; passes are moves"
    rules_summary = (
        "A disc must outflank: it turns every line of the other\n"
        "side's discs it closes. With no such move you pass; when\n"
        "neither side can move, more discs wins. Variants: randomstart\n"
        "(a random central start), flipcolor (four drawn squares turn\n"
        "the discs placed on them); boards 8×8, 6×6 or 4×4."
    )
    options = (
        Option("size", 8, SIZES, "board side"),
        Option("variant", "standard", VARIANTS,
               "randomstart: random central start; flipcolor: 4 drawn squares turn discs"),
        Option("seed", 0, None, "seed of the variants' random start"),
    )

    def _initial(self, size: int = 8, variant: str = "standard", seed: int = 0) -> ReversiState:
        n = size
        h = n // 2
        d4, e4, d5, e5 = ((h - 1) * n + h - 1, (h - 1) * n + h,
                          h * n + h - 1, h * n + h)
        black, white, drawn = 1 << d5 | 1 << e4, 1 << d4 | 1 << e5, 0
        rng = random.Random(seed)
        if variant == "randomstart":
            lo = h - 2
            block = [r * n + c for r in range(lo, lo + 4) for c in range(lo, lo + 4)]
            geo = geometry(n)
            while True:
                a, b, c, d = rng.sample(block, 4)
                black, white = 1 << a | 1 << b, 1 << c | 1 << d
                if geo.mobility(black, white):
                    break
        elif variant == "flipcolor":
            centre = {d4, e4, d5, e5}
            others = [s for s in range(n * n) if s not in centre]
            drawn = sum(1 << s for s in rng.sample(others, 4))
        return _start(Setup(n, variant, seed, drawn), black, white)

    def from_position(self, text: str) -> ReversiState:
        """The position ``8/8/8/3ox3/3xo3/8/8/8 x [c3,f6,…]`` (see
        :meth:`ReversiState.to_position`): the number of ranks gives the size, and
        drawn squares, when listed, make it a FlipColor game."""
        fields = split_fields(self.id, text, 2, 3,
                              "BOARD SIDE [DRAWN], like 8/8/8/3ox3/3xo3/8/8/8 x")
        rows = parse_rows(self.id, text, fields[0].lower(),
                          lambda n: (n,) * n if n in SIZES else None, "xo")
        n = len(rows)
        cells = "".join(rows)
        black = sum(1 << s for s, ch in enumerate(cells) if ch == "x")
        white = sum(1 << s for s, ch in enumerate(cells) if ch == "o")
        to_move = parse_side(self.id, text, fields[1])
        geo = geometry(n)
        drawn = 0
        if len(fields) == 3:
            names = fields[2].lower().split(",")
            for name in names:
                if name not in geo.index:
                    raise bad(self.id, text, f"drawn square {name[:8]!r} is not a square "
                                             f"a1-{geo.names[-1]}")
                drawn |= 1 << geo.index[name]
            if drawn.bit_count() != len(names):
                raise bad(self.id, text, "a drawn square is listed twice")
        state = _start(Setup(n, "flipcolor" if drawn else "standard", 0, drawn), black, white)
        if to_move:
            state.me, state.them, state.to_move = white, black, 1
        return state

    def setup(self, board: str, to_move: int = 0, *, variant: str = "standard",
              seed: int = 0, drawn: tuple[str, ...] = ()) -> ReversiState:
        """A position from text rows (for tests and puzzles; not reachable by ``initial``).

        ``board`` has one row per line, top row first, with ``X`` Black, ``O`` White and
        ``.`` empty (blanks ignored); the number of rows gives the size. ``drawn`` names
        FlipColor squares. ``ply`` is 0.
        """
        rows = ["".join(line.split()) for line in board.strip().splitlines()]
        n = len(rows)
        if n not in SIZES or any(len(row) != n for row in rows):
            raise PositionError(f"reversi setup: need {SIZES} square rows, got {rows!r}")
        black = white = 0
        for s, ch in enumerate("".join(rows)):
            if ch in "Xx":
                black |= 1 << s
            elif ch in "Oo":
                white |= 1 << s
            elif ch not in ".*":
                raise PositionError(f"reversi setup: unexpected {ch!r}")
        geo = geometry(n)
        mask = sum(1 << geo.index[name] for name in drawn)
        state = _start(Setup(n, variant, seed, mask), black, white)
        if to_move:
            state.me, state.them, state.to_move = white, black, 1
        return state
