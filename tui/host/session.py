"""One SSH session's process: the Parlor app on the pseudo-terminal the host gave it.

Run by the host as ``python -m tui.host.session``. It takes the terminal as its
controlling terminal (so resizes reach it as SIGWINCH) and runs :class:`HostedApp`, the
app with more ways in: F2 (Play a person), F3 (Watch), F6 (the player's account), F7
(the leaderboards) and F8 (correspondence games); a challenge from another player pops
up wherever the player is.
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
from typing import Any, ClassVar

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
        Binding("f6", "account", "Account", tooltip="Your name, keys, ratings and games"),
        Binding("f7", "leaders", "Leaders", tooltip="Each game's leaderboard on this host"),
        Binding("f8", "corr", "Correspondence",
                tooltip="Your correspondence games (days per move)"),
    ]

    def on_mount(self) -> None:
        super().on_mount()
        self.run_worker(self.back_to_game(), name="back-to-game", exit_on_error=False)

    async def back_to_game(self) -> None:
        """A player whose seat in a game in progress waits for them (back after a dropped
        line, or after the host's restart) lands on that game, not on Home: the room
        service names those games when the session's link says who it is. The session
        then says it is here (so it can be challenged) and hears its challenges."""
        from tui.link import client

        try:
            link = await client.get_link()
        except (OSError, ValueError):
            return  # the rooms are out of reach: F2 says so when asked
        link.subscribe(self.on_host)
        link.send({"t": "account", "invitations": True})
        link.send({"t": "corr_news"})  # your move in N correspondence games, results
        codes = link.back  # a game open in another session of theirs is left there
        if not codes or not isinstance(self.screen, HomeScreen):
            return
        await self.open_room(codes[0])

    def on_host(self, message: dict[str, Any]) -> None:
        """A message from the host for the whole session: a challenge, the account."""
        kind = message.get("t")
        if kind == "invited":
            from tui.app.dialogs.challenge import ChallengeDialog

            invitation = dict(message)
            number, code = invitation.get("id"), invitation.get("code")
            if not isinstance(number, int) or not isinstance(code, str):
                return

            def answered(accept: bool | None) -> None:
                from tui.link import client

                link = client.current_link()
                if link is None:
                    self.notify("The host cannot be reached.", severity="error")
                    return
                link.send({"t": "reply", "id": number, "accept": bool(accept)})
                if accept:
                    self.run_worker(self.open_room(code[:8]), exit_on_error=False)

            self.push_screen(ChallengeDialog(invitation), answered)
        elif kind == "account" and isinstance(self.screen, HomeScreen):
            self.screen.show_rank()
        elif kind == "corr_news":
            self.corr_news(message)
        elif kind == "corr_note":
            self.notify(str(message.get("text", ""))[:160], title="Correspondence")

    def corr_news(self, message: dict[str, Any]) -> None:
        """At login: how many correspondence games wait for this player's move (shown on
        Home) and the results they were not told yet."""
        yours = message.get("your_move")
        count = yours if isinstance(yours, int) and not isinstance(yours, bool) else 0
        home = next((s for s in reversed(self.screen_stack) if isinstance(s, HomeScreen)),
                    None)
        if home is not None:
            home.show_corr_news(count)
        lines = message.get("lines")
        for line in lines[:10] if isinstance(lines, list) else []:
            if isinstance(line, str):
                self.notify(line[:160], title="Correspondence", timeout=30)

    async def open_room(self, code: str) -> None:
        """Open the rooms screen and join (or go back to) the room ``code``."""
        from tui.app.screens.rooms import RoomsScreen

        rooms = self.screen if isinstance(self.screen, RoomsScreen) \
            and not self.screen.watch_mode else None
        if rooms is not None:
            rooms.ask({"t": "join", "code": code})
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
            rooms.ask({"t": "join", "code": code})

    def action_rooms(self, watch: bool) -> None:
        """Open the room lists (to play, or to watch)."""
        from tui.app.screens.rooms import RoomsScreen

        if not isinstance(self.screen, RoomsScreen):
            self.push_screen(RoomsScreen(watch=watch))

    def action_account(self) -> None:
        """Open the account: name, keys, ratings, record, recent games."""
        from tui.app.screens.account import AccountScreen

        if not isinstance(self.screen, AccountScreen):
            self.push_screen(AccountScreen())

    def action_corr(self) -> None:
        """Open the correspondence games."""
        from tui.app.screens.correspondence import CorrGameScreen, CorrScreen

        if not isinstance(self.screen, (CorrScreen, CorrGameScreen)):
            self.push_screen(CorrScreen())

    def action_leaders(self) -> None:
        """Open the leaderboards (of the game chosen on Home, when Home is shown)."""
        from tui.app.screens.account import LeadersScreen

        if not isinstance(self.screen, LeadersScreen):
            game = self.screen.game_id if isinstance(self.screen, HomeScreen) else None
            self.push_screen(LeadersScreen(game))


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
