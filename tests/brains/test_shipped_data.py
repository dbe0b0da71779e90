"""Shipped data (the Connect Four book, example games, models) is found through
importlib.resources, and a missing or damaged file is one clear error, never an empty
book that would make Connect Four play weaker without a word."""

from __future__ import annotations

import pytest

import saved
from brains import c4book
from brains.learned import store
from tui.player import paths


@pytest.fixture
def data_in(tmp_path, monkeypatch):
    """Shipped data looked up in ``tmp_path`` instead of the packages; a fresh book."""
    monkeypatch.setattr(saved, "data_path", lambda package, *parts: tmp_path.joinpath(*parts))
    monkeypatch.setattr(c4book, "_BOOK", None)
    return tmp_path


def test_shipped_data_is_found_in_the_packages():
    assert len(c4book.book()) > 0
    assert c4book.BOOK_PATH.is_file()
    assert sorted(paths.examples_dir().glob("*.pgn"))
    assert (store.MODELS_DIR / store.MANIFEST).is_file()


def test_missing_book_is_an_error_not_an_empty_book(data_in):
    with pytest.raises(saved.ShippedDataError) as info:
        c4book.book()
    message = str(info.value)
    assert "connect4-book.txt is missing" in message and "\n" not in message
    assert c4book._BOOK is None  # nothing half-read is kept


def test_damaged_book_names_the_file_and_line(data_in):
    (data_in / "data").mkdir()
    (data_in / "data" / "connect4-book.txt").write_text("4453 3 1\n" + "9" * 300 + " 1 1\n")
    with pytest.raises(ValueError) as info:
        c4book.book()
    message = str(info.value)
    assert message.startswith("connect4-book.txt: book line 2:") and "\n" not in message
    assert "9" * 61 not in message


def test_binary_book_is_a_value_error(data_in):
    (data_in / "data").mkdir()
    (data_in / "data" / "connect4-book.txt").write_bytes(b"\xff\xfe 1 1\n")
    with pytest.raises(ValueError, match="not UTF-8"):
        c4book.book()


def test_missing_examples_folder_is_an_error(data_in):
    with pytest.raises(saved.ShippedDataError, match="games is missing"):
        paths.examples_dir()
