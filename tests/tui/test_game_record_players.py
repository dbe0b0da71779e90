"""Who played which moves: the record's players when a side changes hands, replay showing
them, and playing on from a replay."""

from __future__ import annotations

from tests.tui.conftest import play_app, settle
from tui.app.main import ParlorApp
from tui.app.screens.play import PlayScreen

SIZE = (80, 24)


async def test_the_record_says_who_played_which_moves_and_replay_shows_it() -> None:
    app = play_app("tictactoe", ("human", "first"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        await pilot.press("enter")  # human X, then "first" answers
        await settle(pilot)
        screen.set_player(1, "last")  # O is played by another brain from here
        await settle(pilot)
        screen.play(screen.state.legal_moves()[0])
        await settle(pilot)
        record = screen.record()
        assert record.tags["Second"] == "last"
        assert "O is now last (was first)" in record.comments[2]
        text = record.to_text()
    from engine.formats import parse_records
    from tui.game.session import players_by_move
    again = parse_records(text, source="test")[0]
    assert players_by_move(again, again.states()) == ["human", "first", "human", "last"]
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_replay(again)
        await settle(pilot)
        await pilot.press("left", "left")
        await pilot.pause()
        assert "by first" in str(app.screen.query_one("#status").render())
        await pilot.press("end")
        await pilot.pause()
        assert "by last" in str(app.screen.query_one("#status").render())


async def test_playing_on_from_a_replay_records_the_new_players() -> None:
    from engine.record import GameRecord
    from engine.registry import new_game
    state = new_game("tictactoe")
    record = GameRecord.from_moves(state, [4, 0], First="alice", Second="bob")
    app = ParlorApp()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.play_record(record, 2, ("human", "first"))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, PlayScreen)
        screen.play(screen.state.legal_moves()[0])
        await settle(pilot)
        from tui.game.session import players_by_move
        kept = screen.record()
        assert players_by_move(kept, kept.states()) == ["alice", "bob", "human", "first"]

