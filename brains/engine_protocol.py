"""The ``parlor engine`` line protocol: Parlor's brains for other programs, UCI/GTP style.

One command per input line, answered on output and flushed at once. One-line answers
are ``ok``, a value line, or a line starting with ``error``; multi-line answers end with
a fixed last line (``ok`` or ``bestmove …``). A bad line never ends the session. See
``docs/ENGINE.md`` for the commands and an example session. :class:`EngineSession`
works on any text streams, so tests drive it with ``io.StringIO``.

Input is untrusted: a line longer than :data:`MAX_LINE` characters is answered with one
error line as soon as that many characters are read (the rest of it is skipped), and
words are split in linear time. A thread reads the input while commands run, so
``stop`` and ``quit`` end a running ``go`` or ``analyse`` at once.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TextIO

from brains.protocol import Brain, Budget, Thought
from engine import files
from engine.protocol import AnyState, ParlorError, quote

BrainFactory = Callable[..., Brain]
"""``factory(spec, game_id, seed=...) -> Brain``; by default ``brains.registry.make_brain``."""

COMMANDS = ("games", "brains", "new", "position", "moves", "play", "legal", "show", "go",
            "analyse", "stop", "seed", "isready", "help", "quit")
"""Every command the engine understands, in the order ``help`` lists them."""

MAX_LINE = files.MAX_LINE
"""Longest input line in characters (65,536); a longer one is answered with one error line."""

MAX_SECONDS = 86_400.0
"""Longest thinking time ``go`` and ``analyse`` accept (a day)."""

MAX_SEED = 2**32 - 1
"""Largest seed ``seed N`` accepts (seeds are 32-bit)."""

SEARCHES = ("go", "analyse")
"""Commands that search, and that ``stop`` and ``quit`` end."""


class EngineError(ParlorError):
    """A line the engine cannot carry out; its message follows ``error`` on the output."""


def split_words(line: str) -> list[str]:
    """The words of a command line: split on white space, ``#`` starts a comment.

    Linear in the length of the line (there is no quoting: no brain spec, option or
    move contains a space).
    """
    return line.partition("#")[0].split()


def read_lines(read: Callable[[int], Any], limit: int = MAX_LINE) -> Iterator[str | EngineError]:
    """The input lines (see :func:`engine.files.read_lines`), a bad one as an EngineError."""
    for line in files.read_lines(read, limit):
        yield EngineError(str(line)) if isinstance(line, files.LineError) else line


def _default_factory() -> BrainFactory:
    from brains.registry import make_brain

    return make_brain


def _default_brain_names(game_id: str | None = None) -> list[str]:
    """Names of the registered brains (those that play ``game_id`` when it is given)."""
    from brains.registry import list_brains

    names: list[str] = []
    for item in list_brains(game_id):
        if isinstance(item, str):
            names.append(item)
        elif isinstance(item, tuple):
            names.append(str(item[0]))
        else:
            names.append(str(getattr(item, "name", item)))
    return names


def format_score(score: float | None) -> str:
    """A score as the protocol writes it (``0.25``, ``-1``; ``none`` when unknown)."""
    if score is None:
        return "none"
    return format(float(score) + 0.0, ".6g")  # + 0.0: no "-0"


def format_line(state: AnyState, moves: Iterable[Any]) -> str:
    """A sequence of moves from ``state`` in notation (stops at the first illegal one)."""
    texts = []
    for move in moves:
        if move not in state.legal_moves():
            break
        texts.append(state.format_move(move))
        state = state.play(move)
    return " ".join(texts)


class EngineSession:
    """One engine conversation: the current game and position, and the output stream."""

    def __init__(self, out: TextIO, *, seed: int = 0,
                 brain_factory: BrainFactory | None = None,
                 brain_names: Callable[[str | None], list[str]] | None = None):
        self.out = out
        self.seed = seed
        """Seed given to every brain that ``go`` or ``analyse`` makes."""
        self._factory = brain_factory
        self._brain_names = brain_names or _default_brain_names
        self.start: AnyState | None = None
        """The start position of the current game (None before ``new``)."""
        self.state: AnyState | None = None
        """The current position (None before ``new``)."""
        self._lock = threading.Lock()
        self._searches_read = 0
        """Searches (``go``, ``analyse``) the reader thread has seen."""
        self._searches_run = 0
        """Searches this thread has started."""
        self._stop_upto = 0
        """Every search numbered up to this one is to stop (set by ``stop``/``quit``)."""
        self._search: tuple[int, Budget] | None = None
        """The running search: its number and budget."""

    # -- the loop ---------------------------------------------------------------------
    def run(self, lines: Iterable[str | EngineError]) -> int:
        """Answer every line until ``quit`` or the end of input; returns the exit status 0.

        A reader thread takes the lines from ``lines`` while this thread carries them out
        in order, so a ``stop`` or ``quit`` sent during a search ends it at once; every
        other line waits its turn.
        """
        pending: queue.Queue[str | EngineError | None] = queue.Queue()
        reader = threading.Thread(target=self._read, args=(lines, pending),
                                  name="engine-reader", daemon=True)
        reader.start()
        while (line := pending.get()) is not None:
            if not self.handle(line):
                break
        return 0

    def _read(self, lines: Iterable[str | EngineError],
              pending: queue.Queue[str | EngineError | None]) -> None:
        """Reader thread: queue every line; ``stop`` and ``quit`` also stop, at once,
        every search read before them."""
        try:
            for line in lines:
                if isinstance(line, str):
                    words = split_words(line)
                    command = words[0].lower() if words else ""
                    with self._lock:
                        if command in SEARCHES:
                            self._searches_read += 1
                        elif command in ("stop", "quit"):
                            self._stop_upto = self._searches_read
                            if self._search is not None and self._search[0] <= self._stop_upto:
                                self._search[1].stop.set()
                pending.put(line)
        except (OSError, ValueError):  # a closed or broken input ends the session
            pass
        finally:
            pending.put(None)

    def handle(self, line: str | EngineError) -> bool:
        """Answer one input line (or the reading error in its place); False when the
        session should end."""
        if isinstance(line, EngineError):
            self._say(f"error {line}")
            return True
        if len(line) > MAX_LINE + 1:
            self._say(f"error line too long (more than {MAX_LINE} characters); ignored")
            return True
        words = split_words(line)
        if not words:
            return True
        command, args = words[0].lower(), words[1:]
        if command == "quit":
            return False
        method = getattr(self, f"cmd_{command}", None) if command in COMMANDS else None
        try:
            if method is None:
                raise EngineError(f"unknown command {quote(command)}; commands: "
                                  + " ".join(COMMANDS))
            method(args)
        except ValueError as exc:
            self._say(f"error {_one_line(exc)}")
        except Exception as exc:  # noqa: BLE001 - a broken brain must not end the session
            self._say(f"error internal: {type(exc).__name__}: {_one_line(exc)}")
        return True

    def _say(self, *lines: str) -> None:
        for line in lines:
            self.out.write(line + "\n")
        self.out.flush()

    def _position(self) -> AnyState:
        if self.state is None:
            raise EngineError("no game: send 'new GAME' first")
        return self.state

    def _brain(self, spec: str) -> Brain:
        state = self._position()
        factory = self._factory or _default_factory()
        return factory(spec, state.GAME, seed=self.seed)

    @staticmethod
    def _seconds(text: str) -> float:
        try:
            seconds = float(text)
        except ValueError:
            raise EngineError(f"seconds {quote(text)} is not a number") from None
        if not 0 < seconds <= MAX_SECONDS:
            raise EngineError(f"seconds {quote(text)} must be positive, "
                              f"at most {MAX_SECONDS:g}")
        return seconds

    def _begin_search(self, budget: Budget) -> None:
        """Number this search and make it stoppable (at once if a ``stop`` already came)."""
        with self._lock:
            self._searches_run += 1
            self._search = (self._searches_run, budget)
            if self._searches_run <= self._stop_upto:
                budget.stop.set()

    def _end_search(self) -> None:
        with self._lock:
            self._search = None

    @staticmethod
    def _arity(args: list[str], least: int, most: int, usage: str) -> None:
        if not least <= len(args) <= most:
            raise EngineError(f"usage: {usage}")

    # -- commands ---------------------------------------------------------------------
    def cmd_games(self, args: list[str]) -> None:
        """``games`` -> the game ids on one line."""
        from engine.registry import GAMES

        self._arity(args, 0, 0, "games")
        self._say(" ".join(GAMES))

    def cmd_brains(self, args: list[str]) -> None:
        """``brains`` -> the brain names on one line (those that play the current game)."""
        self._arity(args, 0, 0, "brains")
        self._say(" ".join(self._brain_names(self.state.GAME if self.state else None)))

    def cmd_new(self, args: list[str]) -> None:
        """``new GAME [KEY=VALUE ...]`` -> ``ok``; the position is the start."""
        from engine.protocol import OptionError
        from engine.registry import new_game

        self._arity(args, 1, 99, "new GAME [KEY=VALUE ...]")
        options = {}
        for pair in args[1:]:
            name, sep, value = pair.partition("=")
            if not sep or not name:
                raise OptionError(f"option {quote(pair)} is not KEY=VALUE")
            options[name] = value
        self.start = self.state = new_game(args[0], **options)
        self._say("ok")

    def cmd_position(self, args: list[str]) -> None:
        """``position TEXT`` -> ``ok``; the current game starts again from the position
        written TEXT (docs/RULES.md, Positions); ``moves`` then counts from it."""
        from engine.positions import parse_position

        self._arity(args, 1, 1_000, "position TEXT (after new GAME)")
        state = self._position()
        self.start = self.state = parse_position(state.GAME, " ".join(args))
        self._say("ok")

    def cmd_moves(self, args: list[str]) -> None:
        """``moves [M1 M2 ...]`` -> ``ok``; the position after those moves from the start."""
        self._position()
        assert self.start is not None
        self.state = self._replay(self.start, args)
        self._say("ok")

    def cmd_play(self, args: list[str]) -> None:
        """``play M1 [M2 ...]`` -> ``ok``; plays the moves from the current position."""
        self._arity(args, 1, 10_000, "play MOVE [MOVE ...]")
        self.state = self._replay(self._position(), args)
        self._say("ok")

    @staticmethod
    def _replay(state: AnyState, texts: list[str]) -> AnyState:
        """The position after ``texts``; the first bad move raises, naming its number."""
        for number, text in enumerate(texts, 1):
            try:
                state = state.play_text(text)
            except ValueError as exc:
                raise EngineError(f"move {number}: {exc}") from None
        return state

    def cmd_legal(self, args: list[str]) -> None:
        """``legal`` -> the legal moves on one line (an empty line when the game is over)."""
        self._arity(args, 0, 0, "legal")
        state = self._position()
        self._say(" ".join(state.format_move(m) for m in state.legal_moves()))

    def cmd_show(self, args: list[str]) -> None:
        """``show`` -> the board, a status line, then ``ok``."""
        self._arity(args, 0, 0, "show")
        state = self._position()
        outcome = state.outcome()
        status = (f"result {outcome.result.value} {outcome.termination}" if outcome
                  else f"tomove {state.PLAYERS[state.to_move]} ply {state.ply}")
        self._say(*str(state).splitlines(), status, "ok")

    def cmd_go(self, args: list[str]) -> None:
        """``go SPEC [SECONDS]`` -> ``info`` lines as the brain thinks, then ``bestmove MOVE``.

        ``stop`` (or ``quit``) ends the search early; the best move so far is sent.
        """
        self._arity(args, 1, 2, "go SPEC [SECONDS]")
        state = self._playable()
        brain = self._brain(args[0])
        budget = (Budget(seconds=self._seconds(args[1])) if len(args) > 1
                  else brain.default_budget())
        budget.start()
        started = time.monotonic()
        best: Thought | None = None
        legal = state.legal_moves()
        self._begin_search(budget)
        try:
            for thought in brain.think(state, budget):
                if thought.move not in legal:
                    raise EngineError(f"brain {quote(args[0])} chose {quote(thought.move)}, "
                                      "not a legal move")
                best = thought
                self._say(self._info(state, thought, time.monotonic() - started))
                if budget.stop.is_set():
                    break
        finally:
            self._end_search()
        move = best.move if best is not None else brain.rng.choice(legal)
        self._say(f"bestmove {state.format_move(move)}")

    def cmd_stop(self, args: list[str]) -> None:
        """``stop`` -> no answer of its own: the running ``go`` ends with its ``bestmove``.

        The reader thread acts on ``stop`` as soon as it reads it; here, in its turn,
        there is nothing left to do (a ``stop`` with no search running is ignored).
        """

    @staticmethod
    def _info(state: AnyState, thought: Thought, elapsed: float) -> str:
        parts = ["info", "depth", str(thought.depth)]
        if thought.score is not None:
            parts += ["score", format_score(thought.score)]
        parts += ["nodes", str(thought.nodes), "time", str(round(elapsed * 1000))]
        pv = format_line(state, thought.pv or (thought.move,))
        if pv:
            parts += ["pv", pv]
        return " ".join(parts)

    def cmd_analyse(self, args: list[str]) -> None:
        """``analyse SPEC [SECONDS]`` -> ``MOVE SCORE`` per legal move, best first, then ``ok``."""
        self._arity(args, 1, 2, "analyse SPEC [SECONDS]")
        state = self._playable()
        brain = self._brain(args[0])
        budget = (Budget(seconds=self._seconds(args[1])) if len(args) > 1
                  else brain.default_budget())
        self._begin_search(budget)
        try:
            scores = brain.analyse(state, budget.start())
        except NotImplementedError:
            raise EngineError(f"brain {quote(args[0])} cannot analyse positions") from None
        finally:
            self._end_search()
        ranked = sorted(scores.items(), key=lambda item: -item[1])
        self._say(*(f"{state.format_move(m)} {format_score(s)}" for m, s in ranked), "ok")

    def _playable(self) -> AnyState:
        state = self._position()
        outcome = state.outcome()
        if outcome is not None:
            raise EngineError(f"the game is over ({outcome.result.value}, "
                              f"{outcome.termination})")
        return state

    def cmd_seed(self, args: list[str]) -> None:
        """``seed N`` -> ``ok``; later brains are seeded with N."""
        self._arity(args, 1, 1, "seed N")
        try:
            seed = int(args[0])
        except ValueError:
            raise EngineError(f"seed {quote(args[0])} is not an integer") from None
        if not 0 <= seed <= MAX_SEED:
            raise EngineError(f"seed {quote(args[0])} is out of range; allowed: 0 to {MAX_SEED}")
        self.seed = seed
        self._say("ok")

    def cmd_isready(self, args: list[str]) -> None:
        """``isready`` -> ``readyok`` (a ping, as in UCI)."""
        self._say("readyok")

    def cmd_help(self, args: list[str]) -> None:
        """``help`` -> the commands on one line."""
        self._say(" ".join(COMMANDS))


def _one_line(exc: BaseException, limit: int = 300) -> str:
    """An error's message on one line, cut to ``limit`` characters (a last guard: the
    messages themselves quote at most ~60 characters of the input)."""
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def run_engine(stdin: TextIO, stdout: TextIO, *, seed: int = 0,
               brain_factory: BrainFactory | None = None,
               brain_names: Callable[[str | None], list[str]] | None = None) -> int:
    """Run a session reading commands from ``stdin`` and answering on ``stdout``.

    Reads the bytes under ``stdin`` when it has them (so bad UTF-8 is one error line, not
    the end of the session); see :func:`read_lines` for the line limit.
    """
    session = EngineSession(stdout, seed=seed, brain_factory=brain_factory,
                            brain_names=brain_names)
    return session.run(read_lines(files.stream_reader(stdin)))
