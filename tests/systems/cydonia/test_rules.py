"""Cydonia rules beyond the worked examples: criticals, experts, defences, the attack chain."""

from __future__ import annotations

from typing import Any

import pytest
from scipy.stats import chisquare

from jdr.core.check import Opposed
from jdr.dice.source import FixedSource, RandomSource
from jdr.errors import RuleError
from jdr.systems.cydonia import combat
from jdr.systems.cydonia.checks import Character, judge, resistance_check, skill_check
from jdr.systems.cydonia.sheet import CydoniaSheet


def char(data: dict[str, Any]) -> Character:
    return Character(CydoniaSheet.model_validate(data))


def test_D000_03_critical_success_always_succeeds() -> None:
    v = judge(10, 12, 30)
    assert v.success is True and v.critical == "success"
    v = judge(1, 40, 5)
    assert v.success is False and v.critical == "failure"


def test_A000_01_threshold_inclusive() -> None:
    assert judge(5, 15, 15).success is True
    assert judge(5, 14, 15).success is False


def test_A000_02_opposed_tie_goes_to_defender(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    contest = Opposed(skill_check(char(nain), "hache"), skill_check(char(elfe), "esquive"))
    result = contest.roll(FixedSource([5, 6]))  # 15 vs 15
    assert result.tie and not result.success


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
    assert result.contest.opponent.label == "Résistance Physique"


def test_R000_24_area_forces_dodge(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    elfe["competences"]["bouclier"] = 5
    opts = combat.AttackOptions(defence="bouclier", area=True)
    result = combat.attack(char(nain), char(elfe), opts, FixedSource([8, 6, 1, 6]))
    assert result.contest.opponent.label.startswith("Esquive")


def test_R000_30_aimed_malus() -> None:
    assert combat.aimed_malus("Tête", cac=False) == -8
    assert combat.aimed_malus("gorge", cac=False) == -8
    assert combat.aimed_malus("Tête", cac=True) == -6
    assert combat.aimed_malus("Glotte", cac=True) == -8
    assert combat.aimed_malus("jambe droite", cac=False) == -6


def test_R000_31_full_chain_updates_state(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    # attack 8 → 18; dodge 6 → 15; location 16 + 3 = 19 (Tête, +1D20); damage 6 → 16; +1D20 = 12
    elfe["pv"] = 25
    result = combat.attack(char(nain), char(elfe), combat.AttackOptions(), FixedSource([8, 6, 16, 6, 12]))
    assert result.hit
    assert result.location is not None and result.location["total"] == 19
    assert result.damage is not None and result.damage["raw"] == 16 + 12
    assert result.damage["suffered"] == 28 - 3
    assert result.hit_points == 0 and result.state == "mort"


def test_R000_41_head_hit_knockout_roll(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    elfe["pv"] = 100
    # Tête (19) hit for 25; Résistance Physique 4 + 5 + 3 = 12 ≤ 25 → knocked out
    result = combat.attack(char(nain), char(elfe), combat.AttackOptions(), FixedSource([8, 6, 16, 6, 12, 3]))
    assert result.knockout is not None and result.knockout.total == 12
    assert result.changes["assomme"] == 25


def test_R000_34_miss_changes_nothing(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    result = combat.attack(char(nain), char(elfe), combat.AttackOptions(), FixedSource([2, 9]))
    assert not result.hit and result.hit_points == 25


def test_A000_12_dying_hit_in_vital_zone_dies() -> None:
    from jdr.systems.cydonia.tables import WEAPON_LOCATIONS

    assert combat.state_after(-2, 1, WEAPON_LOCATIONS[14], was_dying=True).dead
    assert combat.state_after(-2, 1, WEAPON_LOCATIONS[1], was_dying=True).dying


@pytest.mark.parametrize("expert", [False, True])
def test_sampling_agrees_with_exact_odds(nain: dict[str, Any], expert: bool) -> None:
    """One definition: 100,000 rolls of the check against its exact distribution (chi-square)."""
    check = skill_check(char(nain), "negociation" if expert else "hache", threshold=15)
    odds = check.odds()
    source = RandomSource(20261130)
    counts: dict[int, int] = {}
    n = 100_000
    for _ in range(n):
        total = check.roll(source).total
        counts[total] = counts.get(total, 0) + 1
    totals = [t for t, _ in odds.distribution]
    observed = [counts.get(t, 0) for t in totals]
    expected = [float(p) * n for _, p in odds.distribution]
    assert sum(observed) == n
    assert chisquare(observed, expected).pvalue > 0.001


def test_opposed_odds_match_enumeration(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    contest = Opposed(skill_check(char(nain), "hache"), skill_check(char(elfe), "esquive"))
    odds = contest.odds()
    wins = sum(1 for a in range(1, 11) for b in range(1, 11) if 10 + a > 9 + b)
    assert odds.success == pytest.approx(wins / 100) or float(odds.success or 0) == wins / 100
