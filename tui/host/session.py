"""One SSH session's process: the Parlor app on the pseudo-terminal the host gave it.

Run by the host as ``python -m tui.host.session``. It takes the terminal as its
controlling terminal (so resizes reach it as SIGWINCH) and runs :class:`HostedApp`, the
app with two more ways in: F2 (Play a person) and F3 (Watch).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import signal
import sys
import termios
from pathlib import Path
from typing import ClassVar

from textual.binding import Binding, BindingType

import tui.app.main
from tui.app.main import ParlorApp
from tui.app.screens.home import HomeScreen

LINK_WAIT = 120.0
"""Seconds a session back to its game waits for the rooms screen to take its link (a
safety net: it goes on as soon as the screen has it)."""


class HostedApp(ParlorApp):
    """The app as served by ``parlor host``: rooms are one key away."""

    CSS_PATH = str(Path(tui.app.main.__file__).with_name("parlor.tcss"))

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f2", "rooms(False)", "Play a person", tooltip="Create or join a room"),
        Binding("f3", "rooms(True)", "Watch", tooltip="Watch a game in progress"),
    ]

    def on_mount(self) -> None:
        super().on_mount()
        self.run_worker(self.back_to_game(), name="back-to-game", exit_on_error=False)

    async def back_to_game(self) -> None:
        """A player whose seat in a game in progress waits for them (back after a dropped
        line, or after the host's restart) lands on that game, not on Home: the room
        service names those games when the session's link says who it is."""
        from tui.app.screens.rooms import RoomsScreen
        from tui.link import client

        try:
            link = await client.get_link()
        except (OSError, ValueError):
            return  # the rooms are out of reach: F2 says so when asked
        codes = link.back  # a game open in another session of theirs is left there
        if not codes or not isinstance(self.screen, HomeScreen):
            return
        rooms = RoomsScreen()
        await self.push_screen(rooms)
        # its link, the same one, is taken when it mounts: wait for that however long a
        # loaded machine takes, up to minutes (a count of tries gave up after 10 s)
        loop = asyncio.get_running_loop()
        given_up = loop.time() + LINK_WAIT
        while rooms.link is None and rooms.is_attached and loop.time() < given_up:
            await asyncio.sleep(0.05)
        if rooms.link is not None and rooms.is_current:
            rooms.ask({"t": "join", "code": codes[0]})

    def action_rooms(self, watch: bool) -> None:
        """Open the room lists (to play, or to watch)."""
        from tui.app.screens.rooms import RoomsScreen

        if not isinstance(self.screen, RoomsScreen):
            self.push_screen(RoomsScreen(watch=watch))


def main() -> int:
    """Take the terminal on stdin as the controlling terminal and run the app.

    A hang-up ends the session, whatever the host inherited: a host started under
    ``nohup`` (or anything else that ignores SIGHUP) passes that on, and a session
    ignoring it would outlive its terminal, spinning on a closed pty.
    """
    for sig in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, signal.SIG_DFL)
    if os.isatty(0):
        with contextlib.suppress(OSError):
            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    try:
        HostedApp().run()
    except BrokenPipeError:
        # the player went away mid-write: nothing to say, and nobody to say it to (the
        # interpreter's own flush at exit would otherwise print a traceback)
        devnull = os.open(os.devnull, os.O_WRONLY)
        for fd in (1, 2):
            with contextlib.suppress(OSError):
                os.dup2(devnull, fd)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
