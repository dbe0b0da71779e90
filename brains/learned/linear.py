"""The ``linear`` brain: a least-mean-squares linear evaluation.

The value of a position, from the side to move's view, is ``w0 + w . f(s)`` where
``f`` is the game's feature vector from ``brains.heuristics.<game>.features`` (for
tic-tac-toe the six line counts x1, o1, x2, o2, x3, o3). The weights are learned as in
Mitchell's checkers learner (Machine Learning, chapter 1): after each game every
position is moved towards a training value by least mean squares, the training value
being the learner's own estimate of the position two plies later (the "critic"), or the
game's result, +1 / 0 / -1, once it is over. Training runs first against a random
player, then against itself (both sides learn).

The brain looks one ply ahead: each move is worth minus the value of the position it
leads to (that value is from the opponent's view), or the exact result when the move
ends the game. Ties are broken by the brain's seeded rng.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from brains.heuristics import check_games, game_module
from brains.learned import store, tabular
from brains.options import MODEL, BrainOption
from brains.protocol import Brain, Budget, Thought
from engine.protocol import AnyState, ParlorError

KIND = "linear"
DEFAULTS: dict[str, dict[str, Any]] = {
    game: dict(module.LEARNED["linear"]) for game, module in check_games().items()
    if "linear" in module.LEARNED
}
"""Training arguments per game for ``make models``, from each game's brains module
(``LEARNED["linear"]``): games (half against random, half self-play) and, where
measured to help, a larger LMS step ``rate``."""
GAMES: tuple[str, ...] = tuple(DEFAULTS)
"""The games with a linear recipe, in the engine registry's order."""

LEARNING_RATE = 0.1
"""Step of the normalised LMS update."""
EPSILON = 0.1
"""Share of random moves the learner makes while training, to see more positions."""
CHUNK = 16
"""Games per work unit; each unit is seeded from the master seed and its number."""
ROUND = 64
"""Games played with the same weights before the updates are applied (in unit order)."""
WIN = 1.0
FINAL = 1e6
"""A finished game's value for the mover is this times its result, above any estimate."""


def feature_function(game_id: str) -> Callable[[AnyState], Any]:
    """The ``features`` function of the game's brains module."""
    features: Callable[[AnyState], Any] = game_module(game_id).features
    return features


def feature_names(game_id: str) -> tuple[str, ...]:
    """The names of those features."""
    return tuple(game_module(game_id).FEATURE_NAMES)


# --------------------------------------------------------------------------- training


def _value(weights: list[float], feats: Any) -> float:
    """``w0 + w . f`` in plain Python (faster than numpy for a dozen numbers)."""
    total = weights[0]
    for w, f in zip(weights[1:], feats, strict=True):
        total += w * f
    return total


def _move_values(state: AnyState, weights: list[float], features: Callable[[AnyState], Any]
                 ) -> list[tuple[float, Any]]:
    """(value for the mover, move) for each legal move, looking one ply ahead."""
    out = []
    mover = state.to_move
    for move in state.legal_moves():
        child = state.play(move)
        outcome = child.outcome()
        if outcome is not None:
            value = FINAL * outcome.value_for(mover)
        else:
            value = _value(weights, features(child))
            if child.to_move != mover:
                value = -value
        out.append((value, move))
    return out


def _pick(values: list[tuple[float, Any]], rng: random.Random) -> Any:
    best = max(v for v, _ in values)
    return rng.choice([m for v, m in values if v == best])


TrainingGame = tuple[list[tuple[float, ...]], list[int], list[bool], int | None]
"""One training game: features per state, side to move per state, whether the state is
trained on, and the winner or None."""


def _play_chunk(game_id: str, weights: list[float], seed: int, first_index: int,
                count: int, self_play: bool) -> list[TrainingGame]:
    """Play ``count`` training games; each as (features per state, side to move per
    state, whether the state is trained on, winner or None)."""
    from brains.arena import derive_seed
    from engine.registry import new_game

    features = feature_function(game_id)
    games: list[TrainingGame] = []
    for k in range(count):
        index = first_index + k
        rng = random.Random(derive_seed("linear", seed, index))
        learner_side = index % 2  # against random the learner alternates sides
        state = new_game(game_id)
        feats, movers, trained = [], [], []
        while True:
            feats.append(tuple(float(x) for x in features(state)))
            movers.append(state.to_move)
            trained.append(self_play or state.to_move == learner_side)
            legal = state.legal_moves()
            if not legal:
                break
            if (not self_play and state.to_move != learner_side) or rng.random() < EPSILON:
                move = rng.choice(legal)
            else:
                move = _pick(_move_values(state, weights, features), rng)
            state = state.play(move)
        outcome = state.outcome()
        games.append((feats, movers, trained, None if outcome is None else outcome.winner))
    return games


def _targets(weights: list[float], game: TrainingGame, lam: float) -> list[float]:
    """The critic: each position's training value is the learner's estimate of
    the position two plies later (from the same side's view), or the result once the game
    is over. With ``lam`` > 0 the estimate is mixed with the later training value, as in
    TD(lambda) over two-ply steps (``lam`` = 0 is the plain critic)."""
    feats, movers, _trained, winner = game
    n = len(feats)
    out = [0.0] * n
    for t in range(n - 1, -1, -1):
        mover = movers[t]
        if t + 2 >= n:
            target = 0.0 if winner is None else (WIN if winner == mover else -WIN)
        else:
            later = _value(weights, feats[t + 2])
            later = max(-WIN, min(WIN, later))  # no value beyond a win: keeps TD stable
            if lam:
                later = (1.0 - lam) * later + lam * out[t + 2]
            target = later if movers[t + 2] == mover else -later
        out[t] = target
    return out


def _update(weights: list[float], game: TrainingGame, rate: float, lam: float = 0.0) -> int:
    """The LMS update for one game, towards targets all computed before it (so a game's
    own updates do not move its targets); returns the number of positions learned from."""
    feats, _movers, trained, _winner = game
    targets = _targets(weights, game, lam)
    learned = 0
    for t, x in enumerate(feats):
        if not trained[t]:
            continue
        error = targets[t] - _value(weights, x)
        step = rate * error / (1.0 + sum(f * f for f in x))
        weights[0] += step
        for i, f in enumerate(x, 1):
            weights[i] += step * f
        learned += 1
    return learned


def train(game_id: str, *, games: int, seed: int, jobs: int = 1,
          progress: Callable[[int, int], None] | None = None,
          rate: float = LEARNING_RATE, self_play: float = 0.5,
          lam: float = 0.0) -> tuple[dict[str, Any], dict[str, Any]]:
    """Learn the weights from ``games`` training games: the first ``1 - self_play`` share
    against a random player, the rest against itself. Same seed, same weights, whatever
    ``jobs`` is: games are played in fixed units with frozen weights and the updates
    are applied in unit order."""
    import numpy as np

    if game_id not in GAMES:
        raise ParlorError(f"linear does not apply to {game_id}")
    names = feature_names(game_id)
    weights = [0.0] * (len(names) + 1)
    against_random = games - round(games * self_play)
    done = positions = 0
    wins = [0, 0, 0]  # learner wins, draws, losses in the games against random
    while done < games:
        size = min(ROUND, games - done)
        units = []
        start = done
        while start < done + size:
            phase_end = against_random if start < against_random else games
            count = min(CHUNK, done + size - start, phase_end - start)
            units.append((start, count, start >= against_random))
            start += count
        results = tabular.run_chunks(
            _play_chunk, [(game_id, weights, seed, s, c, sp) for s, c, sp in units], jobs)
        for (s, _c, sp), chunk in zip(units, results, strict=True):
            for k, game in enumerate(chunk):
                positions += _update(weights, game, rate, lam)
                if not sp:
                    winner = game[3]
                    learner = (s + k) % 2
                    wins[0 if winner == learner else 1 if winner is None else 2] += 1
        done += size
        if progress is not None:
            progress(done, games)
    model = {"kind": KIND, "game": game_id, "features": list(names),
             "weights": np.asarray(weights, dtype=np.float64)}
    meta = {"data": positions, "games_vs_random": against_random,
            "games_self_play": games - against_random,
            "training_vs_random": {"wins": wins[0], "draws": wins[1], "losses": wins[2]}}
    return model, meta


# --------------------------------------------------------------------------- the brain

def load(game_id: str, path: str | None = None) -> dict[str, Any]:
    """The verified model for ``game_id`` (see :func:`brains.learned.store.load`); a
    ModelError if it was trained on other features than the game's heuristics have now."""
    model: dict[str, Any]
    model, _entry = store.load(game_id, KIND, path)
    try:
        trained_on = list(model.get("features", []))
        weights = [float(w) for w in model["weights"]]
    except (KeyError, TypeError, ValueError):
        raise store.ModelError(f"{path or game_id}: not a {KIND} model for {game_id}") from None
    if trained_on != list(feature_names(game_id)) or len(weights) != len(trained_on) + 1:
        raise store.ModelError(f"{path or game_id}: trained on other features than "
                               f"brains.heuristics.{game_id} has now; retrain it")
    return model


def _score(value: float) -> float:
    """A move's value as a score: exactly -1 / 0 / 1 for a finished game, else within
    [-0.99, 0.99] (an estimate never claims a certain result)."""
    limit = 1.0 if abs(value) >= FINAL else 0.99
    return max(-limit, min(limit, value))


class LinearBrain(Brain):
    """A learned linear evaluation over the game's features, one ply deep."""

    name = "linear"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (MODEL,)

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "",
                 model: str | None = None, **options: Any):
        super().__init__(game, seed=seed, spec=spec, model=model, **options)
        data = load(game, model)
        self.weights = [float(w) for w in data["weights"]]
        self.features = feature_function(game)

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """Each legal move's value for the mover in [-1, 1] (exact when the game ends)."""
        return {move: _score(value)
                for value, move in _move_values(state, self.weights, self.features)}

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """One thought: the best move one ply ahead, ties broken from the seed."""
        values = _move_values(state, self.weights, self.features)
        if not values:
            return
        move = _pick(values, self.rng)
        score = _score(max(v for v, _ in values))
        yield Thought(move, score, 1, len(values), (move,), final=True)
