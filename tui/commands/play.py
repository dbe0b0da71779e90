"""Open the app (Home), or go straight to a game with --game, or --resume."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", help="start this game at once (tictactoe, connect4, …)")
    parser.add_argument("--first", default="human", metavar="SPEC",
                        help="who moves first: human or a brain spec (default human)")
    parser.add_argument("--second", default=None, metavar="SPEC",
                        help="who moves second: human or a brain spec (default a brain)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, e.g. size=6 or variant=flipcolor (repeatable)")
    parser.add_argument("--resume", action="store_true", help="resume the most recent unfinished game")
    parser.add_argument("--ascii", action="store_true", help="draw boards in plain ASCII")
    parser.add_argument("--seed", type=int, default=None, help="seed for the brains")


def run(args: argparse.Namespace) -> int:
    import sys

    from engine.protocol import ParlorError
    from engine.registry import get_game
    from tui import opponents, store
    from tui.app import Launch, ParlorApp
    from tui.commands.common import parse_options

    launch = Launch()
    if args.resume:
        launch = Launch(kind="resume")
    elif args.game:
        try:
            game = get_game(args.game)
            options = game.resolve(parse_options(args.option))
            second = args.second or opponents.default_opponent(game.id)
            players = (opponents.check_spec(args.first, game.id),
                       opponents.check_spec(second, game.id))
            store.check_readable(game.initial(**options), players)
        except (ParlorError, ValueError) as exc:
            print(f"parlor play: {exc}", file=sys.stderr)
            return 2
        launch = Launch(kind="play", game=game.id, options=options, players=players)
    ParlorApp(launch, ascii_board=args.ascii or None, seed=args.seed).run()
    return 0
