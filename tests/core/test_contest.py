"""The shared opposed roll: one definition rolls and counts; the fast count equals every pair."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from jdr.core.check import Check, KeepOne, Modifier, SingleDie, Verdict
from jdr.core.contest import (
    Contest,
    ContestRule,
    Criterion,
    _count_pairs,
    _count_sorted,
    _weighted,
    contest_odds,
)
from jdr.core.initiative import Entrant, OrderRule, order
from jdr.dice.enumerate import enumerate_outcomes
from jdr.dice.source import FixedSource


def _judge(natural: object, total: int, threshold: int | None) -> Verdict:
    crit = "success" if natural == 10 else "failure" if natural == 1 else None
    success = None if threshold is None else total >= threshold
    return Verdict(success, crit, None if threshold is None else total - threshold)


def _check(sides: int, bonus: int, skill: int = 0, keep: int = 1, threshold: int | None = None
           ) -> Check:
    natural = SingleDie(sides) if keep == 1 else KeepOne(keep, sides)
    return Check(f"d{sides}+{bonus}", natural, (Modifier(bonus, "bonus"),), _judge, threshold,
                 stats=(("skill", skill),))


KEYS = ["total", "margin", "bonus", "success", "critical", "rolled", "stat:skill"]


@settings(max_examples=150, deadline=None, derandomize=True)
@given(st.sampled_from([4, 6, 10, 20]), st.integers(-5, 5), st.integers(-5, 5),
       st.integers(0, 3), st.integers(0, 3), st.lists(st.sampled_from(KEYS), min_size=1, max_size=4),
       st.sampled_from(["actor", "opponent", "nobody", "reroll"]), st.integers(1, 2))
def test_sorted_count_equals_every_pair(sides: int, a: int, b: int, sa: int, sb: int,
                                        keys: list[str], final: str, keep: int) -> None:
    rule = ContestRule(tuple(Criterion(k) for k in keys), final)  # type: ignore[arg-type]
    _, mine = _weighted(_check(sides, a, sa, keep, threshold=sides // 2))
    _, theirs = _weighted(_check(sides, b, sb, threshold=sides // 2))
    assert _count_sorted(rule, mine, theirs, keys) == _count_pairs(rule, mine, theirs)


def test_contest_odds_equal_enumeration_of_the_roll() -> None:
    """Rolling through every face sequence gives exactly the odds (ties to the defender)."""
    contest = Contest(_check(10, 10), _check(10, 9), ContestRule(rule="R000.15"))
    outcomes = enumerate_outcomes(lambda src: contest.roll(src).winner)
    odds = contest_odds(contest)
    assert outcomes["actor"] == odds.success == Fraction(55, 100)
    assert outcomes["opponent"] == odds.opponent_wins


def test_reroll_is_a_geometric_series() -> None:
    rule = ContestRule((Criterion("total"),), "reroll")
    contest = Contest(_check(6, 0), _check(6, 0), rule)
    odds = contest_odds(contest)
    assert odds.success == Fraction(1, 2) and odds.tie == Fraction(1, 6)
    result = contest.roll(FixedSource([3, 3, 5, 2]))
    assert result.winner == "actor" and len(result.rounds) == 1


def test_nobody_when_both_fail() -> None:
    rule = ContestRule((Criterion("success", nobody_if_both_low=True), Criterion("margin")))
    contest = Contest(_check(10, 0, threshold=20), _check(10, 0, threshold=20), rule)
    assert contest_odds(contest).nobody == 1
    assert contest.roll(FixedSource([9, 9])).winner == "nobody"


def test_initiative_rolls_off_until_strict_and_is_bounded() -> None:
    entrants = [Entrant("A", 10, tiebreaks=(("Chance", 3),)), Entrant("B", 10, tiebreaks=(("Chance", 3),)),
                Entrant("C", 12)]
    result = order(entrants, OrderRule(10), FixedSource([5, 5, 7, 2]))
    assert result.names == ["C", "A", "B"]
    assert [r.faces for r in result.rolloffs] == [(5, 5), (7, 2)]
    import pytest

    from jdr.errors import RuleError

    with pytest.raises(RuleError, match="toujours à égalité"):
        order(entrants[:2], OrderRule(10, max_rolloffs=2), FixedSource([4, 4, 6, 6]))
