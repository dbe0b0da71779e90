"""ParlorScreen: the base of every full screen; shows "enlarge to …" when too small."""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.screen import Screen
from textual.widgets import Static

from tui.api import ParlorApi

MIN_WIDTH, MIN_HEIGHT = 80, 24
"""The smallest terminal the layouts are made for."""


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

    def on_mount(self) -> None:
        self.mount(Static(id="too-small", markup=False))
        self.check_size()

    def on_resize(self, event: events.Resize) -> None:
        self.check_size()

    def check_size(self) -> None:
        """Show or hide the notice for the current terminal size."""
        notices = self.query("#too-small")
        if not notices:
            return
        notice = notices.first(Static)
        width, height = self.app.size
        need_w, need_h = self.MIN_SIZE
        small = width < need_w or height < need_h
        if small:
            notice.update(f"Terminal {width}×{height} is too small.\n\n"
                          f"Please enlarge to {need_w}×{need_h} or more.\n\n(q quits)")
        notice.display = small
