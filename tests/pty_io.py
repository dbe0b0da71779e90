"""Helpers for tests that drive a program in a pseudo-terminal."""

from __future__ import annotations

import os
import time
from typing import Any


def drain(fd: int, into: bytearray | None = None) -> bool:
    """Read whatever the app wrote to the terminal (so it never blocks), appending it to
    ``into`` if given; always True."""
    import select

    while select.select([fd], [], [], 0.05)[0]:
        try:
            data = os.read(fd, 65536)
        except OSError:
            break
        if not data:
            break
        if into is not None:
            into.extend(data)
    return True


def wait_for(check: Any, what: str, seconds: float = 30.0) -> None:
    """Poll ``check`` until it is true; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what}")

