"""The player's ratings file: updates by Glicko-2, kept in the data directory, atomic,
every field checked on reading (a damaged file is one line and a fresh start, and is
kept), a fair level, and concurrent sessions that lose no game."""

from __future__ import annotations

import json
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from brains.glicko import Glicko, update
from tui import player_ratings
from tui.player_ratings import (
    FORMAT,
    PlayerRating,
    PlayerRatings,
    closest_level,
    current,
    fair_level,
    ratings_path,
    record_game,
)


def test_a_first_game_moves_the_rating_by_glicko2_and_is_saved(tmp_path: Path) -> None:
    store = PlayerRatings(tmp_path / "ratings.json")
    fresh = store.current("connect4")
    assert (fresh.rating, fresh.deviation, fresh.games, fresh.updated) == (1500, 350, 0, None)
    after = store.record_game("connect4", 1700.0, 60.0, 1)
    expected = update(Glicko(), [(Glicko(1700, 60), 1.0)])
    assert (after.rating, after.deviation, after.volatility) == (
        expected.rating, expected.deviation, expected.volatility)
    assert after.games == 1 and after.updated is not None and after.rating > 1500
    again = PlayerRatings(tmp_path / "ratings.json")
    assert again.current("connect4") == after and again.problem is None
    assert again.current("reversi") == PlayerRating("reversi")  # other games untouched
    data = json.loads((tmp_path / "ratings.json").read_text())
    assert data["format"] == FORMAT and set(data["games"]) == {"connect4"}


def test_the_shortcuts_use_the_users_data_directory(tmp_path: Path) -> None:
    # tests/tui/conftest.py points XDG_DATA_HOME at tmp_path / "data"
    assert ratings_path() == tmp_path / "data" / "parlor" / "ratings.json"
    after = record_game("tictactoe", 1500, 100, 0.5)
    assert ratings_path().is_file() and current("tictactoe") == after
    assert fair_level("tictactoe", {"level:1": 200.0, "level:5": 1450.0}) == "level:5"


def test_games_count_and_the_deviation_narrows(tmp_path: Path) -> None:
    store = PlayerRatings(tmp_path / "ratings.json")
    for score in (1, 0, 1, 0.5, 1):
        rating = store.record_game("reversi", 1500, 50, score)
    assert rating.games == 5 and rating.deviation < 200 and store.problem is None
    assert rating.text().endswith(f"± {1.96 * rating.deviation:.0f}")


def test_fair_level_is_the_closest_and_a_tie_goes_to_the_weaker() -> None:
    levels = {"level:1": 0.0, "level:2": 400.0, "level:3": 800.0}
    assert closest_level(590, levels) == "level:2"
    assert closest_level(600, levels) == "level:2"  # tie: the weaker
    assert closest_level(5000, levels) == "level:3"
    with pytest.raises(ValueError, match="no rated levels"):
        closest_level(1500, {})
    with pytest.raises(ValueError, match="finite"):
        closest_level(1500, {"level:1": float("nan")})


def test_bad_arguments_are_value_errors(tmp_path: Path) -> None:
    store = PlayerRatings(tmp_path / "ratings.json")
    for args in (("nogame", 1500, 50, 1), ("chess-960", 1500, 50, 1),
                 ("connect4", float("nan"), 50, 1), ("connect4", 1500, -1, 1),
                 ("connect4", 1500, 50, 2), ("connect4", 1500, 50, float("inf"))):
        with pytest.raises(ValueError):
            store.record_game(*args)
    assert not (tmp_path / "ratings.json").exists()
    # a level's interval may be degenerate (the anchor) or very wide: both are usable
    assert store.record_game("connect4", 0.0, 0.0, 1).games == 1
    assert store.record_game("connect4", 0.0, 5000.0, 1).games == 2


GOOD = {"rating": 1600.0, "deviation": 80.0, "volatility": 0.06, "games": 3,
        "updated": "2026-11-23T18:00:00+00:00"}


@pytest.mark.parametrize("content, message", [
    (b"{not json", "not JSON"),
    (b"\xff\xfe\x00", "not UTF-8"),
    (b"[]", "not a Parlor ratings file"),
    (json.dumps({"format": FORMAT, "version": 99, "games": {}}).encode(), "version 99"),
    (json.dumps({"format": FORMAT, "version": 1, "games": []}).encode(), "no table"),
    (b"[" * 100_000 + b"]" * 100_000, "not JSON"),
    (b"{" + b" " * (2 << 20) + b"}", "too large"),
    (json.dumps({"format": FORMAT, "version": 1, "games": {"connect4": {
        **GOOD, "rating": "1600"}}}).encode(), "rating must be a finite number"),
    ((b'{"format": "parlor-player-ratings", "version": 1, "games": {"connect4": '
      b'{"rating": NaN, "deviation": 80, "volatility": 0.06, "games": 1}}}'), "finite"),
    (json.dumps({"format": FORMAT, "version": 1, "games": {"connect4": {
        **GOOD, "deviation": 0}}}).encode(), "deviation must be above 0"),
    (json.dumps({"format": FORMAT, "version": 1, "games": {"connect4": {
        **GOOD, "games": True}}}).encode(), "games must be a count"),
    (json.dumps({"format": FORMAT, "version": 1, "games": {"connect4": {
        **GOOD, "updated": "yesterday"}}}).encode(), "'yesterday' is not a date"),
    (json.dumps({"format": FORMAT, "version": 1, "games": {"\x1b[2J" * 30: GOOD}}).encode(),
     "not a game id"),
])
def test_a_damaged_file_is_one_line_a_fresh_start_and_is_kept(
        tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "ratings.json"
    path.write_bytes(content)
    store = PlayerRatings(path)
    assert store.current("connect4") == PlayerRating("connect4")
    assert store.problem is not None and message in store.problem
    assert "\n" not in store.problem and "\x1b" not in store.problem
    assert len(store.problem) < 300 + len(str(path))
    after = store.record_game("connect4", 1500, 50, 1)
    assert after.games == 1
    assert (tmp_path / "ratings.json.damaged").read_bytes() == content  # nothing lost
    assert PlayerRatings(path).current("connect4") == after


def test_one_damaged_entry_leaves_the_others(tmp_path: Path) -> None:
    path = tmp_path / "ratings.json"
    path.write_text(json.dumps({"format": FORMAT, "version": 1, "games": {
        "reversi": GOOD, "connect4": {**GOOD, "volatility": -1}}}))
    store = PlayerRatings(path)
    assert store.current("reversi").rating == 1600.0 and store.current("reversi").games == 3
    assert store.current("connect4") == PlayerRating("connect4")
    assert "'connect4'" in (store.problem or "") and "volatility" in (store.problem or "")
    store.record_game("connect4", 1500, 50, 0)
    again = PlayerRatings(path)
    assert again.current("reversi").games == 3 and again.current("connect4").games == 1
    assert again.problem is None


def test_entries_of_other_games_are_kept_when_saving(tmp_path: Path) -> None:
    """A game this version does not know (from a newer Parlor) survives a save."""
    path = tmp_path / "ratings.json"
    path.write_text(json.dumps({"format": FORMAT, "version": 1, "games": {"shogi": GOOD}}))
    PlayerRatings(path).record_game("connect4", 1500, 50, 1)
    assert json.loads(path.read_text())["games"]["shogi"] == GOOD


@pytest.mark.parametrize("kind", ["fifo", "directory", "dev-zero-link"])
def test_a_ratings_path_that_is_not_a_file_never_hangs_or_crashes(
        tmp_path: Path, kind: str) -> None:
    path = tmp_path / "ratings.json"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "directory":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    store = PlayerRatings(path)
    assert store.current("connect4") == PlayerRating("connect4")
    assert store.problem is not None and "not a regular file" in store.problem
    rating = store.record_game("connect4", 1500, 50, 1)
    assert rating.games == 1  # saved, or at least returned with a one-line problem
    assert store.problem is None or "\n" not in store.problem


def test_a_file_that_cannot_be_saved_is_one_line(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    store = PlayerRatings(tmp_path / "ratings.json")

    def refuse(*args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(player_ratings.os, "replace", refuse)
    rating = store.record_game("connect4", 1500, 50, 1)
    assert rating.games == 1 and rating.rating > 1500
    assert store.problem and "cannot save" in store.problem and "Permission denied" in store.problem
    assert not list(tmp_path.glob(".ratings.json.*"))  # no temporary file left behind


def test_the_file_is_replaced_atomically(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A crash while writing leaves the previous file whole."""
    path = tmp_path / "ratings.json"
    store = PlayerRatings(path)
    first = store.record_game("connect4", 1500, 50, 1)
    before = path.read_bytes()

    def crash(*args: object, **kwargs: object) -> None:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(player_ratings.os, "fsync", crash)
    store.record_game("connect4", 1500, 50, 1)
    assert path.read_bytes() == before and "Input/output error" in (store.problem or "")
    assert PlayerRatings(path).current("connect4") == first


def _record_many(path: str, count: int) -> None:
    """One session: ``count`` rated games, one after the other."""
    store = PlayerRatings(path)
    for k in range(count):
        store.record_game("connect4", 1500, 50, k % 2)
        assert store.problem is None, store.problem


def test_concurrent_sessions_lose_no_game(tmp_path: Path) -> None:
    """Four processes each record 25 games at once: all 100 count (without the lock,
    sessions overwrite each other's read-modify-write and games are lost)."""
    path = str(tmp_path / "ratings.json")
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(4, mp_context=context) as pool:
        for done in [pool.submit(_record_many, path, 25) for _ in range(4)]:
            done.result()
    assert PlayerRatings(path).current("connect4").games == 100
