"""BoardWidget: the base of every game's board view (one widget, drawn as text).

A board is a view of an engine :class:`State`; the screen owns the game and sets
``state``. The widget keeps only view state: the ``cursor`` (a point), the ``path`` of a
half-made move, the ``last_move`` and the ``hint``. Each game subclass says which points
exist, where they sit (for drawing and for cursor movement) and which points a move
visits (:meth:`BoardWidget.steps`); the base class turns that into step-by-step entry of
any move, compound ones included: after each step only the legal continuations
(``legal_moves()`` filtered by the path so far) are offered, and Esc cancels.

Meaning never rests on colour alone: the cursor is ``[ ]``, the half-made move ``{ }``,
the hint ``> <``, the last move ``( )`` and legal targets a ``+`` glyph. Piece colours
are chosen to stay legible on the dark squares in 16-colour and ``NO_COLOR`` terminals.
The marks' colours come from a colour-blind-safe palette (Okabe and Ito's): blue
targets and winning lines, orange last moves, purple hints; no red and green pair.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Any, ClassVar, Generic, TypeVar, cast

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.actions import SkipAction
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.widget import Widget

from engine.protocol import AnyState
from tui.app.messages import MoveEntered, SelectionRefused

Point = Hashable
"""A place the cursor can stand on (a cell, a column, a Morris point)."""

S = TypeVar("S", bound=AnyState)
"""The state class of the game a board draws."""
P = TypeVar("P", bound=Hashable)
"""The points of that board (a column number, a cell, a square number)."""

DIRECTIONS = {"up": (0, 1), "down": (0, -1), "left": (-1, 0), "right": (1, 0)}
"""Cursor directions in board coordinates (y grows upwards)."""

OPPOSITE = {"up": "down", "down": "up", "left": "right", "right": "left"}

MARKS = {  # (left, right) brackets around a point, by priority
    "cursor": ("[", "]"),
    "path": ("{", "}"),
    "hint": (">", "<"),
    "last": ("(", ")"),
    "target": ("+", "+"),  # a piece that may be picked or removed
    "win": ("*", "*"),  # the winning line, a mill just made, discs just flipped
}
PRIORITY = ("cursor", "path", "hint", "target", "win", "last")
"""Which mark's brackets a point shows when it has several: the first; the cursor keeps
only its left bracket, so the next mark's right one still shows (``[●+``)."""


def run_through(owner: Callable[[int, int], int | None], x0: int, y0: int,
                length: int) -> set[tuple[int, int]]:
    """The cells of every line of at least ``length`` same-owner cells through (x0, y0),
    in the four directions (``owner`` gives None off the board and for empty cells)."""
    who = owner(x0, y0)
    found: set[tuple[int, int]] = set()
    if who is None:
        return found
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = [(x0, y0)]
        for sign in (1, -1):
            x, y = x0 + sign * dx, y0 + sign * dy
            while owner(x, y) == who:
                run.append((x, y))
                x, y = x + sign * dx, y + sign * dy
        if len(run) >= length:
            found.update(run)
    return found


def reader_row(label: str, cells: Sequence[tuple[str, str, str | None]], on: str = "") -> str:
    """One row of a board in words: ``row 7: empty a to g, X h7, empty i to o``.

    ``cells`` are (short name, full name, piece or None for empty) in reading order; a
    run of two or more empty cells is said as one (by its short names), a run of three or
    more alike pieces by its ends' full names (``White d4 to f4``), any other piece with
    its full name (after ``on``: ``Black man on 5``); a row with nothing on it is
    ``row 7: empty``."""
    if all(piece is None for _, _, piece in cells):
        return f"{label}: empty"
    parts, i = [], 0
    while i < len(cells):
        short, full, piece = cells[i]
        j = i
        while j + 1 < len(cells) and cells[j + 1][2] == piece:
            j += 1
        if piece is None:
            parts.append(f"empty {short} to {cells[j][0]}" if j > i else f"empty {full}")
        elif j - i >= 2:  # three or more alike: Black man on 1 to 4
            parts.append(f"{piece} {on}{full} to {cells[j][1]}")
        else:
            j = i
            parts.append(f"{piece} {on}{full}")
        i = j + 1
    return f"{label}: {', '.join(parts)}"


CONNECTS = {  # which sides a line-drawing character joins: left, right, up, down
    **{ch: "lr" for ch in "─-=━"}, **{ch: "ud" for ch in "│|┃"},
    "┼": "lrud", "+": "lrud", "├": "rud", "┤": "lud", "┬": "lrd", "┴": "lru",
    "┌": "rd", "┐": "ld", "└": "ru", "┘": "lu",
}
"""How line characters continue when a board is drawn at a larger scale."""
ROTATED = dict(zip("[]{}()><▼▲┌┐└┘├┤┬┴", "][}{)(<>▲▼┘└┐┌┤├┴┬", strict=True))
"""Characters that change when a board is turned half a turn (brackets, corners)."""


class Canvas:
    """A grid of characters with a style per character, turned into a rich Text.

    A canvas also keeps its ``words`` (labels written as one piece, kept readable when
    the board is turned or enlarged) and its ``hits`` (which point a mouse click on a
    cell chooses), so :meth:`rotated` and :meth:`scaled` carry both along.
    """

    def __init__(self, width: int, height: int):
        self.width = width
        self.height = height
        self.chars = [[" "] * width for _ in range(height)]
        self.styles: list[list[Style | None]] = [[None] * width for _ in range(height)]
        self.words: list[tuple[int, int, str]] = []
        self.hits: dict[tuple[int, int], Point] = {}

    def put(self, x: int, y: int, text: str, style: Style | None = None) -> None:
        """Write ``text`` from column ``x`` of row ``y`` (clipped to the canvas)."""
        if not 0 <= y < self.height:
            return
        if len(text) > 1 and text.strip().isalnum():
            self.words.append((x, y, text))
        for i, ch in enumerate(text):
            if 0 <= x + i < self.width:
                self.chars[y][x + i] = ch
                if style is not None:
                    self.styles[y][x + i] = style

    def hit(self, x: int, y: int, width: int, point: Point) -> None:
        """A click on ``width`` cells from (``x``, ``y``) chooses ``point``."""
        for i in range(width):
            self.hits[(x + i, y)] = point

    def rotated(self) -> Canvas:
        """The canvas turned half a turn (labels stay readable, brackets face inwards)."""
        out = Canvas(self.width, self.height)
        w, h = self.width - 1, self.height - 1
        for y in range(self.height):
            for x in range(self.width):
                ch = self.chars[y][x]
                out.chars[h - y][w - x] = ROTATED.get(ch, ch)
                out.styles[h - y][w - x] = self.styles[y][x]
        for x, y, text in self.words:
            start = w - (x + len(text) - 1)
            styles = [out.styles[h - y][w - x - i] for i in range(len(text))]
            for i, ch in enumerate(text):
                if 0 <= start + i <= w:
                    out.chars[h - y][start + i] = ch
                    out.styles[h - y][start + i] = styles[len(text) - 1 - i]
            out.words.append((start, h - y, text))
        out.hits = {(w - x, h - y): p for (x, y), p in self.hits.items()}
        for (x, y), point in self.hits.items():  # a marked point reads as drawn: [●+
            if self.hits.get((x - 1, y)) != point and all(
                    self.hits.get((x + i, y)) == point for i in (1, 2)):
                for i in range(3):
                    out.chars[h - y][w - x - 2 + i] = self.chars[y][x + i]
                    out.styles[h - y][w - x - 2 + i] = self.styles[y][x + i]
        return out

    def scaled(self, factor: int) -> Canvas:
        """The canvas with each cell grown to ``factor`` × ``factor`` cells: the character
        in the middle, lines continued across the new cells, backgrounds filled."""
        if factor <= 1:
            return self
        k, mid = factor, factor // 2
        out = Canvas(self.width * k, self.height * k)

        edge: dict[tuple[int, int], int] = {}  # a point's brackets hug its glyph: ( ● )
        for (x, y), point in self.hits.items():
            if self.hits.get((x - 1, y)) != point and all(
                    self.hits.get((x + i, y)) == point for i in (1, 2)):
                edge[(x, y)], edge[(x + 2, y)] = k - 1, 2 * mid - k + 1  # as far on each side
        step = {"l": (-1, 0, "r"), "r": (1, 0, "l"), "u": (0, -1, "d"), "d": (0, 1, "u")}

        points = {(x + i, y) for (x, y), at in edge.items() if at == k - 1 for i in range(3)}
        """Cells of a point (brackets and glyph): never lines, though ``+`` may be drawn."""

        def line_at(x: int, y: int) -> str:
            inside = 0 <= x < self.width and 0 <= y < self.height
            return CONNECTS.get(self.chars[y][x], "") if inside and (x, y) not in points else ""

        def joins(x: int, y: int, side: str) -> bool:
            """A line leaves (x, y) on ``side``: it is a line that does, or a piece or
            mark that a line reaches from that side (Morris points sit on lines)."""
            if not (0 <= x < self.width and 0 <= y < self.height) or self.chars[y][x] == " ":
                return False
            if line_at(x, y):
                return side in line_at(x, y)
            dx, dy, back = step[side]
            return back in line_at(x + dx, y + dy)

        def pad(x: int, y: int, nx: int, ny: int, plain: str, fancy: str) -> str:
            """The character continuing a line between (x, y) and (nx, ny)."""
            chars = [self.chars[b][a] for a, b in ((x, y), (nx, ny))
                     if 0 <= a < self.width and 0 <= b < self.height]
            line = next((c for c, at in zip(chars, ((x, y), (nx, ny)), strict=False)
                         if c in CONNECTS and at not in points), "")
            return plain if line in "-+=|" and line else fancy

        for y in range(self.height):
            for x in range(self.width):
                ch, style = self.chars[y][x], self.styles[y][x]
                at = edge.get((x, y), mid)
                for dy in range(k):
                    for dx in range(k):
                        if (dx, dy) == (at, mid):
                            cell = ch
                        elif dy == mid and dx < at and joins(x, y, "l") and joins(x - 1, y, "r"):
                            cell = pad(x, y, x - 1, y, "-", "─")
                        elif dy == mid and dx > at and joins(x, y, "r") and joins(x + 1, y, "l"):
                            cell = pad(x, y, x + 1, y, "-", "─")
                        elif dx == at and dy < mid and joins(x, y, "u") and joins(x, y - 1, "d"):
                            cell = pad(x, y, x, y - 1, "|", "│")
                        elif dx == at and dy > mid and joins(x, y, "d") and joins(x, y + 1, "u"):
                            cell = pad(x, y, x, y + 1, "|", "│")
                        else:
                            cell = " "
                        out.chars[y * k + dy][x * k + dx] = cell
                        out.styles[y * k + dy][x * k + dx] = style
                        if (x, y) in self.hits:
                            out.hits[(x * k + dx, y * k + dy)] = self.hits[(x, y)]
        for x, y, text in self.words:
            sx, sy = x * k + mid, y * k + mid
            style = self.styles[y][x]
            for i in range(len(text)):  # the word's own cells are cleared, then it is written whole
                out.chars[sy][(x + i) * k + mid] = " "
            for i, ch in enumerate(text):
                if sx + i < out.width:
                    out.chars[sy][sx + i] = ch
                    out.styles[sy][sx + i] = style
            out.words.append((sx, sy, text))
        return out

    def fill(self, x: int, y: int, width: int, style: Style) -> None:
        """Apply ``style`` to ``width`` cells from (``x``, ``y``) without changing text."""
        for i in range(width):
            if 0 <= x + i < self.width and 0 <= y < self.height:
                old = self.styles[y][x + i]
                self.styles[y][x + i] = old + style if old else style

    def runs(self, y: int) -> Iterable[tuple[str, Style | None]]:
        """Row ``y`` as runs of characters with one style each."""
        row, styles = self.chars[y], self.styles[y]
        start = 0
        for x in range(1, self.width + 1):
            if x == self.width or styles[x] != styles[start]:
                yield "".join(row[start:x]), styles[start]
                start = x

    def to_text(self) -> Text:
        """The canvas as one Text, rows joined by newlines."""
        text = Text(no_wrap=True, overflow="crop")
        for y in range(self.height):
            if y:
                text.append("\n")
            for run, style in self.runs(y):
                text.append(run, style or "")
        return text


class BoardWidget(Widget, Generic[S, P], can_focus=True):
    """A game board with a cursor, legal targets, the last move and a hint.

    Subclasses set ``GAME`` and implement :meth:`points`, :meth:`coord`,
    :meth:`steps` and :meth:`draw`.
    """

    GAME: ClassVar[str] = ""
    """Id of the game this board draws."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,k", "move_cursor('up')", "Up", show=False),
        Binding("down,j", "move_cursor('down')", "Down", show=False),
        Binding("left,h", "move_cursor('left')", "Left", show=False),
        Binding("right,l", "move_cursor('right')", "Right", show=False),
        Binding("enter,space", "select", "Select", show=False),
        Binding("escape", "cancel", "Cancel move", show=False),
    ]

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "board--cursor", "board--path", "board--target", "board--last-move",
        "board--hint", "board--first", "board--second", "board--label", "board--dark",
        "board--line", "board--win", "board--light",
    }

    DEFAULT_CSS = """
    BoardWidget {
        width: auto;
        height: auto;
        padding: 0 1;
        & > .board--cursor { text-style: bold reverse; }
        & > .board--path { text-style: bold underline; }
        & > .board--target { color: #56b4e9; text-style: bold; }
        & > .board--last-move { text-style: bold; color: #e69f00; }
        & > .board--hint { text-style: bold; color: #cc79a7; }
        & > .board--first { color: $foreground; text-style: bold; }
        & > .board--second { color: $foreground; text-style: bold; }
        & > .board--label { color: $text-muted; }
        & > .board--dark { background: $surface-lighten-1; }
        & > .board--light { }
        & > .board--line { color: $text-muted; }
        & > .board--win { text-style: bold underline; background: #0072b2 40%; }
    }
    """

    # The view's reactives repaint only the rows of the drawing they change (see
    # :meth:`repaint_changes`), once all the changes of the moment are made.
    state: reactive[S | None] = reactive(None, init=False, repaint=False)
    """The position shown (set by the owning screen; the screen is laid out again only
    when the board's size changes with it, see :meth:`watch_state`)."""
    cursor: reactive[P] = reactive(0, init=False, repaint=False)  # type: ignore[arg-type]
    """The point under the cursor (set in ``__init__``)."""
    path: reactive[tuple[P, ...]] = reactive((), init=False, repaint=False)
    """Points chosen so far for a half-made move."""
    last_move: reactive[Any] = reactive(None, init=False, repaint=False)
    """The move that led to ``state`` (None at the start)."""
    hint: reactive[Any] = reactive(None, init=False, repaint=False)
    """A suggested move to show, or None."""
    previous: reactive[S | None] = reactive(None, init=False, repaint=False)
    """The position before ``last_move`` (to show what it captured or flipped)."""
    interactive: reactive[bool] = reactive(True, init=False, repaint=False)
    """Whether the keyboard may enter moves now (False while a brain moves, in replays)."""
    ascii: reactive[bool] = reactive(False, init=False, layout=True)
    """Draw with plain ASCII characters only."""
    flipped: reactive[bool] = reactive(False, init=False, layout=True)
    """Show the board turned half a turn (the second player's side at the bottom)."""
    scale: reactive[int] = reactive(1, init=False, layout=True)
    """How many times larger than the compact drawing the board is shown (1 to 3)."""
    reader: reactive[bool] = reactive(False, init=False, layout=True)
    """Screen-reader mode: the board is shown as the lines of :meth:`reader_lines`
    (plain words in reading order, no drawing) instead of its canvas."""

    PLACE: ClassVar[str] = "square"
    """What a point of this board is called in messages ("square", or "point")."""
    CAN_FLIP: ClassVar[bool] = True
    """Whether turning the board round means anything (not for Connect Four's rack)."""
    MAX_SCALE: ClassVar[int] = 3
    TOP_SIDE: ClassVar[int | None] = None
    """The player whose pieces start at the top of the drawing (None: no such side);
    a person playing that side alone sees the board turned, their side at the bottom."""

    def __init__(self, state: S | None = None, *, ascii: bool = False,
                 name: str | None = None, id: str | None = None,
                 classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        self._canvas: tuple[tuple[Any, ...], Canvas] | None = None
        self._shown: tuple[tuple[Any, ...], Canvas] | None = None
        self.laid_size: tuple[int, int] | None = None
        self._rows: dict[tuple[Any, ...], Strip] = {}
        """Strips of the drawing's rows, by row and its characters and styles."""
        self._rows_base: VisualStyle | None = None
        """The widget's own style the strips were made on."""
        self._frame: Canvas | None = None
        """The drawing while :meth:`render_lines` draws it."""
        self._painted: list[tuple[tuple[str, ...], tuple[Style | None, ...]]] | None = None
        """The rows of the drawing when a repaint was last asked for."""
        self._repaint_pending = False
        """The drawing's size when the state last changed (see :meth:`watch_state`)."""
        self.lit: set[P] = set()
        """Points marked ``* *`` in the drawing being made (see :meth:`highlights`)."""
        self.gone: set[P] = set()
        """Points whose piece the last move took (see :meth:`captured`)."""
        self.set_reactive(BoardWidget.ascii, ascii)
        if state is not None:
            self.quietly_show(state)
            self.set_reactive(BoardWidget.cursor, self.start_point(state))  # type: ignore[misc]

    # -- what subclasses provide ----------------------------------------------------
    def points(self) -> Iterable[P]:
        """Every point the cursor can stand on in the current state."""
        raise NotImplementedError

    def coord(self, point: P) -> tuple[int, int]:
        """Board coordinates (x right, y up) of ``point``, for cursor movement."""
        raise NotImplementedError

    def steps(self, move: Any) -> tuple[P, ...]:
        """The points a move visits, in the order a player chooses them."""
        raise NotImplementedError

    def draw(self) -> Canvas:
        """The board drawn for the current state and view state."""
        raise NotImplementedError

    def summary(self) -> str:
        """A line about the position under the board (disc counts, pieces in hand)."""
        return ""

    LEGEND: ClassVar[str] = "[ ] cursor  { } chosen  ( ) last\n> < hint   + legal   +x+ pick"
    """The marks every board uses (never colour alone)."""
    LEGEND_MORE: ClassVar[str] = "*x* winning line"
    """This board's own marks, a line under :data:`LEGEND` (``×`` is ``x`` in ASCII)."""

    def legend(self) -> str:
        """The legend under the board: every mark it may show, in words (in
        screen-reader mode, which draws no marks: the legal moves)."""
        if self.reader:
            return self.reader_legend()
        more = self.LEGEND_MORE
        if self.ascii:
            more = more.replace("×", "x")
        return f"{self.LEGEND}\n{more}" if more else self.LEGEND

    # -- screen-reader mode: the board in words -------------------------------------
    def point_name(self, point: P) -> str:
        """The name of ``point`` in the game's notation (``c3``, ``column 4``, ``17``)."""
        return str(point)

    def piece_name(self, point: P) -> str | None:
        """What stands on ``point`` in words (``X``, ``Black king``); None: empty."""
        owner = self.owner_at(point)
        if owner is None or self.state is None:
            return None
        return str(self.state.PLAYERS[owner])

    def reader_lines(self) -> list[str]:
        """The board as lines a screen reader speaks well, in reading order (each game
        names its rows as its notation does and groups runs of empty points). The
        default lists every point; a board widget should give its own rows."""
        if self.state is None:
            return []
        return [", ".join(f"{self.point_name(p)} {self.piece_name(p) or 'empty'}"
                          for p in self.points())]

    def cursor_line(self) -> str:
        """The point under the cursor in words: ``cursor c3: empty, legal``."""
        if self.state is None:
            return ""
        point = self.cursor
        words = self.piece_name(point) or "empty"
        if point in self.targets():
            words += ", legal"
        line = f"cursor {self.point_name(point)}: {words}"
        if self.path:
            line += "; chosen " + " then ".join(self.point_name(p) for p in self.path)
        return line

    def move_detail(self, before: S, move: Any, after: S) -> str:
        """What a move did beyond its notation, in words (``flipping 3``), or ""."""
        return ""

    def said_move(self, before: S, move: Any, after: S) -> str:
        """A move as a sentence: ``Black plays f5, flipping 1.``"""
        mover = before.PLAYERS[before.to_move]
        detail = self.move_detail(before, move, after)
        return f"{mover} plays {before.format_move(move)}" + (f", {detail}" if detail else "") + "."

    def reader_legend(self) -> str:
        """What replaces the drawn legend in screen-reader mode: the legal moves."""
        state = self.state
        if state is None or state.outcome() is not None or not self.interactive:
            return ""
        legal = [state.format_move(m) for m in state.legal_moves()]
        shown = ", ".join(legal[:12]) + (f", and {len(legal) - 12} more" if len(legal) > 12 else "")
        return f"Legal moves: {shown}."

    def highlights(self) -> set[P]:
        """Points to mark ``* *``: the winning line, the mill the last move made, the
        discs it flipped (none by default)."""
        return set()

    def captured(self) -> set[P]:
        """Points whose piece the last move took, drawn ``×`` while empty."""
        return set()

    def start_point(self, state: S) -> P:
        """Where the cursor starts: the first step of the middle legal move (else the
        middle point)."""
        for move in state.legal_moves()[len(state.legal_moves()) // 2:]:
            steps = self.steps(move)
            if steps:
                return steps[0]
        points = list(self.points_for(state))
        return points[len(points) // 2]

    def points_for(self, state: S) -> Iterable[P]:
        """Points for ``state`` (used before ``state`` is set)."""
        old = self.state
        self.quietly_show(state)
        try:
            return list(self.points())
        finally:
            self.quietly_show(old)

    def quietly_show(self, state: S | None) -> None:
        """Set ``state`` without calling its watcher or redrawing (before mounting, or
        for a moment to ask the subclass about another state)."""
        # mypy cannot tell which S the class-level descriptor has; it is this board's.
        self.set_reactive(BoardWidget.state, state)  # type: ignore[misc]

    # -- move entry -----------------------------------------------------------------
    def candidates(self) -> list[Any]:
        """Legal moves that agree with the path so far."""
        if self.state is None:
            return []
        n = len(self.path)
        return [m for m in self.state.legal_moves() if self.steps(m)[:n] == self.path]

    def targets(self) -> set[P]:
        """Points that continue the half-made move (or start one)."""
        if not self.interactive:
            return set()
        n = len(self.path)
        return {s[n] for m in self.candidates() if len(s := self.steps(m)) > n}

    def action_select(self) -> None:
        """Choose the point under the cursor as the next step of the move."""
        if self.state is None or not self.interactive:
            self.refuse("wait: it is not your turn" if self.state is not None
                        and self.state.outcome() is None else "the game is over")
            return
        if not self.path:
            stepless = [m for m in self.state.legal_moves() if not self.steps(m)]
            if stepless and not self.targets():  # e.g. a forced pass
                self.post_message(MoveEntered(stepless[0]))
                return
        if self.cursor not in self.targets():
            if self.path and self.cursor == self.path[-1] and len(self.path) == 1:
                self.path = ()  # choosing the picked piece again drops it
                return
            if self.path and (self.cursor,) in {self.steps(m)[:1]
                                                for m in self.state.legal_moves()}:
                self.path = (self.cursor,)  # start again from another piece
                return
            self.refuse(self.refusal(self.cursor))
            return
        self.choose(self.cursor)

    def refuse(self, why: str) -> None:
        """Ring the bell and tell the screen why the point cannot be chosen."""
        self.app.bell()
        self.post_message(SelectionRefused(why))

    def owner_at(self, point: P) -> int | None:
        """The player whose piece stands on ``point`` (None: empty, or not known)."""
        return None

    def refusal(self, point: P) -> str:
        """Why ``point`` cannot be chosen now, in a player's words."""
        state = self.state
        assert state is not None
        names = state.PLAYERS
        mover = state.to_move
        if self.path:
            if len(self.path) >= 2 or self.owner_at(point) is None:
                return "the piece cannot go there (Esc drops the move)"
            return "that is not a place this move may go (Esc drops the move)"
        owner = self.owner_at(point)
        placing = all(len(self.steps(m)) == 1 for m in state.legal_moves())
        if owner is not None and placing:
            return f"that {self.PLACE} is taken"
        if owner is not None and owner != mover:
            return f"that is {names[owner]}'s piece; you play {names[mover]}"
        if owner is not None:
            return "that piece has no legal move"
        if not placing:
            return f"choose one of {names[mover]}'s pieces first"
        return "no legal move there"

    def choose(self, point: P) -> None:
        """Extend the path by ``point``; post the move once it is complete."""
        path = (*self.path, point)
        matching = [m for m in self.candidates() if self.steps(m)[: len(path)] == path]
        complete = [m for m in matching if self.steps(m) == path]
        if complete and len(matching) == 1:
            self.path = ()
            self.post_message(MoveEntered(complete[0]))
        else:
            self.path = path

    def action_cancel(self) -> None:
        """Drop the half-made move; with none, Esc goes on to the screen (back to Home)."""
        if self.path:
            self.path = ()
        else:
            raise SkipAction()

    def action_move_cursor(self, direction: str) -> None:
        """Move the cursor to the nearest point in ``direction``."""
        nxt = self.neighbour(self.cursor, direction)
        if nxt is not None:
            self.cursor = nxt

    def neighbour(self, point: P, direction: str) -> P | None:
        """The point the cursor goes to from ``point`` in ``direction`` as seen on the
        screen (None: stay)."""
        if self.flipped and self.CAN_FLIP:
            direction = OPPOSITE[direction]
        dx, dy = DIRECTIONS[direction]
        x0, y0 = self.coord(point)
        best, best_cost = None, None
        for other in self.points():
            x, y = self.coord(other)
            along = (x - x0) * dx + (y - y0) * dy
            if along <= 0:
                continue
            across = abs((x - x0) * dy) + abs((y - y0) * dx)
            cost = (across, along) if across == 0 else (1, along + 2 * across)
            if best_cost is None or cost < best_cost:
                best, best_cost = other, cost
        return best

    # -- drawing helpers ------------------------------------------------------------
    def marks(self, point: P, piece_target: bool = False) -> list[str]:
        """Every mark ``point`` has, in :data:`PRIORITY` order."""
        found = []
        if point == self.cursor and self.interactive:
            found.append("cursor")
        if point in self.path:
            found.append("path")
        if self.hint is not None and point in self.steps(self.hint):
            found.append("hint")
        if piece_target:
            found.append("target")
        if point in self.lit:
            found.append("win")
        if self.last_move is not None and point in self.steps(self.last_move):
            found.append("last")
        return found

    def mark(self, point: P) -> str | None:
        """The first mark of ``point`` (cursor, path, hint, win, last) or None."""
        found = self.marks(point)
        return found[0] if found else None

    def style(self, name: str) -> Style:
        """The rich style of the component class ``board--<name>``."""
        return self.get_component_rich_style(f"board--{name}", partial=True)

    def put_point(self, canvas: Canvas, x: int, y: int, point: P, glyph: str,
                  glyph_style: Style | None, base: Style | None = None,
                  piece_target: bool = False) -> None:
        """Draw a three-cell point ``[g]`` at (x, y): brackets, then the glyph.

        ``piece_target`` marks a piece that may be picked or removed with ``+g+``.
        """
        found = self.marks(point, piece_target)
        mark = found[0] if found else None
        right = found[1] if mark == "cursor" and len(found) > 1 else None
        self.put_marked(canvas, x, y, mark, glyph, glyph_style, base, right=right)
        canvas.hit(x, y, 3, point)

    def put_marked(self, canvas: Canvas, x: int, y: int, mark: str | None, glyph: str,
                   glyph_style: Style | None, base: Style | None = None,
                   right: str | None = None) -> None:
        """Draw ``glyph`` at (x + 1, y) between the brackets of ``mark`` (see MARKS); a
        ``right`` mark gives the right-hand bracket (a second mark under the cursor)."""
        left, right_bracket = MARKS[mark] if mark else (" ", " ")
        if right is not None:
            right_bracket = MARKS[right][1]
        style = base
        if mark:
            extra = self.style({"last": "last-move"}.get(mark, mark))
            style = base + extra if base else extra
        canvas.put(x, y, left, style)
        canvas.put(x + 2, y, right_bracket, style)
        gstyle = glyph_style if style is None else (style + glyph_style if glyph_style else style)
        canvas.put(x + 1, y, glyph, gstyle)

    def piece_style(self, player: int | None) -> Style | None:
        """Style of a piece of ``player`` (None for none)."""
        if player is None:
            return None
        return self.style("first" if player == 0 else "second")

    def empty_glyph(self, point: P | None, targets: set[P]) -> tuple[str, Style | None]:
        """Glyph and style of an empty point: ``+`` if a legal target, else a dot."""
        if point in targets:
            return "+", self.style("target")
        if point in self.gone:
            return ("x" if self.ascii else "×"), self.style("last-move")
        return ("." if self.ascii else "·"), self.style("line")

    # -- Textual --------------------------------------------------------------------
    def base_canvas(self) -> Canvas:
        """The board drawn compact and unturned, cached until the state or any view
        reactive changes."""
        key = (self.state, self.cursor, self.path, self.hint, self.last_move, self.previous,
               self.interactive, self.ascii, self.app.theme, self.view_key())
        if self._canvas is None or self._canvas[0] != key:
            self.lit = self.highlights() if self.state is not None else set()
            self.gone = self.captured() if self.state is not None else set()
            self._canvas = (key, self.draw())
            self._shown = None
        return self._canvas[1]

    def view_key(self) -> Any:
        """Anything else a subclass draws from (part of the drawing's cache key)."""
        return None

    def canvas(self) -> Canvas:
        """The board as shown: turned if ``flipped``, enlarged by ``scale``."""
        base = self.base_canvas()
        key = (id(base), self.flipped, self.scale)
        if self._shown is None or self._shown[0] != key:
            shown = base.rotated() if self.flipped and self.CAN_FLIP else base
            self._shown = (key, shown.scaled(self.scale))
        return self._shown[1]

    def fit_scale(self, width: int, height: int) -> int:
        """The largest scale (up to MAX_SCALE) at which the board fits ``width`` ×
        ``height`` cells (its padding included)."""
        if self.state is None:
            return 1
        base = self.base_canvas()
        for factor in range(self.MAX_SCALE, 1, -1):
            if base.width * factor + 2 <= width and base.height * factor <= height:
                return factor
        return 1

    def on_click(self, event: events.Click) -> None:
        """A click on a point chooses it, as the cursor and Enter would."""
        offset = event.get_content_offset(self)
        if offset is None or self.state is None:
            return
        point = self.canvas().hits.get((offset.x, offset.y))
        if point is None:
            return
        event.stop()
        self.focus()
        self.cursor = cast(P, point)  # a board's canvas holds only that board's points
        self.action_select()

    def render(self) -> Text:
        if self.state is None:
            return Text("")
        if self.reader:
            return Text("\n".join(self.reader_lines()))
        return self.canvas().to_text()

    def render_lines(self, crop: Region) -> list[Strip]:
        # the drawing is looked up once for all the lines drawn now, not once a line
        self._frame = self.canvas() if self.state is not None and not self.reader else None
        try:
            return super().render_lines(crop)
        finally:
            self._frame = None

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the drawing, made from the canvas directly: the same strip
        Textual makes of :meth:`render`'s Text (``tests/tui/test_board_strips.py``),
        without laying the Text out again, and only for the rows that changed since
        the last drawing (the others are kept)."""
        if self.state is None or self.reader:
            return super().render_line(y)
        canvas = self._frame or self.canvas()
        if not 0 <= y < canvas.height:
            return Strip.blank(self.size.width, self.visual_style.rich_style)
        base = self.visual_style
        key = (y, tuple(canvas.chars[y]), tuple(canvas.styles[y]))
        if self._rows_base != base:  # another theme, or the focus's border: all anew
            self._rows, self._rows_base = {}, base
        strip = self._rows.get(key)
        if strip is None:
            if len(self._rows) > 4 * canvas.height:
                self._rows.clear()
            segments = []
            x = 0
            for run, style in canvas.runs(y):
                visual = (base + VisualStyle.from_rich_style(style, self.app.ansi_theme) if style
                          else base)
                segments.append(Segment(run, visual.rich_style_with_offset(x, y)))
                x += len(run)
            strip = self._rows[key] = Strip(segments, canvas.width)
        return strip

    def get_content_width(self, container: Any, viewport: Any) -> int:
        if self.reader:
            return super().get_content_width(container, viewport)
        return self.canvas().width if self.state is not None else 1

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        if self.reader:
            return super().get_content_height(container, viewport, width)
        return self.canvas().height if self.state is not None else 1

    def drawn_size(self) -> tuple[int, int] | None:
        """The drawing's width and height (None: no drawing, or one in words, whose
        size only a layout tells)."""
        if self.state is None or self.reader:
            return None
        canvas = self.canvas()
        return canvas.width, canvas.height

    def watch_state(self, old: S | None, new: S | None) -> None:
        self.path = ()
        self.hint = None
        if new is not None and (old is None or old.options != new.options
                                or type(old) is not type(new)):
            self.cursor = self.start_point(new)
        # a move is drawn in place; the screen is laid out again only for a new size
        size = self.drawn_size() if self.is_mounted else None
        if size is None or size != self.laid_size:
            self.refresh(layout=True)
        self.laid_size = size
        self.repaint_changes()

    def watch_cursor(self) -> None:
        self.repaint_changes()

    def watch_path(self) -> None:
        self.repaint_changes()

    def watch_last_move(self) -> None:
        self.repaint_changes()

    def watch_hint(self) -> None:
        self.repaint_changes()

    def watch_previous(self) -> None:
        self.repaint_changes()

    def watch_interactive(self) -> None:
        self.repaint_changes()

    def repaint_changes(self) -> None:
        """A view reactive changed: once every change of the moment is made (a move sets
        several), repaint the rows of the drawing that changed, not the whole board."""
        if not self._repaint_pending:
            self._repaint_pending = True
            self.call_later(self.repaint_rows)

    def repaint_rows(self) -> None:
        self._repaint_pending = False
        if self.state is None or self.reader or not self.is_mounted:
            self._painted = None
            self.refresh()
            return
        canvas = self.canvas()
        rows = [(tuple(canvas.chars[y]), tuple(canvas.styles[y])) for y in range(canvas.height)]
        before, self._painted = self._painted, rows
        if before is None or len(before) != len(rows) or len(before[0][0]) != canvas.width:
            self.refresh()
            return
        changed = [Region(0, y, canvas.width, 1) for y, row in enumerate(rows) if row != before[y]]
        if changed:
            self.refresh(*changed)
