"""Learn from your mistakes: an analysed game's ``??`` moves become puzzles when the
solver knows the saving move."""

from __future__ import annotations

from brains import puzzles
from brains.analysis import analyse_game, annotate, read_annotations
from engine.formats import load_records
from engine.record import GameRecord, save_records


def _analysed(tmp_path, moves: list[str], result: str = "*") -> GameRecord:
    """A tic-tac-toe game analysed, annotated, written and read back as a file."""
    record = GameRecord("tictactoe", moves=moves, result=result,
                        termination="normal" if result != "*" else None,
                        tags={"First": "Ann", "Second": "Bob"})
    done = annotate(record, analyse_game(record, seconds=10))
    path = save_records(tmp_path / "analysed.pgn", done)
    (back,) = load_records(path)
    return back


def test_each_blunder_with_a_saving_move_is_a_puzzle(tmp_path) -> None:
    # X takes the centre; Bob answers on an edge (b1), which loses: a blunder.
    record = _analysed(tmp_path, ["b2", "b1", "a1", "c3", "a3", "a2", "c1"], "1-0")
    blunders = [a.index for a in read_annotations(record) if a.mark == "??"]
    assert 2 in blunders
    states = record.states()
    found = puzzles.from_record(record, seconds=10)
    assert found
    by_position = {p.position: p for p in found}
    for index in blunders:
        before = states[index - 1]
        puzzle = by_position.get(before.to_position())
        assert puzzle is not None, index
        played = record.moves[index - 1]
        assert not puzzle.is_right(played)
        assert puzzle.refutation(played) is not None
        assert "your game" in puzzle.source and f"move {index}" in puzzle.source
        assert puzzles.prove(puzzle) is None  # every accepted move keeps the outcome
    bob = by_position[states[1].to_position()]
    assert bob.goal == "draw" and set(bob.accepted) == {"a1", "c1", "a3", "c3"}
    assert bob.prompt() == "O to play and keep the draw"


def test_a_game_without_blunders_gives_none(tmp_path) -> None:
    record = _analysed(tmp_path, ["b2", "a1", "c3", "a3", "a2"])
    assert not any(a.mark == "??" for a in read_annotations(record))
    assert puzzles.from_record(record) == []


def test_a_game_without_a_solver_gives_none() -> None:
    assert puzzles.from_record(GameRecord("gomoku", moves=["h8"])) == []
