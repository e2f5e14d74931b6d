"""Cydonia rules beyond the worked examples: criticals, experts, defences, the attack chain."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from jdr.core.contest import Contest, ContestResult
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.cydonia import combat, wounds
from jdr.systems.cydonia.checks import CONTEST, Character, judge, resistance_check, skill_check
from jdr.systems.cydonia.sheet import CydoniaSheet


def char(data: dict[str, Any]) -> Character:
    return Character(CydoniaSheet.model_validate(data))


def contest_of(blow: combat.Blow) -> ContestResult:
    step = blow.report.steps[0]
    assert isinstance(step, ContestResult)
    return step


def test_D000_03_critical_success_always_succeeds() -> None:
    v = judge(10, 12, 30)
    assert v.success is True and v.critical == "success"
    v = judge(1, 40, 5)
    assert v.success is False and v.critical == "failure"


def test_A000_01_threshold_inclusive() -> None:
    assert judge(5, 15, 15).success is True
    assert judge(5, 14, 15).success is False


def test_A000_02_opposed_tie_goes_to_defender(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    contest = Contest(skill_check(char(nain), "hache"), skill_check(char(elfe), "esquive"), CONTEST)
    result = contest.roll(FixedSource([5, 6]))  # 15 vs 15
    assert result.tie and not result.success and result.winner == "opponent"
    assert result.rule == "R000.15"


def test_R000_06_expert_keeps_better_die_or_choice(nain: dict[str, Any]) -> None:
    c = char(nain)
    best = skill_check(c, "Négociation").roll(FixedSource([3, 9]))
    assert best.natural == 9 and best.total == 2 + 3 + 9
    chosen = skill_check(c, "negociation", choice=1).roll(FixedSource([3, 9]))
    assert chosen.natural == 3
    with pytest.raises(RuleError):
        skill_check(c, "hache", choice=1)


def test_R000_07_resistances(nain: dict[str, Any]) -> None:
    c = char(nain)
    assert resistance_check(c, "resistance_physique").roll(FixedSource([4])).total == 5 + 7 + 4
    assert resistance_check(c, "resistance_mentale").roll(FixedSource([4])).total == 5 + 1 + 4


def test_R000_12_courage_alone_and_names(nain: dict[str, Any]) -> None:
    c = char(nain)
    assert skill_check(c, "COURAGE").roll(FixedSource([4])).total == 9
    assert skill_check(c, "Dex").roll(FixedSource([4])).total == 8


def test_unknown_skill_suggests(nain: dict[str, Any]) -> None:
    with pytest.raises(RuleError, match="hache"):
        skill_check(char(nain), "hahce")


def test_R000_24_immaterial_uses_resistance(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    opts = combat.AttackOptions(immaterial=True)
    result = combat.attack(char(nain), char(elfe), opts, FixedSource([8, 1, 1, 6]))
    assert contest_of(result).opponent.label == "Résistance Physique"


def test_R000_24_area_forces_dodge(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    elfe["competences"]["bouclier"] = 5
    opts = combat.AttackOptions(defence="bouclier", area=True)
    result = combat.attack(char(nain), char(elfe), opts, FixedSource([8, 6, 1, 6]))
    assert contest_of(result).opponent.label.startswith("Esquive")


def test_R000_30_aimed_malus() -> None:
    assert wounds.aimed_malus("Tête", cac=False) == -8
    assert wounds.aimed_malus("gorge", cac=False) == -8
    assert wounds.aimed_malus("Tête", cac=True) == -6
    assert wounds.aimed_malus("Glotte", cac=True) == -8
    assert wounds.aimed_malus("jambe droite", cac=False) == -6


def test_R000_31_full_chain_updates_state(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    # attack 8 → 18; dodge 6 → 15; location 16 + 3 = 19 (Tête, +1D20); damage 6 → 16; +1D20 = 12
    elfe["pv"] = 25
    blow = combat.attack(char(nain), char(elfe), combat.AttackOptions(), FixedSource([8, 6, 16, 6, 12]))
    result = blow.report
    assert result.hit
    assert result.location is not None and result.location.total == 19
    assert result.location.zone == "Tête"
    (damage,) = result.damage
    assert damage.total == 16 + 12
    assert damage.suffered == 28 - 3 and damage.protection == 3
    assert result.health is not None and (result.health.before, result.health.after) == (25, 0)
    assert result.state is not None and result.state.after == "mort"
    assert dict(blow.defender)[("pv",)] == 0 and dict(blow.defender)[("etat", "mort")] is True


def test_R000_41_head_hit_knockout_roll(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    elfe["pv"] = 100
    # Tête (19) hit for 25; Résistance Physique 4 + 5 + 3 = 12 ≤ 25 → knocked out
    blow = combat.attack(char(nain), char(elfe), combat.AttackOptions(), FixedSource([8, 6, 16, 6, 12, 3]))
    knock = blow.report.steps[1]
    assert not isinstance(knock, ContestResult) and knock.total == 12
    assert dict(blow.defender)[("etat", "assomme")] == 25
    assert blow.report.state is not None and blow.report.state.after == "assomme"


def test_R000_34_miss_changes_nothing(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    blow = combat.attack(char(nain), char(elfe), combat.AttackOptions(), FixedSource([2, 9]))
    assert not blow.report.hit and blow.defender == () and blow.report.health is None


def test_A000_12_dying_hit_in_vital_zone_dies() -> None:
    from jdr.systems.cydonia.tables import WEAPON_LOCATIONS

    assert wounds.state_after(-2, 1, WEAPON_LOCATIONS[14], was_dying=True).dead
    assert wounds.state_after(-2, 1, WEAPON_LOCATIONS[1], was_dying=True).dying


def test_R000_15_opposed_odds_count_ties_for_the_defender(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    contest = Contest(skill_check(char(nain), "hache"), skill_check(char(elfe), "esquive"), CONTEST)
    odds = contest.odds()
    # Nain 10 + d10 against Elfe 9 + d10, 100 face pairs: the Nain needs a ≥ b (55 pairs);
    # a + 1 == b is a tie (9 pairs), won by the defender.
    assert odds.success == Fraction(55, 100)
    assert odds.opponent_wins == Fraction(45, 100)
    assert odds.tie == Fraction(9, 100) and odds.nobody == 0
