"""The choices Parlor remembers between runs: the last game, its options, who played
each side, the time control of local games, the theme, whether room chat is muted
and screen-reader mode.

They live in ``settings.json`` in the data directory (:func:`tui.player.paths.data_dir`). The
file is read with a size cap (:func:`engine.files.read_capped`) and every field is checked
on its own: a field of the wrong type, an unknown game or a value too long is dropped
(its default applies), and a damaged file as a whole gives the defaults, never a crash.
Writing is atomic (a temporary file in the same folder, then ``os.replace``), so a
killed write leaves the old file whole.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.files import read_capped, write_atomic
from engine.protocol import ParlorError
from engine.registry import GAMES
from tui.player import paths
from tui.player.clock import TimeControl

FILE_NAME = "settings.json"
MAX_BYTES = 64 * 1024
"""A settings file larger than this is not read (the real one is a few hundred bytes)."""
MAX_TEXT = 100
"""Longest text value kept (a spec, an option value, a theme name)."""


@dataclass
class Settings:
    """What Home and the app remember; every field is valid (checked when read)."""

    game: str | None = None
    """The game chosen last (None: the default game)."""
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Game id -> option name -> the value chosen last."""
    players: dict[str, tuple[str, str]] = field(default_factory=dict)
    """Game id -> the specs chosen last for the first and second sides."""
    theme: str | None = None
    """The theme chosen last (None: Textual's default)."""
    clock: str | None = None
    """The time control of local games chosen last, as :class:`TimeControl` writes it
    (``5+3``), or ``none``; None: never chosen (no clock)."""
    chat_muted: bool = False
    """True when the room screen hides chat lines (only counts them)."""
    screen_reader: bool | None = None
    """Screen-reader mode chosen last (ctrl+r, the palette); None: never chosen."""

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object."""
        return {"game": self.game, "options": self.options,
                "players": {g: list(p) for g, p in self.players.items()},
                "theme": self.theme, "clock": self.clock, "chat_muted": self.chat_muted,
                "screen_reader": self.screen_reader}


def settings_path() -> Path:
    """Where the settings are kept."""
    return paths.data_dir() / FILE_NAME


def _text(value: Any) -> str | None:
    """``value`` if it is a short printable string, else None."""
    if isinstance(value, str) and 0 < len(value) <= MAX_TEXT and value.isprintable():
        return value
    return None


def _option_value(game_id: str, name: str, value: Any) -> Any:
    """``value`` if it fits option ``name`` of ``game_id``, else None."""
    option = next((o for o in GAMES[game_id].options if o.name == name), None)
    if option is None:
        return None
    if option.choices is not None:
        return value if any(value == c and type(value) is type(c) for c in option.choices) else None
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    return _text(value)


def clock_text(value: Any) -> str | None:
    """``value`` as a time control's text (``5+3``, ``none``) if it is one, else None."""
    text = _text(value)
    if text is None:
        return None
    try:
        control = TimeControl.parse(text)
    except ParlorError:
        return None
    return "none" if control is None else str(control)


def from_json(data: Any) -> Settings:
    """Settings from parsed JSON: each field checked, anything wrong dropped."""
    settings = Settings()
    if not isinstance(data, dict):
        return settings
    game = data.get("game")
    if isinstance(game, str) and game in GAMES:
        settings.game = game
    options = data.get("options")
    if isinstance(options, dict):
        for game_id, values in options.items():
            if game_id not in GAMES or not isinstance(values, dict):
                continue
            kept = {name: v for name, value in values.items()
                    if isinstance(name, str)
                    and (v := _option_value(game_id, name, value)) is not None}
            if kept:
                settings.options[game_id] = kept
    players = data.get("players")
    if isinstance(players, dict):
        for game_id, pair in players.items():
            if game_id in GAMES and isinstance(pair, list) and len(pair) == 2:
                first, second = _text(pair[0]), _text(pair[1])
                if first is not None and second is not None:
                    settings.players[game_id] = (first, second)
    settings.theme = _text(data.get("theme"))
    settings.clock = clock_text(data.get("clock"))
    settings.chat_muted = data.get("chat_muted") is True
    reader = data.get("screen_reader")
    settings.screen_reader = reader if isinstance(reader, bool) else None
    return settings


def load(path: Path | None = None) -> Settings:
    """The remembered settings; the defaults if the file is missing or damaged."""
    try:
        raw = read_capped(path or settings_path(), MAX_BYTES)
        data = json.loads(raw.decode("utf-8"))
    except (ParlorError, UnicodeDecodeError, ValueError, RecursionError):
        return Settings()
    return from_json(data)


def save(settings: Settings, path: Path | None = None) -> None:
    """Write ``settings`` atomically; raises OSError if it cannot be written."""
    target = path or settings_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(settings.to_json(), indent=1, ensure_ascii=False)
    write_atomic(target, text)


def update(**changes: Any) -> None:
    """Load, change the given fields and save; a failure to write is ignored (settings
    are a convenience: the app goes on with its defaults)."""
    settings = load()
    for name, value in changes.items():
        if name in ("options", "players"):
            getattr(settings, name).update(value)
        else:
            setattr(settings, name, value)
    with contextlib.suppress(OSError):
        save(settings)
