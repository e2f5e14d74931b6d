"""Exact checks instead of sampling: every dd35 roll shape, enumerated through its production
`roll()` over every face sequence, equals its `distribution()` / its odds exactly."""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction

import pytest

from jdr.core.check import Check, CheckResult, NaturalRoll
from jdr.core.contest import Contest
from jdr.dice.enumerate import enumerate_outcomes
from jdr.systems.dd35.checks import (
    CONTEST,
    D20,
    NoRoll,
    ability_check,
    active_perception,
    attack_check,
    initiative_check,
    passive_perception_check,
    saving_throw,
)
from jdr.systems.dd35.config import Rules
from jdr.systems.dd35.demo import character
from jdr.systems.dd35.sheet import Weapon

RAPIER = Weapon(nom="Rapière", degats="1d6", zone_critique=18)


def _normalised(nat: NaturalRoll) -> dict[Hashable, Fraction]:
    die = nat.distribution()
    return {face: Fraction(int(q), int(die.denominator())) for face, q in die.items()}


@pytest.mark.parametrize("nat", [D20, NoRoll()], ids=["d20", "sans_jet"])
def test_every_natural_roll_is_its_distribution(nat: NaturalRoll) -> None:
    assert enumerate_outcomes(lambda src: nat.roll(src)[0]) == _normalised(nat)


def _key(r: CheckResult) -> tuple[object, ...]:
    return (r.success, r.critical, r.total, r.margin)


def _exact(check: Check) -> dict[tuple[object, ...], Fraction]:
    out: dict[tuple[object, ...], Fraction] = {}
    for result, p in check.outcomes():
        out[_key(result)] = out.get(_key(result), Fraction(0)) + p
    return out


FIGHTER = character(classes={"guerrier": 5}, abilities={"force": 14, "intelligence": 12},
                    sauvegardes={"volonte": 3})
CHECKS = {
    "attaque_zone_18": attack_check(FIGHTER, RAPIER, 17),
    "attaque_1_litteral": attack_check(FIGHTER, RAPIER, 17, rules=Rules(natural_one_misses=False)),
    "attaque_sans_ca": attack_check(FIGHTER, RAPIER, None),
    "perception_active": active_perception(FIGHTER, "embuscade", 15),
    "perception_passive": passive_perception_check(FIGHTER, 12),
    "sauvegarde": saving_throw(FIGHTER, "volonte", 14),
    "test": ability_check(FIGHTER, "force", 12),
    "initiative": initiative_check(FIGHTER),
}


@pytest.mark.parametrize("name", list(CHECKS))
def test_every_check_rolls_its_odds(name: str) -> None:
    check = CHECKS[name]
    assert enumerate_outcomes(lambda src: _key(check.roll(src))) == _exact(check)
    exact = _exact(check)
    judged = any(success is not None for success, *_ in exact)
    hits = sum((p for (success, *_), p in exact.items() if success), Fraction(0))
    assert check.odds().success == (hits if judged else None)


def test_attack_odds_with_threat_range() -> None:
    odds = CHECKS["attaque_zone_18"].odds()
    # +7 vs 17: hits on 10..20 (11 faces, 1 misses anyway); critical on 18, 19, 20
    assert odds.success == Fraction(11, 20)
    assert odds.critical_success == Fraction(3, 20)
    assert odds.critical_failure == Fraction(1, 20)


def test_passive_perception_has_one_outcome() -> None:
    check = CHECKS["perception_passive"]
    assert check.odds().distribution == ((15, Fraction(1)),)  # 10 + level 5 + Wis 0


CONTESTS = {
    "jet_contre_jet": Contest(ability_check(character(), "force", None),
                              ability_check(character(abilities={"force": 20}), "force", None),
                              CONTEST),
    "jet_contre_passif": Contest(active_perception(FIGHTER, "embuscade", None),
                                 passive_perception_check(character(classes={"guerrier": 3}), None),
                                 CONTEST),
    "passif_contre_jet": Contest(passive_perception_check(FIGHTER, None),
                                 active_perception(character(), "embuscade", None), CONTEST),
    "passif_contre_passif": Contest(passive_perception_check(FIGHTER, None),
                                    passive_perception_check(character(classes={"mage": 7}), None),
                                    CONTEST),
}


@pytest.mark.parametrize("name", list(CONTESTS))
def test_every_contest_rolls_its_odds(name: str) -> None:
    contest = CONTESTS[name]
    rolled = enumerate_outcomes(lambda src: contest.roll(src).winner)
    odds = contest.odds()
    expected = {"actor": odds.success, "opponent": odds.opponent_wins, "nobody": odds.nobody}
    assert rolled == {k: v for k, v in expected.items() if v}


def test_contest_odds_break_ties_like_the_roll() -> None:
    # +0 against +5: the actor wins on a difference of 6 or more (105 of 400); the 15 equal
    # totals go to the higher bonus, the opponent: 0.2625, not 0.30.
    odds = CONTESTS["jet_contre_jet"].odds()
    assert odds.success == Fraction(105, 400) == Fraction(2625, 10000)
    assert odds.tie == Fraction(15, 400)
    assert odds.opponent_wins == 1 - odds.success
