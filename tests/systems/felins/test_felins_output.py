"""JSON contract keys and BBCode (`render_forum()`) of every result."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest, CheckRequest
from jdr.dice.source import FixedSource, RandomSource
from jdr.systems.felins import SYSTEM

MakeSheet = Callable[..., SheetDocument]


def _forum_ok(result: Any) -> None:
    text = result.render_forum()
    assert text.startswith("[quote]") and text.endswith("[/quote]")
    assert text.count("[b]") == text.count("[/b]")
    assert text.count("[color=") == text.count("[/color]")
    assert result.render()


def test_check_json_and_forum(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=3, agilite=3, competences={"discretion": 2})
    result, _ = SYSTEM.check(CheckRequest(doc, "discretion", threshold="moyen"),
                             FixedSource([10, 4, 2, 10]))
    data = result.to_json()
    assert {"total", "success", "critical", "margin", "dice"} <= set(data)
    assert data["critical"] == "success" and data["dice"] == [10, 4, 2, 10]
    _forum_ok(result)
    assert "RÉUSSITE CRITIQUE" in result.render_forum()


def test_opposed_json_and_forum(make_sheet: MakeSheet) -> None:
    a, b = make_sheet(nom="A"), make_sheet(nom="B")
    result, _ = SYSTEM.check(CheckRequest(a, "discretion", opponent=b), RandomSource(5))
    assert {"total", "success", "critical", "margin", "dice"} <= set(result.to_json())
    _forum_ok(result)
    odds = SYSTEM.odds(CheckRequest(a, "discretion", opponent=b))
    assert {"success", "critical_success", "critical_failure", "distribution"} <= set(
        odds.to_json())
    _forum_ok(odds)


def test_odds_json_and_forum(make_sheet: MakeSheet) -> None:
    odds = SYSTEM.odds(CheckRequest(make_sheet(chance=2), "volonte", threshold="9"))
    assert {"success", "critical_success", "critical_failure", "distribution"} <= set(
        odds.to_json())
    _forum_ok(odds)


def test_attack_duel_initiative_show_heal_forum(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, force=4, precision=4, competences={"combat_griffu": 2})
    d = make_sheet(nom="D", chance=1, vigueur=4, force=1, intelligence=1)
    attack, _ = SYSTEM.attack(AttackRequest(a, d), FixedSource([9, 8]))
    assert {"hit", "location", "damage", "state"} <= set(attack.to_json())
    _forum_ok(attack)
    duel, _ = SYSTEM.duel(a, d, FixedSource([5, 5]), {})
    _forum_ok(duel)
    _forum_ok(SYSTEM.initiative([a, d], FixedSource([3, 4])))
    _forum_ok(SYSTEM.show(a))
    healer = make_sheet(nom="H", chance=1, competences={"soigner": 1})
    heal, _ = SYSTEM.heal(healer, d, FixedSource([7]))
    _forum_ok(heal)
    _forum_ok(SYSTEM.den(d, 3)[0])
    voluntary, _ = SYSTEM.check(CheckRequest(a, "saut", options={"echec_volontaire": "oui"}),
                                FixedSource([]))
    _forum_ok(voluntary)
