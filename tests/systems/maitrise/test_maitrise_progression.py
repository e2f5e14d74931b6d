"""Progression: XP costs, teachers and gold, Grand maître exclusivity, extra critical faces."""

from __future__ import annotations

from typing import Any

import pytest

from jdr.core.system import XpRequest
from jdr.errors import RuleError
from jdr.systems.maitrise import SYSTEM


def spend(doc: Any, **kw: Any) -> tuple[dict[str, Any], list[Any]]:
    result, changes = SYSTEM.xp(XpRequest(doc, **kw))
    assert result.render()
    return result.to_json(), changes


def apply(changes: list[Any]) -> None:
    for change in changes:
        change.apply()


@pytest.mark.parametrize("level", [1, 5, 25, 60, 85])
def test_inside_a_tier_no_teacher(sheet: Any, level: int) -> None:
    data, changes = spend(sheet(skills={"epee": level}, xp=level + 1), skill="epee")
    assert data["cost"] == level + 1 and data["remaining"] == 0 and data["gold_cost"] == 0
    assert {c.path for c in changes} == {("competences", "epee"), ("xp",)}


def test_json_contract(sheet: Any) -> None:
    data, _ = spend(sheet(skills={"epee": 5}, xp=10), skill="epee")
    assert data["cost"] == 6 and data["remaining"] == 4


def test_not_enough_xp_is_refused_in_french(sheet: Any) -> None:
    with pytest.raises(RuleError, match="refusé : il faut 6 XP"):
        SYSTEM.xp(XpRequest(sheet(skills={"epee": 5}, xp=5), skill="epee"))


def test_changes_are_written_back(sheet: Any) -> None:
    doc = sheet(skills={"epee": 79}, xp=80, **{"or": 70})
    data, changes = spend(doc, skill="epee", options={"maitre": "oui"})
    assert "+1 Charisme et +1 Volonté" in " ".join(data["notes"])
    apply(changes)
    doc.save()
    plain = type(doc).load(doc.path).plain()
    assert plain["competences"]["epee"] == 80 and plain["xp"] == 0 and plain["or"] == 10
    char = SYSTEM.load(type(doc).load(doc.path))
    assert char.characteristic("charisme") == 10 and char.base["charisme"] == 9


def test_grand_maitre_exclusivity(sheet: Any) -> None:
    weapons = [{"nom": "Épée", "competence": "epee"}, {"nom": "Hache", "competence": "hache"}]
    doc = sheet(skills={"epee": 100, "hache": 99, "chant": 99}, armes=weapons, xp=500)
    with pytest.raises(RuleError, match=r"A001\.21"):
        SYSTEM.xp(XpRequest(doc, skill="hache", options={"mj": "oui"}))
    data, _ = spend(doc, skill="chant", options={"mj": "oui"})  # not a weapon skill
    assert data["after"] == 100


def test_carac_20_plus_costs_continue(sheet: Any) -> None:
    doc = sheet(caracs={"force": 20}, xp=1000, faces_critiques={"force": [19]})
    data, changes = spend(doc, carac="force", options={"face": "18"})
    assert data["cost"] == 22 * 9
    apply(changes)
    assert doc.plain()["faces_critiques"]["force"] == [19, 18]
    with pytest.raises(RuleError, match="déjà une réussite critique"):
        SYSTEM.xp(XpRequest(doc, carac="force", options={"face": "19"}))
    with pytest.raises(RuleError, match="face=N"):
        SYSTEM.xp(XpRequest(doc, carac="force"))


def test_hit_points_and_unknown_names(sheet: Any) -> None:
    doc = sheet(xp=100)
    with pytest.raises(RuleError, match="points de vie"):
        SYSTEM.xp(XpRequest(doc, hit_points=True))
    with pytest.raises(RuleError, match="caractéristique"):
        SYSTEM.xp(XpRequest(doc, carac="chance"))
    with pytest.raises(RuleError, match="compétence"):
        SYSTEM.xp(XpRequest(doc, skill="nage"))
