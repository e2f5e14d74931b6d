"""Compiled rolls (`roll`, `Node.compile`) give exactly what the syntax tree gives (`_roll_tree`).

Same total, same groups with every die (face, kept, note), same notes, records and success, the
same faces drawn from the source (the generator left in the same state, hand-given faces read up
to the same one) and, on a refusal, the same error with the same French message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dice.peer_corpus import CORPUS, REFUSED
from jdr.dice import DiceSource, FixedSource, RandomSource, RollResult, roll
from jdr.dice.notation import _roll_tree
from jdr.errors import JdrError

Roll = Callable[..., object]
BENCH = ["1d20+5", "2d10kh1+6", "4d6kh3", "3d6+2d8+4", "10d6", "8d6ro1", "1d20+1d4-2", "1d6!"]
MORE = [
    "4d6r<=2", "1d20r", "3d6rr1", "3d6min2", "3d6max5", "1d6x", "1d10!>8", "1d6!5", "1d6xo",
    "5d6!!", "1d6!p", "4d6ro1kh3", "6d6!kh3", "5d6!!dl2", "8d6rr<3mi4!>5kl4", "3d6ro1ro2",
    "2d1001kh1+1d5000!", "3d2000ro<900", "0d6+1", "3x 4d6kh3", "4d6kh3 x6 # carac",
    "1d20+5>=15", "1d20+1d4 < 12", "PHY+3+1d10", "(1d4)d6", "{1d20+5, 1d20+5}kh1+1d4",
    "1d6+{2d6, 1d8!}>7+1d4", "floor(1d6/2)+1d8", "2d6/0+1d20", "1d6/(1d2-1)", "-1d6*2d4",
    "adv+5", "dis", "1d20[feu]+2d6[froid]", "(10d6kh5)kl2", "1d6 ! attaque",
    "990d6!+10d6", "1000d6!", "999d6rr1+1d6", "500d6ro6+500d6", "100x 10d6", "10x 99d6!",
]
EXPRESSIONS = BENCH + MORE + [c.expression for c in CORPUS if c.status != REFUSED]
NAMES: Mapping[str, int] = {"phy": 7}


def _state(source: DiceSource) -> object:
    if isinstance(source, RandomSource):
        return source.rng.getstate()
    assert isinstance(source, FixedSource)
    return source.position


def _tree_free(r: RollResult) -> RollResult:
    """The result without its syntax tree, compared by identity (either cache may have parsed
    the text again); `detail()`, which renders through the tree, is compared instead."""
    return r._replace(node=None, repeats=tuple(_tree_free(x) for x in r.repeats))


def _outcome(fn: Roll, expression: str, source: DiceSource) -> tuple[object, ...]:
    try:
        r = fn(expression, source, NAMES)
    except JdrError as error:
        return type(error), error.message, _state(source)
    assert isinstance(r, RollResult)
    return _tree_free(r), r.detail(), r.dice, _state(source)


def _same(expression: str, make: Callable[[], DiceSource]) -> None:
    assert _outcome(roll, expression, make()) == _outcome(_roll_tree, expression, make())


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_seeds(expression: str) -> None:
    for seed in range(60):
        _same(expression, lambda: RandomSource(seed))  # noqa: B023 (called at once)


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_faces_by_hand(expression: str) -> None:
    for n in range(12):  # too few faces, then enough: the error or the roll, and what was read
        _same(expression, lambda: FixedSource([6, 1, 3, 6, 2, 5, 1, 4, 6, 6, 1, 2][:n]))  # noqa: B023
    _same(expression, lambda: FixedSource([7, 0, 1]))  # impossible faces


def test_a_roll_shares_the_dice_it_shows() -> None:
    a, b = roll("4d6kh3+1d6!", RandomSource(5)), _roll_tree("4d6kh3+1d6!", RandomSource(5))
    assert _tree_free(a) == _tree_free(b) and a.groups and all(g.dice for g in a.groups)


_MODS = ["", "kh1", "kl2", "dh1", "dl1", "k3", "ro1", "rr1", "r<3", "ro>4", "mi2", "ma5", "!",
         "!>4", "xo", "!!", "!p", "ro1!", "rr2kh2", "!dl1", "mi3!p", "!!kh1", "cs>3", "f1", "x<2"]
_term = st.builds(lambda n, s, m: f"{n}d{s}{m}", st.sampled_from(["", "0", "1", "2", "3", "5", "12"]),
                  st.sampled_from(["1", "2", "4", "6", "10", "20", "100", "F", "1200"]),
                  st.sampled_from(_MODS))
_atom = st.one_of(_term, st.integers(0, 30).map(str), st.just("PHY"))


@st.composite
def _expr(draw: st.DrawFn, depth: int = 0) -> str:
    if depth > 2 or draw(st.booleans()):
        return draw(_atom)
    op = draw(st.sampled_from(["+", "-", "*", "/", "+"]))
    text = f"{draw(_expr(depth + 1))}{op}{draw(_expr(depth + 1))}"
    return draw(st.sampled_from([text, f"({text})", f"-{text}", f"{{{text}, 1d6}}kh1",
                                 f"3x {text}", f"({text})d4"]))


_line = st.builds(lambda e, c: e + c, _expr(), st.sampled_from(["", "", ">=7", " < 3"]))


@settings(max_examples=400, deadline=None)
@given(_line, st.integers(0, 2**32))
def test_generated_expressions_seeded(expression: str, seed: int) -> None:
    _same(expression, lambda: RandomSource(seed))


@settings(max_examples=300, deadline=None)
@given(_line, st.lists(st.integers(0, 12), max_size=30))
def test_generated_expressions_by_hand(expression: str, faces: list[int]) -> None:
    _same(expression, lambda: FixedSource(faces))
