"""dd35 combat: full attacks, the sheet update, manoeuvres, initiative, the actions of a turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest, XpRequest
from jdr.dice.source import FixedSource, RandomSource
from jdr.errors import RuleError
from jdr.systems.dd35 import SYSTEM
from jdr.systems.dd35.combat import (
    Action,
    InitiativeEntry,
    InitiativeTracker,
    parse_turn,
    resolve_attack,
    roll_initiative,
    validate_turn,
)
from jdr.systems.dd35.demo import character, document

SWORD = {"nom": "Épée longue", "degats": "1d8", "zone_critique": 19, "multiplicateur": 2}


# ------------------------------------------------------------------ attacks


def test_R002_04_full_attack_rolls_every_iterative(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 11}, abilities={"force": 14}, armes=[SWORD])
    d = document(tmp_path, "d", classes={"guerrier": 1}, pv=50)   # AC 10, no DR
    source = FixedSource([10, 4, 10, 5, 1])
    result, changes = SYSTEM.attack(AttackRequest(a, d, full=True), source)
    source.finish()
    data = result.to_json()
    assert [x["total"] for x in data["attacks"]] == [10 + 11 + 2, 10 + 6 + 2, 1 + 1 + 2]
    assert [x["hit"] for x in data["attacks"]] == [True, True, False]
    assert data["hit"] is True
    assert data["damage"] == (4 + 2) + (5 + 2)
    assert data["location"] is None
    assert data["state"] == "debout"
    for change in changes:
        change.apply()
    assert d.plain()["pv"] == {"max": 50, "actuels": 37}


def test_single_attack_is_one_roll(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 11}, armes=[SWORD])
    d = document(tmp_path, "d", armure={"nom": "Harnois"})   # AC 18
    source = FixedSource([6])   # 6 + 11 = 17
    result, changes = SYSTEM.attack(AttackRequest(a, d), source)
    source.finish()
    assert result.to_json()["hit"] is False and changes == []


def test_attack_writes_computed_hp_when_omitted(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 5}, armes=[SWORD])
    d = document(tmp_path, "d", classes={"guerrier": 2})   # pv omitted: 10 + 8 = 18
    _, changes = SYSTEM.attack(AttackRequest(a, d), FixedSource([15, 6]))
    for change in changes:
        change.apply()
    assert d.plain()["pv"] == {"max": 18, "actuels": 12}


def test_flat_footed_defender(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 1}, armes=[SWORD])
    d = document(tmp_path, "d", abilities={"dexterite": 18})   # AC 14, flat-footed 10
    result, _ = SYSTEM.attack(AttackRequest(a, d), FixedSource([9]))
    assert result.to_json()["hit"] is False
    result, _ = SYSTEM.attack(AttackRequest(a, d, defence="dépourvu"), FixedSource([9, 3]))
    assert result.to_json()["hit"] is True


def test_A002_10_spell_dr_does_not_stack() -> None:
    c = character(classes={"guerrier": 10}, armure={"nom": "Harnois"}, dons={"rd": 2})
    assert c.damage_reduction() == 6 + 2
    assert c.damage_reduction(spell_dr=5) == 8
    assert c.damage_reduction(spell_dr=10) == 10


def test_A002_19_projectiles_strength_configurable() -> None:
    from jdr.systems.dd35.config import Rules

    bow = {"nom": "Arc", "degats": "1d8", "portee": "distance", "projectile": True}
    c = character(abilities={"force": 16}, armes=[bow])
    assert sum(m.value for m in c.damage_bonus(c.weapon(None))) == 3
    c35 = character(Rules(strength_on_projectiles=False), abilities={"force": 16}, armes=[bow])
    assert sum(m.value for m in c35.damage_bonus(c35.weapon(None))) == 0


def test_R002_12_ranged_weapon_uses_dexterity() -> None:
    bow = {"nom": "Arc", "degats": "1d8", "portee": "distance"}
    c = character(classes={"guerrier": 3}, abilities={"force": 8, "dexterite": 16}, armes=[bow])
    assert sum(m.value for m in c.attack_modifiers(c.weapon("arc"))) == 3 + 3


def test_A002_18_critical_dr_subtracted_once() -> None:
    attacker = character(classes={"guerrier": 5}, armes=[SWORD])
    defender = character(classes={"guerrier": 5}, armure={"nom": "Cotte de mailles"})
    result = resolve_attack(attacker, defender, attacker.weapon(None), FixedSource([20, 6]))
    assert result.damage == 8 + 6 - 5


def test_unknown_weapon_is_french(tmp_path: Path) -> None:
    a = document(tmp_path, "a", armes=[SWORD])
    with pytest.raises(RuleError, match="arme « Hallebarde » introuvable"):
        SYSTEM.attack(AttackRequest(a, a, weapon="Hallebarde"), FixedSource([10]))


# ------------------------------------------------------------------ manoeuvres


def test_R002_15_manoeuvre_is_a_save(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 5})
    d = document(tmp_path, "d", sauvegardes={"reflexes": 3})
    opts = {"manoeuvre": "croc-en-jambe", "sauvegarde": "reflexes", "nd": "15"}
    result, changes = SYSTEM.attack(AttackRequest(a, d, options=opts), FixedSource([12]))
    data = result.to_json()
    assert data["dc"] == 15 and data["saves"][0]["total"] == 15
    assert data["hit"] is False and changes == []
    result, _ = SYSTEM.attack(AttackRequest(a, d, options=opts), FixedSource([11]))
    assert result.to_json()["hit"] is True


def test_R002_15_manoeuvre_targets_limited_by_attacks() -> None:
    from jdr.systems.dd35.combat import resolve_manoeuvre

    a = character(classes={"guerrier": 6})   # +6/+1: two attacks
    targets = [character(), character()]
    result = resolve_manoeuvre(a, targets, "bousculade", "vigueur", 12, FixedSource([5, 15]))
    assert result.complex_action
    with pytest.raises(RuleError, match="attaque"):
        resolve_manoeuvre(a, [character()] * 3, "bousculade", "vigueur", 12,
                          FixedSource([5, 5, 5]))


# ------------------------------------------------------------------ initiative


def test_R002_13_initiative_roll_and_order(tmp_path: Path) -> None:
    a = document(tmp_path, "a", nom="A", abilities={"dexterite": 14}, dons={"initiative": 4})
    b = document(tmp_path, "b", nom="B")
    result = SYSTEM.initiative([a, b], FixedSource([5, 12]))
    data = result.to_json()
    assert [(e["name"], e["initiative"]) for e in data["order"]] == [("B", 12), ("A", 11)]


def test_A002_05_ties_dex_then_roll_off() -> None:
    a = character(nom="A", abilities={"dexterite": 12})
    b = character(nom="B")
    c = character(nom="C")
    source = FixedSource([10, 11, 11, 3, 17])   # A 11, B 11, C 11; B and C roll off 3 / 17
    tracker = roll_initiative([a, b, c], source)
    source.finish()
    assert tracker.order == ("A", "C", "B")


def test_R002_13_combat_ends_when_nobody_acts() -> None:
    tracker = InitiativeTracker((InitiativeEntry("A", 15, 1), InitiativeEntry("B", 12, 0)))
    tracker = tracker.end_round({"A", "B"})
    assert not tracker.over and tracker.round == 2
    assert tracker.end_round(set()).over


def test_A002_04_bonus_is_cumulative_and_newcomer_joins() -> None:
    tracker = InitiativeTracker((InitiativeEntry("A", 20, 0), InitiativeEntry("B", 5, 0)))
    tracker = tracker.end_round({"A"}).end_round({"A"})
    assert tracker.score("B") == 15
    tracker = tracker.join(InitiativeEntry("C", 18, 0))
    assert tracker.order == ("A", "C", "B")
    with pytest.raises(RuleError):
        tracker.end_round({"Z"})


def test_initiative_rolls_with_seed(tmp_path: Path) -> None:
    docs = [document(tmp_path, f"p{i}", nom=f"P{i}") for i in range(4)]
    result = SYSTEM.initiative(docs, RandomSource(7))
    totals = [e["initiative"] for e in result.to_json()["order"]]
    assert totals == sorted(totals, reverse=True)


# ------------------------------------------------------------------ actions of a turn


@pytest.mark.parametrize("turn", [
    "mouvement+simple", "simple+mouvement", "complexe", "complexe+libre+libre+pas",
    "simple+pas+libre", "mouvement+simple_en_mouvement",   # A002.14: two moves
    "libre", "",
])
def test_R002_14_legal_turns(turn: str) -> None:
    assert validate_turn(parse_turn(turn)).valid


@pytest.mark.parametrize(("turn", "reason"), [
    ("mouvement+mouvement", "une seule Action Mouvement"),
    ("simple+simple", "une seule Action Simple"),
    ("simple+simple_en_mouvement", "une seule Action Simple"),
    ("complexe+complexe", "une seule Action Complexe"),
    ("complexe+mouvement", "aucune autre action"),
    ("simple+complexe", "aucune autre action"),
    ("mouvement+pas", "s'est déplacé"),
    ("simple_en_mouvement+pas", "s'est déplacé"),
    ("pas+simple+pas", "un seul Pas"),
])
def test_R002_14_illegal_turns(turn: str, reason: str) -> None:
    verdict = validate_turn(parse_turn(turn))
    assert not verdict.valid
    assert any(reason in p for p in verdict.problems)


def test_R002_14_move_action_that_does_not_move_allows_a_step() -> None:
    assert validate_turn([Action("mouvement", "dégainer", moves=False), Action("pas")]).valid


def test_A002_15_no_step_in_difficult_terrain() -> None:
    assert not validate_turn([Action("pas")], difficult_terrain=True).valid


def test_A002_20_full_attack_is_complex() -> None:
    assert validate_turn([Action("complexe", full_attack=True), Action("pas")]).valid
    verdict = validate_turn([Action("simple", full_attack=True), Action("mouvement")])
    assert not verdict.valid


def test_R002_15_multi_target_manoeuvre_is_complex() -> None:
    assert not validate_turn([Action("simple", manoeuvre=True, targets=2)],
                             attacks_per_round=2).valid
    assert validate_turn([Action("complexe", manoeuvre=True, targets=2)],
                         attacks_per_round=2).valid
    assert not validate_turn([Action("complexe", manoeuvre=True, targets=3)],
                             attacks_per_round=2).valid


def test_parse_turn_rejects_unknown() -> None:
    with pytest.raises(RuleError, match="action inconnue"):
        parse_turn("mouvement+danse")


# ------------------------------------------------------------------ progression (R002.19)


def test_R002_19_level_up_fixed(tmp_path: Path) -> None:
    doc = document(tmp_path, classes={"guerrier": 2}, abilities={"constitution": 14},
                   pv={"max": 22, "actuels": 15})
    result, changes = SYSTEM.xp(XpRequest(doc, hit_points=True, options={"classe": "Guerrier"}))
    assert result.to_json()["hp_gained"] == 8 + 2
    assert result.to_json()["cost"] == 0
    for change in changes:
        change.apply()
    assert doc.plain()["classes"] == {"guerrier": 3}
    assert doc.plain()["pv"] == {"max": 32, "actuels": 25}


def test_R002_19_level_up_rolled_new_class(tmp_path: Path) -> None:
    doc: SheetDocument = document(tmp_path, classes={"guerrier": 2}, pv_mode="lance", pv=20)
    with pytest.raises(RuleError, match="jet"):
        SYSTEM.xp(XpRequest(doc, hit_points=True, options={"classe": "mage"}))
    with pytest.raises(RuleError, match="impossible"):
        SYSTEM.xp(XpRequest(doc, hit_points=True, options={"classe": "mage", "jet": "7"}))
    _, changes = SYSTEM.xp(XpRequest(doc, hit_points=True,
                                     options={"classe": "mage", "jet": "3"}))
    for change in changes:
        change.apply()
    assert doc.plain()["classes"] == {"guerrier": 2, "mage": 1}
    assert doc.plain()["pv"]["max"] == 23


def test_R002_19_level_cap(tmp_path: Path) -> None:
    doc = document(tmp_path, classes={"guerrier": 20})
    with pytest.raises(RuleError, match="hors limites"):
        SYSTEM.xp(XpRequest(doc, hit_points=True, options={"classe": "guerrier"}))


def test_R002_14_declared_turn_checked_when_played(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 6}, armes=[SWORD])
    d = document(tmp_path, "d")
    with pytest.raises(RuleError, match="Action Complexe"):
        SYSTEM.attack(AttackRequest(a, d, full=True, options={"tour": "mouvement+simple"}),
                      FixedSource([1, 1]))
    with pytest.raises(RuleError, match="déplacé"):
        SYSTEM.attack(AttackRequest(a, d, options={"tour": "mouvement+simple+pas"}),
                      FixedSource([1]))
    result, _ = SYSTEM.attack(AttackRequest(a, d, full=True, options={"tour": "complexe+pas"}),
                              FixedSource([1, 1]))
    assert len(result.to_json()["attacks"]) == 2
