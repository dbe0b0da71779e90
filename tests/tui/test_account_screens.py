"""The hosted account's screens (tui/app/screens/account.py, tui/app/dialogs/challenge.py)
show what the host says, and anything malformed in it as little as it can, never a crash;
without a host they are not offered."""

from __future__ import annotations

from typing import Any

import pytest

from tui.app.dialogs.challenge import describe_challenge
from tui.app.screens.account import leaders_text, profile_text, rank_text
from tui.link.client import ENV_SOCKET, ENV_TOKEN


def test_profile_lines_ratings_records_and_recent_games() -> None:
    text = profile_text({
        "ratings": [["connect4", 1612.4, 80.0, 7]],
        "record": [["connect4", 4, 1, 2], ["tictactoe", 0, 1, 0]],
        "recent": [{"game": "connect4", "result": "0-1", "side": 1, "opponent": "ann",
                    "termination": "four in a row", "finished": 86400.0 * 365}]})
    assert "Connect Four: 1612 (deviation 80), 7 rated games; 4 won, 1 drawn, 2 lost" in text
    assert "Tic-tac-toe: unrated; 0 won, 1 drawn, 0 lost" in text
    assert "1971-01-01  Connect Four v ann: won 0-1 (four in a row)" in text


@pytest.mark.parametrize("junk", [
    {}, {"ratings": "x", "record": 5, "recent": [1, None, "a"]},
    {"ratings": [[None, "a", [], {}]], "record": [["g", "w", None, True]],
     "recent": [{"game": 7, "result": [], "side": "z", "finished": "never"}]},
    {"ratings": [[]], "record": [[]], "recent": [{}]},
])
def test_a_malformed_profile_is_shown_as_little_as_it_can(junk: dict[str, Any]) -> None:
    text = profile_text(junk)
    assert text.startswith("Ratings") and "Recent games" in text


def test_leaderboard_lines_and_the_players_own() -> None:
    text = leaders_text({"game": "reversi", "min_games": 5,
                         "rows": [[1, "zed", 1810.0, 60.0, 30, False],
                                  [2, "ann", 1700.4, 75.2, 9, True]]})
    assert "Reversi: players with at least 5 rated games" in text
    lines = text.splitlines()
    assert lines[3].split() == ["1", "zed", "1810", "60", "30"]
    assert lines[4].split() == ["2", "ann", "1700", "75", "9", "<-", "you"]
    assert "nobody yet" in leaders_text({"game": 3, "rows": [["bad"], "x", 4]})


def test_home_rank_line() -> None:
    assert rank_text({}, "connect4") == ""  # the host has not said yet
    account = {"ranks": {"connect4": [3, 12], "reversi": [0, 2]}, "min_games": 5}
    assert rank_text(account, "connect4") == "#3 of 12 on this host (F7: leaderboards)"
    assert rank_text(account, "reversi") == "unranked: 2 of the 5 rated games to be ranked"
    assert rank_text(account, "gomoku").startswith("unranked: no rated room game yet")
    assert rank_text({"ranks": {"connect4": ["a", None]}}, "connect4").startswith("unranked")


def test_a_challenge_is_described_from_checked_parts() -> None:
    assert describe_challenge({"from": "ann", "game": "connect4", "clock": "5+3"}) == \
        "ann challenges you to Connect Four, clock 5+3"
    odd = describe_challenge({"from": "x" * 99, "game": "chess", "options": {"size": 6},
                              "clock": None})
    assert odd.endswith("challenges you to a game size=6, no clock") and len(odd) < 80


async def test_without_a_host_there_is_no_rank_row_and_no_account_keys(tmp_path,
                                                                       monkeypatch):
    from tui.app.main import ParlorApp

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.delenv(ENV_SOCKET, raising=False)
    monkeypatch.delenv(ENV_TOKEN, raising=False)
    app = ParlorApp()
    async with app.run_test(size=(110, 34)) as pilot:
        await pilot.pause()
        assert not app.screen.query("#player-rank")
        assert not {"account", "leaders"} & {b.binding.action
                                             for b in app.active_bindings.values()}
        await pilot.press("f6", "f7")
        await pilot.pause()
        assert type(app.screen).__name__ == "HomeScreen"


def test_the_hosts_rating_is_read_checked() -> None:
    from tui.app.screens.account import hosted_rating
    from tui.player.ratings import PlayerRating

    assert hosted_rating({}, "connect4") is None  # the host has not said yet
    account = {"ratings": {"connect4": [1612.5, 80.0, 0.06, 7], "reversi": [1, "x", 0, 2],
                           "gomoku": [1500.0, -3.0, 0.06, 1], "tictactoe": [1, 2, 3]}}
    assert hosted_rating(account, "connect4") == PlayerRating("connect4", 1612.5, 80.0,
                                                              0.06, 7)
    assert hosted_rating(account, "morris") == PlayerRating.fresh("morris")  # never rated
    for damaged in ("reversi", "gomoku", "tictactoe"):
        assert hosted_rating(account, damaged) is None


async def test_hosted_home_shows_the_hosts_rating_and_picks_a_fair_opponent_by_it(
        tmp_path, monkeypatch) -> None:
    from textual.widgets import Static

    from tests.tui.conftest import settle
    from tests.tui.test_screen_reader import FakeLink
    from tui.app.screens.home import HomeScreen
    from tui.app.screens.play import HOSTED_UNRATED, PlayScreen
    from tui.game import opponents
    from tui.host.session import HostedApp
    from tui.link import client
    from tui.player.ratings import PlayerRatings, closest_level

    link = FakeLink()
    monkeypatch.setattr(client, "_link", link)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv(ENV_SOCKET, str(tmp_path / "none.sock"))
    monkeypatch.setenv(ENV_TOKEN, "token")
    levels = opponents.level_ratings("connect4")
    monkeypatch.setattr(opponents, "brain_specs", lambda game_id: ["first", *levels])
    top = max(levels.values())
    PlayerRatings().record_game("connect4", top + 400, 30.0, 1.0)  # the file is not read
    app = HostedApp(seed=1)
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen)
        home.query_one("#game").value = "connect4"
        await settle(pilot)
        assert str(home.query_one("#player-rating", Static).render()) == "asking the host…"
        middle = sorted(levels, key=levels.__getitem__)[len(levels) // 2]
        low = levels[middle]
        link.deliver({"t": "account", "name": "ann", "ranks": {"connect4": [2, 9]},
                      "ratings": {"connect4": [low, 60.0, 0.06, 12]}, "min_games": 5})
        await pilot.pause()
        assert str(home.query_one("#player-rating", Static).render()).startswith(
            f"{low:.0f} ± {1.96 * 60:.0f}")
        assert "#2 of 9" in str(home.query_one("#player-rank", Static).render())
        home.query_one("#first").value = "human"
        home.query_one("#second").value = "first"
        home.action_fair_opponent()  # the key a
        await settle(pilot)
        assert home.sides() == ("human", middle) and closest_level(top, levels) != middle
        await pilot.press("p")  # a local game on a host: unrated (the host's rating)
        await settle(pilot)
        assert isinstance(app.screen, PlayScreen) and app.screen.unrated == HOSTED_UNRATED
