"""ParlorScreen: the base of every full screen; shows "enlarge to …" when too small."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any, ClassVar

from textual import events
from textual.screen import Screen
from textual.widgets import Static
from textual.widgets._header import HeaderIcon

from tui.app.api import ParlorApi
from tui.app.widgets.board import BoardWidget
from tui.app.widgets.clock import ClockPanel

MIN_WIDTH, MIN_HEIGHT = 80, 24
"""The smallest terminal the layouts are made for (screens with a board: see
:meth:`ParlorScreen.min_size`)."""
READER_MIN_SIZE = (40, 10)
"""The smallest terminal in screen-reader mode (the screen scrolls)."""
SIDE_MIN = 26
"""The narrowest side panel (players, status, moves) beside a board."""
PANEL_MIN = 34
"""The narrowest board panel (the legend's width)."""
BOARD_CHROME = (6, 8)
"""Columns and rows a board panel adds around the board: padding, border, the lines
under it, and the header and footer."""


def legend_extra(board: BoardWidget[Any, Any]) -> int:
    """Rows the board's legend takes beyond the two :data:`BOARD_CHROME` counts."""
    return max(0, board.legend().count("\n") + 1 - 2)


def release_early_keys(screen: Screen[Any]) -> None:
    """Tell the app that ``screen`` is up: keys pressed while the app started can be
    handled now (see ``ParlorApp.release_early_keys``)."""
    release = getattr(screen.app, "release_early_keys", None)
    if callable(release):
        release()


class ParlorScreen(Screen[None]):
    """A screen that covers itself with a notice while the terminal is too small."""

    MIN_SIZE: ClassVar[tuple[int, int]] = (MIN_WIDTH, MIN_HEIGHT)

    @property
    def parlor(self) -> ParlorApi:
        """The app, through the interface screens may use."""
        app = self.app
        if not isinstance(app, ParlorApi):
            raise TypeError(f"{type(self).__name__} runs only inside the Parlor app")
        return app

    @property
    def in_view(self) -> bool:
        """Whether the player sees this screen: the top one, or one under dialogs only (a
        dialog lets the screen under it show through). Textual's ``is_current`` also
        counts the screen just under any top screen, which the player does not see under
        a full one: periodic work (a list's refresh, a clock) waits while a screen is not
        shown, since a change drawn on that screen makes Textual redraw the whole top one."""
        for screen in reversed(self.app.screen_stack):
            if screen is self:
                return True
            if not screen.is_modal:
                return False
        return False

    too_small = False
    """True while the terminal is smaller than :meth:`min_size` (keys are then ignored,
    all but the quit keys, so nothing happens unseen)."""

    def min_size(self) -> tuple[int, int]:
        """The smallest terminal this screen's layout fits (columns, rows): for a screen
        with a board, what its game's board needs at its compact size."""
        boards = self.query(BoardWidget)
        if isinstance(self.app, ParlorApi) and self.parlor.screen_reader:
            return READER_MIN_SIZE  # lines under one another, scrolled: no board to fit
        if not boards or boards.first().state is None:
            return self.MIN_SIZE
        base = boards.first().base_canvas()
        width = max(PANEL_MIN, base.width + BOARD_CHROME[0]) + SIDE_MIN
        height = max(16, base.height + BOARD_CHROME[1] + legend_extra(boards.first()))
        return max(60, width), height

    def fit_board(self) -> None:
        """Show the board as large as the terminal allows, beside a side panel."""
        width, height = self.app.size
        for board in self.query(BoardWidget):
            board.scale = board.fit_scale(width - SIDE_MIN - BOARD_CHROME[0] - 12,
                                          height - BOARD_CHROME[1] - legend_extra(board))

    def on_mount(self) -> Awaitable[None] | None:
        # Textual calls every class's on_mount along the MRO; a subclass's may be async.
        self.mount(Static(id="too-small", markup=False))
        self.check_size()
        self.show_ascii(self.parlor.ascii_board)
        self.show_reader(self.parlor.screen_reader)
        self.call_after_refresh(release_early_keys, self)
        return None

    def on_screen_resume(self) -> None:
        # Textual calls every class's on_screen_resume along the MRO, this one too.
        for panel in self.query(ClockPanel):  # they wait while the screen is not shown
            panel.redraw()

    def show_ascii(self, ascii: bool) -> None:
        """Draw the header's icon (and the boards) in plain ASCII or not; frames and
        buttons follow the app's ``-ascii`` class in the stylesheet."""
        for icon in self.query(HeaderIcon):
            icon.icon = "*" if ascii else "⭘"
        for arrow in self.query(".down-arrow").results(Static):
            arrow.update("v" if ascii else "▼")
        for arrow in self.query(".up-arrow").results(Static):
            arrow.update("^" if ascii else "▲")
        for board in self.query(BoardWidget):
            board.ascii = ascii

    def show_reader(self, reader: bool) -> None:
        """Screen-reader mode on or off for this screen: its boards in words, no blinking
        cursor in its fields (the layout follows the app's ``-reader`` class)."""
        from textual.widgets import Input

        self.show_ascii(self.parlor.ascii_board or reader)  # no glyphs to spell out
        for board in self.query(BoardWidget):
            board.reader = reader
        for field in self.query(Input):
            field.cursor_blink = not reader
        self.check_size()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.mark_focused_field()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self.mark_focused_field()

    def mark_focused_field(self) -> None:
        """Give the form row (``.field``) holding the focus the class ``-has-focus``:
        its label is then shown reversed (the stylesheet), not by colour alone."""
        focused = self.focused
        for field in self.query(".field"):
            field.set_class(focused is not None and field in focused.ancestors_with_self,
                            "-has-focus")

    def on_resize(self, event: events.Resize) -> None:
        self.check_size()
        self.fit_board()

    def check_size(self) -> None:
        """Show or hide the notice for the current terminal size."""
        notices = self.query("#too-small")
        if not notices:
            return
        notice = notices.first(Static)
        width, height = self.app.size
        need_w, need_h = self.min_size()
        small = width < need_w or height < need_h
        self.too_small = small
        if small:
            notice.update(f"Terminal {width}×{height} is too small.\n\n"
                          f"Please enlarge to {need_w}×{need_h} or more.\n\n"
                          "(q leaves, ctrl+q quits)")
        notice.display = small
