"""The rules in words: Help's short rules for each game, and the status announcing a rule
change when it happens."""

from __future__ import annotations

from tests.tui.conftest import play_app, play_moves, settle
from tui.app.main import ParlorApp

SIZE = (80, 24)


def test_help_gives_each_games_rules_in_short() -> None:
    from engine.registry import GAMES
    from tui.app.screens.help import RULES
    assert set(RULES) == set(GAMES)
    assert "fly" in RULES["morris"] and "compulsory" in RULES["checkers"]
    assert "flipcolor" in RULES["reversi"]


async def test_help_shows_the_rules() -> None:
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)
        text = str(app.screen.query_one("#help-rules").render())
        assert "Five Men's Morris" in text and "you may fly" in text


async def test_a_rule_change_is_announced_when_it_happens() -> None:
    from engine.registry import new_game
    from tests.tui.test_play import key_test_line
    from tui.app.screens.play import rule_news
    states, moves = key_test_line("morris")
    flips = [(i, rule_news(states[i], states[i + 1])) for i in range(len(moves))]
    news = [(i, text) for i, text in flips if text]
    assert news, "the test game should bring a side down to three"
    i, text = news[0]
    assert "down to three" in text and "may fly" in text
    assert rule_news(new_game("tictactoe"), new_game("tictactoe").play(4)) == ""
    app = play_app("morris", ("human", "human"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await play_moves(pilot, app.screen, moves[: i + 1])
        assert "may fly" in str(app.screen.query_one("#status").render())

