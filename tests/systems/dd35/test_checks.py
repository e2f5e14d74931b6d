"""dd35 checks through the system: perception, saves, attacks, odds and the JSON contract."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from jdr.core.sheet import SheetDocument
from jdr.core.system import CheckRequest
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.dd35 import SYSTEM
from jdr.systems.dd35.checks import attack_check
from jdr.systems.dd35.config import Rules
from jdr.systems.dd35.demo import character, document
from jdr.systems.dd35.sheet import Weapon

SWORD = {"nom": "Épée longue", "degats": "1d8", "zone_critique": 19, "multiplicateur": 2}


@pytest.fixture
def hero(tmp_path: Path) -> SheetDocument:
    return document(tmp_path, "heros", classes={"guerrier": 4, "roublard": 3},
                    abilities={"intelligence": 14, "sagesse": 12, "dexterite": 14,
                               "force": 16},
                    competences={"social": 5, "nature": 3, "ingenierie": 6},
                    sauvegardes={"reflexes": 4}, armes=[SWORD])


@pytest.mark.parametrize(("context", "bonus"), [
    ("embuscade", 4 + 2),    # Base Attaque: guerrier 4 (+4) + roublard 3 (+2)
    ("piege", 3),            # niveau de Roublard
    ("mensonge", 5),         # rangs en Social
    ("passage", 6),          # meilleure connaissance du milieu (A002.03)
])
def test_R002_08_active_perception_by_context(hero: SheetDocument, context: str, bonus: int) -> None:
    request = CheckRequest(hero, context, threshold="15")
    result = SYSTEM.check(request, FixedSource([10]))
    assert result.total == 10 + bonus + 2  # + Mod Int
    assert result.success is (10 + bonus + 2 >= 15)


def test_R002_08_context_through_options(hero: SheetDocument) -> None:
    req = CheckRequest(hero, "perception", options={"contexte": "Détecter un piège"})
    assert SYSTEM.check(req, FixedSource([10])).total == 10 + 3 + 2
    req = CheckRequest(hero, "passage", options={"milieu": "Nature"})
    assert SYSTEM.check(req, FixedSource([10])).total == 10 + 3 + 2
    with pytest.raises(RuleError, match="contexte"):
        SYSTEM.check(CheckRequest(hero, "perception"), FixedSource([10]))


def test_R002_09_passive_perception_no_dice(hero: SheetDocument) -> None:
    req = CheckRequest(hero, "perception passive", threshold="17")
    result = SYSTEM.check(req, FixedSource([]))
    assert result.total == 10 + 7 + 1
    assert result.success is True
    assert result.to_json()["dice"] == []
    odds = SYSTEM.odds(req)
    assert odds.success == 1
    assert dict(odds.distribution) == {18: 1}


def test_R002_15_save_against_a_dc(hero: SheetDocument) -> None:
    req = CheckRequest(hero, "Réflexes", threshold="15")
    assert SYSTEM.check(req, FixedSource([11])).success is True   # 11 + 4
    assert SYSTEM.check(req, FixedSource([10])).success is False
    assert SYSTEM.odds(req).success == Fraction(10, 20)


def test_A002_16_save_against_a_manoeuvre_author(hero: SheetDocument, tmp_path: Path) -> None:
    author = document(tmp_path, "auteur", classes={"guerrier": 5}, abilities={"force": 14})
    req = CheckRequest(hero, "vigueur", opponent=author)
    result = SYSTEM.check(req, FixedSource([12]))
    assert result.threshold == 10 + 5 + 2   # placeholder DC, not in the source
    assert result.total == 12 + 0           # no vigueur on the sheet → Con modifier (0)


def test_attack_against_defender_ac_and_contract(hero: SheetDocument, tmp_path: Path) -> None:
    defender = document(tmp_path, "cible", abilities={"dexterite": 14},
                        armure={"nom": "Cotte de mailles"})
    req = CheckRequest(hero, "épée longue", opponent=defender)
    result = SYSTEM.check(req, FixedSource([8]))
    data = result.to_json()
    assert data["total"] == 8 + 6 + 3
    assert result.threshold == 10 + 5 + 2
    for key in ("total", "success", "critical", "margin", "dice"):
        assert key in data
    assert data["dice"] == [8]
    assert data["success"] is True and data["margin"] == 0


def test_odds_of_hitting_and_critical(hero: SheetDocument, tmp_path: Path) -> None:
    defender = document(tmp_path, "cible", abilities={"dexterite": 14},
                        armure={"nom": "Cotte de mailles"})   # AC 17
    req = CheckRequest(hero, "épée longue", opponent=defender)
    odds = SYSTEM.odds(req)
    # bonus +9: hits on 8..20 (13 faces); 1 always misses; critical on 19, 20 (both hit)
    assert odds.success == Fraction(13, 20)
    assert odds.critical_success == Fraction(2, 20)
    assert odds.critical_failure == Fraction(1, 20)
    data = odds.to_json()
    for key in ("success", "critical_success", "critical_failure", "distribution"):
        assert key in data
    assert data["success"] == pytest.approx(0.65)
    assert sum(data["distribution"].values()) == pytest.approx(1)
    # flat-footed: AC 15
    flat = SYSTEM.odds(CheckRequest(hero, "épée longue", opponent=defender,
                                    options={"depourvu": "oui"}))
    assert flat.success == Fraction(15, 20)


def test_odds_come_from_the_roll_definition(hero: SheetDocument, tmp_path: Path) -> None:
    defender = document(tmp_path, "cible", armure={"nom": "Harnois"})
    req = CheckRequest(hero, "épée longue", opponent=defender)
    hits = sum(1 for face in range(1, 21)
               if SYSTEM.check(req, FixedSource([face])).success)
    crits = sum(1 for face in range(1, 21)
                if SYSTEM.check(req, FixedSource([face])).critical == "success")
    odds = SYSTEM.odds(req)
    assert odds.success == Fraction(hits, 20)
    assert odds.critical_success == Fraction(crits, 20)


def test_D002_17_natural_1_misses_by_default_configurable() -> None:
    weapon = Weapon.model_validate(SWORD)
    attacker = character(classes={"guerrier": 20})
    result = attack_check(attacker, weapon, 5).roll(FixedSource([1]))
    assert result.total >= 5
    assert result.success is False
    assert result.critical == "failure"
    literal = attack_check(attacker, weapon, 5, rules=Rules(natural_one_misses=False))
    assert literal.roll(FixedSource([1])).success is True


def test_D002_17_option_switch(hero: SheetDocument) -> None:
    req = CheckRequest(hero, "épée longue", threshold="5",
                       options={"naturel_1_rate": "non"})
    assert SYSTEM.check(req, FixedSource([1])).success is True


def test_iterative_option(hero: SheetDocument) -> None:
    req = CheckRequest(hero, "épée longue", threshold="10",
                       options={"iterative": "2"})
    result = SYSTEM.check(req, FixedSource([10]))
    assert result.total == 10 + (6 - 5) + 3
    with pytest.raises(RuleError, match="iterative"):
        SYSTEM.check(CheckRequest(hero, "épée longue", options={"iterative": "3"}),
                     FixedSource([10]))


def test_opposed_active_perception_vs_passive(hero: SheetDocument, tmp_path: Path) -> None:
    other = document(tmp_path, "autre", classes={"roublard": 2})
    req = CheckRequest(hero, "embuscade", opponent=other,
                       opponent_skill="perception_passive")
    result = SYSTEM.check(req, FixedSource([4]))
    assert result.opponent.total == 12
    assert result.actor.total == 12 and result.success is True   # equals the difficulty


def test_initiative_and_ability_checks(hero: SheetDocument) -> None:
    assert SYSTEM.check(CheckRequest(hero, "initiative"), FixedSource([9])).total == 11
    assert SYSTEM.check(CheckRequest(hero, "for", threshold="12"),
                        FixedSource([9])).success is True


def test_errors_are_french(hero: SheetDocument) -> None:
    with pytest.raises(RuleError, match="inconnu pour dd35"):
        SYSTEM.check(CheckRequest(hero, "natation"), FixedSource([9]))
    with pytest.raises(RuleError, match="ND en nombre"):
        SYSTEM.check(CheckRequest(hero, "piege", threshold="difficile"),
                     FixedSource([9]))
    with pytest.raises(RuleError, match="1d20"):
        SYSTEM.check(CheckRequest(hero, "piege", die="d10"), FixedSource([9]))
