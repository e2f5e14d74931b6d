"""Rolls and exact odds are one definition: enumeration of every face sequence agrees with `odds`."""

from __future__ import annotations

import time
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jdr.dice import FixedSource, RandomSource, roll
from jdr.dice.enumerate import enumerate_outcomes, enumerate_truncated
from jdr.dice.modifiers import EXPLODE_DEPTH
from jdr.dice.odds import odds
from jdr.errors import DiceError, DiceLimitError

EXACT = [
    "3d6", "2d10kh1+6", "4d6kh3", "4d4dl1", "3d6>4", "4d6cs>=5", "5d6>5f1", "3d6cs>4cf1",
    "4d4cf<2", "4dF", "4dF+2", "2d6r1", "2d6ro<3", "3d4xo", "3d6mi2", "3d6ma4", "{1d6,1d8}kh1",
    "{1d4+1,2d4,1d6}dl1", "{1d6,1d6,1d6}>=4", "(1d4)d4", "(1d3)d6kh1", "floor(1d6/2)",
    "ceil(1d6/2)", "round(2d6/4)", "abs(1d6-1d6)", "max(1d6,1d6)", "min(1d6,1d4,2)", "adv",
    "dis+1", "((6d4kh4)kl2)kh1", "2d6 >= 7", "-1d6+3", "1d4*1d4", "10/1d4", "2d4>3f1", "3dF>0",
    "(4d6)kh3", "(3d6)cs>3", "(1d20, 1d20)kh1", "4d4kh3kl2", "2d6d", "1d20[feu]+2 # attaque",
]


@pytest.mark.parametrize("expression", EXACT)
def test_odds_equal_enumeration(expression: str) -> None:
    """No explosion: every face sequence enumerated gives exactly the computed distribution."""
    enumerated = enumerate_outcomes(lambda src: roll(expression, src).total)
    o = odds(expression)
    assert o.truncated == 0
    assert dict(o.distribution) == enumerated


TRUNCATED = ["2d6!", "1d6!>4", "2d4!!", "1d6!p", "3d4!kh2", "2d4!!kh1", "3d4!dl1", "2d6rr1",
             "3d4r<=2rr4", "1d3!!kh1+1d3!", "2d3!kl1", "2d4x>=3cs>=4"]


@pytest.mark.parametrize("expression", TRUNCATED)
def test_odds_equal_enumeration_within_truncation(expression: str) -> None:
    """Explosions and rerolls until: enumeration stops after 8 dice, odds after 20 explosions a
    die; every value agrees to within what each left out, and what is left out is small."""
    enumerated, cut = enumerate_truncated(lambda src: roll(expression, src).total, 8)
    o = odds(expression)
    dist = dict(o.distribution)
    for value in set(enumerated) | set(dist):
        gap = abs(enumerated.get(value, Fraction(0)) - dist.get(value, Fraction(0)))
        assert gap <= cut + o.truncated
    assert o.truncated < Fraction(1, 10**4)


def test_single_exploding_die_is_exact_at_the_same_depth() -> None:
    """One die, followed through the same number of dice on both sides: identical."""
    enumerated, cut = enumerate_truncated(lambda src: roll("1d4!", src).total, EXPLODE_DEPTH + 1)
    o = odds("1d4!")
    assert dict(o.distribution) == enumerated
    assert o.truncated == cut == Fraction(1, 4 ** (EXPLODE_DEPTH + 1))


def test_peer_worked_examples() -> None:
    assert odds("5d6!!").mean == pytest.approx(21.0, abs=1e-6)  # Roll20: compounding, not « twice »
    o = odds("10d10cs>=7")
    assert o.counting and o.mean == 4
    assert o.at_least(0) == 1 and o.at_least(11) == 0
    assert o.at_least(10) == o.exactly(10)
    assert o.exactly(10) == Fraction(4, 10) ** 10
    c = odds("1d20+5>=15")
    assert c.success == Fraction(11, 20) and c.comparison == "≥ 15"
    assert odds("2d20kh1").mean == Fraction(553, 40)


def test_truncated_part_is_shown() -> None:
    o = odds("1d2!")
    assert o.truncated == Fraction(1, 2 ** (EXPLODE_DEPTH + 1))
    assert any("20 par dé" in n for n in o.notes)


def test_repeat_odds_are_for_one_roll() -> None:
    o = odds("6x 4d6kh3")
    assert o.repeat == 6 and o.mean == Fraction(15869, 1296)


def test_odds_with_names() -> None:
    assert odds("PHY+1d6", {"phy": 3}).minimum == 4
    with pytest.raises(DiceError, match="inconnu"):
        odds("PHY+1d6")


@pytest.mark.parametrize("expression", [
    "1000d6kh500", "20d20!kh5", "{" + ", ".join(f"10d10kh3+{i}" for i in range(40)) + "}kh2",
    "(1000d1000)d1000", "(1d1000)d1000kh3", "1000d6kh500", "1d2!" + "+1d2!" * 300,
])
def test_costly_odds_refused_fast(expression: str) -> None:
    start = time.perf_counter()
    with pytest.raises(DiceLimitError):
        odds(expression)
    assert time.perf_counter() - start < 3.0  # generous; the refusal is the assertion


# ------------------------------------------------------------------ hypothesis: roll ∈ support

_mod = st.sampled_from(["", "kh1", "kl2", "dh1", "dl1", "k", "d", "!", "x", "xo", "!!", "!p", "ro1",
                        "rr1", "r<3", "mi2", "ma3", "cs>=3", ">3", "<2", ">3f1", "cs>2df1", "cf<2"])


@st.composite
def _expression(draw: st.DrawFn) -> str:
    n = draw(st.integers(1, 3))
    sides = draw(st.sampled_from([2, 3, 4, 6, "F"]))
    term = f"{n}d{sides}{draw(_mod)}"
    shape = draw(st.sampled_from(["{t}", "{t}+{k}", "{{{t}, 1d4}}kh1", "({t})kh1", "-{t}",
                                  "{t}*2", "floor({t}/2)", "{t} >= {k}", "(1d2)d{s}"]))
    return shape.format(t=term, k=draw(st.integers(0, 5)), s=sides)


@settings(max_examples=150, deadline=None)
@given(_expression(), st.integers(0, 2**32))
def test_every_roll_lies_in_its_distribution(expression: str, seed: int) -> None:
    try:
        o = odds(expression)
    except DiceError:
        with pytest.raises(DiceError):
            roll(expression, RandomSource(seed))
        return
    r = roll(expression, RandomSource(seed))
    support = {t for t, _ in o.distribution}
    assert r.total in support or (o.truncated > 0 and r.total not in support)
    if o.truncated == 0:
        assert r.total in support
    assert r.detail()


def test_fixed_faces_hand_given_fudge() -> None:
    r = roll("4dF", FixedSource([1, 2, 3, 3]))
    assert [d.face for d in r.dice] == [-1, 0, 1, 1] and r.total == 1
