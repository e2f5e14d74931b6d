"""dd35 checks through the system: perception, saves, attacks, odds and the JSON contract."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from jdr.core.check import CheckResult, Odds
from jdr.core.contest import ContestResult
from jdr.core.sheet import SheetDocument
from jdr.core.system import CheckRequest, Loaded
from jdr.core.usecase import load, options
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.render.json import to_json
from jdr.systems.dd35 import SYSTEM
from jdr.systems.dd35.checks import attack_check
from jdr.systems.dd35.config import Rules
from jdr.systems.dd35.demo import character, document
from jdr.systems.dd35.sheet import Sheet, Weapon

SWORD = {"nom": "Épée longue", "degats": "1d8", "zone_critique": 19, "multiplicateur": 2}


def request(actor: SheetDocument, skill: str, opponent: SheetDocument | None = None,
            opts: Mapping[str, str] | None = None, action: str = "check",
            **fields: Any) -> CheckRequest[Sheet]:
    """A request as the CLI builds it: each sheet loaded once, `--opt` parsed by the core."""
    other: Loaded[Sheet] | None = load(SYSTEM, opponent) if opponent is not None else None
    return CheckRequest(load(SYSTEM, actor), skill, opponent=other,
                        options=options(SYSTEM, action, opts or {}), **fields)


def roll(req: CheckRequest[Sheet], *faces: int) -> Any:
    source = FixedSource(faces)
    result = SYSTEM.check(req, source).result
    source.finish()
    return result


def odds(req: CheckRequest[Sheet]) -> Odds:
    return SYSTEM.odds(req)


@pytest.fixture
def hero(tmp_path: Path) -> SheetDocument:
    return document(tmp_path, "heros", nom="Héros", classes={"guerrier": 4, "roublard": 3},
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
    result = roll(request(hero, context, threshold="15"), 10)
    assert result.total == 10 + bonus + 2  # + Mod Int
    assert result.success is (10 + bonus + 2 >= 15)
    assert result.who == "Héros" and result.rule == "R002.08"


def test_R002_08_context_through_options(hero: SheetDocument) -> None:
    req = request(hero, "perception", opts={"contexte": "Détecter un piège"})
    assert roll(req, 10).total == 10 + 3 + 2
    req = request(hero, "passage", opts={"milieu": "Nature"})
    assert roll(req, 10).total == 10 + 3 + 2
    with pytest.raises(RuleError, match="contexte"):
        roll(request(hero, "perception"), 10)
    with pytest.raises(RuleError, match="contexte « grotte » introuvable"):
        roll(request(hero, "perception", opts={"contexte": "grotte"}), 10)


def test_R002_09_passive_perception_no_dice(hero: SheetDocument) -> None:
    req = request(hero, "perception passive", threshold="17")
    result = roll(req)
    assert result.total == 10 + 7 + 1
    assert result.success is True
    assert to_json(result)["dice"] == []
    chances = odds(request(hero, "perception passive", threshold="17", action="odds"))
    assert chances.success == 1
    assert dict(chances.distribution) == {18: 1}


def test_R002_15_save_against_a_dc(hero: SheetDocument) -> None:
    req = request(hero, "Réflexes", threshold="15")
    assert roll(req, 11).success is True   # 11 + 4
    assert roll(req, 10).success is False
    assert odds(req).success == Fraction(10, 20)
    by_type = request(hero, "sauvegarde", threshold="15", opts={"type": "Réflexes"})
    assert roll(by_type, 11).total == 15
    with pytest.raises(RuleError, match="type=reflexes"):
        roll(request(hero, "sauvegarde", threshold="15"), 11)


def test_A002_16_save_against_a_manoeuvre_author(hero: SheetDocument, tmp_path: Path) -> None:
    author = document(tmp_path, "auteur", classes={"guerrier": 5}, abilities={"force": 14})
    result = roll(request(hero, "vigueur", author), 12)
    assert isinstance(result, CheckResult)
    assert result.threshold == 10 + 5 + 2   # placeholder DC, not in the source
    assert result.total == 12 + 0           # no vigueur on the sheet → Con modifier (0)
    assert any("ND provisoire" in n for n in result.notes)
    dex = roll(request(hero, "vigueur", author, opts={"carac_manoeuvre": "dex"}), 12)
    assert dex.threshold == 10 + 5 + 0
    with pytest.raises(RuleError, match="caractéristique « chance » introuvable"):
        roll(request(hero, "vigueur", author, opts={"carac_manoeuvre": "chance"}), 12)


def test_attack_against_defender_ac_and_contract(hero: SheetDocument, tmp_path: Path) -> None:
    defender = document(tmp_path, "cible", abilities={"dexterite": 14},
                        armure={"nom": "Cotte de mailles"})
    result = roll(request(hero, "épée longue", defender), 8)
    data = to_json(result)
    assert data["total"] == 8 + 6 + 3
    assert result.threshold == 10 + 5 + 2
    for key in ("total", "success", "critical", "margin", "dice"):
        assert key in data
    assert data["dice"] == [8]
    assert data["success"] is True and data["margin"] == 0
    # `--contre FICHE:ca` is the same; `FICHE:depourvu` the flat-footed AC; nothing else
    assert roll(request(hero, "épée longue", defender, opponent_skill="CA"), 8).threshold == 17
    assert roll(request(hero, "épée longue", defender, opponent_skill="depourvu"),
                8).threshold == 15
    with pytest.raises(RuleError, match="CA du défenseur"):
        roll(request(hero, "épée longue", defender, opponent_skill="esquive"), 8)


def test_odds_of_hitting_and_critical(hero: SheetDocument, tmp_path: Path) -> None:
    defender = document(tmp_path, "cible", abilities={"dexterite": 14},
                        armure={"nom": "Cotte de mailles"})   # AC 17
    chances = odds(request(hero, "épée longue", defender, action="odds"))
    # bonus +9: hits on 8..20 (13 faces); 1 always misses; critical on 19, 20 (both hit)
    assert chances.success == Fraction(13, 20)
    assert chances.critical_success == Fraction(2, 20)
    assert chances.critical_failure == Fraction(1, 20)
    data = to_json(chances)
    for key in ("success", "critical_success", "critical_failure", "distribution"):
        assert key in data
    assert data["success"] == pytest.approx(0.65)
    assert sum(data["distribution"].values()) == pytest.approx(1)
    # flat-footed: AC 15
    flat = odds(request(hero, "épée longue", defender, opts={"depourvu": "oui"}, action="odds"))
    assert flat.success == Fraction(15, 20)


def test_odds_come_from_the_roll_definition(hero: SheetDocument, tmp_path: Path) -> None:
    defender = document(tmp_path, "cible", armure={"nom": "Harnois"})
    req = request(hero, "épée longue", defender)
    hits = sum(1 for face in range(1, 21) if roll(req, face).success)
    crits = sum(1 for face in range(1, 21) if roll(req, face).critical == "success")
    chances = odds(req)
    assert chances.success == Fraction(hits, 20)
    assert chances.critical_success == Fraction(crits, 20)


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
    req = request(hero, "épée longue", threshold="5", opts={"naturel_1_rate": "non"})
    assert roll(req, 1).success is True
    assert roll(request(hero, "épée longue", threshold="5", opts={"naturel_1_rate": "n"}),
                1).success is True
    assert roll(request(hero, "épée longue", threshold="5"), 1).success is False


def test_iterative_option(hero: SheetDocument) -> None:
    req = request(hero, "épée longue", threshold="10", opts={"iterative": "2"})
    result = roll(req, 10)
    assert result.total == 10 + (6 - 5) + 3
    with pytest.raises(RuleError, match="iterative"):
        roll(request(hero, "épée longue", opts={"iterative": "3"}), 10)


def test_circumstance_and_bonus_on_an_attack(hero: SheetDocument) -> None:
    req = request(hero, "attaque", threshold="10", opts={"circonstance": "2"}, bonus=1)
    assert roll(req, 10).total == 10 + 6 + 3 + 2 + 1


def test_opposed_active_perception_vs_passive(hero: SheetDocument, tmp_path: Path) -> None:
    other = document(tmp_path, "autre", classes={"roublard": 2})
    req = request(hero, "embuscade", other, opponent_skill="perception_passive")
    result = roll(req, 4)
    assert isinstance(result, ContestResult)
    assert result.opponent.total == 12
    assert result.actor.total == 12 and result.success is True   # equals the difficulty
    assert result.tie and result.rule == "R002.08"


def test_opposed_same_skill_by_default(hero: SheetDocument, tmp_path: Path) -> None:
    other = document(tmp_path, "autre", nom="Autre", classes={"roublard": 2})
    result = roll(request(hero, "force", other), 10, 12)
    assert isinstance(result, ContestResult)
    assert result.opponent.label == "Autre — test de Force"
    assert (result.actor.total, result.opponent.total) == (13, 12) and result.success


def test_initiative_and_ability_checks(hero: SheetDocument) -> None:
    assert roll(request(hero, "initiative"), 9).total == 11
    assert roll(request(hero, "initiative", opts={"circonstance": "3"}), 9).total == 14
    assert roll(request(hero, "for", threshold="12"), 9).success is True


def test_D_ALL_02_out_of_combat_rolls_no_active_check(tmp_path: Path) -> None:
    down = document(tmp_path, "ko", pv={"max": 10, "actuels": 0}, armes=[SWORD])
    for skill in ("épée longue", "embuscade", "force"):
        with pytest.raises(RuleError, match="hors de combat"):
            roll(request(down, skill, threshold="10"), 10)
    assert roll(request(down, "vigueur", threshold="10"), 10).success is True
    assert roll(request(down, "perception_passive", threshold="10")).success is True


def test_errors_are_french(hero: SheetDocument) -> None:
    with pytest.raises(RuleError, match="inconnu pour dd35"):
        roll(request(hero, "natation"), 9)
    with pytest.raises(RuleError, match="n'est pas un nombre entier"):
        roll(request(hero, "piege", threshold="difficile"), 9)
    with pytest.raises(RuleError, match="1d20"):
        roll(request(hero, "piege", die="d10"), 9)
    with pytest.raises(RuleError, match="--choix"):
        roll(request(hero, "piege", choice=1), 9)
    with pytest.raises(RuleError, match="--carac"):
        roll(request(hero, "piege", carac="force"), 9)
    with pytest.raises(RuleError, match="option « foo » introuvable"):
        request(hero, "piege", opts={"foo": "1"})
