"""Session: one game being played, without any UI, used by the app's Play screen and by
the host's rooms alike.

A session holds the start position and everything since (``history``, ``moves`` and their
``texts``), who plays each side (``players``: brain specs or ``human`` in a local game,
the people's names in a room), the clock, how the game ended (a flag, a resignation, …),
whether the game is rated and why not, and the comments of its record. It builds the
record (:meth:`Session.record`), takes moves back (:meth:`Session.take_back`), says when
a brain is to move and what to ask it (:meth:`Session.brain_request`: the caller runs the
search on its own executor and hands the answer back to :meth:`Session.brain_answer`,
which refuses a stale one), and settles the rating once through the caller's
:class:`RatingSink`.

Time comes in as ``now`` arguments (seconds on any steady clock): nothing here reads a
clock, so tests drive it with fake times. A local game's record keeps the clock readings
in the :data:`CLOCK_TAG` tag, so a resumed game goes on with the same time on each side.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from typing import Any, Protocol

from brains.timeman import clock_allot
from engine.protocol import AnyState, Outcome, Result
from engine.record import EARLY_TERMINATIONS, GameRecord
from engine.registry import get_game
from tui.game import opponents
from tui.player import store
from tui.player.clock import MAX_MINUTES, Clock, TimeControl
from tui.player.ratings import PlayerRatings

CHANGE = re.compile(r"^(?P<side>.{1,40}) is now (?P<new>.+) \(was (?P<old>.+)\)$")
"""A record comment saying another player took over a side from that move on."""
ALL_PLAYERS_TAGS = ("FirstPlayers", "SecondPlayers")
"""Record tags naming everyone who played a side, in order, when more than one did
(``First``/``Second`` name who plays it at the end: a resumed game goes on with them)."""
ALL_PLAYERS_CHARS = 200
"""The longest value of an :data:`ALL_PLAYERS_TAGS` tag."""
RATED_TAG = "Rated"
"""Record tag: ``yes`` for a rated game, ``no`` for one that is not (then the tag
:data:`UNRATED_TAG` says why); read back when the game is resumed."""
UNRATED_TAG = "Unrated"
RANDOM_START_OPTION = "seed"
"""The option that only seeds a variant's random start: any value of it keeps the
standard start (the start position itself is compared too)."""
CLOCK_TAG = "Clock"
"""Record tag of a clocked local game in progress: each side's remaining seconds when it
was written and whose clock ran (``0``, ``1`` or ``-``), as ``"291.250 300.000 0"``."""
MAX_CLOCK_SECONDS = MAX_MINUTES * 60.0 * 10
"""Clock readings beyond this (either way) are refused as damaged."""
TAKEBACK = "a move was taken back"
"""Why a game with a move taken back is unrated."""
SCORES = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}
"""The first player's score for each decided result."""

Pairing = tuple[int, opponents.RatedLevel]
"""The person's side and the rated level playing the other side."""


def change_comment(side_name: str, new: str, old: str) -> str:
    """The record comment for ``new`` taking over ``side_name`` from ``old``."""
    return f"{side_name} is now {new} (was {old})"


def join_comments(old: str | None, new: str) -> str:
    """Two comments at the same place in a record, as one."""
    return new if not old else f"{old}; {new}"


def players_by_move(record: GameRecord, states: list[AnyState]) -> list[str]:
    """Who played each move of ``record``: the First and Second tags name the players
    at the end; comments written by :func:`change_comment` say who played before."""
    names = states[0].PLAYERS
    current = [record.tags.get("First", "?"), record.tags.get("Second", "?")]
    changes: dict[int, list[tuple[int, str]]] = {}
    for index, text in record.comments.items():
        for part in text.split("; "):
            found = CHANGE.match(part.strip())
            if found and found["side"] in names:
                changes.setdefault(index, []).append((names.index(found["side"]), found["old"]))
    by = [""] * len(record.moves)
    for i in reversed(range(len(record.moves))):
        for side, old in changes.get(i + 1, []):
            current[side] = old
        by[i] = current[states[i].to_move]
    return by


def all_players(record: GameRecord, states: list[AnyState], now: tuple[str, str]) -> list[str]:
    """For each side, everyone who played it in ``record`` (whose positions are
    ``states``), in order, ending with who plays it ``now``: ``alphabeta:medium, random``."""
    sides: list[list[str]] = [[], []]
    for index, spec in enumerate(players_by_move(record, states)):
        side = sides[states[index].to_move]
        if spec not in side:
            side.append(spec)
    for who, spec in enumerate(now):
        if spec in sides[who]:
            sides[who].remove(spec)
        sides[who].append(spec)
    return [", ".join(side) for side in sides]


def unrated_reason(tags: dict[str, str]) -> str | None:
    """Why a record's tags say its game is unrated (one short line), or None."""
    if tags.get(RATED_TAG, "").strip().lower() != "no":
        return None
    why = " ".join(tags.get(UNRATED_TAG, "").split())
    if not why or not why.isprintable():
        return "its record says it is unrated"
    return store.short(why, 60)


def rating_key(game_id: str) -> str:
    """The key a game is counted under in the player's ratings: its store id, or a digest
    of it when the id is not a plain one (a file named by hand)."""
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,79}", game_id):
        return game_id
    return "h-" + hashlib.sha256(game_id.encode("utf-8", "surrogatepass")).hexdigest()[:32]


@dataclass(frozen=True)
class ClockReadings:
    """Each side's remaining seconds and whose clock ran, as a record keeps them."""

    left: tuple[float, float]
    running: int | None

    def text(self) -> str:
        """The :data:`CLOCK_TAG` value: ``"291.250 300.000 0"``."""
        run = "-" if self.running is None else str(self.running)
        return f"{self.left[0]:.3f} {self.left[1]:.3f} {run}"

    @classmethod
    def parse(cls, text: str) -> ClockReadings | None:
        """The readings in a :data:`CLOCK_TAG` value, or None when it is not one (read
        from a file: anything may be there)."""
        parts = str(text).split()
        if len(parts) != 3 or parts[2] not in ("0", "1", "-") or any(len(p) > 20 for p in parts):
            return None
        try:
            left = (float(parts[0]), float(parts[1]))
        except ValueError:
            return None
        if not all(math.isfinite(x) and abs(x) <= MAX_CLOCK_SECONDS for x in left):
            return None
        return cls(left, None if parts[2] == "-" else int(parts[2]))


@dataclass(frozen=True)
class BrainRequest:
    """What a brain to move is asked: the caller runs it on its own executor (a thread,
    a worker process) and hands the answer to :meth:`Session.brain_answer`."""

    token: int
    """The session's turn token when asked: an answer for another token is stale."""
    ply: int
    """Moves played when asked."""
    side: int
    spec: str
    state: AnyState
    seed: int | None
    seconds: float | None
    """Seconds to think on the clock (:func:`brains.timeman.clock_allot`), None unclocked."""
    texts: tuple[str, ...]
    """The moves so far in notation (for a worker that replays them)."""
    options: dict[str, str]
    """The game's options as text (with ``texts``, the position in a worker process)."""


class RatingSink(Protocol):
    """Where a session's rating is settled (the caller's: the player's own ratings, or
    each seated person's on a host)."""

    def current(self, side: int) -> tuple[float, float]:
        """The rating and deviation of the person on ``side`` before the game."""

    def record(self, side: int, opponent: tuple[float, float], score: float) -> Any:
        """Count the game for the person on ``side``: ``score`` against ``opponent``'s
        rating and deviation; returns what the caller shows of it."""


class LocalRatings:
    """The player's own ratings (:class:`tui.player.ratings.PlayerRatings`) as the sink
    of a local game, counted once under the game's ``key``."""

    def __init__(self, ratings: PlayerRatings, game_id: str, key: str) -> None:
        self.ratings, self.game_id, self.key = ratings, game_id, key

    def current(self, side: int) -> tuple[float, float]:
        rating = self.ratings.current(self.game_id)
        return rating.rating, rating.deviation

    def record(self, side: int, opponent: tuple[float, float], score: float) -> Any:
        return self.ratings.record_once(self.game_id, self.key, opponent[0], opponent[1],
                                        score)


class Session:
    """One game: its positions, players, clock, ending, rating and brain turns.

    ``hosted`` sessions are rooms: ``players`` are the people's names (and a brain
    seat's spec on ``brain_side``), a takeback is agreed rather than taken, and both
    people are rated (against each other, or against a rated brain seat) whatever the
    start. A local session's players are specs (``human`` or a brain), and it is rated
    only for one person against a rung of the rated ladder from the standard start.
    """

    def __init__(self, history: list[AnyState], moves: list[Any], players: tuple[str, str], *,
                 control: TimeControl | None = None, readings: ClockReadings | None = None,
                 comments: dict[int, str] | None = None, unrated: str | None = None,
                 seed: int | None = None, hosted: bool = False) -> None:
        if len(history) != len(moves) + 1:
            raise ValueError("a history is one position more than its moves")
        self.history = list(history)
        self.moves = list(moves)
        self.texts = [s.format_move(m) for s, m in zip(self.history, self.moves, strict=False)]
        self.players = (players[0], players[1])
        self.control = control
        self.clock = Clock(control) if control is not None else None
        if self.clock is not None and readings is not None:
            self.clock.left = list(readings.left)
        self.comments = dict(comments or {})
        """Record comments by the number of moves before them: who took over a side,
        and a note from a brain that moved without the method it is named for."""
        self.unrated = unrated
        """Why this game is not rated (a takeback, a hint, …), or None."""
        self.seed = seed
        self.hosted = hosted
        self.brain_side: int | None = None
        """A room's brain seat (hosted sessions only)."""
        self.ending: tuple[str, str] | None = None
        """The result and termination when the game ended other than on the board (a
        flag, a resignation, …) or was ended by the caller; None while it goes on."""
        self.token = 0
        """The brain turn's token: every move, takeback or cancel makes a new one."""
        self.dropped = 0
        """How many stale brain answers were refused."""
        self.settled = False
        """True once the end of the game was taken into the ratings (or found unrated):
        never again, whatever happens."""
        self._rated_for: tuple[tuple[str, str], Pairing | None] | None = None

    # -- the position -----------------------------------------------------------------
    @property
    def state(self) -> AnyState:
        """The current position."""
        return self.history[-1]

    @property
    def game_id(self) -> str:
        return self.state.GAME

    @property
    def result(self) -> str | None:
        """The result once the game is over (``*`` for one ended without a result)."""
        if self.ending is not None:
            return self.ending[0]
        outcome = self.state.outcome()
        return outcome.result.value if outcome is not None else None

    @property
    def termination(self) -> str:
        if self.ending is not None:
            return self.ending[1]
        outcome = self.state.outcome()
        return outcome.termination if outcome is not None else ""

    @property
    def over(self) -> bool:
        return self.result is not None

    def outcome(self) -> Outcome | None:
        """How the game ended with a result: as ended, or on the board."""
        if self.ending is not None:
            result, termination = self.ending
            if result in SCORES:
                return Outcome(Result(result), termination)
            return None
        return self.state.outcome()

    @property
    def forfeit(self) -> Outcome | None:
        """How the game ended other than on the board, as an outcome (a fallen flag)."""
        return self.outcome() if self.ending is not None else None

    def is_person(self, side: int) -> bool:
        """True when a person plays ``side``."""
        if self.hosted:
            return side != self.brain_side
        return opponents.is_human(self.players[side])

    def people(self) -> set[int]:
        return {side for side in (0, 1) if self.is_person(side)}

    # -- playing ----------------------------------------------------------------------
    def play(self, move: Any, now: float) -> None:
        """Play ``move`` (legal here) for the side to move; its clock is pressed (the
        clocks stop when the position is over)."""
        before = self.state
        text = before.format_move(move)
        self.history.append(before.play(move))
        self.moves.append(move)
        self.texts.append(text)
        self.token += 1
        if self.clock is not None:
            self.clock.press(now)
            if self.state.outcome() is not None:
                self.clock.stop(now)

    def end(self, result: str, termination: str, now: float) -> None:
        """End the game (``result`` is ``1-0``, ``0-1``, ``1/2-1/2`` or ``*``); the
        clocks stop."""
        if self.clock is not None:
            self.clock.stop(now)
        self.ending = (result, termination)
        self.token += 1

    def start_clock(self, now: float) -> None:
        """Run the side to move's clock from ``now`` (at the start, on resuming, after a
        takeback); nothing when it runs already or the game is over."""
        clock = self.clock
        if clock is None or self.over or clock.running == self.state.to_move:
            return
        clock.stop(now)
        clock.start(self.state.to_move, now)

    def flag(self, now: float) -> int | None:
        """End the game on time if the running clock has run out at ``now``: the side
        whose flag fell, else None."""
        if self.clock is None or self.over:
            return None
        side = self.clock.flagged(now)
        if side is not None:
            self.end(Result.win_for(1 - side).value, "time forfeit", now)
        return side

    def readings(self, now: float) -> ClockReadings | None:
        """The clocks at ``now`` (None without a clock)."""
        clock = self.clock
        if clock is None:
            return None
        left = (clock.remaining(0, now), clock.remaining(1, now))
        return ClockReadings(left, clock.running)

    # -- taking back ------------------------------------------------------------------
    def own_moves(self, side: int) -> list[int]:
        """The plies at which ``side`` moved."""
        return [i for i, s in enumerate(self.history[:-1]) if s.to_move == side]

    def take_back(self, sides: set[int], now: float) -> int:
        """Take back at least one move, then more until one of ``sides`` is to move
        (the start at most); the clock runs for the side to move from ``now``. Returns
        how many moves went."""
        if len(self.history) == 1:
            return 0
        count = 1
        self.history.pop()
        while len(self.history) > 1 and sides and self.state.to_move not in sides:
            self.history.pop()
            count += 1
        del self.moves[len(self.history) - 1:], self.texts[len(self.history) - 1:]
        self.token += 1
        if self.clock is not None:
            self.clock.stop(now)
            self.clock.start(self.state.to_move, now)
        return count

    def make_unrated(self, reason: str) -> bool:
        """Make this game unrated for ``reason``; True the first time a game that was
        rated becomes unrated. A game whose end was already settled stays as counted."""
        if self.unrated is not None or self.settled:
            return False
        self.unrated = reason
        return self.hosted or self.rated_pairing() is not None

    # -- players ----------------------------------------------------------------------
    def set_player(self, side: int, spec: str) -> bool:
        """``spec`` plays ``side`` from the current position on; True when the game
        became unrated by it (players changed after the first move)."""
        old = self.players[side]
        players = list(self.players)
        players[side] = spec
        self.players = (players[0], players[1])
        if old == spec:
            return False
        index = len(self.moves)
        self.comments[index] = join_comments(
            self.comments.get(index), change_comment(self.state.PLAYERS[side], spec, old))
        self.token += 1
        return bool(self.moves) and self.make_unrated("the players changed during the game")

    def note(self, text: str) -> None:
        """Add ``text`` to the record's comment after the latest move."""
        index = len(self.moves)
        self.comments[index] = join_comments(self.comments.get(index), text)

    # -- brains -----------------------------------------------------------------------
    def brain_to_move(self) -> int | None:
        """The side to move when a brain plays it and the game goes on, else None."""
        side = self.state.to_move
        if self.over or self.is_person(side):
            return None
        return side

    def brain_request(self, now: float) -> BrainRequest | None:
        """What to ask the brain to move (a new token: any earlier request is stale),
        or None when no brain is to move."""
        side = self.brain_to_move()
        if side is None:
            return None
        self.token += 1
        ply = len(self.moves)
        seconds = None
        if self.clock is not None:
            seconds = clock_allot(self.state, self.clock.remaining(side, now),
                                  self.clock.control.increment)
        seed = None if self.seed is None else self.seed + (ply if self.hosted else side)
        options = {k: str(v) for k, v in self.history[0].options.items()}
        return BrainRequest(self.token, ply, side, self.players[side], self.state, seed,
                            seconds, tuple(self.texts), options)

    def cancel_brain(self) -> None:
        """Whatever a brain asked before now answers is stale."""
        self.token += 1

    def current(self, token: int, ply: int) -> bool:
        """True while an answer to the request of ``token`` at ``ply`` still applies."""
        return token == self.token and ply == len(self.moves) and not self.over

    def accepts(self, token: int, ply: int, key: Any = None) -> bool:
        """True when an answer to the request of ``token`` at ``ply`` (for the position
        of ``key``, when given) applies now; a stale one is counted in :attr:`dropped`."""
        if self.current(token, ply) and (key is None or key == self.state.key()):
            return True
        self.dropped += 1
        return False

    def brain_answer(self, request: BrainRequest, move: Any, now: float) -> bool:
        """Play the brain's ``move`` for ``request`` if it still applies (ValueError if
        it is not legal here); False (the answer refused, counted in :attr:`dropped`)
        when it is stale."""
        if not self.accepts(request.token, request.ply, request.state.key()):
            return False
        if move not in self.state.legal_moves():
            raise ValueError(f"brain returned an illegal move {move!r}")
        self.play(move, now)
        return True

    # -- the rating -------------------------------------------------------------------
    def standard_start(self) -> bool:
        """True when the game began at the game's usual start with its usual options
        (the ladder's ratings were measured there)."""
        first = self.history[0]
        game = get_game(self.game_id)
        defaults = {o.name: o.default for o in game.options if o.name != RANDOM_START_OPTION}
        chosen = {k: v for k, v in first.options.items() if k != RANDOM_START_OPTION}
        return chosen == defaults and first.key() == game.initial().key()

    def rated_pairing(self) -> Pairing | None:
        """A local game: the person's side and the rated level they play, when this game
        can be rated: one person against a rung of the rated ladder, from the standard
        start; else None (computers against each other and people against each other
        are unrated)."""
        if self._rated_for is not None and self._rated_for[0] == self.players:
            return self._rated_for[1]
        humans = [side for side in (0, 1) if opponents.is_human(self.players[side])]
        pairing = None
        if len(humans) == 1 and self.standard_start():
            level = opponents.rated_level(self.players[1 - humans[0]], self.game_id)
            if level is not None:
                pairing = (humans[0], level)
        self._rated_for = (self.players, pairing)
        return pairing

    def settle(self, sink: RatingSink) -> list[tuple[int, Any]] | None:
        """Count a finished rated game in the ratings through ``sink``, once: the sides
        counted and what ``sink.record`` said of each; None when nothing is settled now
        (the game goes on, or it was settled already, or it is not one that is rated).
        A local game found unrated at its end is settled with nothing counted ([]).
        Errors of ``sink`` are the caller's (the game counts as settled all the same)."""
        if self.settled or self.result is None:
            return None
        if not self.hosted:
            pairing = self.rated_pairing()
            outcome = self.outcome()
            if pairing is None or outcome is None:
                return None
            self.settled = True
            if self.unrated is not None:
                return []
            side, level = pairing
            score = 0.5 if outcome.winner is None else float(outcome.winner == side)
            return [(side, sink.record(side, (level.rating, level.deviation), score))]
        first = SCORES.get(self.result)
        self.settled = True
        if first is None or self.unrated is not None or not self.moves:
            return None
        scores = (first, 1.0 - first)
        if self.brain_side is not None:
            rung = opponents.rated_level(self.players[self.brain_side], self.game_id)
            if rung is None:
                return None
            person = 1 - self.brain_side
            return [(person, sink.record(person, (rung.rating, rung.deviation),
                                         scores[person]))]
        before = [sink.current(side) for side in (0, 1)]
        return [(side, sink.record(side, before[1 - side], scores[side])) for side in (0, 1)]

    # -- the record -------------------------------------------------------------------
    def record(self, now: float | None = None, *, result: str | None = None,
               termination: str = "", **tags: str) -> GameRecord:
        """The game so far as a record: the players as First and Second, ``tags``, the
        time control (and the clock readings at ``now`` while the game goes on, when
        ``now`` is given), the result of a game ended early (or ``result`` and
        ``termination`` instead), the comments that apply to its moves, who else played
        a side, and (local games) whether it is rated."""
        all_tags = {"First": self.players[0], "Second": self.players[1], **tags}
        if self.control is not None and self.hosted:
            all_tags["TimeControl"] = str(self.control)
        if result is None and self.ending is not None:
            result, termination = self.ending
        if result is not None and termination in (*EARLY_TERMINATIONS, "unterminated"):
            all_tags["Result"] = result
            all_tags["Termination"] = termination
        record = GameRecord.from_moves(self.history[0], self.moves, **all_tags)
        record.comments = {i: c for i, c in sorted(self.comments.items()) if i <= len(self.moves)}
        if self.control is not None and not self.hosted:
            record.tags["TimeControl"] = str(self.control)
        readings = self.readings(now) if now is not None else None
        if readings is not None and record.result == "*":
            record.tags[CLOCK_TAG] = readings.text()
        for tag, everyone, player in zip(ALL_PLAYERS_TAGS, all_players(
                record, self.history, self.players), self.players, strict=True):
            if everyone != player:  # another played this side before: the record says who
                record.tags[tag] = store.short(everyone, ALL_PLAYERS_CHARS)
        if not self.hosted:
            if self.unrated is not None:
                record.tags[RATED_TAG] = "no"
                record.tags[UNRATED_TAG] = self.unrated
            elif self.rated_pairing() is not None:
                record.tags[RATED_TAG] = "yes"
        return record
