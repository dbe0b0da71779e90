"""The typed interface screens use to reach the app (implemented by ``ParlorApp``).

Screens never import :mod:`tui.app.main` (which imports them); they reach the app through
:attr:`tui.app.screens.base.ParlorScreen.parlor`, typed as :class:`ParlorApi`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from engine.protocol import AnyState
from engine.record import GameRecord
from tui.player.clock import TimeControl
from tui.player.store import Entry


@runtime_checkable
class ParlorApi(Protocol):
    """What a screen may ask of the app."""

    ascii_board: bool
    """Draw boards with plain ASCII characters."""
    screen_reader: bool
    """Screen-reader mode: plain lines, boards and moves in words."""
    seed: int | None
    """Seed for the brains (None: fresh randomness)."""

    def start_game(self, game_id: str, options: dict[str, Any], players: Iterable[str], *,
                   position: AnyState | None = None,
                   clock: TimeControl | None = None) -> None:
        """Start a new game of ``game_id``, from ``position`` when given, on ``clock`` if
        given (errors are shown, the app goes on)."""

    def play_record(self, record: GameRecord, upto: int | None = None,
                    players: tuple[str, str] | None = None, *,
                    game_file: str | None = None) -> None:
        """Play on from ``record`` after ``upto`` moves; ``game_file`` continues that
        stored game, else the game is a new one."""

    def resume_entry(self, entry: Entry) -> None:
        """Continue the stored unfinished game of ``entry``."""

    def resume(self) -> None:
        """Resume the most recent unfinished game, or say there is none."""

    def open_browser(self) -> None:
        """Show the saved games."""

    def open_replay(self, record: GameRecord, title: str = "",
                    source: Path | None = None) -> None:
        """Show a replay of ``record`` (read from the file ``source``, if any)."""

    def open_replay_file(self, path: Path) -> None:
        """Replay the first game in ``path``."""

    def show_error(self, title: str, message: str) -> None:
        """One clear message in a dialog."""

    def go_home(self) -> None:
        """Back to Home; the game on screen stays kept (asks first if it is not saved)."""

    def confirm_leave(self, then: Callable[[], None]) -> None:
        """Run ``then`` now, or after asking when a game's moves could not be saved."""
