"""The game session (tui.game.session) on its own, on a fake clock: moves and their texts,
the clock and its flag, takebacks that make a game unrated, the record's tags, stale
brain answers refused, the rating settled once, the clock readings a record keeps."""

from __future__ import annotations

from typing import Any

import pytest

from engine.formats import parse_records
from engine.registry import new_game
from tui.game.session import (
    CLOCK_TAG,
    TAKEBACK,
    ClockReadings,
    Session,
)
from tui.player.clock import TimeControl

RATED = "level:1"
"""A rung of tic-tac-toe's rated ladder (rated 74.5)."""


class FakeSink:
    """A rating sink that remembers what it was asked."""

    def __init__(self, ratings: dict[int, tuple[float, float]] | None = None) -> None:
        self.ratings = ratings or {0: (1500.0, 350.0), 1: (1600.0, 200.0)}
        self.recorded: list[tuple[int, tuple[float, float], float]] = []

    def current(self, side: int) -> tuple[float, float]:
        return self.ratings[side]

    def record(self, side: int, opponent: tuple[float, float], score: float) -> Any:
        self.recorded.append((side, opponent, score))
        return f"counted {side}"


def tictactoe(players: tuple[str, str] = ("human", "human"), *,
              control: TimeControl | None = None, hosted: bool = False) -> Session:
    return Session([new_game("tictactoe")], [], players, control=control, hosted=hosted)


def play_texts(session: Session, texts: list[str], now: float = 0.0) -> None:
    for text in texts:
        session.play(session.state.parse_move(text), now)


def test_moves_their_texts_and_the_clock_with_its_increment() -> None:
    session = tictactoe(control=TimeControl(60.0, 2.0))
    session.start_clock(100.0)
    assert session.clock is not None and session.clock.running == 0
    session.play(session.state.parse_move("b2"), 110.0)  # X used 10 s, gets 2 back
    session.play(session.state.parse_move("a1"), 115.0)  # O used 5 s, gets 2 back
    assert session.texts == ["b2", "a1"] and len(session.history) == 3
    readings = session.readings(120.0)
    assert readings == ClockReadings((47.0, 57.0), 0)  # X's clock has run 5 s since
    assert session.result is None and not session.over


def test_a_fallen_flag_ends_the_game_on_time_and_stops_the_clock() -> None:
    session = tictactoe(control=TimeControl(60.0))
    session.start_clock(0.0)
    session.play(session.state.parse_move("b2"), 10.0)  # O's clock runs from 10
    assert session.flag(69.0) is None and not session.over
    assert session.flag(70.5) == 1
    assert session.result == "1-0" and session.termination == "time forfeit"
    assert session.forfeit is not None and session.forfeit.winner == 0
    assert session.clock is not None and session.clock.running is None
    record = session.record(80.0)
    assert (record.result, record.termination) == ("1-0", "time forfeit")
    assert record.tags["TimeControl"] == "1" and CLOCK_TAG not in record.tags  # over: none
    assert session.flag(200.0) is None  # once over, no second flag


def test_taking_back_goes_to_a_persons_turn_and_makes_a_rated_game_unrated() -> None:
    session = tictactoe(("human", RATED), control=TimeControl(60.0))
    assert session.rated_pairing() is not None
    session.start_clock(0.0)
    play_texts(session, ["b2", "a1", "c3"], 5.0)
    assert session.take_back(session.people(), 20.0) == 1  # my c3: my turn again
    assert session.texts == ["b2", "a1"] and session.state.to_move == 0
    session = tictactoe(("human", RATED), control=TimeControl(60.0))
    session.start_clock(0.0)
    play_texts(session, ["b2", "a1"], 5.0)
    assert session.take_back(session.people(), 20.0) == 2  # the brain's move and mine
    assert session.texts == [] and session.moves == [] and session.state.to_move == 0
    assert session.clock is not None and session.clock.running == 0
    assert session.make_unrated(TAKEBACK) is True
    assert session.make_unrated("a hint was asked for") is False  # said once
    record = session.record()
    assert record.tags["Rated"] == "no" and record.tags["Unrated"] == TAKEBACK


def test_a_room_takes_back_to_the_askers_last_turn() -> None:
    session = tictactoe(("alice", "bob"), hosted=True)
    play_texts(session, ["b2", "a1", "c3"])
    assert session.own_moves(1) == [1]
    session.take_back({1}, 0.0)  # bob asked: back to before his a1
    assert session.texts == ["b2"] and session.state.to_move == 1


def test_the_record_keeps_players_comments_clock_readings_and_rating() -> None:
    session = tictactoe(("human", "first"), control=TimeControl(300.0, 3.0))
    session.start_clock(0.0)
    play_texts(session, ["b2", "a1"], 4.0)
    assert session.set_player(1, "last") is False  # it was not rated: nothing to say
    record = session.record(10.0)
    assert record.tags["First"] == "human" and record.tags["Second"] == "last"
    assert record.tags["TimeControl"] == "5+3"
    assert ClockReadings.parse(record.tags[CLOCK_TAG]) == ClockReadings((293.0, 303.0), 0)
    assert record.tags["SecondPlayers"] == "first, last"
    assert record.comments == {2: "O is now last (was first)"}
    assert record.tags["Unrated"] == "the players changed during the game"
    [again] = parse_records(record.to_text())
    assert again.tags[CLOCK_TAG] == record.tags[CLOCK_TAG]


def test_a_rated_local_game_says_so_in_its_record() -> None:
    session = tictactoe(("human", RATED))
    assert session.record().tags["Rated"] == "yes"


def test_stale_brain_answers_are_refused() -> None:
    session = tictactoe(("human", "first"), control=TimeControl(60.0))
    session.start_clock(0.0)
    assert session.brain_request(0.0) is None  # a person is to move
    play_texts(session, ["b2"], 1.0)
    request = session.brain_request(2.0)
    assert request is not None and request.side == 1 and request.spec == "first"
    assert request.ply == 1 and request.texts == ("b2",)
    assert request.seconds is not None and 0 < request.seconds < 60
    session.cancel_brain()  # e.g. the player changed: what was asked is stale
    assert session.brain_answer(request, request.state.legal_moves()[0], 3.0) is False
    assert session.dropped == 1 and len(session.moves) == 1
    fresh = session.brain_request(3.0)
    assert fresh is not None
    session.take_back(session.people(), 4.0)  # the position changed under it
    assert session.brain_answer(fresh, fresh.state.legal_moves()[0], 5.0) is False
    assert session.dropped == 2 and session.moves == []
    play_texts(session, ["b2"], 6.0)
    current = session.brain_request(6.0)
    assert current is not None
    with pytest.raises(ValueError, match="illegal"):
        session.brain_answer(current, 4, 7.0)  # b2 is taken
    assert session.brain_answer(current, current.state.legal_moves()[0], 7.0) is True
    assert len(session.moves) == 2 and session.dropped == 2


def test_a_room_brain_is_seeded_by_the_ply() -> None:
    session = tictactoe(("alice", "first"), hosted=True)
    session.brain_side, session.seed = 1, 40
    play_texts(session, ["b2"])
    request = session.brain_request(0.0)
    assert request is not None and request.seed == 41 and request.side == 1


def test_a_local_rated_game_is_settled_once() -> None:
    session = tictactoe(("human", RATED))
    play_texts(session, ["a1", "b1", "a2", "b2", "a3"])  # X wins
    sink = FakeSink()
    settled = session.settle(sink)
    assert settled == [(0, "counted 0")]
    assert sink.recorded == [(0, (74.5, 30.0), 1.0)]
    assert session.settle(sink) is None and len(sink.recorded) == 1


def test_an_unrated_local_game_settles_with_nothing_counted() -> None:
    session = tictactoe(("human", RATED))
    session.make_unrated("a hint was asked for")
    play_texts(session, ["a1", "b1", "a2", "b2", "a3"])
    sink = FakeSink()
    assert session.settle(sink) == [] and sink.recorded == []
    assert session.settled


def test_a_game_in_progress_is_not_settled() -> None:
    session = tictactoe(("human", RATED))
    play_texts(session, ["a1"])
    assert session.settle(FakeSink()) is None and not session.settled


def test_two_people_in_a_room_are_rated_against_each_other_once() -> None:
    session = tictactoe(("alice", "bob"), hosted=True)
    play_texts(session, ["a1", "b1"])
    session.end("0-1", "resignation", 0.0)
    sink = FakeSink()
    assert session.settle(sink) == [(0, "counted 0"), (1, "counted 1")]
    assert sink.recorded == [(0, (1600.0, 200.0), 0.0), (1, (1500.0, 350.0), 1.0)]
    assert session.settle(sink) is None and len(sink.recorded) == 2
    record = session.record(Room="K7QMX")
    assert (record.result, record.termination) == ("0-1", "resignation")
    assert record.tags["Room"] == "K7QMX" and "Rated" not in record.tags


def test_a_room_with_a_takeback_or_no_result_is_not_rated() -> None:
    for unrated, result in ((TAKEBACK, "1-0"), (None, "*")):
        session = tictactoe(("alice", "bob"), hosted=True)
        session.unrated = unrated
        play_texts(session, ["a1"])
        session.end(result, "abandoned" if result != "*" else "unterminated", 0.0)
        sink = FakeSink()
        assert session.settle(sink) is None and sink.recorded == []


@pytest.mark.parametrize("text", ["", "1 2", "1 2 3", "x 2 0", "nan 2 0", "1e9 2 0",
                                  "1 2 0 4", "inf 1 -", "1" * 30 + " 2 0"])
def test_damaged_clock_readings_are_refused(text: str) -> None:
    assert ClockReadings.parse(text) is None


def test_clock_readings_read_back_as_written() -> None:
    readings = ClockReadings((12.25, -0.5), None)
    assert ClockReadings.parse(readings.text()) == readings
    assert ClockReadings.parse("291.250 300.000 1") == ClockReadings((291.25, 300.0), 1)


def test_a_session_resumed_from_readings_goes_on_from_them() -> None:
    session = Session([new_game("tictactoe")], [], ("human", "human"),
                      control=TimeControl(60.0), readings=ClockReadings((12.5, 30.0), 0))
    session.start_clock(1000.0)  # the time while it was closed does not count
    assert session.readings(1000.0) == ClockReadings((12.5, 30.0), 0)
    assert session.readings(1002.5) == ClockReadings((10.0, 30.0), 0)
