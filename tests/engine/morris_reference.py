"""A deliberately naive Five Men's Morris move generator, written from docs/RULES.md
(Five Men's Morris) only.

It shares no code with ``engine.games.morris``: points are names, the board is a dict,
moves are notation strings, and every rule is checked the slow, literal way. Tests
compare it with the engine on random playouts and use it to confirm perft numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

POINT_NAMES = ["a5", "c5", "e5", "b4", "c4", "d4", "a3", "b3",
               "d3", "e3", "b2", "c2", "d2", "a1", "c1", "e1"]

# docs/RULES.md: "outer ring a5-c5-e5-e3-e1-c1-a1-a3-a5, inner ring b4-c4-d4-d3-d2-c2-b2-b3-b4,
# spokes c5-c4, a3-b3, e3-d3, c1-c2."
SEGMENTS_TEXT = ("a5-c5-e5-e3-e1-c1-a1-a3-a5", "b4-c4-d4-d3-d2-c2-b2-b3-b4",
                 "c5-c4", "a3-b3", "e3-d3", "c1-c2")
# docs/RULES.md: "a5 c5 e5 · e5 e3 e1 · a1 c1 e1 · a5 a3 a1 · b4 c4 d4 · d4 d3 d2 · b2 c2 d2 ·
# b4 b3 b2".
MILLS_TEXT = "a5 c5 e5 · e5 e3 e1 · a1 c1 e1 · a5 a3 a1 · b4 c4 d4 · d4 d3 d2 · b2 c2 d2 · b4 b3 b2"


def neighbours(point: str) -> list[str]:
    """Points joined to ``point`` by one segment of the drawn lines."""
    found = []
    for chain in SEGMENTS_TEXT:
        names = chain.split("-")
        for i in range(len(names) - 1):
            if names[i] == point:
                found.append(names[i + 1])
            if names[i + 1] == point:
                found.append(names[i])
    return found


def mills() -> list[list[str]]:
    """The eight mills as lists of point names."""
    return [part.split() for part in MILLS_TEXT.split("·")]


@dataclass
class RefState:
    """A position: board dict name -> 'W'/'B'/None, hands, side to move, counters."""

    board: dict[str, str | None]
    hand: dict[str, int]
    turn: str = "W"
    quiet: int = 0
    seen: list[tuple] = field(default_factory=list)
    """Every position (see ``position``) that occurred so far, this one included."""

    @staticmethod
    def start() -> RefState:
        state = RefState({p: None for p in POINT_NAMES}, {"W": 5, "B": 5})
        state.seen.append(state.position())
        return state

    def position(self) -> tuple:
        """(board, side to move, pieces in hand): what repetition compares."""
        return (tuple(sorted(self.board.items(), key=lambda kv: kv[0])), self.turn,
                self.hand["W"], self.hand["B"])

    def count(self, colour: str) -> int:
        return sum(1 for v in self.board.values() if v == colour)

    def in_mill(self, point: str) -> bool:
        colour = self.board[point]
        return any(point in mill and all(self.board[q] == colour for q in mill)
                   for mill in mills())

    def raw_moves(self) -> list[str]:
        """All moves for the side to move, ignoring whether the game is over."""
        me = self.turn
        other = "B" if me == "W" else "W"
        empties = [p for p in POINT_NAMES if self.board[p] is None]
        steps: list[tuple[str | None, str]] = []
        if self.hand[me] > 0:
            steps = [(None, p) for p in empties]
        else:
            flying = self.count(me) == 3
            for p in POINT_NAMES:
                if self.board[p] != me:
                    continue
                for q in (empties if flying else neighbours(p)):
                    if self.board[q] is None:
                        steps.append((p, q))
        moves = []
        for frm, to in steps:
            after = dict(self.board)
            if frm is not None:
                after[frm] = None
            after[to] = me
            new_mill = False
            for mill in mills():
                before_full = all(self.board[q] == me for q in mill)
                after_full = all(after[q] == me for q in mill)
                if after_full and not before_full:
                    new_mill = True
            text = to if frm is None else f"{frm}-{to}"
            if not new_mill:
                moves.append(text)
                continue
            theirs = [p for p in POINT_NAMES if after[p] == other]
            loose = [p for p in theirs if not self.in_mill(p)]
            targets = loose if loose else theirs
            if not targets:
                moves.append(text)
            for victim in targets:
                moves.append(f"{text}x{victim}")
        return moves

    def outcome(self) -> str | None:
        """None, or 'W' / 'B' (the winner) / 'draw', with the rules' order of checks."""
        me = self.turn
        other = "B" if me == "W" else "W"
        if self.count(me) + self.hand[me] < 3:
            return other
        if self.hand[me] == 0 and not self.raw_moves():
            return other
        if self.seen.count(self.position()) >= 3:
            return "draw"
        if self.quiet >= 100:
            return "draw"
        return None

    def legal_moves(self) -> list[str]:
        return [] if self.outcome() is not None else self.raw_moves()

    def play(self, text: str) -> RefState:
        """The position after the move ``text`` (taken to be legal)."""
        me = self.turn
        board = dict(self.board)
        hand = dict(self.hand)
        main, _, victim = text.partition("x")
        if "-" in main:
            frm, to = main.split("-")
            board[frm] = None
        else:
            to = main
            hand[me] -= 1
        board[to] = me
        if victim:
            board[victim] = None
        child = RefState(board, hand, "B" if me == "W" else "W",
                         0 if victim else self.quiet + 1, list(self.seen))
        child.seen.append(child.position())
        return child


def perft(state: RefState, depth: int, memo: dict | None = None) -> int:
    """Move sequences of exactly ``depth`` moves from ``state``.

    With ``memo``, counts are shared between positions with the same board, hands,
    side to move, no-removal counter and full history of positions since the last
    placement or removal, which is all that the future of a game depends on.
    """
    if depth == 0:
        return 1
    key = None
    if memo is not None:
        def material(pos: tuple) -> tuple:
            return pos[2], pos[3], sum(v is not None for _, v in pos[0])

        now = material(state.position())
        recent = []
        for pos in reversed(state.seen):
            if material(pos) != now:
                break
            recent.append(pos)
        key = (tuple(recent), state.quiet, depth)
        if key in memo:
            return memo[key]
    total = sum(perft(state.play(m), depth - 1, memo) for m in state.legal_moves())
    if memo is not None:
        memo[key] = total
    return total
