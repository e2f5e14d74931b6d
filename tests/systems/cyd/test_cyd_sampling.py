"""Sampling: 100,000 rolls of each CYD check mechanic with RandomSource(seed) against the exact
distribution of `Check.odds()` (chi-square, p > 0.001)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import pytest
from scipy.stats import chisquare  # type: ignore[import-untyped]

from jdr.core.check import Check
from jdr.dice.source import RandomSource
from jdr.systems.cyd.checks import Capacity, check_odds, make_check
from jdr.systems.cyd.dice import PredilectionRoll, is_automatic_failure

N = 100_000
CAP = Capacity("Rôdeuse", "adresse", 4, "tir", 2)  # Capacité 6


def _mechanics() -> list[tuple[str, Check]]:
    return [
        ("d10", make_check(CAP, "d10", (), 10)),
        ("d20", make_check(CAP, "d20", (), 10)),
        ("d10 prédilection", make_check(CAP, "d10", (), 10, PredilectionRoll(10))),
        ("d20 prédilection", make_check(CAP, "d20", (), 10, PredilectionRoll(20))),
    ]


def _chi(observed: Counter[object], expected: Mapping[Any, Fraction]) -> float:
    assert set(observed) <= set(expected), set(observed) - set(expected)
    keys = sorted(expected, key=str)
    f_obs = [observed.get(k, 0) for k in keys]
    f_exp = [float(expected[k]) * N for k in keys]
    scale = sum(f_obs) / sum(f_exp)
    return float(chisquare(f_obs, [e * scale for e in f_exp]).pvalue)


@pytest.mark.parametrize(("name", "check"), _mechanics(), ids=[m[0] for m in _mechanics()])
def test_sampling_matches_exact_odds(name: str, check: Check) -> None:
    sides = 20 if "d20" in name else 10
    source = RandomSource(20240603)
    roll = check.roll
    totals: Counter[object] = Counter()
    outcomes: Counter[object] = Counter()
    for _ in range(N):
        result = roll(source)
        totals[result.total] += 1
        auto = is_automatic_failure(sides, result.natural)  # type: ignore[arg-type]
        outcomes["auto" if auto else result.total] += 1
    # the core's exact distribution of totals
    exact = dict(check.odds().distribution)
    assert sum(exact.values()) == 1
    assert _chi(totals, exact) > 0.001
    # the CYD odds (computed final results + automatic failures)
    odds = check_odds(check, sides)
    expected: dict[object, Fraction] = dict(odds.distribution)
    if odds.automatic_failure:
        expected["auto"] = odds.automatic_failure
    assert sum(expected.values()) == 1
    assert _chi(outcomes, expected) > 0.001
