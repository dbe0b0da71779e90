"""Game records: the good and damaged corpus, round trips, atomic writes, hostile input."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from engine import RecordError, new_game
from engine.files import FileReadError, read_capped
from engine.formats import load_records, parse_records
from engine.record import GameRecord, format_records, save_records
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


def test_save_leaves_no_temp_files(tmp_path: Path):
    start = new_game("tictactoe")
    rec = GameRecord.from_moves(start, _moves(start, "b2 a1"))
    target = save_records(tmp_path / "games" / "one.pgn", rec)
    save_records(target, [rec, rec])
    assert [p.name for p in target.parent.iterdir()] == ["one.pgn"]
    assert len(load_records(target)) == 2


def test_save_is_atomic_when_the_write_fails_midway(tmp_path: Path, monkeypatch):
    """A save that fails before it completes leaves the old file as it was, and no temp
    file: the new text goes to a temporary file that only a final rename publishes."""
    import engine.record as record_module

    start = new_game("tictactoe")
    old = GameRecord.from_moves(start, _moves(start, "b2 a1"))
    new = GameRecord.from_moves(start, _moves(start, "a1 b1 a2 b2 a3"))
    target = save_records(tmp_path / "one.pgn", old)
    before = target.read_bytes()

    def fail(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(record_module.os, "replace", fail)
    monkeypatch.setattr(record_module.os, "rename", fail)
    with pytest.raises(OSError):
        save_records(target, [new] * 50)
    monkeypatch.undo()
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["one.pgn"]


def test_readers_never_see_a_partial_save(tmp_path: Path):
    """A reader loading the file in a loop during many saves sees only whole records."""
    start = new_game("connect4")
    a = [GameRecord.from_moves(start, _moves(start, "4 4 3 3"))] * 400
    b = [GameRecord.from_moves(start, _moves(start, "1 2 1 2 1"))] * 300
    texts = {format_records(a).encode(), format_records(b).encode()}
    target = save_records(tmp_path / "many.pgn", a)
    done = threading.Event()
    seen: list[bytes] = []

    def reader() -> None:
        while not done.is_set():
            data = target.read_bytes()
            if data not in texts:
                seen.append(data)

    thread = threading.Thread(target=reader, daemon=True)
    thread.start()
    for i in range(150):
        save_records(target, a if i % 2 else b)
    done.set()
    thread.join(timeout=30)
    assert not thread.is_alive()
    assert not seen, f"{len(seen)} partial reads, e.g. {len(seen[0])} bytes"


def _load_in_thread(path: Path, timeout: float = 20) -> BaseException | list:
    """load_records(path) in a thread: its result or error; fails the test on a hang."""
    box: list = []

    def target() -> None:
        try:
            box.append(load_records(path))
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            box.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(timeout)
    assert not thread.is_alive(), f"load_records({path}) hangs"
    return box[0]


def _special_files(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo.pgn"
    os.mkfifo(fifo)
    zero = tmp_path / "zero.pgn"
    zero.symlink_to("/dev/zero")
    folder = tmp_path / "folder.pgn"
    folder.mkdir()
    dangling = tmp_path / "dangling.pgn"
    dangling.symlink_to(tmp_path / "nowhere.pgn")
    return {"fifo": fifo, "zero": zero, "folder": folder, "dangling": dangling}


@pytest.mark.parametrize("kind", ["fifo", "zero", "folder", "dangling"])
def test_only_regular_files_are_read(tmp_path: Path, kind: str):
    path = _special_files(tmp_path)[kind]
    error = _load_in_thread(path)
    assert isinstance(error, RecordError), error
    message = str(error)
    assert message.startswith(f"{path}: line 1: cannot read") and "\n" not in message


def test_a_file_that_grows_past_its_stat_size_is_cut_at_the_cap(tmp_path: Path):
    # /proc files report size 0 and can be longer; reading stops at the cap whatever stat says
    data = read_capped("/proc/self/status", 1 << 20)
    assert data.startswith(b"Name:")
    with pytest.raises(FileReadError, match="too large"):
        read_capped("/proc/self/status", 10)


def test_a_file_name_with_a_nul_byte_is_a_record_error():
    with pytest.raises(RecordError, match="not a valid file name"):
        load_records("bad\0name.pgn")


def test_read_capped_can_refuse_symlinks(tmp_path: Path):
    real = tmp_path / "real.pgn"
    real.write_text("x")
    link = tmp_path / "link.pgn"
    link.symlink_to(real)
    assert read_capped(link, 10) == b"x"
    with pytest.raises(FileReadError, match="symbolic link"):
        read_capped(link, 10, follow_symlinks=False)


def test_long_bad_input_is_quoted_short(tmp_path: Path):
    long_move = '[Game "tictactoe"]\n\n1. ' + "b" * 100_000 + " *\n"
    bad_result = '[Game "tictactoe"]\n[Result "' + "9" * 900 + '"]\n\n*\n'
    bad_tag = "[" + "x" * 5000 + "\n"
    for text in (long_move, bad_result, bad_tag):
        with pytest.raises(RecordError) as info:
            parse_records(text)
        assert len(str(info.value)) < 200 and "\n" not in str(info.value)


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


def test_an_unknown_game_name_is_quoted_short() -> None:
    from engine.protocol import UnknownGameError
    from engine.registry import get_game

    with pytest.raises(UnknownGameError) as info:
        get_game("x" * 5000)
    assert len(str(info.value)) < 200 and "\n" not in str(info.value)
