"""Every E001 and T001 vector of RULES.md section 2, replayed with FixedSource where it rolls."""

from __future__ import annotations

from typing import Any

import pytest
from maitrise_support import (
    apply,
    attack,
    contest_step,
    problems,
    reload,
    roll,
    spend,
    xp_request,
)

from jdr.errors import RuleError
from jdr.render import render
from jdr.render.json import to_json
from jdr.systems.maitrise import SYSTEM
from jdr.systems.maitrise.combat import damage
from jdr.systems.maitrise.progression import cumulative_skill_cost
from jdr.systems.maitrise.tables import modifier


def shown(sheet: Any) -> dict[str, Any]:
    """`sheet show` values by key."""
    values: dict[str, Any] = to_json(SYSTEM.show(sheet))["values"]
    return values


def shown_text(sheet: Any, key: str) -> str:
    return next(r.text for s in SYSTEM.show(sheet).sections for r in s.rows if r.key == key)


def changed(changes: Any) -> dict[tuple[str, ...], Any]:
    return {c.path: c.value for c in changes}


# ------------------------------------------------------------------ E001


@pytest.mark.parametrize(("level", "expected"), [
    (1, -5), (2, -4), (3, -3), (4, -2), (5, -1), (6, 0), (7, 0), (8, 0), (9, 0), (10, 1),
    (11, 2), (12, 3), (13, 4), (14, 5), (15, 6), (16, 7), (17, 8), (18, 9), (19, 10), (20, 11),
])
def test_E001_01_modifier_table(sheet: Any, level: int, expected: int) -> None:
    assert modifier(level) == expected
    doc = sheet(caracs={"force": level})
    assert f"mod {expected:+d}" in shown_text(doc, "force")
    # the table feeds damage (R001.21): 1d6 = 3, no armour
    d, _ = attack(doc, sheet("Cible", armes=[]), [12, 3], defence="aucune")
    assert d["damage"]["suffered"] == max(0, 3 + expected)


def test_E001_02_tier_crossing_needs_teacher(sheet: Any) -> None:
    doc = sheet(skills={"epee": 19}, xp=100, **{"or": 20})
    with pytest.raises(RuleError, match="professeur de rang Expérimenté"):
        SYSTEM.xp(xp_request(doc, skill="epee"))
    data, _ = spend(doc, {"maitre": "oui"}, skill="epee")
    assert (data["before"], data["after"]) == (19, 20)
    assert data["notes"][0]["text"].startswith("rang Compétent")


def test_E001_03_level_21_is_20_plus(sheet: Any) -> None:
    doc = sheet(caracs={"force": 20}, skills={"epee": 100}, xp=1000)
    data, changes = spend(doc, {"face": "19"}, carac="force")
    assert data["after"] == 20 and "face de réussite critique : 19" in data["notes"][0]["text"]
    assert data["cost"] == 21 * 9  # "level 21 reached"
    skill, _ = spend(doc, {"face": "18"}, skill="epee")
    assert skill["after"] == 100 and skill["cost"] == 101
    assert "face de réussite critique : 18" in skill["notes"][0]["text"]
    apply(changes)
    assert "20+" in render(SYSTEM.show(reload(doc)))


@pytest.mark.parametrize("face", range(2, 20))
def test_E001_04_any_face_2_to_19_may_be_chosen(sheet: Any, face: int) -> None:
    doc = sheet(skills={"epee": 100}, xp=500)
    _, changes = spend(doc, {"face": str(face)}, skill="epee")
    apply(changes)
    assert roll(reload(doc), "epee", [face])["critical"] == "success"


def test_E001_04_face_1_never(sheet: Any) -> None:
    doc = sheet(skills={"epee": 100}, xp=500)
    with pytest.raises(RuleError, match="1 ne peut jamais"):
        SYSTEM.xp(xp_request(doc, {"face": "1"}, skill="epee"))
    with pytest.raises(RuleError, match="20 est déjà"):
        SYSTEM.xp(xp_request(doc, {"face": "20"}, skill="epee"))
    bad = sheet.doc(skills={"epee": 100}, faces_critiques={"epee": [1]})
    assert len(problems(bad)) == 1


def test_E001_05_incompetent_weapon(sheet: Any) -> None:
    doc = sheet(skills={"epee": 0}, caracs={"force": 10})
    data = roll(doc, "epee", [18])
    assert {"value": -7, "reason": "Incompétent", "rule": "R001.23"} in data["modifiers"]
    assert data["total"] == 18 - 7
    d, _ = attack(doc, sheet("Cible", armes=[]), [18, 5], defence="aucune")
    assert d["damage"]["suffered"] == 5 + 1 - 2


@pytest.mark.parametrize(("level", "face"), [(0, 10), (1, 10), (19, 10), (20, 8), (49, 8),
                                             (50, 6), (79, 6), (80, 4), (99, 4), (100, 2)])
def test_E001_06_die_success_from(sheet: Any, level: int, face: int) -> None:
    doc = sheet(skills={"lire": level}, armes=[])  # not a weapon: no −7 at level 0
    assert roll(doc, "lire", [face])["success"] is True
    if face > 2:
        assert roll(doc, "lire", [face - 1])["success"] is False


@pytest.mark.parametrize(("level", "gold"), [(0, 1), (19, 12), (49, 24), (79, 60)])
def test_E001_07_learning_cost_in_gold(sheet: Any, level: int, gold: int) -> None:
    poor = sheet(skills={"epee": level}, xp=200, **{"or": gold - 1})
    with pytest.raises(RuleError, match=f"{gold} pièce"):
        SYSTEM.xp(xp_request(poor, {"maitre": "oui"}, skill="epee"))
    rich = sheet(skills={"epee": level}, xp=200, **{"or": gold + 5})
    data, changes = spend(rich, {"maitre": "oui"}, skill="epee")
    assert changed(changes)[("or",)] == 5
    assert f"{gold} pièce(s) d'or (reste 5)" in data["notes"][0]["text"]


def test_E001_07_grand_maitre_cost_undetermined(sheet: Any) -> None:
    doc = sheet(skills={"epee": 99}, xp=200, **{"or": 500})
    with pytest.raises(RuleError, match="MJ décide"):
        SYSTEM.xp(xp_request(doc, {"maitre": "oui"}, skill="epee"))
    data, changes = spend(doc, {"mj": "oui", "cout_or": "100"}, skill="epee")
    assert changed(changes)[("or",)] == 400
    assert data["notes"][0]["text"].startswith("rang Grand maître")


@pytest.mark.parametrize(("level", "bonus"), [(79, 0), (80, 1), (99, 1), (100, 3)])
def test_E001_08_maitre_grand_maitre_bonuses(sheet: Any, level: int, bonus: int) -> None:
    values = shown(sheet(skills={"epee": level}))
    assert values["charisme"] == 9 + bonus and values["volonte"] == 10 + bonus
    assert values["force"] == 14


def test_E001_09_rapidite_gives_10_margin(sheet: Any) -> None:
    a = sheet(skills={"epee": 30})
    d = sheet("Cible", skills={"epee": 30})
    plain, _ = attack(a, d, [20, 10, 3], critical="mj")
    fast, _ = attack(a, d, [20, 10, 3], critical="rapidite")
    assert contest_step(fast)["actor"]["margin"] == contest_step(plain)["actor"]["margin"] + 10
    # defence side: parry 20 with Rapidité against the same attack
    parry, _ = attack(a, d, [19, 20], opts={"critique_defense": "rapidite"})
    assert contest_step(parry)["opponent"]["margin"] == (20 + 30) // 2 + 10


@pytest.mark.parametrize("d10", [1, 10])
def test_E001_10_solidifier_ses_appuis(sheet: Any, d10: int) -> None:
    a = sheet(skills={"epee": 60})
    d = sheet("Cible", skills={"epee": 30})
    lands = 25 + d10 + 5 < 39  # margin 39 (attack) vs 25 + d10 + 5
    faces = [19, 20, d10] + ([1] if lands else [])
    data, _ = attack(a, d, faces, opts={"critique_defense": "appuis"})
    added = contest_step(data)["opponent"]["margin"] - 25
    assert added == d10 + 5 and 6 <= added <= 15
    assert data["steps"][1]["type"] == "roll" and data["steps"][1]["total"] == d10 + 5
    assert data["hit"] is lands


def test_E001_11_dodge_ignores_attack_margin(sheet: Any) -> None:
    master = sheet("Maître", skills={"epee": 100})
    target = sheet("Cible", caracs={"adresse": 12})
    data, _ = attack(master, target, [20, 8], critical="rapidite", defence="esquive")
    exchange = contest_step(data)
    assert exchange["actor"]["margin"] >= 60
    assert exchange["opponent"]["margin"] == 10 and data["hit"] is False
    data, _ = attack(master, target, [5, 7, 3], defence="esquive")
    assert contest_step(data)["opponent"]["margin"] == 9 and data["hit"] is True


# ------------------------------------------------------------------ T001


def test_T001_01_characteristic_10_to_11(sheet: Any) -> None:
    data, changes = spend(sheet(caracs={"force": 10}, xp=120), carac="force")
    assert data["cost"] == 99 and data["xp_after"] == 21 and data["after"] == 11
    assert changed(changes)[("caracteristiques", "force")] == 11


def test_T001_02_characteristic_19_to_20(sheet: Any) -> None:
    data, _ = spend(sheet(caracs={"force": 19}, xp=180), carac="force")
    assert data["cost"] == 180 and data["xp_after"] == 0
    with pytest.raises(RuleError, match="il faut 180 XP"):
        SYSTEM.xp(xp_request(sheet(caracs={"force": 19}, xp=179), carac="force"))


def test_T001_03_skill_costs(sheet: Any) -> None:
    first, changes = spend(sheet(skills={"epee": 0}, xp=5, **{"or": 1}), {"maitre": "oui"},
                           skill="epee")
    assert first["cost"] == 1 and changed(changes)[("or",)] == 0
    twenty, changes = spend(sheet(skills={"epee": 19}, xp=20, **{"or": 12}), {"maitre": "oui"},
                            skill="epee")
    assert twenty["cost"] == 20 and changed(changes)[("or",)] == 0 and twenty["xp_after"] == 0
    doc = sheet(skills={"epee": 99}, xp=100)
    with pytest.raises(RuleError, match="sans professeur"):
        SYSTEM.xp(xp_request(doc, {"maitre": "oui"}, skill="epee"))
    hundred, _ = spend(doc, {"mj": "oui"}, skill="epee")
    assert hundred["cost"] == 100 and hundred["after"] == 100


def test_T001_04_cumulative_0_to_20(sheet: Any) -> None:
    doc = sheet(skills={"epee": 0}, xp=1000, **{"or": 100})
    spent = 0
    for _ in range(20):
        data, changes = spend(doc, {"maitre": "oui"}, skill="epee")
        spent += data["cost"]
        apply(changes)
        doc = reload(doc)
    assert spent == 210 == cumulative_skill_cost(0, 20)
    assert doc.doc.plain()["competences"]["epee"] == 20 and doc.doc.plain()["xp"] == 790


def test_T001_05_novice_15_rolls_12(sheet: Any) -> None:
    data = roll(sheet(skills={"epee": 15}), "epee", [12])
    assert data["success"] is True and data["margin"] == 13 and data["dice"] == [12]


def test_T001_06_novice_15_rolls_9(sheet: Any) -> None:
    data = roll(sheet(skills={"epee": 15}), "epee", [9])
    assert data["success"] is False and data["critical"] is None


def test_T001_07_competent_30_rolls_8(sheet: Any) -> None:
    data = roll(sheet(skills={"epee": 30}), "epee", [8])
    assert data["success"] is True and data["margin"] == 19


def test_T001_08_maitre_parry_beats_attack(sheet: Any) -> None:
    a = sheet("Attaquant", skills={"epee": 30})
    d = sheet("Maître", skills={"epee": 85})
    data, changes = attack(a, d, [8, 5], defence="parade")
    exchange = contest_step(data)
    assert exchange["actor"]["margin"] == 19 and exchange["opponent"]["success"] is True
    assert exchange["opponent"]["margin"] == 45 and exchange["winner"] == "opponent"
    assert data["hit"] is False and changes == ()


def test_T001_09_dodge_adresse_12_rolls_8(sheet: Any) -> None:
    data = roll(sheet(caracs={"adresse": 12}), "esquive", [8])
    assert data["margin"] == 10 and data["success"] is True


def test_T001_10_dodge_adresse_12_rolls_7(sheet: Any) -> None:
    data = roll(sheet(caracs={"adresse": 12}), "adresse", [7])
    assert data["margin"] == 9 and data["success"] is False


def test_T001_11_damage_force_14(sheet: Any) -> None:
    assert damage(4, 14, 2).suffered == 7
    d, changes = attack(sheet(caracs={"force": 14}), sheet("Cible", armure=2, armes=[]),
                        [12, 4], defence="aucune")
    assert d["hit"] is True and d["damage"]["suffered"] == 7
    assert [(c.path, c.value) for c in changes] == [(("pv",), 13)]


def test_T001_12_damage_floor_zero(sheet: Any) -> None:
    assert damage(2, 3, 0, incompetent=True).total == -3
    a = sheet(caracs={"force": 3}, skills={"epee": 0})
    d, changes = attack(a, sheet("Cible", armes=[]), [18, 2], defence="aucune")
    assert d["hit"] is True and d["damage"]["total"] == -3 and d["damage"]["suffered"] == 0
    assert [(c.path, c.value) for c in changes] == [(("pv",), 20)]


def test_T001_13_natural_1_grand_maitre(sheet: Any) -> None:
    data = roll(sheet(skills={"epee": 100}), "epee", [1])
    assert data["success"] is False and data["critical"] == "failure"
    assert data["margin"] == 50  # the margin is always filled in, it just does not count
    assert roll(sheet(skills={"epee": 100}), "epee", [2])["success"] is True
