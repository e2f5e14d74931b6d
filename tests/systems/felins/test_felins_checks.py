"""Resolution (RULES.md 5.2): E004.01, E004.13, T004.01, T004.02, T004.07, T004.08, T004.09,
T004.12, the ladder (D-004.31), criticals (R004.18–R004.20), Ω skills, opposed ties (A004.08)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest

from jdr.core.check import CheckResult
from jdr.core.contest import ContestResult
from jdr.core.options import Options, parse_options
from jdr.core.system import CheckRequest, Loaded, Outcome, SheetChange
from jdr.core.threshold import parse_threshold
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.render.json import to_json
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.checks import FelinsJudge, chance_after
from jdr.systems.felins.config import DEFAULT
from jdr.systems.felins.dice import ChanceDice, ChanceNatural
from jdr.systems.felins.sheet import Cat

MakeSheet = Callable[..., Loaded[Cat]]


def opts(**values: str) -> Options:
    return parse_options(SYSTEM.actions["check"], values, "felins")


def roll(sheet: Loaded[Cat], skill: str, faces: list[int], **kwargs: Any) -> Outcome:
    source = FixedSource(faces)
    outcome = SYSTEM.check(CheckRequest(sheet, skill, **kwargs), source)
    source.finish()  # every face given was used, no more
    return outcome


def check(sheet: Loaded[Cat], skill: str, faces: list[int], **kwargs: Any) -> CheckResult:
    result = roll(sheet, skill, faces, **kwargs).result
    assert isinstance(result, CheckResult)
    return result


def contest(sheet: Loaded[Cat], skill: str, faces: list[int],
            **kwargs: Any) -> tuple[ContestResult, tuple[SheetChange, ...]]:
    outcome = roll(sheet, skill, faces, **kwargs)
    assert isinstance(outcome.result, ContestResult)
    return outcome.result, outcome.changes


def apply(changes: Sequence[SheetChange]) -> None:
    for change in changes:
        change.apply()


def nat(face: int, success: bool = False, failure: bool = False) -> ChanceNatural:
    return ChanceNatural(face, success, failure)


def test_E004_01_margin_counts_ladder_rows() -> None:
    easy = SYSTEM.ladder.value("Assez facile") if SYSTEM.ladder else None
    assert easy == 7
    verdict = FelinsJudge()(nat(10), 12, easy)
    assert verdict.success is True and verdict.margin == 2
    assert DEFAULT.label_of(12) == "Assez difficile"
    assert "niveau atteint : Assez difficile" in verdict.notes


def test_D004_31_ladder_names() -> None:
    expected = {"quasi-automatique": 1, "très facile": 3, "FACILE": 5, "assez_facile": 7,
                "moyen": 9, "Assez difficile": 11, "difficile": 13, "TRES_DIFFICILE": 15,
                "quasi-impossible": 17, "impossible": 19, "Quasiment impossible": 17,
                "Réussite quasi automatique": 1}
    for name, value in expected.items():
        assert parse_threshold(name, SYSTEM.ladder) == value
    assert parse_threshold("12", SYSTEM.ladder) == 12
    with pytest.raises(RuleError, match="vouliez-vous dire"):
        parse_threshold("dificile", SYSTEM.ladder)


def test_A004_02_margin_alternative_in_points() -> None:
    assert FelinsJudge(replace(DEFAULT, margin="points"))(nat(10), 12, 7).margin == 5
    assert FelinsJudge()(nat(10), 6, 7).margin == -1


def test_A004_02_margin_option(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=3, agilite=3, competences={"discretion": 2})
    rows = check(doc, "discretion", [4, 9, 2], threshold="7")  # 14 vs 7
    points = check(doc, "discretion", [4, 9, 2], threshold="7", options=opts(marge="points"))
    assert (rows.margin, points.margin) == (3, 7)


def test_T004_01_skill_roll_keeps_best_die(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=3, agilite=3, competences={"discretion": 2})  # skill 3 + 2 = 5
    outcome = roll(doc, "discretion", [4, 7, 2], threshold="11")
    result = outcome.result
    assert isinstance(result, CheckResult)
    assert result.total == 12 and result.success is True and result.margin == 0
    assert to_json(result)["dice"] == [4, 7, 2] and outcome.changes == ()


def test_T004_02_characteristic_roll(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=2, volonte=4, sociabilite=1, force=1, precision=1)
    result = check(doc, "Volonté", [6, 3], threshold="13")
    assert result.total == 14 and result.success is True and result.margin == 0
    same = check(doc, "volonte", [6, 3], threshold="13", carac="Volonté")
    assert same.total == 14
    alone = check(doc, "-", [6, 3], threshold="13", carac="volonte")
    assert alone.total == 14
    with pytest.raises(RuleError, match="compétence"):
        check(doc, "discretion", [6, 3], threshold="13", carac="volonte")


def test_A004_05_player_choice_of_die(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=3, agilite=3, competences={"discretion": 2})
    result = check(doc, "discretion", [4, 7, 2], threshold="11", choice=3)
    assert result.total == 7 and result.success is False
    with pytest.raises(RuleError, match="choisir un dé de 1 à 3"):
        check(doc, "discretion", [4, 7, 2], choice=4)


def test_E004_13_voluntary_failure(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=3, agilite=5, competences={"discretion": 5})
    outcome = roll(doc, "discretion", [], threshold="3", options=opts(echec_volontaire="oui"))
    data = to_json(outcome.result)
    assert data["success"] is False and data["dice"] == [] and outcome.changes == ()
    assert data["rule"] == "R004.17"
    # the player may also keep a low die on purpose (A004.05)
    low = check(doc, "discretion", [9, 2, 8], threshold="15", choice=2)
    assert low.success is False


def test_R004_18_critical_success_needs_two_tens(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=2)
    outcome = roll(doc, "discretion", [10, 3, 10], threshold="impossible")
    result = outcome.result
    assert isinstance(result, CheckResult)
    assert result.critical == "success" and result.success is True
    assert to_json(result)["dice"] == [10, 3, 10]
    assert any("Chance 2 → 3" in n for n in result.notes)
    apply(outcome.changes)
    assert SYSTEM.load(doc.doc).chance == 3
    unconfirmed = roll(make_sheet(chance=2), "discretion", [10, 3, 4], threshold="impossible")
    assert isinstance(unconfirmed.result, CheckResult)
    assert unconfirmed.result.critical is None and unconfirmed.result.total == 12
    assert unconfirmed.changes == ()


def test_R004_19_critical_failure_needs_two_ones(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=2, agilite=5, competences={"discretion": 5})
    outcome = roll(doc, "discretion", [1, 1, 1, 5], threshold="facile")
    assert isinstance(outcome.result, CheckResult)
    assert outcome.result.critical == "failure" and outcome.result.success is False
    apply(outcome.changes)
    assert SYSTEM.load(doc.doc).chance == 1
    # a 1 beside a better kept die is still rerolled, and fumbles the roll (A004.06)
    kept_high = check(make_sheet(chance=2, agilite=5), "discretion", [1, 8, 1],
                      threshold="facile")
    assert kept_high.total == 13
    assert kept_high.critical == "failure" and kept_high.success is False


def test_T004_07_chance_5_stays_5(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=5)
    outcome = roll(doc, "discretion", [10, 2, 2, 2, 2, 10])
    assert isinstance(outcome.result, CheckResult)
    assert outcome.result.critical == "success" and outcome.changes == ()
    assert chance_after(5, "success") == 5
    assert any("Chance 5 → 5" in n for n in outcome.result.notes)


def test_T004_08_chance_1_stays_1(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=1)
    outcome = roll(doc, "discretion", [1, 1])
    assert isinstance(outcome.result, CheckResult)
    assert outcome.result.critical == "failure" and outcome.changes == ()
    assert chance_after(1, "failure") == 1


def test_T004_09_simultaneous_criticals_cancel(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=2, agilite=2)
    outcome = roll(doc, "discretion", [10, 1, 10, 1], threshold="13")
    result = outcome.result
    assert isinstance(result, CheckResult)
    assert result.critical is None and outcome.changes == ()
    assert result.total == 12 and result.success is False  # resolved normally: 10 + 2 < 13
    assert any("annulent" in n for n in result.notes)


def test_T004_12_wound_malus(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=1, agilite=3, competences={"discretion": 2}, blessures=2)
    result = check(doc, "discretion", [7], threshold="11")
    assert result.total == 7 + 5 - 2 == 10 and result.success is False
    assert [m.rule for m in result.modifiers] == ["R004.06", "R004.22"]


def test_R004_08_omega_skill_refused_at_rank_0(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=1)
    with pytest.raises(RuleError) as error:
        check(doc, "soigner", [5])
    message = error.value.message
    assert "Soigner" in message and "(Ω)" in message and "rang 1" in message
    assert "\n" not in message
    ok = check(make_sheet(chance=1, competences={"soigner": 1}), "soigner", [5])
    assert ok.total == 5 + 2 + 1
    unowned = check(doc, "odorat", [5])  # a normal skill at rank 0 is allowed
    assert unowned.total == 7


def test_unknown_skill_is_one_french_line(make_sheet: MakeSheet) -> None:
    with pytest.raises(RuleError, match="introuvable"):
        check(make_sheet(), "voler", [5])


def test_unconscious_cat_cannot_roll(make_sheet: MakeSheet) -> None:
    with pytest.raises(RuleError, match="sans connaissance : impossible"):  # no genre: neutral
        check(make_sheet(etat="inconscient", blessures=3), "discretion", [5])
    sheet = make_sheet(etat="coma", blessures=4)
    why = SYSTEM.incapacity(sheet)
    assert why is not None and "coma" in why.text and why.rule == "R004.32"
    assert SYSTEM.state(sheet) == "coma" and SYSTEM.incapacity(make_sheet()) is None
    assert SYSTEM.state(make_sheet()) == "debout"


def test_odds_come_from_the_same_dice() -> None:
    dist = dict(ChanceDice(1).distribution().items())
    total = sum(dist.values())
    assert dist[nat(10, success=True)] * 100 == total  # 1/10 × 1/10
    assert dist[nat(1, failure=True)] * 100 == total
    assert dist[nat(5)] * 10 == total


def test_odds_of_a_check(make_sheet: MakeSheet) -> None:
    doc = make_sheet(chance=1, agilite=3, competences={"discretion": 2})
    odds = SYSTEM.odds(CheckRequest(doc, "discretion", threshold="11"))
    # d10 + 5 ≥ 11 → faces 6..10 = 1/2; a confirmed 10 succeeds anyway, a confirmed 1 fails anyway
    assert odds.success == Fraction(1, 2)
    assert odds.critical_success == Fraction(1, 100) == odds.critical_failure
    assert sum(p for _, p in odds.distribution) == 1
    assert odds.notes == ("seuil 11 : Assez difficile",)
    hard = SYSTEM.odds(CheckRequest(doc, "discretion", threshold="19"))
    assert hard.success == Fraction(1, 100)  # only the confirmed 10


# ---------------------------------------------------------------- opposed rolls


def test_R004_21_opposed_best_score_wins(make_sheet: MakeSheet) -> None:
    hider = make_sheet(nom="Ombre", chance=1, agilite=4)
    seeker = make_sheet(nom="Guet", chance=1, volonte=3, intuition=3)
    result, _ = contest(hider, "discretion", [6, 5], opponent=seeker,
                        opponent_skill="reperer_trouver")
    assert to_json(result)["total"] == 10 and result.success is True
    assert result.winner == "actor" and result.actor.who == "Ombre"
    assert result.rule == "R004.21"


def test_R004_38_contre_alone_opposes_reperer_to_discretion(make_sheet: MakeSheet) -> None:
    hider = make_sheet(nom="Ombre", chance=1, agilite=4)
    seeker = make_sheet(nom="Guet", chance=1, volonte=3, intuition=3)
    result, _ = contest(hider, "discretion", [6, 5], opponent=seeker)
    assert result.opponent.label == "Guet — Repérer/Trouver"
    back, _ = contest(seeker, "Repérer", [6, 5], opponent=hider)
    assert back.opponent.label == "Ombre — Discrétion"
    same, _ = contest(hider, "odorat", [6, 5], opponent=seeker)
    assert same.opponent.label == "Guet — Odorat"
    carac, _ = contest(hider, "-", [6, 5], carac="force", opponent=seeker)
    assert carac.opponent.label == "Guet — Force"


def test_A004_08_tie_goes_to_better_skill_then_chance_then_reroll(
        make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, agilite=4)  # discrétion 4
    b = make_sheet(nom="B", chance=1, volonte=3, intuition=2)  # repérer 3
    tie, _ = contest(a, "discretion", [5, 6], opponent=b, opponent_skill="reperer")
    assert tie.success is True and tie.tie and any("compétence" in n for n in tie.notes)
    c = make_sheet(nom="C", chance=2, agilite=4)
    d = make_sheet(nom="D", chance=1, agilite=4)
    by_chance, _ = contest(d, "discretion", [5, 5, 2], opponent=c, opponent_skill="discretion")
    assert by_chance.success is False and any("Chance" in n for n in by_chance.notes)
    e = make_sheet(nom="E", chance=1, agilite=4)
    rerolled, _ = contest(d, "discretion", [5, 5, 7, 3], opponent=e, opponent_skill="discretion")
    assert len(rerolled.rounds) == 1 and rerolled.success is True  # one tied round, then won


def test_A004_08_critical_wins_opposed(make_sheet: MakeSheet) -> None:
    weak = make_sheet(nom="Faible", chance=1, agilite=1)
    strong = make_sheet(nom="Fort", chance=1, agilite=5, competences={"discretion": 5})
    result, changes = contest(weak, "discretion", [10, 10, 4], opponent=strong,
                              opponent_skill="discretion")
    assert result.actor.total < result.opponent.total
    assert result.success is True and len(changes) == 1
    assert any("critique" in n for n in result.notes)


def test_A004_07_chance_moves_between_rerolled_rounds(make_sheet: MakeSheet) -> None:
    """Both confirm a 10 with equal totals: a perfect tie, re-rolled; each critical raised
    Chance, so the second round rolls two dice each (A004.07), and the sheets keep Chance 2."""
    a = make_sheet(nom="A", chance=1, agilite=4)
    b = make_sheet(nom="B", chance=1, agilite=4)
    result, changes = contest(a, "discretion", [10, 10, 10, 10, 5, 3, 4, 2], opponent=b,
                              opponent_skill="discretion")
    assert len(result.rounds) == 1 and result.rounds[0][0].critical == "success"
    assert len(result.actor.dice) == 2 and len(result.opponent.dice) == 2
    assert (result.actor.total, result.opponent.total) == (9, 8) and result.success is True
    apply(changes)
    assert SYSTEM.load(a.doc).chance == 2 and SYSTEM.load(b.doc).chance == 2


def test_opposed_odds_account_for_rerolled_ties(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A", chance=1, agilite=3)
    b = make_sheet(nom="B", chance=1, agilite=3)
    odds = SYSTEM.odds(CheckRequest(a, "discretion", opponent=b, opponent_skill="discretion"))
    assert odds.success == Fraction(1, 2) == odds.opponent_wins  # perfect symmetry
    assert odds.tie is not None and 0 < odds.tie < 1


def test_a_cat_cannot_oppose_itself(make_sheet: MakeSheet) -> None:
    a = make_sheet(nom="A")
    with pytest.raises(RuleError, match="lui-même"):
        contest(a, "discretion", [5, 5], opponent=a)


def test_unused_flags_are_refused(make_sheet: MakeSheet) -> None:
    with pytest.raises(RuleError, match="--de"):
        check(make_sheet(), "discretion", [5], die="d20")
