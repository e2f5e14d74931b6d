"""Combat (RULES.md 5.3): E004.04, E004.05, E004.07, E004.08, E004.11, T004.03, T004.04,
T004.10, T004.11; will check, unconscious / coma / death, duel outcomes."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest, SheetChange
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.combat import (
    AttackResult,
    DuelResult,
    reputation_bonus,
    to_hit_threshold,
    wounds_from_margin,
)
from jdr.systems.felins.health import unconscious_minutes, will_threshold

MakeSheet = Callable[..., SheetDocument]

def apply(changes: list[SheetChange]) -> None:
    for change in changes:
        change.apply()


def attack(a: SheetDocument, d: SheetDocument, faces: list[int],
           **options: str) -> tuple[AttackResult, list[SheetChange]]:
    source = FixedSource(faces)
    result, changes = SYSTEM.attack(AttackRequest(a, d, options=options), source)
    source.finish()
    return result, changes


def duel(a: SheetDocument, b: SheetDocument, faces: list[int],
         **options: str) -> tuple[DuelResult, list[SheetChange]]:
    source = FixedSource(faces)
    result, changes = SYSTEM.duel(a, b, source, options)
    source.finish()
    return result, changes


@pytest.mark.parametrize(("reputation", "bonus"), [(5, 1), (10, 2), (15, 3), (4, 0), (12, 2),
                                                    (30, 6)])
def test_E004_04_reputation_duel_bonus(reputation: int, bonus: int) -> None:
    assert reputation_bonus(reputation) == bonus


def test_E004_05_margin_0_touches_without_wound() -> None:
    assert wounds_from_margin(True, 0) == 0
    assert wounds_from_margin(True, 1) == 1
    assert wounds_from_margin(False, -1) == 0


def test_E004_05_attack_margin_0_and_1(make_sheet: MakeSheet) -> None:
    # attacker: chance 1, combat griffu = ceil((2+2)/2) = 2; defender agilité 2 → threshold 9
    a = make_sheet(nom="Griffe", chance=1)
    d = make_sheet(nom="Proie", chance=1)
    fur, changes = attack(a, d, [7])  # 7 + 2 = 9 → margin 0
    assert fur.hit is True and fur.wounds == 0 and changes == []
    assert "poils" in fur.render()
    hurt, _ = attack(a, d, [9, 8])  # 11 → margin 1; will check: d10 8 + 2×2 − 1 = 11 ≥ 5
    assert hurt.to_json()["damage"] == 1 and hurt.will is not None


@pytest.mark.parametrize(("protection", "surprise", "modifier"), [
    ("partielle", "nulle", 1), ("complete", "nulle", 2), ("nulle", "partielle", -1),
    ("nulle", "complete", -2), ("nulle", "nulle", 0)])
def test_E004_07_protection_and_surprise(protection: str, surprise: str, modifier: int) -> None:
    assert to_hit_threshold(3, protection, surprise) == 5 + 2 * 3 + modifier


@pytest.mark.parametrize("agilite", [1, 2, 3, 4, 5])
def test_E004_08_to_hit_threshold(agilite: int) -> None:
    assert to_hit_threshold(agilite) == 5 + 2 * agilite


def test_T004_03_threshold_with_partial_cover_and_complete_surprise(
        make_sheet: MakeSheet) -> None:
    assert to_hit_threshold(3, "partielle", "complète") == 10
    a = make_sheet(nom="A", chance=1)
    d = make_sheet(nom="D", agilite=3, chance=1, force=1)
    result, _ = attack(a, d, [5], protection="partielle", surprise="complete")
    assert result.roll.result.threshold == 10


def test_T004_04_total_15_vs_10_gives_2_wounds(make_sheet: MakeSheet) -> None:
    # combat griffu = ceil((4 + 4) / 2) + 2 = 6; d10 9 → 15
    a = make_sheet(nom="A", chance=1, force=4, precision=4, competences={"combat_griffu": 2})
    d = make_sheet(nom="D", agilite=3, vigueur=4, chance=1, force=1, intelligence=1)
    # defender Agilité 3 with partial cover and complete surprise: 5 + 6 + 1 − 2 = 10
    result, changes = attack(a, d, [9, 6], protection="partielle", surprise="complete")
    assert result.roll.total == 15 and result.roll.result.threshold == 10
    assert result.wounds == 2 and result.to_json()["damage"] == 2
    apply(changes)
    assert SYSTEM.load(d).wounds == 2


def test_R004_28_will_check_after_wound(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, force=4, precision=4, competences={"combat_griffu": 2})
    d = make_sheet(nom="D", chance=1, vigueur=4, volonte=1, force=1, intelligence=2)
    # 9 + 6 = 15 vs 9 → margin 3; will: 3 wounds → 5 + 2 × 2 = 9; 2 + 2 − 3 = 1 < 9 → flees
    result, _ = attack(a, d, [9, 2])
    assert result.wounds == 3 and result.will is not None
    assert result.will.result.threshold == will_threshold(3) == 9
    assert result.will.total == 2 + 2 * 1 - 3
    assert result.fled is True and "abandonne" in result.render()


def test_R004_32_unconscious_then_coma_then_death(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, force=4, precision=4, competences={"combat_griffu": 2})
    d = make_sheet(nom="D", chance=1, vigueur=1, force=2, intelligence=3)
    # margin 3 > Vigueur 1 → unconscious for (1 + 2 + 3) × 5 = 30 min, no will check
    knocked, changes = attack(a, d, [9, 1, 2, 3])
    assert knocked.to_json()["state"] == "inconscient"
    assert knocked.to_json()["unconscious_minutes"] == 30 and knocked.will is None
    apply(changes)
    fur, changes = attack(a, d, [3])  # 3 + 6 = 9 vs 9 → margin 0: nothing changes (A004.19)
    assert fur.to_json()["state"] == "inconscient" and changes == []
    coma, changes = attack(a, d, [5])  # 11 → margin 1
    assert coma.to_json()["state"] == "coma"
    apply(changes)
    dead, changes = attack(a, d, [5])
    assert dead.to_json()["state"] == "mort"
    apply(changes)
    assert SYSTEM.load(d).state == "mort"
    with pytest.raises(RuleError, match="mort"):
        attack(a, d, [5])


def test_A004_18_wounds_equal_to_vigueur_still_conscious(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, force=4, precision=4, competences={"combat_griffu": 2})
    d = make_sheet(nom="D", chance=1, vigueur=3, force=1)
    # 8 + 6 = 14 vs 9 → margin 2 (≤ Vigueur 3): will check d10 = 6
    result, _ = attack(a, d, [8, 6])
    assert result.to_json()["state"] == "conscient"


@pytest.mark.parametrize(("faces", "minutes"), [([1, 1, 1], 15), ([10, 10, 10], 150),
                                                 ([2, 5, 9], 80)])
def test_E004_11_unconscious_duration(faces: list[int], minutes: int) -> None:
    assert unconscious_minutes(FixedSource(faces))[0] == minutes


def test_T004_10_initiative_agility_then_chance(make_sheet: MakeSheet) -> None:
    first = make_sheet(nom="Premier", agilite=4, chance=2, force=1)
    second = make_sheet(nom="Second", agilite=4, chance=3, force=1, precision=1)
    result = SYSTEM.initiative([first, second], FixedSource([]))
    assert [row["name"] for row in result.to_json()["order"]] == ["Second", "Premier"]


def test_R004_29_initiative_d10_on_full_tie(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", agilite=3)
    b = make_sheet(nom="B", agilite=3)
    c = make_sheet(nom="C", agilite=5)
    source = FixedSource([4, 4, 2, 7])  # tie on 4, then 2 vs 7
    result = SYSTEM.initiative([a, b, c], source)
    assert [row["name"] for row in result.to_json()["order"]] == ["C", "B", "A"]
    assert "[quote]" in result.render_forum()


def test_T004_11_duel_provoker_with_reputation(make_sheet: MakeSheet) -> None:
    provoker = make_sheet(nom="Provocant", chance=1, sociabilite=3, reputation=12, force=1)
    provoked = make_sheet(nom="Provoqué", chance=1, volonte=2, sociabilite=1)
    result, _ = duel(provoker, provoked, [6, 2])
    assert result.provoker.result.threshold == 9
    assert result.provoker.total == 6 + 2 * 3 + 2 == 14 and result.provoker.success is True


@pytest.mark.parametrize(("faces", "outcome", "winner", "fight"), [
    ([6, 2], 1, "Provocant", False),
    ([2, 9], 2, "Provoqué", False),
    ([6, 9], 3, None, True),
    ([2, 2], 4, None, None),
])
def test_R004_27_duel_four_outcomes(make_sheet: MakeSheet, faces: list[int], outcome: int,
                                    winner: str | None, fight: bool | None) -> None:
    # provoker: Soc 3 → d + 6 vs 5 + 2 × 2 = 9; provoked: Vol 2 → d + 4 vs 5 + 6 = 11
    provoker = make_sheet(nom="Provocant", chance=1, sociabilite=3, reputation=4, force=1)
    provoked = make_sheet(nom="Provoqué", chance=1, volonte=2, sociabilite=1)
    result, _ = duel(provoker, provoked, faces)
    data = result.to_json()
    assert (data["outcome"], data["winner"], data["fight"]) == (outcome, winner, fight)


def test_A004_16_duel_outcome_4_is_the_provoked_choice(make_sheet: MakeSheet) -> None:
    provoker = make_sheet(nom="Provocant", chance=1, sociabilite=3, force=1)
    provoked = make_sheet(nom="Provoqué", chance=1, volonte=2, sociabilite=1)
    accepted, _ = duel(provoker, provoked, [2, 2], choix="accepter")
    assert accepted.winner == "Provocant" and accepted.fight is False
    fought, _ = duel(provoker, provoked, [2, 2], choix="combattre")
    assert fought.winner is None and fought.fight is True
    with pytest.raises(RuleError, match="accepter, combattre"):
        duel(provoker, provoked, [2, 2], choix="fuir")


def test_duel_critical_moves_chance_on_the_sheet(make_sheet: MakeSheet) -> None:
    provoker = make_sheet(nom="Provocant", chance=1, sociabilite=3, force=1)
    provoked = make_sheet(nom="Provoqué", chance=1, volonte=2, sociabilite=1)
    result, changes = duel(provoker, provoked, [10, 10, 1, 1])
    assert result.provoker.critical == "success" and result.provoked.critical == "failure"
    apply(changes)
    assert SYSTEM.load(provoker).chance == 2 and SYSTEM.load(provoked).chance == 1
