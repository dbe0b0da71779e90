"""Time controls (``5+3``, ``10``, ``none``) and a two-sided game clock.

A time control is minutes for the whole game and an increment in seconds added after
each move (``5+3``: five minutes, three seconds a move). The clock takes ``now`` as an
argument everywhere, so it is pure and tests can drive it without waiting.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from engine.protocol import ParlorError, quote

MAX_MINUTES = 180
MAX_INCREMENT = 60
LOW_TIME = 10.0
"""Seconds left below which a clock is shown as running low."""

_CONTROL = re.compile(r"(\d{1,3}(?:\.\d{1,2})?)(?:\+(\d{1,2}))?")


class TimeControlError(ParlorError):
    """Text that is not a time control."""


@dataclass(frozen=True)
class TimeControl:
    """Seconds for the whole game per side and seconds added after each move."""

    initial: float
    increment: float = 0.0

    @classmethod
    def parse(cls, text: str) -> TimeControl | None:
        """``"5+3"`` -> 300 s + 3 s; ``"10"`` -> 600 s; ``""``/``"none"`` -> None (no clock)."""
        norm = str(text).strip().lower()
        if norm in ("", "none", "-", "0"):
            return None
        m = _CONTROL.fullmatch(norm)
        if not m:
            raise TimeControlError(f"time control {quote(text)} is not MINUTES[+SECONDS] "
                                   "(e.g. 5+3, 10 or none)")
        minutes, inc = float(m.group(1)), int(m.group(2) or 0)
        if not 0 < minutes <= MAX_MINUTES or inc > MAX_INCREMENT:
            raise TimeControlError(f"time control {quote(text)} is out of range: up to "
                                   f"{MAX_MINUTES} minutes and +{MAX_INCREMENT} seconds")
        return cls(minutes * 60.0, float(inc))

    def __str__(self) -> str:
        minutes = self.initial / 60.0
        text = f"{minutes:g}"
        return f"{text}+{self.increment:g}" if self.increment else text


class Clock:
    """Both sides' remaining time; the side to move's clock runs from ``started``."""

    def __init__(self, control: TimeControl):
        self.control = control
        self.left = [control.initial, control.initial]
        self.running: int | None = None
        self.started = 0.0

    def start(self, side: int, now: float) -> None:
        """Start ``side``'s clock (at the first move of a game, or after a takeback)."""
        self.running, self.started = side, now

    def stop(self, now: float) -> None:
        """Stop the running clock, charging the time it ran."""
        if self.running is not None:
            self.left[self.running] -= now - self.started
            self.running = None

    def remaining(self, side: int, now: float) -> float:
        """Seconds ``side`` has left at ``now`` (negative once the flag has fallen)."""
        left = self.left[side]
        if side == self.running:
            left -= now - self.started
        return left

    def press(self, now: float) -> None:
        """The running side moved: charge its time, add the increment, start the other."""
        side = self.running
        if side is None:
            return
        self.stop(now)
        self.left[side] += self.control.increment
        self.start(1 - side, now)

    def flagged(self, now: float) -> int | None:
        """The side whose time ran out, if any."""
        if self.running is not None and self.remaining(self.running, now) <= 0:
            return self.running
        return None


def show(seconds: float) -> str:
    """``m:ss`` (``m:ss.s`` under ten seconds) of a remaining time, never negative."""
    seconds = max(0.0, seconds)
    if seconds < LOW_TIME:
        return f"0:{seconds:04.1f}"
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


LOW_STEP = 0.1
"""How often a clock under :data:`LOW_TIME` may show other text (it shows tenths)."""


def until_change(seconds: float) -> float:
    """Seconds until :func:`show` of a clock running down from ``seconds`` shows other
    text, a hundredth more so that a wake-up then finds the change (a tenth under
    :data:`LOW_TIME`; infinity once it reads zero)."""
    if seconds <= 0:
        return math.inf
    if seconds < LOW_TIME:
        return LOW_STEP
    return seconds - math.floor(seconds) + 0.01
