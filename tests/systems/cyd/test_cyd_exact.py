"""Exactness, replacing the old 100,000-roll sampling: every CYD roll shape, run through its
production `roll()` over every face sequence (`enumerate_outcomes`), equals exactly its
`distribution()`; and the odds of checks and opposed tests equal what the rolling code gives."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from jdr.core.check import NaturalRoll
from jdr.core.contest import Contest
from jdr.dice.enumerate import enumerate_outcomes
from jdr.systems.cyd.capacite import Capacity, make_check
from jdr.systems.cyd.dice import CydDie, PredilectionRoll
from jdr.systems.cyd.opposition import OPPOSED, contest_odds, heroic_win, roll_contest

SHAPES: list[CydDie | PredilectionRoll] = [
    CydDie(10), CydDie(20),
    PredilectionRoll(10), PredilectionRoll(20),                    # keep the better result
    PredilectionRoll(10, choice=1), PredilectionRoll(20, choice=2),  # --choix
    PredilectionRoll(10, first=3), PredilectionRoll(20, first=13),   # --opt premier_jet
    PredilectionRoll(20, choice=1, first=11), PredilectionRoll(20, choice=2, first=11),
]
ACTOR = Capacity("A", "adresse", 5, "tir", 3)       # Capacité 8
OPPONENT = Capacity("B", "adresse", 4, "tir", 5)    # Capacité 9
UNTRAINED = Capacity("C", "adresse", 6, "tir", 0)   # Capacité 3


def normalised(natural: NaturalRoll) -> dict[object, Fraction]:
    die = natural.distribution()
    return {face: Fraction(q, die.denominator()) for face, q in die.items()}


@pytest.mark.parametrize("natural", SHAPES, ids=repr)
def test_roll_equals_distribution(natural: NaturalRoll) -> None:
    assert enumerate_outcomes(lambda src: natural.roll(src)[0]) == normalised(natural)


@pytest.mark.parametrize("natural", SHAPES, ids=repr)
@pytest.mark.parametrize("threshold", [5, 10, 18, None])
def test_check_odds_equal_the_rolled_check(natural: CydDie | PredilectionRoll,
                                           threshold: int | None) -> None:
    die = f"d{natural.sides}"
    check = make_check(ACTOR, die, (), threshold, natural)
    rolled = enumerate_outcomes(lambda src: (lambda r: (r.total, r.success, r.critical))(
        check.roll(src)))
    odds = check.odds()
    totals: dict[int, Fraction] = {}
    for (total, _, _), p in rolled.items():
        totals[total] = totals.get(total, Fraction(0)) + p
    assert dict(odds.distribution) == totals
    assert odds.critical_success == sum(p for (_, _, c), p in rolled.items() if c == "success")
    assert odds.critical_failure == sum(p for (_, _, c), p in rolled.items() if c == "failure")
    if threshold is not None:
        assert odds.success == sum(p for (_, s, _), p in rolled.items() if s)


@pytest.mark.parametrize(("die_a", "die_b"), [("d10", "d10"), ("d10", "d20"), ("d20", "d10"),
                                              ("d20", "d20")])
@pytest.mark.parametrize(("a", "b"), [(ACTOR, OPPONENT), (OPPONENT, ACTOR), (ACTOR, ACTOR),
                                      (UNTRAINED, OPPONENT)])
def test_opposed_odds_equal_the_rolled_contest(die_a: str, die_b: str, a: Capacity,
                                               b: Capacity) -> None:
    """R003.13 / A003.04 / A003.05: the odds of `OPPOSED` (and the heroic win) are what
    `roll_contest` gives over every pair of faces."""
    actor, opponent = make_check(a, die_a, (), None), make_check(b, die_b, (), None)
    rolled = enumerate_outcomes(lambda src: (lambda r: (r.winner, r.actor.critical))(
        roll_contest(actor, opponent, src)))
    odds = contest_odds(actor, opponent)

    def p(test: Callable[[str, str | None], bool]) -> Fraction:
        return sum((q for (w, c), q in rolled.items() if test(w, c)), Fraction(0))

    assert odds.success == p(lambda w, _: w == "actor")
    assert odds.opponent_wins == p(lambda w, _: w == "opponent")
    assert odds.nobody == p(lambda w, _: w == "nobody")
    assert odds.critical_success == p(lambda w, c: w == "actor" and c == "success")
    assert heroic_win(actor, opponent) == odds.critical_success
    assert odds.critical_failure == p(lambda _, c: c == "failure")
    assert Contest(actor, opponent, OPPOSED).odds().success == odds.success
