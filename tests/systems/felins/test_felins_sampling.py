"""Sampling: 100,000 rolls of each check mechanic vs the exact odds of the same definition."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from scipy.stats import chisquare  # type: ignore[import-untyped]

from jdr.core.check import Check, Modifier
from jdr.dice.source import RandomSource
from jdr.systems.felins.checks import ChanceDice, FelinsJudge, OpposedRoll, OpposedRule

ROLLS = 100_000


def _chi2(observed: Counter[object], expected: dict[object, Fraction]) -> float:
    """Chi-square p-value; categories expected below 5 rolls are pooled into one."""
    keys = sorted(expected, key=repr)
    obs: list[float] = []
    exp: list[float] = []
    pooled_o = pooled_e = 0.0
    for key in keys:
        e = float(expected[key]) * ROLLS
        if e < 5:
            pooled_o += observed.get(key, 0)
            pooled_e += e
        else:
            obs.append(observed.get(key, 0))
            exp.append(e)
    if pooled_e > 0:
        obs.append(pooled_o)
        exp.append(pooled_e)
    assert sum(observed.values()) == ROLLS
    assert set(observed) <= set(expected)
    return float(chisquare(obs, exp).pvalue)


@pytest.mark.parametrize(("count", "choice"), [(1, None), (2, None), (3, None), (5, None),
                                                (3, 2)])
def test_chance_dice_sampling_matches_exact_odds(count: int, choice: int | None) -> None:
    """Skill and characteristic rolls share this natural roll (R004.12, R004.13, A004.06)."""
    check = Check("échantillon", ChanceDice(count, choice), (Modifier(4, "compétence"),),
                  FelinsJudge(), 11)
    source = RandomSource(20240 + count)
    observed: Counter[object] = Counter()
    successes = 0
    for _ in range(ROLLS):
        result = check.roll(source)
        observed[(result.natural, result.success, result.critical)] += 1
        successes += bool(result.success)
    expected: dict[object, Fraction] = {}
    for result, p in check.outcomes():
        key = (result.natural, result.success, result.critical)
        expected[key] = expected.get(key, Fraction(0)) + p
    assert _chi2(observed, expected) > 0.001
    odds = check.odds()
    assert successes / ROLLS == pytest.approx(float(odds.success or 0), abs=0.01)


def test_opposed_sampling_matches_exact_odds() -> None:
    """R004.21 / A004.08: win probability with perfect ties re-rolled."""
    a = Check("a", ChanceDice(2), (Modifier(4, "c"),), FelinsJudge())
    b = Check("b", ChanceDice(2), (Modifier(4, "c"),), FelinsJudge())
    opposed = OpposedRoll(a, b, OpposedRule(4, 4, 2, 2))
    source = RandomSource(77)
    wins = 0
    for _ in range(ROLLS):
        while True:
            winner, _ = opposed.rule.outcome(a.roll(source), b.roll(source))
            if winner:
                break
        wins += winner > 0
    p = float(opposed.odds().success)
    assert _chi2(Counter({"win": wins, "lose": ROLLS - wins}),
                 {"win": Fraction(p), "lose": 1 - Fraction(p)}) > 0.001
