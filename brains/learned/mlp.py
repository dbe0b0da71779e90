"""MLP value networks on the engine's encode().

One scikit-learn :class:`~sklearn.neural_network.MLPRegressor` per game (an ensemble of
small nets averaged for Reversi; one net per phase, placing and moving, for Morris)
predicts the value of a position for the side to move, in [-1, 1]. Training data are the
positions of noisy self-play (greedy on the heuristic, and in some games a player
following the search values below); each position's target mixes the game's final
outcome with a shallow alpha-beta value on the game's hand-written heuristic (exact
values in tic-tac-toe). :data:`CONFIG` holds each game's recipe (declared in the game's
brains module, ``LEARNED["mlp"]``).

At play time the forward pass runs with numpy on the fitted ``coefs_``/``intercepts_``:
the ``mlp`` brain encodes all children of a position into one matrix and evaluates them
in one product per layer (one ply of lookahead, wins first). The same network serves as
an evaluation for the search brains: ``alphabeta,eval=mlp`` (see :func:`heuristic`).
There a leaf costs what matters most, so the Reversi, checkers and Connect Four nets
read only the heuristic's features (no encode()), have one hidden layer and a fitted
linear part, and run through :meth:`Network.evaluator` in four numpy calls.

The saved model is a plain dict (``{"nets": {phase: [MLPRegressor, ...]}, ...}``), so it
survives refactors of this module; it is loaded only through :mod:`brains.learned.store`.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from brains.heuristics import check_games, game_module, get_heuristic
from brains.learned import store
from brains.options import MODEL, BrainOption
from brains.parallel import on_cluster, run_calls
from brains.protocol import Brain, Budget, Thought
from engine.protocol import AnyState, ParlorError
from engine.registry import get_game

KIND = "mlp"

SCALE = 0.9
"""Network values are scaled like heuristic values (inside the proven-result range)."""
FEATURED = ("encode", "features", "heuristic")
"""Input layout of the engine's encode(), the game's heuristic features and its default
heuristic's value (see :func:`input_builder`)."""

RECIPES: dict[str, dict[str, Any]] = {
    game: module.LEARNED["mlp"] for game, module in check_games().items()
    if "mlp" in module.LEARNED
}
"""Each game's ``LEARNED["mlp"]`` recipe from its brains module (brains.heuristics)."""
GAMES: tuple[str, ...] = tuple(RECIPES)
"""The games with a network recipe, in the engine registry's order."""
DEFAULTS: dict[str, dict[str, Any]] = {g: {"games": r["games"]} for g, r in RECIPES.items()}
"""Training arguments ``make models`` uses, per game."""
CONFIG: dict[str, dict[str, Any]] = {g: dict(r["network"]) for g, r in RECIPES.items()}
"""Per-game network shape and data recipe: hidden layer sizes, ensemble size
(``nets``, bootstrap samples), the alpha-beta depth of the search targets, the weight of
the game outcome in the target (``mix``), the self-play exploration rate, training
epochs, one net per Morris phase (``phases``), learning every child of a visited
position too (``children``, their values ``child_depth`` deep), ``mixed`` self-play
(one side, or both every third game, plays the best move by the search values), the
network's ``inputs`` (see :func:`input_builder`; encode() alone by default), a
``residual`` weight (the net learns the target minus that times the heuristic input, and
adds it back at play time), ``skip`` (a least-squares linear fit of the target on the
inputs is fitted first and the net learns what it misses), ``rounds`` (each later round
plays as many games again, searching with the net fitted so far, and the next net learns
from every round's data) and the L2 penalty ``alpha``. How each recipe was chosen, with
the scores measured: docs/LEARNING.md."""

CHUNK = 20
"""Self-play games per seeded chunk (fixed, so ``jobs`` never changes the data)."""
MAX_PLIES = 400
"""Self-play games longer than this are cut off (and score their search value only)."""


def input_builder(game_id: str, layout: tuple[str, ...] | list[str]) -> Callable[[AnyState], Any]:
    """state -> the network's input row for ``layout``: ``encode`` alone (the engine's
    encode()), or followed by ``features`` (the game's heuristic features,
    ``brains.heuristics.<game>.features``) and ``heuristic`` (its default heuristic's value,
    clipped to [-1, 1]; a residual model adds it to the network's output)."""
    import numpy as np

    layout = tuple(layout)
    if layout == ("encode",):
        return lambda state: state.encode()

    parts: list[Callable[[AnyState], Any]] = []
    for name in layout:
        if name == "encode":
            parts.append(lambda state: np.asarray(state.encode(), dtype=np.float64).ravel())
        elif name == "features":
            parts.append(_features_part(game_module(game_id).features))
        elif name == "heuristic":
            parts.append(_heuristic_part(get_heuristic(game_id)))
        else:
            raise store.ModelError(f"mlp: unknown input part {name!r:.60}")

    def row(state: AnyState) -> Any:
        return np.concatenate([part(state) for part in parts])

    return row


def _features_part(features: Callable[[AnyState], Any]) -> Callable[[AnyState], Any]:
    """state -> the game's heuristic features as a float64 vector."""
    import numpy as np

    return lambda state: np.asarray(features(state), dtype=np.float64)


def _heuristic_part(heuristic: Callable[[AnyState], float]) -> Callable[[AnyState], Any]:
    """state -> a one-element vector: ``heuristic``'s value clipped to [-1, 1]."""
    import numpy as np

    return lambda state: np.array([max(-1.0, min(1.0, heuristic(state)))])


def _seed(*parts: object) -> int:
    text = ":".join(str(p) for p in ("parlor-mlp", *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")


# --------------------------------------------------------------------------- data


def _search_value(state: AnyState, depth: int, heuristic: Callable[[AnyState], float],
                  alpha: float = -2.0, beta: float = 2.0) -> float:
    """Negamax alpha-beta value of ``state`` for its side to move, on ``heuristic``.

    A finished game scores ±1 (0 for a draw); a depth-0 position its heuristic value
    times :data:`SCALE`.
    """
    moves = state.legal_moves()
    if not moves:
        outcome = state.outcome()
        return float(outcome.value_for(state.to_move)) if outcome is not None else 0.0
    if depth <= 0:
        return SCALE * max(-1.0, min(1.0, heuristic(state)))
    best = -2.0
    for move in moves:
        child = state.play(move)
        value = _search_value(child, depth - 1, heuristic, -beta, -alpha)
        if child.to_move != state.to_move:
            value = -value
        if value > best:
            best = value
            if best > alpha:
                alpha = best
                if alpha >= beta:
                    break
    return best


def _greedy_move(state: AnyState, moves: tuple[Any, ...], heuristic: Callable[[AnyState], float],
                 rng: random.Random) -> Any:
    """One ply on the heuristic: a winning move first, else the best child value."""
    best, choice = -3.0, []
    for move in moves:
        child = state.play(move)
        outcome = child.outcome()
        if outcome is not None:
            value = 2.0 * outcome.value_for(state.to_move)
        else:
            value = heuristic(child)
            if child.to_move != state.to_move:
                value = -value
        if value > best:
            best, choice = value, [move]
        elif value == best:
            choice.append(move)
    return rng.choice(choice)


def _self_play_chunk(game_id: str, seed: int, games: int, depth: int, mix: float,
                     eps: float, children: bool = False,
                     mixed: bool = False, child_depth: int | None = None,
                     layout: tuple[str, ...] = ("encode",),
                     teacher: dict[str, Any] | None = None) -> tuple[Any, Any]:
    """Positions (encoded, a float32 array; [] if none) and targets (a float64 array)
    from ``games`` noisy greedy self-play games: each target is ``mix`` times the game's
    outcome plus ``1 - mix`` times the position's search value (the search value alone
    for a game cut off at :data:`MAX_PLIES`). See :func:`_self_play_records`."""
    import numpy as np

    xs, values, outcomes = _self_play_records(game_id, seed, games, depth, eps, children,
                                              mixed, child_depth, layout, teacher)
    ys = [value if outcome is None else mix * outcome + (1.0 - mix) * value
          for value, outcome in zip(values, outcomes, strict=True)]
    return (np.asarray(xs, dtype=np.float32).reshape(len(xs), -1) if xs else [],
            np.asarray(ys, dtype=np.float64))


def _self_play_records(game_id: str, seed: int, games: int, depth: int, eps: float,
                       children: bool = False, mixed: bool = False,
                       child_depth: int | None = None,
                       layout: tuple[str, ...] = ("encode",),
                       teacher: dict[str, Any] | None = None
                       ) -> tuple[list[Any], list[float], list[float | None]]:
    """Input rows, search values and final outcomes (for the side to move; None for a
    game cut off at :data:`MAX_PLIES`) of the positions of ``games`` noisy self-play
    games.

    With ``children`` every child of a visited position is learned too (with its
    search value ``child_depth`` deep, by default one ply shallower), which is what the
    one-ply brain compares. With
    ``mixed`` one side (or both, every third game) plays the best move by those search
    values instead of greedy, so the data also holds the positions a stronger player
    reaches. With a ``teacher`` model the searches and the greedy moves use its network
    as the evaluation instead of the hand-written heuristic (the later rounds of
    ``rounds``: each net learns the search over the one before).
    """
    heuristic = (Network(teacher, "teacher").evaluator() if teacher is not None
                 else get_heuristic(game_id))
    row_of = input_builder(game_id, layout)
    rng = random.Random(seed)
    xs: list[Any] = []
    values: list[float] = []
    outcomes: list[float | None] = []
    game = get_game(game_id)
    memo: dict[Any, float] = {}  # search values of positions seen before in this chunk
    child_depth = max(depth - 1, 0) if child_depth is None else child_depth

    def value_of(pos: AnyState, d: int) -> float:
        key = (pos.key(), d)
        value = memo.get(key)
        if value is None:
            value = memo[key] = _search_value(pos, d, heuristic)
        return value

    for index in range(games):
        state = game.initial()
        seen: list[tuple[AnyState, float]] = []
        # which sides follow the search values (the others play greedy on the heuristic)
        searching = (True, True) if not mixed else ((True, False), (False, True),
                                                     (True, True))[index % 3]
        while (moves := state.legal_moves()) and state.ply < MAX_PLIES:
            seen.append((state, value_of(state, depth)))
            best, choice = -3.0, []
            if children or (mixed and searching[state.to_move]):
                for move in moves:
                    child = state.play(move)
                    outcome = child.outcome()
                    if outcome is None:
                        value = value_of(child, child_depth)
                        if children:
                            seen.append((child, value))
                        if child.to_move != state.to_move:
                            value = -value
                    else:
                        value = 2.0 * outcome.value_for(state.to_move)
                    if value > best:
                        best, choice = value, [move]
                    elif value == best:
                        choice.append(move)
            if rng.random() < eps:
                move = rng.choice(moves)
            elif mixed and searching[state.to_move]:
                move = rng.choice(choice)
            else:
                move = _greedy_move(state, moves, heuristic, rng)
            state = state.play(move)
        outcome = state.outcome()
        for pos, value in seen:
            xs.append(row_of(pos))
            values.append(value)
            outcomes.append(None if outcome is None else float(outcome.value_for(pos.to_move)))
    return xs, values, outcomes


def phase_of_rows(X: Any, phases: tuple[str, ...]) -> Any:
    """Index into ``phases`` for each encoded row (Morris: pieces in hand = placing)."""
    import numpy as np

    if len(phases) == 1:
        return np.zeros(len(X), dtype=np.int64)
    # Morris encode(): columns 32 and 33 are own and opponent pieces in hand / 5.
    return np.where(X[:, 32] + X[:, 33] > 0, 0, 1)


def train(game_id: str, *, games: int, seed: int, jobs: int = 1,
          progress: Callable[[int, int], None] | None = None,
          **overrides: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Self-play ``games`` games, then fit the value network(s); returns (model, meta).

    With ``rounds`` above 1 the recipe repeats: each later round plays ``games`` more
    games searching with the net fitted so far (see :func:`_self_play_records`), and
    the next net is fitted on the data of every round.

    ``overrides`` change :data:`CONFIG` entries (for experiments: ``hidden``, ``nets``,
    ``depth``, ``mix``, ``eps``, ``iters``, ``phases``, ``skip``, ``rounds``).
    """
    import numpy as np

    game_id = get_game(game_id).id
    if game_id not in GAMES:
        raise ParlorError(f"mlp: no network for game {game_id!r}")
    cfg = {**CONFIG[game_id], **overrides}
    started = time.monotonic()
    rounds = int(cfg.get("rounds", 1))
    teacher: dict[str, Any] | None = None
    inputs: list[Any] = []
    targets: list[Any] = []
    for round_ in range(rounds):
        X, y = _round_data(game_id, games, seed, cfg, jobs, round_, teacher,
                           progress if round_ == rounds - 1 else None)
        inputs.append(X)
        targets.append(y)
        X, y = np.vstack(inputs), np.concatenate(targets)
        if round_ < rounds - 1:
            teacher, _ = fit_model(game_id, X, y, cfg, seed)
    play_seconds = time.monotonic() - started

    model, losses = fit_model(game_id, X, y, cfg, seed)
    layout = tuple(cfg.get("inputs", ("encode",)))
    phases = model["phases"]
    state_cls = type(get_game(game_id).initial())
    meta = {"data": len(X), "encoding_version": state_cls.ENCODING_VERSION,
            "target": f"{cfg['mix']} * outcome + {1 - cfg['mix']} * alphabeta depth "
                      f"{cfg['depth']} on the default heuristic",
            "hidden": list(cfg["hidden"]), "nets": cfg["nets"], "phases": list(phases),
            "self_play_eps": cfg["eps"], "children": bool(cfg.get("children")),
            "mixed_policy": bool(cfg.get("mixed")),
            "child_depth": cfg.get("child_depth", max(cfg["depth"] - 1, 0)),
            "inputs": list(layout), "residual": float(cfg.get("residual", 0.0)),
            "skip": "skip" in model,
            "mse": losses,
            "self_play_seconds": round(play_seconds, 1),
            "fit_seconds": round(time.monotonic() - started - play_seconds, 1)}
    return model, meta


def _round_data(game_id: str, games: int, seed: int, cfg: dict[str, Any], jobs: int,
                round_: int, teacher: dict[str, Any] | None,
                progress: Callable[[int, int], None] | None) -> tuple[Any, Any]:
    """Inputs and targets of one round's self-play (round 0 on the heuristic, later
    rounds on ``teacher``, each from its own seeds)."""
    import numpy as np

    sizes = [min(CHUNK, games - i) for i in range(0, max(games, 1), CHUNK)]
    seeds = [_seed(seed, game_id, i) if round_ == 0 else _seed(seed, game_id, "round", round_, i)
             for i in range(len(sizes))]
    args = [(game_id, seeds[i], n, cfg["depth"], cfg["mix"], cfg["eps"],
             bool(cfg.get("children")), bool(cfg.get("mixed")), cfg.get("child_depth"),
             tuple(cfg.get("inputs", ("encode",))), teacher)
            for i, n in enumerate(sizes)]
    chunks: list[tuple[Any, Any]] = []
    if jobs > 1 or on_cluster():
        chunks = run_calls(_self_play_chunk, args, jobs)
        if progress:
            progress(games, games)
    else:
        done = 0
        for a in args:
            chunks.append(_self_play_chunk(*a))
            done += a[2]
            if progress:
                progress(done, games)
    X = np.concatenate([c[0] for c in chunks if len(c[0])]).astype(np.float64)
    y = np.concatenate([c[1] for c in chunks])
    return X, y


def fit_model(game_id: str, X: Any, y: Any, cfg: dict[str, Any],
              seed: int) -> tuple[dict[str, Any], dict[str, float]]:
    """Fit the value network(s) of recipe ``cfg`` to inputs ``X`` and targets ``y``;
    returns (model, mean squared error per phase)."""
    import warnings

    import numpy as np
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.neural_network import MLPRegressor
    from threadpoolctl import threadpool_limits

    layout = tuple(cfg.get("inputs", ("encode",)))
    residual = float(cfg.get("residual", 0.0))
    if residual and layout[-1] != "heuristic":
        raise ParlorError("mlp: a residual model needs the heuristic as its last input")
    base: Any = residual * X[:, -1] if residual else 0.0
    skip: tuple[list[float], float] | None = None
    if cfg.get("skip"):  # a linear fit of the target first; the nets learn what it misses
        coef = np.linalg.lstsq(np.column_stack([X, np.ones(len(X))]), y - base, rcond=None)[0]
        skip = ([float(c) for c in coef[:-1]], float(coef[-1]))
        base = base + X @ np.asarray(skip[0]) + skip[1]
    fitted = bool(residual) or skip is not None
    phases = ("placing", "moving") if cfg.get("phases") else ("all",)
    rows = phase_of_rows(X, phases)
    nets: dict[str, list[Any]] = {}
    losses: dict[str, float] = {}
    for p, phase in enumerate(phases):
        Xp, yp = X[rows == p], y[rows == p]
        bp = base[rows == p] if fitted else 0.0
        members = []
        for k in range(cfg["nets"]):
            rs = _seed(seed, game_id, phase, k) % (2**31)
            if cfg["nets"] > 1:  # ensemble members see bootstrap samples
                pick = np.random.default_rng(rs).integers(0, len(Xp), len(Xp))
                Xk, yk = Xp[pick], (yp - bp)[pick]
            else:
                Xk, yk = Xp, yp - bp
            net = MLPRegressor(hidden_layer_sizes=tuple(cfg["hidden"]), activation="relu",
                               alpha=cfg.get("alpha", 1e-4), batch_size=min(256, len(Xk)),
                               learning_rate_init=1e-3,
                               max_iter=cfg["iters"], random_state=rs, shuffle=True,
                               tol=1e-5, n_iter_no_change=10)
            with warnings.catch_warnings(), threadpool_limits(limits=1):
                # one BLAS thread: many times faster for these small nets on shared
                # cores, and the same bytes whatever the machine's thread count
                warnings.simplefilter("ignore", ConvergenceWarning)
                net.fit(Xk, yk)
            members.append(net)
        nets[phase] = members
        pred = np.mean([forward(_weights(n), Xp) for n in members], axis=0) + bp
        losses[phase] = round(float(np.mean((pred - yp) ** 2)), 5)
    state_cls = type(get_game(game_id).initial())
    model = {"kind": KIND, "game": game_id, "encoding_version": state_cls.ENCODING_VERSION,
             "inputs": int(X.shape[1]), "phases": list(phases), "nets": nets}
    if layout != ("encode",):  # older models (encode() only) keep their exact bytes
        model["layout"] = list(layout)
        model["residual"] = residual
    if skip is not None:
        model["skip"] = [skip[0], skip[1]]
    return model, losses


# --------------------------------------------------------------------------- inference


def _weights(net: Any) -> list[tuple[Any, Any]]:
    return list(zip(net.coefs_, net.intercepts_, strict=True))


def forward(layers: list[tuple[Any, Any]], X: Any) -> Any:
    """The network's outputs for the rows of ``X`` (relu hidden layers, identity output)."""
    import numpy as np

    h = X
    last = len(layers) - 1
    for i, (W, b) in enumerate(layers):
        h = h @ W + b
        if i < last:
            np.maximum(h, 0.0, out=h)
    return h[:, 0]


class Network:
    """A loaded model's weights as numpy arrays: ``values(X)`` for encoded rows."""

    def __init__(self, model: dict[str, Any], name: str = "") -> None:
        import numpy as np

        if not isinstance(model, dict) or model.get("kind") != KIND or "nets" not in model:
            raise store.ModelError(f"{name}: not an mlp model")
        self.game = model.get("game")
        self.inputs = int(model["inputs"])
        self.phases = tuple(model["phases"])
        self.encoding_version = model.get("encoding_version")
        self.layout = tuple(model.get("layout", ("encode",)))
        self.residual = float(model.get("residual", 0.0))
        self.skip: tuple[Any, float] | None = None
        """(coefficients, intercept) of the linear part added to the nets' output."""
        if model.get("skip") is not None:
            coef, intercept = model["skip"]
            self.skip = (np.asarray(coef, dtype=np.float64).reshape(-1), float(intercept))
            if self.skip[0].shape != (self.inputs,):
                raise store.ModelError(f"{name}: its linear part does not fit its inputs")
        self.row = input_builder(self.game, self.layout) if self.game else (
            lambda state: state.encode())
        """state -> the input row this model was trained on."""
        self.layers = [[[(np.asarray(W, dtype=np.float64), np.asarray(b, dtype=np.float64))
                         for W, b in _weights(net)] for net in model["nets"][phase]]
                       for phase in self.phases]

    def values(self, X: Any) -> Any:
        """Values in [-1, 1] for the side to move of each input row (see :attr:`row`)."""
        import numpy as np

        X = np.asarray(X, dtype=np.float64)
        if X.ndim == 1:
            X = X[None, :]
        if X.shape[1] != self.inputs:
            raise store.ModelError(f"mlp model for {self.game} expects {self.inputs} inputs, "
                                   f"the position encodes to {X.shape[1]} (other game options?)")
        if len(self.phases) == 1:
            out = self._ensemble(0, X)
            if self.residual:
                out = out + self.residual * X[:, -1]
            if self.skip is not None:
                out = out + (X @ self.skip[0] + self.skip[1])
        else:
            rows = phase_of_rows(X, self.phases)
            out = np.empty(len(X))
            for p in range(len(self.phases)):
                mask = rows == p
                if mask.any():
                    out[mask] = self._ensemble(p, X[mask])
            if self.residual:
                out += self.residual * X[:, -1]
            if self.skip is not None:
                out += X @ self.skip[0] + self.skip[1]
        return np.clip(out, -1.0, 1.0)

    def _ensemble(self, phase: int, X: Any) -> Any:
        members = self.layers[phase]
        out = forward(members[0], X)
        for layers in members[1:]:
            out = out + forward(layers, X)
        return out / len(members) if len(members) > 1 else out

    def value(self, state: AnyState) -> float:
        """The value of one position for its side to move."""
        return float(self.values(self.row(state))[0])

    def evaluator(self) -> Callable[[AnyState], float]:
        """state -> :meth:`value`, computed faster where the model allows.

        A single net with one hidden layer and no phases, on the game's heuristic
        features (optionally followed by its value), runs one row through numpy in four
        calls: the features with a constant 1 appended (the biases), times the first
        layer, relu, times the output weights. The linear part (``skip`` and the
        ``residual`` heuristic term) rides along as two more hidden units, ``+l`` and
        ``-l`` with output weights +1 and -1, since relu(l) - relu(-l) = l. Other models
        go through :meth:`value`.
        """
        import numpy as np

        if (len(self.phases) != 1 or len(self.layers[0]) != 1 or not self.game
                or len(self.layers[0][0]) != 2
                or self.layout not in (("features",), ("features", "heuristic"))):
            return self.value
        features = game_module(self.game).features
        part = _heuristic_part(get_heuristic(self.game)) if len(self.layout) == 2 else None
        (W1, b1), (W2, b2) = self.layers[0][0]
        width = self.inputs
        coef, intercept = self.skip if self.skip is not None else (np.zeros(width), 0.0)
        if part is not None and self.residual:
            coef = coef.copy()
            coef[-1] += self.residual
        linear = np.append(coef, intercept)
        first = np.ascontiguousarray(np.column_stack([np.vstack([W1, b1]), linear, -linear]))
        second = np.concatenate([W2[:, 0], [1.0, -1.0]])
        out_bias = float(b2[0])
        asarray, maximum, dot, f64 = np.asarray, np.maximum, np.dot, np.float64

        def fast_value(state: AnyState) -> float:
            feats = features(state)
            if part is not None:
                feats = [*feats, float(part(state)[0])]
            if len(feats) != width:
                raise store.ModelError(f"mlp model for {self.game} expects {width} inputs, "
                                       f"the position gives {len(feats)} (other game options?)")
            feats.append(1.0)
            h = dot(asarray(feats, dtype=f64), first)
            maximum(h, 0.0, out=h)
            out = float(dot(h, second)) + out_bias
            return -1.0 if out < -1.0 else 1.0 if out > 1.0 else out

        return fast_value


def _network(model: dict[str, Any]) -> Network:
    import numpy as np

    network = Network(model, store.model_filename(model.get("game", "?"), KIND))
    for phase in range(len(network.phases)):  # layers that do not fit fail here, not in play
        network._ensemble(phase, np.zeros((1, network.inputs)))
    return network


def load_network(game_id: str, path: str | None = None) -> Network:
    """The verified network for ``game_id``: the shipped one, or the file at ``path``
    (named ``<game>-mlp.joblib`` and listed in the manifest beside it); loaded and
    cached by :func:`brains.learned.store.load`."""
    network: Network = store.load(game_id, KIND, path, prepare=_network)[0]
    return network


def heuristic(game_id: str, path: str | None = None) -> Callable[[AnyState], float]:
    """The network as a search evaluation: state -> value in [-1, 1] for the side to move
    (the searches scale it inside the proven-result range, so it never outranks a win)."""
    value = load_network(game_id, path).evaluator()

    def mlp_value(state: AnyState) -> float:
        return value(state)

    mlp_value.__name__ = f"mlp_{game_id}"
    return mlp_value


# --------------------------------------------------------------------------- the brain


class MLPBrain(Brain):
    """One ply on an MLP value network trained by self-play."""

    name = "mlp"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (MODEL,)

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        self.net = load_network(game, options.get("model"))

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """Each legal move's value: ±1 for a finished game, else the network's value of
        the child for the mover, times 0.9."""
        import numpy as np

        scores: dict[Any, float] = {}
        pending: list[tuple[Any, bool]] = []
        rows = []
        for move in state.legal_moves():
            child = state.play(move)
            outcome = child.outcome()
            if outcome is not None:
                scores[move] = float(outcome.value_for(state.to_move))
            else:
                pending.append((move, child.to_move != state.to_move))
                rows.append(self.net.row(child))
        if rows:
            values = self.net.values(np.stack(rows))
            for (move, flip), v in zip(pending, values, strict=True):
                scores[move] = SCALE * float(-v if flip else v)
        return scores

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """One thought: the best-valued move, ties broken from the seed."""
        scores = self.analyse(state, budget)
        if not scores:
            return
        best = max(scores.values())
        move = self.rng.choice([m for m in state.legal_moves() if scores[m] == best])
        yield Thought(move, best, 1, len(scores), (move,), final=True)
