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
from tui.player import ratings as player_ratings
from tui.player.ratings import (
    FORMAT,
    MAX_COUNTED,
    PlayerRating,
    PlayerRatings,
    closest_level,
    current,
    fair_level,
    ratings_path,
    record_game,
    start_rating,
)


def test_a_first_game_moves_the_rating_by_glicko2_and_is_saved(tmp_path: Path) -> None:
    store = PlayerRatings(tmp_path / "ratings.json")
    fresh = store.current("connect4")
    start = start_rating("connect4")
    assert (fresh.rating, fresh.deviation, fresh.games, fresh.updated) == (start, 350, 0, None)
    after = store.record_game("connect4", 1700.0, 60.0, 1)
    expected = update(Glicko(start), [(Glicko(1700, 60), 1.0)])
    assert (after.rating, after.deviation, after.volatility) == (
        expected.rating, expected.deviation, expected.volatility)
    assert after.games == 1 and after.updated is not None and after.rating > start
    again = PlayerRatings(tmp_path / "ratings.json")
    assert again.current("connect4") == after and again.problem is None
    assert again.current("reversi") == PlayerRating.fresh("reversi")  # other games untouched
    data = json.loads((tmp_path / "ratings.json").read_text())
    assert data["format"] == FORMAT and set(data["games"]) == {"connect4"}


def test_the_shortcuts_use_the_users_data_directory(tmp_path: Path) -> None:
    # tests/tui/conftest.py points XDG_DATA_HOME at tmp_path / "data"
    assert ratings_path() == tmp_path / "data" / "parlor" / "ratings.json"
    after = record_game("tictactoe", 400, 100, 0.5)
    assert ratings_path().is_file() and current("tictactoe") == after
    near, far = after.rating + 100, after.rating - 300
    assert fair_level("tictactoe", {"level:1": far, "level:5": near}) == "level:5"


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
    (json.dumps({"format": FORMAT, "version": 1, "games": {"connect4": {
        **GOOD, "counted": "g1"}}}).encode(), "counted must be a list"),
    (json.dumps({"format": FORMAT, "version": 1, "games": {"connect4": {
        **GOOD, "counted": ["../../etc"]}}}).encode(), "counted must be a list"),
])
def test_a_damaged_file_is_one_line_a_fresh_start_and_is_kept(
        tmp_path: Path, content: bytes, message: str) -> None:
    path = tmp_path / "ratings.json"
    path.write_bytes(content)
    store = PlayerRatings(path)
    assert store.current("connect4") == PlayerRating.fresh("connect4")
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
    assert store.current("connect4") == PlayerRating.fresh("connect4")
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
    assert store.current("connect4") == PlayerRating.fresh("connect4")
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
    assert rating.games == 1 and rating.rating > start_rating("connect4")
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


def test_a_game_id_is_counted_once(tmp_path: Path) -> None:
    path = tmp_path / "ratings.json"
    store = PlayerRatings(path)
    change = store.record_once("connect4", "game-1", 900.0, 60.0, 1)
    assert change is not None
    before, after = change
    assert before == PlayerRating.fresh("connect4") and after.games == 1
    assert after.rating > before.rating and after.counted == ("game-1",)
    kept = path.read_bytes()
    assert store.record_once("connect4", "game-1", 900.0, 60.0, 0) is None
    assert path.read_bytes() == kept  # nothing changed, nothing written
    assert PlayerRatings(path).record_once("connect4", "game-1", 900.0, 60.0, 0) is None
    assert store.record_once("reversi", "game-1", 900.0, 60.0, 0) is not None  # per game
    assert store.record_once("connect4", "game-2", 900.0, 60.0, 0) is not None
    assert store.current("connect4").games == 2
    with pytest.raises(ValueError, match="cannot key"):
        store.record_once("connect4", "../x\n", 900.0, 60.0, 1)


def test_the_counted_ids_are_capped_to_the_newest(tmp_path: Path) -> None:
    store = PlayerRatings(tmp_path / "ratings.json")
    for k in range(MAX_COUNTED + 5):
        store.record_once("tictactoe", f"g{k}", 300.0, 50.0, k % 2)
    rating = PlayerRatings(tmp_path / "ratings.json").current("tictactoe")
    assert rating.games == MAX_COUNTED + 5 and len(rating.counted) == MAX_COUNTED
    assert rating.counted[-1] == f"g{MAX_COUNTED + 4}" and "g0" not in rating.counted


def test_a_new_player_starts_on_the_ladder_scale() -> None:
    from brains.ladder import load_ratings

    for game in ("tictactoe", "connect4"):
        levels = load_ratings(game).levels
        fresh = PlayerRating.fresh(game)
        assert fresh.rating == levels[(len(levels) + 1) // 2 - 1].rating == start_rating(game)
        assert levels[0].rating < fresh.rating < levels[-1].rating
        assert fresh.deviation == 350 and fresh.provisional


def _record_the_same_games(path: str, count: int, first: int) -> None:
    """One session finishing the games ``g0`` .. ``g{count-1}``, from ``g{first}`` on
    (the others finish the same games in another order)."""
    store = PlayerRatings(path)
    for step in range(count):
        k = (first + step) % count
        store.record_once("connect4", f"g{k}", 900, 50, k % 2)
        assert store.problem is None, store.problem


def test_sessions_finishing_the_same_games_count_each_once(tmp_path: Path) -> None:
    """Four processes finish the same 100 games at once, each in its own order: each
    game counts once (the check and the update are one locked read-modify-write;
    without the lock, games are lost or counted twice)."""
    path = str(tmp_path / "ratings.json")
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(4, mp_context=context) as pool:
        for done in [pool.submit(_record_the_same_games, path, 100, 25 * i) for i in range(4)]:
            done.result()
    rating = PlayerRatings(path).current("connect4")
    assert rating.games == 100 and sorted(rating.counted) == sorted(f"g{k}" for k in range(100))
