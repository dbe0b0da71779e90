"""Fair shares for a host open to strangers: a token bucket, and a log that cannot flood.

:class:`Bucket` is the usual token bucket (``burst`` at once, then ``rate`` a second);
the host uses one per session for window resizes and one per player for room creation.
:class:`LogLimiter` is a :class:`logging.Filter` that lets through a few records of one
kind (logger and message template) per interval and then one line saying how many were
dropped, so a flood of the same error (``Too many open files`` on every accept) cannot
fill the disk. Both take their clock as an argument, so tests drive them without waiting.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

Clock = Callable[[], float]


class Bucket:
    """``burst`` tokens at once, refilled at ``rate`` a second."""

    def __init__(self, burst: float, rate: float, clock: Clock = time.monotonic) -> None:
        self.burst = max(1.0, float(burst))
        self.rate = max(0.0, float(rate))
        self.clock = clock
        self.tokens = self.burst
        self.stamp = clock()

    def refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + max(0.0, now - self.stamp) * self.rate)
        self.stamp = now

    def take(self) -> bool:
        """Take one token; False (nothing taken) when none is left."""
        self.refill()
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def wait(self) -> float:
        """Seconds until a token is there (0 when one is there now)."""
        self.refill()
        if self.tokens >= 1:
            return 0.0
        return (1 - self.tokens) / self.rate if self.rate > 0 else float("inf")


class LogLimiter(logging.Filter):
    """At most ``burst`` records of one kind per ``interval`` seconds; the first record
    after a quiet spell says how many of its kind were dropped meanwhile. Tracebacks of
    a client that went away (a broken pipe, a reset connection) are cut to one line."""

    def __init__(self, burst: int = 5, interval: float = 60.0, clock: Clock = time.monotonic,
                 kinds: int = 1000) -> None:
        super().__init__()
        self.burst = max(1, burst)
        self.interval = interval
        self.clock = clock
        self.kinds = kinds
        self.seen: dict[tuple[str, str], tuple[float, int, int]] = {}
        """Per kind: when its window began, records let through and records dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and isinstance(record.exc_info[1], ConnectionError):
            exc = record.exc_info[1]
            record.msg = f"{record.msg} ({type(exc).__name__}: a client went away)"
            record.exc_info = None
            record.exc_text = None
        kind = (record.name, str(record.msg)[:200])
        now = self.clock()
        start, passed, dropped = self.seen.get(kind, (now, 0, 0))
        if now - start >= self.interval:
            if dropped:
                record.msg = f"{record.msg} [{dropped} more like this dropped]"
            start, passed, dropped = now, 0, 0
        if passed >= self.burst:
            self.seen[kind] = (start, passed, dropped + 1)
            return False
        if len(self.seen) >= self.kinds and kind not in self.seen:
            self.seen = {k: v for k, v in self.seen.items() if now - v[0] < self.interval}
            if len(self.seen) >= self.kinds:
                return False
        self.seen[kind] = (start, passed + 1, dropped)
        return True
