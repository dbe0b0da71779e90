"""Files of many games: a collection (listed, validated, exported, explored game by game)
may run to tens of thousands of games, past the cap on a file read whole.

The field's PDN archives and Parlor files of 10,000 games are several megabytes; they
list through :func:`engine.formats.load_chunks` and validate through
:func:`engine.formats.load_collection`, while a file read whole (every game replayed at
once, :func:`engine.formats.load_records`) keeps the smaller cap. Past the collection's
own cap a file is still refused in one line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import formats, record
from engine.formats import load_chunks, load_collection, load_records
from engine.protocol import RecordError

SITE = "[Site \"" + "the club's long room, second table by the window, " * 3 + "\"]\n"
"""Real archives carry tags like this: a game of them is 300-odd bytes."""
LONG_SITE = "[Site \"" + "the club's long room, second table by the window, " * 17 + "\"]\n"
"""A site as long as a tag may be: a game of 900-odd bytes."""
PDN_GAME = SITE + """[Event "club {n}"]
[White "Player {n}"]
[Black "Rival {n}"]
[Result "1-0"]

1. 12-16 24-20 2. 16-19 23x16 3. 11-15 28-24 4. 15-19 24x15 1-0

"""
PARLOR_GAME = SITE + """[Game "connect4"]
[First "p{n}"]
[Second "q{n}"]
[Result "*"]

1. 4 4 2. 3 5 *

"""


def write_many(path: Path, template: str, count: int) -> Path:
    path.write_text("".join(template.format(n=n) for n in range(count)))
    return path


@pytest.mark.parametrize(("name", "template", "count"), [
    ("big.pdn", PDN_GAME, 10_000),
    ("big.pgn", LONG_SITE + PARLOR_GAME.replace(SITE, ""), 2_500),  # fewer, longer games
], ids=["pdn", "parlor"])
def test_a_10000_game_file_past_the_whole_file_cap_lists_and_validates(
        tmp_path: Path, name: str, template: str, count: int) -> None:
    path = write_many(tmp_path / name, template, count)
    assert path.stat().st_size > record.MAX_BYTES  # too large to read whole…
    with pytest.raises(RecordError, match="too large"):
        load_records(path)
    chunks = load_chunks(path)  # …but it is a collection of 10,000 games
    assert len(chunks) == count
    last = chunks[-1].parse()
    assert str(count - 1) in " ".join(last.tags.values())
    found = load_collection(path)
    assert len(found.records) == count and not found.damaged


def test_past_the_collection_cap_a_file_is_refused_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = write_many(tmp_path / "many.pgn", PARLOR_GAME, 200)
    monkeypatch.setattr(formats, "COLLECTION_MAX_BYTES", path.stat().st_size - 1)
    for read in (load_chunks, load_collection):
        with pytest.raises(RecordError) as info:
            read(path)
        message = str(info.value)
        assert "too large" in message and "\n" not in message
