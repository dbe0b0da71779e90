"""The Five Men's Morris board: 16 points on two squares joined by spokes, drawn with lines.

Points sit on a 5×5 grid (files a-e, ranks 1-5; docs/RULES.md, Morris). A move is entered as its
points in order: the destination of a placement, or the piece then its destination,
then, after a mill, the opponent piece to remove.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.games.morris import MorrisMove, MorrisState
from tui.app.widgets.board import BoardWidget, Canvas

GLYPHS = {False: ("○", "●"), True: ("W", "B")}
"""White (first) and Black (second)."""
DX, DY = 6, 2
"""Canvas spacing between grid columns and rows."""


class MorrisBoard(BoardWidget[MorrisState, int]):
    """Five Men's Morris: points are 0..15 (``engine.games.morris.POINTS`` order)."""

    GAME = "morris"
    LEGEND_MORE = "*x* mill just made  × taken"
    PLACE = "point"

    DEFAULT_CSS = """
    MorrisBoard {
        & > .board--dark { background: #d4a15a; }
        & > .board--first { color: #ffffff; text-style: bold; }
        & > .board--second { color: #101010; text-style: bold; }
        & > .board--line { color: #5a3a1a; }
        & > .board--target { color: #0b3d91; text-style: bold; }
    }
    """
    """A wooden board in every theme: White's and Black's men read on it in any theme."""

    def points(self) -> Iterable[int]:
        return range(16)

    def coord(self, point: int) -> tuple[int, int]:
        from engine.games.morris import POINTS

        name = POINTS[point]
        return "abcde".index(name[0]), int(name[1]) - 1

    def steps(self, move: MorrisMove) -> tuple[int, ...]:
        return tuple(p for p in move if p is not None)

    def summary(self) -> str:
        state = self.state
        if state is None:
            return ""
        g = GLYPHS[self.ascii]
        text = (f"in hand: White {g[0]} {state.in_hand(0)}  Black {g[1]} {state.in_hand(1)}")
        if self.path:
            if any(state.piece_at(t) == 1 - state.to_move for t in self.targets()):
                return "Mill! choose a piece to remove (Esc cancels)"
            return "choose where it goes (Esc cancels)"
        return text

    def owner_at(self, point: int) -> int | None:
        return self.state.piece_at(point) if self.state is not None else None

    def refusal(self, point: int) -> str:
        state = self.state
        assert state is not None
        foe = 1 - state.to_move
        if self.path and any(self.owner_at(t) == foe for t in self.targets()):
            return (f"Mill! take one of {state.PLAYERS[foe]}'s pieces marked +; pieces in a "
                    f"mill are safe while the others are not")
        return super().refusal(point)

    def point_name(self, point: int) -> str:
        from engine.games.morris import POINTS

        return POINTS[point]

    def reader_lines(self) -> list[str]:
        """From rank 5 down, each point by its name: ``row 5: a5 empty, c5 White, …``;
        then the men in hand."""
        state = self.state
        if state is None:
            return []
        lines = []
        for rank in reversed(range(5)):
            on_rank = sorted((p for p in range(16) if self.coord(p)[1] == rank),
                             key=lambda p: self.coord(p)[0])
            lines.append(f"row {rank + 1}: " + ", ".join(
                f"{self.point_name(p)} {self.piece_name(p) or 'empty'}" for p in on_rank))
        lines.append(f"In hand: White {state.in_hand(0)}, Black {state.in_hand(1)}.")
        return lines

    def move_detail(self, before: MorrisState, move: MorrisMove, after: MorrisState) -> str:
        if move[-1] is None:
            return ""
        foe = before.PLAYERS[1 - before.to_move]
        return f"a mill, removing {foe}'s man on {self.point_name(move[-1])}"

    def highlights(self) -> set[int]:
        """The mill the last move made (it then took a piece)."""
        from engine.games.morris import MILLS

        state = self.state
        move = self.last_move
        if state is None or move is None or move[-1] is None:
            return set()
        to = move[1]
        who = state.piece_at(to)
        return {p for mill in MILLS if to in mill and all(state.piece_at(q) == who for q in mill)
                for p in mill}

    def captured(self) -> set[int]:
        """The piece the last move removed."""
        move = self.last_move
        return {move[-1]} if move is not None and move[-1] is not None else set()

    def draw(self) -> Canvas:
        from engine.games.morris import ADJACENT

        state = self.state
        assert state is not None
        canvas = Canvas(3 + 4 * DX + 3, 4 * DY + 2)
        label, line = self.style("label"), self.style("line")
        hbar, vbar = ("-", "|") if self.ascii else ("─", "│")
        pos = {p: (3 + DX * self.coord(p)[0], DY * (4 - self.coord(p)[1])) for p in range(16)}
        for p in range(16):
            for q in ADJACENT[p]:
                (x0, y0), (x1, y1) = pos[p], pos[q]
                if y0 == y1 and x0 < x1:
                    canvas.put(x0 + 3, y0, hbar * (x1 - x0 - 3), line)
                elif x0 == x1 and y0 < y1:
                    for y in range(y0 + 1, y1):
                        canvas.put(x0 + 1, y, vbar, line)
        for rank in range(5):
            canvas.put(0, DY * (4 - rank), str(rank + 1), label)
        for f in range(5):
            canvas.put(4 + DX * f, 4 * DY + 1, "abcde"[f], label)
        targets = self.targets()
        for p, (x, y) in pos.items():
            owner = state.piece_at(p)
            if owner is None:
                glyph, gstyle = self.empty_glyph(p, targets)
            else:
                glyph = GLYPHS[self.ascii][owner]
                gstyle = self.piece_style(owner)
            self.put_point(canvas, x, y, p, glyph, gstyle,
                           piece_target=owner is not None and p in targets)
        wood = self.style("dark")
        for y in range(4 * DY + 1):
            canvas.fill(2, y, 4 * DX + 5, wood)
        return canvas
