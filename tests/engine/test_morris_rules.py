"""Five Men's Morris: one test per clause of docs/RULES.md (Five Men's Morris), and the
independent cross-check.

Positions are reached by playing moves, or set up with ``MorrisState.from_board`` (board
string in point order a5 c5 e5 b4 c4 d4 a3 b3 d3 e3 b2 c2 d2 a1 c1 e1).
"""

from __future__ import annotations

import random

import pytest

from engine import IllegalMoveError, InvalidMoveError, Result, new_game
from engine.games.morris import ADJACENT, MILLS, POINT_INDEX, POINTS, MorrisState
from tests.engine.morris_reference import RefState


def P(name: str) -> int:
    """Point number of ``name``."""
    return POINT_INDEX[name]


def board(**points: str) -> str:
    """A board string with the given points set: ``board(a5="W", b2="B")``."""
    cells = ["."] * 16
    for name, colour in points.items():
        cells[P(name)] = colour
    return "".join(cells)


def texts(state: MorrisState) -> set[str]:
    return {state.format_move(m) for m in state.legal_moves()}


# ----------------------------------------------------------------------------- board


def test_morris_board_has_sixteen_points_on_two_squares():
    assert len(POINTS) == 16 and len(set(POINTS)) == 16
    assert "c3" not in POINTS  # no centre point


def test_morris_adjacency_rings_and_spokes_without_diagonals():
    def linked(a: str, b: str) -> bool:
        return P(b) in ADJACENT[P(a)] and P(a) in ADJACENT[P(b)]

    for ring in ("a5 c5 e5 e3 e1 c1 a1 a3", "b4 c4 d4 d3 d2 c2 b2 b3"):
        pts = ring.split()
        assert all(linked(a, b) for a, b in zip(pts, pts[1:] + pts[:1], strict=True))
    assert all(linked(*s.split()) for s in ("c5 c4", "a3 b3", "e3 d3", "c1 c2"))
    assert not linked("a5", "b4") and not linked("c4", "c2")
    assert sum(len(n) for n in ADJACENT) == 2 * (8 + 8 + 4)


def test_morris_mills_are_the_eight_sides_and_spokes_never_mill():
    assert len(MILLS) == 8
    names = {frozenset(POINTS[p] for p in mill) for mill in MILLS}
    assert frozenset({"a5", "c5", "e5"}) in names and frozenset({"b4", "b3", "b2"}) in names
    # c5, c4 and c2 hold White pieces after c2 is placed, but c4-c2 is no line
    state = new_game("morris").play_line("c5 a1 c4 e1")
    assert all(m[2] is None for m in state.legal_moves())


# ----------------------------------------------------------------------------- play


def test_morris_each_player_starts_with_five_in_hand_and_white_first():
    state = new_game("morris")
    assert state.to_move == 0 and state.PLAYERS[0] == "White"
    assert state.in_hand(0) == state.in_hand(1) == 5


def test_morris_placing_phase_places_on_any_empty_point():
    state = new_game("morris")
    assert texts(state) == set(POINTS)
    after = state.play_text("b4")
    assert after.piece_at(P("b4")) == 0 and after.in_hand(0) == 4
    assert texts(after) == set(POINTS) - {"b4"}
    assert after.phase_of(1) == "placing"


def test_morris_moving_phase_steps_to_adjacent_empty_points():
    state = MorrisState.from_board(board(b4="W", a1="W", e1="W", d2="W",
                                         c4="B", c1="B", a3="B", e5="B"))
    assert state.phase_of(0) == "moving"
    from_b4 = {t for t in texts(state) if t.startswith("b4-")}
    assert from_b4 == {"b4-b3"}  # c4 is taken; b4 has no other neighbour
    assert "d2-d3" in texts(state) and "d2-a5" not in texts(state)
    assert all("-" in t for t in texts(state))


def test_morris_flying_at_exactly_three_pieces_in_moving_phase():
    state = MorrisState.from_board(board(a5="W", c4="W", d2="W",
                                         b2="B", e3="B", c1="B", a3="B"))
    assert state.phase_of(0) == "flying" and state.phase_of(1) == "moving"
    empties = 16 - 7
    assert len(state.legal_moves()) == 3 * empties
    assert "a5-e1" in texts(state)
    black = MorrisState.from_board(board(a5="W", c4="W", d2="W",
                                         b2="B", e3="B", c1="B", a3="B"), to_move=1)
    assert "b2-e5" not in texts(black)  # four pieces: no flying


def test_morris_three_on_board_with_pieces_in_hand_is_placing_not_flying():
    state = new_game("morris").play_line("a5 b4 e1 b2 c2")
    assert state.phase_of(0) == "placing" and state.on_board(0) == 3


def test_morris_mill_completion_removes_one_opponent_piece():
    state = new_game("morris").play_line("a5 b4 c5 c4")
    assert {t for t in texts(state) if t.startswith("e5")} == {"e5xb4", "e5xc4"}
    assert "e5" not in texts(state)  # the removal is not optional
    after = state.play_text("e5xc4")
    assert after.piece_at(P("c4")) is None and after.on_board(1) == 1


def test_morris_removal_is_part_of_the_same_move():
    state = new_game("morris").play_line("a5 b4 c5 c4")
    after = state.play_text("e5xb4")
    assert after.to_move == 1 and after.ply == state.ply + 1
    assert after.piece_at(P("e5")) == 0 and after.piece_at(P("b4")) is None


def test_morris_removal_not_from_mill_while_free_pieces_exist():
    state = MorrisState.from_board(board(a5="W", c5="W", b4="B", c4="B", d4="B", a1="B"),
                                   in_hand=(1, 0))
    assert {t for t in texts(state) if t.startswith("e5")} == {"e5xa1"}
    with pytest.raises(IllegalMoveError, match="stands in a mill"):
        state.parse_move("e5xc4")


def test_morris_removal_allowed_from_mill_when_all_pieces_in_mills():
    state = MorrisState.from_board(board(a5="W", c5="W", b4="B", c4="B", d4="B"),
                                   in_hand=(1, 2))
    assert {t for t in texts(state) if t.startswith("e5")} == {"e5xb4", "e5xc4", "e5xd4"}


def test_morris_two_mills_at_once_remove_one_piece():
    state = MorrisState.from_board(board(c5="W", e5="W", a3="W", a1="W", b2="B", d2="B"),
                                   in_hand=(1, 3))
    at_a5 = {t for t in texts(state) if t.startswith("a5")}
    assert at_a5 == {"a5xb2", "a5xd2"}
    after = state.play_text("a5xb2")
    assert after.on_board(1) == 1 and after.in_hand(1) == 3


def test_morris_mill_must_be_new_not_already_full():
    # White's a5 c5 e5 stands; moving another piece completes nothing
    state = MorrisState.from_board(board(a5="W", c5="W", e5="W", b2="W",
                                         c4="B", d3="B", e1="B", a1="B"))
    assert all(m[2] is None for m in state.legal_moves())
    # breaking the mill and closing it again is a new mill
    back = state.play_line("e5-e3 e1-c1")
    assert {t for t in texts(back) if t.startswith("e3-e5")} == {
        "e3-e5xc4", "e3-e5xd3", "e3-e5xc1", "e3-e5xa1"}


def test_morris_loss_when_pieces_on_board_plus_in_hand_below_three():
    state = MorrisState.from_board(board(a5="W", c5="W", b2="B"), in_hand=(1, 2))
    after = state.play_text("e5xb2")
    assert after.on_board(1) + after.in_hand(1) == 2
    assert after.legal_moves() == ()
    assert after.outcome().result is Result.FIRST_WINS
    assert after.outcome().termination == "fewer than three pieces"


def test_morris_loss_when_blocked_in_moving_phase():
    state = MorrisState.from_board("BBB.W.B..WW..W..")  # White b2-b3 shuts a3 in
    assert state.outcome() is None
    after = state.play_text("b2-b3")
    assert after.legal_moves() == ()
    assert after.outcome().result is Result.FIRST_WINS
    assert after.outcome().termination == "blocked"


def test_morris_draw_by_threefold_repetition():
    state = MorrisState.from_board(board(a5="W", c4="W", d2="W", e1="W",
                                         b2="B", e3="B", c1="B", a3="B"))
    shuffle = "a5-c5 b2-b3 c5-a5 b3-b2"
    twice = state.play_line(shuffle)
    assert twice.key() == state.key() and twice.outcome() is None
    thrice = twice.play_line(shuffle)
    assert thrice.legal_moves() == ()
    assert thrice.outcome().result is Result.DRAW
    assert thrice.outcome().termination == "threefold repetition"


def test_morris_draw_after_100_plies_without_removal():
    state = MorrisState.from_board(board(a5="W", c4="W", d2="W", e1="W",
                                         b2="B", e3="B", c1="B", a3="B"), no_removal=98)
    one = state.play_text("a5-c5")
    assert one.no_removal == 99 and one.outcome() is None
    two = one.play_text("b2-b3")
    assert two.outcome().result is Result.DRAW
    assert two.outcome().termination == "100 plies without removal"


def test_morris_removal_resets_the_100_ply_counter():
    state = MorrisState.from_board(board(a5="W", c5="W", e3="W", b2="W",
                                         c4="B", d3="B", e1="B", a1="B"), no_removal=99)
    after = state.play_text("e3-e5xa1")
    assert after.no_removal == 0 and after.outcome() is None


# ----------------------------------------------------------------------------- state


def test_morris_key_is_board_hands_and_side_to_move_only():
    layout = board(a5="W", c4="W", d2="W", e1="W", b2="B", e3="B", c1="B", a3="B")
    base = MorrisState.from_board(layout)
    assert MorrisState.from_board(layout, no_removal=40, ply=77).key() == base.key()
    assert MorrisState.from_board(layout, to_move=1).key() != base.key()
    fewer = board(a5="W", c4="W", d2="W", b2="B", e3="B", c1="B", a3="B")
    assert MorrisState.from_board(fewer, in_hand=(1, 0)).key() != \
        MorrisState.from_board(fewer).key()


def test_morris_play_never_mutates_the_parent():
    state = new_game("morris").play_line("a5 b4 c5 c4")
    before = (state.key(), str(state), state.no_removal, state.history)
    state.play_text("e5xb4")
    assert (state.key(), str(state), state.no_removal, state.history) == before


def test_morris_encode_is_side_to_move_relative():
    state = new_game("morris").play_line("a5")
    vec = state.encode()
    assert vec.dtype.name == "float32" and vec.shape == (37,)
    assert vec[16 + P("a5")] == 1.0 and vec[P("a5")] == 0.0  # a5 is the opponent's
    assert vec[32] == 1.0 and vec[33] == pytest.approx(0.8)


def test_morris_str_shows_coordinates_and_pieces():
    text = str(new_game("morris").play_line("a5 e1"))
    assert text.splitlines()[0].startswith("5  W") and "a   b     c     d   e" in text
    assert "in hand: White 4, Black 4" in text


# ----------------------------------------------------------------------------- notation


def test_morris_notation_round_trips_over_random_games():
    for seed in range(5):
        rng = random.Random(seed)
        state = new_game("morris")
        while state.legal_moves():
            for move in state.legal_moves():
                assert state.parse_move(state.format_move(move)) == move
            state = state.play(rng.choice(state.legal_moves()))


def test_morris_notation_examples_from_rules():
    state = new_game("morris").play_line("a5 b4 c5 c4")
    assert state.parse_move("e5xb4") == (None, P("e5"), P("b4"))
    assert state.parse_move(" E5XB4 ") == (None, P("e5"), P("b4"))
    moving = MorrisState.from_board(board(a5="W", c4="W", d2="W", e1="W",
                                          b2="B", e3="B", c1="B", a3="B"))
    assert moving.format_move(moving.parse_move("a5-c5")) == "a5-c5"


@pytest.mark.parametrize("text", ["z9", "b1", "a5-", "a5c5", "e5xx", "", "a5-c5-e5"])
def test_morris_invalid_text_raises_invalid_move_error(text):
    with pytest.raises(InvalidMoveError, match=repr(text.strip())):
        new_game("morris").parse_move(text)


def test_morris_illegal_moves_raise_illegal_move_error_naming_the_input():
    state = new_game("morris").play_line("b4")
    with pytest.raises(IllegalMoveError, match=r"'b4'.*occupied"):
        state.parse_move("b4")
    with pytest.raises(IllegalMoveError, match="'a5-c5'"):
        state.parse_move("a5-c5")
    with pytest.raises(IllegalMoveError, match="'c5xb4'"):
        state.parse_move("c5xb4")
    with pytest.raises(IllegalMoveError):
        state.play((None, P("b4"), None))
    with pytest.raises(IllegalMoveError, match="closes a mill"):
        new_game("morris").play_line("a5 b4 c5 c4").parse_move("e5")


def test_morris_moves_after_game_over_are_illegal():
    over = MorrisState.from_board("BBB.W.B..WW..W..").play_text("b2-b3")
    with pytest.raises(IllegalMoveError, match="game is over"):
        over.parse_move("a5-b4")


# ----------------------------------------------------------------------------- reference


def _reference_position(state: MorrisState) -> RefState:
    """The same position (with no history) in the reference implementation."""
    colours = {0: "W", 1: "B", None: None}
    ref = RefState({name: colours[state.piece_at(p)] for p, name in enumerate(POINTS)},
                   {"W": state.in_hand(0), "B": state.in_hand(1)},
                   "WB"[state.to_move], state.no_removal)
    ref.seen.append(ref.position())
    return ref


def _same_outcome(state: MorrisState, ref: RefState) -> bool:
    outcome = state.outcome()
    expected = ref.outcome()
    if outcome is None:
        return expected is None
    return {Result.FIRST_WINS: "W", Result.SECOND_WINS: "B",
            Result.DRAW: "draw"}[outcome.result] == expected


@pytest.mark.parametrize("seed", range(12))
def test_morris_engine_matches_independent_reference_on_random_games(seed):
    rng = random.Random(seed)
    state = new_game("morris")
    ref = RefState.start()
    while True:
        assert texts(state) == set(ref.legal_moves()), f"seed {seed} ply {state.ply}"
        assert _same_outcome(state, ref)
        if not state.legal_moves():
            break
        text = rng.choice(sorted(ref.legal_moves()))
        state, ref = state.play_text(text), ref.play(text)


def test_morris_engine_matches_reference_on_blocked_and_flying_positions():
    for state in (MorrisState.from_board("BBB.W.B..WW..W..").play_text("b2-b3"),
                  MorrisState.from_board(board(a5="W", c4="W", d2="W",
                                               b2="B", e3="B", c1="B", a3="B")),
                  MorrisState.from_board(board(a5="W", c5="W", b2="B"), in_hand=(1, 2))):
        ref = _reference_position(state)
        assert texts(state) == set(ref.legal_moves())
        assert _same_outcome(state, ref)
