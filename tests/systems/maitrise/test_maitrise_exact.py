"""Exact odds against the production rolls: every face sequence enumerated with its weight
(`enumerate_outcomes`), compared with the icepool distribution the odds are computed from.

maitrise has one roll shape, a single d20 (`core.check.SingleDie(20)`), and no NaturalRoll of its
own; the checks, the contest and the attack are enumerated through their own `roll` code."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from maitrise_support import options

from jdr.core.check import Check, SingleDie
from jdr.core.system import AttackRequest, Loaded
from jdr.dice.enumerate import enumerate_outcomes
from jdr.systems.maitrise import SYSTEM, combat
from jdr.systems.maitrise.checks import (
    Stat,
    characteristic_check,
    contest,
    defence_stat,
    skill_check,
    stat_check,
)


def _normalised(check: Check) -> dict[tuple[int, bool | None, str | None], Fraction]:
    """What the odds are computed from: the natural distribution, resolved by the judge."""
    exact: dict[tuple[int, bool | None, str | None], Fraction] = {}
    for result, p in check.outcomes():
        key = (result.total, result.success, result.critical)
        exact[key] = exact.get(key, Fraction(0)) + p
    return exact


def test_single_d20_roll_is_its_distribution() -> None:
    natural = SingleDie(20)
    rolled = enumerate_outcomes(lambda src: natural.roll(src)[0])
    die = natural.distribution()
    assert rolled == {face: Fraction(q, die.denominator()) for face, q in die.items()}


@pytest.mark.parametrize(("skills", "faces", "key"), [
    ({"epee": 0}, {}, "epee"),  # Incompétent weapon: −7 and d20 − 7 ≥ 10
    ({"lire": 0}, {}, "lire"),  # Incompétent, not a weapon
    ({"epee": 25}, {}, "epee"),  # Compétent: from 8
    ({"epee": 85}, {}, "epee"),  # Maître: from 4
    ({"epee": 100}, {"epee": [19, 3]}, "epee"),  # Grand maître 100+, extra faces
])
def test_skill_check_exact(sheet: Any, skills: dict[str, int], faces: dict[str, list[int]],
                           key: str) -> None:
    char = sheet(skills=skills, faces_critiques=faces).model
    check = skill_check(char, key, SYSTEM.config, threshold=None)
    rolled = enumerate_outcomes(lambda src: (lambda r: (r.total, r.success, r.critical))(
        check.roll(src)))
    assert rolled == _normalised(check)
    odds = check.odds()
    assert odds.success == sum((p for (_, ok, _), p in rolled.items() if ok), Fraction(0))


@pytest.mark.parametrize("dodge", [False, True])
def test_characteristic_check_exact(sheet: Any, dodge: bool) -> None:
    char = sheet(caracs={"adresse": 20}, faces_critiques={"adresse": [7]}).model
    check = characteristic_check(char, "adresse", dodge=dodge)
    rolled = enumerate_outcomes(lambda src: (lambda r: (r.total, r.success, r.critical))(
        check.roll(src)))
    assert rolled == _normalised(check)
    odds = check.odds()
    assert odds.success == Fraction(19, 20)  # d20 + 20 ≥ 20 always; only 1 fails
    assert odds.critical_success == Fraction(2, 20)  # 20 and the chosen 7


@pytest.mark.parametrize(("mine", "theirs"), [
    (Stat("skill", "epee"), Stat("skill", "epee")),
    (Stat("skill", "epee"), Stat("carac", "adresse", dodge=True)),
    (Stat("carac", "force"), Stat("carac", "force")),
])
def test_contest_roll_is_its_odds(sheet: Any, mine: Stat, theirs: Stat) -> None:
    a = sheet("A", skills={"epee": 30}).model
    b = sheet("B", skills={"epee": 55}, caracs={"adresse": 14}).model
    duel = contest(stat_check(a, mine, SYSTEM.config), stat_check(b, theirs, SYSTEM.config))
    rolled = enumerate_outcomes(lambda src: (lambda r: (r.winner, r.tie))(duel.roll(src)))
    odds = duel.odds()
    winners: dict[str, Fraction] = {"actor": Fraction(0), "opponent": Fraction(0),
                                    "nobody": Fraction(0)}
    for (winner, _), p in rolled.items():
        winners[winner] += p
    assert odds.success == winners["actor"]
    assert odds.opponent_wins == winners["opponent"]
    assert odds.nobody == winners["nobody"]
    assert odds.tie == sum((p for (_, tie), p in rolled.items() if tie), Fraction(0))


@pytest.mark.parametrize("defender_weapons", [True, False])
def test_attack_hits_as_often_as_the_contest_odds_say(sheet: Any,
                                                      defender_weapons: bool) -> None:
    """`jdr attack` and `jdr odds --contre` agree: P(hit) = P(the attacker wins the contest)."""
    a: Loaded[Any] = sheet("A", skills={"epee": 40})
    d: Loaded[Any] = sheet("D", skills={"epee": 30},
                           armes=[{"nom": "Épée", "competence": "epee"}] if defender_weapons else [])
    request = AttackRequest(a, d, options=options("attack", None))
    def hit(src: Any) -> bool:
        report: Any = combat.attack(request, src, SYSTEM.config).result
        return bool(report.hit)

    hits = enumerate_outcomes(hit)
    attack_check = skill_check(a.model, "epee", SYSTEM.config)
    defence = defence_stat(d.model)
    expected = contest(attack_check, stat_check(d.model, defence, SYSTEM.config)).odds()
    assert hits[True] == expected.success
