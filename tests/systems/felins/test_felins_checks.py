"""Resolution (RULES.md 5.2): E004.01, E004.13, T004.01, T004.02, T004.07, T004.08, T004.09,
T004.12, the ladder (D-004.31), criticals (R004.18–R004.20), Ω skills, opposed ties (A004.08)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from jdr.core.sheet import SheetDocument
from jdr.core.system import CheckRequest, SheetChange
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.checks import ChanceDice, FelinsJudge, chance_after, parse_threshold

MakeSheet = Callable[..., SheetDocument]

def roll(doc: SheetDocument, skill: str, faces: list[int], **kwargs: Any) -> tuple[Any, Any]:
    source = FixedSource(faces)
    result, changes = SYSTEM.check(CheckRequest(doc, skill, **kwargs), source)
    source.finish()  # every face given was used, no more
    return result, changes


def apply(changes: list[SheetChange]) -> None:
    for change in changes:
        change.apply()


def test_E004_01_margin_counts_ladder_rows() -> None:
    easy = parse_threshold("Assez facile")
    assert easy is not None and easy.value == 7
    judge = FelinsJudge()
    verdict = judge((10, False, False), 12, easy.value)
    assert verdict.success is True and verdict.margin == 2
    reached = parse_threshold("12")
    assert reached is not None and reached.label == "Assez difficile"


def test_D004_31_ladder_names() -> None:
    expected = {"quasi-automatique": 1, "très facile": 3, "FACILE": 5, "assez_facile": 7,
                "moyen": 9, "Assez difficile": 11, "difficile": 13, "TRES_DIFFICILE": 15,
                "quasi-impossible": 17, "impossible": 19}
    for name, value in expected.items():
        threshold = parse_threshold(name)
        assert threshold is not None and threshold.value == value
    with pytest.raises(RuleError, match="vouliez-vous dire"):
        parse_threshold("dificile")


def test_A004_02_margin_alternative_in_points() -> None:
    assert FelinsJudge("points")((10, False, False), 12, 7).margin == 5
    assert FelinsJudge()((10, False, False), 6, 7).margin == -1


def test_T004_01_skill_roll_keeps_best_die(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=3, agilite=3, competences={"discretion": 2})  # skill 3 + 2 = 5
    result, changes = roll(doc, "discretion", [4, 7, 2], threshold="11")
    assert result.total == 12 and result.success is True and result.margin == 0
    assert result.to_json()["dice"] == [4, 7, 2] and changes == []


def test_T004_02_characteristic_roll(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=2, volonte=4, sociabilite=1, force=1, precision=1)
    result, _ = roll(doc, "Volonté", [6, 3], threshold="13")
    assert result.total == 14 and result.success is True and result.margin == 0
    same, _ = roll(doc, "volonte", [6, 3], threshold="13", carac="Volonté")
    assert same.total == 14
    with pytest.raises(RuleError, match="compétence"):
        roll(doc, "discretion", [6, 3], threshold="13", carac="volonte")


def test_A004_05_player_choice_of_die(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=3, agilite=3, competences={"discretion": 2})
    result, _ = roll(doc, "discretion", [4, 7, 2], threshold="11", choice=3)
    assert result.total == 7 and result.success is False
    with pytest.raises(RuleError, match="choisir un dé de 1 à 3"):
        roll(doc, "discretion", [4, 7, 2], choice=4)


def test_E004_13_voluntary_failure(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=3, agilite=5, competences={"discretion": 5})
    result, changes = roll(doc, "discretion", [], threshold="3",
                           options={"echec_volontaire": "oui"})
    data = result.to_json()
    assert data["success"] is False and data["dice"] == [] and changes == []
    # the player may also keep a low die on purpose (A004.05)
    low, _ = roll(doc, "discretion", [9, 2, 8], threshold="15", choice=2)
    assert low.success is False


def test_R004_18_critical_success_needs_two_tens(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=2)
    result, changes = roll(doc, "discretion", [10, 3, 10], threshold="impossible")
    assert result.critical == "success" and result.success is True
    assert result.to_json()["dice"] == [10, 3, 10]
    apply(changes)
    assert SYSTEM.load(doc).chance == 3
    unconfirmed, changes = roll(make_sheet(chance=2), "discretion", [10, 3, 4],
                                threshold="impossible")
    assert unconfirmed.critical is None and unconfirmed.total == 12 and changes == []


def test_R004_19_critical_failure_needs_two_ones(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=2, agilite=5, competences={"discretion": 5})
    result, changes = roll(doc, "discretion", [1, 1, 1, 5], threshold="facile")
    assert result.critical == "failure" and result.success is False
    apply(changes)
    assert SYSTEM.load(doc).chance == 1
    # a 1 beside a better kept die is still rerolled, and fumbles the roll (A004.06)
    kept_high, _ = roll(make_sheet(chance=2, agilite=5), "discretion", [1, 8, 1],
                        threshold="facile")
    assert kept_high.total == 13
    assert kept_high.critical == "failure" and kept_high.success is False


def test_T004_07_chance_5_stays_5(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=5)
    result, changes = roll(doc, "discretion", [10, 2, 2, 2, 2, 10])
    assert result.critical == "success" and changes == []
    assert chance_after(5, "success") == 5
    assert result.to_json()["chance_after"] == 5


def test_T004_08_chance_1_stays_1(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=1)
    result, changes = roll(doc, "discretion", [1, 1])
    assert result.critical == "failure" and changes == []
    assert chance_after(1, "failure") == 1


def test_T004_09_simultaneous_criticals_cancel(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=2, agilite=2)
    result, changes = roll(doc, "discretion", [10, 1, 10, 1], threshold="13")
    assert result.critical is None and changes == []
    assert result.total == 12 and result.success is False  # resolved normally: 10 + 2 < 13
    assert any("annulent" in n for n in result.result.notes)


def test_T004_12_wound_malus(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=1, agilite=3, competences={"discretion": 2}, blessures=2)
    result, _ = roll(doc, "discretion", [7], threshold="11")
    assert result.total == 7 + 5 - 2 == 10 and result.success is False


def test_R004_08_omega_skill_refused_at_rank_0(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=1)
    with pytest.raises(RuleError) as error:
        roll(doc, "soigner", [5])
    message = error.value.message
    assert "Soigner" in message and "(Ω)" in message and "rang 1" in message
    assert "\n" not in message
    ok, _ = roll(make_sheet(chance=1, competences={"soigner": 1}), "soigner", [5])
    assert ok.total == 5 + 2 + 1
    unowned, _ = roll(doc, "odorat", [5])  # a normal skill at rank 0 is allowed
    assert unowned.total == 7


def test_unknown_skill_is_one_french_line(make_sheet: MakeSheet) -> None:
    with pytest.raises(RuleError, match="introuvable"):
        roll(make_sheet(), "voler", [5])


def test_unconscious_cat_cannot_roll(make_sheet: MakeSheet) -> None:
    with pytest.raises(RuleError, match="inconscient"):
        roll(make_sheet(etat="inconscient", blessures=3), "discretion", [5])


def test_odds_come_from_the_same_dice() -> None:
    dice = ChanceDice(1)
    dist = dict(dice.distribution().items())
    total = sum(dist.values())
    assert dist[(10, True, False)] * 100 == total  # 1/10 × 1/10
    assert dist[(1, False, True)] * 100 == total
    assert dist[(5, False, False)] * 10 == total


def test_odds_of_a_check(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=1, agilite=3, competences={"discretion": 2})
    odds = SYSTEM.odds(CheckRequest(doc, "discretion", threshold="11")).to_json()
    # d10 + 5 ≥ 11 → faces 6..10 = 0.5, minus the fumbles that cannot occur there, plus none
    assert odds["success"] == pytest.approx(0.5)
    assert odds["critical_success"] == pytest.approx(0.01)
    assert odds["critical_failure"] == pytest.approx(0.01)
    assert sum(odds["distribution"].values()) == pytest.approx(1.0)
    hard = SYSTEM.odds(CheckRequest(doc, "discretion", threshold="19")).to_json()
    assert hard["success"] == pytest.approx(0.01)  # only the confirmed 10


# ---------------------------------------------------------------- opposed rolls


def test_R004_21_opposed_best_score_wins(make_sheet: MakeSheet) -> None:
    hider = make_sheet(nom="Ombre", chance=1, agilite=4)
    seeker = make_sheet(nom="Guet", chance=1, volonte=3, intuition=3)
    result, _ = roll(hider, "discretion", [6, 5], opponent=seeker,
                     opponent_skill="reperer_trouver")
    assert result.to_json()["total"] == 10 and result.success is True
    assert result.to_json()["winner"] == "Ombre"


def test_A004_08_tie_goes_to_better_skill_then_chance_then_reroll(
        make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, agilite=4)  # discrétion 4
    b = make_sheet(nom="B", chance=1, volonte=3, intuition=2)  # repérer 3
    tie, _ = roll(a, "discretion", [5, 6], opponent=b, opponent_skill="reperer")
    assert tie.success is True and "compétence" in tie.last[3]
    c = make_sheet(nom="C", chance=2, agilite=4)
    d = make_sheet(nom="D", chance=1, agilite=4)
    by_chance, _ = roll(d, "discretion", [5, 5, 2], opponent=c)
    assert by_chance.success is False and "Chance" in by_chance.last[3]
    e = make_sheet(nom="E", chance=1, agilite=4)
    rerolled, _ = roll(d, "discretion", [5, 5, 7, 3], opponent=e)
    assert len(rerolled.rounds) == 2 and rerolled.success is True


def test_A004_08_critical_wins_opposed(make_sheet: MakeSheet) -> None:
    weak = make_sheet(nom="Faible", chance=1, agilite=1)
    strong = make_sheet(nom="Fort", chance=1, agilite=5, competences={"discretion": 5})
    result, changes = roll(weak, "discretion", [10, 10, 4], opponent=strong)
    assert result.success is True and len(changes) == 1


def test_opposed_odds_account_for_rerolled_ties(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, agilite=3)
    b = make_sheet(nom="B", chance=1, agilite=3)
    odds = SYSTEM.odds(CheckRequest(a, "discretion", opponent=b)).to_json()
    assert odds["success"] == pytest.approx(0.5)  # perfect symmetry
    assert 0 < odds["tie"] < 1
