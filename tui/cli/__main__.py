"""``python -m tui.cli``: the ``parlor`` command (the console script calls :func:`main`)."""

import sys

from tui.cli import main

sys.exit(main())
