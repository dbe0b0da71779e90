"""The solved Five Men's Morris database: its file, reading it, and playing from it.

The file (``morris-db.bin``) is a 4096-byte header followed by one byte per position,
in the order of :mod:`brains.morrisdb.index`. The header is the line
``PARLOR-MORRIS-DB`` and a JSON object (format, rules, pieces, positions, the class
table), padded with spaces. A byte is 0 for a draw, else the distance to the end in
plies plus one: the side to move wins when that distance is odd and loses when it is
even (a loss in 0 plies is a position already lost).

Beside it, ``morris-db.json`` (the manifest) records the file's size and sha256, how it
was built and what was found. Opening checks the manifest, the size, the sha256 and the
header against the rules compiled into this module, then maps the bytes read-only with
numpy; nothing in either file is unpickled or executed, and every byte value is a valid
value, so a file changed after the checks gives wrong values, not errors. (Like any
mapped file, one cut short in place while mapped would stop the process; the build
replaces the file by a rename, which leaves an open copy whole.)
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from brains.morrisdb import index, solve
from engine.files import write_atomic
from engine.games.morris import ADJACENT, MILLS, PIECES, MorrisState
from engine.protocol import ParlorError
from saved import MODELS_DIR

FORMAT = 1
"""Version of the file layout."""
RULES = "morris/1"
"""Version of the rules the values are for; raise it when the engine's rules change."""
MAGIC = b"PARLOR-MORRIS-DB\n"
HEADER_BYTES = 4096
DB_FILE = "morris-db.bin"
MAX_MANIFEST_BYTES = 1 << 20
DEFAULT_DIR = MODELS_DIR  # package data of saved/, read through importlib.resources
"""Where the shipped database lives (see :func:`default_path`)."""

Move = tuple[int | None, int, int | None]


class MorrisDBError(ParlorError):
    """A database that cannot be used: missing, damaged, or for other rules."""


def _quote(text: Any) -> str:
    """``text`` as a repr of at most about 60 characters, on one line."""
    shown = repr(text)
    return shown if len(shown) <= 60 else shown[:57] + "..."


def rules_digest(pieces: int = PIECES) -> str:
    """A short hash of the rule tables the solution depends on (lines, mills, pieces)."""
    text = json.dumps({"adjacent": ADJACENT, "mills": MILLS, "pieces": pieces})
    return hashlib.sha256(text.encode()).hexdigest()[:16]


_PATH_OVERRIDE: Path | None = None


def default_path() -> Path:
    """The database file used when none is named: ``saved/models/morris-db.bin``,
    unless :func:`set_default_path` chose another."""
    return _PATH_OVERRIDE if _PATH_OVERRIDE is not None else DEFAULT_DIR / DB_FILE


def set_default_path(path: Path | str | None) -> None:
    """Use ``path`` as the default database file (None restores the shipped one)."""
    global _PATH_OVERRIDE
    _PATH_OVERRIDE = None if path is None else Path(path)


def manifest_path(path: Path | str) -> Path:
    """The manifest that goes with the database file ``path``."""
    path = Path(path)
    return path.with_name(path.stem + ".json")


# -- values ---------------------------------------------------------------------------
class Value(NamedTuple):
    """A position's exact value for its side to move: ``result`` is ``'win'``,
    ``'loss'`` or ``'draw'``; ``plies`` the distance to the end (None for a draw)."""

    result: str
    plies: int | None

    def __str__(self) -> str:
        return "draw" if self.plies is None else f"{self.result} in {self.plies}"

    def after_move(self) -> Value:
        """This value of a child, seen from the position before the move."""
        if self.plies is None:
            return self
        return Value("win" if self.result == "loss" else "loss", self.plies + 1)

    @property
    def rank(self) -> tuple[int, int]:
        """Sort key, bigger is better for the side to move: faster wins, slower losses."""
        if self.plies is None:
            return (1, 0)
        return (2, -self.plies) if self.result == "win" else (0, self.plies)


def value_of_code(code: int) -> Value:
    """The :class:`Value` stored as byte ``code``."""
    if code == 0:
        return Value("draw", None)
    plies = code - 1
    return Value("win" if plies % 2 else "loss", plies)


def codes_of_scores(scores: np.ndarray) -> np.ndarray:
    """Solver scores as stored bytes (0 draw, else distance + 1)."""
    mag = np.abs(scores.astype(np.int32))
    codes = np.where(mag > 0, solve.WIN - mag + 1, 0)
    if codes.max(initial=0) > 255:
        raise MorrisDBError(f"morris database: a distance of {codes.max() - 1} plies "
                            "does not fit in a byte")
    return codes.astype(np.uint8)


def scores_of_codes(codes: np.ndarray) -> np.ndarray:
    """Stored bytes as solver scores."""
    plies = codes.astype(np.int32) - 1
    mag = solve.WIN - plies
    return np.where(codes == 0, 0, np.where(plies % 2 == 1, mag, -mag)).astype(np.int16)


# -- building -------------------------------------------------------------------------
def build(out_path: Path | str, progress: solve.Progress | None = None,
          pieces: int = PIECES, count_reachable: bool = True,
          command: str = "") -> dict[str, Any]:
    """Solve Morris with ``pieces`` pieces a side and write the database to
    ``out_path`` with its manifest beside it (each written whole, then renamed into
    place). Returns the figures recorded in the manifest."""
    out = Path(out_path)
    started = time.monotonic()
    lay = index.layout(pieces)
    scores, figures = solve.solve(lay, progress)
    codes = codes_of_scores(scores)
    solve_seconds = time.monotonic() - started
    start_cls = lay.find(pieces, pieces, 0, 0)
    assert start_cls is not None
    stats: dict[str, Any] = {
        "positions": lay.size,
        "start": str(value_of_code(int(codes[start_cls.offset]))),
        "longest_win": _longest(codes, 1),
        "longest_loss": _longest(codes, 0),
        "solve_seconds": round(solve_seconds, 1),
        "retrograde_steps": figures["retrograde_steps"],
        "phases": _phase_counts(lay, codes, None),
    }
    if count_reachable:
        seen = solve.reachable(lay, progress)
        stats["reachable"] = int(seen.sum())
        stats["reachable_phases"] = _phase_counts(lay, codes, seen)
    header = {"format": FORMAT, "rules": RULES, "rules_digest": rules_digest(pieces),
              "pieces": pieces, "positions": lay.size, "dtype": "uint8",
              "classes": [[c.ho, c.hp, c.a, c.b, c.offset, c.size] for c in lay.classes]}
    head = MAGIC + json.dumps(header, separators=(",", ":")).encode()
    if len(head) >= HEADER_BYTES:
        raise MorrisDBError("morris database: header does not fit")
    head += b" " * (HEADER_BYTES - 1 - len(head)) + b"\n"
    digest = hashlib.sha256(head)
    digest.update(codes.tobytes())
    manifest = {"format": FORMAT, "file": out.name, "bytes": HEADER_BYTES + lay.size,
                "sha256": digest.hexdigest(), "rules": RULES,
                "rules_digest": rules_digest(pieces), "pieces": pieces,
                "command": command, "stats": stats}
    out.parent.mkdir(parents=True, exist_ok=True)
    _write_atomic(out, [head, codes.tobytes()])
    _write_atomic(manifest_path(out), [json.dumps(manifest, indent=2).encode() + b"\n"])
    return manifest


def _longest(codes: np.ndarray, parity: int) -> int | None:
    """The longest distance among wins (parity 1) or losses (parity 0)."""
    plies = codes.astype(np.int32) - 1
    chosen = plies[(codes > 0) & (plies % 2 == parity)]
    return int(chosen.max()) if len(chosen) else None


def _phase_counts(lay: index.Layout, codes: np.ndarray,
                  mask: np.ndarray | None) -> dict[str, dict[str, int]]:
    """Wins, draws and losses (for the side to move) per phase, of all positions or of
    those ``mask`` selects."""
    out: dict[str, dict[str, int]] = {}
    for cls in lay.classes:
        part = codes[cls.offset:cls.offset + cls.size]
        if mask is not None:
            part = part[mask[cls.offset:cls.offset + cls.size]]
        plies = part.astype(np.int32) - 1
        row = out.setdefault(cls.phase, {"positions": 0, "wins": 0, "draws": 0, "losses": 0})
        row["positions"] += len(part)
        row["draws"] += int(np.count_nonzero(part == 0))
        row["wins"] += int(np.count_nonzero((part > 0) & (plies % 2 == 1)))
        row["losses"] += int(np.count_nonzero((part > 0) & (plies % 2 == 0)))
    return out


def _write_atomic(path: Path, parts: list[bytes]) -> None:
    """Write ``parts`` to a temporary file beside ``path`` and rename it into place (a
    shipped file: readable by every user, not mkstemp's 0600)."""
    write_atomic(path, b"".join(parts), mode=0o644)


# -- opening --------------------------------------------------------------------------
def _open_regular(path: Path) -> Any:
    """``path`` opened for reading; MorrisDBError unless it is a regular file.

    O_NONBLOCK: opening a FIFO does not wait for a writer; fstat then refuses it.
    FileNotFoundError passes through (callers say how to get the file back).
    """
    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
             | getattr(os, "O_CLOEXEC", 0))
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise MorrisDBError(f"morris database: {path.name} is not a regular file")
    except BaseException:
        os.close(fd)
        raise
    handle = os.fdopen(fd, "rb")
    return handle


def _read_manifest(path: Path) -> dict[str, Any]:
    where = manifest_path(path)
    try:
        with _open_regular(where) as handle:
            raw = handle.read(MAX_MANIFEST_BYTES + 1)
    except FileNotFoundError:
        raise MorrisDBError(f"morris database: no manifest {where.name}; build it with "
                            "`python -m brains.morrisdb build`") from None
    except OSError as exc:
        raise MorrisDBError(f"morris database manifest {where.name}: {exc.strerror}") from None
    if len(raw) > MAX_MANIFEST_BYTES:
        raise MorrisDBError(f"morris database manifest {where.name} is too large")
    try:
        manifest = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise MorrisDBError(f"morris database manifest {where.name} is not JSON: "
                            f"{_quote(raw[:60])}") from None
    if not isinstance(manifest, dict):
        raise MorrisDBError(f"morris database manifest {where.name} is not an object")
    return manifest


def _expect(manifest: dict[str, Any], key: str, wanted: Any, where: str) -> None:
    got = manifest.get(key)
    if got != wanted or type(got) is not type(wanted):
        raise MorrisDBError(f"morris database {where}: {key} is {_quote(got)}, expected "
                            f"{_quote(wanted)}; rebuild it")


def open_db(path: Path | str | None = None, check_hash: bool = True) -> MorrisDB:
    """The database at ``path`` (default :func:`default_path`), checked and mapped
    read-only. Raises :class:`MorrisDBError` with one line saying what is wrong."""
    path = Path(path) if path is not None else default_path()
    manifest = _read_manifest(path)
    _expect(manifest, "format", FORMAT, manifest_path(path).name)
    _expect(manifest, "rules", RULES, manifest_path(path).name)
    pieces = manifest.get("pieces")
    if type(pieces) is not int or not 3 <= pieces <= PIECES:
        raise MorrisDBError(f"morris database {manifest_path(path).name}: pieces is "
                            f"{_quote(pieces)}, expected 3..{PIECES}")
    _expect(manifest, "rules_digest", rules_digest(pieces), manifest_path(path).name)
    lay = index.layout(pieces)
    size = HEADER_BYTES + lay.size
    _expect(manifest, "bytes", size, manifest_path(path).name)
    sha = manifest.get("sha256")
    if not isinstance(sha, str) or len(sha) != 64:
        raise MorrisDBError(f"morris database {manifest_path(path).name}: no sha256")
    try:
        with _open_regular(path) as handle:
            size_now = os.fstat(handle.fileno()).st_size
            if size_now != size:
                raise MorrisDBError(f"morris database {path.name} has {size_now} bytes, "
                                    f"expected {size}: damaged or cut short; rebuild it")
            head = handle.read(HEADER_BYTES)
            if check_hash:
                digest = hashlib.sha256(head)
                while chunk := handle.read(1 << 20):
                    digest.update(chunk)
                if digest.hexdigest() != sha:
                    raise MorrisDBError(f"morris database {path.name}: sha256 mismatch "
                                        "(damaged or modified); rebuild it")
            header = _parse_header(head, path.name)
            expected = {"format": FORMAT, "rules": RULES, "rules_digest": rules_digest(pieces),
                        "pieces": pieces, "positions": lay.size, "dtype": "uint8",
                        "classes": [[c.ho, c.hp, c.a, c.b, c.offset, c.size]
                                    for c in lay.classes]}
            for key, wanted in expected.items():
                _expect(header, key, wanted, f"{path.name} header")
            # the file already open and checked is the one mapped, not whatever the
            # path names by now
            codes = np.memmap(handle, dtype=np.uint8, mode="r", offset=HEADER_BYTES,
                              shape=(lay.size,))
    except FileNotFoundError:
        raise MorrisDBError(f"morris database {path.name} is missing; build it with "
                            "`python -m brains.morrisdb build`") from None
    except OSError as exc:
        raise MorrisDBError(f"morris database {path.name}: {exc.strerror}") from None
    return MorrisDB(path, lay, codes, manifest)


def _parse_header(head: bytes, name: str) -> dict[str, Any]:
    if not head.startswith(MAGIC):
        raise MorrisDBError(f"morris database {name} is not a Parlor Morris database: "
                            f"starts {_quote(head[:20])}")
    try:
        header = json.loads(head[len(MAGIC):].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise MorrisDBError(f"morris database {name}: header is not JSON") from None
    if not isinstance(header, dict):
        raise MorrisDBError(f"morris database {name}: header is not an object")
    return header


# -- the database ----------------------------------------------------------------------
@dataclass
class MorrisDB:
    """An opened database: exact values of Morris positions without the draw rules."""

    path: Path
    layout: index.Layout
    codes: np.ndarray
    manifest: dict[str, Any]

    def code(self, state: MorrisState) -> int:
        """The stored byte for ``state`` (see :func:`value_of_code`)."""
        me = state.to_move
        own, opp = state.pieces(me), state.pieces(me ^ 1)
        ho, hp = state.in_hand(me), state.in_hand(me ^ 1)
        if own.bit_count() + ho < 3:
            return 1  # already lost: a loss in 0
        cls = self.layout.find(ho, hp, own.bit_count(), opp.bit_count())
        if cls is None:
            raise MorrisDBError(f"morris database: no position with {ho} and {hp} in hand "
                                f"and {own.bit_count()} against {opp.bit_count()} on the "
                                "board occurs in a game")
        return int(self.codes[cls.offset + index.local_index_of(cls, own, opp)])

    def value(self, state: MorrisState) -> Value:
        """The exact value of ``state`` for its side to move, ignoring the 100-ply and
        repetition draws (docs/RULES.md, Morris)."""
        return value_of_code(self.code(state))

    def move_values(self, state: MorrisState) -> dict[Move, Value]:
        """The exact value of every legal move of ``state``, for the side that makes it."""
        return {m: self.value(state.play(m)).after_move() for m in state.legal_moves()}

    def traps(self, state: MorrisState) -> int:
        """How many of the side to move's legal moves lose (a trap its opponent set)."""
        return sum(v.result == "loss" for v in self.move_values(state).values())

    def best_moves(self, state: MorrisState) -> list[Move]:
        """The moves of perfect play: fastest win, slowest loss, and among drawing moves
        those that leave the opponent the most losing replies."""
        values = self.move_values(state)
        if not values:
            return []
        top = max(v.rank for v in values.values())
        best = [m for m, v in values.items() if v.rank == top]
        if len(best) > 1 and top == (1, 0):
            traps = {m: self.traps(state.play(m)) for m in best}
            most = max(traps.values())
            best = [m for m in best if traps[m] == most]
        return best

    def perfect_move(self, state: MorrisState, rng: random.Random | None = None) -> Move:
        """One of :meth:`best_moves`, at random among equals."""
        best = self.best_moves(state)
        if not best:
            raise MorrisDBError("morris database: the game is over; there is no move")
        return (rng or random).choice(best)

    def verify(self, progress: solve.Progress | None = None) -> int:
        """How many positions disagree with the best of their children (0 if sound)."""
        return solve.check(self.layout, scores_of_codes(np.asarray(self.codes)), progress)


_OPENED: dict[tuple[str, int, int], MorrisDB] = {}


def shared(path: Path | str | None = None) -> MorrisDB:
    """The database at ``path`` (default :func:`default_path`), opened once per file
    version and shared."""
    path = Path(path) if path is not None else default_path()
    try:
        info = os.stat(path)
        key = (os.path.realpath(path), info.st_mtime_ns, info.st_size)
    except OSError:
        key = (str(path), -1, -1)
    db = _OPENED.get(key)
    if db is None:
        db = _OPENED[key] = open_db(path)
    return db


def perfect_move(state: MorrisState, rng: random.Random | None = None,
                 db: MorrisDB | None = None) -> Move:
    """Perfect play from the database: fastest win, slowest loss, and among drawing
    moves the one that sets the most traps (random among equals)."""
    return (db or shared()).perfect_move(state, rng)



def state_at(lay: index.Layout, number: int) -> MorrisState:
    """The engine position numbered ``number`` in ``lay`` (White to move when the hands
    are equal, as in every game)."""
    cls = next(c for c in reversed(lay.classes) if c.offset <= number)
    own, opp = (int(x[0]) for x in lay.boards(cls, np.array([number - cls.offset])))
    to_move = 0 if cls.ho == cls.hp else 1
    white, black = (own, opp) if to_move == 0 else (opp, own)
    board = "".join("W" if white >> p & 1 else "B" if black >> p & 1 else "."
                    for p in range(index.POINTS))
    hands = (cls.ho, cls.hp) if to_move == 0 else (cls.hp, cls.ho)
    return MorrisState.from_board(board, to_move, hands)


def sample_check(db: MorrisDB, count: int, seed: int = 0) -> list[str]:
    """Check ``count`` positions drawn at random against the engine: each one's value
    must be the best of the values its legal moves (made by the engine) lead to.
    Returns a line for each disagreement (none when the database is sound)."""
    rng = random.Random(seed)
    bad: list[str] = []
    for _ in range(count):
        state = state_at(db.layout, rng.randrange(db.layout.size))
        values = db.move_values(state)
        best = max((v for v in values.values()), key=lambda v: v.rank,
                   default=Value("loss", 0))
        if db.value(state) != best:
            bad.append(f"{state.board_string()} {state.to_move} "
                       f"{state.in_hand(0)}/{state.in_hand(1)}: stored {db.value(state)}, "
                       f"moves give {best}")
    return bad
