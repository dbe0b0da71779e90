"""The pattern evaluation of 8x8 Reversi in numpy: the patterns and their symmetric
images, the features of positions (vectorised over arrays of bitboards), the reference
evaluation, WTHOR positions and their labels, and the Ridge fit of every phase
(docs/LEARNING.md, "Reversi pattern evaluation"). The ``patterns`` brain and its
training command are in :mod:`brains.learned.patterns`; the compiled evaluation and
search in :mod:`brains.kernels.reversi` (named by :mod:`brains.kernels.reversi_mid`).
"""

from __future__ import annotations

import glob
import os
import struct
from collections.abc import Callable
from typing import Any

import numpy as np

from engine.protocol import ParlorError

KIND = "patterns"
GAME = "reversi"
N = 8
PHASES = 12
PHASE_WIDTH = 5
"""Phase of a position: (discs on the board - 4) // PHASE_WIDTH, at most PHASES - 1."""
UNIT = 64
"""Evaluation units per disc."""
EXACT_EMPTIES = 12
"""Training positions with at most this many empties are labelled by the exact solver."""
ALPHA = 3.0
"""Ridge's regularisation (on sums of squared disc differences)."""
MAX_ROWS = 250_000
"""Positions fitted per phase at most (a seeded subsample beyond)."""
EXACT_MAX = 30_000
"""Positions labelled by the exact solver at most (a seeded sample of the late ones)."""
MIN_EXACT = 1000
"""A phase whose positions all have at most EXACT_EMPTIES empties is fitted on its
exactly labelled positions only, when it has at least this many."""

PATTERNS: dict[str, tuple[str, ...]] = {
    "edge_x": ("b2", "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "g2"),
    "corner_2x5": ("a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2"),
    "corner_3x3": ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"),
    "line_2": ("a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2"),
    "line_3": ("a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3"),
    "line_4": ("a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4"),
    "diag_8": ("a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"),
    "diag_7": ("b1", "c2", "d3", "e4", "f5", "g6", "h7"),
    "diag_6": ("c1", "d2", "e3", "f4", "g5", "h6"),
    "diag_5": ("d1", "e2", "f3", "g4", "h5"),
    "diag_4": ("e1", "f2", "g3", "h4"),
}
"""Each pattern's squares in reading order (its first square is the lowest base-3 digit)."""
NUMERIC = ("mobility", "opponent_mobility", "potential_mobility",
           "opponent_potential_mobility", "odd_empties")
"""The evaluation's other terms: legal moves of each side, empty squares next to the
other side's discs (each side's), and 1 when the number of empties is odd."""
MAX_LEN = max(len(p) for p in PATTERNS.values())


def square(name: str) -> int:
    """``a1`` -> 0 (square ``row * 8 + column``, rows from 1, as the engine numbers)."""
    return (int(name[1]) - 1) * N + "abcdefgh".index(name[0])


def symmetry(s: int, k: int) -> int:
    """The image of square ``s`` under the ``k``-th of the eight board symmetries."""
    r, c = divmod(s, N)
    if k & 4:
        r, c = c, r
    if k & 1:
        c = N - 1 - c
    if k & 2:
        r = N - 1 - r
    return r * N + c


def instances() -> tuple[list[tuple[int, ...]], list[int], list[int]]:
    """(squares of every pattern image, the pattern number of each, each pattern's first
    weight column): the images of each pattern under the eight symmetries, an image
    read in the same order as another counted once."""
    images: list[tuple[int, ...]] = []
    owner: list[int] = []
    offsets: list[int] = []
    column = 0
    for p, squares in enumerate(PATTERNS.values()):
        offsets.append(column)
        column += 3 ** len(squares)
        seen: set[tuple[int, ...]] = set()
        for k in range(8):
            image = tuple(symmetry(square(q), k) for q in squares)
            if image not in seen:
                seen.add(image)
                images.append(image)
                owner.append(p)
    return images, owner, offsets


IMAGES, OWNER, OFFSETS = instances()
COLUMNS = OFFSETS[-1] + 3 ** len(list(PATTERNS.values())[-1])
"""Pattern weight columns per phase."""


def phase_of(discs: Any) -> Any:
    """The phase of positions with ``discs`` discs on the board (an int or an array)."""
    return np.minimum((np.asarray(discs) - 4) // PHASE_WIDTH, PHASES - 1)


def image_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(squares, lengths, column offsets) of the images as arrays: ``squares`` is padded
    with -1 to :data:`MAX_LEN` columns."""
    squares = np.full((len(IMAGES), MAX_LEN), -1, dtype=np.int64)
    for i, image in enumerate(IMAGES):
        squares[i, :len(image)] = image
    lengths = np.array([len(i) for i in IMAGES], dtype=np.int64)
    offsets = np.array([OFFSETS[p] for p in OWNER], dtype=np.int64)
    return squares, lengths, offsets


# -- bitboards in numpy (vectorised over positions) ---------------------------------------
_U = np.uint64
_NOT_A = _U(0xFEFEFEFEFEFEFEFE)
"""Every square but file a (the target of a shift towards higher files)."""
_NOT_H = _U(0x7F7F7F7F7F7F7F7F)
_SHIFTS = ((1, _NOT_A, _NOT_H), (8, _U(0xFFFFFFFFFFFFFFFF), _U(0xFFFFFFFFFFFFFFFF)),
           (9, _NOT_A, _NOT_H), (7, _NOT_H, _NOT_A))
"""(shift, mask after a shift up, mask after a shift down) of the four line directions:
a shift up by 1, 9 moves a square one file right (so never onto file a); by 7, one file
left."""


def mobility(me: np.ndarray, them: np.ndarray) -> np.ndarray:
    """The legal squares of the owner of ``me`` (uint64 arrays)."""
    empty = ~(me | them)
    out = np.zeros_like(me)
    for d, up_mask, down_mask in _SHIFTS:
        s = _U(d)
        t = (me << s) & up_mask & them
        for _ in range(5):
            t |= (t << s) & up_mask & them
        out |= (t << s) & up_mask & empty
        t = (me >> s) & down_mask & them
        for _ in range(5):
            t |= (t >> s) & down_mask & them
        out |= (t >> s) & down_mask & empty
    return out


def neighbours(x: np.ndarray) -> np.ndarray:
    """Squares next to a square of ``x``."""
    out = np.zeros_like(x)
    for d, up_mask, down_mask in _SHIFTS:
        s = _U(d)
        out |= ((x << s) & up_mask) | ((x >> s) & down_mask)
    return out


def popcount(x: np.ndarray) -> np.ndarray:
    """Set bits of each element (int64)."""
    counts: np.ndarray = np.bitwise_count(x).astype(np.int64)
    return counts


def numeric_features(me: np.ndarray, them: np.ndarray) -> np.ndarray:
    """The :data:`NUMERIC` terms of each position (an int64 array of shape (n, 5))."""
    empty = ~(me | them)
    return np.stack([popcount(mobility(me, them)), popcount(mobility(them, me)),
                     popcount(neighbours(them) & empty), popcount(neighbours(me) & empty),
                     popcount(empty) & 1], axis=1)


def configurations(me: np.ndarray, them: np.ndarray) -> np.ndarray:
    """The weight column of every image in every position, shape (n, images)."""
    bits = np.arange(64, dtype=np.uint64)
    cells = (((me[:, None] >> bits) & _U(1)) + 2 * ((them[:, None] >> bits) & _U(1))
             ).astype(np.int64)
    out = np.empty((len(me), len(IMAGES)), dtype=np.int64)
    for i, image in enumerate(IMAGES):
        powers = 3 ** np.arange(len(image), dtype=np.int64)
        out[:, i] = OFFSETS[OWNER[i]] + cells[:, list(image)] @ powers
    return out


def evaluate_many(tables: dict[str, Any], me: np.ndarray, them: np.ndarray) -> np.ndarray:
    """The evaluation (int64, in 1/UNIT discs for the side to move) of positions given
    as uint64 arrays, by the playable ``tables`` (:func:`playable`). The reference the
    compiled evaluation is tested against."""
    me = np.asarray(me, dtype=np.uint64)
    them = np.asarray(them, dtype=np.uint64)
    ph = phase_of(popcount(me | them))
    cols = configurations(me, them)
    weights = tables["weights"]
    value = tables["bias"][ph] + weights[ph[:, None], cols].sum(axis=1)
    value += (tables["numeric"][ph] * numeric_features(me, them)).sum(axis=1)
    clipped: np.ndarray = np.clip(value, 1 - 64 * UNIT, 64 * UNIT - 1)
    return clipped


def evaluate(tables: dict[str, Any], me: int, them: int) -> int:
    """:func:`evaluate_many` of one position, in plain Python integers (the reference
    the tests' minimax uses)."""
    from engine.games.reversi import geometry

    geo = geometry(N)
    discs = (me | them).bit_count()
    ph = min(max((discs - 4) // PHASE_WIDTH, 0), PHASES - 1)
    row = tables["weights"][ph]
    value = int(tables["bias"][ph])
    for squares, offset in _SCALAR:
        index = 0
        for sq in squares:
            index = index * 3 + (me >> sq & 1) + 2 * (them >> sq & 1)
        value += int(row[offset + index])
    empty = ~(me | them) & geo.full
    near_them = int(neighbours(np.array([them], dtype=np.uint64))[0])
    near_me = int(neighbours(np.array([me], dtype=np.uint64))[0])
    terms = (geo.mobility(me, them).bit_count(), geo.mobility(them, me).bit_count(),
             (near_them & empty).bit_count(), (near_me & empty).bit_count(),
             empty.bit_count() & 1)
    value += sum(int(w) * t for w, t in zip(tables["numeric"][ph], terms, strict=True))
    return max(1 - 64 * UNIT, min(64 * UNIT - 1, value))


_SCALAR = [(tuple(reversed(image)), OFFSETS[OWNER[i]]) for i, image in enumerate(IMAGES)]
"""Each image's squares from the highest base-3 digit down, and its column offset."""


# -- the model ----------------------------------------------------------------------------
def playable(model: dict[str, Any]) -> dict[str, Any]:
    """The arrays the search reads, checked against this module's patterns: weights
    (phases x columns, int32), numeric weights (phases x 5, int32), bias (phases,
    int64), and the image tables."""
    weights = np.asarray(model["weights"])
    numeric = np.asarray(model["numeric"])
    bias = np.asarray(model["bias"])
    if (weights.shape != (PHASES, COLUMNS) or numeric.shape != (PHASES, len(NUMERIC))
            or bias.shape != (PHASES,) or tuple(model.get("patterns", ())) != tuple(PATTERNS)):
        raise ParlorError("its pattern tables do not fit this version's patterns "
                          f"({PHASES} phases, {COLUMNS} columns)")
    squares, lengths, offsets = image_tables()
    return {"weights": weights.astype(np.int32), "numeric": numeric.astype(np.int32),
            "bias": bias.astype(np.int64), "squares": squares, "lengths": lengths,
            "offsets": offsets}


# -- data ---------------------------------------------------------------------------------
_HEADER = struct.Struct("<BBBBIHHBBBB")
_RECORD = struct.Struct("<HHHBB60s")
_START_BLACK = (1 << square("d5")) | (1 << square("e4"))
_START_WHITE = (1 << square("d4")) | (1 << square("e5"))


def wthor_games(folder: str, limit: int | None = None) -> list[tuple[bytes, int]]:
    """(move bytes, Black's final disc count) of the games in the ``*.wtb`` files of
    ``folder`` (sorted by name; 8x8 files only), at most ``limit`` of them."""
    from engine.formats import wthor

    games: list[tuple[bytes, int]] = []
    paths = sorted(glob.glob(os.path.join(glob.escape(folder), "*.wtb"))
                   + glob.glob(os.path.join(glob.escape(folder), "*.WTB")))
    if not paths:
        raise ParlorError(f"{folder}: no WTHOR game files (*.wtb) there")
    for path in paths:
        with open(path, "rb") as f:
            data = f.read(64 << 20)
        if not wthor.sniff(data):
            continue
        if _HEADER.unpack_from(data)[7] not in (0, 8):
            continue
        for i in range((len(data) - _HEADER.size) // _RECORD.size):
            _, _, _, black, _, moves = _RECORD.unpack_from(data, _HEADER.size + i * _RECORD.size)
            games.append((moves, black))
            if limit is not None and len(games) >= limit:
                return games
    return games


def replay(moves: bytes, black_final: int) -> tuple[list[int], list[int], list[int]] | None:
    """(mover's discs, opponent's discs, final disc difference for the mover) of every
    position of a WTHOR game before each move; None for a game that does not replay
    (an illegal move) or does not end with its recorded count."""
    from engine.games.reversi import geometry

    geo = geometry(N)
    me, them, black = _START_BLACK, _START_WHITE, True
    ps: list[int] = []
    os_: list[int] = []
    sides: list[bool] = []
    for byte in moves:
        if byte == 0:
            break
        row, col = divmod(byte, 10)
        if not (1 <= row <= 8 and 1 <= col <= 8):
            return None
        sq = (row - 1) * N + col - 1
        if not geo.mobility(me, them) >> sq & 1:
            if geo.mobility(me, them):
                return None
            me, them, black = them, me, not black  # a pass
            if not geo.mobility(me, them) >> sq & 1:
                return None
        ps.append(me)
        os_.append(them)
        sides.append(black)
        f = geo.flips(me, them, sq)
        me, them, black = them ^ f, me | f | 1 << sq, not black
    b, w = (me, them) if black else (them, me)
    nb, nw = b.bit_count(), w.bit_count()
    if geo.mobility(me, them) or geo.mobility(them, me):
        # unfinished (a resignation or a time loss): trust the recorded count
        diff = 2 * black_final - 64
    else:
        empties = 64 - nb - nw
        diff = nb - nw + (empties if nb > nw else -empties if nw > nb else 0)
        if nb + (empties if nb > nw else 0) != black_final and diff != 2 * black_final - 64:
            return None
    return ps, os_, [diff if s else -diff for s in sides]


def positions(folder: str, limit: int | None = None, progress: Callable[[int, int], None]
              | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """(mover's discs, opponent's discs, label, games used) of every position of the
    WTHOR games in ``folder``; the label is the game's final disc difference for the
    mover."""
    games = wthor_games(folder, limit)
    me: list[int] = []
    them: list[int] = []
    label: list[int] = []
    used = 0
    for i, (moves, black) in enumerate(games):
        got = replay(moves, black)
        if got is not None:
            used += 1
            me += got[0]
            them += got[1]
            label += got[2]
        if progress is not None and i % 1000 == 999:
            progress(i + 1, len(games))
    return (np.array(me, dtype=np.uint64), np.array(them, dtype=np.uint64),
            np.array(label, dtype=np.float64), used)


def state_of(me: int, them: int) -> Any:
    """The standard 8x8 Reversi state with the owner of ``me`` (as Black) to move."""
    from engine.registry import get_game

    rows = ["".join("X" if me >> (r * N + c) & 1 else "O" if them >> (r * N + c) & 1
                    else "." for c in range(N)) for r in range(N)]
    setup: Any = get_game(GAME).setup  # type: ignore[attr-defined]
    return setup("\n".join(rows), 0)


def exact_labels(me: np.ndarray, them: np.ndarray, label: np.ndarray,
                 solve: Callable[..., Any], seed: int = 0, empties: int = EXACT_EMPTIES,
                 most: int = EXACT_MAX) -> np.ndarray:
    """Label, in place, a seeded sample of at most ``most`` of the positions with at most
    ``empties`` empty squares with their exact value (``solve``, the endgame solver's
    :func:`brains.reversi_endgame.solve`: its final disc difference for the mover,
    empties to the winner); the mask of the positions so labelled. The solver is passed
    in because it imports this module (its move ordering reads the pattern tables)."""
    exact = np.zeros(len(me), dtype=bool)
    late = np.nonzero(popcount(me | them) >= 64 - empties)[0]
    if len(late) > most:
        late = np.sort(np.random.default_rng(seed).choice(late, most, replace=False))
    for i in late:
        result = solve(state_of(int(me[i]), int(them[i])), empties_to_winner=True)
        if result.score is not None:
            label[i] = result.score
            exact[i] = True
    return exact



def load_tables(option: str | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """(playable tables, manifest entry) of the shipped model or the ``model`` option
    (through the safe model store), for the ``patterns`` brain and the endgame solver's
    move ordering."""
    from brains.learned import store

    tables, entry = store.load(GAME, KIND, option, prepare=playable)
    return tables, entry

# -- fitting ------------------------------------------------------------------------------
def design(me: np.ndarray, them: np.ndarray) -> Any:
    """The sparse design matrix: one column per pattern configuration (the count of
    images in it), then the :data:`NUMERIC` terms."""
    from scipy import sparse  # type: ignore[import-untyped]

    cols = configurations(me, them)
    rows = np.repeat(np.arange(len(me)), cols.shape[1])
    onehot = sparse.csr_matrix((np.ones(cols.size, dtype=np.float64), (rows, cols.ravel())),
                               shape=(len(me), COLUMNS))
    onehot.sum_duplicates()
    numeric = sparse.csr_matrix(numeric_features(me, them).astype(np.float64))
    return sparse.hstack([onehot, numeric], format="csr")


def _subsample(rows: np.ndarray, exact: np.ndarray | None, most: int,
               rng: np.random.Generator) -> np.ndarray:
    """A seeded sample of ``most`` of ``rows`` keeping every exactly labelled one (a
    sample of those when they alone are more)."""
    if exact is None or not exact[rows].any():
        return np.sort(rng.choice(rows, most, replace=False))
    sure = rows[exact[rows]]
    if len(sure) >= most:
        return np.sort(rng.choice(sure, most, replace=False))
    others = rows[~exact[rows]]
    return np.sort(np.concatenate([sure, rng.choice(others, most - len(sure), replace=False)]))


def fit(me: np.ndarray, them: np.ndarray, label: np.ndarray, seed: int = 0,
        alpha: float = ALPHA, max_rows: int = MAX_ROWS, exact: np.ndarray | None = None,
        phases: tuple[int, ...] | None = None,
        progress: Callable[[int, int], None] | None = None) -> tuple[dict[str, Any],
                                                                      dict[str, Any]]:
    """Fit every phase (Ridge on :func:`design`, scikit-learn's lsqr solver); (model,
    meta). ``exact`` marks the positions labelled by the exact solver (see
    :data:`MIN_EXACT`; a phase subsampled to ``max_rows`` keeps them all). ``phases``:
    fit only these (the others' weights stay 0)."""
    from sklearn.linear_model import Ridge

    rng = np.random.default_rng(seed)
    ph = phase_of(popcount(me | them))
    weights = np.zeros((PHASES, COLUMNS), dtype=np.int16)
    numeric = np.zeros((PHASES, len(NUMERIC)), dtype=np.int32)
    bias = np.zeros(PHASES, dtype=np.int32)
    meta: dict[str, Any] = {"rows": [], "rmse": []}
    for p in range(PHASES):
        rows = (np.nonzero(ph == p)[0] if phases is None or p in phases
                else np.zeros(0, dtype=np.int64))
        late = 4 + p * PHASE_WIDTH >= 64 - EXACT_EMPTIES
        if exact is not None and late and int(exact[rows].sum()) >= MIN_EXACT:
            rows = rows[exact[rows]]
        if len(rows) > max_rows:
            rows = _subsample(rows, exact, max_rows, rng)
        if len(rows) == 0:
            meta["rows"].append(0)
            meta["rmse"].append(None)
            continue
        x = design(me[rows], them[rows])
        y = label[rows]
        model = Ridge(alpha=alpha, solver="lsqr", tol=1e-4, fit_intercept=True,
                      random_state=seed)
        model.fit(x, y)
        coef = model.coef_
        weights[p] = np.clip(np.rint(coef[:COLUMNS] * UNIT), -32767, 32767).astype(np.int16)
        numeric[p] = np.rint(coef[COLUMNS:] * UNIT).astype(np.int32)
        bias[p] = int(np.rint(model.intercept_ * UNIT))
        rmse = float(np.sqrt(np.mean((model.predict(x) - y) ** 2)))
        meta["rows"].append(len(rows))
        meta["rmse"].append(round(rmse, 3))
        if progress is not None:
            progress(p + 1, PHASES)
    model_dict = {"kind": KIND, "game": GAME, "patterns": tuple(PATTERNS),
                  "numeric_names": NUMERIC, "phases": PHASES, "phase_width": PHASE_WIDTH,
                  "unit": UNIT, "weights": weights, "numeric": numeric, "bias": bias}
    return model_dict, meta


