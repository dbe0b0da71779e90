"""benchmarks.tournaments: the per-game rosters, and the files a run writes (with a tiny
roster, so the round robins take a second)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import brains.learned.store as store
from benchmarks import tournaments
from brains.registry import list_brains
from engine.registry import GAMES
from tui.cli import main as parlor


def fake_models(*pairs: tuple[str, str]) -> dict[str, dict[str, str]]:
    return {f"{g}-{k}.joblib": {"game": g, "kind": k} for g, k in pairs}


def test_roster_takes_learned_brains_that_play_and_ship(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "list_models", lambda *a, **k: fake_models(
        ("tictactoe", "table"), ("tictactoe", "linear"), ("tictactoe", "mlp"),
        ("checkers", "linear"), ("morris", "table")))
    players, missing = tournaments.roster("tictactoe")
    assert players == [*tournaments.SEARCH, "table", "linear", "mlp", "alphabeta:easy,eval=mlp"]
    assert missing == ["qlearn"]
    players, missing = tournaments.roster("checkers")
    assert players == [*tournaments.SEARCH, "linear"]  # table and qlearn do not play it
    assert missing == ["mlp"]
    players, missing = tournaments.roster("morris")
    assert "qlearn" not in players + missing and "table" in players
    assert tournaments.MLP_SEARCH not in players


def test_roster_of_the_shipped_models() -> None:
    shipped = {(e["game"], e["kind"]) for e in store.list_models().values()}
    for game in GAMES:
        players, missing = tournaments.roster(game)
        assert len(set(players)) == len(players)
        plays = {b.name for b in list_brains(game)}
        for kind in ("linear", "mlp"):
            assert (kind in players) == ((game, kind) in shipped)
            assert (kind in players or kind in missing) == (kind in plays)
            assert not (kind in players and kind in missing)
        assert (tournaments.MLP_SEARCH in players) == ((game, "mlp") in shipped)


def test_run_writes_the_table_files_and_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tournaments, "SEARCH", ("random", "greedy", "alphabeta:easy"))
    monkeypatch.setattr(tournaments, "LEARNED", ())
    monkeypatch.setattr(store, "list_models", lambda *a, **k: {})
    out = tmp_path / "t"
    status = tournaments.main(["--games", "2", "--game", "tictactoe", "--game", "connect4",
                               "--out", str(out)])
    assert status == 0
    capsys.readouterr()
    text = (out / "tictactoe.txt").read_text(encoding="utf-8")
    first, blank, table = text.split("\n", 2)
    assert first == ("$ parlor tournament tictactoe random greedy alphabeta:easy --games 2 "
                     "--seed 1 --jobs 1 --csv tictactoe.csv --json tictactoe.json")
    assert blank == ""
    # the table is exactly what the command prints for the same arguments
    assert parlor(["tournament", "tictactoe", "random", "greedy", "alphabeta:easy",
                   "--games", "2", "--seed", "1"]) == 0
    assert capsys.readouterr().out == table
    rows = list(csv.DictReader((out / "tictactoe.csv").open(encoding="utf-8")))
    assert sorted(r["player"] for r in rows) == ["alphabeta:easy", "greedy", "random"]
    summary = json.loads((out / "connect4.json").read_text(encoding="utf-8"))
    assert summary["game"] == "connect4" and summary["games"] == 2 and summary["seed"] == 1
    runs = json.loads((out / "runs.json").read_text(encoding="utf-8"))
    assert list(runs) == [g for g in GAMES if g in ("tictactoe", "connect4")]  # registry order
    run = runs["connect4"]
    assert run["pairings"] == 3 and run["games_per_pairing"] == 2 and run["wall_seconds"] > 0
    assert [r["player"] for r in run["ranking"]] == [
        r["player"] for r in summary["tournaments"][0]["ratings"]]
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert readme.index("## connect4") < readme.index("## tictactoe")  # registry order
    assert f"`{run['command']}`" in readme and "2 CPU cores" in readme
    assert str(tmp_path) not in readme + text  # no machine paths in the written files
    assert run["learned_vs_search"] == {} and run["models"] == {}  # no learned brain
    best = run["ranking"][0]
    assert f"| 1 | `{best['player']}` |" in readme

    # a later run of one game replaces its entry and keeps the other
    monkeypatch.setattr(tournaments, "SEARCH", ("random", "greedy"))
    assert tournaments.main(["--games", "1", "--game", "connect4", "--out", str(out)]) == 0
    runs = json.loads((out / "runs.json").read_text(encoding="utf-8"))
    assert list(runs) == [g for g in GAMES if g in ("tictactoe", "connect4")]  # registry order
    assert runs["connect4"]["pairings"] == 1 and runs["tictactoe"]["pairings"] == 3

    # --index rebuilds the page from runs.json alone
    (out / "README.md").unlink()
    assert tournaments.main(["--index", "--out", str(out)]) == 0
    readme = (out / "README.md").read_text(encoding="utf-8")
    assert "## tictactoe" in readme and runs["connect4"]["command"] in readme


def test_learned_vs_search_rows(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tournaments, "SEARCH", ("random", "greedy"))
    monkeypatch.setattr(tournaments, "LEARNED", ("linear",))
    assert tournaments.main(["--games", "2", "--game", "tictactoe", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    run = json.loads((tmp_path / "runs.json").read_text(encoding="utf-8"))["tictactoe"]
    table = json.loads((tmp_path / "tictactoe.json").read_text())["tournaments"][0]["table"]
    assert run["players"][:3] == ["random", "greedy", "linear"]
    shipped = {e["kind"]: e["sha256"] for e in store.list_models().values()
               if e["game"] == "tictactoe"}
    assert set(run["models"]) == {"linear"} | ({"mlp"} & set(shipped))
    assert all(shipped[k].startswith(h) and len(h) == 12 for k, h in run["models"].items())
    assert f"linear `{run['models']['linear']}`" in (tmp_path / "README.md").read_text()
    versus = run["learned_vs_search"]
    assert set(versus) == set(run["players"]) - {"random", "greedy"}
    for player, scores in versus.items():
        assert scores == {s: pytest.approx(table[player][s], abs=1e-3)
                          for s in ("random", "greedy")}
    readme = (tmp_path / "README.md").read_text(encoding="utf-8")
    assert "| learned | `random` | `greedy` |" in readme
    assert f"| `linear` | {versus['linear']['random']:.2f} | " in readme


def test_failed_tournament_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(tournaments, "SEARCH", ("random", "nosuchbrain"))
    monkeypatch.setattr(tournaments, "LEARNED", ())
    monkeypatch.setattr(store, "list_models", lambda *a, **k: {})
    assert tournaments.main(["--games", "1", "--game", "tictactoe", "--out", str(tmp_path)]) == 1
    assert "exited with status" in capsys.readouterr().err
    assert not (tmp_path / "tictactoe.txt").exists() and not (tmp_path / "runs.json").exists()
