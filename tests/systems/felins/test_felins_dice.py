"""Exact tests of every roll shape (R004.12, R004.13, R004.18–R004.21, A004.05, A004.06,
A004.08): each production `roll()` is enumerated over every face sequence and must give exactly
the distribution the odds use; the opposed odds are checked against one enumerated round."""

from __future__ import annotations

from fractions import Fraction

import pytest

from jdr.core.check import Check, Modifier
from jdr.core.contest import Contest
from jdr.dice.enumerate import enumerate_outcomes
from jdr.dice.source import DiceSource
from jdr.systems.felins.checks import FelinsJudge
from jdr.systems.felins.config import DEFAULT
from jdr.systems.felins.dice import ChanceDice, ChanceNatural, chance_distribution
from jdr.systems.felins.opposed import contest_rule


def exact(dice: ChanceDice) -> dict[object, Fraction]:
    die = dice.distribution()
    den = die.denominator()
    return {k: Fraction(q, den) for k, q in die.items()}


@pytest.mark.parametrize(("count", "choice"), [
    (1, None),   # one die: Chance 1
    (2, None),   # keep the best of two (A004.05)
    (3, None),   # keep the best of three, several confirmations in one roll (A004.06)
    (2, 1),      # the player's die (A004.05), the other still confirmed
    (3, 2),
])
def test_chance_dice_roll_is_its_distribution(count: int, choice: int | None) -> None:
    """R004.12 / R004.18 / R004.19 / A004.06: the confirmation rerolls included."""
    dice = ChanceDice(count, choice)

    def natural(source: DiceSource) -> object:
        return dice.roll(source)[0]

    assert enumerate_outcomes(natural) == exact(dice)


def test_confirmation_rerolls_exact_laws() -> None:
    """A004.06 with one die: P(critical success) = P(critical failure) = 1/100; with two dice,
    both criticals at once (T004.09) = 2 × (1/100)² = 1/5000."""
    one = exact(ChanceDice(1))
    assert one[ChanceNatural(10, True, False)] == Fraction(1, 100)
    assert one[ChanceNatural(10, False, False)] == Fraction(9, 100)
    two = exact(ChanceDice(2))
    both = sum(p for k, p in two.items() if isinstance(k, ChanceNatural)
               and k.critical_success and k.critical_failure)
    assert both == Fraction(1, 5000)
    assert chance_distribution(5).denominator() == 100 ** 5


def _check(count: int, skill: int, bonus: int = 0) -> Check:
    mods = (Modifier(skill, "compétence"), *((Modifier(bonus, "bonus du MJ"),) if bonus else ()))
    return Check("x", ChanceDice(count), mods, FelinsJudge(DEFAULT),
                 stats=(("skill", skill), ("chance", count)))


@pytest.mark.parametrize(("actor", "opponent", "rerolls"), [
    (_check(1, 4, bonus=1), _check(1, 4), True),   # same skill and Chance: perfect ties re-roll
    (_check(1, 4), _check(2, 3), False),           # ties broken by the skill used
])
def test_opposed_odds_are_one_round_enumerated_and_rerolled(actor: Check, opponent: Check,
                                                            rerolls: bool) -> None:
    """R004.21 / A004.08: one round through production `roll()` and the rule's `decide`, exactly;
    the odds are win / (1 − re-roll)."""
    contest = Contest(actor, opponent, contest_rule(DEFAULT))

    def one_round(source: DiceSource) -> str:
        winner, _, _ = contest.rule.decide(contest.actor.roll(source), contest.opponent.roll(source))
        return winner or "reroll"

    law = enumerate_outcomes(one_round)
    odds = contest.odds()
    reroll = law.get("reroll", Fraction(0))
    assert (reroll > 0) is rerolls
    assert odds.success == law["actor"] / (1 - reroll)
    assert odds.opponent_wins == law["opponent"] / (1 - reroll)


def test_check_odds_are_the_enumerated_roll() -> None:
    """The odds of a check (R004.12) are the enumerated production roll, success and criticals."""
    check = Check("x", ChanceDice(2), (Modifier(4, "compétence"),), FelinsJudge(DEFAULT), 11)

    def outcome(source: DiceSource) -> tuple[bool | None, str | None]:
        result = check.roll(source)
        return result.success, result.critical

    law = enumerate_outcomes(outcome)
    odds = check.odds()
    assert odds.success == sum(p for (s, _), p in law.items() if s)
    assert odds.critical_success == sum(p for (_, c), p in law.items() if c == "success")
    assert odds.critical_failure == sum(p for (_, c), p in law.items() if c == "failure")


def test_E004_11_duration_dice_roll_is_its_distribution() -> None:
    """R004.32 3d10 × 5 minutes: the production roll against the law its odds use (15–150)."""
    from jdr.systems.felins.dice import DurationDice

    dice = DurationDice()

    def natural(source: DiceSource) -> object:
        return dice.roll(source)[0]

    law = dice.distribution()
    exact = {k: Fraction(q, law.denominator()) for k, q in law.items()}
    assert enumerate_outcomes(natural) == exact
    assert (dice.value(3), dice.value(30)) == (15, 150)
