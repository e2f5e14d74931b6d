"""Dice notation: faces shown, limits enforced, never an error other than ours."""

from __future__ import annotations

import contextlib
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from jdr.dice import FixedSource, RandomSource, parse_faces, roll
from jdr.errors import DiceError, DiceLimitError, FacesError


def test_keep_highest_shows_every_face() -> None:
    r = roll("2d10kh1+6", FixedSource([8, 3]))
    assert r.total == 14
    assert [(d.face, d.kept) for d in r.dice] == [(8, True), (3, False)]
    assert r.detail() == "2d10kh1 [8, ~3~] + 6"


def test_4d6kh3() -> None:
    assert roll("4d6kh3", FixedSource([1, 6, 5, 4])).total == 15


def test_reroll_once_and_recursive() -> None:
    assert roll("1d6ro1", FixedSource([1, 1])).total == 1
    assert roll("1d6rr1", FixedSource([1, 1, 4])).total == 4
    assert roll("2d6r<3", FixedSource([2, 5, 6])).total == 11


def test_explode() -> None:
    r = roll("1d6!", FixedSource([6, 6, 2]))
    assert r.total == 14 and len(r.dice) == 3


def test_comparison() -> None:
    r = roll("1d20+5>=15", FixedSource([10]))
    assert r.total == 15 and r.success is True
    assert roll("1d20+5>=15", FixedSource([9])).success is False


def test_arithmetic_and_names() -> None:
    assert roll("(1+2)*3-7/2", RandomSource(1)).total == 6
    assert roll("PHY+3+1d10", FixedSource([6]), {"phy": 7}).total == 16
    with pytest.raises(DiceError, match="inconnu"):
        roll("FOO+1", RandomSource(1))


def test_drop_and_min_max() -> None:
    assert roll("4d6dl1", FixedSource([1, 2, 3, 4])).total == 9
    assert roll("3d6mi3", FixedSource([1, 2, 6])).total == 12


@pytest.mark.parametrize("expr, limit", [
    ("1001d6", "1000"),
    ("600d6+600d6", "1000"),
    ("(" * 51 + "1" + ")" * 51, "50"),
    ("-" * 60 + "1", "50"),
    ("1+" * 600 + "1", "1000"),
])
def test_limits_refused_fast(expr: str, limit: str) -> None:
    start = time.perf_counter()
    with pytest.raises(DiceLimitError, match=limit):
        roll(expr, RandomSource(1))
    assert time.perf_counter() - start < 1.0  # generous; the benchmark measures the real time


def test_endless_explosion_refused() -> None:
    with pytest.raises(DiceError, match="sans fin"):
        roll("1d6!>0", RandomSource(1))
    with pytest.raises(DiceError, match="sans fin"):
        roll("1d6rr<7", RandomSource(1))


def test_faces_given_by_hand() -> None:
    assert parse_faces("8,6") == [8, 6]
    with pytest.raises(FacesError, match="impossible"):
        roll("1d6", FixedSource([7]))
    with pytest.raises(FacesError, match="au moins 2"):
        roll("2d6", FixedSource([3]))
    with pytest.raises(FacesError):
        parse_faces("8,x")
    src = FixedSource([3, 4])
    roll("1d6", src)
    with pytest.raises(FacesError, match="en trop"):
        src.finish()


def test_seed_reproducible() -> None:
    a = roll("10d10", RandomSource(42)).total
    b = roll("10d10", RandomSource(42)).total
    assert a == b


_atom = st.one_of(
    st.integers(0, 999).map(str),
    st.builds(lambda n, s, m: f"{n}d{s}{m}", st.integers(1, 20), st.integers(1, 100),
              st.sampled_from(["", "kh1", "kl2", "dh1", "dl1", "!", "e", "ro1", "rr1", "mi2", "ma5", "r<3"])),
)


@st.composite
def _expr(draw: st.DrawFn, depth: int = 0) -> str:
    if depth > 3 or draw(st.booleans()):
        return draw(_atom)
    op = draw(st.sampled_from(["+", "-", "*", "/"]))
    left = draw(_expr(depth + 1))
    right = draw(_expr(depth + 1))
    return draw(st.sampled_from([f"{left}{op}{right}", f"({left}{op}{right})", f"-{left}"]))


@settings(max_examples=300, deadline=None)
@given(_expr(), st.integers(0, 2**32))
def test_valid_expressions_roll_or_raise_our_error(expr: str, seed: int) -> None:
    try:
        r = roll(expr, RandomSource(seed))
    except DiceError:
        return
    assert isinstance(r.total, int)
    for d in r.dice:
        assert 1 <= d.face <= d.sides
    assert r.detail()


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=80))
def test_any_text_rolls_or_raises_our_error(text: str) -> None:
    with contextlib.suppress(DiceError):
        roll(text, RandomSource(0))


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 30), st.integers(2, 20), st.integers(1, 30), st.integers(0, 2**32))
def test_keep_highest_invariants(n: int, sides: int, k: int, seed: int) -> None:
    r = roll(f"{n}d{sides}kh{k}", RandomSource(seed))
    kept = sorted((d.face for d in r.dice if d.kept), reverse=True)
    assert len(kept) == min(n, k)
    assert kept == sorted((d.face for d in r.dice), reverse=True)[: len(kept)]
    assert r.total == sum(kept)


# ------------------------------------------------------------------ ASCII digits, no raw control


@pytest.mark.parametrize("text", ["٣d٦", "１d２０", "𝟏d𝟔", "1d6+²", "1d①", "x٣", "1d6+\u0663"])
def test_only_ascii_digits(text: str) -> None:
    with pytest.raises(DiceError, match="caractère inattendu"):
        roll(text, RandomSource(1), {"x": 1})


def test_kelvin_sign_is_no_keep_modifier() -> None:
    """Under IGNORECASE a Unicode regex matches `k` with the Kelvin sign: ours is ASCII."""
    with pytest.raises(DiceError):
        roll("4d6\u212ah3", FixedSource([1, 2, 3, 4]))


def test_names_may_be_accented() -> None:
    assert roll("Dextérité+1d6", FixedSource([2]), {"dexterite": 4}).total == 6


@pytest.mark.parametrize("text", ["1d6\x1b[2J", "\x1b", "1+\x9b2J", "1d6\n2", "a\u202eb"])
def test_errors_never_echo_control_characters(text: str) -> None:
    with pytest.raises(DiceError) as info:
        roll(text, RandomSource(1), {"a": 1})
    message = info.value.message
    assert message.isprintable(), repr(message)


@pytest.mark.parametrize("faces", ["²", "①", "٣", "１", "𝟏", "1.0", "-1", "+1", "12345678"])
def test_faces_ascii_digits_only(faces: str) -> None:
    with pytest.raises(FacesError, match="--des"):
        parse_faces(faces)


def test_d10_zero_is_ten_by_hand() -> None:
    """D-ALL.03: a d10 face entered as 0 is 10; on any other die, 0 is refused."""
    assert parse_faces("0,10") == [0, 10]
    assert roll("2d10", FixedSource([0, 10])).total == 20
    assert roll("1d10", FixedSource([0])).dice[0].face == 10
    for sides in (6, 20, 100):
        with pytest.raises(FacesError, match="impossible"):
            roll(f"1d{sides}", FixedSource([0]))


@pytest.mark.parametrize(("faces", "expression", "message"), [
    ([4], "2d6", "dés donnés : 1 face donnée, il en faut au moins 2 (le dé suivant est un d6)"),
    ([4, 5, 6], "4d6", "dés donnés : 3 faces données, il en faut au moins 4 (le dé suivant est un d6)"),
    ([4, 5, 6], "1d6", "dés donnés : 3 faces données, mais une seule a servi ; en trop : 5, 6"),
    ([4, 5, 6, 1], "2d6", "dés donnés : 4 faces données, mais 2 seulement ont servi ; en trop : 6, 1"),
    ([7], "1d6", "dés donnés : la face 7 (valeur n° 1) est impossible sur un d6 (faces de 1 à 6)"),
])
def test_faces_given_by_hand_are_refused_in_words(faces: list[int], expression: str,
                                                   message: str) -> None:
    """What the player typed is named as such (no option name: the same words on the page, in
    the API and on the command line), with the right agreement."""
    source = FixedSource(faces)
    with pytest.raises(FacesError) as refused:
        roll(expression, source)
        source.finish()
    assert str(refused.value) == message
