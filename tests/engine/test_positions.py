"""Positions as text (docs/RULES.md, Positions): every game prints a position and reads
it back to the same position, and refuses anything else with one line."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import GAMES, PositionError, new_game
from engine.positions import MAX_POSITION, format_position, parse_position

SETUPS = [
    ("checkers", {}), ("connect4", {}), ("gomoku", {}), ("gomoku", {"size": 15}),
    ("morris", {}), ("reversi", {}), ("reversi", {"size": 6, "variant": "flipcolor", "seed": 3}),
    ("reversi", {"size": 4}), ("reversi", {"variant": "randomstart", "seed": 9}),
    ("tictactoe", {}),
]


def _playout(game: str, options: dict, seed: int, plies: int):
    import random

    rng = random.Random(seed)
    state = new_game(game, **options)
    out = [state]
    for _ in range(plies):
        moves = state.legal_moves()
        if not moves:
            break
        state = state.play(rng.choice(moves))
        out.append(state)
    return out


HISTORY_DRAWS = ("threefold repetition", "40-move rule")
"""Draws that depend on the moves before the position, which its text does not hold."""


def _same(a, b) -> None:
    assert b.key() == a.key()
    assert b.to_move == a.to_move
    outcome = a.outcome()
    if outcome is not None and outcome.termination in HISTORY_DRAWS:
        return
    assert b.legal_moves() == a.legal_moves()
    assert b.outcome() == outcome


@pytest.mark.parametrize("game, options", SETUPS, ids=lambda v: str(v))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 120))
def test_every_position_of_a_random_game_round_trips(game, options, seed, plies):
    for state in _playout(game, options, seed, plies)[-6:]:
        text = format_position(state)
        assert "\n" not in text and len(text) <= MAX_POSITION
        back = parse_position(game, text)
        _same(state, back)
        assert format_position(back) == text


def test_every_registered_game_has_a_position_form():
    for game in GAMES:
        start = new_game(game)
        _same(start, parse_position(game, start.to_position()))


@pytest.mark.parametrize("game, text", [
    ("checkers", "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"),
    ("checkers", "B:W21-32:B1-12"),
    ("connect4", "7/7/7/7/7/7 x"),
    ("gomoku", "9/9/9/9/9/9/9/9/9 x"),
    ("morris", "3/3/4/3/3 w 5 5"),
    ("reversi", "8/8/8/3ox3/3xo3/8/8/8 x"),
    ("tictactoe", "3/3/3 x"),
])
def test_the_start_position_in_the_documented_form(game, text):
    assert parse_position(game, text).key() == new_game(game).key()


def test_checkers_fen_as_pdn_writes_it():
    state = parse_position("checkers", "W:W18,24,K10:B12,K3.")
    assert state.to_move == 1
    assert state.pieces(1) == (10, 18, 24) and state.pieces(0) == (3, 12)
    assert state.piece_at(10).king and state.piece_at(3).king and not state.piece_at(12).king
    assert format_position(state) == "W:W10,18,24:B3,12".replace("W10", "WK10").replace(
        "B3", "BK3")


def test_positions_keep_what_the_game_needs():
    morris = parse_position("morris", "w2/3/4/3/2b b 3 4 17")
    assert (morris.in_hand(0), morris.in_hand(1), morris.no_removal) == (3, 4, 17)
    assert morris.to_move == 1
    flip = parse_position("reversi", "6/6/2ox2/2xo2/6/6 o a1,f6")
    assert flip.size == 6 and flip.drawn_squares == (0, 35) and flip.to_move == 1
    assert flip.options["variant"] == "flipcolor"
    won = parse_position("connect4", "7/7/7/o6/o6/oxxxx2 o")
    assert won.outcome() is not None and won.outcome().winner == 0
    big = parse_position("gomoku", "15/15/15/15/15/15/15/7x7/15/15/15/15/15/15/15 o")
    assert big.size == 15 and big.black.bit_count() == 1


@pytest.mark.parametrize("game, text, reason", [
    ("tictactoe", "x2/1o1/3 o", "X moves first"),
    ("tictactoe", "xxx/oo1/o2 x", "already has three"),
    ("tictactoe", "x2/1q1/3 o", "not a piece"),
    ("tictactoe", "x3/3/3 o", "longer than 3"),
    ("tictactoe", "3/3 x", "2 rows"),
    ("tictactoe", "3/3/3", "expected BOARD SIDE"),
    ("tictactoe", "3/3/3 z", "side to move"),
    ("connect4", "7/7/7/7/x6/7 o", "floats"),
    ("connect4", "7/7/7/7/7/xx5 o", "Red moves first"),
    ("gomoku", "8/8/8/8/8/8/8/8 x", "8 rows"),
    ("gomoku", "9/9/9/9/9/9/9/9/xxxxx4 x", "Black moves first"),
    ("morris", "3/3/4/3/3 w 6 5", "from 0 to 5"),
    ("morris", "www/ww1/4/3/3 w 1 5", "more than 5"),
    ("morris", "3/3/4/3/3 w 5 5 100000000000", "from 0 to 100"),
    ("reversi", "7/7/7/7/7/7/7 x", "7 rows"),
    ("reversi", "8/8/8/3ox3/3xo3/8/8/8 x a1,a1", "twice"),
    ("reversi", "8/8/8/3ox3/3xo3/8/8/8 x z9", "not a square"),
    ("checkers", "B:W21,22:B1,2,99", "1 to 32"),
    ("checkers", "B:W21:W22", "twice"),
    ("checkers", "X:W21:B1", "SIDE:WSQUARES"),
    ("checkers", "B:W1:B2", "crowning row"),
    ("checkers", "B:W5:B5", "twice"),
    ("checkers", "B:W5,Kx:B9", "not a square"),
])
def test_bad_positions_are_one_line_naming_the_reason(game, text, reason):
    with pytest.raises(PositionError, match=reason) as info:
        parse_position(game, text)
    message = str(info.value)
    assert "\n" not in message and message.startswith(game)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_hostile_position_text_is_quoted_short(game):
    junk = "\x1b[2J" + "x/" * 400 + "\n" * 3
    with pytest.raises(PositionError) as info:
        parse_position(game, junk)
    message = str(info.value)
    assert "\n" not in message and "\x1b" not in message and len(message) < 300
    with pytest.raises(PositionError, match="longer than"):
        parse_position(game, "x" * (MAX_POSITION + 1))
    with pytest.raises(PositionError, match="empty"):
        parse_position(game, "  \n ")


def test_a_pasted_position_names_its_game():
    from engine.positions import games_for

    assert games_for("B:W18,24,K10:B12,K3") == ["checkers"]
    assert games_for("7/7/7/7/7/3x3 o") == ["connect4"]
    assert games_for("3/3/4/3/3 w 5 5") == ["morris"]
    assert games_for("6/6/2ox2/2xo2/6/6 x") == ["reversi"]
    assert games_for("hello") == []
