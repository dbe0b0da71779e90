"""Rooms kept on disk, so a host that is killed (or loses power) loses no game.

The room service writes each room in progress to ``rooms/CODE.json`` in the host's data
folder after every change (:func:`engine.files.write_atomic`: the old file or the new
one, never a part), and removes it once the game is recorded. On start it reads them
back (:func:`engine.files.read_capped`), every field checked as untrusted input and the
moves replayed with the engine; a file that fails any check is one log line and is
renamed ``CODE.json.damaged``, never read again and never lost::

    {"format": "parlor-room", "version": 1, "code": "K7QMX", "game": "tictactoe",
     "options": {}, "clock": "5+3", "seats": ["SHA256:…", "SHA256:…"],
     "names": ["alice", "bob"], "moves": ["b2", "a1"], "left": [291.2, 300.0],
     "running": 0, "file": "20261123-213512-4242-9f3a01bc", "brain": null, "seed": 7,
     "rated": true, "result": null, "termination": ""}

``left`` is each side's time when the file was written and ``running`` the side whose
clock ran; a restored clock starts again from those readings.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.files import FileReadError, read_capped, write_atomic
from engine.protocol import AnyState, ParlorError, quote
from engine.registry import GAMES, get_game
from tui.host.brainseat import check_brain
from tui.player.clock import MAX_MINUTES, TimeControl

log = logging.getLogger("parlor.host.rooms")

FORMAT = "parlor-room"
VERSION = 1
SUFFIX = ".json"
DAMAGED = ".damaged"
MAX_BYTES = 512 * 1024
"""Largest room file read (a long game is a few kilobytes)."""
MAX_MOVES = 5000
MAX_FILES = 1000
"""Room files read at most on start (more are left for the next start)."""
MAX_SECONDS = MAX_MINUTES * 60.0 * 10
"""Clock readings beyond this are refused as damaged."""
CODE = re.compile(r"[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{5}")
GAME_FILE = re.compile(r"[0-9A-Za-z][0-9A-Za-z_-]{0,79}")
"""A record's file name (no dots or slashes: it names a file in each player's history)."""
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


class RoomFileError(ParlorError):
    """A room file that cannot be used; the message says why in a few words."""


@dataclass
class SavedRoom:
    """A room as read back from its file, every field checked."""

    code: str
    game: str
    options: dict[str, str]
    control: TimeControl | None
    seats: list[str | None]
    names: list[str]
    history: list[AnyState]
    moves: list[Any]
    texts: list[str]
    left: list[float] | None
    running: int | None
    game_file: str
    brain: str
    brain_side: int | None
    seed: int
    rated: bool
    result: str | None
    termination: str


def path_for(folder: Path, code: str) -> Path:
    """Where the room ``code`` is kept."""
    return folder / f"{code}{SUFFIX}"


def save(folder: Path, code: str, data: dict[str, Any]) -> None:
    """Write one room atomically (OSError if it cannot be written)."""
    folder.mkdir(parents=True, exist_ok=True, mode=0o700)
    text = json.dumps({"format": FORMAT, "version": VERSION, **data},
                      separators=(",", ":"), allow_nan=False)
    write_atomic(path_for(folder, code), text + "\n")


def remove(folder: Path, code: str) -> None:
    """Forget the room ``code`` (nothing if it was never written)."""
    path_for(folder, code).unlink(missing_ok=True)


def _field(obj: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = obj.get(key)
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool) and bool not in kinds:
        raise RoomFileError(f"{key} is {quote(value)}")
    if not isinstance(value, kinds):
        raise RoomFileError(f"{key} is missing or not {kinds[0].__name__}")
    return value


def _line(value: Any, what: str, limit: int = 200) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= limit or not value.isprintable():
        raise RoomFileError(f"{what} {quote(value)} is not a short line of text")
    return value


def parse(data: bytes, code: str) -> SavedRoom:
    """The room in ``data`` (read from ``CODE.json``); RoomFileError says what is wrong."""
    try:
        obj = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError:
        raise RoomFileError("not UTF-8 text") from None
    except (ValueError, RecursionError) as exc:
        raise RoomFileError(f"not JSON ({str(exc)[:60]})") from None
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise RoomFileError("not a Parlor room file")
    if obj.get("version") != VERSION or isinstance(obj.get("version"), bool):
        raise RoomFileError(f"version {quote(obj.get('version'))}, not {VERSION}")
    if _field(obj, "code", str) != code or not CODE.fullmatch(code):
        raise RoomFileError(f"code {quote(obj.get('code'))} does not match the file name")
    game = _field(obj, "game", str)
    if game not in GAMES:
        raise RoomFileError(f"unknown game {quote(game)}")
    raw_options = _field(obj, "options", dict)
    if len(raw_options) > 16 or not all(isinstance(k, str) and len(k) <= 40 and isinstance(v, str)
                                        and len(v) <= 40 for k, v in raw_options.items()):
        raise RoomFileError("options are not a few short texts")
    options = dict(raw_options)
    try:
        state = get_game(game).initial(**options)
        control = TimeControl.parse(_field(obj, "clock", str)[:40])
    except ParlorError as exc:
        raise RoomFileError(str(exc)[:120]) from None
    seats_raw = _field(obj, "seats", list)
    names_raw = _field(obj, "names", list)
    if len(seats_raw) != 2 or len(names_raw) != 2:
        raise RoomFileError("seats and names must be two each")
    brain_raw = obj.get("brain")
    brain, brain_side = "", None
    if brain_raw is not None:
        if not isinstance(brain_raw, dict) or brain_raw.get("side") not in (0, 1) \
                or isinstance(brain_raw.get("side"), bool):
            raise RoomFileError("brain is not a side and a spec")
        brain_side = int(brain_raw["side"])
        try:
            brain = check_brain(_line(brain_raw.get("spec"), "brain"), game)
        except ParlorError as exc:
            raise RoomFileError(str(exc)[:120]) from None
    seats: list[str | None] = []
    names: list[str] = []
    for side in (0, 1):
        if side == brain_side:
            seats.append(None)
            names.append(brain)
            continue
        seats.append(_line(seats_raw[side], "seat"))
        names.append(_line(names_raw[side], "name", 40))
    if brain_side is None and seats[0] == seats[1]:
        raise RoomFileError("one player holds both seats")
    texts_raw = _field(obj, "moves", list)
    if len(texts_raw) > MAX_MOVES:
        raise RoomFileError(f"more than {MAX_MOVES} moves")
    history, moves, texts = [state], [], []
    for k, text in enumerate(texts_raw, start=1):
        if not isinstance(text, str) or len(text) > 64:
            raise RoomFileError(f"move {k} is not a move's text")
        try:
            move = history[-1].parse_move(text)
            history.append(history[-1].play(move))
        except ParlorError as exc:
            raise RoomFileError(f"move {k}: {str(exc)[:80]}") from None
        moves.append(move)
        texts.append(history[-2].format_move(move))
    left: list[float] | None = None
    running = obj.get("running")
    if control is not None:
        left_raw = _field(obj, "left", list)
        if len(left_raw) != 2 or not all(
                isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
                and abs(x) <= MAX_SECONDS for x in left_raw):
            raise RoomFileError("left is not two clock readings")
        left = [float(x) for x in left_raw]
        if running not in (0, 1, None) or isinstance(running, bool):
            raise RoomFileError(f"running is {quote(running)}")
    else:
        running = None
    game_file = _field(obj, "file", str)
    if not GAME_FILE.fullmatch(game_file):
        raise RoomFileError(f"file {quote(game_file)} is not a record's name")
    seed = _field(obj, "seed", int)
    if not 0 <= seed < 2**31:
        raise RoomFileError("seed out of range")
    rated = _field(obj, "rated", bool)
    result = obj.get("result")
    if result is not None and result not in RESULTS:
        raise RoomFileError(f"result {quote(result)}")
    termination = _field(obj, "termination", str)[:40]
    return SavedRoom(code, game, options, control, seats, names, history, moves, texts, left,
                     running, game_file, brain, brain_side, seed, rated, result, termination)


def load(folder: Path) -> list[SavedRoom]:
    """Every room kept in ``folder``. A damaged file is one log line (a warning) and is
    renamed ``….damaged``; a temporary file a killed write left is removed."""
    rooms: list[SavedRoom] = []
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except FileNotFoundError:
        return rooms
    except OSError as exc:
        log.error("rooms kept in %s cannot be listed: %s", folder, exc.strerror or exc)
        return rooms
    for entry in entries:
        name = entry.name
        if name.startswith(".") and name.endswith(".tmp"):
            Path(entry.path).unlink(missing_ok=True)
            continue
        if not name.endswith(SUFFIX):
            continue
        if len(rooms) >= MAX_FILES:
            log.error("more than %d rooms kept in %s: the rest wait for the next start",
                      MAX_FILES, folder)
            break
        path = Path(entry.path)
        try:
            rooms.append(parse(read_capped(path, MAX_BYTES, follow_symlinks=False),
                               name[: -len(SUFFIX)]))
        except (FileReadError, RoomFileError) as exc:
            reason = exc.reason if isinstance(exc, FileReadError) else str(exc)
            aside = path.with_name(name + DAMAGED)
            try:
                os.replace(path, aside)
                kept = f"kept as {aside.name}"
            except OSError as err:
                kept = f"cannot be set aside: {err.strerror or err}"
            log.warning("room file %s skipped: %s (%s)", quote(name), reason[:120], kept)
    return rooms
