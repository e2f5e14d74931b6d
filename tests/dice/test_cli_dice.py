"""`jdr roll` and `jdr odds EXPRESSION` on the command line: text, forum and JSON, with the meaning."""

from __future__ import annotations

from helpers import cli, ok


def test_expression_starting_with_minus() -> None:
    assert ok("roll", "-1d6+3", "--des", "2").out == "-1d6+3 → -1d6 [2] + 3 = 1\n"
    assert ok("roll", "--des", "2", "-1d6+3").out.endswith("= 1\n")
    assert ok("odds", "-1d4", "--json").json()["minimum"] == -4
    run = cli("roll", "1d6", "--x")  # an unknown option stays an unknown option
    assert run.code == 2 and "option inconnue : --x" in run.err


def test_roll_shows_meaning_everywhere() -> None:
    faces = ("--des", "7,8,1,2,10,3,4,5,6,9")
    text = ok("roll", "10d10cs>=7", *faces).out
    assert "10d10cs>=7 : succès : dés ≥ 7 → 4" in text
    forum = ok("roll", "10d10cs>=7", *faces, "--format", "forum").out
    assert "[b]4[/b]" in forum and "succès : dés ≥ 7 → 4" in forum
    data = ok("roll", "10d10cs>=7 # initiative", *faces, "--json").json()
    assert data["total"] == 4 and data["comment"] == "initiative"
    assert data["meaning"] == ["10d10cs>=7 : succès : dés ≥ 7 → 4"]


def test_repeats_one_line_each() -> None:
    out = ok("roll", "3x 2d6", "--des", "1,2,3,4,5,6").out.splitlines()
    assert out[0] == "3x 2d6 : 3 jets"
    assert out[1:] == ["  1. 2d6 [1, 2] = 3", "  2. 2d6 [3, 4] = 7", "  3. 2d6 [5, 6] = 11"]
    data = ok("roll", "3x 2d6", "--des", "1,2,3,4,5,6", "--json").json()
    assert [r["total"] for r in data["repeats"]] == [3, 7, 11]


def test_odds_of_an_expression() -> None:
    text = ok("odds", "10d10cs>=7").out
    assert text.startswith("Chances : 10d10cs>=7\n")
    assert "moyenne  4,00" in text
    assert "   4  25,1 %  61,8 %" in text  # exactly 4 successes, at least 4
    data = ok("odds", "1d20+5>=15", "--json").json()
    assert data["type"] == "dice_odds" and data["success"] == 0.55 and data["comparison"] == "≥ 15"
    forum = ok("odds", "1d20+5>=15", "--format", "forum").out
    assert "total ≥ 15  [b]55,0 %[/b]" in forum
    exploding = ok("odds", "1d6!", "--json").json()
    assert 0 < exploding["truncated"] < 1e-15


def test_odds_refusals() -> None:
    run = cli("odds", "1d6+")
    assert run.code == 2 and "n'est pas une expression de dés" in run.err
    run = cli("odds", "1000d6kh500")
    assert run.code == 2 and "trop longues" in run.err
