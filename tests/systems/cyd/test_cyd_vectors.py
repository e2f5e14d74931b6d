"""Every E003 and T003 vector of RULES.md section 4, replaying dice with FixedSource."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from jdr.core.sheet import SheetDocument
from jdr.core.system import CheckRequest
from jdr.dice.source import FixedSource
from jdr.systems.cyd import SYSTEM
from jdr.systems.cyd.checks import (
    Capacity,
    CydCheckResult,
    CydOpposedResult,
    check_odds,
    make_check,
    parse_threshold,
)
from jdr.systems.cyd.config import DEFAULT
from jdr.systems.cyd.dice import CydDie

Make = Callable[..., SheetDocument]


def roll(doc: SheetDocument, skill: str, faces: list[int], **kw: Any) -> CydCheckResult:
    source = FixedSource(faces)
    result, changes = SYSTEM.check(CheckRequest(doc, skill, **kw), source)
    source.finish()
    assert changes == list(result.changes)  # every given face was used, no more
    assert isinstance(result, CydCheckResult)
    return result


def test_E003_01_facile_is_threshold_5(make_sheet: Make) -> None:
    for spelling in ("Facile", "facile", "FACILE"):
        assert parse_threshold(spelling, DEFAULT) == (5, "facile")
    doc = make_sheet(attributs={"adresse": 3}, competences={"saut": 1})  # Capacité 4
    assert roll(doc, "saut", [1], threshold="facile", die="d10").success is True   # 5 >= 5
    weaker = make_sheet(attributs={"adresse": 2}, competences={"saut": 1})  # Capacité 3
    assert roll(weaker, "saut", [1], threshold="facile", die="d10").success is False  # 4 < 5


@pytest.mark.parametrize("face", [3, 5, 7, 9, 13, 15, 17, 19])
def test_E003_02_odd_d20_counts_zero(make_sheet: Make, face: int) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})  # Capacité 6
    result = roll(doc, "tir", [face], die="d20")
    assert result.total == 6
    assert not result.automatic_failure
    even = roll(doc, "tir", [face + 1], die="d20")
    assert even.total == 6 + face + 1


@pytest.mark.parametrize("face", [1, 11])
def test_E003_03_d20_1_or_11_is_automatic_dramatic_failure(make_sheet: Make, face: int) -> None:
    doc = make_sheet(attributs={"adresse": 10}, competences={"tir": 10})  # Capacité 20
    result = roll(doc, "tir", [face], threshold="5", die="d20")
    assert result.success is False
    assert result.dramatic and result.automatic_failure
    data = result.to_json()
    assert data["total"] is None  # "on ne calcule pas le résultat final"
    assert data["critical"] == "failure" and data["margin"] is None
    # without any threshold it is still a dramatic failure
    bare = roll(doc, "tir", [face], die="d20")
    assert bare.success is False and bare.dramatic


def test_E003_04_skill_zero_subtracts_3(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 6}, competences={"discretion": 0, "tir": 1})
    untrained = roll(doc, "discretion", [4], die="d10")
    assert untrained.capacity.value == 6 + 0 - 3
    assert untrained.total == 3 + 4
    trained = roll(doc, "tir", [4], die="d10")
    assert trained.capacity.value == 6 + 1  # no malus at 1


def test_E003_05_capacity_switches_to_puissance_during_a_chase(make_sheet: Make) -> None:
    runner = make_sheet("Fuyard", attributs={"adresse": 7, "puissance": 3},
                        competences={"athletisme": 2})
    chaser = make_sheet("Poursuivant", attributs={"adresse": 4, "puissance": 8},
                        competences={"athletisme": 2})
    source = FixedSource([5, 5, 5, 5, 5, 5])
    result, changes = SYSTEM.duel(runner, chaser, source, {
        "competence": "athletisme", "attributs": "adresse,adresse,puissance",
        "attributs_b": "adresse,adresse,puissance", "victoires": "3", "manches_max": "3"})
    source.finish()
    assert changes == []
    rounds = result.rounds  # type: ignore[attr-defined]
    assert [r.a.capacity.attribute for r in rounds] == ["adresse", "adresse", "puissance"]
    # Adresse-based, the runner leads; Puissance-based, the chaser does
    assert [r.a.result.total for r in rounds] == [7 + 2 + 5, 7 + 2 + 5, 3 + 2 + 5]
    assert [r.outcome.winner for r in rounds] == ["actor", "actor", "opponent"]


@pytest.mark.parametrize("threshold", [5, 10, 15])
@pytest.mark.parametrize(("offset", "success", "critical"), [
    (10, True, "success"), (9, True, None), (0, True, None), (-1, False, None),
    (-9, False, None), (-10, False, "failure"), (-11, False, "failure"),
])
def test_E003_06_heroic_at_plus_10_dramatic_at_minus_10(
        make_sheet: Make, threshold: int, offset: int, success: bool, critical: str | None
) -> None:
    doc = make_sheet(attributs={"adresse": 5}, competences={"tir": 5})  # Capacité 10
    final = threshold + offset
    face = final - 10
    if not 1 <= face <= 10:  # keep the d10 in range: move the threshold instead
        face = 5
        threshold = 15 - offset
    result = roll(doc, "tir", [face], threshold=str(threshold), die="d10")
    assert result.total == 10 + face
    assert result.total - threshold == offset
    assert result.success is success
    assert result.result.critical == critical


def test_T003_01_d10_success_not_heroic(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})
    result = roll(doc, "tir", [7], threshold="10", die="d10")
    assert result.capacity.value == 6
    assert result.total == 13 and result.success is True and not result.heroic


def test_T003_02_odd_d20_failure_not_dramatic(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})
    result = roll(doc, "tir", [13], threshold="10", die="d20")
    assert result.total == 6 and result.success is False and not result.dramatic


def test_T003_03_d20_heroic(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})
    result = roll(doc, "tir", [14], threshold="10", die="d20")
    assert result.total == 20 and result.success is True and result.heroic


def test_T003_04_eleven_fails_whatever_the_capacity(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 6}, competences={"tir": 6})  # Capacité 12 >= 5
    result = roll(doc, "tir", [11], threshold="5", die="d20")
    assert result.capacity.value == 12
    assert result.success is False and result.dramatic and result.total is None


def test_T003_05_odd_d20_can_still_succeed(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 6}, competences={"tir": 6})
    result = roll(doc, "tir", [9], threshold="10", die="d20")
    assert result.total == 12 and result.success is True and not result.dramatic


def test_T003_06_untrained_dramatic_failure(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 3}, competences={"escalade": 0})
    result = roll(doc, "escalade", [2], threshold="15", die="d10")
    assert result.capacity.value == 0
    assert result.total == 2 and result.success is False and result.dramatic


def test_T003_07_opposed_tie_goes_to_higher_skill(make_sheet: Make) -> None:
    a = make_sheet("A", attributs={"adresse": 5}, competences={"tir": 3})   # Capacité 8
    b = make_sheet("B", attributs={"adresse": 4}, competences={"tir": 5})   # Capacité 9
    source = FixedSource([6, 5])
    result, _ = SYSTEM.check(CheckRequest(a, "tir", opponent=b, opponent_skill="tir",
                                          die="d10"), source)
    source.finish()
    assert isinstance(result, CydOpposedResult)
    assert result.actor.total == 14 and result.opponent.total == 14
    assert result.outcome.tie and result.outcome.winner == "opponent"
    assert result.success is False
    # and the other way round, the higher skill is the actor's
    source = FixedSource([5, 6])
    reverse, _ = SYSTEM.check(CheckRequest(b, "tir", opponent=a, die="d10"), source)
    assert isinstance(reverse, CydOpposedResult) and reverse.success is True


def test_T003_08_d20_distribution(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 3}, competences={"tir": 0})  # Capacité 0
    odds = SYSTEM.odds(CheckRequest(doc, "tir", die="d20"))
    d20 = odds.per_die[0]
    assert d20.automatic_failure == Fraction(2, 20)
    dist = dict(d20.distribution)
    assert dist[0] == Fraction(8, 20)
    assert {t: p for t, p in dist.items() if t} == {v: Fraction(1, 20) for v in range(2, 21, 2)}
    die20, die10 = CydDie(20), CydDie(10)
    mean20 = sum(Fraction(die20.value(f), 20) for f in range(1, 21))
    mean10 = sum(Fraction(die10.value(f), 10) for f in range(1, 11))
    assert mean20 == Fraction(110, 20) == mean10
    # the same from the check's own exact distribution (icepool), without the sheet
    check = make_check(Capacity("x", "adresse", 3, "tir", 0), "d20", (), None)
    assert check_odds(check, 20).automatic_failure == Fraction(1, 10)
    evens = tuple((v, Fraction(1, 20)) for v in range(2, 21, 2))
    assert check.odds().distribution == ((0, Fraction(10, 20)), *evens)
