"""What felins results look like through the core renderers: the same JSON keys as every system,
and forum BBCode (the core's, for every result) with the dice and the verdict and no rule id."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from helpers import ok
from jdr.core.options import Options, parse_options
from jdr.core.results import Result
from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest, CheckRequest, GroupRequest, Loaded, RuleRequest
from jdr.dice.source import FixedSource, RandomSource
from jdr.render import render
from jdr.render.json import to_json
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.sheet import Cat

MakeSheet = Callable[..., Loaded[Cat]]


def rule_options(name: str, **values: str) -> Options:
    return parse_options(SYSTEM.actions[name], values, "felins")


RULE_ID = re.compile(r"\b(?:[RETA]\d{3}\.\d{2}|D-(?:\d{3}|ALL)\.\d{2})\b")


def forum(result: Result) -> str:
    text = render(result, "forum")
    assert "[b]" in text and text.count("[b]") == text.count("[/b]")
    assert text.count("[color=") == text.count("[/color]")
    assert not RULE_ID.search(text), text
    assert render(result, "texte")
    return text


def test_check_json_and_forum(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=3, agilite=3, competences={"discretion": 2})
    result = SYSTEM.check(CheckRequest(doc, "discretion", threshold="moyen"),
                          FixedSource([10, 4, 2, 10])).result
    data = to_json(result)
    assert {"type", "total", "success", "critical", "margin", "dice", "actor"} <= set(data)
    assert data["type"] == "check" and data["actor"] == "Patte-de-Brume"
    assert data["critical"] == "success" and data["dice"] == [10, 4, 2, 10]
    assert data["natural"] == 10 and data["rule"] == "R004.12"
    text = forum(result)
    assert "10, [s]4[/s], [s]2[/s], (10 confirmation)" in text  # dropped dice struck through
    assert "RÉUSSITE" in text and "réussite critique" in text
    assert "Chance 3 → 4" in text


def test_voluntary_failure_forum(make_sheet: MakeSheet) -> None:
    opts = parse_options(SYSTEM.actions["check"], {"echec_volontaire": "oui"}, "felins")
    result = SYSTEM.check(CheckRequest(make_sheet(), "saut", options=opts), FixedSource([])).result
    assert "ÉCHEC" in forum(result) and "volontaire" in forum(result)


def test_opposed_json_and_forum(make_sheet: MakeSheet) -> None:
    a, b = make_sheet(nom="A"), make_sheet(nom="B")
    result = SYSTEM.check(CheckRequest(a, "discretion", opponent=b), RandomSource(5)).result
    data = to_json(result)
    assert {"type", "total", "success", "critical", "margin", "dice", "winner", "actor",
            "opponent"} <= set(data)
    assert data["type"] == "contest" and data["rule"] == "R004.21"
    text = forum(result)
    assert "l'emporte" in text and "A — Discrétion" in text
    odds = SYSTEM.odds(CheckRequest(a, "discretion", opponent=b))
    assert {"success", "opponent_wins", "tie", "critical_success", "critical_failure",
            "distribution"} <= set(to_json(odds))
    assert "%" in forum(odds)


def test_odds_json_and_forum(make_sheet: MakeSheet) -> None:
    odds = SYSTEM.odds(CheckRequest(make_sheet(chance=2), "volonte", threshold="9"))
    data = to_json(odds)
    assert {"success", "critical_success", "critical_failure", "distribution", "threshold"} <= set(
        data)
    assert data["threshold"] == 9
    assert "réussite" in forum(odds)


def test_attack_duel_initiative_show_heal_forum(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, force=4, precision=4, competences={"combat_griffu": 2})
    d = make_sheet(nom="D", chance=1, vigueur=4, force=1, intelligence=1)
    attack = SYSTEM.attack(AttackRequest(a, d), FixedSource([9, 8])).result
    data = to_json(attack)
    assert {"hit", "location", "damage", "state", "health", "steps", "weapon"} <= set(data)
    assert data["health"] == {"unit": "blessures", "before": 0, "after": 3, "max": 4}
    text = forum(attack)
    assert "TOUCHÉ" in text and "9" in text and "reste dans la lutte" in text
    duel = SYSTEM.duel(GroupRequest((a, d)), FixedSource([5, 5])).result
    assert "issue" in forum(duel)
    order = SYSTEM.initiative(GroupRequest((a, d)), FixedSource([3, 4])).result
    assert to_json(order)["order"][0]["name"] in ("A", "D")
    assert "Ordre" in forum(order)
    view = SYSTEM.show(a)
    values = to_json(view)["values"]
    assert values["combat_griffu"] == 6 and values["defence"] == 9 and values["force"] == 4
    assert values["rank"] == "apprenti" and values["wounds"] == 0
    assert "Combat griffu" in forum(view)
    healer = make_sheet(nom="H", chance=1, competences={"soigner": 1})
    heal = SYSTEM.rule("soigner", RuleRequest((healer, d)), FixedSource([7]))
    assert "soin" in forum(heal.result)
    den = SYSTEM.rule("tanniere", RuleRequest((d,), rule_options("tanniere", jours="3")), None)
    assert "tanière" in forum(den.result)


def test_help_and_demo() -> None:
    info = SYSTEM.help()
    assert info.characteristics["agilite"] == "Agilité"
    assert info.skills["soigner"].startswith("Soigner (Ω)")
    assert set(SYSTEM.actions) == {"check", "odds", "attack", "initiative", "duel", "soigner",
                                   "tanniere", "reveil", "fin_combat"}
    for spec in SYSTEM.actions.values():
        assert spec.dice or not spec.rolls
    scene = SYSTEM.demo(RandomSource(3))
    assert to_json(scene)["type"] == "report" and len(to_json(scene)["parts"]) >= 3
    forum(scene)


def test_cli_contre_with_a_named_skill(make_file: Callable[..., Path]) -> None:
    a = make_file("a", nom="A", agilite=3)
    b = make_file("b", nom="B", volonte=3)
    run = ok("check", a, "discretion", "--contre", f"{b}:Volonté", "--des", "5,6", "--json")
    assert run.json()["opponent"]["label"] == "B — Volonté"
    assert run.json()["actor"]["total"] == 8 and run.json()["opponent"]["total"] == 12
    assert SYSTEM.load(SheetDocument.load(a)).chance == 1  # a plain roll changes nothing
