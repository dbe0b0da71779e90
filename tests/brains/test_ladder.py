"""The rated ladder: every game's rungs build, ``level:N`` and ``rating=`` pick the right
rung, ``temperature`` is the best move at 0 and a seeded, weaker choice above it, and
the shipped ratings files parse, list every rung, and refuse damage in one line."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from brains.alphabeta import AlphaBetaBrain
from brains.arena import match, tournament
from brains.ladder import (
    ANCHOR,
    MIN_RUNGS,
    RatingsFileError,
    ladder,
    load_ratings,
    parse_ratings,
)
from brains.level import LevelBrain
from brains.minimax import softmax_choice
from brains.ratings import bradley_terry
from brains.registry import make_brain, resolve_spec
from engine.registry import GAMES, new_game
from tui.cli import main

GAME_IDS = list(GAMES)


def _positions(game: str, count: int, seed: int = 3) -> list:
    """A few positions with several legal moves, from random play."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = new_game(game)
        for _ in range(rng.randrange(1, 6)):
            moves = state.legal_moves()
            if len(moves) < 2:
                break
            state = state.play(rng.choice(moves))
        if len(state.legal_moves()) >= 2:
            out.append(state)
    return out


# --------------------------------------------------------------------------- structure


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_game_has_a_ladder_of_buildable_rungs(game):
    rungs = ladder(game)
    assert len(rungs) >= MIN_RUNGS
    assert len(set(rungs)) == len(rungs)
    for spec in rungs:
        assert make_brain(spec, game, seed=0).game == game


@pytest.mark.parametrize("game", GAME_IDS)
def test_level_n_plays_the_nth_rung(game):
    rungs = ladder(game)
    for n in (1, len(rungs) // 2, len(rungs)):
        brain = make_brain(f"level:{n}", game, seed=5)
        assert isinstance(brain, LevelBrain)
        assert brain.level == n and brain.rung_spec == rungs[n - 1]
        assert brain.inner.spec == rungs[n - 1]
        assert make_brain(f"level,level={n}", game).rung_spec == rungs[n - 1]


@pytest.mark.parametrize("game", GAME_IDS)
def test_rating_picks_the_closest_rung(game):
    levels = load_ratings(game).levels
    for target in (-500.0, levels[2].rating + 1.0, levels[-1].rating + 3000.0):
        brain = make_brain(f"level,rating={target}", game)
        best = min(abs(r.rating - target) for r in levels)
        assert abs(levels[brain.level - 1].rating - target) == best
    assert make_brain("level,rating=-500", game).level == min(
        levels, key=lambda r: (abs(r.rating + 500), r.level)).level


@pytest.mark.parametrize("game", GAME_IDS)
def test_alphabeta_rating_plays_the_closest_alphabeta_rung(game):
    levels = [r for r in load_ratings(game).levels if r.spec.startswith("alphabeta")]
    target = levels[len(levels) // 2].rating + 10.0
    want = min(levels, key=lambda r: (abs(r.rating - target), r.level))
    cls, options = resolve_spec(f"alphabeta,rating={target}", game)
    assert cls is AlphaBetaBrain
    assert (cls, options) == resolve_spec(want.spec, game)


@pytest.mark.parametrize("spec, words", [
    ("level:0", "level='0'"), ("level:99", "level='99'"), ("level:x", "level='x'"),
    ("level:20", f"has {len(ladder('connect4'))} rungs"),
    ("level:2,level=3", "twice"), ("level:2,rating=300", "not both"),
    ("level,depth=3", "unknown option"), ("alphabeta:hard,rating=300", "alone"),
    ("alphabeta,rating=300,depth=2", "alone"), ("mcts,rating=300", "no rung"),
    ("alphabeta,rating=nan", "rating"), ("level,rating=1e99", "rating"),
])
def test_bad_level_specs_are_refused_in_one_line(spec, words):
    with pytest.raises(ValueError) as info:
        make_brain(spec, "connect4")
    assert words in str(info.value) and "\n" not in str(info.value)


def test_level_without_a_rung_is_the_middle_one():
    assert make_brain("level", "reversi").level == (len(ladder("reversi")) + 1) // 2


def test_named_levels_are_rungs_a_quarter_half_and_all_the_way_up():
    rungs = len(ladder("connect4"))
    assert make_brain("level:easy", "connect4").level == -(-rungs // 4)  # rounded up
    assert make_brain("level:medium", "connect4").level == -(-rungs // 2)
    assert make_brain("level:hard", "connect4").level == rungs


# --------------------------------------------------------------------------- temperature


@pytest.mark.parametrize("game", ["tictactoe", "connect4", "reversi"])
def test_temperature_zero_plays_a_best_move(game):
    for state in _positions(game, 4):
        brain = make_brain("alphabeta,depth=2,temperature=0", game, seed=1)
        scores = make_brain("alphabeta,depth=2", game).analyse(state)
        assert scores[brain.choose(state)] == max(scores.values())


def test_softmax_choice_follows_the_scores():
    rng = random.Random(0)
    scores = {"a": 0.0, "b": -0.1, "c": -1.0}
    picks = [softmax_choice(list(scores), scores, 0.1, rng) for _ in range(3000)]
    # weights 1 : e^-1 : e^-10
    assert 0.66 < picks.count("a") / 3000 < 0.80
    assert 0.20 < picks.count("b") / 3000 < 0.34
    assert picks.count("c") < 10
    assert softmax_choice(list(scores), scores, 0.0, rng) == "a"


@pytest.mark.parametrize("spec", ["alphabeta,depth=2,temperature=0.3",
                                  "minimax,depth=2,temperature=0.3"])
def test_temperature_is_seeded(spec):
    positions = _positions("connect4", 6)

    def moves(seed: int) -> list:
        brain = make_brain(spec, "connect4", seed=seed)
        return [brain.choose(s) for s in positions]

    assert moves(11) == moves(11)
    assert any(moves(11) != moves(seed) for seed in (12, 13, 14))


def test_temperature_plays_worse_on_average():
    hot = match("connect4", "alphabeta,depth=2,temperature=0.3", "alphabeta,depth=2", 10,
                seed=4)
    assert hot.a_score < 0.5
    replay = match("connect4", "alphabeta,depth=2,temperature=0.3", "alphabeta,depth=2", 10,
                   seed=4)
    assert [r.result for r in replay.results] == [r.result for r in hot.results]


# --------------------------------------------------------------------------- ratings files


@pytest.mark.parametrize("game", GAME_IDS)
def test_shipped_ratings_list_every_rung(game):
    saved = load_ratings(game)
    assert [r.spec for r in saved.levels] == list(ladder(game))
    assert all(r.lo <= r.rating <= r.hi for r in saved.levels)
    assert saved.command.startswith(f"parlor calibrate {game} ")
    assert saved.games >= 1 and saved.pairs
    played = {name for a, b, *_ in saved.pairs for name in (a, b)}
    assert played == {ANCHOR, *ladder(game)}


@pytest.mark.parametrize("game", GAME_IDS)
def test_shipped_ratings_come_from_a_full_round_robin(game):
    """Every two of random and the rungs met, each pairing over the same number of games."""
    saved = load_ratings(game)
    players = [ANCHOR, *ladder(game)]
    met = [frozenset((a, b)) for a, b, *_ in saved.pairs]
    assert len(met) == len(set(met))
    assert set(met) == {frozenset(pair) for pair in itertools.combinations(players, 2)}
    assert all(w + d + lost == saved.games for _, _, w, d, lost in saved.pairs)
    assert "--span" not in saved.command


@pytest.mark.parametrize("game", GAME_IDS)
def test_shipped_ratings_climb_the_ladder(game):
    """Rung 1 beats random, the ladder spans at least 400 points, and no rung is rated
    clearly below the one under it (the top rungs of a drawn game may tie)."""
    levels = load_ratings(game).levels
    assert levels[0].rating > 0
    assert levels[-1].rating - levels[0].rating > 400
    for lower, higher in itertools.pairwise(levels):
        assert higher.hi >= lower.rating, (lower, higher)


def _good() -> dict:
    saved = load_ratings("tictactoe")
    return json.loads(json.dumps(saved.to_json()))


def _damaged(change) -> bytes:
    obj = _good()
    change(obj)
    return json.dumps(obj).encode()


@pytest.mark.parametrize("change, words", [
    (lambda o: o.pop("seed"), "seed is missing"),
    (lambda o: o.update(format=2), "format"),
    (lambda o: o.update(game="connect4"), "for the game"),
    (lambda o: o.update(date="yesterday"), "date"),
    (lambda o: o.update(games_per_pair=True), "games_per_pair"),
    (lambda o: o["levels"][0].update(rating="high"), "rating"),
    (lambda o: o["levels"][0].update(lo=o["levels"][0]["rating"] + 1), "interval"),
    (lambda o: o["levels"][1].update(spec="alphabeta,depth=64" + "x" * 90), "not the ladder"),
    (lambda o: o["levels"].pop(), "levels, but the ladder has"),
    (lambda o: o["levels"][2].update(hi=1e300), "out of range"),
    (lambda o: o["pairs"][0].update(draws=-1), "negative"),
    (lambda o: o["pairs"][0].update(a="evil"), "not on the ladder"),
])
def test_a_damaged_ratings_file_is_one_clear_line(change, words):
    with pytest.raises(RatingsFileError) as info:
        parse_ratings(_damaged(change), "tictactoe")
    message = str(info.value)
    assert words in message and "\n" not in message and len(message) < 300


@pytest.mark.parametrize("data", [b"", b"\xff\xfe", b"[1, 2]", b"{" * 100_000, b"NaN"])
def test_garbage_is_refused(data):
    with pytest.raises(RatingsFileError):
        parse_ratings(data, "tictactoe")


def test_a_good_file_round_trips():
    data = json.dumps(_good()).encode()
    assert parse_ratings(data, "tictactoe") == load_ratings("tictactoe")


# --------------------------------------------------------------------------- commands


def test_brains_json_gives_each_levels_rating_and_interval(capsys):
    for game in GAME_IDS:
        assert main(["brains", "--game", game, "--json"]) == 0
        infos = {info["name"]: info for info in json.loads(capsys.readouterr().out)}
        rows = infos["level"]["ladder"]
        assert [row["spec"] for row in rows] == list(ladder(game))
        assert all(row["lo"] <= row["rating"] <= row["hi"] for row in rows)


def test_brains_table_shows_rating_and_interval(capsys):
    assert main(["brains", "--game", "connect4"]) == 0
    out = capsys.readouterr().out
    for row in load_ratings("connect4").levels:
        assert f"level:{row.level:<3} {round(row.rating):>6} ±" in out


def test_calibrate_writes_a_file_that_reads_back(tmp_path, capsys):
    out = tmp_path / "tictactoe.json"
    assert main(["calibrate", "tictactoe", "--games", "2", "--span", "1", "--bootstrap", "20",
                 "--out", str(out)]) == 0
    saved = parse_ratings(out.read_bytes(), "tictactoe")
    assert [r.spec for r in saved.levels] == list(ladder("tictactoe"))
    assert saved.command == ("parlor calibrate tictactoe --games 2 --seed 0 --span 1 "
                             "--bootstrap 20")
    assert len(saved.pairs) == len(ladder("tictactoe"))  # span 1: a chain from random


def test_calibrate_plays_a_full_round_robin_by_default(tmp_path, capsys):
    out = tmp_path / "tictactoe.json"
    assert main(["calibrate", "tictactoe", "--games", "1", "--seed", "3", "--bootstrap", "10",
                 "--out", str(out)]) == 0
    saved = parse_ratings(out.read_bytes(), "tictactoe")
    players = len(ladder("tictactoe")) + 1
    assert len(saved.pairs) == players * (players - 1) // 2
    assert saved.command == "parlor calibrate tictactoe --games 1 --seed 3 --bootstrap 10"
    again = tmp_path / "again.json"
    assert main(["calibrate", "tictactoe", "--games", "1", "--seed", "3", "--bootstrap", "10",
                 "--out", str(again)]) == 0
    assert parse_ratings(again.read_bytes(), "tictactoe").pairs == saved.pairs


def test_calibrate_check_compares_prediction_and_observation(tmp_path, capsys):
    out = tmp_path / "check.json"
    assert main(["calibrate", "tictactoe", "--check", "1:3", "--games", "4", "--seed", "9",
                 "--bootstrap", "50", "--out", str(out)]) == 0
    [row] = json.loads(out.read_text())["checks"]
    assert row["games"] == 4 and row["a_wins"] + row["draws"] + row["b_wins"] == 4
    lo, hi = row["predicted_ci95"]
    assert lo <= row["predicted"] <= hi
    assert row["agree"] == (row["observed_ci95"][0] <= row["predicted"]
                            <= row["observed_ci95"][1])
    assert row["overlap"] == (row["observed_ci95"][0] <= hi and lo <= row["observed_ci95"][1])
    assert main(["calibrate", "tictactoe", "--check", "1:30"]) == 2


def test_anchor_is_rated_zero_with_no_interval():
    results = {("r", "a"): (1, 2, 7), ("a", "b"): (3, 2, 5)}
    rated = {r.player: r for r in bradley_terry(["r", "a", "b"], results, bootstrap=50,
                                                anchor="r")}
    assert (rated["r"].elo, rated["r"].lo, rated["r"].hi) == (0.0, 0.0, 0.0)
    assert 0 < rated["a"].elo < rated["b"].elo
    centred = bradley_terry(["r", "a", "b"], results, bootstrap=0)
    assert abs(sum(r.elo for r in centred)) < 1e-6


def test_tournament_plays_only_the_given_pairs():
    result = tournament("tictactoe", ["random", "greedy", "alphabeta:easy"], 2, seed=1,
                        pairs=[("random", "greedy"), ("alphabeta:easy", "greedy")])
    assert set(result.matches) == {("random", "greedy"), ("alphabeta:easy", "greedy")}
    with pytest.raises(ValueError):
        tournament("tictactoe", ["random", "greedy"], 1, pairs=[("random", "random")])


@pytest.mark.parametrize("content, words", [
    (None, "missing"), (b" " * (300 * 1024), "too large"), (b"{", "not JSON")])
def test_the_shipped_file_is_read_capped_and_checked(monkeypatch, tmp_path, content, words):
    import brains.ladder as ladder_module
    import saved

    path = tmp_path / "tictactoe.json"
    if content is not None:
        path.write_bytes(content)
    monkeypatch.setattr(saved, "data_path", lambda *parts: path)
    monkeypatch.setattr(ladder_module, "_cache", {})
    with pytest.raises(RatingsFileError) as info:
        load_ratings("tictactoe")
    assert words in str(info.value) and "\n" not in str(info.value)
    with pytest.raises(RatingsFileError):
        make_brain("level,rating=100", "tictactoe")


def test_the_schema_requires_a_ladder_of_eight_distinct_rungs():
    from brains.heuristics import SCHEMA

    _, ok = SCHEMA["LADDER"]
    assert ok(ladder("tictactoe"))
    assert not ok(ladder("tictactoe")[:7])
    assert not ok((*ladder("tictactoe")[:7], ladder("tictactoe")[0]))
    assert not ok(list(ladder("tictactoe")))


def test_a_fit_full_of_sweeps_lies_inside_its_bootstrap_interval():
    """A ladder's round robin: the strong rungs sweep the weak ones, and the top rungs'
    ratings rest on a few pairings with upsets. Each fit must lie strictly inside its
    95 % interval, not on the edge of a bootstrap that is biased one way."""
    strengths = {"r": 0.0, "a": 280.0, "b": 410.0, "c": 530.0, "d": 670.0, "e": 1020.0,
                 "f": 1050.0, "g": 1300.0, "h": 1420.0}
    names = list(strengths)
    rng = random.Random(7)
    results = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            p = 1.0 / (1.0 + 10.0 ** ((strengths[b] - strengths[a]) / 400.0))
            wins = sum(rng.random() < p for _ in range(20))
            results[a, b] = (wins, 0, 20 - wins)
    assert sum(1 for w, _, lost in results.values() if w == 0 or lost == 0) >= 12
    for r in bradley_terry(names, results, bootstrap=300, seed=1, anchor="r"):
        if r.player != "r":
            assert r.lo < r.elo < r.hi, r


def _calibrate(tmp_path, name: str, *extra: str) -> object:
    out = tmp_path / name
    assert main(["calibrate", "tictactoe", "--seed", "3", "--bootstrap", "10",
                 "--out", str(out), *extra]) == 0
    return parse_ratings(out.read_bytes(), "tictactoe")


def test_calibrate_reuse_extends_an_earlier_file_to_the_same_result_as_a_full_run(
        tmp_path, capsys):
    _calibrate(tmp_path, "two.json", "--games", "2")
    full = _calibrate(tmp_path, "full.json", "--games", "5")
    capsys.readouterr()
    extended = _calibrate(tmp_path, "extended.json", "--games", "5",
                          "--reuse", str(tmp_path / "two.json"))
    players = len(ladder("tictactoe")) + 1
    assert f"{players * (players - 1) // 2 * 2} games taken up" in capsys.readouterr().out
    assert extended.pairs == full.pairs
    assert extended.levels == full.levels
    assert extended.command == full.command  # the command that reproduces it plays them all


def test_calibrate_reuse_takes_the_counts_from_the_file_and_only_its_ladders_pairings(
        tmp_path, capsys):
    _calibrate(tmp_path, "two.json", "--games", "2")
    obj = json.loads((tmp_path / "two.json").read_text())
    first, second = obj["pairs"][0], obj["pairs"][1]
    assert (first["a"], second["a"]) == (ANCHOR, ANCHOR)
    assert (first["a_wins"], first["draws"], first["b_wins"]) != (2, 0, 0)
    first.update(a_wins=2, draws=0, b_wins=0)  # the file now says random won both
    old = second["b"]  # make it a rung of an earlier ladder, not the one in the code
    for row in obj["levels"]:
        row["spec"] = old + ",tt=false" if row["spec"] == old else row["spec"]
    for row in obj["pairs"]:
        row.update({k: old + ",tt=false" for k in ("a", "b") if row[k] == old})
    second.update(a_wins=2, draws=0, b_wins=0)
    (tmp_path / "edited.json").write_text(json.dumps(obj))
    extended = _calibrate(tmp_path, "extended.json", "--games", "3",
                          "--reuse", str(tmp_path / "edited.json"))
    full = _calibrate(tmp_path, "full.json", "--games", "3")
    counts = {(a, b): (w, d, lost) for a, b, w, d, lost in extended.pairs}
    truth = {(a, b): (w, d, lost) for a, b, w, d, lost in full.pairs}
    pair = (first["a"], first["b"])
    # random's two "wins" come from the file; the third game is played now
    assert counts[pair][0] >= 2 and sum(counts[pair]) == 3
    assert counts[pair] != truth[pair]
    # the pairing with a rung the ladder no longer has is not taken up: all three replayed
    assert counts[ANCHOR, old] == truth[ANCHOR, old]
    assert all(counts[p] == truth[p] for p in truth if p != pair)


def test_calibrate_reuse_refuses_another_seed_or_more_games_in_one_line(tmp_path, capsys):
    _calibrate(tmp_path, "two.json", "--games", "2")
    capsys.readouterr()
    base = ["calibrate", "tictactoe", "--bootstrap", "10", "--out", str(tmp_path / "x.json"),
            "--reuse", str(tmp_path / "two.json")]
    assert main([*base, "--seed", "4", "--games", "3"]) == 2
    assert main([*base, "--seed", "3", "--games", "1"]) == 2
    (tmp_path / "bad.json").write_text("{" + "x" * 5000)
    assert main([*base[:-1], str(tmp_path / "bad.json"), "--seed", "3"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and "seed 3, not 4" in err[0] and "more than --games 1" in err[1]
    assert all(len(line) < 300 for line in err)
    assert not (tmp_path / "x.json").exists()


def test_rate_against_recovers_a_rating_and_keeps_a_sweep_finite():
    from brains.ratings import rate_against, score_from_elo

    n = 10_000
    up = round(n * score_from_elo(200))
    x = rate_against([0.0, 400.0], [(up, 0, n - up), (n - up, 0, up)])
    assert abs(x - 200.0) < 2.0
    below = rate_against([0.0, 400.0], [(up, 0, n - up), (n - up - 500, 0, up + 500)])
    assert below < x
    sweep = rate_against([100.0, 300.0], [(20, 0, 0), (20, 0, 0)])
    assert 300.0 < sweep < 2000.0


def test_calibrate_probe_places_a_spec_between_the_rungs_it_beats_and_loses_to(
        tmp_path, capsys):
    out = tmp_path / "probe.json"
    levels = load_ratings("tictactoe").levels
    assert main(["calibrate", "tictactoe", "--probe", levels[3].spec, "perfect",
                 "--against", "2", "4", "6", "--games", "60", "--seed", "1",
                 "--bootstrap", "100", "--out", str(out)]) == 0
    own, perfect = json.loads(out.read_text())["probes"]
    assert [a["rung"] for a in own["against"]] == [2, 4, 6]
    assert all(sum(a[k] for k in ("wins", "draws", "losses")) == 60 for a in own["against"])
    # a rung's own spec lands near its own rating, inside the probe's interval
    lo, hi = own["ci95"]
    assert lo <= levels[3].rating <= hi and lo <= own["rating"] <= hi
    assert perfect["rating"] > levels[5].rating > own["rating"]
    assert main(["calibrate", "tictactoe", "--probe", "nosuchbrain"]) == 2
    assert main(["calibrate", "tictactoe", "--probe", "perfect", "--against", "30"]) == 2


def time_limits(brain) -> list[str]:
    """What in ``brain`` (the rung it plays, a solver's fallback, recursively) would stop
    a move on the clock: a per-move ``seconds``, a game ``clock``, the exact endgame hook
    (its share of time), or a default budget with seconds."""
    found = [f"{brain.spec}: {key}={brain.options[key]}" for key in ("seconds", "clock")
             if brain.options.get(key) is not None]
    timed_endgame = getattr(brain, "endgame_timed", None)  # a brain that says (patterns)
    if timed_endgame is None:
        timed_endgame = bool(brain.options.get("endgame"))  # alphabeta's: ENDGAME_SECONDS
    if timed_endgame:
        found.append(f"{brain.spec}: endgame (timed)")
    if brain.default_budget().seconds is not None:
        found.append(f"{brain.spec}: its default budget has seconds")
    inner = getattr(brain, "inner", None)
    if inner is not None:
        found += time_limits(inner)
    if getattr(brain, "solver", None) is not None:  # a solver may fall back
        found += time_limits(make_brain(brain.fallback_spec, brain.game))
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_rung_is_bounded_by_depth_or_nodes_only(game):
    """A rung plays the same games on any machine: nothing it builds stops on time."""
    found = [f"level:{k}: {limit}" for k in range(1, len(ladder(game)) + 1)
             for limit in time_limits(make_brain(f"level:{k}", game))]
    assert not found, "\n".join(found)


def test_a_node_bounded_connect4_solver_falls_back_the_same_way_on_any_machine():
    """Connect Four's top rung is bounded by positions searched, not by time: past its
    limit the fallback moves (said in the note); within it the move is solved."""
    spec = "perfect,method=connect4,seconds=none,nodes=2000,fallback=level:1"
    state = new_game("connect4")
    for move in "4327742771":  # 10 stones: past the opening book, millions of nodes
        state = state.play(state.parse_move(move))
    notes = []
    for _ in range(2):  # the same limit, the same fallback: nothing depends on the clock
        brain = make_brain(spec, "connect4", seed=3)
        [*_, last] = brain.think(state, brain.default_budget())
        notes.append((last.move, last.note))
    assert notes[0] == notes[1] and "move from level:1" in notes[0][1]
    late = new_game("connect4")
    for move in "4444443333332":
        late = late.play(late.parse_move(move))
    brain = make_brain(spec.replace("nodes=2000", "nodes=20000000"), "connect4", seed=3)
    [*_, solved] = brain.think(late, brain.default_budget())
    assert solved.final and not solved.note
