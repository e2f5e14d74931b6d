"""Progression: XP costs, teachers and gold, Grand maître exclusivity, extra critical faces."""

from __future__ import annotations

from typing import Any

import pytest
from maitrise_support import apply, reload, spend, xp_request

from jdr.core.sheet import SheetDocument
from jdr.errors import RuleError
from jdr.render import render
from jdr.systems.maitrise import SYSTEM


def changed(changes: Any) -> dict[tuple[str, ...], Any]:
    return {c.path: c.value for c in changes}


@pytest.mark.parametrize("level", [1, 5, 25, 60, 85])
def test_inside_a_tier_no_teacher(sheet: Any, level: int) -> None:
    data, changes = spend(sheet(skills={"epee": level}, xp=level + 1), skill="epee")
    assert data["cost"] == level + 1 and data["xp_after"] == 0
    assert {c.path for c in changes} == {("competences", "epee"), ("xp",)}


def test_json_contract(sheet: Any) -> None:
    data, _ = spend(sheet(skills={"epee": 5}, xp=10), skill="epee")
    assert data["type"] == "purchase" and data["rule"] == "R001.27"
    assert (data["what"], data["before"], data["after"]) == ("epee", 5, 6)
    assert data["cost"] == 6 and data["xp_before"] == 10 and data["xp_after"] == 4


def test_not_enough_xp_is_refused_in_french(sheet: Any) -> None:
    with pytest.raises(RuleError, match="refusé : il faut 6 XP"):
        SYSTEM.xp(xp_request(sheet(skills={"epee": 5}, xp=5), skill="epee"))


def test_changes_are_written_back(sheet: Any) -> None:
    doc = sheet(skills={"epee": 79}, xp=80, **{"or": 70})
    data, changes = spend(doc, {"maitre": "oui"}, skill="epee")
    assert "+1 Charisme et +1 Volonté" in " ".join(n["text"] for n in data["notes"])
    apply(changes)
    doc.doc.save()
    plain = SheetDocument.load(doc.doc.path).plain()
    assert plain["competences"]["epee"] == 80 and plain["xp"] == 0 and plain["or"] == 10
    char = reload(doc).model
    assert char.characteristic("charisme") == 10 and char.base["charisme"] == 9


def test_grand_maitre_exclusivity(sheet: Any) -> None:
    weapons = [{"nom": "Épée", "competence": "epee"}, {"nom": "Hache", "competence": "hache"}]
    doc = sheet(skills={"epee": 100, "hache": 99, "chant": 99}, armes=weapons, xp=500)
    with pytest.raises(RuleError, match=r"A001\.21"):
        SYSTEM.xp(xp_request(doc, {"mj": "oui"}, skill="hache"))
    data, _ = spend(doc, {"mj": "oui"}, skill="chant")  # not a weapon skill
    assert data["after"] == 100


def test_carac_20_plus_costs_continue(sheet: Any) -> None:
    doc = sheet(caracs={"force": 20}, xp=1000, faces_critiques={"force": [19]})
    data, changes = spend(doc, {"face": "18"}, carac="force")
    assert data["cost"] == 22 * 9 and data["rule"] == "R001.26, A001.16"
    apply(changes)
    assert doc.doc.plain()["faces_critiques"]["force"] == [19, 18]
    doc = reload(doc)
    with pytest.raises(RuleError, match="déjà une réussite critique"):
        SYSTEM.xp(xp_request(doc, {"face": "19"}, carac="force"))
    with pytest.raises(RuleError, match="face=N"):
        SYSTEM.xp(xp_request(doc, carac="force"))


def test_face_outside_20_plus_is_noted(sheet: Any) -> None:
    data, _ = spend(sheet(caracs={"force": 10}, xp=99), {"face": "5"}, carac="force")
    assert data["after"] == 11 and "face ignorée" in data["notes"][0]["text"]


def test_hit_points_and_unknown_names(sheet: Any) -> None:
    doc = sheet(xp=100)
    with pytest.raises(RuleError, match="points de vie"):
        SYSTEM.xp(xp_request(doc, hit_points=True))
    with pytest.raises(RuleError, match="caractéristique"):
        SYSTEM.xp(xp_request(doc, carac="chance"))
    with pytest.raises(RuleError, match="compétence"):
        SYSTEM.xp(xp_request(doc, skill="nage"))


def test_purchase_renders(sheet: Any) -> None:
    outcome = SYSTEM.xp(xp_request(sheet(skills={"epee": 19}, xp=20, **{"or": 12}),
                                   {"maitre": "oui"}, skill="epee"))
    text = render(outcome.result)
    assert "epee 19 → 20" in text and "Expérimenté" in text and "12 pièce(s) d'or" in text
