"""Exact odds against sampling: 100,000 rolls of each check mechanic, chi-square (p > 0.001)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from scipy.stats import chisquare

from jdr.core.check import Check
from jdr.dice.source import RandomSource
from jdr.systems.maitrise import SYSTEM
from jdr.systems.maitrise.checks import Contest, characteristic_check, skill_check

N = 100_000


def _chi(observed: Counter[Any], expected: dict[Any, Fraction]) -> float:
    keys = [k for k, p in expected.items() if p > 0]
    assert set(observed) <= set(keys)
    obs = [observed.get(k, 0) for k in keys]
    exp = [float(expected[k]) * N for k in keys]
    return float(chisquare(obs, exp).pvalue)


def _outcome(success: bool | None, critical: str | None) -> str:
    return f"{critical or 'normal'}-{success}"


def check_against_odds(check: Check, seed: int) -> None:
    odds = check.odds()
    source = RandomSource(seed)
    totals: Counter[int] = Counter()
    kinds: Counter[str] = Counter()
    for _ in range(N):
        r = check.roll(source)
        totals[r.total] += 1
        kinds[_outcome(r.success, r.critical)] += 1
    assert odds.success is not None
    assert _chi(totals, dict(odds.distribution)) > 0.001
    expected = {
        "success-True": odds.critical_success,
        "normal-True": odds.success - odds.critical_success,
        "normal-False": 1 - odds.success - odds.critical_failure,
        "failure-False": odds.critical_failure,
    }
    assert _chi(kinds, expected) > 0.001


def _char(sheet: Any, **kw: Any) -> Any:
    return SYSTEM.load(sheet(**kw))


@pytest.mark.parametrize(("skills", "faces", "key"), [
    ({"epee": 0}, {}, "epee"),  # Incompétent weapon: −7 and d20 − 7 ≥ 10
    ({"epee": 25}, {}, "epee"),  # Compétent: from 8
    ({"epee": 100}, {"epee": [19, 3]}, "epee"),  # Grand maître 100+, extra faces
])
def test_skill_check_sampling(sheet: Any, skills: dict[str, int], faces: dict[str, list[int]],
                              key: str) -> None:
    char = _char(sheet, skills=skills, faces_critiques=faces)
    check_against_odds(skill_check(char, key, SYSTEM.config, threshold=None), seed=1)


def test_characteristic_check_sampling(sheet: Any) -> None:
    char = _char(sheet, caracs={"adresse": 20}, faces_critiques={"adresse": [7]})
    check_against_odds(characteristic_check(char, "adresse"), seed=2)


def test_contest_sampling(sheet: Any) -> None:
    a = _char(sheet, skills={"epee": 30})
    b = _char(sheet, skills={"epee": 55})
    contest = Contest(skill_check(a, "epee", SYSTEM.config), skill_check(b, "epee", SYSTEM.config))
    odds = contest.odds()
    source = RandomSource(3)
    seen: Counter[str] = Counter()
    for _ in range(N):
        r = contest.roll(source)
        seen["win" if r.success else ("tie" if r.tie else "lose")] += 1
    expected = {"win": odds.success, "tie": odds.tie, "lose": 1 - odds.success - odds.tie}
    assert _chi(seen, expected) > 0.001
