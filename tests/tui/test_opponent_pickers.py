"""The opponent choosers and Home's side pickers: grouped by kind, each opponent described,
rated levels with their ratings."""

from __future__ import annotations

from tui.game.opponents import brain_specs as REAL_BRAIN_SPECS  # before the fixtures patch it


def test_the_opponent_chooser_is_grouped_and_described() -> None:
    from tui.app.dialogs.choose import HEADING
    from tui.game import opponents
    specs = ["human", "random", "greedy", "minimax:easy", "minimax:hard", "alphabeta:easy",
             "alphabeta:hard", "mcts:medium", "perfect", "qlearn", "linear", "mlp", "newbrain"]
    choices = opponents.grouped_choices(specs, HEADING)
    values = [v for _, v in choices if v is not HEADING]
    assert sorted(values) == sorted(specs)  # every opponent once
    headings = [label for label, v in choices if v is HEADING]
    assert headings[0] == "── People ──" and any("Exact" in h for h in headings)
    label = next(label for label, v in choices if v == "perfect")
    assert "solved" in label
    assert all(": " in label for label, v in choices if v not in (HEADING, "newbrain"))
    assert headings[-1] == "── Others ──" and values[-1] == "newbrain"  # unknown kinds last


def test_home_side_pickers_are_grouped_and_described() -> None:
    from tui.app.screens.home import side_choices
    from tui.game import opponents

    specs = [opponents.HUMAN, *REAL_BRAIN_SPECS("connect4")]
    choices = side_choices(specs)
    assert sorted(value for _, value in choices) == sorted(specs)  # every spec, once
    assert choices[0][1] == opponents.HUMAN  # people first, then the strongest kinds
    assert all(label.startswith(f"{value}: ") and len(label) > len(value) + 5
               for label, value in choices)
    kinds = [value.partition(":")[0] for _, value in choices]
    assert kinds.index("perfect") < kinds.index("alphabeta") < kinds.index("random")


def test_the_opponent_pickers_show_each_rated_levels_rating() -> None:
    from brains import registry
    from tui.app.screens.home import side_choices
    from tui.game import opponents

    specs = [opponents.HUMAN, *REAL_BRAIN_SPECS("reversi")]
    labels = dict((value, label) for label, value in side_choices(specs, "reversi"))
    rows = registry.ladder_table("reversi")
    assert len(rows) >= 8
    for row in rows:
        label = labels[f"level:{row['level']}"]
        assert f"rated {round(row['rating'])} ±" in label

