"""Exact odds against the production rolls: every face sequence enumerated with its weight
(`enumerate_outcomes`), compared with the icepool distribution the odds are computed from.

maitrise has one roll shape, a single d20 (`core.check.SingleDie(20)`), and no NaturalRoll of its
own; the checks, the contest and the attack are enumerated through their own `roll` code."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from maitrise_support import options

from jdr.core.check import Check, SingleDie
from jdr.core.system import AttackRequest, Loaded
from jdr.dice.enumerate import enumerate_outcomes
from jdr.systems.maitrise import SYSTEM, combat
from jdr.systems.maitrise.checks import (
    Stat,
    characteristic_check,
    contest,
    defence_stat,
    skill_check,
    stat_check,
)


def _normalised(check: Check) -> dict[tuple[int, bool | None, str | None], Fraction]:
    """What the odds are computed from: the natural distribution, resolved by the judge."""
    exact: dict[tuple[int, bool | None, str | None], Fraction] = {}
    for result, p in check.outcomes():
        key = (result.total, result.success, result.critical)
        exact[key] = exact.get(key, Fraction(0)) + p
    return exact


def test_single_d20_roll_is_its_distribution() -> None:
    natural = SingleDie(20)
    rolled = enumerate_outcomes(lambda src: natural.roll(src)[0])
    die = natural.distribution()
    assert rolled == {face: Fraction(q, die.denominator()) for face, q in die.items()}


@pytest.mark.parametrize(("skills", "faces", "key"), [
    ({"epee": 0}, {}, "epee"),  # Incompétent weapon: −7 and d20 − 7 ≥ 10
    ({"lire": 0}, {}, "lire"),  # Incompétent, not a weapon
    ({"epee": 25}, {}, "epee"),  # Compétent: from 8
    ({"epee": 85}, {}, "epee"),  # Maître: from 4
    ({"epee": 100}, {"epee": [19, 3]}, "epee"),  # Grand maître 100+, extra faces
])
def test_skill_check_exact(sheet: Any, skills: dict[str, int], faces: dict[str, list[int]],
                           key: str) -> None:
    char = sheet(skills=skills, faces_critiques=faces).model
    check = skill_check(char, key, SYSTEM.config, threshold=None)
    rolled = enumerate_outcomes(lambda src: (lambda r: (r.total, r.success, r.critical))(
        check.roll(src)))
    assert rolled == _normalised(check)
    odds = check.odds()
    assert odds.success == sum((p for (_, ok, _), p in rolled.items() if ok), Fraction(0))


@pytest.mark.parametrize("dodge", [False, True])
def test_characteristic_check_exact(sheet: Any, dodge: bool) -> None:
    char = sheet(caracs={"adresse": 20}, faces_critiques={"adresse": [7]}).model
    check = characteristic_check(char, "adresse", dodge=dodge)
    rolled = enumerate_outcomes(lambda src: (lambda r: (r.total, r.success, r.critical))(
        check.roll(src)))
    assert rolled == _normalised(check)
    odds = check.odds()
    assert odds.success == Fraction(19, 20)  # d20 + 20 ≥ 20 always; only 1 fails
    assert odds.critical_success == Fraction(2, 20)  # 20 and the chosen 7


@pytest.mark.parametrize(("mine", "theirs"), [
    (Stat("skill", "epee"), Stat("skill", "epee")),
    (Stat("skill", "epee"), Stat("carac", "adresse", dodge=True)),
    (Stat("carac", "force"), Stat("carac", "force")),
])
def test_contest_roll_is_its_odds(sheet: Any, mine: Stat, theirs: Stat) -> None:
    a = sheet("A", skills={"epee": 30}).model
    b = sheet("B", skills={"epee": 55}, caracs={"adresse": 14}).model
    duel = contest(stat_check(a, mine, SYSTEM.config), stat_check(b, theirs, SYSTEM.config))
    rolled = enumerate_outcomes(lambda src: (lambda r: (r.winner, r.tie))(duel.roll(src)))
    odds = duel.odds()
    winners: dict[str, Fraction] = {"actor": Fraction(0), "opponent": Fraction(0),
                                    "nobody": Fraction(0)}
    for (winner, _), p in rolled.items():
        winners[winner] += p
    assert odds.success == winners["actor"]
    assert odds.opponent_wins == winners["opponent"]
    assert odds.nobody == winners["nobody"]
    assert odds.tie == sum((p for (_, tie), p in rolled.items() if tie), Fraction(0))


@pytest.mark.parametrize("defender_weapons", [True, False])
def test_attack_hits_as_often_as_the_contest_odds_say(sheet: Any,
                                                      defender_weapons: bool) -> None:
    """`jdr attack` and `jdr odds --contre` agree: P(hit) = P(the attacker wins the contest)."""
    a: Loaded[Any] = sheet("A", skills={"epee": 40})
    d: Loaded[Any] = sheet("D", skills={"epee": 30},
                           armes=[{"nom": "Épée", "competence": "epee"}] if defender_weapons else [])
    request = AttackRequest(a, d, options=options("attack", None))
    def hit(src: Any) -> bool:
        report: Any = combat.attack(request, src, SYSTEM.config).result
        return bool(report.hit)

    hits = enumerate_outcomes(hit)
    attack_check = skill_check(a.model, "epee", SYSTEM.config)
    defence = defence_stat(d.model)
    expected = contest(attack_check, stat_check(d.model, defence, SYSTEM.config)).odds()
    assert hits[True] == expected.success


# ------------------------------------------------------------------ the attack's odds

WEAPON = [{"nom": "Épée", "competence": "epee"}]
ATTACK_CASES = {
    # name: (attacker skills, defender skills, defender weapons, attack request kwargs, options)
    "parade": ({"epee": 40}, {"epee": 30}, WEAPON, {}, None),
    "esquive": ({"epee": 40}, {"epee": 30}, [], {}, None),
    "esquive demandee": ({"epee": 85}, {"epee": 30}, WEAPON, {"defence": "esquive"}, None),
    "sans defense": ({"epee": 40}, {"epee": 30}, WEAPON, {"defence": "aucune"}, None),
    "rapidite des deux cotes": ({"epee": 40}, {"epee": 55}, WEAPON, {"critical": "rapidite"},
                                {"critique_defense": "rapidite"}),
    "appuis": ({"epee": 60}, {"epee": 45}, WEAPON, {}, {"critique_defense": "appuis"}),
    "appuis contre esquive": ({"epee": 60}, {"epee": 45}, [], {},
                              {"critique_defense": "appuis"}),
    "incompetent, bonus": ({"epee": 0}, {"epee": 100}, WEAPON, {},
                           {"bonus_attaque": "6", "bonus_defense": "-3"}),
}


def _attack_request(sheet: Any, name: str) -> AttackRequest[Any]:
    mine, theirs, weapons, kwargs, opts = ATTACK_CASES[name]
    a: Loaded[Any] = sheet("A", skills=mine)
    d: Loaded[Any] = sheet("D", skills=theirs, armes=weapons, faces_critiques={"epee": [19]}
                           if theirs.get("epee", 0) >= 100 else {})
    return AttackRequest(a, d, options=options("attack", opts), **kwargs)


@pytest.mark.parametrize("name", list(ATTACK_CASES))
def test_attack_odds_are_the_attack_rolls(sheet: Any, name: str) -> None:
    """Every face of the attack d20, the defence d20 and the footing d10 played through the
    production steps (`combat.exchange`, what `attack` plays): the blow lands, the defence wins,
    or nobody, exactly as often as `attack_odds` says."""
    request = _attack_request(sheet, name)

    def played(src: Any) -> tuple[bool, str | None, bool]:
        e = combat.exchange(request, src, SYSTEM.config)
        return e.hit, None if e.contest is None else e.contest.winner, bool(
            e.contest is not None and e.contest.tie)

    rolled = enumerate_outcomes(played)
    odds = SYSTEM.attack_odds(request)
    assert odds.success == sum((p for (hit, _, _), p in rolled.items() if hit), Fraction(0))
    if request.defence == "aucune":
        assert all(winner is None for _, winner, _ in rolled)
        assert odds.opponent_wins == 1 - odds.success
        return
    assert odds.opponent_wins == sum((p for (_, w, _), p in rolled.items() if w == "opponent"),
                                     Fraction(0))
    assert odds.nobody == sum((p for (_, w, _), p in rolled.items() if w == "nobody"),
                              Fraction(0))
    assert odds.tie == sum((p for (_, _, tie), p in rolled.items() if tie), Fraction(0))


def test_attack_odds_count_the_options_chosen_ahead(sheet: Any) -> None:
    """R001.18 / R001.19: Rapidité (+10 margin) and Solidifier ses appuis change the odds; an
    option not chosen ahead counts as « aucune » and says so."""
    def odds(mine: int, theirs: int, **kwargs: Any) -> Any:
        opts = kwargs.pop("opts", None)
        a, d = sheet("A", skills={"epee": mine}), sheet("D", skills={"epee": theirs}, armes=WEAPON)
        return SYSTEM.attack_odds(AttackRequest(a, d, options=options("attack", opts), **kwargs))

    plain = odds(40, 70)  # a critical attack (margin 30) loses to a good parry (35 and more)…
    assert [n.rule for n in plain.notes if not isinstance(n, str)] == ["R001.18", "R001.19"]
    fast = odds(40, 70, critical="rapidite")  # … less often with +10
    assert plain.success is not None and fast.success is not None
    assert fast.success > plain.success
    assert [n.rule for n in fast.notes if not isinstance(n, str)] == ["R001.19"]
    plain = odds(60, 45)  # a critical parry (32) loses to a good attack (up to 40)…
    footing = odds(60, 45, opts={"critique_defense": "appuis"})  # … less often with 1d10+5
    assert plain.success is not None and footing.success is not None
    assert footing.success < plain.success


def test_attack_odds_of_a_worked_case(sheet: Any) -> None:
    """No defence: the attack's own odds. Compétent (25..49: from 8 on the die) → 13/20."""
    request = _attack_request(sheet, "sans defense")
    assert SYSTEM.attack_odds(request).success == Fraction(13, 20)
