"""Every modifier on faces given by hand, with the meaning each result shows."""

from __future__ import annotations

import contextlib
import time

import pytest

from jdr.dice import FixedSource, RandomSource, roll
from jdr.errors import DiceError, DiceLimitError


def _roll(expression: str, faces: list[int]) -> tuple[int, str, tuple[str, ...]]:
    source = FixedSource(faces)
    r = roll(expression, source)
    source.finish()  # every face given was used: the order of the faces is the rule's
    return r.total, r.detail(), r.notes


@pytest.mark.parametrize("expression, faces, total, detail", [
    ("10d10cs>=7", [7, 8, 1, 2, 10, 3, 4, 5, 6, 9], 4, "10d10cs>=7 [7, 8, 1, 2, 10, 3, 4, 5, 6, 9]"),
    ("10d6cs>4", [4, 5, 6, 1, 1, 1, 1, 1, 1, 1], 2, None),  # Foundry: `>` is strict
    ("6d10>7", [7, 6, 10, 1, 8, 2], 3, None),  # Roll20: `>7` is ≥ 7
    ("3d6>3", [1, 3, 6], 2, None),
    ("6d10>7f1", [7, 8, 1, 2, 10, 1], 1, None),
    ("10d6cf<3", [1, 2, 3, 4, 5, 6, 1, 1, 6, 6], 4, None),
    ("4d6cs>=5df1", [5, 6, 1, 2], 1, None),
    ("6d10t7", [7, 6, 10, 1, 8, 2], 3, None),
    ("4dF", [1, 2, 3, 3], 1, "4dF [-1, 0, 1, 1]"),
    ("2d20kh", [3, 9], 9, "2d20kh [~3~, 9]"),
    ("2d20kl", [3, 9], 3, None),
    ("4d6d", [1, 2, 3, 4], 9, "4d6d [~1~, 2, 3, 4]"),
    ("4d6pl1", [1, 2, 3, 4], 9, None),
    ("5d6dh2", [6, 5, 1, 2, 3], 6, None),
    ("4d6k3", [1, 6, 5, 4], 15, None),
    ("4d6r<=2", [1, 2, 3, 4, 5, 6], 18, "4d6r<=2 [~1~, 5, ~2~, 6, 3, 4]"),
    ("1d20r", [1, 1], 1, None),  # once: the second 1 stays
    ("1d6rr1", [1, 1, 4], 4, None),
    ("3d6min2", [1, 1, 5], 9, "3d6min2 [2, 2, 5]"),
    ("3d6max5", [6, 6, 1], 11, None),
    ("1d6!", [6, 6, 2], 14, "1d6! [6!, 6!, 2]"),
    ("1d6x", [6, 3], 9, None),
    ("1d6e", [6, 3], 9, None),
    ("1d10!>8", [9, 10, 8], 27, None),
    ("1d6!5", [5, 5, 6], 16, None),
    ("1d6xo", [6, 6], 12, "1d6xo [6!, 6]"),
    ("5d6!!", [6, 2, 1, 1, 1, 1], 12, "5d6!! [7, 2, 1, 1, 1]"),  # the 5 dice, then the re-roll
    ("1d6!p", [6, 6, 2], 12, "1d6!p [6!, 5!, 1]"),
    ("{1d20+5, 1d20+5}kh1", [12, 7], 17, "{1d20 [12] + 5, 1d20 [7] + 5} [17, ~12~]"),
    ("{4d6, 3d8}kh", [1, 1, 1, 1, 8, 8, 8], 24, None),
    ("{2d6, 2d6, 2d6}>7", [1, 1, 6, 1, 4, 4], 2, None),
    ("(1d20, 1d20)kh1+2", [3, 9], 11, "{1d20 [3], 1d20 [9]} [~3~, 9] + 2"),
    ("((10d6kh5)kl2)kh1", [1, 2, 3, 4, 5, 6, 6, 5, 4, 3], 5, None),
    ("(4d6)kh3", [1, 6, 5, 4], 15, None),
    ("(1d4)d6", [2, 3, 4], 7, "(1d4 [2])d6 [3, 4]"),
    ("floor(1d6/2)", [5], 2, None),
    ("ceil(1d6/2)", [5], 3, None),
    ("round(1d6/2)", [5], 3, None),  # halves go up
    ("round(1d6/4)", [2], 1, None),
    ("abs(1d6-1d6)", [2, 5], 3, None),
    ("max(1d6, 1d6)", [2, 5], 5, None),
    ("min(2d6, 8)", [6, 6], 8, None),
    ("adv+3", [4, 17], 20, "adv [~4~, 17] + 3"),
    ("désavantage", [4, 17], 4, None),
    ("1d%", [42], 42, None),
    ("d20", [7], 7, None),
    ("0d6+1", [], 1, None),
    ("-1d6+3", [2], 1, "-1d6 [2] + 3"),
    ("1d20[feu]+1d6[froid]", [3, 2], 5, "1d20 [3] (feu) + 1d6 [2] (froid)"),
    ("4d4kh3kl2", [1, 2, 3, 4], 5, None),  # highest 3, then the lowest 2 of those
])
def test_every_modifier(expression: str, faces: list[int], total: int, detail: str | None) -> None:
    got, shown, _ = _roll(expression, faces)
    assert got == total
    if detail is not None:
        assert shown == detail


@pytest.mark.parametrize("expression, faces, meaning", [
    ("10d10cs>=7", [7, 8, 1, 2, 10, 3, 4, 5, 6, 9], "10d10cs>=7 : succès : dés ≥ 7 → 4"),
    ("6d10>7", [7, 6, 10, 1, 8, 2], "6d10>7 : succès : dés ≥ 7 → 3"),
    ("10d6cs>4", [4, 5, 6, 1, 1, 1, 1, 1, 1, 1], "10d6cs>4 : succès : dés > 4 → 2"),
    ("6d10>7f1", [7, 8, 1, 2, 10, 1],
     "6d10>7f1 : succès : dés ≥ 7 → 3 ; échecs retirés : dés = 1 → 2 ; résultat 1"),
    ("1d20r", [1, 1], "1d20r : relance une fois les dés = 1"),
    ("2d6rr1", [1, 3, 4], "2d6rr1 : relance les dés = 1 jusqu'à un autre résultat"),
    ("5d6!!", [6, 2, 1, 1, 1, 1],
     "5d6!! : explosion cumulée : un dé = 6 est relancé et ajouté à lui-même"),
    ("4d6kh3", [1, 2, 3, 4], "4d6kh3 : garde les 3 plus hauts"),
    ("{1d20, 1d20}kh1", [3, 9], "{…}kh1 : garde le plus haut"),
])
def test_meaning_shown(expression: str, faces: list[int], meaning: str) -> None:
    assert meaning in _roll(expression, faces)[2]


def test_comment_and_repeats() -> None:
    r = roll("1d20+5 # attaque à l'épée", FixedSource([3]))
    assert r.total == 8 and r.comment == "attaque à l'épée"
    assert roll("1d20 ! Attaque", FixedSource([3])).comment == "Attaque"
    for text in ("6x 4d6kh3", "4d6kh3 x6", "6 x 4d6kh3"):
        r = roll(text, FixedSource([1, 2, 3, 4] * 6))
        assert [one.total for one in r.repeats] == [9] * 6
        assert r.total == 54


def test_target_or_total_comparison() -> None:
    """Attached to the dice, Roll20's target; spaced or after parentheses, the total."""
    assert roll("3d6>3", FixedSource([1, 3, 6])).total == 2
    spaced = roll("3d6 > 3", FixedSource([1, 3, 6]))
    assert spaced.total == 10 and spaced.success is True
    paren = roll("(3d6)>3", FixedSource([1, 1, 1]))
    assert paren.total == 3 and paren.success is False


@pytest.mark.parametrize("text, fragment", [
    ("1d20!!!", "« ! » à la position 7 : une seule explosion"),
    ("1d6\u00a0+\u00a0?", "« ? » à la position 7"),
    ("1d6\u202f+\u20091", None),  # narrow and thin spaces are spaces
    ("1d6\u200b+1", "« \\u200b » à la position 4"),
    ("2d6kh3z", "« z » inattendu à la position 7"),
    ("((10d6kh5)kl2", "parenthèse ouverte à la position 1 jamais fermée"),
    ("{1d6, 2", "accolade ouverte à la position 1 jamais fermée"),
    ("1d6r<", "« r< » à la position 4 : il manque un nombre"),
    ("3d6f1", "va avec un seuil de succès"),
    ("(1+2)kh1", "« kh1 » à la position 6"),
    ("1d20[feu", "étiquette ouverte par « [ » à la position 5"),
    ("4d6 d1", "« d1 » inattendu à la position 5"),
    ("3d6cs>2cs>4", "un seul seuil de succès"),
    ("floor(1d6, 2)", "« floor » à la position 1 : une seule valeur"),
    ("max(1d6)", "au moins deux valeurs"),
    ("5d6!!x", "une seule explosion"),
])
def test_refusals_name_token_and_position(text: str, fragment: str | None) -> None:
    if fragment is None:
        assert roll(text, FixedSource([1])).total == 2
        return
    with pytest.raises(DiceError) as info:
        roll(text, RandomSource(1))
    assert fragment in info.value.message


@pytest.mark.parametrize("expr, limit", [
    ("101x 1d6", "100"),
    ("50x 30d6", "1000"),
    ("{" * 51 + "1" + "}" * 51, "50"),
    ("(" * 30 + "{" * 30 + "1" + "}" * 30 + ")" * 30, "50"),
    ("1d2!" * 1, None),
    ("(600d6)d6", "1000"),
    ("1d1000000!>1" + "+1d1000000!>1" * 60, None),
    ("[" + "x" * 200 + "]", "100"),
])
def test_new_abusive_forms_refused_fast(expr: str, limit: str | None) -> None:
    start = time.perf_counter()
    if limit is None:
        with contextlib.suppress(DiceLimitError):
            roll(expr, RandomSource(1))
    else:
        with pytest.raises(DiceLimitError, match=limit):
            roll(expr, RandomSource(1))
    assert time.perf_counter() - start < 1.0  # generous; the benchmark measures the real time
