"""dd35 combat: full attacks, the sheet update, manoeuvres, initiative, the actions of a turn."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from jdr.core.results import AttackReport, Purchase
from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest, GroupRequest, Outcome, XpRequest
from jdr.core.usecase import load, options
from jdr.dice.source import FixedSource, RandomSource
from jdr.errors import RuleError
from jdr.render.json import to_json
from jdr.systems.dd35 import SYSTEM
from jdr.systems.dd35.combat import Blow, resolve_attack, resolve_manoeuvre, suffered
from jdr.systems.dd35.demo import character, document
from jdr.systems.dd35.initiative import roll_initiative
from jdr.systems.dd35.turn import Action, parse_turn, validate_turn

SWORD = {"nom": "Épée longue", "degats": "1d8", "zone_critique": 19, "multiplicateur": 2}


def attack(a: SheetDocument, d: SheetDocument, *faces: int, opts: Mapping[str, str] | None = None,
           weapon: str | None = None, defence: str | None = None, aimed: str | None = None,
           critical: str | None = None, full: bool = False) -> Outcome:
    """`jdr attack` as the CLI plays it: sheets loaded once, `--opt` parsed by the core."""
    source = FixedSource(faces)
    req = AttackRequest(load(SYSTEM, a), load(SYSTEM, d), weapon, defence, aimed, critical, full,
                        options(SYSTEM, "attack", opts or {}))
    outcome = SYSTEM.attack(req, source)
    source.finish()
    return outcome


def xp(doc: SheetDocument, **opts: str) -> Outcome:
    return SYSTEM.xp(XpRequest(load(SYSTEM, doc), hit_points=True,
                               options=options(SYSTEM, "xp", opts)))


def hurt(outcome: Outcome) -> int:
    """The damage an attack's defender took."""
    assert isinstance(outcome.result, AttackReport)
    return suffered(outcome.result)


def apply(outcome: Outcome) -> None:
    for change in outcome.changes:
        change.apply()


# ------------------------------------------------------------------ attacks


def test_R002_04_full_attack_rolls_every_iterative(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 11}, abilities={"force": 14}, armes=[SWORD])
    d = document(tmp_path, "d", classes={"guerrier": 1}, pv=50)   # AC 10, no DR
    outcome = attack(a, d, 10, 4, 10, 5, 1, full=True)
    data = to_json(outcome.result)
    assert [x["total"] for x in data["steps"]] == [10 + 11 + 2, 10 + 6 + 2, 1 + 1 + 2]
    assert [x["success"] for x in data["steps"]] == [True, True, False]
    assert data["hit"] is True
    assert [x["suffered"] for x in data["damage"]] == [4 + 2, 5 + 2]
    assert data["location"] is None
    assert data["state"] == "debout"
    assert data["health"] == {"unit": "pv", "before": 50, "after": 37, "max": 50}
    apply(outcome)
    assert d.plain()["pv"] == {"max": 50, "actuels": 37}


def test_single_attack_is_one_roll(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 11}, armes=[SWORD])
    d = document(tmp_path, "d", armure={"nom": "Harnois"})   # AC 18
    outcome = attack(a, d, 6)   # 6 + 11 = 17
    assert to_json(outcome.result)["hit"] is False and outcome.changes == ()


def test_attack_writes_computed_hp_when_omitted(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 5}, armes=[SWORD])
    d = document(tmp_path, "d", classes={"guerrier": 2})   # pv omitted: 10 + 8 = 18
    apply(attack(a, d, 15, 6))
    assert d.plain()["pv"] == {"max": 18, "actuels": 12}


def test_out_of_combat_state(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 5}, armes=[SWORD])
    d = document(tmp_path, "d", pv={"max": 10, "actuels": 4})
    result = attack(a, d, 15, 6).result
    assert isinstance(result, AttackReport)
    assert result.state is not None and (result.state.before, result.state.after) == (
        "debout", "hors_de_combat")


def test_D_ALL_02_out_of_combat_cannot_attack(tmp_path: Path) -> None:
    a = document(tmp_path, "a", armes=[SWORD], pv={"max": 10, "actuels": 0})
    d = document(tmp_path, "d")
    with pytest.raises(RuleError, match="hors de combat"):
        attack(a, d, 15, 6)
    with pytest.raises(RuleError, match="hors de combat"):
        attack(a, d, 10, opts={"manoeuvre": "croc", "sauvegarde": "reflexes", "nd": "12"})


def test_flat_footed_defender(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 1}, armes=[SWORD])
    d = document(tmp_path, "d", abilities={"dexterite": 18})   # AC 14, flat-footed 10
    assert to_json(attack(a, d, 9).result)["hit"] is False
    assert to_json(attack(a, d, 9, 3, defence="dépourvu").result)["hit"] is True
    assert to_json(attack(a, d, 9, 3, opts={"depourvu": "o"}).result)["hit"] is True
    with pytest.raises(RuleError, match="défense « esquive » introuvable"):
        attack(a, d, 9, defence="esquive")


def test_A002_10_spell_dr_does_not_stack() -> None:
    c = character(classes={"guerrier": 10}, armure={"nom": "Harnois"}, dons={"rd": 2})
    assert c.damage_reduction() == 6 + 2
    assert c.damage_reduction(spell_dr=5) == 8
    assert c.damage_reduction(spell_dr=10) == 10


def test_D002_40_magic_weapon_bypasses_only_the_armour_dr() -> None:
    c = character(classes={"guerrier": 10}, armure={"nom": "Harnois"}, dons={"rd": 2})
    assert c.damage_reduction(magic_weapon=True) == 2
    assert c.damage_reduction(spell_dr=5, magic_weapon=True) == 5
    attacker = character(classes={"guerrier": 5}, armes=[{"nom": "Hache", "degats": "1d12"}])
    report = resolve_attack(attacker, c, attacker.weapon(None), FixedSource([18, 12]),
                            Blow(magic=True))
    assert suffered(report) == 12 - 2
    assert any(n.rule == "D-002.40" for n in report.notes)


def test_attack_options_spell_dr_and_magic(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 5}, armes=[{"nom": "Hache", "degats": "1d12"}])
    d = document(tmp_path, "d", classes={"guerrier": 5}, armure={"nom": "Cotte de mailles"},
                 pv=40)
    assert hurt(attack(a, d, 18, 12)) == 12 - 5
    assert hurt(attack(a, d, 18, 12, opts={"rd_sort": "8"})) == 12 - 8
    assert hurt(attack(a, d, 18, 12, opts={"magique": "oui"})) == 12


def test_A002_19_projectiles_strength_configurable(tmp_path: Path) -> None:
    from jdr.systems.dd35.config import Rules

    bow = {"nom": "Arc", "degats": "1d8", "portee": "distance", "projectile": True}
    c = character(abilities={"force": 16}, armes=[bow])
    assert sum(m.value for m in c.damage_bonus(c.weapon(None))) == 3
    c35 = character(Rules(strength_on_projectiles=False), abilities={"force": 16}, armes=[bow])
    assert sum(m.value for m in c35.damage_bonus(c35.weapon(None))) == 0
    a = document(tmp_path, "a", abilities={"force": 16, "dexterite": 16}, armes=[bow])
    d = document(tmp_path, "d", pv=30)
    assert hurt(attack(a, d, 15, 5)) == 5 + 3
    assert hurt(attack(a, d, 15, 5, opts={"force_projectiles": "non"})) == 5


def test_R002_12_ranged_weapon_uses_dexterity() -> None:
    bow = {"nom": "Arc", "degats": "1d8", "portee": "distance"}
    c = character(classes={"guerrier": 3}, abilities={"force": 8, "dexterite": 16}, armes=[bow])
    assert sum(m.value for m in c.attack_modifiers(c.weapon("arc"))) == 3 + 3


def test_A002_18_critical_dr_subtracted_once() -> None:
    attacker = character(classes={"guerrier": 5}, armes=[SWORD])
    defender = character(classes={"guerrier": 5}, armure={"nom": "Cotte de mailles"})
    result = resolve_attack(attacker, defender, attacker.weapon(None), FixedSource([20, 6]))
    assert suffered(result) == 8 + 6 - 5


def test_unknown_weapon_is_french(tmp_path: Path) -> None:
    a = document(tmp_path, "a", armes=[SWORD])
    with pytest.raises(RuleError, match="arme « Hallebarde » introuvable"):
        attack(a, a, 10, weapon="Hallebarde")


def test_no_aimed_blow_and_no_critical_option(tmp_path: Path) -> None:
    a = document(tmp_path, "a", armes=[SWORD])
    d = document(tmp_path, "d")
    with pytest.raises(RuleError, match="--visee"):
        attack(a, d, 10, aimed="tete")
    with pytest.raises(RuleError, match="--critique"):
        attack(a, d, 10, critical="degats")


# ------------------------------------------------------------------ manoeuvres


def test_R002_15_manoeuvre_is_a_save(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 5})
    d = document(tmp_path, "d", sauvegardes={"reflexes": 3})
    opts = {"manoeuvre": "croc-en-jambe", "sauvegarde": "reflexes", "nd": "15"}
    outcome = attack(a, d, 12, opts=opts)
    data = to_json(outcome.result)
    assert data["steps"][0]["threshold"] == 15 and data["steps"][0]["total"] == 15
    assert data["hit"] is False and outcome.changes == ()
    assert to_json(attack(a, d, 11, opts=opts).result)["hit"] is True


def test_A002_16_manoeuvre_placeholder_dc(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 5}, abilities={"force": 14})
    d = document(tmp_path, "d")
    result = attack(a, d, 12, opts={"manoeuvre": "bousculade", "sauvegarde": "vigueur"}).result
    assert isinstance(result, AttackReport)
    assert to_json(result)["steps"][0]["threshold"] == 10 + 5 + 2
    assert any(n.rule == "A002.16" for n in result.notes)
    with pytest.raises(RuleError, match="sauvegarde=reflexes"):
        attack(a, d, 12, opts={"manoeuvre": "bousculade"})


def test_R002_15_manoeuvre_targets_limited_by_attacks() -> None:
    a = character(classes={"guerrier": 6})   # +6/+1: two attacks
    targets = [character(nom="T1"), character(nom="T2")]
    result = resolve_manoeuvre(a, targets, "bousculade", "vigueur", 12, FixedSource([5, 15]))
    assert any("Action Complexe" in n.text and n.rule == "R002.15" for n in result.notes)
    assert result.hit is True  # T1 failed its save
    with pytest.raises(RuleError, match="attaque"):
        resolve_manoeuvre(a, [character()] * 3, "bousculade", "vigueur", 12,
                          FixedSource([5, 5, 5]))


# ------------------------------------------------------------------ initiative


def test_R002_13_initiative_roll_and_order(tmp_path: Path) -> None:
    a = document(tmp_path, "a", nom="A", abilities={"dexterite": 14}, dons={"initiative": 4})
    b = document(tmp_path, "b", nom="B")
    source = FixedSource([5, 12])
    request = GroupRequest((load(SYSTEM, a), load(SYSTEM, b)))
    data = to_json(SYSTEM.initiative(request, source).result)
    source.finish()
    assert [(e["name"], e["score"]) for e in data["order"]] == [("B", 12), ("A", 11)]


def test_A002_05_ties_dex_then_roll_off() -> None:
    a = character(nom="A", abilities={"dexterite": 12})
    b = character(nom="B")
    c = character(nom="C")
    source = FixedSource([10, 11, 11, 3, 17])   # A 11, B 11, C 11; B and C roll off 3 / 17
    order = roll_initiative([a, b, c], source)
    source.finish()
    assert order.names == ["A", "C", "B"]


def test_A002_05_roll_offs_repeat_while_tied() -> None:
    b, c, d = character(nom="B"), character(nom="C"), character(nom="D")
    # all 11; first roll-off 7, 7, 2 (D last); B and C tie again: 4 / 9 (C first)
    source = FixedSource([11, 11, 11, 7, 7, 2, 4, 9])
    order = roll_initiative([b, c, d], source)
    source.finish()
    assert order.names == ["C", "B", "D"]
    assert [e.rolloffs for e in order.entries] == [(7, 9), (7, 4), (2,)]


def test_initiative_rolls_with_seed(tmp_path: Path) -> None:
    docs = tuple(load(SYSTEM, document(tmp_path, f"p{i}", nom=f"P{i}")) for i in range(4))
    result = SYSTEM.initiative(GroupRequest(docs), RandomSource(7)).result
    totals = [e["score"] for e in to_json(result)["order"]]
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
    assert parse_turn("Move + Standard, 5ft") == (Action("mouvement"), Action("simple"),
                                                  Action("pas"))


# ------------------------------------------------------------------ progression (R002.19)


def test_R002_19_level_up_fixed(tmp_path: Path) -> None:
    doc = document(tmp_path, classes={"guerrier": 2}, abilities={"constitution": 14},
                   pv={"max": 22, "actuels": 15})
    outcome = xp(doc, classe="Guerrier")
    assert isinstance(outcome.result, Purchase)
    assert outcome.result.cost == 0
    assert (outcome.result.before, outcome.result.after) == (2, 3)
    assert any(n.text.startswith(f"+{8 + 2} PV") for n in outcome.result.notes)
    apply(outcome)
    assert doc.plain()["classes"] == {"guerrier": 3}
    assert doc.plain()["pv"] == {"max": 32, "actuels": 25}


def test_R002_19_level_up_rolled_new_class(tmp_path: Path) -> None:
    doc: SheetDocument = document(tmp_path, classes={"guerrier": 2}, pv_mode="lance", pv=20)
    with pytest.raises(RuleError, match="jet"):
        xp(doc, classe="mage")
    with pytest.raises(RuleError, match="impossible"):
        xp(doc, classe="mage", jet="7")
    apply(xp(doc, classe="mage", jet="3"))
    assert doc.plain()["classes"] == {"guerrier": 2, "mage": 1}
    assert doc.plain()["pv"]["max"] == 23


def test_D_ALL_03_hit_die_d10_entered_as_0(tmp_path: Path) -> None:
    doc = document(tmp_path, classes={"guerrier": 2}, pv_mode="lance", pv=20)
    apply(xp(doc, classe="guerrier", jet="0"))
    assert doc.plain()["pv"]["max"] == 30
    with pytest.raises(RuleError, match="impossible"):
        xp(doc, classe="mage", jet="0")


def test_R002_19_level_cap_and_what_xp_needs(tmp_path: Path) -> None:
    doc = document(tmp_path, classes={"guerrier": 20})
    with pytest.raises(RuleError, match="hors limites"):
        xp(doc, classe="guerrier")
    with pytest.raises(RuleError, match="classe=NOM"):
        xp(doc)
    with pytest.raises(RuleError, match="--opt classe : valeur « sorcier » introuvable"):
        xp(doc, classe="sorcier")
    with pytest.raises(RuleError, match="pas de table d'XP"):
        SYSTEM.xp(XpRequest(load(SYSTEM, doc), skill="force"))


def test_R002_14_declared_turn_checked_when_played(tmp_path: Path) -> None:
    a = document(tmp_path, "a", classes={"guerrier": 6}, armes=[SWORD])
    d = document(tmp_path, "d")
    with pytest.raises(RuleError, match="Action Complexe"):
        attack(a, d, 1, 1, full=True, opts={"tour": "mouvement+simple"})
    with pytest.raises(RuleError, match="déplacé"):
        attack(a, d, 1, opts={"tour": "mouvement+simple+pas"})
    result = attack(a, d, 1, 1, full=True, opts={"tour": "complexe+pas"}).result
    assert isinstance(result, AttackReport) and len(result.steps) == 2
