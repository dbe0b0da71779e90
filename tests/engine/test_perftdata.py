"""engine.perftdata reads every shipped perft file, and refuses a malformed one with one
line naming the file and line, quoting at most 60 characters."""

from __future__ import annotations

import pytest

from engine.perftdata import QUOTE, read_perft_file
from engine.registry import GAMES
from tests.conftest import DATA


def test_every_game_has_a_perft_file_with_its_start_position():
    for game in GAMES:
        cases = read_perft_file(DATA / "perft" / f"{game}.perft")
        assert any(c.game == game and not c.moves and not c.options for c in cases), game
        assert all(c.game == game and c.counts for c in cases)


GOOD = "id x\ngame tictactoe\nperft 1 9\n"


@pytest.mark.parametrize("text, why", [
    ("game tictactoe\nperft 1 9\n", "before an id line"),
    ("id x\ngame tictactoe\nperft one 9\n", "whole numbers"),
    ("id x\ngame tictactoe\nperft 1\n", "whole numbers"),
    ("id x\ngame tictactoe\nperft 0 1\n", "positive"),
    ("id x\ngame tictactoe\nperft 1 9\nperft 1 9\n", "listed once"),
    ("id x\ngame tictactoe\noptions size\nperft 1 9\n", "KEY=VALUE"),
    ("id x\ngame tictactoe\n" + "bogus " + "y" * 500 + "\n", "unknown line"),
    ("id x\nperft 1 9\n", "needs a game"),
    ("id x\ngame tictactoe\n", "needs a game and a perft line"),
])
def test_malformed_file_is_one_line_error(tmp_path, text, why):
    path = tmp_path / "bad.perft"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ValueError) as info:
        read_perft_file(path)
    message = str(info.value)
    assert why in message and "\n" not in message and str(path) in message
    assert "y" * (QUOTE + 1) not in message


def test_good_file_reads(tmp_path):
    path = tmp_path / "good.perft"
    path.write_text("# comment\n" + GOOD + "\nid y\ngame reversi\noptions size=6\n"
                    "moves f5 d6\nperft 2 12\n", encoding="utf-8")
    first, second = read_perft_file(path)
    assert (first.id, first.game, first.counts) == ("x", "tictactoe", {1: 9})
    assert (second.options, second.moves, second.counts) == ({"size": "6"}, ["f5", "d6"],
                                                            {2: 12})


def test_binary_file_is_a_value_error(tmp_path):
    path = tmp_path / "bin.perft"
    path.write_bytes(b"\xff\xfe\x00id")
    with pytest.raises(ValueError, match="not UTF-8"):
        read_perft_file(path)
