"""Parlor's user interface: the ``parlor`` command line and the Textual app.

Only ``tui.app.main`` and the modules it imports load Textual; the command-line
subcommands in ``tui.cli`` import it only when they open the app.
"""
