"""The game protocol every Parlor game implements, its value types and its errors.

A game is a :class:`Game` (an id, a name, options and :meth:`Game.initial`); a position
is an immutable :class:`State`. Algorithms use only the small set of methods below:
``to_move``, ``legal_moves()``, ``play(move)``, ``outcome()``, ``key()`` and, for
learning, ``encode()``. Moves are small hashable values (ints or tuples) whose text
form is the game's notation (``format_move`` / ``parse_move``, an exact round trip).
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Generic, NoReturn, TypeVar

if TYPE_CHECKING:  # numpy is imported lazily, only by ``encode``
    import numpy as np


class Result(Enum):
    """A decided or drawn game, always from the first player's view."""

    FIRST_WINS = "1-0"
    SECOND_WINS = "0-1"
    DRAW = "1/2-1/2"

    @property
    def winner(self) -> int | None:
        """0 or 1 for the winning player, None for a draw."""
        return {Result.FIRST_WINS: 0, Result.SECOND_WINS: 1}.get(self)

    @classmethod
    def win_for(cls, player: int) -> Result:
        """The result in which ``player`` (0 or 1) wins."""
        return cls.FIRST_WINS if player == 0 else cls.SECOND_WINS


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the result and the reason (``"four in a row"``, …)."""

    result: Result
    termination: str

    @property
    def winner(self) -> int | None:
        """0 or 1 for the winner, None for a draw."""
        return self.result.winner

    def value_for(self, player: int) -> int:
        """+1 if ``player`` won, -1 if they lost, 0 for a draw."""
        winner = self.result.winner
        if winner is None:
            return 0
        return 1 if winner == player else -1


# --------------------------------------------------------------------------- errors


class ParlorError(ValueError):
    """Base of every error the engine raises for bad input."""


class InvalidMoveError(ParlorError):
    """The text is not a move in the game's notation."""


class IllegalMoveError(ParlorError):
    """The move is well formed but not legal in the position."""


class UnknownGameError(ParlorError):
    """No game is registered under that id."""


class OptionError(ParlorError):
    """An unknown game option or a bad value for one."""


class RecordError(ParlorError):
    """A game record that cannot be read; the message names file and line."""


class PositionError(ParlorError):
    """Text that is not a position of the game (see ``engine.positions``)."""


QUOTE_LIMIT = 60
"""Error messages quote at most this many characters of the input they refuse."""

MAX_MOVE_TEXT = 64
"""Longer text is never a move in any game (refused before the game parses it)."""


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` quoted for an error message: its repr, cut to ``limit`` characters.

    Longer text is cut and followed by ``…`` and its length, so one bad line of any
    size gives a short, one-line message (repr also escapes newlines and control
    characters, so nothing read can break the line or drive the terminal).
    """
    value = text if isinstance(text, str) else str(text)
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}… ({len(value)} characters)"


def cut(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters (the last one an ellipsis) for a short message."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------------- states


M = TypeVar("M", bound=Hashable)
"""A game's move type (an int square or column, a tuple for a checkers or morris move)."""


class State(Generic[M]):
    """An immutable game position; subclasses implement the game.

    Subclasses define ``__slots__``, the class attributes below, and the methods that
    raise :class:`NotImplementedError` here. ``to_move`` is 0 for the first player and
    1 for the second; ``ply`` counts moves played since the initial position. A game's
    state declares its move type ``M``: ``class ConnectFourState(State[int])``; code
    that works on any game takes an :data:`AnyState`.
    """

    __slots__ = ()

    GAME: ClassVar[str] = ""
    """Id of the game this state belongs to (``"reversi"``)."""
    PLAYERS: ClassVar[tuple[str, str]] = ("First", "Second")
    """Names of the two sides, first player first (``("Black", "White")``)."""
    MOVE_SYNTAX: ClassVar[re.Pattern[str]] = re.compile(r".+")
    """Shape of a well-formed move; text that fails it is an invalid move."""
    ENCODING_VERSION: ClassVar[int] = 1
    """Bumped whenever :meth:`encode` changes; stored with trained models."""
    TRANSCRIPTS: ClassVar[bool] = False
    """True where the game's notation writes games as unspaced transcripts
    (``f5d6c3`` in Reversi, ``4453`` in Connect Four); see :meth:`split_moves`."""

    to_move: int
    ply: int

    # -- the protocol ---------------------------------------------------------------
    def legal_moves(self) -> tuple[M, ...]:
        """Legal moves in a fixed order; empty exactly when the game is over."""
        raise NotImplementedError

    def play(self, move: M) -> State[M]:
        """The state after ``move`` (which must be legal); ``self`` is unchanged."""
        raise NotImplementedError

    def outcome(self) -> Outcome | None:
        """None while the game goes on, else the result and the reason."""
        raise NotImplementedError

    def key(self) -> Hashable:
        """Equal positions give equal keys (move counters and history excluded)."""
        raise NotImplementedError

    def symmetric_keys(self) -> tuple[Hashable, ...]:
        """The position's key in each form a symmetry of the board gives it (turned or
        mirrored, where the rules are the same on the image), the identity first.

        Two positions are the same up to symmetry when their smallest keys are equal, so
        the keys of one game compare with each other (ints, or tuples of ints) and say
        all a game's options change (the board size, …). The default has no symmetry:
        ``(key(),)``. See :meth:`symmetric_move`.
        """
        return (self.key(),)

    def symmetric_move(self, move: M, symmetry: int) -> M:
        """``move`` of this position as it is in the image under ``symmetry`` (an index
        into :meth:`symmetric_keys`): the image's legal move that plays the same."""
        return move

    def encode(self) -> np.ndarray:
        """A float32 vector of the position from the side to move's view."""
        raise NotImplementedError

    def format_move(self, move: M) -> str:
        """The move in the game's notation."""
        raise NotImplementedError

    def to_position(self) -> str:
        """The position as one line of text in the game's position form (docs/RULES.md,
        Positions); ``Game.from_position`` reads it back to an equal position."""
        raise NotImplementedError

    @property
    def options(self) -> dict[str, Any]:
        """The options the game was started with (for records and restarts)."""
        return {}

    # -- derived helpers ------------------------------------------------------------
    def parse_move(self, text: str) -> M:
        """The legal move written ``text``; raises InvalidMoveError or IllegalMoveError."""
        norm = text.strip().lower()
        if len(norm) > MAX_MOVE_TEXT or not self.MOVE_SYNTAX.fullmatch(norm):
            raise InvalidMoveError(f"invalid {self.GAME} move {quote(text.strip())}")
        for move in self.legal_moves():
            if self.format_move(move) == norm:
                return move
        return self._illegal(text)

    def _illegal(self, text: str) -> NoReturn:
        """Raise the error for a well-formed move that is not legal here."""
        if self.outcome() is not None:
            raise IllegalMoveError(f"illegal move {quote(text.strip())}: the game is over")
        raise IllegalMoveError(
            f"illegal move {quote(text.strip())} for {self.PLAYERS[self.to_move]} "
            f"at ply {self.ply}"
        )

    def why_illegal(self, text: str) -> str:
        """Why the well-formed move ``text`` cannot be played here, in a player's words
        (one short line): the game is over, or a few of the legal moves. A game with a
        rule a player may not see (checkers' compulsory capture) overrides it."""
        if self.outcome() is not None:
            return "the game is over"
        legal = [self.format_move(m) for m in self.legal_moves()]
        examples = ", ".join(legal[:4]) + (" …" if len(legal) > 4 else "")
        return f"{cut(text.strip(), 20)} is not a legal move here; legal are {examples}"

    def play_text(self, text: str) -> State[M]:
        """Parse ``text`` in this position and play it (text too long to be a move is
        refused here, before any game's parser quotes it)."""
        if len(text.strip()) > MAX_MOVE_TEXT:
            raise InvalidMoveError(f"invalid {self.GAME} move {quote(text.strip())}")
        return self.play(self.parse_move(text))

    @classmethod
    def split_moves(cls, text: str) -> list[str]:
        """The move texts in ``text``: space-separated, and unspaced transcripts split
        into their moves where the game writes them so (``TRANSCRIPTS``)."""
        out: list[str] = []
        for token in text.split():
            low = token.lower()
            if (cls.TRANSCRIPTS and not cls.MOVE_SYNTAX.fullmatch(low)
                    and re.fullmatch(f"(?:{cls.MOVE_SYNTAX.pattern})+", low)):
                out.extend(m.group(0) for m in cls.MOVE_SYNTAX.finditer(low))
            else:
                out.append(token)
        return out

    def play_line(self, texts: str | list[str]) -> State[M]:
        """Play a sequence of moves from this state: a list of move texts, or a string
        of space-separated moves or transcripts (see :meth:`split_moves`)."""
        state: State[M] = self
        for text in self.split_moves(texts) if isinstance(texts, str) else texts:
            state = state.play_text(text)
        return state

    def is_terminal(self) -> bool:
        """True when the game is over."""
        return self.outcome() is not None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} ply={self.ply} to_move={self.PLAYERS[self.to_move]}>"


AnyState = State[Any]
"""A state of any game (its moves typed ``Any``): what code that works on every game takes."""


# --------------------------------------------------------------------------- games


@dataclass(frozen=True)
class Option:
    """One option a game takes: its default and the values allowed."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None = None
    """Allowed values; None means any value of the default's type."""
    help: str = ""

    def coerce(self, game: str, value: Any) -> Any:
        """``value`` (possibly text from a command line) as this option's type."""
        kind = type(self.default) if self.default is not None else int
        try:
            out = kind(value) if not isinstance(value, kind) else value
        except (TypeError, ValueError):
            raise OptionError(
                f"{game}: option {self.name}={quote(value)} is not a {kind.__name__}"
            ) from None
        if self.choices is not None and out not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"{game}: option {self.name}={quote(value)}; allowed: {allowed}")
        return out


class Game:
    """A registered game: an id, a display name, options and its initial state."""

    id: str = ""
    name: str = ""
    description: str = ""
    rules_summary: str = ""
    """The rules in short for Help: a few lines of at most 62 characters, broken where
    they should be (docs/RULES.md has the rules in full)."""
    options: tuple[Option, ...] = ()

    def initial(self, **options: Any) -> AnyState:
        """The start position for the given options (validated, see ``resolve``)."""
        return self._initial(**self.resolve(options))

    def resolve(self, options: dict[str, Any]) -> dict[str, Any]:
        """All options with defaults filled in; unknown names or values raise OptionError."""
        known = {opt.name: opt for opt in self.options}
        for name in options:
            if name not in known:
                listed = ", ".join(known) or "none"
                raise OptionError(f"{self.id}: unknown option {quote(name)}; options: {listed}")
        return {
            name: opt.coerce(self.id, options[name]) if name in options else opt.default
            for name, opt in known.items()
        }

    def _initial(self, *args: Any, **options: Any) -> AnyState:
        """The start position for resolved ``options``. Each game overrides it with its own
        keyword options; the open ``*args, **options`` signature lets any override fit."""
        raise NotImplementedError

    def from_position(self, text: str) -> AnyState:
        """The position written ``text`` in the game's position form (docs/RULES.md,
        Positions), with ply 0 and no history; PositionError for anything else.
        Callers go through ``engine.positions.parse_position``, which checks the size."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Game {self.id}>"
