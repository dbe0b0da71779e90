"""List the games and their options."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")


def run(args: argparse.Namespace) -> int:
    import json

    from engine import GAMES

    if args.json:
        print(json.dumps([
            {"id": g.id, "name": g.name, "description": g.description,
             "options": {o.name: {"default": o.default, "choices": list(o.choices or ()),
                                  "help": o.help} for o in g.options}}
            for g in GAMES.values()
        ]))
        return 0
    for game in GAMES.values():
        print(f"{game.id:<10} {game.name} — {game.description}")
        for opt in game.options:
            choices = ("|".join(str(c) for c in opt.choices) if opt.choices
                       else type(opt.default).__name__)
            help_text = "  " + opt.help if opt.help else ""
            print(f"{'':<12}{opt.name}={choices} (default {opt.default}){help_text}")
    return 0
