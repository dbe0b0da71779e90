"""Room chat as text: what a chat line may hold, and its lines on the wire.

Both ends use this: the room service cleans every line a client says before it keeps or
sends it, and a session cleans every line the service sends before it shows it (nothing
read is trusted). A clean line is text only: escape sequences (CSI, OSC, DCS, SOS, PM,
APC, in their 7-bit and 8-bit forms) are removed whole, then every other control and
format character (C0, DEL, C1, bidi overrides and isolates, zero-width characters,
private-use and unassigned code points, surrogates); every run of whitespace (tabs,
newlines, line and paragraph separators, no-break and other wide spaces) becomes one
space; no character carries more than :data:`MAX_MARKS` combining marks; the ends are
trimmed.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from engine.protocol import ParlorError

MAX_CHARS = 200
"""Longest chat line, in characters, once cleaned."""
MAX_RAW = 1000
"""Longest ``text`` field a client may send (escape sequences are removed from it)."""
MAX_MARKS = 2
"""Combining marks kept on one character (more are dropped: no towers of accents)."""
MAX_NAME = 24
"""Longest author name shown."""

_ESCAPES = re.compile(
    r"\x1b\[[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"          # CSI ... final
    r"|\x9b[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"            # 8-bit CSI
    r"|[\x1b][\]PX^_][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC, DCS, SOS, PM, APC
    r"|[\x9d\x90\x98\x9e\x9f][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # their 8-bit forms
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"                        # any other ESC sequence
)
_DROPPED = {"Cc", "Cf", "Cs", "Co", "Cn"}
_MARKS = {"Mn", "Me"}


class ChatRefused(ParlorError):
    """A chat line that cannot be said (empty, too long); the message says why."""


def clean(text: str) -> str:
    """``text`` as a chat line may show it (see the module's notes); "" when nothing of
    it is left. It is not cut: :func:`check` refuses a line too long."""
    if text.isascii() and text.isprintable():  # the usual line: nothing but spaces to do
        return " ".join(text.split())
    text = _ESCAPES.sub("", text)
    out: list[str] = []
    marks = 0
    for char in text:
        if char.isspace():
            if out and out[-1] != " ":
                out.append(" ")
            marks = 0
            continue
        category = unicodedata.category(char)
        if category in _DROPPED:
            continue
        if category.startswith("Z"):  # a separator isspace() missed
            if out and out[-1] != " ":
                out.append(" ")
            continue
        if category in _MARKS:
            if not out or out[-1] == " " or marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
        out.append(char)
    return "".join(out).strip()


def check(text: str) -> str:
    """``text`` cleaned, or ChatRefused (one line) when it is empty or too long."""
    line = clean(text)
    if not line:
        raise ChatRefused("an empty chat line is not sent")
    if len(line) > MAX_CHARS:
        raise ChatRefused(f"a chat line is at most {MAX_CHARS} characters "
                          f"(this one has {len(line)})")
    return line


@dataclass(frozen=True, slots=True)
class ChatLine:
    """One line said in a room: who said it, whether as a spectator, and what."""

    name: str
    spectator: bool
    text: str

    def to_wire(self) -> dict[str, Any]:
        return {"name": self.name, "spectator": self.spectator, "text": self.text}

    @classmethod
    def from_wire(cls, value: Any) -> ChatLine | None:
        """The line in ``value`` (cleaned again), or None when it is not one."""
        if not isinstance(value, dict):
            return None
        name, spectator, text = value.get("name"), value.get("spectator"), value.get("text")
        if not (isinstance(name, str) and isinstance(spectator, bool)
                and isinstance(text, str) and len(text) <= MAX_RAW and len(name) <= MAX_RAW):
            return None
        text = clean(text)[:MAX_CHARS]
        if not text:
            return None
        return cls(clean(name)[:MAX_NAME] or "someone", spectator, text)

    def shown(self) -> str:
        """The line as the room screen shows it: the author's name and role in words."""
        role = " (spectator)" if self.spectator else ""
        return f"{self.name}{role}: {self.text}"


def lines_from(message: dict[str, Any], limit: int = 500) -> list[ChatLine]:
    """The chat lines of a ``chat`` message (those that are not lines dropped)."""
    raw = message.get("lines")
    if not isinstance(raw, list):
        return []
    return [line for item in raw[:limit] if (line := ChatLine.from_wire(item)) is not None]
