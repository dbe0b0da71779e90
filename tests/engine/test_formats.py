"""Other programs' game files (engine.formats): PDN, GGF, WTHOR, Othello transcripts and
Connect Four columns are read as they are, written back, and round-trip."""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import RecordError, new_game
from engine.formats import TRIED, load_records, parse_records, read_collection, write_games
from engine.record import GameRecord
from tests.conftest import DATA

FORMATS = DATA / "formats"


# --------------------------------------------------------------------------- Othello


def test_real_othello_transcripts_with_implicit_passes():
    records = load_records(FORMATS / "othello-transcripts.txt")
    assert len(records) == 37
    assert all(rec.game == "reversi" and rec.termination == "normal" for rec in records)
    with_passes = [rec for rec in records if "pass" in rec.moves]
    assert len(with_passes) == 24  # each refused before passes were inserted
    woc = records[-1]  # the drawn final-round game of WOC 2010
    assert woc.result == "1/2-1/2" and woc.final().counts() == (32, 32)


def test_a_transcript_with_an_illegal_move_names_line_and_move():
    with pytest.raises(RecordError, match=r"x\.txt: line 2: move 2: illegal move 'a1'"):
        parse_records("f5d6\nf5a1\n", "x.txt", ".txt")


GGF = ("(;GM[Othello]PC[GGS/os]DT[2003.12.15]PB[Ann]PW[Bob]RE[?]TI[5:00]TY[8]"
       "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
       "B[f5//1.2]W[D6/0.5/3]B[c3];)\n"
       "(;GM[Othello]PB[x]PW[y]RE[+2]TY[4]BO[4 ---- -O*- -*O- ---- *]B[B1];)")


def test_ggf_games_with_their_start_players_and_result():
    first, second = parse_records(GGF, "g.ggf", ".ggf")
    assert first.moves == ["f5", "d6", "c3"] and first.result == "*"
    assert first.tags["Black"] == "Ann" and first.setup is None
    assert second.options["size"] == 4 and second.moves == ["b1"]
    assert second.result == "1-0" and second.termination == "recorded"


def test_ggf_as_the_ggs_server_writes_it():
    """Two games in the form of the GGS Othello server's archive (as public engines' test
    suites quote them): a set-up board without moves, and a resigned game."""
    setup = ("(;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio1200]PW[Saio3000]"
             "RE[0]RB[2196.37]RW[2200.35]TI[5:00//2:00]TY[8]BO[8 --O--O--*-*OO---****OO-"
             "**O*O*OOO**O***O****O*O*---**O*----****-- O];)")
    resigned = ("(;GM[Othello]PC[GGS/os]DT[2000-4-16 11:13 EST]PB[fangr]PW[patzer]"
                "RB[1457.12]RW[1631.74]TI[15:00//02:00]TY[8]RE[-40.00:r]BO[8 -------- "
                "-------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
                "B[E6//4.09]W[F4//1.2]B[C3];)")
    first, second = parse_records(setup + "\n" + resigned, "ggs.ggf")
    assert first.setup.endswith(" o") and first.moves == [] and first.tags["Black"] == "Saio1200"
    assert first.initial().counts() == (28, 16)  # the 28 * and 16 O of its BO
    assert second.setup is None and second.moves == ["e6", "f4", "c3"]
    assert second.result == "0-1" and second.termination == "recorded"


def test_ggf_refuses_what_it_cannot_play_in_one_line():
    with pytest.raises(RecordError, match=r"TY\[a8\] is anti-Othello"):
        parse_records("(;GM[Othello]TY[a8]B[f5];)", "g.ggf")
    with pytest.raises(RecordError, match=r"TY\[10\]: a 10×10 board is not supported"):
        parse_records("(;GM[Othello]TY[10]B[f5];)", "g.ggf")
    with pytest.raises(RecordError, match=r"random-start game .* without its start"):
        parse_records("(;GM[Othello]TY[8r18]B[f5];)", "g.ggf")
    with pytest.raises(RecordError, match="is not Othello"):
        parse_records("(;GM[Go]B[aa];)", "g.ggf")
    with pytest.raises(RecordError, match="White is to move"):
        parse_records("(;GM[Othello]B[f5]B[d6];)", "g.ggf")


def test_ggs_synchro_random_start_pair_reads_as_two_games():
    """A GGS match line as the server archives a synchro game of type s8r18: the
    game count, then the two games, each from the same random 18-disc start."""
    first, second = load_records(FORMATS / "ggs-synchro-s8r18.ggf")
    for rec in (first, second):
        assert rec.setup == "2xxo3/2xx4/2xoo3/xxxxoo2/3ox3/2o1x3/8/8 x"
        assert rec.initial().counts() == (11, 7)  # 18 discs
        assert rec.result == "0-1" and rec.termination == "normal"
        assert rec.final().counts() == (27, 37)  # RE[-10.000]
    assert (first.tags["Black"], second.tags["Black"]) == ("edax", "Roxane")
    assert len(first.moves) == 46 and second.moves[-7] == "pass"
    back = parse_records(write_games([first, second], "ggf"), "pair.ggf")
    assert [r.moves for r in back] == [first.moves, second.moves]
    assert [r.setup for r in back] == [first.setup, second.setup]


def test_ggf_game_types_of_8x8_othello():
    board = "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
    for kind in ("8", "s8", "8r20", "s8r18", "k8", "8b"):
        (rec,) = parse_records(f"(;GM[Othello]TY[{kind}]{board}B[f5]W[d6];)", "t.ggf")
        assert rec.moves == ["f5", "d6"], kind


def test_a_real_wthor_file_reads_with_its_header_and_writes_back_byte_for_byte():
    """The 1977 games of the French federation's WTHOR database (the World Championship)."""
    data = (FORMATS / "WTH_1977.wtb").read_bytes()
    records = load_records(FORMATS / "WTH_1977.wtb")
    assert len(records) == 12 and all(r.termination == "normal" for r in records)
    assert records[0].tags["Year"] == "1977" and records[0].tags["Depth"] == "24"
    assert records[0].tags["TheoreticalScore"] == "41"
    assert [r.result for r in records].count("1-0") == 6
    assert write_games(records, "wtb") == data  # the header's date and depth kept
    back = parse_records(write_games(records, "pgn"), "1977.pgn")
    assert write_games(back, "wtb") == data


def test_connect_four_solver_test_lines_with_their_scores():
    records = load_records(DATA / "c4" / "end_easy_sample.txt")
    assert records[0].moves[:4] == ["2", "2", "5", "2"] and records[0].tags["Score"] == "-1"
    text = write_games(records, "c4")
    assert text.splitlines()[0] == "2252576253462244111563365343671351441 -1"
    assert [r.tags["Score"] for r in parse_records(text, "c4.txt")] == \
        [r.tags["Score"] for r in records]


def _wthor(games: list[tuple[int, int, int, int, int, list[str]]]) -> bytes:
    """A WTHOR file laid out byte by byte from the format's published description."""
    header = bytes([20, 10, 7, 14]) + struct.pack("<I", len(games)) + struct.pack("<H", 0) \
        + struct.pack("<H", 2010) + bytes([8, 0, 22, 0])
    body = b""
    for tourn, black, white, score, theory, moves in games:
        squares = bytes(10 * int(m[1]) + "abcdefgh".index(m[0]) + 1 for m in moves)
        body += struct.pack("<HHH", tourn, black, white) + bytes([score, theory])
        body += squares + bytes(60 - len(squares))
    return header + body


def test_wthor_file_laid_out_from_its_description(tmp_path):
    games = load_records(FORMATS / "othello-transcripts.txt")
    passes = next(rec for rec in games if "pass" in rec.moves)
    woc = games[-1]
    data = _wthor([(12, 345, 678, 32, 32, [m for m in woc.moves if m != "pass"]),
                   (1, 2, 3, 0, 0, [m for m in passes.moves if m != "pass"]),
                   (1, 2, 3, 40, 40, ["f5", "d6", "c3"])])
    assert data[16 + 8] == 56  # f5 is 10 * row + column
    path = tmp_path / "WTH_2010.wtb"
    path.write_bytes(data)
    one, two, three = load_records(path)
    assert one.moves == woc.moves and one.result == "1/2-1/2"
    assert one.tags["Tournament"] == "12" and one.tags["BlackNo"] == "345"
    assert two.moves == passes.moves and two.result == passes.result
    assert three.moves == ["f5", "d6", "c3"] and three.result == "1-0"
    assert three.termination == "recorded"
    assert parse_records(data, "no-extension")[0].moves == woc.moves  # found by content


@pytest.mark.parametrize("mutate, reason", [
    (lambda d: d[:-1], "the header counts 3 games"),
    (lambda d: d[:12] + bytes([10]) + d[13:], "board size 10"),
    (lambda d: d[:16 + 8] + bytes([99]) + d[16 + 9:], "byte 99 is no square"),
    (lambda d: d[:16 + 6] + bytes([20]) + d[16 + 7:], "contradicts the final position"),
])
def test_bad_wthor_files_are_one_line(mutate, reason):
    woc = load_records(FORMATS / "othello-transcripts.txt")[-1]
    data = _wthor([(0, 0, 0, 32, 32, [m for m in woc.moves if m != "pass"])] * 3)
    with pytest.raises(RecordError, match=reason) as info:
        parse_records(mutate(data), "bad.wtb", ".wtb")
    assert "\n" not in str(info.value)


# --------------------------------------------------------------------------- checkers


def test_a_real_pdn_archive_of_many_games():
    """200 of Marion Tinsley's games (1946-1954) as a checkers program ships them: no
    GameType tag, captures written in short form, simple moves sometimes with x."""
    records = load_records(FORMATS / "tinsley-1946-1954.pdn")
    assert len(records) == 200 and all(rec.game == "checkers" for rec in records)
    assert sum(len(rec.moves) for rec in records) == 10142
    results = {r: sum(rec.result == r for rec in records) for r in ("1-0", "0-1", "1/2-1/2")}
    assert results == {"1-0": 14, "0-1": 26, "1/2-1/2": 160}
    assert records[0].tags["Black"] == "MF Tinsley" and records[0].moves[-1] == "24x15x6"
    # the results are from the first player's (Black's) view: the side said to win
    # is, more often than not, ahead in men when the game stops
    ahead = {r: sum(len(rec.final().pieces(0)) - len(rec.final().pieces(1))
                    for rec in records if rec.result == r) for r in ("1-0", "0-1")}
    assert ahead["1-0"] > 0 > ahead["0-1"]


def test_a_pdn_game_with_a_broken_comment_is_refused_in_one_line():
    with pytest.raises(RecordError) as info:
        load_records(FORMATS / "tinsley-glued-comment.pdn")
    message = str(info.value)
    assert "line 7: move 31:" in message and "is not a checkers move" in message
    assert "\n" not in message and len(message) < 250


def test_the_pdn_standard_checkers_example():
    # its movetext ends with * though its Result tag says 1/2-1/2: refused, one line
    with pytest.raises(RecordError, match=r"line 16: movetext ends with \* but the Result "
                                          r"tag says 1/2-1/2"):
        load_records(FORMATS / "pdn3-standard-example.pdn")
    text = (FORMATS / "pdn3-standard-example.pdn").read_text().replace(" *", " 1/2-1/2")
    (rec,) = parse_records(text, "example.pdn", ".pdn")
    assert rec.tags["Event"] == "Double Corner Dyke"  # duplicate tag: the first
    assert rec.moves[-2] == "7x16x23" and len(rec.moves) == 48  # 7x23 resolved
    assert rec.result == "1/2-1/2" and rec.termination == "recorded"
    assert rec.comments[5].startswith("Forms the Double Corner Dyke")


def test_a_pdn_game_played_on_past_a_draw_by_rule_stops_there():
    # kings shuffle: a threefold repetition ends the replay, the record goes on
    fen = "B:WK29:BK4"
    shuffle = "1. 4-8 29-25 2. 8-4 25-29 3. 4-8 29-25 4. 8-4 25-29 5. 4-8 29-25 1/2-1/2"
    (rec,) = parse_records(f'[GameType "21"]\n[FEN "{fen}"]\n\n{shuffle}\n', "r.pdn")
    assert rec.final().outcome().termination == "threefold repetition"
    assert len(rec.moves) == 8 and "goes on for 2 more moves" in rec.comments[8]
    assert rec.result == "1/2-1/2" and rec.termination == "normal"


def test_a_game_played_on_after_a_repetition_ends_there_as_a_draw_and_exports_so():
    # docs/RULES.md: threefold repetition is a draw; the record's 0-1 stays in the note
    fen = "B:WK29:BK4"
    shuffle = "1. 4-8 29-25 2. 8-4 25-29 3. 4-8 29-25 4. 8-4 25-29 5. 4-8 29-25 0-1"
    text = f'[GameType "21"]\n[FEN "{fen}"]\n[Result "0-1"]\n\n{shuffle}\n'
    (rec,) = parse_records(text, "r.pdn")
    assert len(rec.moves) == 8 and rec.result == "1/2-1/2" and rec.termination == "normal"
    assert "goes on for 2 more moves after the threefold repetition, and gives 0-1" in \
        rec.comments[8]
    for fmt in ("pdn", "pgn"):
        (back,) = parse_records(write_games([rec], fmt), f"r.{fmt}", f".{fmt}")
        assert back.moves == rec.moves and back.result == "1/2-1/2"
        assert back.comments[8] == rec.comments[8]


def test_a_pdn_result_tag_contradicting_the_closing_marker_is_refused():
    text = '[GameType "21"]\n[Result "2-0"]\n\n1. 11-15 22-18 *\n'
    with pytest.raises(RecordError, match=r"r\.pdn: line 4: movetext ends with \* but the "
                                          r"Result tag says 2-0"):
        parse_records(text, "r.pdn")
    (rec,) = parse_records(text.replace("*", "2-0"), "r.pdn")
    assert rec.result == "1-0" and rec.termination == "recorded"


def test_a_collection_reads_its_good_games_and_names_each_damaged_one():
    found = read_collection((FORMATS / "tinsley-damaged.pdn").read_bytes(), "t.pdn", ".pdn")
    assert found.total == 20 and len(found.records) == 17
    assert found.numbers == [n for n in range(1, 21) if n not in (3, 8, 18)]
    assert [(d.number, d.line) for d in found.damaged] == [(3, 36), (8, 86), (18, 195)]
    assert str(found.damaged[0]) == ("t.pdn: game 3: line 36: move 123: illegal move "
                                     "'32-28' for Black at ply 122")
    assert found.records[0].tags["Black"] == "M Tinsley"
    with pytest.raises(RecordError, match=r"t\.pdn: line 36: move 123"):  # all or nothing
        parse_records((FORMATS / "tinsley-damaged.pdn").read_bytes(), "t.pdn", ".pdn")
    wthor = bytearray((FORMATS / "WTH_1977.wtb").read_bytes())
    wthor[16 + 68 + 8] = 99  # game 2's first move: no square
    found = read_collection(bytes(wthor), "w.wtb", ".wtb")
    assert len(found.records) == 11 and found.numbers[:2] == [1, 3]
    assert str(found.damaged[0]) == ("w.wtb: game 2: move 1: byte 99 is no square "
                                     "(10 × row + column, 11 to 88)")  # no lines in WTHOR
    found = read_collection("f5d6\nf5a1\nf5d6c3\n", "x.txt", ".txt")
    assert [r.moves for r in found.records] == [["f5", "d6"], ["f5", "d6", "c3"]]
    assert str(found.damaged[0]).startswith("x.txt: game 2: line 2: move 2: illegal move 'a1'")


def test_pdn_as_checkers_programs_write_it():
    game, setup = load_records(FORMATS / "features.pdn")
    assert game.game == "checkers" and len(game.moves) == 53
    assert "13x22x29" in game.moves and "5x14x23" in game.moves  # short forms resolved
    assert game.result == "1-0" and game.termination == "normal"  # "2-0", Black won
    assert game.tags["Black"] == "Random, A"  # a duplicate tag keeps the first value
    assert game.comments[4] == "A comment that goes on over two lines"
    assert "26x19" in game.moves and game.moves.count("26x19") == 1  # variation skipped
    assert setup.setup == "W:W18,24,K10:B12,K3,14" and setup.moves == ["18x9", "3-7"]
    assert setup.initial().to_move == 1


def test_pdn_ambiguous_short_capture_names_the_candidates():
    text = ('[GameType "21"]\n[SetUp "1"]\n[FEN "B:W14,15,22,23,32:BK10"]\n\n'
            "1. 10x10 *\n")
    with pytest.raises(RecordError, match=r"line 5: move 1: '10x10' is ambiguous: it may be "
                                          r"10x17x26x19x10, 10x19x26x17x10"):
        parse_records(text, "a.pdn", ".pdn")
    (rec,) = parse_records(text.replace("10x10", "10x19x26x10"), "a.pdn", ".pdn")
    assert rec.moves == ["10x19x26x17x10"]


def test_pdn_results_and_game_types():
    (rec,) = parse_records('[GameType "21"]\n[Result "1-1"]\n1. 11-15 22-18 1-1\n', "r.pdn")
    assert rec.result == "1/2-1/2" and rec.termination == "recorded"
    with pytest.raises(RecordError, match="GameType '20' is not English checkers"):
        parse_records('[GameType "20"]\n1. 32-28 *\n', "i.pdn")
    with pytest.raises(RecordError, match="unclosed comment"):
        parse_records('[GameType "21"]\n1. 11-15 {never closed\n', "c.pdn")


# --------------------------------------------------------------------------- others


def test_connect_four_column_strings():
    first, second = parse_records("4453\n# a comment\n444444\n", "c4.txt")
    assert first.moves == ["4", "4", "5", "3"] and first.result == "*"
    assert second.moves == ["4"] * 6
    with pytest.raises(RecordError, match="line 1: move 7: illegal move '4'"):
        parse_records("4444444\n", "full.txt")


def test_a_file_in_no_format_says_which_were_tried():
    with pytest.raises(RecordError) as info:
        parse_records("hello world\nthis is not a game\n", "notes.txt", ".txt")
    message = str(info.value)
    assert "not a game file" in message and TRIED in message and "\n" not in message


def test_parlor_records_read_set_up_positions():
    text = ('[Game "tictactoe"]\n[SetUp "1"]\n[FEN "x2/1o1/3 x"]\n[Result "*"]\n\n1. c3 *\n')
    (rec,) = parse_records(text)
    assert rec.setup == "x2/1o1/3 x" and rec.final().to_position() == "x1x/1o1/3 o"
    assert parse_records(rec.to_text())[0].setup == rec.setup
    with pytest.raises(RecordError, match="line 3: tictactoe: bad position"):
        parse_records(text.replace("x2/1o1/3 x", "xxx/3/3 o"))


# --------------------------------------------------------------------------- round trips


def _random_game(game: str, seed: int, start=None, options=None) -> GameRecord:
    rng = random.Random(seed)
    state = start or new_game(game, **(options or {}))
    first, moves = state, []
    while state.legal_moves() and len(moves) < 300 and not (seed % 3 == 0 and len(moves) > 20):
        move = rng.choice(state.legal_moves())
        moves.append(move)
        state = state.play(move)
    extra = {} if state.outcome() else {"Result": "*"}
    return GameRecord.from_moves(first, moves, Event=f"seed {seed}", **extra)


def _same(a: GameRecord, b: GameRecord) -> None:
    assert b.game == a.game and b.moves == a.moves and b.result == a.result
    assert b.initial().key() == a.initial().key()


ROUND_TRIPS = [
    ("pdn", "checkers", None), ("pgn", "checkers", None), ("pgn", "morris", None),
    ("pgn", "gomoku", None), ("ggf", "reversi", None), ("transcript", "reversi", None),
    ("wtb", "reversi", None), ("c4", "connect4", None), ("pgn", "tictactoe", None),
    ("pdn", "checkers", "W:W18,24,K10:B12,K3,14"),
    ("ggf", "reversi", "6/6/2ox2/2xx2/2x3/6 o"),
    ("pgn", "morris", "3/1w1/4/3/3 b 4 5"),
]


@pytest.mark.parametrize("fmt, game, setup", ROUND_TRIPS)
def test_read_write_read_keeps_moves_result_and_start(fmt, game, setup):
    from engine.positions import parse_position

    start = parse_position(game, setup) if setup else None
    records = [_random_game(game, seed, start) for seed in range(6)]
    if fmt == "wtb":  # WTHOR holds finished games, placements only
        records = [r for r in records if r.result != "*"]
    data = write_games(records, fmt)
    suffix = {"transcript": ".txt", "c4": ".txt"}.get(fmt, f".{fmt}")
    back = parse_records(data, f"out{suffix}", suffix)
    assert len(back) == len(records)
    for a, b in zip(records, back, strict=False):
        _same(a, b)
    again = write_games(back, fmt)
    if fmt != "wtb":  # the WTHOR header holds today's date
        assert again == data


def test_writers_refuse_games_their_format_cannot_hold():
    checkers = _random_game("checkers", 1)
    flip = _random_game("reversi", 1, options={"variant": "flipcolor", "size": 6, "seed": 2})
    with pytest.raises(RecordError, match="PDN holds checkers only"):
        write_games([_random_game("reversi", 1)], "pdn")
    with pytest.raises(RecordError, match="GGF holds reversi only"):
        write_games([checkers], "ggf")
    with pytest.raises(RecordError, match="FlipColor"):
        write_games([flip], "ggf")
    with pytest.raises(RecordError, match="size"):
        write_games([flip], "wtb")


# --------------------------------------------------------------------------- hostile input

_PIECES = st.sampled_from([
    "(;GM[Othello]", "B[f5]", "W[", ";)", "BO[8 ", "RE[+3]", "TY[6]", "[GameType \"21\"]",
    "[FEN \"B:W", "K1,", "1. ", "11-15", "x", "{", "}", "(", ")", "$1", "2-0", "f5d6",
    "pass", "4453", "\n", " ", "\x00", "\xff", "[Game \"reversi\"]", "[SetUp \"1\"]", "*",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(_PIECES, max_size=40), suffix=st.sampled_from(
    ["", ".pdn", ".ggf", ".wtb", ".txt", ".pgn"]), raw=st.binary(max_size=300))
def test_any_input_is_games_or_one_line_record_error(parts, suffix, raw):
    for data in ("".join(parts), "".join(parts).encode("utf-8", "surrogatepass"), raw):
        try:
            records = parse_records(data, "fuzz", suffix)
        except RecordError as exc:
            assert "\n" not in str(exc) and len(str(exc)) < 400
        else:
            assert records and all(rec.states() for rec in records)


def test_wthor_names_files_beside_the_games_name_players_and_tournaments(tmp_path):
    woc = load_records(FORMATS / "othello-transcripts.txt")[-1]
    (tmp_path / "WTH_2010.wtb").write_bytes(
        _wthor([(1, 2, 0, 32, 32, [m for m in woc.moves if m != "pass"])]))
    header = bytes(16)
    players = [b"Nobody", b"Van den Biggelaar Ni", "Takanashi Yusuke".encode("latin-1")]
    (tmp_path / "WTHOR.JOU").write_bytes(header + b"".join(p.ljust(20, b"\0") for p in players))
    (tmp_path / "wthor.trn").write_bytes(header + b"?".ljust(26, b"\0")
                                          + b"Championnat du Monde".ljust(26, b"\0"))
    (rec,) = load_records(tmp_path / "WTH_2010.wtb")
    assert rec.tags["Black"] == "Takanashi Yusuke" and rec.tags["White"] == "Nobody"
    assert rec.tags["Event"] == "Championnat du Monde" and rec.tags["BlackNo"] == "2"
    (tmp_path / "WTHOR.JOU").write_bytes(header + b"x" * 7)
    with pytest.raises(RecordError, match="not a WTHOR names file"):
        load_records(tmp_path / "WTH_2010.wtb")


def test_pdn_multiple_capture_written_hop_by_hop():
    game = load_records(FORMATS / "features.pdn")[0]
    hops = (FORMATS / "features.pdn").read_text().split("\n\n[Event")[0]
    hops = hops.replace("20. 13x29", "20. 13x22 22x29").replace("23. 5x23", "23. 5x14 14x23")
    (rec,) = parse_records(hops, "hops.pdn", ".pdn")
    assert rec.moves == game.moves
    with pytest.raises(RecordError, match=r"move 39: the capture '13x22' is not finished"):
        parse_records(hops.replace("13x22 22x29", "13x22 11-7"), "cut.pdn", ".pdn")


# --------------------------------------------------------------------------- reading back

_HOLDS = [("pgn", game, {}) for game in ("checkers", "connect4", "gomoku", "morris",
                                         "reversi", "tictactoe")] + [
    ("pgn", "reversi", {"size": 6, "variant": "flipcolor", "seed": 3}),
    ("pdn", "checkers", {}), ("ggf", "reversi", {}), ("ggf", "reversi", {"size": 6}),
    ("ggf", "reversi", {"size": 4}), ("transcript", "reversi", {}), ("wtb", "reversi", {}),
    ("c4", "connect4", {}),
]
"""Each format with the games (and options) it holds."""


def _suffix(fmt: str) -> str:
    return {"transcript": ".txt", "c4": ".txt"}.get(fmt, f".{fmt}")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(holds=st.sampled_from(_HOLDS), seeds=st.lists(st.integers(0, 10_000), min_size=1,
                                                      max_size=3),
       stop=st.integers(0, 90), ending=st.sampled_from(["*", "1-0", "0-1", "1/2-1/2"]))
def test_parlor_reads_back_everything_it_writes(holds, seeds, stop, ending):
    fmt, game, options = holds
    records = []
    for seed in seeds:
        rng = random.Random(seed)
        state = first = new_game(game, **options)
        moves: list = []
        while state.legal_moves() and len(moves) < stop + seed % 40:
            moves.append(rng.choice(state.legal_moves()))
            state = state.play(moves[-1])
        extra = {} if state.outcome() else {"Result": ending, "Termination": "resignation"}
        if ending == "*" and not state.outcome():
            extra = {"Result": "*"}
        records.append(GameRecord.from_moves(first, moves, Event=f"seed {seed}", **extra))
    if fmt in ("transcript", "c4") and not all(r.moves for r in records):
        with pytest.raises(RecordError, match=r"has no moves, which .* cannot hold"):
            write_games(records, fmt)  # an empty line would be no game
        return
    if fmt == "wtb" and any(r.result == "*" for r in records):
        with pytest.raises(RecordError, match="unfinished without a result, which WTHOR"):
            write_games(records, fmt)  # its games all have Black's final disc count
        return
    data = write_games(records, fmt)
    back = parse_records(data, f"back{_suffix(fmt)}", _suffix(fmt))
    assert [r.moves for r in back] == [r.moves for r in records]
    assert [r.initial().key() for r in back] == [r.initial().key() for r in records]
    for a, b in zip(records, back, strict=True):
        assert b.result == a.result or (b.result == "*" and fmt in ("transcript", "c4"))
    assert write_games(back, fmt) == data  # and what it reads, it writes the same


@pytest.mark.parametrize("name", sorted(p.name for p in FORMATS.iterdir()
                                        if p.suffix in (".pdn", ".ggf", ".wtb", ".txt")))
def test_real_files_read_back_in_every_format_that_holds_their_games(name):
    from engine.formats import load_collection

    found = load_collection(FORMATS / name)
    games = {rec.game for rec in found.records}
    for fmt, game, options in _HOLDS:
        if games != {game} or (options and fmt == "pgn"):
            continue
        try:
            data = write_games(found.records, fmt)
        except RecordError as exc:  # set-up starts that the format cannot hold
            assert "set-up position" in str(exc) or "does not start" in str(exc)
            continue
        back = parse_records(data, f"back{_suffix(fmt)}", _suffix(fmt))
        assert [r.moves for r in back] == [r.moves for r in found.records], fmt
        assert write_games(back, fmt) == data, fmt
