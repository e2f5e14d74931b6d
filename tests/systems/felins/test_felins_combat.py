"""Combat (RULES.md 5.3): E004.04, E004.05, E004.07, E004.08, E004.11, T004.03, T004.04,
T004.10, T004.11; will check, unconscious / coma / death, duel outcomes."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from jdr.core.check import CheckResult
from jdr.core.initiative import Order
from jdr.core.options import parse_options
from jdr.core.results import AttackReport, Report
from jdr.core.system import AttackRequest, GroupRequest, Loaded, SheetChange
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.render.json import to_json
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.combat import to_hit_threshold, wounds_from_margin
from jdr.systems.felins.duel import duel_outcome, reputation_bonus
from jdr.systems.felins.health import unconscious_minutes, will_threshold
from jdr.systems.felins.sheet import Cat

MakeSheet = Callable[..., Loaded[Cat]]


def apply(changes: Sequence[SheetChange]) -> None:
    for change in changes:
        change.apply()


def attack(a: Loaded[Cat], d: Loaded[Cat], faces: list[int], **options: str
           ) -> tuple[AttackReport, tuple[SheetChange, ...]]:
    source = FixedSource(faces)
    opts = parse_options(SYSTEM.actions["attack"], options, "felins")
    outcome = SYSTEM.attack(AttackRequest(a, d, options=opts), source)
    source.finish()
    assert isinstance(outcome.result, AttackReport)
    return outcome.result, outcome.changes


def duel(a: Loaded[Cat], b: Loaded[Cat], faces: list[int], **options: str
         ) -> tuple[Report, tuple[SheetChange, ...]]:
    source = FixedSource(faces)
    opts = parse_options(SYSTEM.actions["duel"], options, "felins")
    outcome = SYSTEM.duel(GroupRequest((a, b), opts), source)
    source.finish()
    assert isinstance(outcome.result, Report)
    return outcome.result, outcome.changes


def initiative(sheets: Sequence[Loaded[Cat]], faces: list[int]) -> Order:
    source = FixedSource(faces)
    result = SYSTEM.initiative(GroupRequest(tuple(sheets)), source).result
    source.finish()
    assert isinstance(result, Order)
    return result


def reload(sheet: Loaded[Cat]) -> Cat:
    return SYSTEM.load(sheet.doc)


def roll_of(report: AttackReport, index: int = 0) -> CheckResult:
    step = report.steps[index]
    assert isinstance(step, CheckResult)
    return step


def texts(report: AttackReport | Report) -> str:
    return "\n".join(line.text for line in report.notes)


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
    assert fur.hit is True and fur.damage[0].suffered == 0 and changes == ()
    assert "poils" in texts(fur) and fur.health is None and fur.state is None
    hurt, _ = attack(a, d, [9, 8])  # 11 → margin 1; will check: d10 8 + 2×2 − 1 = 11 ≥ 5
    assert to_json(hurt)["damage"]["suffered"] == 1 and len(hurt.steps) == 2
    assert roll_of(hurt, 1).label == "Proie — Volonté" and roll_of(hurt, 1).success is True


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
    result, _ = attack(a, d, [5], protection="partielle", surprise="complète")
    assert roll_of(result).threshold == 10
    assert "= 10" in result.notes[0].text and result.notes[0].rule == "R004.24"


def test_T004_04_total_15_vs_10_gives_2_wounds(make_sheet: MakeSheet) -> None:
    # combat griffu = ceil((4 + 4) / 2) + 2 = 6; d10 9 → 15
    a = make_sheet(nom="A", chance=1, force=4, precision=4, competences={"combat_griffu": 2})
    d = make_sheet(nom="D", agilite=3, vigueur=4, chance=1, force=1, intelligence=1)
    # defender Agilité 3 with partial cover and complete surprise: 5 + 6 + 1 − 2 = 10
    result, changes = attack(a, d, [9, 6], protection="partielle", surprise="complete")
    assert roll_of(result).total == 15 and roll_of(result).threshold == 10
    assert result.damage[0].suffered == 2 and to_json(result)["damage"]["suffered"] == 2
    assert result.health is not None and (result.health.before, result.health.after) == (0, 2)
    apply(changes)
    assert reload(d).wounds == 2


def test_R004_28_will_check_after_wound(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, force=4, precision=4, competences={"combat_griffu": 2})
    d = make_sheet(nom="D", chance=1, vigueur=4, volonte=1, force=1, intelligence=2)
    # 9 + 6 = 15 vs 9 → margin 3; will: 3 wounds → 5 + 2 × 2 = 9; 2 + 2 − 3 = 1 < 9 → flees
    result, changes = attack(a, d, [9, 2])
    will = roll_of(result, 1)
    assert result.damage[0].suffered == 3
    assert will.threshold == will_threshold(3) == 9 and will.rule == "R004.28"
    assert will.total == 2 + 2 * 1 - 3 and will.success is False
    assert result.state is not None and result.state.after == "en_fuite"
    assert "abandonne" in texts(result)
    apply(changes)
    assert reload(d).state == "en_fuite"  # kept on the sheet until the fight is over


def test_R004_32_unconscious_then_coma_then_death(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, force=4, precision=4, competences={"combat_griffu": 2})
    d = make_sheet(nom="D", chance=1, vigueur=1, force=2, intelligence=3)
    # margin 3 > Vigueur 1 → unconscious for (1 + 2 + 3) × 5 = 30 min, no will check
    knocked, changes = attack(a, d, [9, 1, 2, 3])
    assert to_json(knocked)["state"] == "inconscient"
    duration = knocked.steps[1]
    assert isinstance(duration, CheckResult) and duration.total == 30 and len(knocked.steps) == 2
    assert [die.face for die in duration.dice] == [1, 2, 3] and duration.rule == "R004.32"
    assert "30 minutes d'inconscience" in texts(knocked)
    apply(changes)
    d = Loaded(d.doc, reload(d), d.name)
    assert d.model.unconscious_minutes == 30  # A004.30: rolled once, kept on the sheet
    fur, changes = attack(a, d, [3])  # 3 + 6 = 9 vs 9 → margin 0: nothing changes (A004.19)
    assert fur.state is None and changes == ()
    coma, changes = attack(a, d, [5])  # 11 → margin 1
    assert to_json(coma)["state"] == "coma" and to_json(coma)["state_before"] == "inconscient"
    apply(changes)
    d = Loaded(d.doc, reload(d), d.name)
    assert d.model.unconscious_minutes == 0
    dead, changes = attack(a, d, [5])
    assert to_json(dead)["state"] == "mort" and "le clan perd D, définitivement" in texts(dead)
    apply(changes)
    d = Loaded(d.doc, reload(d), d.name)
    assert d.model.state == "mort"
    with pytest.raises(RuleError, match="D est déjà sans vie"):
        attack(a, d, [5])


def test_A004_18_wounds_equal_to_vigueur_still_conscious(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, force=4, precision=4, competences={"combat_griffu": 2})
    d = make_sheet(nom="D", chance=1, vigueur=3, force=1)
    # 8 + 6 = 14 vs 9 → margin 2 (≤ Vigueur 3): will check d10 = 6
    result, _ = attack(a, d, [8, 6])
    assert result.state is None and len(result.steps) == 2


def test_attack_critical_moves_the_attacker_chance(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1)
    d = make_sheet(nom="D", chance=1, agilite=5)  # threshold 15: 10 + 2 fails, but critical
    result, changes = attack(a, d, [10, 10])  # margin max(−2, 0) = 0: touched, no wound
    assert result.critical == "success" and result.hit and result.damage[0].suffered == 0
    apply(changes)
    assert reload(a).chance == 2


def test_attack_refuses_what_felins_has_not(make_sheet: MakeSheet) -> None:
    a, d = make_sheet(nom="A"), make_sheet(nom="D")
    with pytest.raises(RuleError, match="--visee"):
        SYSTEM.attack(AttackRequest(a, d, aimed="tete"), FixedSource([5]))
    with pytest.raises(RuleError, match="Combat griffu"):
        SYSTEM.attack(AttackRequest(a, d, weapon="epee"), FixedSource([5]))
    with pytest.raises(RuleError, match="sans connaissance : impossible"):  # no genre: neutral
        SYSTEM.attack(AttackRequest(make_sheet(nom="K", etat="inconscient", blessures=3), d),
                      FixedSource([5]))


@pytest.mark.parametrize(("faces", "minutes"), [([1, 1, 1], 15), ([10, 10, 10], 150),
                                                 ([2, 5, 9], 80)])
def test_E004_11_unconscious_duration(faces: list[int], minutes: int) -> None:
    assert unconscious_minutes(FixedSource(faces)) == (minutes, tuple(faces))


def test_T004_10_initiative_agility_then_chance(make_sheet: MakeSheet) -> None:
    first = make_sheet(nom="Premier", agilite=4, chance=2, force=1)
    second = make_sheet(nom="Second", agilite=4, chance=3, force=1, precision=1)
    result = initiative([first, second], [])
    assert result.names == ["Second", "Premier"] and result.rule == "R004.29"


def test_R004_29_initiative_d10_on_full_tie(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", agilite=3)
    b = make_sheet(nom="B", agilite=3)
    c = make_sheet(nom="C", agilite=5)
    result = initiative([a, b, c], [4, 4, 2, 7])  # tie on 4, then 2 vs 7
    assert result.names == ["C", "B", "A"]
    assert [e.rolloffs for e in result.entries] == [(), (4, 7), (4, 2)]


def test_T004_11_duel_provoker_with_reputation(make_sheet: MakeSheet) -> None:
    provoker = make_sheet(nom="Provocant", chance=1, sociabilite=3, reputation=12, force=1)
    provoked = make_sheet(nom="Provoqué", chance=1, volonte=2, sociabilite=1)
    result, _ = duel(provoker, provoked, [6, 2])
    a = result.parts[0]
    assert isinstance(a, CheckResult) and a.threshold == 9
    assert a.total == 6 + 2 * 3 + 2 == 14 and a.success is True
    assert [m.rule for m in a.modifiers] == ["R004.13", "R004.27"]


@pytest.mark.parametrize(("faces", "outcome", "winner", "fight"), [
    ([6, 2], 1, "provocant", False),
    ([2, 9], 2, "provoque", False),
    ([6, 9], 3, None, True),
    ([2, 2], 4, None, None),
])
def test_R004_27_duel_four_outcomes(make_sheet: MakeSheet, faces: list[int], outcome: int,
                                    winner: str | None, fight: bool | None) -> None:
    # provoker: Soc 3 → d + 6 vs 5 + 2 × 2 = 9; provoked: Vol 2 → d + 4 vs 5 + 6 = 11
    provoker = make_sheet(nom="Provocant", chance=1, sociabilite=3, reputation=4, force=1)
    provoked = make_sheet(nom="Provoqué", chance=1, volonte=2, sociabilite=1)
    result, _ = duel(provoker, provoked, faces)
    a, b = result.parts
    assert isinstance(a, CheckResult) and isinstance(b, CheckResult)
    found = duel_outcome(bool(a.success), bool(b.success))
    assert (found.number, found.winner, found.fight) == (outcome, winner, fight)
    assert texts(result).startswith(f"issue {outcome} :")


def test_A004_16_duel_outcome_4_is_the_provoked_choice(make_sheet: MakeSheet) -> None:
    provoker = make_sheet(nom="Provocant", chance=1, sociabilite=3, force=1)
    provoked = make_sheet(nom="Provoqué", chance=1, volonte=2, sociabilite=1)
    accepted, _ = duel(provoker, provoked, [2, 2], choix="accepter")
    assert "Provoqué accepte : Provocant l'emporte" in texts(accepted)
    assert duel_outcome(False, False, "accepter").winner == "provocant"
    fought, _ = duel(provoker, provoked, [2, 2], choix="combattre")
    assert "choisit le combat" in texts(fought)
    assert duel_outcome(False, False, "combattre").fight is True
    assert duel_outcome(True, False, "combattre").choice is None  # counts only in outcome 4
    with pytest.raises(RuleError, match="accepter, combattre"):
        duel(provoker, provoked, [2, 2], choix="fuir")


def test_duel_critical_moves_chance_on_the_sheet(make_sheet: MakeSheet) -> None:
    provoker = make_sheet(nom="Provocant", chance=1, sociabilite=3, force=1)
    provoked = make_sheet(nom="Provoqué", chance=2, volonte=2, sociabilite=1, force=1)
    result, changes = duel(provoker, provoked, [10, 10, 1, 3, 1])
    a, b = result.parts
    assert isinstance(a, CheckResult) and isinstance(b, CheckResult)
    assert a.critical == "success" and b.critical == "failure"
    apply(changes)
    assert reload(provoker).chance == 2 and reload(provoked).chance == 1
