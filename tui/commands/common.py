"""Helpers shared by the subcommands (option parsing, error printing)."""

from __future__ import annotations

from engine.protocol import OptionError


def parse_options(pairs: list[str]) -> dict[str, str]:
    """``["size=6", "variant=flipcolor"]`` -> a dict; a pair without ``=`` is an OptionError."""
    out: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise OptionError(f"option {pair!r} is not KEY=VALUE")
        out[name.strip()] = value.strip()
    return out
