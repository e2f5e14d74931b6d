"""RULES.md 1.6: every E000 and T000 vector, replaying the seed's dice."""

from __future__ import annotations

from typing import Any

import pytest

from jdr.core.check import Modifier
from jdr.core.contest import Contest, ContestResult
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.cydonia import adventure as adv
from jdr.systems.cydonia import combat, progression, wounds
from jdr.systems.cydonia.checks import CONTEST, Character, raw_check, skill_check, wake_check
from jdr.systems.cydonia.sheet import CydoniaSheet
from jdr.systems.cydonia.tables import LADDER, RIDING, WEAPON_LOCATIONS


def char(data: dict[str, Any]) -> Character:
    return Character(CydoniaSheet.model_validate(data))


def orc() -> Character:
    return char({"systeme": "cydonia", "nom": "Ork C", "pv": 20,
                 "caracteristiques": {"physique": 6, "agilite": 3, "dexterite": 3, "sensoriel": 2,
                                      "courage": 5, "charisme": 1, "mental": 1, "chance": 2},
                 "competences": {"culture_generale": 0}})


def threshold_value(text: str) -> int:
    return LADDER.value(text)


def test_E000_01_climb_wall_is_difficile_20() -> None:
    assert threshold_value("difficile") == 20
    assert threshold_value("Difficile") == 20
    assert skill_check(orc(), "acrobatie", threshold=threshold_value("difficile")).threshold == 20


def test_E000_02_dwarf_axe_attack(nain: dict[str, Any]) -> None:
    result = skill_check(char(nain), "hache").roll(FixedSource([8]))
    assert result.total == 6 + 4 + 8 == 18
    assert [d.face for d in result.dice] == [8]


def test_E000_03_elf_dodge_and_hit(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    contest = Contest(skill_check(char(nain), "hache"), skill_check(char(elfe), "esquive"), CONTEST)
    result = contest.roll(FixedSource([8, 6]))
    assert result.opponent.total == 15
    assert result.actor.total == 18
    assert result.success is True and result.winner == "actor"


def test_E000_04_orc_addition_fails() -> None:
    check = skill_check(orc(), "Culture Générale", threshold=threshold_value("très facile"))
    result = check.roll(FixedSource([3]))
    assert result.total == 4
    assert result.success is False


def test_E000_05_ladder() -> None:
    assert [threshold_value(k) for k in ("tres_facile", "facile", "moyenne", "difficile",
                                         "tres_difficile", "seulement pour les héros")] == [
        5, 10, 15, 20, 25, 30]
    assert threshold_value("héroïque") == 30
    assert threshold_value("35") == 35  # D-000.45: past the names, +5 per step, any number
    assert threshold_value("Très difficile") == threshold_value("TRES_DIFFICILE") == 25


def test_E000_06_location_bonus_adds_margin() -> None:
    assert wounds.location_total(16, 18 - 15) == 19
    assert wounds.zone_for(19, cac=False).name == "Tête"  # A000.07: the table wins
    assert wounds.zone_for(16, cac=False).name == "Torse"


def test_E000_07_location_bonus_capped_at_5() -> None:
    assert wounds.location_bonus(8) == 5
    assert wounds.location_total(10, 8) == 15


def test_E000_08_axe_damage_minus_leather(nain: dict[str, Any]) -> None:
    total, _, added = wounds.weapon_damage(char(nain), "PHY+3+1d10", FixedSource([6]))
    assert total == 16 and not added  # D-000.46: PHY named once
    assert wounds.suffered_damage(total, 3) == 13


def test_D000_46_physique_added_when_formula_omits_it(nain: dict[str, Any]) -> None:
    total, _, added = wounds.weapon_damage(char(nain), "3+1d10", FixedSource([6]))
    assert total == 16 and added


def test_E000_09_zero_hp_vital_zone_dead() -> None:
    after = wounds.state_after(25, 27, WEAPON_LOCATIONS[19])
    assert after.dead and not after.dying


def test_E000_10_zero_hp_arm_dying() -> None:
    after = wounds.state_after(25, 27, WEAPON_LOCATIONS[13])
    assert after.dying and not after.dead


def test_E000_11_item_bonus_above_value_refused(elfe: dict[str, Any]) -> None:
    elfe["objets"] = [{"nom": "Anneau de Force", "bonus": {"physique": 3}},
                      {"nom": "Amulette de Force", "bonus": {"physique": 3}}]
    with pytest.raises(Exception, match="bonus total 6"):
        CydoniaSheet.model_validate(elfe)
    elfe["objets"][1]["equipe"] = False
    assert char(elfe).characteristic("physique") == 8


def test_E000_12_concentration() -> None:
    assert [wounds.concentration_bonus(t) for t in (1, 2, 3, 4)] == [2, 4, 6, 6]


def test_E000_13_knockout_and_waking() -> None:
    assert wounds.knockout(10, 13) is True
    assert wounds.wake_difficulty(13, 1) == 12
    assert wounds.wakes(7, 13, 1) is False
    assert wounds.wake_difficulty(13, 2) == 11
    assert wounds.wakes(15, 13, 2) is True


def test_E000_13_wake_up_roll_is_strict(elfe: dict[str, Any]) -> None:
    """D-000.49: Résistance Physique (Elfe B: 4 + 5 + 1d10) strictly above damage − n."""
    elfe["etat"] = {"assomme": 13}
    first = wake_check(char(elfe), 1).roll(FixedSource([3]))
    assert (first.threshold, first.total, first.success) == (12, 12, False)
    second = wake_check(char(elfe), 2).roll(FixedSource([6]))
    assert (second.threshold, second.total, second.success) == (11, 15, True)


def test_E000_14_mounted_attacker(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    nain["competences"]["equitation"] = 3
    opts = combat.AttackOptions(mounted_attacker=True)
    # attack 8, defence 6, location 10, damage 6
    report = combat.attack(char(nain), char(elfe), opts, FixedSource([8, 6, 10, 6])).report
    contest = report.steps[0]
    assert isinstance(contest, ContestResult)
    assert contest.actor.total == 4 + 6 + 8 + 3
    assert report.location is not None
    assert report.location.total == 10 + 5 + 5  # margin 6 capped at 5, +5 mounted


def test_E000_15_mounted_defender(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    elfe["competences"]["equitation"] = 2
    opts = combat.AttackOptions(mounted_defender=True)
    report = combat.attack(char(nain), char(elfe), opts, FixedSource([8, 6, 10, 6])).report
    contest = report.steps[0]
    assert isinstance(contest, ContestResult)
    assert contest.opponent.total == 4 + 2 + 6
    assert report.location is not None
    assert report.location.total == 10 + 5 - 5


def test_E000_16_search_money() -> None:
    assert adv.money(23) == (2, 3)
    assert adv.money(16) == (1, 6)


def test_E000_17_kravkar_malus() -> None:
    assert [wounds.kravkar_malus(n) for n in range(1, 6)] == [0, -3, -6, -9, -12]


def test_E000_18_reputation_bonus() -> None:
    assert progression.reputation_bonus(6) == 6
    assert progression.reputation_bonus(-6) == 6
    assert progression.reputation_title(-6).startswith("Bandit redouté")


def test_E000_19_reputation_points_needed() -> None:
    assert progression.points_needed(0, +1) == 1
    assert progression.points_needed(5, +1) == 6
    assert progression.points_needed(-2, -1) == 3  # "−3 points"
    assert progression.gain_reputation(5, 0, 6) == (6, 0)
    assert progression.gain_reputation(5, 0, 5) == (5, 5)
    assert progression.gain_reputation(-2, 0, -3) == (-3, 0)


def test_E000_20_reputation_points_accumulate_then_reset() -> None:
    assert progression.gain_reputation(3, 2, -1) == (3, 1)
    assert progression.gain_reputation(0, 0, 1) == (1, 0)


def test_E000_21_creatures() -> None:
    assert [adv.creatures(s) for s in (1, 5, 6, 10, 11, 15)] == [1, 1, 2, 2, 3, 3]
    assert adv.creatures(0) == 0


def test_E000_22_taming() -> None:
    assert adv.taming_difficulty(12) == 22


def test_E000_23_medicine_bands() -> None:
    assert [adv.medicine_malus_removed(t) for t in (1, 5, 6, 10, 11, 15, 16, 20, 21, 25, 26, 30, 31)] == [
        1, 1, 2, 2, 3, 3, 4, 4, 4, 4, 5, 5, 6]
    assert adv.medicine_malus_removed(30, current_malus=2) == 2
    assert adv.medicine_hit_points(4) == 4


def test_E000_24_riding() -> None:
    assert [RIDING[k] for k in ("monter", "pas", "trot", "galop", "triple_galop")] == [10, 10, 15, 20, 25]
    assert adv.riding_difficulty("Galop") == 20


def test_E000_25_carrying_capacity() -> None:
    small, large = adv.carrying_left(4, 0, 0)
    assert small == 20 and large == 4


def test_E000_26_xp_costs() -> None:
    assert progression.spend("x", "carac", "Physique", 5, 10).cost == 4
    assert progression.spend("x", "competence", "hache", 5, 10).cost == 2
    hp = progression.spend("x", "pv", "PV", 20, 1)
    assert hp.cost == 1 and hp.after == 23


def test_E000_26_xp_refused_without_enough_xp() -> None:
    with pytest.raises(RuleError, match="coûte 4 XP"):
        progression.spend("x", "carac", "Physique", 5, 3)
    with pytest.raises(RuleError, match="maximum est 10"):
        progression.spend("x", "competence", "hache", 10, 30)


def test_E000_27_awards() -> None:
    a = progression.scenario_awards(["participation", "reussite", "amelioration_shira", "respect_du_kei"])
    assert (a.xp, a.pa, a.shira) == (4, 2, 4)
    shaman = progression.scenario_awards(["respect_du_kei"], shaman=True)
    assert (shaman.pa, shaman.shira) == (1, 0)
    ind = progression.scenario_awards([], [("meilleure_idee", "xp"), ("meilleur_roleplay", "pa"),
                                            ("meilleure_punchline", "xp")])
    assert (ind.xp, ind.pa) == (3, 1)


def test_E000_28_bounties() -> None:
    assert [progression.bounty(n) for n in range(-5, -11, -1)] == [10, 20, 50, 100, 200, 400]


def _nego(player: int, merchant: int, crit_p: int | None = None, crit_m: int | None = None) -> int:
    a = raw_check("joueur", (Modifier(player - 5, "x"),))
    b = raw_check("marchand", (Modifier(merchant - 5, "x"),))
    faces = [crit_p or 5, crit_m or 5]
    if crit_p:
        a = raw_check("joueur", (Modifier(player - crit_p, "x"),))
    if crit_m:
        b = raw_check("marchand", (Modifier(merchant - crit_m, "x"),))
    return adv.negotiation_discount(Contest(a, b, CONTEST).roll(FixedSource(faces)))


def test_E000_29_negotiation_cap_and_critical() -> None:
    assert _nego(40, 10) == 50
    assert _nego(12, 20, crit_p=10) == 50
    assert _nego(12, 20, crit_m=1) == 50


def test_T000_01_T000_02_T000_03_T000_04_negotiation() -> None:
    assert _nego(17, 12) == 10
    assert adv.discount_for_difference(1) == 0
    assert adv.discount_for_difference(25) == 50
    assert _nego(12, 12) == 0


def test_T000_05_location_clamped_high() -> None:
    assert wounds.location_total(18, 5, mounted_attacker=True) == 20
    assert wounds.zone_for(20, cac=False).name == "Torse"


def test_T000_06_location_clamped_low() -> None:
    assert wounds.location_total(2, 1, mounted_defender=True) == 1
    assert wounds.zone_for(1, cac=False).name == "Pied droit"


def test_T000_07_swimming() -> None:
    assert adv.swimming_metres(15) == 7


def test_T000_08_initiative_tie_then_chance_then_rolloff(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    nain["caracteristiques"].update(agilite=6, sensoriel=3, chance=3)
    elfe["caracteristiques"].update(agilite=4, sensoriel=5, chance=5)
    result = combat.initiative([char(nain), char(elfe)], FixedSource([]))
    assert result.names == ["Elfe B", "Nain A"]
    assert [e.score for e in result.entries] == [9, 9]
    assert [e.tiebreaks for e in result.entries] == [(("Chance", 5),), (("Chance", 3),)]
    assert result.rolloffs == ()
    elfe["caracteristiques"]["chance"] = 3
    result = combat.initiative([char(nain), char(elfe)], FixedSource([4, 4, 2, 9]))
    assert result.names == ["Elfe B", "Nain A"]
    assert [r.faces for r in result.rolloffs] == [(4, 4), (2, 9)]
    assert [e.rolloffs for e in result.entries] == [(4, 9), (4, 2)]


def test_T000_09_werewolf() -> None:
    assert wounds.transformed(6, 5, 4) == (10, 9, 4)


def test_T000_10_carrying_shared_pool() -> None:
    assert adv.carrying_left(4, 0, 2)[0] == 10
