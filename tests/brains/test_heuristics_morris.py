"""Morris heuristics: range, colour symmetry, obvious orderings and the move bonuses."""

from __future__ import annotations

import random

import pytest

from brains.heuristics.morris import (
    BLOCK_BONUS,
    DEFAULT,
    FEATURE_NAMES,
    HEURISTICS,
    MILL_BONUS,
    blocks_two,
    closes_mill,
    features,
    material,
    mills,
    mobility,
    move_bonus,
)
from engine import new_game
from engine.games.morris import POINT_INDEX, MorrisState


def board(**points: str) -> str:
    """A board string with the given points set: ``board(a5="W", b2="B")``."""
    cells = ["."] * 16
    for name, colour in points.items():
        cells[POINT_INDEX[name]] = colour
    return "".join(cells)


def swapped(state: MorrisState) -> MorrisState:
    """The same position with the colours exchanged (and the other side to move)."""
    text = state.board_string().translate(str.maketrans("WB", "BW"))
    return MorrisState.from_board(text, state.to_move ^ 1,
                                  (state.in_hand(1), state.in_hand(0)))


def random_positions(n_games: int = 6) -> list[MorrisState]:
    out = []
    for seed in range(n_games):
        rng = random.Random(seed)
        state = new_game("morris")
        while state.legal_moves():
            out.append(state)
            state = state.play(rng.choice(state.legal_moves()))
    return out


def test_default_is_a_heuristic_and_features_match_names():
    assert DEFAULT == "mills" and set(HEURISTICS) == {"material", "mobility", "mills"}
    assert len(features(new_game("morris"))) == len(FEATURE_NAMES)


@pytest.mark.parametrize("name", sorted(HEURISTICS))
def test_heuristics_in_range_and_colour_symmetric(name):
    heuristic = HEURISTICS[name]
    for state in random_positions():
        value = heuristic(state)
        assert -1.0 <= value <= 1.0
        assert heuristic(swapped(state)) == pytest.approx(value)


def test_features_follow_the_side_to_move():
    for state in random_positions(2)[::7]:
        mine = features(state)
        assert features(swapped(state)) == pytest.approx(mine)
        hands = (state.in_hand(0), state.in_hand(1))
        flipped = MorrisState.from_board(state.board_string(), state.to_move ^ 1, hands)
        theirs = dict(zip(FEATURE_NAMES, features(flipped), strict=True))
        mine_named = dict(zip(FEATURE_NAMES, mine, strict=True))
        assert mine_named["material"] == pytest.approx(-theirs["material"])
        for name in FEATURE_NAMES:
            if name.startswith("own_"):
                assert mine_named[name] == pytest.approx(theirs["opp_" + name[4:]])


def test_start_position_is_level():
    start = new_game("morris")
    assert all(h(start) == 0.0 for h in HEURISTICS.values())


def test_more_material_is_better():
    ahead = MorrisState.from_board(board(a5="W", c4="W", d2="W", e1="W",
                                         b2="B", e3="B", c1="B"))
    assert material(ahead) > 0 and mills(ahead) > 0
    behind = MorrisState.from_board(ahead.board_string(), to_move=1)
    assert material(behind) < 0 and mills(behind) < 0


def test_blocked_opponent_gives_mobility_advantage():
    state = MorrisState.from_board("BBB.W.B..WW..W..")  # Black's a3 can only go to b3
    assert mobility(state) > 0
    shut = state.play_text("b2-b3")  # now Black cannot move at all
    assert mobility(shut) == -1.0


def test_own_mill_beats_opponent_mill_at_equal_material():
    own_mill = MorrisState.from_board(board(a5="W", c5="W", e5="W",
                                            b2="B", d3="B", c1="B"), in_hand=(2, 2))
    their_mill = MorrisState.from_board(board(a5="B", c5="B", e5="B",
                                              b2="W", d3="W", c1="W"), in_hand=(2, 2))
    assert material(own_mill) == 0
    assert mills(own_mill) > 0 > mills(their_mill)
    assert dict(zip(FEATURE_NAMES, features(own_mill), strict=True))["own_mills"] == 0.5


def test_open_two_raises_the_mills_value():
    with_two = MorrisState.from_board(board(a5="W", c5="W", b2="B", d3="B"), in_hand=(3, 3))
    without = MorrisState.from_board(board(a5="W", c1="W", b2="B", d3="B"), in_hand=(3, 3))
    assert mills(with_two) > mills(without)
    assert dict(zip(FEATURE_NAMES, features(with_two), strict=True))["own_twos"] == 0.25


def test_blocking_an_opponent_two_raises_the_mills_value():
    blocked = MorrisState.from_board(board(a5="B", c5="B", e5="W", d2="W"), to_move=0,
                                     in_hand=(3, 3))
    open_two = MorrisState.from_board(board(a5="B", c5="B", d3="W", d2="W"), to_move=0,
                                      in_hand=(3, 3))
    assert mills(blocked) > mills(open_two)


def test_closes_mill_and_blocks_two_bonuses():
    state = new_game("morris").play_line("a5 b4 c5 c4")
    by_text = {state.format_move(m): m for m in state.legal_moves()}
    assert closes_mill(state, by_text["e5xb4"]) and not closes_mill(state, by_text["d4"])
    assert move_bonus(state, by_text["e5xb4"]) == MILL_BONUS
    # Black to move after a5 b4 c5: e5 blocks White's two, d4 does not
    black = new_game("morris").play_line("a5 b4 c5")
    moves = {black.format_move(m): m for m in black.legal_moves()}
    assert blocks_two(black, moves["e5"]) and not blocks_two(black, moves["d4"])
    assert move_bonus(black, moves["e5"]) == BLOCK_BONUS


def test_closes_mill_in_moving_phase_ignores_the_vacated_point():
    state = MorrisState.from_board(board(a5="W", c5="W", e3="W", b2="W",
                                         c4="B", d3="B", e1="B", a1="B"))
    moves = {state.format_move(m): m for m in state.legal_moves()}
    assert closes_mill(state, moves["e3-e5xa1"])
    assert not closes_mill(state, moves["c5-c4"] if "c5-c4" in moves else moves["b2-b3"])
