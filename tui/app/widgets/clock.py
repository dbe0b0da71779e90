"""ClockPanel: the two clocks of a local game beside the board, and the flag.

The panel owns a :class:`tui.player.clock.Clock` for the game's time control: the screen
calls :meth:`ClockPanel.start` when play begins and :meth:`ClockPanel.press` after each
move; the panel redraws itself (only when what it shows changes), marks a clock
running low, and posts :class:`ClockPanel.FlagFell` once when the side to move runs
out of time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from brains.timeman import clock_allot
from engine.protocol import State
from tui.player.clock import LOW_TIME, Clock, TimeControl, show

TICK_SECONDS = 0.25


class ClockPanel(Static):
    """Both sides' remaining time; the running clock marked with ``>``."""

    DEFAULT_CSS = """
    ClockPanel { height: auto; padding: 0 1; border: round $secondary; }
    """

    @dataclass
    class FlagFell(Message):
        """``side`` ran out of time."""

        side: int

    def __init__(self, control: TimeControl, names: tuple[str, str], **kwargs: object) -> None:
        super().__init__("", markup=False, **kwargs)  # type: ignore[arg-type]
        self.control = control
        self.clock = Clock(control)
        self.names = names
        self.fallen: int | None = None
        self.shown: Text | None = None

    def on_mount(self) -> None:
        self.set_interval(TICK_SECONDS, self.tick)
        self.redraw()

    def start(self, side: int) -> None:
        """Make ``side``'s clock the running one (at the start, or after a takeback)."""
        if self.clock.running != side and self.fallen is None:
            now = time.monotonic()
            self.clock.stop(now)
            self.clock.start(side, now)

    def press(self) -> None:
        """The side to move has moved: its increment, and the other side's clock runs."""
        if self.fallen is None:
            self.clock.press(time.monotonic())
        self.redraw()

    def stop(self) -> None:
        """The game is over: both clocks stop."""
        self.clock.stop(time.monotonic())
        self.redraw()

    def remaining(self, side: int) -> float:
        return self.clock.remaining(side, time.monotonic())

    def allot(self, state: State) -> float:
        """Seconds a brain may think on ``state`` (see :func:`brains.timeman.clock_allot`)."""
        return clock_allot(state, self.remaining(state.to_move), self.control.increment)

    def tick(self) -> None:
        side = self.clock.flagged(time.monotonic())
        if side is not None and self.fallen is None:
            self.fallen = side
            self.clock.stop(time.monotonic())
            self.post_message(self.FlagFell(side))
        self.redraw()

    def redraw(self) -> None:
        lines = []
        for side in (0, 1):
            left = self.remaining(side)
            running = side == self.clock.running
            low = left < LOW_TIME
            lines.append(Text(f"{'>' if running else ' '} {self.names[side]:<6} {show(left):>7}"
                              f"{'  LOW TIME' if low else ''}",
                              "bold reverse" if low and running else ("bold" if running else "")))
        text = Text("\n").join(lines)
        if text != self.shown:
            self.shown = text
            self.update(text)
