"""Speak Parlor's engine line protocol on stdin/stdout (UCI/GTP style; see docs/ENGINE.md)."""

from __future__ import annotations

import argparse
import sys

from tui.cli.common import MAX_SEED, seed_type


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=seed_type, default=0,
                        help=f"seed given to every brain the engine makes (0 to {MAX_SEED}; "
                             "default 0)")


def run(args: argparse.Namespace) -> int:
    from brains.engine_protocol import run_engine

    return run_engine(sys.stdin, sys.stdout, seed=args.seed)
