"""The ``table`` brain: learned value dictionaries, for tic-tac-toe and Morris.

**What is learned.** The value of a board right after a move, from the view of the
player who made it ("the mover"): the key is the board with the mover's pieces first
(and, in Morris, both hands), so one table serves both colours. After each simulated
game every board in it is scored backwards from its mover's result — win 100, draw 50,
loss 0 — multiplied by γ = 0.9 per earlier move of that player (the mover's last board
gets the result itself, the one before 0.9 × it, …), and averaged into the table as
[mean, count]. Morris keeps one dictionary per phase: ``placing`` (a piece in either
hand), ``moving`` (nobody flying), ``agent_flying`` (the mover has three pieces),
``player_flying`` (the opponent has three), ``both_flying``.

**Training** (``train``) takes minutes: the games are split into thirds — random vs
random; the table vs random; the table exploring 20 % of its moves vs random — and each
later third runs in rounds that play from the table as it stood after the previous
round. Both sides' boards are learned from in every game.
Rare Morris boards are pruned (``min_count``) to keep the file a few MB.

**Move choice**: for each legal move, the value of the resulting board plus two
bonuses — +200 for a move that closes a mill (tic-tac-toe: completes a line) and +100
for one that blocks an opponent's two-in-a-line (tic-tac-toe: the same). A finished
game scores its result exactly (100 / 50 / 0). A board the table has never seen scores
the mean value of its phase's table (a neutral prior: 0 would read an unknown board as
a certain loss). Ties are broken from the brain's seed. Thoughts note how many of the
candidate boards the table knew.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from brains.heuristics.morris import move_bonus
from brains.learned import store, tabular
from brains.options import MODEL, BrainOption
from brains.protocol import Brain, Budget, Thought
from engine.games.morris import MorrisState
from engine.games.tictactoe import LINE_MASKS, TicTacToeState
from engine.protocol import AnyState, ParlorError

KIND = "table"
GAMES: tuple[str, ...] = ("tictactoe", "morris")
DEFAULTS: dict[str, dict[str, Any]] = {
    "tictactoe": {"games": 30000},
    "morris": {"games": 60000},
}
"""The training arguments ``make models`` uses."""

GAMMA = 0.9
WIN, DRAW, LOSS = 100.0, 50.0, 0.0
MILL_BONUS = 200.0
BLOCK_BONUS = 100.0
EXPLORE = 0.2
"""Share of the learner's moves played at random in the last third of training."""
ROUNDS = 3
"""Rounds in each of the two table-guided thirds (the table is refreshed between them)."""
MIN_COUNT: dict[str, int] = {"tictactoe": 1, "morris": 2}
"""Boards seen fewer times than this are pruned from the shipped table."""
MAX_ENTRIES = 400_000
"""More entries than this raise the pruning threshold until they fit."""

PHASES: dict[str, tuple[str, ...]] = {
    "tictactoe": ("board",),
    "morris": ("placing", "moving", "agent_flying", "player_flying", "both_flying"),
}


# --------------------------------------------------------------------------- per game


def _ttt_key(child: AnyState) -> int:
    """The board after a move, mover's marks in bits 0-8 and the opponent's in 9-17."""
    assert isinstance(child, TicTacToeState)
    if child.to_move:  # X just moved
        return child.x | child.o << 9
    return child.o | child.x << 9


def _ttt_phase(key: int) -> str:
    return "board"


def _ttt_bonus(state: AnyState, move: int) -> float:
    assert isinstance(state, TicTacToeState)
    own, opp = (state.o, state.x) if state.to_move else (state.x, state.o)
    bit = 1 << move
    wins = any((own | bit) & m == m for m in LINE_MASKS)
    blocks = any((opp & m).bit_count() == 2 and m & bit for m in LINE_MASKS)
    return (MILL_BONUS if wins else 0.0) + (BLOCK_BONUS if blocks else 0.0)


def _morris_key(child: AnyState) -> int:
    """The board after a move from the mover's view: mover's points (bits 0-15), the
    opponent's (16-31), the mover's hand (32-34) and the opponent's (35-37)."""
    assert isinstance(child, MorrisState)
    mover, other = 1 - child.to_move, child.to_move
    return (child.pieces(mover) | child.pieces(other) << 16
            | child.in_hand(mover) << 32 | child.in_hand(other) << 35)


def _morris_phase(key: int) -> str:
    if key >> 32:
        return "placing"
    mover = (key & 0xFFFF).bit_count() <= 3
    other = (key >> 16 & 0xFFFF).bit_count() <= 3
    if mover and other:
        return "both_flying"
    if mover:
        return "agent_flying"
    if other:
        return "player_flying"
    return "moving"


_KEY: dict[str, Callable[[AnyState], int]] = {"tictactoe": _ttt_key, "morris": _morris_key}
_PHASE: dict[str, Callable[[int], str]] = {"tictactoe": _ttt_phase, "morris": _morris_phase}
_BONUS: dict[str, Callable[[AnyState, Any], float]] = {"tictactoe": _ttt_bonus,
                                                    "morris": move_bonus}


def _result_value(child: AnyState, mover: int) -> float | None:
    """100 / 50 / 0 for the mover if ``child`` ends the game, else None."""
    outcome = child.outcome()
    if outcome is None:
        return None
    winner = outcome.winner
    return DRAW if winner is None else WIN if winner == mover else LOSS


# --------------------------------------------------------------------------- scoring


def score_moves(game: str, state: AnyState, values: dict[int, float],
                priors: dict[str, float]) -> tuple[dict[Any, float], dict[Any, float], int]:
    """(score per move, board value per move, how many boards the table knew)."""
    key_of, phase_of, bonus_of = _KEY[game], _PHASE[game], _BONUS[game]
    mover = state.to_move
    scores: dict[Any, float] = {}
    board: dict[Any, float] = {}
    known = 0
    for move in state.legal_moves():
        child = state.play(move)
        value = _result_value(child, mover)
        if value is None:
            key = key_of(child)
            value = values.get(key)
            if value is None:
                value = priors.get(phase_of(key), 0.0)
            else:
                known += 1
        else:
            known += 1
        board[move] = value
        scores[move] = value + bonus_of(state, move)
    return scores, board, known


def _pick(scores: dict[Any, float], rng: random.Random) -> Any:
    best = max(scores.values())
    return rng.choice([m for m, s in scores.items() if s == best])


# --------------------------------------------------------------------------- training


def _priors(game: str, values: dict[int, float]) -> dict[str, float]:
    """Mean value of each phase's entries (the score of an unseen board)."""
    phase_of = _PHASE[game]
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for key, value in values.items():
        phase = phase_of(key)
        sums[phase] = sums.get(phase, 0.0) + value
        counts[phase] = counts.get(phase, 0) + 1
    return {p: sums[p] / counts[p] for p in sorted(sums)}


def _play_chunk(game: str, games: int, seed: int, mode: str,
                packed: dict[str, Any] | None) -> dict[int, list[float]]:
    """Play ``games`` seeded games and return ``key -> [sum of grades, count]``.

    ``mode``: ``random`` (both sides random), ``smart`` (the table against random) or
    ``explore`` (the table playing 20 % of its moves at random, against random).
    """
    from engine.registry import new_game

    rng = random.Random(seed)
    values = tabular.unpack(packed) if packed is not None else {}
    priors = _priors(game, values)
    key_of = _KEY[game]
    acc: dict[int, list[float]] = {}
    start = new_game(game)
    for index in range(games):
        learner = -1 if mode == "random" else (index + seed) & 1
        state = start
        boards: tuple[list[int], list[int]] = ([], [])
        while True:
            moves = state.legal_moves()
            if not moves:
                break
            mover = state.to_move
            if mover != learner or (mode == "explore" and rng.random() < EXPLORE):
                move = moves[rng.randrange(len(moves))]
            else:
                move = _pick(score_moves(game, state, values, priors)[0], rng)
            state = state.play(move)
            boards[mover].append(key_of(state))
        outcome = state.outcome()
        winner = outcome.winner if outcome is not None else None
        for player in (0, 1):
            grade = DRAW if winner is None else WIN if winner == player else LOSS
            for key in reversed(boards[player]):
                slot = acc.get(key)
                if slot is None:
                    acc[key] = [grade, 1]
                else:
                    slot[0] += grade
                    slot[1] += 1
                grade *= GAMMA
    return acc


def _schedule(games: int) -> list[tuple[str, int]]:
    """(mode, games) per round: a third random, then ROUNDS of smart and of explore."""
    third = games // 3
    out = [("random", games - 2 * third)]
    for mode in ("smart", "explore"):
        base, extra = divmod(third, ROUNDS)
        out += [(mode, base + (1 if r < extra else 0)) for r in range(ROUNDS)]
    return [(mode, n) for mode, n in out if n > 0]


def train(game_id: str, *, games: int, seed: int, jobs: int = 1,
          progress: Callable[[int, int], None] | None = None,
          min_count: int | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Learn the value tables from ``games`` simulated games; (model, meta)."""
    if game_id not in GAMES:
        raise ParlorError(f"table does not play {game_id}")
    sums: dict[int, list[float]] = {}
    done = 0
    packed: dict[str, Any] | None = None
    for round_no, (mode, n) in enumerate(_schedule(games)):
        calls = [(game_id, size, tabular.chunk_seed(seed, round_no, i), mode, packed)
                 for i, size in enumerate(tabular.split(n))]
        for acc in tabular.run_chunks(_play_chunk, calls, jobs):
            for key, (total, count) in acc.items():
                slot = sums.get(key)
                if slot is None:
                    sums[key] = [total, count]
                else:
                    slot[0] += total
                    slot[1] += count
        done += n
        packed = tabular.pack({k: (t / c, c) for k, (t, c) in sums.items()}, columns=2)
        if progress is not None:
            progress(done, games)
    threshold = MIN_COUNT[game_id] if min_count is None else min_count
    while sum(1 for _, c in sums.values() if c >= threshold) > MAX_ENTRIES:
        threshold += 1
    phase_of = _PHASE[game_id]
    tables: dict[str, dict[int, tuple[float, float]]] = {p: {} for p in PHASES[game_id]}
    for key, (total, count) in sums.items():
        if count >= threshold:
            tables[phase_of(key)][key] = (total / count, count)
    model = {
        "kind": KIND, "game": game_id, "format": 1, "gamma": GAMMA,
        "tables": {p: tabular.pack(t, columns=2) for p, t in tables.items()},
    }
    meta = {
        "data": sum(len(t) for t in tables.values()),
        "boards_seen": len(sums),
        "min_count": threshold,
        "entries": {p: len(t) for p, t in tables.items()},
    }
    return model, meta


# --------------------------------------------------------------------------- the brain


def _playable(model: dict[str, Any]) -> tuple[dict[int, float], dict[str, float]]:
    """The lookup dict and the phase priors of a loaded model (store.load caches them)."""
    values: dict[int, float] = {}
    for packed in model["tables"].values():
        values.update(tabular.unpack(packed))
    return values, _priors(model["game"], values)


class TableBrain(Brain):
    """Learned board values plus mill and block bonuses."""

    name = "table"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (MODEL,)

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        (self.values, self.priors), self.entry = store.load(
            game, KIND, options.get("model"), prepare=_playable)
        self.known = 0
        self.candidates = 0

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """Each legal move's score: board value (0-100) + bonuses (up to 300)."""
        return score_moves(self.game, state, self.values, self.priors)[0]

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """One thought: the best-scoring move, ties broken from the seed."""
        scores, board, known = score_moves(self.game, state, self.values, self.priors)
        if not scores:
            return
        self.known += known
        self.candidates += len(scores)
        move = _pick(scores, self.rng)
        score = max(-1.0, min(1.0, board[move] / 50.0 - 1.0))
        note = f"table knew {known}/{len(scores)} boards"
        yield Thought(move, score, 1, len(scores), (move,), final=True, note=note)
