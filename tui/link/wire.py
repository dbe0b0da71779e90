"""The room service's wire format: one JSON object per line, each at most MAX_LINE bytes.

Every message is an object with a string ``"t"`` (its type). :func:`decode` refuses
anything else (too long, not JSON, not an object, nesting too deep, a bad type) with
a WireError, so a reader never acts on a malformed message.
"""

from __future__ import annotations

import json
from typing import Any

from engine.protocol import ParlorError

MAX_LINE = 16_384
"""Longest message in bytes (a room's full state, every move included, fits easily)."""
MAX_FIELD = 200
"""Longest text field a client may send (codes, names, moves, options)."""


class WireError(ParlorError):
    """A message that is not well formed."""


def encode(message: dict[str, Any]) -> bytes:
    """One line of JSON for ``message`` (WireError if it would be too long)."""
    line = json.dumps(message, separators=(",", ":"), ensure_ascii=True).encode() + b"\n"
    if len(line) > MAX_LINE:
        raise WireError(f"message of {len(line)} bytes is too long")
    return line


def decode(line: bytes) -> dict[str, Any]:
    """The message in ``line``; WireError for anything malformed."""
    if len(line) > MAX_LINE:
        raise WireError("message too long")
    try:
        value = json.loads(line)
    except (ValueError, RecursionError):
        raise WireError("not JSON") from None
    if not isinstance(value, dict) or not isinstance(value.get("t"), str):
        raise WireError("not a message object")
    return value


def text(message: dict[str, Any], name: str, default: str | None = None,
         limit: int = MAX_FIELD) -> str:
    """The string field ``name`` (at most ``limit`` characters); WireError otherwise."""
    value = message.get(name, default)
    if not isinstance(value, str) or len(value) > limit:
        raise WireError(f"field {name!r} must be text of at most {limit} characters")
    return value


def flag(message: dict[str, Any], name: str, default: bool = False) -> bool:
    """The boolean field ``name``; WireError otherwise."""
    value = message.get(name, default)
    if not isinstance(value, bool):
        raise WireError(f"field {name!r} must be true or false")
    return value


def options(message: dict[str, Any], name: str = "options") -> dict[str, str]:
    """A small object of text (or number) options, as text; WireError otherwise."""
    value = message.get(name, {})
    if not isinstance(value, dict) or len(value) > 16:
        raise WireError(f"field {name!r} must be an object of at most 16 options")
    out: dict[str, str] = {}
    for key, item in value.items():
        if isinstance(item, bool) or not isinstance(item, (str, int)) \
                or len(str(key)) > 40 or len(str(item)) > 40:
            raise WireError(f"option {str(key)[:40]!r} must be short text or a number")
        out[str(key)] = str(item)
    return out
