"""Why a move is refused comes from the state (State.why_illegal): the generic words, and
checkers' compulsory capture."""

from __future__ import annotations

from engine.registry import GAMES, new_game


def test_the_generic_reason_lists_a_few_legal_moves() -> None:
    state = new_game("tictactoe").play_line("b2")
    why = state.why_illegal("b2")
    legal = [state.format_move(m) for m in state.legal_moves()]
    assert why == f"b2 is not a legal move here; legal are {', '.join(legal[:4])} …"


def test_a_long_text_is_cut_and_a_finished_game_says_so() -> None:
    state = new_game("connect4")
    why = state.why_illegal("9" * 50)
    assert why.startswith("9" * 19 + "… is not a legal move here")
    over = new_game("tictactoe").play_line("a1 b1 a2 b2 a3")
    assert over.outcome() is not None
    assert over.why_illegal("c3") == "the game is over"


def test_checkers_says_a_capture_is_compulsory() -> None:
    state = new_game("checkers").play_line("11-15 22-18")  # Black must take 15x22
    jumps = [state.format_move(m) for m in state.legal_moves()]
    assert jumps and all("x" in j for j in jumps)
    assert state.why_illegal("9-14") == f"you must capture: {', '.join(jumps[:3])}"
    # a capture written wrongly is not told to capture: the generic reason
    assert state.why_illegal("9x18").startswith("9x18 is not a legal move here")
    quiet = new_game("checkers")
    assert quiet.why_illegal("9-18").startswith("9-18 is not a legal move here")


def test_every_game_gives_one_short_line() -> None:
    for game in GAMES:
        state = new_game(game)
        why = state.why_illegal("zz")
        assert why and "\n" not in why and len(why) < 200, game
