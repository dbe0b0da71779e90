"""ClockPanel: the two clocks of a local game beside the board, and the flag.

The panel shows the game session's :class:`tui.player.clock.Clock` (the session starts,
presses and stops it); it reads the time from the ``now`` it is given, redraws itself
(only when what it shows changes), marks a clock running low, and posts
:class:`ClockPanel.FlagFell` once when the side to move runs out of time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.widgets import Static

from tui.player.clock import LOW_TIME, Clock, show

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

    def __init__(self, clock: Clock, names: tuple[str, str], now: Callable[[], float],
                 **kwargs: object) -> None:
        super().__init__("", markup=False, **kwargs)  # type: ignore[arg-type]
        self.clock = clock
        self.now = now
        self.names = names
        self.fallen: int | None = None
        self.shown: Text | None = None

    def on_mount(self) -> None:
        self.set_interval(TICK_SECONDS, self.tick)
        self.redraw()

    def remaining(self, side: int) -> float:
        return self.clock.remaining(side, self.now())

    def tick(self) -> None:
        side = self.clock.flagged(self.now())
        if side is not None and self.fallen is None:
            self.fallen = side
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
