"""``parlor host``: Parlor served over SSH, with rooms where people play and watch.

- :mod:`tui.host.server`: the SSH server (asyncssh); each session runs the app in its
  own process on a pseudo-terminal.
- :mod:`tui.host.rooms`: the room service (one per host) that holds every room's game,
  checks its moves with the engine, runs its clock and records it.
- :mod:`tui.link.wire`: the small line-delimited JSON protocol between the two.
- :mod:`tui.player.clock`: time controls and game clocks.
- :mod:`tui.link.client`: what a session uses to talk to the room service.
- :mod:`tui.host.web`: ``--web``, the same app and rooms for web browsers (guests).
- :mod:`tui.host.roomfile`: rooms in progress kept on disk, so a killed host loses none.
- :mod:`tui.host.brainseat`: the brains a room may seat, their ratings, their search.
- :mod:`tui.host.db`: the host's database (``host.db``, SQLite): players, keys, names,
  ratings, the archive of finished games, invitations, chat; its backup.

asyncssh is an optional extra (``pip install "parlor[host]"``); only ``server``
imports it. ``web`` needs textual-serve (the ``serve`` extra) and is imported only
with ``--web``.
"""
