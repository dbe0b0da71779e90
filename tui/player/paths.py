"""Where Parlor keeps the user's files: games in progress, finished games and saved games.

The data directory is ``platformdirs.user_data_dir("parlor")``, which honours
``XDG_DATA_HOME`` on Linux. Inside it, ``unfinished/`` holds one record per game in
progress, ``history/`` the finished games and ``games/`` the games saved under a name
(see :mod:`tui.player.store`); ``explorer/`` the opening explorer's indexes. Shipped
example games are package data of ``saved`` (read-only).
"""

from __future__ import annotations

import contextlib
import os
import re
import unicodedata
from pathlib import Path

import platformdirs

import saved
from engine.protocol import ParlorError

APP_NAME = "parlor"
RECORD_SUFFIX = ".pgn"
"""File suffix of game records."""


def data_dir() -> Path:
    """The user's Parlor data directory (not created here)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def unfinished_dir() -> Path:
    """One record per game in progress, rewritten atomically after every move."""
    return data_dir() / "unfinished"


def history_dir() -> Path:
    """The records of finished games."""
    return data_dir() / "history"


def legacy_autosave_path() -> Path:
    """The single autosave file older versions kept (adopted into ``unfinished/``)."""
    return data_dir() / f"autosave{RECORD_SUFFIX}"


def saved_games_dir() -> Path:
    """The folder where games saved under a name go."""
    return data_dir() / "games"


def explorer_dir() -> Path:
    """The opening explorer's indexes, one per collection (see :mod:`tui.player.explorer`)."""
    return data_dir() / "explorer"


def examples_dir() -> Path:
    """The shipped example records (package data of ``saved``, read with importlib.resources);
    raises saved.ShippedDataError if the installation lacks them."""
    return saved.games_dir()


def hosted() -> bool:
    """True when this app is a session of ``parlor host`` (a player on someone else's
    machine, whose files all stay in their own data directory)."""
    from tui.link.client import available

    return available()


def confined(path: Path, *, write: bool) -> Path:
    """``path`` itself; in a hosted session, ValueError (one line) unless it lies inside
    the player's data directory (or, to read, among the shipped example games), so a
    hosted player can neither write nor read a file anywhere else the host can."""
    if not hosted():
        return path
    target = Path(os.path.realpath(path))
    folders = [data_dir()]
    if not write:
        with contextlib.suppress(saved.ShippedDataError):
            folders.append(examples_dir())
    for folder in folders:
        if target.is_relative_to(os.path.realpath(folder)):
            return path
    raise ValueError("a hosted player's games stay in their own saved games "
                     "(give a name, not a path)")


UNSAFE = re.compile(r'[\x00-\x1f\x7f-\x9f/\\<>:"|?*]+')
"""Characters a file name may not hold here or on other systems: path separators,
control characters and the few Windows refuses. Letters of any script are kept."""


def save_path(name: str) -> Path:
    """The file a game saved as ``name`` goes to; unsafe characters become ``-``
    (letters of every script are kept: ``ché ckers`` stays ``ché ckers``).

    Raises ValueError for a name with nothing usable in it.
    """
    text = unicodedata.normalize("NFC", name.strip())
    stem = UNSAFE.sub("-", "".join(c for c in text if c.isprintable() or c == " "))
    stem = stem.strip(" .-")
    if stem.lower().endswith(RECORD_SUFFIX):
        stem = stem[: -len(RECORD_SUFFIX)]
    if not stem:
        raise ParlorError(f"cannot save under the name {name!r}: use letters or digits")
    return saved_games_dir() / f"{stem[:80]}{RECORD_SUFFIX}"
