"""Unspaced transcripts (docs/RULES.md, Notation and records: Reversi `f5d6c3d3c4`,
Connect Four `4453`)."""

from __future__ import annotations

import pytest

from engine import InvalidMoveError, new_game
from engine.formats import parse_records


@pytest.mark.parametrize("game, transcript, spaced", [
    ("reversi", "f5d6c3d3c4", "f5 d6 c3 d3 c4"),
    ("reversi", "F5D6", "f5 d6"),
    ("connect4", "4453", "4 4 5 3"),
])
def test_transcript_equals_spaced_moves(game, transcript, spaced):
    start = new_game(game)
    assert start.play_line(transcript).key() == start.play_line(spaced).key()


def test_games_without_transcripts_keep_tokens_whole():
    with pytest.raises(InvalidMoveError, match="'b2a1'"):
        new_game("tictactoe").play_line("b2a1")


def test_records_accept_transcripts_and_write_spaced_moves():
    (rec,) = parse_records('[Game "connect4"]\n\n4453 *\n')
    assert rec.moves == ["4", "4", "5", "3"]
    assert "1. 4 4 2. 5 3 *" in rec.to_text()
