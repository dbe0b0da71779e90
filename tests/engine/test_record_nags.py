"""Annotation glyphs (NAGs) in records: read glued or as tokens, kept, and written back."""

from __future__ import annotations

import pytest

from engine.formats import parse_records
from engine.protocol import RecordError

TEXT = """[Game "tictactoe"]
[Result "1-0"]

1. b1 b2 2. c3?! {[%eval 0.10]} a3 $2 3. c1 a2?? {[%eval #1]} 4. a1 1-0
"""


def test_nags_glued_and_separate_are_read_and_kept():
    rec = parse_records(TEXT)[0]
    assert rec.moves == ["b1", "b2", "c3", "a3", "c1", "a2", "a1"]
    assert rec.nags == {3: ["?!"], 4: ["$2"], 6: ["??"]}
    assert rec.comments == {3: "[%eval 0.10]", 6: "[%eval #1]"}


def test_nags_survive_a_round_trip():
    rec = parse_records(TEXT)[0]
    text = rec.to_text()
    assert "c3?!" in text and "a2??" in text and " $2" in text
    again = parse_records(text)[0]
    assert (again.moves, again.nags, again.comments, again.result) == (
        rec.moves, rec.nags, rec.comments, rec.result)


def test_transcript_with_a_glued_glyph():
    rec = parse_records('[Game "connect4"]\n\n44?! 3\n')[0]
    assert rec.moves == ["4", "4", "3"] and rec.nags == {2: ["?!"]}


@pytest.mark.parametrize("movetext", ["?? 1. b1", "1. b1 $256", "1. b1 b2???"])
def test_misplaced_or_bad_glyphs_are_one_clear_error(movetext):
    with pytest.raises(RecordError, match="line 3"):
        parse_records(f'[Game "tictactoe"]\n\n{movetext}\n', source="x.pgn")
