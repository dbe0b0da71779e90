"""Speak Parlor's engine line protocol on stdin/stdout (UCI/GTP style; see docs/ENGINE.md)."""

from __future__ import annotations

import argparse
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seed", type=int, default=0,
                        help="seed given to every brain the engine makes (default 0)")


def run(args: argparse.Namespace) -> int:
    from brains.engine_protocol import run_engine

    return run_engine(sys.stdin, sys.stdout, seed=args.seed)
