"""Every E003 and T003 vector of RULES.md section 4, replaying dice with FixedSource."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import pytest

from jdr.core.check import Odds
from jdr.core.contest import ContestResult
from jdr.core.results import Report
from jdr.core.system import Loaded
from jdr.dice.source import FixedSource
from jdr.systems.cyd import SYSTEM
from jdr.systems.cyd.capacite import Capacity, make_check
from jdr.systems.cyd.dice import CydDie
from jdr.systems.cyd.sheet import CydSheet
from systems.cyd.cyd_support import group, opposed, request, single, stat, texts

Make = Callable[..., Loaded[CydSheet]]


def test_E003_01_facile_is_threshold_5(make_sheet: Make) -> None:
    assert SYSTEM.ladder is not None
    for spelling in ("Facile", "facile", "FACILE"):
        assert SYSTEM.ladder.value(spelling) == 5
    assert SYSTEM.ladder.name_of(5) == "facile"
    doc = make_sheet(attributs={"adresse": 3}, competences={"saut": 1})  # Capacité 4
    assert single(doc, "saut", [1], threshold="facile", die="d10").success is True   # 5 >= 5
    weaker = make_sheet(attributs={"adresse": 2}, competences={"saut": 1})  # Capacité 3
    assert single(weaker, "saut", [1], threshold="facile", die="d10").success is False  # 4 < 5


@pytest.mark.parametrize("face", [3, 5, 7, 9, 13, 15, 17, 19])
def test_E003_02_odd_d20_counts_zero(make_sheet: Make, face: int) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})  # Capacité 6
    result = single(doc, "tir", [face], die="d20")
    assert result.total == 6
    assert stat(result, "auto_ok") == 1 and result.critical is None
    assert any("face impaire" in n for n in texts(result.notes))
    even = single(doc, "tir", [face + 1], die="d20")
    assert even.total == 6 + face + 1


@pytest.mark.parametrize("face", [1, 11])
def test_E003_03_d20_1_or_11_is_automatic_dramatic_failure(make_sheet: Make, face: int) -> None:
    doc = make_sheet(attributs={"adresse": 10}, competences={"tir": 10})  # Capacité 20
    result = single(doc, "tir", [face], threshold="5", die="d20")
    assert result.success is False
    assert result.critical == "failure" and stat(result, "auto_ok") == 0
    # "on ne calcule pas le résultat final": no margin, the total is the Capacité alone
    assert result.margin is None and result.total == 20
    assert any("pas calculé" in n for n in texts(result.notes))
    # without any threshold it is still a dramatic failure
    bare = single(doc, "tir", [face], die="d20")
    assert bare.success is False and bare.critical == "failure"


def test_E003_04_skill_zero_subtracts_3(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 6}, competences={"discretion": 0, "tir": 1})
    untrained = single(doc, "discretion", [4], die="d10")
    assert [m.value for m in untrained.modifiers] == [6, 0, -3]
    assert untrained.modifiers[2].rule == "R003.09"
    assert untrained.total == 6 + 0 - 3 + 4
    trained = single(doc, "tir", [4], die="d10")
    assert [m.value for m in trained.modifiers] == [6, 1]  # no malus at 1
    assert trained.total == 6 + 1 + 4


def test_E003_05_capacity_switches_to_puissance_during_a_chase(make_sheet: Make) -> None:
    runner = make_sheet("Fuyard", attributs={"adresse": 7, "puissance": 3},
                        competences={"athletisme": 2})
    chaser = make_sheet("Poursuivant", attributs={"adresse": 4, "puissance": 8},
                        competences={"athletisme": 2})
    source = FixedSource([5, 5, 5, 5, 5, 5])
    outcome = SYSTEM.duel(group((runner, chaser), "duel", {
        "competence": "athletisme", "attributs": "adresse,adresse,puissance",
        "attributs_b": "adresse,adresse,puissance", "victoires": "3", "manches_max": "3",
        "de": "d10"}), source)
    source.finish()
    assert outcome.changes == ()
    assert isinstance(outcome.result, Report)
    rounds = [r.parts[0] for r in outcome.result.parts if isinstance(r, Report)]
    assert all(isinstance(r, ContestResult) for r in rounds) and len(rounds) == 3
    contests = [r for r in rounds if isinstance(r, ContestResult)]
    assert [c.actor.modifiers[0].reason for c in contests] == ["Adresse", "Adresse", "Puissance"]
    # Adresse-based, the runner leads; Puissance-based, the chaser does
    assert [c.actor.total for c in contests] == [7 + 2 + 5, 7 + 2 + 5, 3 + 2 + 5]
    assert [c.opponent.total for c in contests] == [4 + 2 + 5, 4 + 2 + 5, 8 + 2 + 5]
    assert [c.winner for c in contests] == ["actor", "actor", "opponent"]


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
    result = single(doc, "tir", [face], threshold=str(threshold), die="d10")
    assert result.total == 10 + face
    assert result.total - threshold == offset == result.margin
    assert result.success is success
    assert result.critical == critical


def test_T003_01_d10_success_not_heroic(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})
    result = single(doc, "tir", [7], threshold="10", die="d10")
    assert sum(m.value for m in result.modifiers) == 6
    assert result.total == 13 and result.success is True and result.critical is None


def test_T003_02_odd_d20_failure_not_dramatic(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})
    result = single(doc, "tir", [13], threshold="10", die="d20")
    assert result.total == 6 and result.success is False and result.critical is None


def test_T003_03_d20_heroic(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 4}, competences={"tir": 2})
    result = single(doc, "tir", [14], threshold="10", die="d20")
    assert result.total == 20 and result.success is True and result.critical == "success"


def test_T003_04_eleven_fails_whatever_the_capacity(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 6}, competences={"tir": 6})  # Capacité 12 >= 5
    result = single(doc, "tir", [11], threshold="5", die="d20")
    assert sum(m.value for m in result.modifiers) == 12
    assert result.success is False and result.critical == "failure" and result.margin is None


def test_T003_05_odd_d20_can_still_succeed(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 6}, competences={"tir": 6})
    result = single(doc, "tir", [9], threshold="10", die="d20")
    assert result.total == 12 and result.success is True and result.critical is None


def test_T003_06_untrained_dramatic_failure(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 3}, competences={"escalade": 0})
    result = single(doc, "escalade", [2], threshold="15", die="d10")
    assert sum(m.value for m in result.modifiers) == 0
    assert result.total == 2 and result.success is False and result.critical == "failure"


def test_T003_07_opposed_tie_goes_to_higher_skill(make_sheet: Make) -> None:
    a = make_sheet("A", attributs={"adresse": 5}, competences={"tir": 3})   # Capacité 8
    b = make_sheet("B", attributs={"adresse": 4}, competences={"tir": 5})   # Capacité 9
    result = opposed(a, "tir", [6, 5], opponent=b, opponent_skill="tir", die="d10")
    assert result.actor.total == 14 and result.opponent.total == 14
    assert result.tie and result.winner == "opponent"
    assert result.success is False
    # and the other way round, the higher skill is the actor's
    reverse = opposed(b, "tir", [5, 6], opponent=a, die="d10")
    assert reverse.tie and reverse.success is True


def test_T003_08_d20_distribution(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 3}, competences={"tir": 0})  # Capacité 0
    odds = SYSTEM.odds(request(doc, "tir", action="odds", die="d20"))
    assert isinstance(odds, Odds)
    assert dict((k, p) for k, _, p in odds.extra)["automatic_failure"] == Fraction(2, 20)
    evens = {v: Fraction(1, 20) for v in range(2, 21, 2)}
    # the distribution of totals counts the 1 and 11 at the Capacité alone (the die adds 0)
    assert dict(odds.distribution) == {0: Fraction(10, 20), **evens}
    # from the check's own exact outcomes: 8/20 odd faces with a final result of 0, 2/20 none
    check = make_check(Capacity("x", "adresse", 3, "tir", 0), "d20", (), None)
    zero = auto = Fraction(0)
    for result, p in check.outcomes():
        auto += p if stat(result, "auto_ok") == 0 else 0
        zero += p if stat(result, "auto_ok") == 1 and result.total == 0 else 0
    assert (auto, zero) == (Fraction(2, 20), Fraction(8, 20))
    die20, die10 = CydDie(20), CydDie(10)
    mean20 = sum(Fraction(die20.value(f), 20) for f in range(1, 21))
    mean10 = sum(Fraction(die10.value(f), 10) for f in range(1, 11))
    assert mean20 == Fraction(110, 20) == mean10 == odds.mean


def test_A003_17_heroic_success_reachable_on_the_d10(make_sheet: Make) -> None:
    doc = make_sheet(attributs={"adresse": 6}, competences={"tir": 4})  # Capacité 10
    heroic = single(doc, "tir", [10], threshold="10", die="d10")
    assert heroic.total == 20 and heroic.critical == "success"
    below = make_sheet(attributs={"adresse": 5}, competences={"tir": 4})  # Capacité 9 < 10
    odds = SYSTEM.odds(request(below, "tir", action="odds", threshold="10", die="d10"))
    assert isinstance(odds, Odds) and odds.critical_success == 0
