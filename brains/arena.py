"""The arena: brains play games, matches and round-robin tournaments against each other.

Everything is reproducible from one seed. Each game is a pure function of its
:class:`GameTask` (game, options, the two brain specs, the seeds derived from the match
seed and the game's index, and the number of random opening plies), so games can run in
any order, in parallel worker processes (``jobs``, joblib's loky backend) or on a Dask
cluster (:mod:`brains.parallel`), and give the same results. Brains are made fresh for
every game from their specs, so no state leaks from one game to the next. Time-limited
brains are only as reproducible as the clock.

In a match the two brains alternate sides game by game; games ``2k`` and ``2k + 1`` share
the same random opening (and, for games with a ``seed`` option, the same random start),
with the sides swapped, which cancels most of the luck of the opening.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from brains.heuristics import check_games, game_module
from brains.openings import random_opening
from brains.protocol import Brain, Budget
from brains.ratings import EloEstimate, Rating, bradley_terry, elo_estimate
from engine.protocol import ParlorError
from engine.record import GameRecord
from engine.registry import get_game

BrainFactory = Callable[..., Brain]
"""``factory(spec, game_id, seed=...) -> Brain``; by default ``brains.registry.make_brain``."""
Progress = Callable[[int, int, "GameResult"], None]
"""Called as ``progress(done, total, result)`` after each game finishes."""

DEFAULT_OPENING_PLIES: dict[str, int] = {
    game: module.OPENING_PLIES for game, module in check_games().items()}
"""Random plies played before the brains take over, per game (each game's brains module
declares its ``OPENING_PLIES``), unless told otherwise."""


class ArenaError(ParlorError):
    """A brain broke the protocol during a game (an illegal move, or no move at all)."""


def derive_seed(*parts: object) -> int:
    """A 32-bit seed determined by ``parts`` (stable across processes and platforms)."""
    text = ":".join(str(p) for p in ("parlor-arena", *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


def default_opening_plies(game_id: str) -> int:
    """The number of random opening plies used for ``game_id`` by default."""
    plies: int = game_module(get_game(game_id).id).OPENING_PLIES
    return plies


def _factory(factory: BrainFactory | None) -> BrainFactory:
    if factory is not None:
        return factory
    from brains.registry import make_brain

    return make_brain


# --------------------------------------------------------------------------- one game


@dataclass(frozen=True, slots=True)
class GameTask:
    """Everything one game needs; picklable, so it can run in a worker process."""

    game: str
    first: str
    """Spec of the brain playing the first side."""
    second: str
    options: dict[str, Any]
    seed: int
    """Seeds the two brains (tie-breaks)."""
    opening_seed: int
    """Seeds the random opening and, for games with a ``seed`` option, the start."""
    opening_plies: int = 0
    budget_seconds: float | None = None
    index: int = 0
    """Position of the game in its match or tournament."""
    a_first: bool = True
    """True when the match's brain A plays the first side."""
    tags: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game: its task and its record."""

    task: GameTask
    record: GameRecord

    @property
    def index(self) -> int:
        """Position of the game in its match or tournament."""
        return self.task.index

    @property
    def result(self) -> str:
        """``1-0``, ``0-1`` or ``1/2-1/2`` from the first player's view."""
        return self.record.result

    @property
    def a_points(self) -> float:
        """Points of the match's brain A in this game: 1, 1/2 or 0."""
        first = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[self.result]
        return first if self.task.a_first else 1.0 - first


def play_game(game_id: str, first_spec: str, second_spec: str, seed: int,
              options: dict[str, Any] | None = None, opening_plies: int = 0,
              budget_seconds: float | None = None, *, opening_seed: int | None = None,
              brain_factory: BrainFactory | None = None,
              tags: dict[str, str] | None = None) -> GameRecord:
    """Play one game between two brain specs and return its record.

    ``seed`` seeds both brains; ``opening_seed`` (default: ``seed``) seeds the
    ``opening_plies`` random moves played first and, when the game has a ``seed`` option
    that ``options`` does not set, the game's own random start. ``budget_seconds`` limits
    each move (default: each brain's own budget).
    """
    task = GameTask(get_game(game_id).id, first_spec, second_spec, dict(options or {}), seed,
                    seed if opening_seed is None else opening_seed, opening_plies,
                    budget_seconds, tags=dict(tags or {}))
    return run_task(task, brain_factory).record


def _start_options(task: GameTask) -> dict[str, Any]:
    """The task's options plus, for games with a random start, a seed for it."""
    options = dict(task.options)
    names = {opt.name for opt in get_game(task.game).options}
    if "seed" in names and "seed" not in options:
        options["seed"] = derive_seed(task.opening_seed, "start")
    return options


def run_task(task: GameTask, brain_factory: BrainFactory | None = None) -> GameResult:
    """Play the game ``task`` describes (a pure function of the task, time limits aside)."""
    make = _factory(brain_factory)
    start = get_game(task.game).initial(**_start_options(task))
    state, moves = random_opening(start, task.opening_plies,
                                  random.Random(derive_seed(task.opening_seed, "opening")))
    opening = len(moves)
    brains = (make(task.first, task.game, seed=derive_seed(task.seed, "first")),
              make(task.second, task.game, seed=derive_seed(task.seed, "second")))
    while legal := state.legal_moves():
        brain = brains[state.to_move]
        budget = Budget(seconds=task.budget_seconds) if task.budget_seconds else None
        move = brain.choose(state, budget)
        if move not in legal:
            raise ArenaError(f"{task.game}: {brain.spec} chose {move!r}, not a legal move "
                             f"at ply {state.ply} (game {task.index + 1}, seed {task.seed})")
        moves.append(move)
        state = state.play(move)
    tags = {"Event": "parlor arena", "Round": str(task.index + 1),
            "First": task.first, "Second": task.second, **task.tags}
    record = GameRecord.from_moves(start, moves, **tags)
    if opening:
        record.comments[opening] = f"end of the random opening ({opening} plies)"
    return GameResult(task, record)


def run_tasks(tasks: Sequence[GameTask], jobs: int = 1, progress: Progress | None = None,
              brain_factory: BrainFactory | None = None) -> list[GameResult]:
    """Play every task, ``jobs`` at a time (worker processes when > 1, or the Dask
    cluster of a :func:`brains.parallel.dask_cluster` block), and return them in task order.

    The results do not depend on ``jobs`` nor on where the games ran: each game depends
    only on its task.
    """
    from brains.parallel import run_unordered

    results: dict[int, GameResult] = {}
    for position, result in run_unordered(run_task, [(t, brain_factory) for t in tasks], jobs):
        results[position] = result
        if progress is not None:
            progress(len(results), len(tasks), result)
    return [results[k] for k in range(len(tasks))]


def check_setup(game_id: str, specs: Iterable[str], options: dict[str, Any] | None = None,
                brain_factory: BrainFactory | None = None) -> dict[str, Any]:
    """The given options with their proper types (``"6"`` -> 6); raises the engine's or
    the registry's ValueError for a bad game, option or brain spec."""
    options = dict(options or {})
    resolved = get_game(game_id).resolve(options)
    make = _factory(brain_factory)
    for spec in specs:
        make(spec, game_id, seed=0)
    return {name: resolved[name] for name in options}


# --------------------------------------------------------------------------- matches


def match_tasks(game_id: str, a: str, b: str, games: int, seed: int = 0,
                options: dict[str, Any] | None = None, opening_plies: int | None = None,
                budget_seconds: float | None = None, first_index: int = 0,
                tags: dict[str, str] | None = None, start: int = 0) -> list[GameTask]:
    """The games of an ``a`` against ``b`` match: sides alternate, A first in game 1.

    Game ``i`` seeds its brains from ``(seed, i)``; its opening comes from
    ``(seed, i // 2)``, so each opening is played once with each brain on each side.
    Game ``i`` is the same game however long the match, so a longer match extends a
    shorter one: ``start`` leaves out the first ``start`` games (played before).
    """
    plies = default_opening_plies(game_id) if opening_plies is None else opening_plies
    tasks = []
    for i in range(start, games):
        a_first = i % 2 == 0
        tasks.append(GameTask(
            game_id, a if a_first else b, b if a_first else a, dict(options or {}),
            seed=derive_seed(seed, "game", i), opening_seed=derive_seed(seed, "opening", i // 2),
            opening_plies=plies, budget_seconds=budget_seconds,
            index=first_index + i - start,
            a_first=a_first, tags=dict(tags or {})))
    return tasks


@dataclass
class MatchResult:
    """The games of a match between brains A and B, and what they add up to."""

    game: str
    a: str
    b: str
    seed: int
    options: dict[str, Any]
    results: list[GameResult]

    @property
    def games(self) -> int:
        """Number of games played."""
        return len(self.results)

    def counts(self, a_first: bool | None = None) -> tuple[int, int, int]:
        """(A's wins, draws, B's wins), over all games or those where A was first/second."""
        points = [r.a_points for r in self.results if a_first is None or r.task.a_first == a_first]
        return points.count(1.0), points.count(0.5), points.count(0.0)

    @property
    def a_score(self) -> float:
        """A's points per game (wins + draws / 2) / games; 0.5 for an empty match."""
        a_wins, draws, _ = self.counts()
        return (a_wins + draws / 2.0) / self.games if self.games else 0.5

    def elo(self) -> EloEstimate:
        """A's Elo advantage over B with its 95 % confidence interval."""
        return elo_estimate(*self.counts())

    def summary(self) -> dict[str, Any]:
        """The match as the JSON object ``parlor match --json`` prints."""
        a_wins, draws, b_wins = self.counts()
        elo = self.elo()
        return {
            "game": self.game, "a": self.a, "b": self.b, "games": self.games,
            "a_wins": a_wins, "b_wins": b_wins, "draws": draws,
            "a_score": round(self.a_score, 6), "elo_diff": round(elo.diff, 1),
            "elo_ci95": [round(elo.lo, 1), round(elo.hi, 1)],
            "seed": self.seed, "options": self.options,
        }


def match(game_id: str, a: str, b: str, games: int, seed: int = 0, jobs: int = 1,
          options: dict[str, Any] | None = None, opening_plies: int | None = None,
          budget_seconds: float | None = None, progress: Progress | None = None,
          brain_factory: BrainFactory | None = None) -> MatchResult:
    """Play ``games`` games of ``a`` against ``b`` (sides alternating); see :func:`match_tasks`.

    The game, the options and both specs are checked first, so a bad spec fails before
    any game starts. The same arguments give the same results whatever ``jobs`` is.
    """
    if games < 1:
        raise ParlorError(f"a match needs at least one game, not {games}")
    game_id = get_game(game_id).id
    options = check_setup(game_id, (a, b), options, brain_factory)
    tasks = match_tasks(game_id, a, b, games, seed, options, opening_plies, budget_seconds,
                        tags={"Event": f"parlor match {a} vs {b}"})
    results = run_tasks(tasks, jobs, progress, brain_factory)
    return MatchResult(game_id, a, b, seed, options, results)


# --------------------------------------------------------------------------- tournaments


@dataclass
class TournamentResult:
    """A round robin: one match per pair of players, in the players' order."""

    game: str
    players: list[str]
    seed: int
    options: dict[str, Any]
    matches: dict[tuple[str, str], MatchResult]

    reused: dict[tuple[str, str], tuple[int, int, int]] = field(default_factory=dict)
    """Counts of the games each pairing played before this run (see :func:`tournament`'s
    ``reuse``); ``matches`` hold only the games played now."""

    def _counts(self, pair: tuple[str, str]) -> tuple[int, int, int]:
        now, before = self.matches[pair].counts(), self.reused.get(pair, (0, 0, 0))
        return now[0] + before[0], now[1] + before[1], now[2] + before[2]

    def score(self, row: str, col: str) -> float | None:
        """``row``'s points per game against ``col`` (None on the diagonal), reused games
        included."""
        for pair, mine in (((row, col), 0), ((col, row), 2)):
            if pair in self.matches:
                counts = self._counts(pair)
                total = sum(counts)
                return (counts[mine] + counts[1] / 2.0) / total if total else 0.5
        return None

    def pair_counts(self) -> dict[tuple[str, str], tuple[int, int, int]]:
        """``(a, b) -> (a's wins, draws, b's wins)`` for every pairing, reused games
        included."""
        return {pair: self._counts(pair) for pair in self.matches}

    def ratings(self, bootstrap: int = 200, anchor: str | None = None) -> list[Rating]:
        """Bradley-Terry ratings (Elo scale, mean 0, or ``anchor`` = 0) with 95 %
        bootstrap intervals, best first."""
        return bradley_terry(self.players, self.pair_counts(), bootstrap=bootstrap,
                             seed=self.seed, anchor=anchor)

    def summary(self, ratings: list[Rating] | None = None) -> dict[str, Any]:
        """The tournament as a JSON-ready object: pairings, score table and ratings."""
        ratings = self.ratings() if ratings is None else ratings
        return {
            "game": self.game, "options": self.options, "seed": self.seed,
            "players": self.players,
            "pairs": [m.summary() for m in self.matches.values()],
            "table": {row: {col: self.score(row, col) for col in self.players if col != row}
                      for row in self.players},
            "ratings": [{"player": r.player, "elo": round(r.elo, 1),
                         "ci95": [round(r.lo, 1), round(r.hi, 1)],
                         "games": r.games, "score": round(r.score, 6)} for r in ratings],
        }


def tournament(game_id: str, players: Sequence[str], games: int, seed: int = 0,
               jobs: int = 1, options: dict[str, Any] | None = None,
               opening_plies: int | None = None, budget_seconds: float | None = None,
               progress: Progress | None = None,
               brain_factory: BrainFactory | None = None,
               pairs: Sequence[tuple[str, str]] | None = None,
               reuse: Mapping[tuple[str, str], tuple[int, int, int]] | None = None,
               ) -> TournamentResult:
    """A round robin of ``games``-game matches between every pair of ``players``.

    ``pairs``, when given, are the pairings to play instead of all of them (each a pair
    of distinct players, in any order; the ratings need them to connect every player).

    ``reuse`` maps a pairing ``(a, b)`` to the counts of its first games, played before
    with the same seed and options (``(a's wins, draws, b's wins)``, at most ``games`` in
    all): only the games after those are played, and the result counts both, exactly as
    if every game had been played now (game ``i`` of a pairing is the same game however
    many the match has).

    Every game of every pairing goes into one pool, so ``jobs`` workers stay busy. Each
    pairing's match seed comes from ``seed`` and the two specs, so a pairing plays the
    same games whoever else takes part.
    """
    players = list(players)
    if len(players) < 2:
        raise ParlorError("a tournament needs at least two players")
    if len(set(players)) != len(players):
        raise ParlorError("each player may appear only once in a tournament")
    if games < 1:
        raise ParlorError(f"each pairing needs at least one game, not {games}")
    game_id = get_game(game_id).id
    options = check_setup(game_id, players, options, brain_factory)
    if pairs is None:
        pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1:]]
    else:
        pairs = [(a, b) for a, b in pairs]
        if any(a not in players or b not in players or a == b for a, b in pairs) \
                or len({frozenset(p) for p in pairs}) != len(pairs):
            raise ParlorError("each pairing must be two different players, and appear once")
    wanted = set(pairs)
    reused = {pair: tuple(counts) for pair, counts in (reuse or {}).items() if pair in wanted}
    if any(min(c) < 0 or sum(c) > games for c in reused.values()):
        raise ParlorError(f"reused counts must be at most {games} games a pairing")
    tasks: list[GameTask] = []
    bounds = []
    for a, b in pairs:
        first = len(tasks)
        tasks += match_tasks(game_id, a, b, games, derive_seed(seed, "pair", a, b), options,
                             opening_plies, budget_seconds, first_index=len(tasks),
                             tags={"Event": f"parlor tournament {a} vs {b}"},
                             start=sum(reused.get((a, b), (0, 0, 0))))
        bounds.append((first, len(tasks)))
    results = run_tasks(tasks, jobs, progress, brain_factory)
    matches = {
        (a, b): MatchResult(game_id, a, b, derive_seed(seed, "pair", a, b), options,
                            results[lo:hi])
        for (a, b), (lo, hi) in zip(pairs, bounds, strict=True)
    }
    return TournamentResult(game_id, players, seed, options, matches,
                            {p: (c[0], c[1], c[2]) for p, c in reused.items()})
