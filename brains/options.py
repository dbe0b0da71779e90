"""Typed brain options: one definition per option, used by every reader of a spec.

A brain class declares its options as a tuple of :class:`BrainOption` (``OPTIONS``).
Each definition says the option's type, its range or choices, whether ``none`` clears
it, its default and a line of help. Everything that reads an option goes through it:
``brains.registry.make_brain`` (so the TUI, ``parlor engine``, ``parlor match`` and
resumed records alike), the level rows of ``brains.registry.LEVELS``, a brain built
directly from its class, and ``parlor brains``, which prints the definitions.

A value is refused with one line that names the brain and the option, quotes at most
:data:`QUOTE` characters of the bad text, and states what is allowed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.protocol import ParlorError

QUOTE = 60
"""Characters of a bad value quoted in an error message, at most."""

TRUE = ("true", "yes", "on", "1")
FALSE = ("false", "no", "off", "0")

Choices = tuple[str, ...] | Callable[[str], tuple[str, ...]]
"""Allowed values of a text option: fixed, or a function of the game id."""


class UnknownBrainError(ParlorError):
    """A bad brain spec: an unknown brain, level or option, or a value out of range."""


def quote(value: Any) -> str:
    """``repr`` of ``value`` cut to :data:`QUOTE` characters (with ``…`` when cut)."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > QUOTE:
        text = text[:QUOTE - 1] + "…"
    return repr(text) if isinstance(value, str) else text


@dataclass(frozen=True)
class BrainOption:
    """One option a brain takes: its name, type, allowed values, default and help.

    Numbers must be finite and within ``[low, high]`` (``low`` excluded when
    ``low_open``); text must be one of ``choices`` (when given) and at most
    ``max_length`` long. ``nullable`` lets ``none`` (Python None) clear the option.
    ``check``, when given, is a further per-game test of a text value: it returns the
    value to use or raises ValueError with the reason.
    """

    name: str
    type: type
    default: Any
    help: str
    low: float | None = None
    high: float | None = None
    low_open: bool = False
    choices: Choices | None = None
    nullable: bool = False
    max_length: int = 200
    check: Callable[[str, str], str] | None = None

    def __post_init__(self) -> None:
        if self.type not in (int, float, bool, str):
            raise TypeError(f"option {self.name}: type must be int, float, bool or str")

    # -- what is allowed ---------------------------------------------------------------
    def allowed_choices(self, game: str | None) -> tuple[str, ...] | None:
        """The allowed text values (in ``game`` for per-game choices; None if free)."""
        if self.choices is None or isinstance(self.choices, tuple):
            return self.choices
        return self.choices(game) if game is not None else None

    def describe_range(self, game: str | None = None) -> str:
        """What the option accepts, in words (``an integer >= 1, or none``)."""
        if self.type is bool:
            text = "true or false"
        elif self.type is str:
            choices = self.allowed_choices(game)
            if choices is not None:
                text = "one of " + ", ".join(choices)
            elif self.choices is not None:
                text = "a name the game defines"
            else:
                text = f"text of at most {self.max_length} characters"
        else:
            noun = "an integer" if self.type is int else "a number"
            low = None if self.low is None else _num(self.low)
            high = None if self.high is None else _num(self.high)
            if low is not None and high is not None and not self.low_open:
                text = f"{noun} from {low} to {high}"
            else:
                parts = []
                if low is not None:
                    parts.append(f"{'>' if self.low_open else '>='} {low}")
                if high is not None:
                    parts.append(f"<= {high}")
                text = f"{noun} {' and '.join(parts)}" if parts else noun
        return f"{text}, or none" if self.nullable else text

    def describe(self, game: str | None = None) -> dict[str, Any]:
        """The definition as plain data (for ``parlor brains --json``)."""
        return {
            "name": self.name, "type": self.type.__name__, "default": self.default,
            "range": self.describe_range(game), "low": self.low, "high": self.high,
            "low_open": self.low_open, "choices": self.allowed_choices(game),
            "nullable": self.nullable, "help": self.help,
        }

    # -- reading a value -----------------------------------------------------------------
    def value(self, raw: Any, game: str, brain: str = "") -> Any:
        """``raw`` (spec text or a Python value) as this option's checked value.

        Raises UnknownBrainError naming the brain, the option and the allowed range.
        """
        try:
            return self._value(raw, game)
        except (TypeError, ValueError, OverflowError) as exc:
            reason = str(exc) or self.describe_range(game)
            prefix = f"{brain}: " if brain else ""
            raise UnknownBrainError(
                f"{prefix}option {self.name}={quote(raw)} is refused: {reason}") from None

    def _value(self, raw: Any, game: str) -> Any:
        if isinstance(raw, str) and raw.strip().lower() == "none" \
                and (self.type is not str or self.nullable):
            raw = None
        if raw is None:
            if self.nullable:
                return None
            raise ParlorError(f"it cannot be none; it takes {self.describe_range(game)}")
        if self.type is bool:
            return self._bool(raw, game)
        if self.type is str:
            return self._text(raw, game)
        return self._number(raw, game)

    def _bool(self, raw: Any, game: str) -> bool:
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, str):
            word = raw.strip().lower()
            if word in TRUE:
                return True
            if word in FALSE:
                return False
        raise ParlorError(f"it takes {self.describe_range(game)}")

    def _text(self, raw: Any, game: str) -> str:
        if not isinstance(raw, str):
            raise TypeError(f"it takes {self.describe_range(game)}")
        text = raw.strip()
        if not text or len(text) > self.max_length or not text.isprintable():
            raise ParlorError(f"it takes {self.describe_range(game)}")
        if self.check is not None:
            return self.check(text, game)
        choices = self.allowed_choices(game)
        if choices is not None:
            word = text.lower()
            if word not in choices:
                raise ParlorError(f"it takes {self.describe_range(game)}")
            return word
        return text

    def _number(self, raw: Any, game: str) -> int | float:
        if isinstance(raw, bool):
            raise TypeError(f"it takes {self.describe_range(game)}")
        if isinstance(raw, str):
            text = raw.strip()
            if len(text) > 40:
                raise ParlorError(f"it takes {self.describe_range(game)}")
            try:
                number: int | float = int(text) if self.type is int else float(text)
            except ValueError:
                raise ParlorError(f"it takes {self.describe_range(game)}") from None
        elif self.type is int and isinstance(raw, int):
            number = raw
        elif self.type is float and isinstance(raw, (int, float)):
            number = float(raw)
        else:
            raise TypeError(f"it takes {self.describe_range(game)}")
        if isinstance(number, float) and not math.isfinite(number):
            raise ParlorError(f"it takes {self.describe_range(game)}")
        too_low = self.low is not None and (number <= self.low if self.low_open
                                            else number < self.low)
        too_high = self.high is not None and number > self.high
        if too_low or too_high:
            raise ParlorError(f"it takes {self.describe_range(game)}")
        return number


def _num(value: float) -> str:
    """A bound as written in messages (``1``, ``0.5``, ``500000``)."""
    return str(int(value)) if float(value).is_integer() else format(value, "g")


def by_name(options: Iterable[BrainOption]) -> dict[str, BrainOption]:
    """The definitions keyed by option name (later ones override earlier ones)."""
    return {option.name: option for option in options}


def resolve(options: Iterable[BrainOption], given: Mapping[str, Any], game: str,
            brain: str = "") -> dict[str, Any]:
    """Every option's checked value: ``given`` where present, the default elsewhere.

    An option that ``options`` does not define is refused, listing the known ones.
    Defaults are checked too, so a bad definition is found when the brain is built.
    """
    table = by_name(options)
    prefix = f"{brain}: " if brain else ""
    for key in given:
        if key not in table:
            known = ", ".join(table) or "none"
            raise UnknownBrainError(f"{prefix}unknown option {quote(key)}; options: {known}")
    return {name: option.value(given.get(name, option.default), game, brain)
            for name, option in table.items()}


MODEL = BrainOption("model", str, None, "the model to play (a name from the model store, or "
                    "a file); none: the game's shipped model", nullable=True)
"""The option every learned brain takes."""
