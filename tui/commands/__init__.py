"""One module per ``parlor`` subcommand: ``add_arguments(parser)`` and ``run(args)``."""
