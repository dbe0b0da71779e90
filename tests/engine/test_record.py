"""Game records: the good and damaged corpus, round trips, atomic writes, hostile input."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from engine import RecordError, new_game
from engine.record import GameRecord, load_records, parse_records, save_records
from engine.registry import GAMES
from tests.conftest import DATA

RECORDS = DATA / "records"
BAD = sorted(RECORDS.glob("bad/*.pgn"))


@pytest.mark.parametrize("path", sorted(RECORDS.glob("good/*.pgn")), ids=lambda p: p.name)
def test_good_records_load(path):
    records = load_records(path)
    assert records
    for rec in records:
        states = rec.states()
        assert len(states) == len(rec.moves) + 1
        (again,) = parse_records(rec.to_text())
        assert again.moves == rec.moves and again.result == rec.result


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_records_give_file_line_and_reason(path):
    expected = path.with_suffix(".expected").read_text().strip()
    with pytest.raises(RecordError) as info:
        load_records(path)
    message = str(info.value)
    assert message.startswith(f"{path}: line ")
    assert expected in message
    assert "\n" not in message


def test_comments_and_tags_survive_round_trip():
    (rec, _) = load_records(RECORDS / "good" / "tictactoe-two-games.pgn")
    assert rec.comments == {3: "threatens a3"}
    assert rec.tags["First"] == "human"
    (again,) = parse_records(rec.to_text())
    assert again.comments == rec.comments and again.tags == rec.tags


def test_from_moves_fills_result_from_the_final_position():
    start = new_game("tictactoe")
    rec = GameRecord.from_moves(start, [start.parse_move(m) for m in ["b2", "a1"]])
    assert rec.result == "*" and rec.termination is None
    rec = GameRecord.from_moves(start, _moves(start, "a1 b1 a2 b2 a3"))
    assert rec.result == "1-0" and rec.termination == "normal"


def _moves(start, line):
    out, state = [], start
    for text in line.split():
        move = state.parse_move(text)
        out.append(move)
        state = state.play(move)
    return out


def test_resignation_record_round_trips():
    start = new_game("tictactoe")
    rec = GameRecord.from_moves(start, _moves(start, "b2"), Result="0-1",
                                Termination="resignation")
    (back,) = parse_records(rec.to_text())
    assert back.result == "0-1" and back.termination == "resignation"


def test_save_is_atomic_and_leaves_no_temp_files(tmp_path: Path):
    start = new_game("tictactoe")
    rec = GameRecord.from_moves(start, _moves(start, "b2 a1"))
    target = save_records(tmp_path / "games" / "one.pgn", rec)
    save_records(target, [rec, rec])
    assert [p.name for p in target.parent.iterdir()] == ["one.pgn"]
    assert len(load_records(target)) == 2


def test_hostile_inputs_are_rejected_quickly(tmp_path: Path):
    huge = tmp_path / "huge.pgn"
    huge.write_text('[Game "tictactoe"]\n\n' + "{x} " * 1_000_000)
    deep = '[Game "tictactoe"]\n\n' + "1. " * 200_000 + "*\n"
    long_tag = '[Game "tictactoe"]\n[Event "' + "x" * 10_000 + '"]\n\n*\n'
    start = time.perf_counter()
    with pytest.raises(RecordError, match="too large"):
        load_records(huge)
    assert parse_records(deep)[0].moves == []
    with pytest.raises(RecordError, match="line 2: tag Event is too long"):
        parse_records(long_tag)
    with pytest.raises(RecordError, match="cannot read"):
        load_records(tmp_path / "missing.pgn")
    assert time.perf_counter() - start < 10  # generous: guards against a hang, not speed


SHIPPED = sorted((Path(__file__).resolve().parents[2] / "saved" / "games").glob("*.pgn"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_example_games_replay(path):
    (rec,) = load_records(path)
    final = rec.final()
    outcome = final.outcome()
    assert outcome is not None and outcome.result.value == rec.result


def test_every_game_has_a_shipped_example():
    assert {load_records(p)[0].game for p in SHIPPED} == set(GAMES)
