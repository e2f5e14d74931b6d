"""Sampling: 100,000 rolls of each dd35 check mechanic vs the exact odds (chi-square)."""

from __future__ import annotations

from collections import Counter

from scipy.stats import chisquare

from jdr.core.check import Check
from jdr.dice.source import RandomSource
from jdr.systems.dd35.checks import attack_check, passive_perception_check, saving_throw
from jdr.systems.dd35.demo import character
from jdr.systems.dd35.sheet import Weapon

N = 100_000


def _outcome_key(success: bool | None, critical: str | None, total: int) -> tuple[object, ...]:
    return (success, critical, total)


def _chi_square(check: Check, seed: int) -> float:
    source = RandomSource(seed)
    counts: Counter[tuple[object, ...]] = Counter()
    roll = check.roll
    for _ in range(N):
        r = roll(source)
        counts[_outcome_key(r.success, r.critical, r.total)] += 1
    expected: dict[tuple[object, ...], float] = {}
    for result, p in check.outcomes():
        key = _outcome_key(result.success, result.critical, result.total)
        expected[key] = expected.get(key, 0.0) + float(p) * N
    assert set(counts) <= set(expected)
    keys = sorted(expected, key=repr)
    return float(chisquare([counts.get(k, 0) for k in keys],
                           [expected[k] for k in keys]).pvalue)


def test_sampling_attack_roll_with_threat_range() -> None:
    weapon = Weapon(nom="Rapière", degats="1d6", zone_critique=18)
    check = attack_check(character(classes={"guerrier": 5}), weapon, 17)
    odds = check.odds()
    assert odds.critical_success > 0 and odds.critical_failure > 0
    assert _chi_square(check, 2024) > 0.001


def test_sampling_saving_throw() -> None:
    check = saving_throw(character(sauvegardes={"volonte": 3}), "volonte", 14)
    assert _chi_square(check, 7) > 0.001


def test_passive_perception_has_one_outcome() -> None:
    check = passive_perception_check(character(classes={"mage": 4}), 12)
    odds = check.odds()
    assert odds.distribution == ((14, 1),)
    assert check.roll(RandomSource(1)).total == 14
