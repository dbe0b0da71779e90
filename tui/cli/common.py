"""Helpers shared by the subcommands: option pairs, checked numbers, one-line errors."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
from collections.abc import Callable
from typing import Any

from engine.protocol import quote
from engine.registry import parse_options as parse_options

MAX_SEED = 2**32 - 1
"""Seeds are 32-bit (numpy and scikit-learn take no more)."""
MAX_SECONDS = 86_400.0
"""Longest time per move or per position a command accepts (a day)."""
JOBS_PER_CPU = 4
"""``--jobs`` is at most this many worker processes per CPU."""




def int_range(lo: int, hi: int) -> Callable[[str], int]:
    """An argparse ``type``: an integer from ``lo`` to ``hi``, else one line with the range."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"{quote(text)} is not an integer; allowed: {lo} to {hi}") from None
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(
                f"{quote(text)} is out of range; allowed: {lo} to {hi}")
        return value

    parse.__name__ = "integer"
    return parse


def float_range(lo: float, hi: float, *, above: bool = False) -> Callable[[str], float]:
    """An argparse ``type``: a finite number from ``lo`` (or above it, with ``above``)
    to ``hi``; NaN, infinities and anything else get one line with the range."""
    low = f"above {lo:g}" if above else f"{lo:g}"
    allowed = f"allowed: {low} to {hi:g}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{quote(text)} is not a number; {allowed}") from None
        if not math.isfinite(value) or value > hi or value < lo or (above and value == lo):
            raise argparse.ArgumentTypeError(f"{quote(text)} is out of range; {allowed}")
        return value

    parse.__name__ = "number"
    return parse


def max_jobs() -> int:
    """The most worker processes ``--jobs`` accepts: a few per CPU."""
    return JOBS_PER_CPU * (os.cpu_count() or 1)


def jobs_type(text: str) -> int:
    """An argparse ``type`` for ``--jobs``: 1 to :func:`max_jobs`; more is refused."""
    return int_range(1, max_jobs())(text)


seed_type = int_range(0, MAX_SEED)
"""An argparse ``type`` for ``--seed``."""

seconds_type = float_range(0.0, MAX_SECONDS, above=True)
"""An argparse ``type`` for a time limit in seconds."""


MAX_ADDRESS = 200
"""Longest ``--scheduler`` address accepted, in characters."""


def scheduler_type(text: str) -> str:
    """An argparse ``type`` for ``--scheduler``: a Dask scheduler address such as
    ``tcp://10.0.0.5:8786`` (one word, printable, at most :data:`MAX_ADDRESS` characters)."""
    address = text.strip()
    if not address or len(address) > MAX_ADDRESS or not address.isprintable() \
            or any(c.isspace() for c in address):
        raise argparse.ArgumentTypeError(
            f"{quote(text)} is not a scheduler address (e.g. tcp://10.0.0.5:8786)")
    return address


def add_scheduler_argument(parser: argparse.ArgumentParser) -> None:
    """``--scheduler ADDRESS``: run the games on a Dask cluster."""
    parser.add_argument("--scheduler", type=scheduler_type, default=None, metavar="ADDRESS",
                        help="play the games on the Dask cluster whose scheduler is at "
                             "ADDRESS (e.g. tcp://10.0.0.5:8786; needs parlor[dask]); "
                             "same seed, same results as locally")


def cluster(address: str | None) -> contextlib.AbstractContextManager[Any]:
    """The block's games on the Dask cluster at ``address``; locally when it is None."""
    if address is None:
        return contextlib.nullcontext()
    from brains.parallel import dask_cluster

    return dask_cluster(address)


def one_line(exc: object, limit: int = 300) -> str:
    """An error message (an error, or anything that says what went wrong) on one line
    and at most ``limit`` characters."""
    text = " ".join(str(exc).split()) or type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
