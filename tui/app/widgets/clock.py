"""ClockPanel: the two clocks of a game beside the board, and the flag.

The panel shows a :class:`tui.player.clock.Clock` (a local game's session starts,
presses and stops it; a room's screen sets it from what the host sends) and reads the
time from the ``now`` it is given. It draws only when what it shows changes: it wakes
when the running clock's text next changes (once a second, a tenth under ten seconds),
not on a fixed tick; not at all while no clock runs; and while its screen is not shown
only when the flag falls (the screen calls :meth:`ClockPanel.redraw` when shown again).
It marks a clock running low and posts :class:`ClockPanel.FlagFell` once when the side
to move runs out of time.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from rich.text import Text
from textual.message import Message
from textual.timer import Timer

from tui.app.widgets.text import TextPanel
from tui.player.clock import LOW_TIME, Clock, show, until_change


class ClockPanel(TextPanel):
    """Both sides' remaining time; the running clock marked with ``>``."""

    DEFAULT_CSS = """
    ClockPanel { height: auto; padding: 0 1; border: round $secondary; }
    """

    @dataclass
    class FlagFell(Message):
        """``side`` ran out of time."""

        side: int

    def __init__(self, clock: Clock | None, names: tuple[str, str],
                 now: Callable[[], float], **kwargs: object) -> None:
        super().__init__("", **kwargs)
        self.clock = clock
        """The clock shown (None: "No clock")."""
        self.now = now
        self.names = names
        self.fallen: int | None = None
        self.wake: Timer | None = None
        """The timer set for the next change of the text (or the flag's fall)."""

    def on_mount(self) -> None:
        self.redraw()

    def remaining(self, side: int) -> float:
        assert self.clock is not None
        return self.clock.remaining(side, self.now())

    def redraw(self) -> None:
        """Show the clocks as they are now (if the screen is shown), post FlagFell if the
        flag has just fallen, and wake again when the running clock's text changes."""
        if self.wake is not None:
            self.wake.stop()
            self.wake = None
        clock = self.clock
        if clock is None:
            self.update(Text("No clock"))
            return
        now = self.now()
        side = clock.flagged(now)
        if side is not None and self.fallen is None:
            self.fallen = side
            self.post_message(self.FlagFell(side))
        visible = bool(getattr(self.screen, "in_view", True))
        if visible:
            self.update(self.text(now))
        if clock.running is not None:
            left = clock.remaining(clock.running, now)
            delay = until_change(left) if visible else left + 0.01
            if math.isfinite(delay):
                self.wake = self.set_timer(delay, self.redraw)

    def text(self, now: float) -> Text:
        assert self.clock is not None
        lines = []
        for side in (0, 1):
            left = self.clock.remaining(side, now)
            running = side == self.clock.running
            low = left < LOW_TIME
            lines.append(Text(f"{'>' if running else ' '} {self.names[side]:<6} {show(left):>7}"
                              f"{'  LOW TIME' if low else ''}",
                              "bold reverse" if low and running else ("bold" if running else "")))
        return Text("\n").join(lines)
