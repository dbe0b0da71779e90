"""A GGF game's type (synchro, random start, komi) survives an export: read as the
``GGFType`` tag, written back as ``TY`` (with the komi as ``KM``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.formats import load_records, parse_records, write_games

FORMATS = Path(__file__).resolve().parents[1] / "data" / "formats"
BOARD = "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"


def test_the_ggs_synchro_pair_is_written_back_as_s8r18() -> None:
    first, second = load_records(FORMATS / "ggs-synchro-s8r18.ggf")
    assert first.tags["GGFType"] == second.tags["GGFType"] == "s8r18"
    text = str(write_games([first, second], "ggf"))
    assert text.count("TY[s8r18]") == 2 and "TY[8]" not in text
    back = parse_records(text, "pair.ggf")
    assert [r.tags["GGFType"] for r in back] == ["s8r18", "s8r18"]
    assert [r.moves for r in back] == [first.moves, second.moves]


@pytest.mark.parametrize("kind", ["s8", "8r20", "k8", "8b"])
def test_each_game_type_round_trips(kind: str) -> None:
    komi = "KM[-2.5]" if kind.startswith("k") else ""
    (rec,) = parse_records(f"(;GM[Othello]TY[{kind}]{komi}{BOARD}B[f5]W[d6];)", "t.ggf")
    text = str(write_games([rec], "ggf"))
    assert f"TY[{kind}]" in text
    assert ("KM[-2.5]" in text) == bool(komi)
    (back,) = parse_records(text, "back.ggf")
    assert back.moves == ["f5", "d6"] and back.tags.get("GGFType") == kind


def test_a_plain_game_has_no_type_tag_and_a_bad_one_is_not_written() -> None:
    (rec,) = parse_records(f"(;GM[Othello]TY[8]{BOARD}B[f5];)", "t.ggf")
    assert "GGFType" not in rec.tags
    rec.tags["GGFType"] = "8]GM[chess"  # hand-edited: written as the plain size
    text = str(write_games([rec], "ggf"))
    assert "TY[8]" in text and "chess" not in text
    rec.tags["GGFType"] = "s6"  # a type for another board size: the plain size too
    assert "TY[8]" in str(write_games([rec], "ggf"))
