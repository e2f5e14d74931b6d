"""Exact odds from one definition: every natural roll Cydonia uses, enumerated face by face
through its production `roll()`, equals its `distribution()`; whole checks and opposed rolls
enumerated through production code equal their odds (R000.11, R000.06, R000.15, D-000.47)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from jdr.core.check import Check, Critical, KeepOne, NaturalRoll, SingleDie
from jdr.core.contest import Contest
from jdr.dice.enumerate import enumerate_outcomes
from jdr.systems.cydonia.checks import (
    CONTEST,
    D10,
    PASSIVE,
    Character,
    passive_check,
    skill_check,
    wake_check,
)
from jdr.systems.cydonia.sheet import CydoniaSheet


def char(data: dict[str, Any]) -> Character:
    return Character(CydoniaSheet.model_validate(data))


def normalised(nat: NaturalRoll) -> dict[Any, Fraction]:
    die = nat.distribution()
    return {value: Fraction(int(q), die.denominator()) for value, q in die.items()}


@pytest.mark.parametrize("nat", [D10, KeepOne(2, 10), PASSIVE], ids=["1d10", "2d10-garder", "aucun-jet"])
def test_every_natural_roll_enumerates_to_its_distribution(nat: NaturalRoll) -> None:
    """R000.11 (1d10), R000.06/R000.17 (expert: 2d10, the better die), D-000.47 (no roll)."""
    assert enumerate_outcomes(lambda src: nat.roll(src)[0]) == normalised(nat)


@pytest.mark.parametrize("choice", [1, 2])
def test_R000_06_chosen_die_is_a_plain_d10(choice: int) -> None:
    """A die the player names is uniform; the odds assume the better die (the player's choice is
    a decision made after seeing the dice, not chance)."""
    nat = KeepOne(2, 10, choice)
    assert enumerate_outcomes(lambda src: nat.roll(src)[0]) == normalised(SingleDie(10))
    assert normalised(nat) == normalised(KeepOne(2, 10))


def _check_cases(nain: dict[str, Any], elfe: dict[str, Any]) -> list[Check]:
    nain["etat"] = {"malus": -2}
    elfe["etat"] = {"assomme": 13}
    n, e = char(nain), char(elfe)
    return [
        skill_check(n, "hache", threshold=15),
        skill_check(n, "negociation", threshold=15),          # expert: 2d10 keep one
        skill_check(n, "courage", threshold=10, bonus=3),      # characteristic alone, malus
        skill_check(n, "resistance_physique", threshold=20),
        wake_check(e, 1),                                      # strictly greater (D-000.49)
        passive_check(e),
    ]


def _enumerated(check: Check) -> tuple[dict[int, Fraction], dict[bool | None, Fraction],
                                        dict[Critical, Fraction]]:
    """Totals, successes and criticals of `check.roll`, enumerated face by face."""
    totals = enumerate_outcomes(lambda src: check.roll(src).total)
    wins = enumerate_outcomes(lambda src: check.roll(src).success)
    crits = enumerate_outcomes(lambda src: check.roll(src).critical)
    return totals, wins, crits


def test_whole_checks_enumerate_to_their_odds(nain: dict[str, Any], elfe: dict[str, Any]) -> None:
    for check in _check_cases(nain, elfe):
        odds = check.odds()
        totals, wins, crits = _enumerated(check)
        assert totals == dict(odds.distribution), check.label
        if odds.success is not None:
            assert wins.get(True, Fraction(0)) == odds.success, check.label
        else:
            assert set(wins) == {None}
        assert crits.get("success", Fraction(0)) == odds.critical_success
        assert crits.get("failure", Fraction(0)) == odds.critical_failure


@pytest.mark.parametrize(("actor", "opponent"), [("hache", "esquive"), ("negociation", "esquive"),
                                                 ("hache", "aucun")])
def test_R000_15_contests_enumerate_to_their_odds(nain: dict[str, Any], elfe: dict[str, Any],
                                                  actor: str, opponent: str) -> None:
    n, e = char(nain), char(elfe)
    against = passive_check(e) if opponent == "aucun" else skill_check(e, opponent)
    contest = Contest(skill_check(n, actor), against, CONTEST)
    odds = contest.odds()
    winners = enumerate_outcomes(lambda src: contest.roll(src).winner)
    ties = enumerate_outcomes(lambda src: contest.roll(src).tie)
    assert winners.get("actor", Fraction(0)) == odds.success
    assert winners.get("opponent", Fraction(0)) == odds.opponent_wins
    assert ties.get(True, Fraction(0)) == odds.tie


def test_expert_odds_are_the_better_of_two_dice(nain: dict[str, Any]) -> None:
    """R000.06: P(kept die = k) = (2k − 1) / 100."""
    odds = skill_check(char(nain), "negociation").odds()
    assert dict(odds.distribution) == {5 + k: Fraction(2 * k - 1, 100) for k in range(1, 11)}
    assert odds.critical_success == Fraction(19, 100) and odds.critical_failure == Fraction(1, 100)
