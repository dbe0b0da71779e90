"""Parlor's own PGN-style records as an export format (see :mod:`engine.record`)."""

from __future__ import annotations

from engine.record import GameRecord, format_records


def write(records: list[GameRecord]) -> str:
    """The games as Parlor records, separated by blank lines."""
    return format_records(records)
