"""Open the app (Home), go straight to a game (--game, --position), or --resume.

With --position the game starts from that position instead of the game's start."""

from __future__ import annotations

import argparse

from engine.protocol import ParlorError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", help="start this game at once (tictactoe, connect4, …)")
    parser.add_argument("--first", default="human", metavar="SPEC",
                        help="who moves first: human or a brain spec (default human)")
    parser.add_argument("--second", default=None, metavar="SPEC",
                        help="who moves second: human or a brain spec (default a brain)")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option, e.g. size=6 or variant=flipcolor (repeatable)")
    parser.add_argument("--position", metavar="TEXT",
                        help="start from this position (docs/RULES.md, Positions); "
                             "with --game, or alone when the text fits one game")
    parser.add_argument("--clock", default="", metavar="TC",
                        help="time control of the game: MINUTES[+SECONDS] (5+3, 10) or none")
    parser.add_argument("--resume", action="store_true",
                        help="resume the most recent unfinished game")
    parser.add_argument("--ascii", action="store_true", help="draw boards in plain ASCII")
    parser.add_argument("--seed", type=int, default=None, help="seed for the brains")


def run(args: argparse.Namespace) -> int:
    import sys

    from engine.positions import games_for, parse_position
    from engine.protocol import quote
    from engine.registry import get_game
    from tui.app.main import Launch, ParlorApp
    from tui.cli.common import parse_options
    from tui.game import opponents
    from tui.player import store
    from tui.player.clock import TimeControl

    launch = Launch()
    game_id = args.game
    if args.position is not None and not game_id and not args.resume:
        fits = games_for(args.position)
        if len(fits) != 1:
            which = f"it fits {', '.join(fits)}" if fits else "it is no game's position"
            print(f"parlor play: say --game for position {quote(args.position)}: {which}",
                  file=sys.stderr)
            return 2
        game_id = fits[0]
    if args.resume:
        launch = Launch(kind="resume")
    elif game_id:
        try:
            game = get_game(game_id)
            position = None
            if args.position is not None:
                if args.option:
                    raise ParlorError("--position gives the board: no --option with it")
                position = parse_position(game.id, args.position)
            options = (position.options if position is not None
                       else game.resolve(parse_options(args.option)))
            second = args.second or opponents.default_opponent(game.id)
            players = (opponents.check_spec(args.first, game.id),
                       opponents.check_spec(second, game.id))
            store.check_readable(position or game.initial(**options), players)
            clock = TimeControl.parse(args.clock)
        except (ParlorError, ValueError) as exc:
            print(f"parlor play: {exc}", file=sys.stderr)
            return 2
        launch = Launch(kind="play", game=game.id, options=options, players=players,
                        position=position, clock=clock)
    ParlorApp(launch, ascii_board=args.ascii or None, seed=args.seed).run()
    return 0
