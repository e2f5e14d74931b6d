"""The common dice count their law themselves (`NaturalRoll.law`), so a check's odds need not
import icepool (issue 18): the same law as icepool's, weight for weight."""

from __future__ import annotations

from fractions import Fraction

import icepool
import pytest

from jdr.core.check import KeepOne, NaturalRoll, SingleDie


def _icepool_law(natural: NaturalRoll) -> list[tuple[int, Fraction]]:
    die = natural.distribution()
    return [(int(n), Fraction(int(q), int(die.denominator()))) for n, q in die.items()]


def _law(natural: NaturalRoll) -> list[tuple[int, Fraction]]:
    den, weights = natural.law()
    return [(int(n), Fraction(w, den)) for n, w in weights]  # type: ignore[call-overload]


@pytest.mark.parametrize("sides", [2, 4, 6, 8, 10, 12, 20, 100])
def test_single_die_law_is_icepool_s(sides: int) -> None:
    assert _law(SingleDie(sides)) == _icepool_law(SingleDie(sides))
    assert SingleDie(sides).law()[0] == sides


@pytest.mark.parametrize("count,sides", [(1, 10), (2, 10), (3, 6), (2, 20), (4, 8)])
def test_keep_one_law_is_icepool_s(count: int, sides: int) -> None:
    assert _law(KeepOne(count, sides)) == _icepool_law(KeepOne(count, sides))
    assert _law(KeepOne(count, sides, choice=1)) == _icepool_law(KeepOne(count, sides))


def test_keep_one_weights_sum_to_the_denominator() -> None:
    den, weights = KeepOne(2, 10).law()
    assert den == 100 and sum(w for _, w in weights) == 100
    assert weights[-1] == (10, 19) and weights[0] == (1, 1)


def test_law_of_another_roll_comes_from_its_distribution() -> None:
    class Two(NaturalRoll):
        def distribution(self) -> icepool.Die:
            return icepool.Die([1, 2, 2])

    assert Two().law() == (3, ((1, 1), (2, 2)))
