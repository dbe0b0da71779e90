"""The ``qlearn`` brain: tabular Q-learning, for Connect Four and tic-tac-toe.

**The recipe**: Q(s, a) starts at 0 and is updated by
``Q ← Q + α (r + γ max_a' Q(s', a') − Q)`` with α = 0.5, γ = 0.5, ε = 0.5 (ε-greedy
exploration) and a reward of +1000 for a win, −1000 for a loss and 0 otherwise (a draw
included). Here ``s`` is a position from the view of the side to move (so one table
serves both colours) and ``s'`` is the same player's next position, after the
opponent's reply; a move that wins, or a reply that wins for the opponent, ends the
transition with +1000 / −1000 and nothing to bootstrap from. (Looking ``s'`` up
before the opponent's reply would read it from the wrong side's view.)

**Training** is offline (``parlor train``, so the first move of a game waits for
nothing): self-play in which both sides play ε-greedily from the table. Games are played in
rounds; within a round seeded chunks of games are played (in parallel with ``jobs``)
from the table as it stood at the start of the round, and then their transitions are
applied in chunk order, each game backwards from its end so a result reaches the
opening in one pass. The same seed gives the same table whatever ``jobs`` is.

**Move choice**: the table decides when it holds a non-zero value for a legal move here:
the move with the highest Q (unseen moves count 0). Otherwise — and
among moves the table values equally — a documented fallback chooses: a move that wins
at once, else one that blocks the opponent's immediate win, else the most central
column (Connect Four) or cell (tic-tac-toe: centre, corners, edges), ties broken from
the seed. Each thought's note says which decided. In Connect Four most positions in
play are not in the table, so the fallback plays most middle-game moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any, ClassVar

from brains.learned import store, tabular
from brains.options import MODEL, BrainOption
from brains.protocol import Brain, Budget, Thought
from engine.games.connect4 import ConnectFourState, bit, has_four
from engine.games.tictactoe import LINE_MASKS, TicTacToeState
from engine.protocol import AnyState, ParlorError

KIND = "qlearn"
GAMES: tuple[str, ...] = ("tictactoe", "connect4")
DEFAULTS: dict[str, dict[str, Any]] = {
    "tictactoe": {"games": 40000},
    "connect4": {"games": 100000},
}
"""The training arguments ``make models`` uses."""

ALPHA = 0.5
GAMMA = 0.5
EPSILON = 0.5
REWARD = 1000.0
CHUNK_GAMES = 2000
"""Games per chunk (fixed, so chunking does not depend on ``jobs``)."""
ROUND_GAMES: dict[str, int] = {"tictactoe": 4000, "connect4": 20000}
"""Games per round: the behaviour policy uses the table as it stood at the round's start."""
MIN_ABS_Q = 1.0
"""Entries whose |Q| is below this are pruned from the shipped Connect Four table."""
_FLOOR: dict[str, float] = {"connect4": MIN_ABS_Q}
"""The |Q| below which a game's entries are pruned (0: none are)."""

_SHIFT = {"tictactoe": 4, "connect4": 3}
"""Bits for the action in a Q key: ``state_key << shift | action``."""
_CENTRE = {
    "tictactoe": (1, 2, 1, 2, 0, 2, 1, 2, 1),
    "connect4": (3, 2, 1, 0, 1, 2, 3),
}
"""Fallback preference rank of each move (lower is better)."""


# --------------------------------------------------------------------------- per game


def _ttt_key(state: AnyState) -> int:
    assert isinstance(state, TicTacToeState)
    own, opp = (state.o, state.x) if state.to_move else (state.x, state.o)
    return own | opp << 9


def _c4_key(state: AnyState) -> int:
    assert isinstance(state, ConnectFourState)
    return state.cur + state.mask


_KEY: dict[str, Callable[[AnyState], int]] = {"tictactoe": _ttt_key, "connect4": _c4_key}


def _wins(state: AnyState, move: Any) -> bool:
    """True if ``move`` ends the game with a win for the side to move."""
    child = state.play(move)
    outcome = child.outcome()
    return outcome is not None and outcome.winner == state.to_move


def _opponent_wins_at(state: AnyState) -> set[Any]:
    """The moves with which the opponent would win at once if it were their turn."""
    if isinstance(state, TicTacToeState):
        opp = state.o if state.to_move == 0 else state.x
        return {c for c in state.legal_moves()
                if any((opp | 1 << c) & m == m for m in LINE_MASKS)}
    # Connect Four: the opponent's discs plus the one that would land in each column.
    assert isinstance(state, ConnectFourState)
    opp = state.discs(1 - state.to_move)
    return {c for c in state.legal_moves() if has_four(opp | bit(c, state.height(c)))}


def fallback(state: AnyState, moves: list[Any], rng: random.Random) -> tuple[Any, str]:
    """Win at once, else block the opponent's win, else the most central move."""
    wins = [m for m in moves if _wins(state, m)]
    if wins:
        return rng.choice(wins), "win"
    threats = _opponent_wins_at(state)
    blocks = [m for m in moves if m in threats]
    if blocks:
        return rng.choice(blocks), "block"
    rank = _CENTRE[state.GAME]
    best = min(rank[m] for m in moves)
    return rng.choice([m for m in moves if rank[m] == best]), "centre"


def q_values(state: AnyState, q: dict[int, float]) -> dict[Any, float]:
    """The table's Q of each legal move (0 where unseen)."""
    base = _KEY[state.GAME](state) << _SHIFT[state.GAME]
    return {m: q.get(base | m, 0.0) for m in state.legal_moves()}


def choose(state: AnyState, q: dict[int, float],
           rng: random.Random) -> tuple[Any, str, dict[Any, float]]:
    """(move, who decided: ``table`` or the fallback's reason, Q per legal move)."""
    values = q_values(state, q)
    moves = list(values)
    if any(values.values()):
        best = max(values.values())
        top = [m for m in moves if values[m] == best]
        if len(top) == 1:
            return top[0], "table", values
        move, _ = fallback(state, top, rng)
        return move, "table", values
    move, reason = fallback(state, moves, rng)
    return move, reason, values


# --------------------------------------------------------------------------- training


def _play_chunk(game: str, games: int, seed: int,
                table: Any) -> list[tuple[list[int], list[int], int | None]]:
    """Self-play ``games`` seeded ε-greedy games; each as (Q keys, legal masks, winner).

    ``table`` is the Q dict, or ``("packed", arrays)`` when sent to a worker process.
    """
    from engine.registry import new_game

    q = tabular.unpack(table[1]) if isinstance(table, tuple) else table
    rng = random.Random(seed)
    key_of, shift = _KEY[game], _SHIFT[game]
    start = new_game(game)
    out: list[tuple[list[int], list[int], int | None]] = []
    for _ in range(games):
        state = start
        keys: list[int] = []
        legal: list[int] = []
        while True:
            moves = state.legal_moves()
            if not moves:
                break
            if rng.random() < EPSILON:
                move = moves[rng.randrange(len(moves))]
            else:
                move = choose(state, q, rng)[0]
            keys.append(key_of(state) << shift | move)
            legal.append(sum(1 << m for m in moves))
            state = state.play(move)
        outcome = state.outcome()
        out.append((keys, legal, outcome.winner if outcome is not None else None))
    return out


def _learn(q: dict[int, float], visits: dict[int, int], game: str,
           episode: tuple[list[int], list[int], int | None]) -> None:
    """Apply one game's transitions to ``q``, each player's moves from the last back."""
    keys, legal, winner = episode
    shift = _SHIFT[game]
    n = len(keys)
    for player in (0, 1):
        plies = range(player, n, 2)
        result = 0.0 if winner is None else REWARD if winner == player else -REWARD
        nxt: int | None = None  # ply index of this player's next move
        for t in reversed(plies):
            k = keys[t]
            if nxt is None:
                target = result
            else:
                base = keys[nxt] >> shift << shift
                mask = legal[nxt]
                best = max(q.get(base | m, 0.0) for m in range(mask.bit_length())
                           if mask >> m & 1)
                target = GAMMA * best
            old = q.get(k, 0.0)
            q[k] = old + ALPHA * (target - old)
            visits[k] = visits.get(k, 0) + 1
            nxt = t


def train(game_id: str, *, games: int, seed: int, jobs: int = 1,
          progress: Callable[[int, int], None] | None = None,
          ) -> tuple[dict[str, Any], dict[str, Any]]:
    """Q-learn from ``games`` self-play games; (model, meta)."""
    if game_id not in GAMES:
        raise ParlorError(f"qlearn does not play {game_id}")
    q: dict[int, float] = {}
    visits: dict[int, int] = {}
    done = 0
    round_no = 0
    transitions = 0
    while done < games:
        n = min(ROUND_GAMES[game_id], games - done)
        # workers get exact (float64) values, so jobs does not change any choice
        table = q if jobs <= 1 else ("packed", tabular.pack(q, dtype="float64"))
        calls = [(game_id, size, tabular.chunk_seed(seed, "q", round_no, i), table)
                 for i, size in enumerate(tabular.split(n, CHUNK_GAMES))]
        for episodes in tabular.run_chunks(_play_chunk, calls, jobs):
            for episode in episodes:
                _learn(q, visits, game_id, episode)
                transitions += len(episode[0])
        done += n
        round_no += 1
        if progress is not None:
            progress(done, games)
    floor = _FLOOR.get(game_id, 0.0)
    kept = {k: v for k, v in q.items() if v and abs(v) >= floor}
    states = {k >> _SHIFT[game_id] for k in kept}
    model = {"kind": KIND, "game": game_id, "format": 1, "alpha": ALPHA, "gamma": GAMMA,
             "epsilon": EPSILON, "reward": REWARD, "shift": _SHIFT[game_id],
             "q": tabular.pack(kept)}
    meta = {"data": len(kept), "q_entries_learned": len(q), "states": len(states),
            "transitions": transitions}
    return model, meta


# --------------------------------------------------------------------------- the brain


def _playable(model: dict[str, Any]) -> dict[int, float]:
    """The Q lookup dict of a loaded model (store.load caches it)."""
    return tabular.unpack(model["q"])


class QLearnBrain(Brain):
    """Tabular Q-learning; win / block / centre where the table is silent."""

    name = "qlearn"
    OPTIONS: ClassVar[tuple[BrainOption, ...]] = (MODEL,)

    def __init__(self, game: str, *, seed: int | None = None, spec: str = "", **options: Any):
        super().__init__(game, seed=seed, spec=spec, **options)
        self.q, self.entry = store.load(game, KIND, options.get("model"), prepare=_playable)
        self.decided: dict[str, int] = {}

    def analyse(self, state: AnyState, budget: Budget | None = None) -> dict[Any, float]:
        """The table's Q value of each legal move (0 where unseen)."""
        return q_values(state, self.q)

    def think(self, state: AnyState, budget: Budget) -> Iterator[Thought]:
        """One thought: the table's best move, else the fallback's."""
        if not state.legal_moves():
            return
        move, reason, values = choose(state, self.q, self.rng)
        self.decided[reason] = self.decided.get(reason, 0) + 1
        score = max(-1.0, min(1.0, values[move] / REWARD))
        note = "Q-table" if reason == "table" else f"not in the Q-table: {reason}"
        yield Thought(move, score, 1, len(values), (move,), final=True, note=note)
