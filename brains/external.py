"""External engines as opponents: the brain ``external:NAME`` plays through another program.

The programs are listed in the user's ``engines.toml`` (in
``platformdirs.user_config_dir("parlor")``), one table per engine::

    [engines.edax]
    command = ["edax", "--gtp"]     # the program and its arguments (no shell)
    protocol = "gtp"                # "gtp" (Othello programs) or "parlor"
    game = "reversi"                # the game it plays
    timeout = 10.0                  # seconds it may take for a move (0.1 to 3600)

    [engines.friend]
    command = ["parlor", "engine"]
    protocol = "parlor"
    game = "checkers"
    brain = "alphabeta:hard"        # parlor only: the spec its ``go`` uses
    seconds = 2.0                   # parlor only: the time its ``go`` gets

Every field is checked; the file is read through :func:`engine.files.read_capped`.
The program runs in its own process (pipes, no shell) and is sent the game as it goes:
GTP's ``boardsize``/``clear_board``/``play``/``genmove`` for Othello programs such as Edax
and Egaroucid, or Parlor's own ``parlor engine`` protocol (``new``, ``position``, ``go``,
docs/ENGINE.md) for anything else. If the program cannot start, dies, stays silent past
its timeout or answers an illegal move, the brain raises :class:`ExternalEngineError`
(one line) and the process is killed; a caller can tell the player and let them choose
another opponent. The process is also ended when the brain is garbage-collected or the
interpreter exits.
"""

from __future__ import annotations

import contextlib
import os
import queue
import re
import subprocess
import threading
import time
import tomllib
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from brains.options import BrainOption
from brains.protocol import Brain, Budget, Thought
from engine import files
from engine.protocol import AnyState, ParlorError, quote

CONFIG_NAME = "engines.toml"
MAX_CONFIG = 64_000
"""Largest engines.toml read, in bytes."""
PROTOCOLS = ("gtp", "parlor")
GTP_GAMES = ("reversi",)
"""Games GTP engines play here (Othello programs)."""
MAX_TIMEOUT = 3600.0
MAX_ARGS = 64
MAX_ANSWER_LINES = 10_000
"""Lines an engine may send before its answer to one command (``info`` lines)."""
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")


class ExternalEngineError(ParlorError):
    """An external engine that is misconfigured, cannot start, dies, stalls or answers
    an illegal move; the message is one line naming the engine."""


def config_path() -> Path:
    """Where engines.toml is: the user's Parlor config directory."""
    import platformdirs

    return Path(platformdirs.user_config_dir("parlor", appauthor=False)) / CONFIG_NAME


@dataclass(frozen=True)
class EngineConfig:
    """One engine of engines.toml, checked."""

    name: str
    command: tuple[str, ...]
    protocol: str
    game: str
    timeout: float = 10.0
    brain: str = "alphabeta:medium"
    seconds: float = 1.0


def load_engines(path: Path | None = None) -> dict[str, EngineConfig]:
    """Every engine configured in ``path`` (default :func:`config_path`), checked field
    by field; ExternalEngineError (one line) for anything wrong."""
    path = path or config_path()
    where = str(path)
    try:
        raw = files.read_capped(path, MAX_CONFIG)
    except files.FileReadError as exc:
        raise ExternalEngineError(f"{exc}; external engines are configured there "
                                  "(docs/ENGINE.md, External engines as opponents)") from None
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ExternalEngineError(f"{where}: not a TOML file: {' '.join(str(exc).split())[:120]}"
                                  ) from None
    unknown = set(data) - {"engines"}
    if unknown:
        raise ExternalEngineError(f"{where}: unknown table {quote(min(unknown))}; "
                                  "engines go in [engines.NAME]")
    engines = data.get("engines", {})
    if not isinstance(engines, dict):
        raise ExternalEngineError(f"{where}: 'engines' must be a table of [engines.NAME]")
    return {name: _check(where, name, table) for name, table in engines.items()}


def _check(where: str, name: str, table: Any) -> EngineConfig:
    from engine.registry import get_game

    def fail(reason: str) -> ExternalEngineError:
        return ExternalEngineError(f"{where}: engine {quote(name)}: {reason}")

    if not _NAME.fullmatch(name):
        raise fail("names are 1 to 40 lower-case letters, digits, '-' or '_'")
    if not isinstance(table, dict):
        raise fail("must be a table")
    allowed = {"command", "protocol", "game", "timeout", "brain", "seconds"}
    extra = set(table) - allowed
    if extra:
        raise fail(f"unknown field {quote(min(extra))}; fields: {', '.join(sorted(allowed))}")
    command = table.get("command")
    if (not isinstance(command, list) or not 1 <= len(command) <= MAX_ARGS
            or not all(isinstance(a, str) and a and len(a) <= 4096 and "\0" not in a
                       for a in command)):
        raise fail(f"command must be a list of 1 to {MAX_ARGS} non-empty strings "
                   '(the program and its arguments), like ["edax", "--gtp"]')
    protocol = table.get("protocol")
    if protocol not in PROTOCOLS:
        raise fail(f"protocol {quote(protocol)} must be one of {', '.join(PROTOCOLS)}")
    game = table.get("game")
    if not isinstance(game, str):
        raise fail("game must be a game id, like \"reversi\"")
    try:
        game = get_game(game).id
    except ParlorError as exc:
        raise fail(str(exc)) from None
    if protocol == "gtp" and game not in GTP_GAMES:
        raise fail(f"GTP engines play {', '.join(GTP_GAMES)} here; use protocol "
                   "\"parlor\" for other games")
    numbers = {}
    for key, default, low, high in (("timeout", 10.0, 0.1, MAX_TIMEOUT),
                                    ("seconds", 1.0, 0.01, MAX_TIMEOUT)):
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not (
                low <= value <= high):
            raise fail(f"{key} must be a number from {low:g} to {high:g} (seconds)")
        numbers[key] = float(value)
    brain = table.get("brain", "alphabeta:medium")
    if not isinstance(brain, str) or not 0 < len(brain) <= 200 or not brain.isprintable() \
            or " " in brain:
        raise fail("brain must be a brain spec without spaces, like \"alphabeta:hard\"")
    if protocol == "parlor" and numbers["seconds"] >= numbers["timeout"]:
        raise fail("seconds (the time its go gets) must be less than timeout")
    return EngineConfig(name, tuple(command), protocol, game, numbers["timeout"], brain,
                        numbers["seconds"])


def engine_config(name: str | None, game: str) -> EngineConfig:
    """The engine ``name`` from engines.toml, checked to play ``game``."""
    if not name:
        raise ExternalEngineError(f"external needs an engine name: external:NAME, with NAME "
                                  f"configured in {config_path()}")
    engines = load_engines()
    config = engines.get(name)
    if config is None:
        known = ", ".join(engines) or "none"
        raise ExternalEngineError(f"no engine {quote(name)} in {config_path()}; configured: "
                                  f"{known}")
    if config.game != game:
        raise ExternalEngineError(f"engine {quote(name)} plays {config.game}, not {game}")
    return config


def _check_engine(text: str, game: str) -> str:
    """The ``engine`` option's check: the name is configured for ``game``."""
    engine_config(text, game)
    return text


# --------------------------------------------------------------------------- processes


class _Process:
    """A running engine: its pipes and a thread that queues its output lines."""

    def __init__(self, config: EngineConfig):
        self.config = config
        try:
            self.proc = subprocess.Popen(
                list(config.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, close_fds=True, start_new_session=True)
        except (OSError, ValueError) as exc:
            raise ExternalEngineError(f"engine {quote(config.name)} cannot start "
                                      f"{quote(config.command[0])}: "
                                      f"{getattr(exc, 'strerror', None) or exc}") from None
        self.lines: queue.Queue[str | None] = queue.Queue()
        reader = threading.Thread(target=self._read, name=f"engine-{config.name}", daemon=True)
        reader.start()

    def _read(self) -> None:
        try:
            for line in files.read_lines(files.stream_reader(self.proc.stdout)):
                self.lines.put(line if isinstance(line, str) else "\0too long")
        except (OSError, ValueError):
            pass
        finally:
            self.lines.put(None)
            try:  # closed here, by its only reader, so its descriptor is never reused early
                if self.proc.stdout is not None:
                    self.proc.stdout.close()
            except OSError:
                pass

    def send(self, line: str) -> None:
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line.encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except (OSError, ValueError):
            raise self.died() from None

    def read_line(self, deadline: float) -> str:
        """The next line it sends; ExternalEngineError when it stalls past ``deadline``
        or exits."""
        left = deadline - time.monotonic()
        try:
            line = self.lines.get(timeout=max(0.0, left))
        except queue.Empty:
            raise ExternalEngineError(
                f"engine {quote(self.config.name)} did not answer within "
                f"{self.config.timeout:g} s") from None
        if line is None:
            raise self.died()
        return line.rstrip("\r\n")

    def died(self) -> ExternalEngineError:
        try:
            status = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            status = None
        how = f"exited with status {status}" if status is not None else "closed its output"
        return ExternalEngineError(f"engine {quote(self.config.name)} {how}")

    def close(self) -> None:
        _kill(self.proc)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """End ``proc`` (politely closing its input first) and reap it."""
    if proc.poll() is None:
        try:
            if proc.stdin is not None:
                proc.stdin.close()
            proc.wait(timeout=0.5)
        except (OSError, ValueError, subprocess.TimeoutExpired):
            pass
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, 9)
        except OSError:
            proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=5.0)
    try:  # its output is closed by the thread that reads it, once that sees the end
        if proc.stdin is not None:
            proc.stdin.close()
    except OSError:
        pass


# --------------------------------------------------------------------------- the brain


class ExternalBrain(Brain):
    """An external program, configured in engines.toml (GTP or the parlor engine protocol)."""

    name = "external"
    OPTIONS = (
        BrainOption("engine", str, None, "the engine's name in engines.toml (external:NAME)",
                    max_length=40, check=_check_engine, nullable=True),
    )

    @classmethod
    def named(cls, game: str) -> list[str]:
        """The engines configured for ``game`` (none when engines.toml is missing or
        wrong: menus list what works, and choosing an engine shows the error)."""
        try:
            return [name for name, c in load_engines().items() if c.game == game]
        except ExternalEngineError:
            return []

    def __init__(self, game: str, **kwargs: Any):
        super().__init__(game, **kwargs)
        self.config = engine_config(self.options["engine"], game)
        self._process: _Process | None = None
        self._finalizer: weakref.finalize[[subprocess.Popen[bytes]], ExternalBrain] | None = None
        self._known: AnyState | None = None
        """The position the GTP engine has been told about (None: nothing yet)."""

    # -- process ----------------------------------------------------------------------
    def _start(self) -> _Process:
        if self._process is None or self._process.proc.poll() is not None:
            self._process = _Process(self.config)
            self._finalizer = weakref.finalize(self, _kill, self._process.proc)
            self._known = None
        return self._process

    def close(self) -> None:
        """End the engine's process (a later move starts a new one)."""
        if self._finalizer is not None:
            self._finalizer()
        self._process = None
        self._known = None

    def _fail(self, exc: ExternalEngineError) -> ExternalEngineError:
        self.close()
        return exc

    # -- moves ------------------------------------------------------------------------
    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        if state.outcome() is not None:
            return
        try:
            if self.config.protocol == "gtp":
                text = self._gtp_move(state)
            else:
                text = self._parlor_move(state)
            try:
                move = state.parse_move(text)
            except ParlorError as exc:
                raise ExternalEngineError(f"engine {quote(self.config.name)} answered "
                                          f"an illegal move: {exc}") from None
        except ExternalEngineError as exc:
            raise self._fail(exc) from None
        if self.config.protocol == "gtp":
            self._known = state.play(move)
        yield Thought(move=move, depth=1, final=True, note=f"external engine {self.config.name}")

    def _ask(self, process: _Process, command: str) -> str:
        """Send a GTP command and return its answer's text (``= text``)."""
        process.send(command)
        deadline = time.monotonic() + self.config.timeout
        for _ in range(MAX_ANSWER_LINES):
            line = process.read_line(deadline).strip()
            if not line:
                continue
            if line.startswith("?"):
                raise ExternalEngineError(f"engine {quote(self.config.name)} refused "
                                          f"{quote(command)}: {quote(line[1:].strip())}")
            if line.startswith("="):
                answer = line[1:].strip()
                if answer[:1].isdigit():  # an id: "=12 f5"
                    answer = answer.partition(" ")[2]
                while process.read_line(deadline).strip():  # the blank line that ends it
                    pass
                return answer
        raise ExternalEngineError(f"engine {quote(self.config.name)} sent no GTP answer")

    def _gtp_move(self, state: Any) -> str:
        if getattr(state, "drawn_squares", ()):
            raise ExternalEngineError("GTP engines play standard Othello, not FlipColor")
        process = self._start()
        path = self._path(state)
        if path is None:
            self._ask(process, f"boardsize {state.size}")
            self._ask(process, "clear_board")
            path = _path_from_start(state)
            if path is None:
                raise ExternalEngineError(
                    f"engine {quote(self.config.name)} cannot be shown this position: "
                    "GTP engines play games from the start position")
        for colour, text in path:
            self._ask(process, f"play {colour} {text}")
        self._known = state
        answer = self._ask(process, f"genmove {'bw'[state.to_move]}").lower()
        return answer

    def _path(self, state: AnyState) -> list[tuple[str, str]] | None:
        """The (colour, move) plays that lead from the position the engine knows to
        ``state`` (at most three plies: the opponent's move and passes), or None."""
        known = self._known
        if known is None:
            return None
        frontier: list[tuple[AnyState, list[tuple[str, str]]]] = [(known, [])]
        for _ in range(4):
            nxt = []
            for pos, plays in frontier:
                if pos.key() == state.key():
                    return plays
                for move in pos.legal_moves():
                    play = ("bw"[pos.to_move], pos.format_move(move))
                    nxt.append((pos.play(move), [*plays, play]))
            frontier = nxt[:200]
        return None

    def _parlor_move(self, state: AnyState) -> str:
        from engine.positions import format_position

        process = self._start()
        options = " ".join(f"{key}={value}" for key, value in state.options.items())
        for command in (f"new {state.GAME} {options}".strip(),
                        f"position {format_position(state)}"):
            self._expect_ok(process, command)
        process.send(f"go {self.config.brain} {self.config.seconds:g}")
        deadline = time.monotonic() + self.config.timeout
        for _ in range(MAX_ANSWER_LINES):
            line = process.read_line(deadline)
            if line.startswith("bestmove "):
                return line[len("bestmove "):].strip()
            if line.startswith("error"):
                raise ExternalEngineError(f"engine {quote(self.config.name)}: {quote(line)}")
        raise ExternalEngineError(f"engine {quote(self.config.name)} sent no bestmove")

    def _expect_ok(self, process: _Process, command: str) -> None:
        process.send(command)
        line = process.read_line(time.monotonic() + self.config.timeout)
        if line.strip() != "ok":
            raise ExternalEngineError(f"engine {quote(self.config.name)} answered "
                                      f"{quote(line)} to {quote(command.split()[0])}")


def _path_from_start(state: Any, limit: int = 200_000) -> list[tuple[str, str]] | None:
    """The plays from the game's start to ``state`` (Othello: every placed disc is one of
    ``state``'s), found by a bounded depth-first search; None if not found."""
    from engine.registry import get_game

    start = get_game(state.GAME).initial(size=state.size)
    target = state.key()
    occupied = state.black | state.white
    budget = [limit]

    def search(pos: AnyState, plays: list[tuple[str, str]]) -> list[tuple[str, str]] | None:
        if pos.key() == target:
            return plays
        budget[0] -= 1
        if budget[0] <= 0 or pos.ply > state.ply + 60:
            return None
        for move in pos.legal_moves():
            text = pos.format_move(move)
            if text != "pass" and not occupied >> move & 1:
                continue
            found = search(pos.play(move), [*plays, ("bw"[pos.to_move], text)])
            if found is not None:
                return found
        return None

    return search(start, [])
