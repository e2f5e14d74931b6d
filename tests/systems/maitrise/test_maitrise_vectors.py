"""Every E001 and T001 vector of RULES.md section 2, replayed with FixedSource where it rolls."""

from __future__ import annotations

from typing import Any

import pytest

from jdr.core.system import AttackRequest, CheckRequest, XpRequest
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.maitrise import SYSTEM
from jdr.systems.maitrise.combat import damage
from jdr.systems.maitrise.progression import cumulative_skill_cost
from jdr.systems.maitrise.tables import modifier


def roll(doc: Any, skill: str, faces: list[int], **kw: Any) -> dict[str, Any]:
    source = FixedSource(faces)
    result = SYSTEM.check(CheckRequest(doc, skill, **kw), source)
    source.finish()
    return result.to_json()


def attack(a: Any, d: Any, faces: list[int], **kw: Any) -> tuple[dict[str, Any], list[Any]]:
    source = FixedSource(faces)
    result, changes = SYSTEM.attack(AttackRequest(a, d, **kw), source)
    source.finish()
    return result.to_json(), changes


def spend(doc: Any, **kw: Any) -> tuple[dict[str, Any], list[Any]]:
    result, changes = SYSTEM.xp(XpRequest(doc, **kw))
    return result.to_json(), changes


# ------------------------------------------------------------------ E001


@pytest.mark.parametrize(("level", "expected"), [
    (1, -5), (2, -4), (3, -3), (4, -2), (5, -1), (6, 0), (7, 0), (8, 0), (9, 0), (10, 1),
    (11, 2), (12, 3), (13, 4), (14, 5), (15, 6), (16, 7), (17, 8), (18, 9), (19, 10), (20, 11),
])
def test_E001_01_modifier_table(sheet: Any, level: int, expected: int) -> None:
    assert modifier(level) == expected
    shown = SYSTEM.show(sheet(caracs={"force": level})).to_json()
    force = next(c for c in shown["characteristics"] if c["key"] == "force")
    assert force["modifier"] == expected
    # the table feeds damage (R001.21): 1d6 = 3, no armour
    d, _ = attack(sheet(caracs={"force": level}), sheet("Cible", armes=[]), [12, 3],
                  defence="aucune")
    assert d["damage"] == max(0, 3 + expected)


def test_E001_02_tier_crossing_needs_teacher(sheet: Any) -> None:
    doc = sheet(skills={"epee": 19}, xp=100, **{"or": 20})
    with pytest.raises(RuleError, match="professeur de rang Expérimenté"):
        SYSTEM.xp(XpRequest(doc, skill="epee"))
    data, _ = spend(doc, skill="epee", options={"maitre": "oui"})
    assert (data["before"], data["after"], data["rank_after"]) == (19, 20, "Compétent")


def test_E001_03_level_21_is_20_plus(sheet: Any) -> None:
    doc = sheet(caracs={"force": 20}, skills={"epee": 100}, xp=1000)
    data, changes = spend(doc, carac="force", options={"face": "19"})
    assert data["after"] == 20 and data["face"] == 19
    assert data["cost"] == 21 * 9  # "level 21 reached"
    skill, _ = spend(doc, skill="epee", options={"face": "18"})
    assert skill["after"] == 100 and skill["face"] == 18 and skill["cost"] == 101
    for change in changes:
        change.apply()
    shown = SYSTEM.show(doc).render()
    assert "20+" in shown


@pytest.mark.parametrize("face", range(2, 20))
def test_E001_04_any_face_2_to_19_may_be_chosen(sheet: Any, face: int) -> None:
    doc = sheet(skills={"epee": 100}, xp=500)
    _, changes = spend(doc, skill="epee", options={"face": str(face)})
    for change in changes:
        change.apply()
    assert roll(doc, "epee", [face])["critical"] == "success"


def test_E001_04_face_1_never(sheet: Any) -> None:
    doc = sheet(skills={"epee": 100}, xp=500)
    with pytest.raises(RuleError, match="1 ne peut jamais"):
        SYSTEM.xp(XpRequest(doc, skill="epee", options={"face": "1"}))
    with pytest.raises(RuleError, match="20 est déjà"):
        SYSTEM.xp(XpRequest(doc, skill="epee", options={"face": "20"}))
    bad = sheet(skills={"epee": 100}, faces_critiques={"epee": [1]})
    assert len(SYSTEM.check_sheet(bad)) == 1


def test_E001_05_incompetent_weapon(sheet: Any) -> None:
    doc = sheet(skills={"epee": 0}, caracs={"force": 10})
    data = roll(doc, "epee", [18])
    assert {"value": -7, "reason": "Incompétent (R001.23)"} in data["modifiers"]
    assert data["total"] == 18 - 7
    d, _ = attack(doc, sheet("Cible", armes=[]), [18, 5], defence="aucune")
    assert d["damage"] == 5 + 1 - 2


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
        SYSTEM.xp(XpRequest(poor, skill="epee", options={"maitre": "oui"}))
    rich = sheet(skills={"epee": level}, xp=200, **{"or": gold + 5})
    data, _ = spend(rich, skill="epee", options={"maitre": "oui"})
    assert data["gold_cost"] == gold and data["gold_remaining"] == 5


def test_E001_07_grand_maitre_cost_undetermined(sheet: Any) -> None:
    doc = sheet(skills={"epee": 99}, xp=200, **{"or": 500})
    with pytest.raises(RuleError, match="MJ décide"):
        SYSTEM.xp(XpRequest(doc, skill="epee", options={"maitre": "oui"}))
    data, _ = spend(doc, skill="epee", options={"mj": "oui", "cout_or": "100"})
    assert data["gold_cost"] == 100 and data["rank_after"] == "Grand maître"


@pytest.mark.parametrize(("level", "bonus"), [(79, 0), (80, 1), (99, 1), (100, 3)])
def test_E001_08_maitre_grand_maitre_bonuses(sheet: Any, level: int, bonus: int) -> None:
    shown = SYSTEM.show(sheet(skills={"epee": level})).to_json()
    values = {c["key"]: c["value"] for c in shown["characteristics"]}
    assert values["charisme"] == 9 + bonus and values["volonte"] == 10 + bonus
    assert values["force"] == 14


def test_E001_09_rapidite_gives_10_margin(sheet: Any) -> None:
    a = sheet(skills={"epee": 30})
    d = sheet("Cible", skills={"epee": 30})
    plain, _ = attack(a, d, [20, 10, 3], critical="mj")
    fast, _ = attack(a, d, [20, 10, 3], critical="rapidite")
    assert fast["margin"] == plain["margin"] + 10
    # defence side: parry 20 with Rapidité against the same attack
    parry, _ = attack(a, d, [19, 20], options={"critique_defense": "rapidite"})
    assert parry["defence_margin"] == parry["defence"]["margin"] + 10


@pytest.mark.parametrize("d10", [1, 10])
def test_E001_10_solidifier_ses_appuis(sheet: Any, d10: int) -> None:
    a = sheet(skills={"epee": 60})
    d = sheet("Cible", skills={"epee": 30})
    lands = 25 + d10 + 5 < 39  # margin 39 (attack) vs 25 + d10 + 5
    faces = [19, 20, d10] + ([1] if lands else [])
    data, _ = attack(a, d, faces, options={"critique_defense": "appuis"})
    added = data["defence_margin"] - data["defence"]["margin"]
    assert added == d10 + 5 and 6 <= added <= 15
    assert data["hit"] is lands


def test_E001_11_dodge_ignores_attack_margin(sheet: Any) -> None:
    master = sheet("Maître", skills={"epee": 100})
    target = sheet("Cible", caracs={"adresse": 12})
    data, _ = attack(master, target, [20, 8], critical="rapidite", defence="esquive")
    assert data["margin"] >= 60
    assert data["defence"]["margin"] == 10 and data["hit"] is False
    data, _ = attack(master, target, [5, 7, 3], defence="esquive")
    assert data["defence"]["margin"] == 9 and data["hit"] is True


# ------------------------------------------------------------------ T001


def test_T001_01_characteristic_10_to_11(sheet: Any) -> None:
    data, changes = spend(sheet(caracs={"force": 10}, xp=120), carac="force")
    assert data["cost"] == 99 and data["remaining"] == 21 and data["after"] == 11
    assert {c.path: c.value for c in changes}[("caracteristiques", "force")] == 11


def test_T001_02_characteristic_19_to_20(sheet: Any) -> None:
    data, _ = spend(sheet(caracs={"force": 19}, xp=180), carac="force")
    assert data["cost"] == 180 and data["remaining"] == 0
    with pytest.raises(RuleError, match="il faut 180 XP"):
        SYSTEM.xp(XpRequest(sheet(caracs={"force": 19}, xp=179), carac="force"))


def test_T001_03_skill_costs(sheet: Any) -> None:
    first, _ = spend(sheet(skills={"epee": 0}, xp=5, **{"or": 1}), skill="epee",
                     options={"maitre": "oui"})
    assert first["cost"] == 1 and first["gold_cost"] == 1
    twenty, _ = spend(sheet(skills={"epee": 19}, xp=20, **{"or": 12}), skill="epee",
                      options={"maitre": "oui"})
    assert twenty["cost"] == 20 and twenty["gold_cost"] == 12 and twenty["remaining"] == 0
    doc = sheet(skills={"epee": 99}, xp=100)
    with pytest.raises(RuleError, match="sans professeur"):
        SYSTEM.xp(XpRequest(doc, skill="epee", options={"maitre": "oui"}))
    hundred, _ = spend(doc, skill="epee", options={"mj": "oui"})
    assert hundred["cost"] == 100 and hundred["after"] == 100


def test_T001_04_cumulative_0_to_20(sheet: Any) -> None:
    doc = sheet(skills={"epee": 0}, xp=1000, **{"or": 100})
    spent = 0
    for _ in range(20):
        data, changes = spend(doc, skill="epee", options={"maitre": "oui"})
        spent += data["cost"]
        for change in changes:
            change.apply()
    assert spent == 210 == cumulative_skill_cost(0, 20)
    assert doc.plain()["competences"]["epee"] == 20 and doc.plain()["xp"] == 790


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
    assert data["margin"] == 19 and data["defence"]["success"] is True
    assert data["defence_margin"] == 45 and data["hit"] is False and changes == []


def test_T001_09_dodge_adresse_12_rolls_8(sheet: Any) -> None:
    data = roll(sheet(caracs={"adresse": 12}), "esquive", [8])
    assert data["margin"] == 10 and data["success"] is True


def test_T001_10_dodge_adresse_12_rolls_7(sheet: Any) -> None:
    data = roll(sheet(caracs={"adresse": 12}), "adresse", [7])
    assert data["margin"] == 9 and data["success"] is False


def test_T001_11_damage_force_14(sheet: Any) -> None:
    assert damage(4, 14, 2).total == 7
    d, changes = attack(sheet(caracs={"force": 14}), sheet("Cible", armure=2, armes=[]),
                        [12, 4], defence="aucune")
    assert d["hit"] is True and d["damage"] == 7
    assert [(c.path, c.value) for c in changes] == [(("pv",), 13)]


def test_T001_12_damage_floor_zero(sheet: Any) -> None:
    assert damage(2, 3, 0, incompetent=True).raw == -3
    a = sheet(caracs={"force": 3}, skills={"epee": 0})
    d, changes = attack(a, sheet("Cible", armes=[]), [18, 2], defence="aucune")
    assert d["hit"] is True and d["damage_raw"] == -3 and d["damage"] == 0
    assert [(c.path, c.value) for c in changes] == [(("pv",), 20)]


def test_T001_13_natural_1_grand_maitre(sheet: Any) -> None:
    data = roll(sheet(skills={"epee": 100}), "epee", [1])
    assert data["success"] is False and data["critical"] == "failure"
    assert data["margin"] == 50  # the margin is always filled in, it just does not count
    assert roll(sheet(skills={"epee": 100}), "epee", [2])["success"] is True
