"""List the brains (opponents), their levels and options (type, range, default)."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game",
                        help="show only the brains for this game, with its per-game levels")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _fmt(options: dict[str, object]) -> str:
    parts = []
    for key, value in options.items():
        if isinstance(value, dict):
            value = "/".join(f"{g}:{v}" for g, v in value.items())
        parts.append(f"{key}={value}")
    return ", ".join(parts) or "-"


def _fmt_default(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float):
        return format(value, ".6g")
    return str(value)


def run(args: argparse.Namespace) -> int:
    import json
    import sys
    from dataclasses import asdict

    from brains.registry import DEFAULT_LEVEL, list_brains
    from tui.cli.common import one_line

    try:
        infos = list_brains(args.game)
    except ValueError as exc:
        print(f"parlor brains: {one_line(exc)}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps([asdict(info) for info in infos]))
        return 0
    print(f"Spec: NAME[:LEVEL][,KEY=VALUE...]  (level default {DEFAULT_LEVEL}; "
          "e.g. alphabeta:hard,seconds=1.5; level:5 or level,rating=1200 for a rated level)")
    for info in infos:
        games = f"  [{', '.join(info.games)} only]" if info.games else ""
        print(f"\n{info.name:<11} {info.description}{games}")
        if info.name.startswith("external:"):
            print_engine(info.name.partition(":")[2])
        for level, options in info.levels.items():
            if options:
                print(f"{'':<11} {level:<7} {_fmt(options)}")
        if not info.options:
            print(f"{'':<11} options: -")
        for option in info.options:
            print(f"{'':<11} {option['name']}={option['type']}: {option['range']} "
                  f"(default {_fmt_default(option['default'])}); {option['help']}")
        if info.ladder:
            print_ladder(info.ladder)
    return 0


def print_ladder(rows: tuple[dict[str, object], ...]) -> None:
    """The rated levels: ``level:N``, its rating ± the half-width of its 95 % interval,
    the interval, and the spec it plays."""
    print(f"{'':<11} rated levels (random = 0; 95% interval):")
    for row in rows:
        rating, lo, hi = (float(row[k]) for k in ("rating", "lo", "hi"))  # type: ignore[arg-type]
        half = max(rating - lo, hi - rating)
        print(f"{'':<11} level:{row['level']:<3} {round(rating):>6} ± {round(half):<4} "
              f"[{round(lo)}, {round(hi)}]  {row['spec']}")


def print_engine(name: str) -> None:
    """How the external engine ``name`` is run: its command and protocol (from the
    user's engines.toml; unprintable characters shown as ``?``)."""
    import shlex

    from brains.external import ExternalEngineError, load_engines

    try:
        config = load_engines().get(name)
    except ExternalEngineError as exc:
        print(f"{'':<11} not usable: {_printable(str(exc))[:160]}")
        return
    if config is None:
        return
    command = _printable(shlex.join(config.command))
    if len(command) > 160:
        command = command[:159] + "…"
    print(f"{'':<11} command: {command}")
    print(f"{'':<11} protocol: {config.protocol}, timeout {_fmt_default(config.timeout)} s"
          + (f", its own search {config.brain} for {_fmt_default(config.seconds)} s a move"
             if config.protocol == "parlor" else ""))


def _printable(text: str) -> str:
    """``text`` with every control or unprintable character (terminal escapes) as ``?``."""
    return "".join(c if c.isprintable() else "?" for c in text)
