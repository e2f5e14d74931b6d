"""The rules `jdr regle` plays (R004.32, R004.33; A004.05, A004.30), through the core's one entry
point (`jdr.core.actions.execute`, then `commit`), and their exact odds checked against every
face sequence of the production roll (`enumerate_outcomes`)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from helpers import cli, ok
from jdr.core.actions import commit, execute
from jdr.core.check import CheckResult, Odds
from jdr.core.options import parse_options
from jdr.core.results import Report
from jdr.core.sheet import SheetDocument
from jdr.core.system import CheckRequest, Loaded, Question, RuleRequest
from jdr.core.usecase import FileWorkspace
from jdr.dice.enumerate import enumerate_outcomes
from jdr.dice.source import DiceSource, FixedSource
from jdr.errors import RuleError
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.rules import RULES
from jdr.systems.felins.sheet import Cat

MakeSheet = Callable[..., Loaded[Cat]]
MakeFile = Callable[..., Path]


def regle(name: str, paths: list[Path], *faces: int, opt: list[str] | None = None,
          chances: bool = False) -> Any:
    params: dict[str, Any] = {"nom": name, "personnages": [str(p) for p in paths],
                              "opt": opt or []}
    if chances:
        params["chances"] = True
        return execute(FileWorkspace(), "regle", params).result
    done = execute(FileWorkspace(), "regle", params, FixedSource(faces))
    commit(FileWorkspace(), done)
    return done.result


def cat_of(path: Path) -> Cat:
    return SYSTEM.load(SheetDocument.load(path))


def test_R004_33_soigner_through_execute(make_file: MakeFile) -> None:
    healer = make_file("h", nom="Guérisseuse", chance=1, competences={"soigner": 1})
    patient = make_file("p", nom="Blessé", blessures=2)
    result = regle("soigner", [healer, patient], 7, opt=["seuil=moyen"])
    assert isinstance(result, Report) and result.title == "Guérisseuse soigne Blessé"
    assert (cat_of(patient).wounds, cat_of(patient).care) == (1, "reussi")
    with pytest.raises(RuleError, match="ne se retente pas"):
        regle("soigner", [healer, patient], 7)
    with pytest.raises(RuleError, match="SOIGNEUR PATIENT"):
        regle("soigner", [healer], 7)
    fled = make_file("f", nom="Fuyard", etat="en_fuite", competences={"soigner": 1})
    with pytest.raises(RuleError, match=r"Fuyard ne peut pas agir.*R004\.28"):
        regle("soigner", [fled, make_file("q", nom="Autre", blessures=1)], 7)


def test_R004_33_soigner_on_itself_through_execute(make_file: MakeFile) -> None:
    cat = make_file("seule", nom="Seule", chance=1, blessures=2, vigueur=3,
                    competences={"soigner": 1})
    regle("soigner", [cat, cat], 10, 10)
    after = cat_of(cat)
    assert (after.wounds, after.chance) == (0, 2)  # neither change lost to the other


def test_R004_32_tanniere_and_fin_combat_through_execute(make_file: MakeFile) -> None:
    patient = make_file("p", nom="Blessé", blessures=4, vigueur=5)
    regle("tanniere", [patient], opt=["jours=7"])
    assert cat_of(patient).wounds == 2
    with pytest.raises(RuleError, match="pas un jet"):
        regle("tanniere", [patient], opt=["jours=7"], chances=True)


def test_D_ALL_02_resting_waking_and_returning_cats_do_not_act(make_file: MakeFile) -> None:
    """The core refuses only the rules whose first character acts: the healer of `soigner`,
    not a cat resting, waking up or coming back from its flight."""
    assert RULES["soigner"].acts
    assert not (RULES["tanniere"].acts or RULES["reveil"].acts or RULES["fin_combat"].acts)
    out_cold = make_file("k", nom="Dort", blessures=3, vigueur=2, etat="inconscient",
                         inconscience=30)
    regle("reveil", [out_cold], opt=["minutes=30"])
    assert cat_of(out_cold).state == "conscient"
    coma = make_file("c", nom="Coma", blessures=5, vigueur=2, etat="coma")
    regle("tanniere", [coma], opt=["jours=3"])
    assert (cat_of(coma).wounds, cat_of(coma).state) == (4, "coma")
    fled = make_file("f", nom="Fuyard", etat="en_fuite", blessures=1)
    regle("fin_combat", [fled, coma])
    assert cat_of(fled).state == "conscient"


def test_R004_32_R004_33_jdr_regle_on_the_command_line(make_file: MakeFile) -> None:
    healer = make_file("h", nom="Guérisseuse", chance=1, competences={"soigner": 1})
    patient = make_file("p", nom="Blessé", blessures=4, vigueur=2, etat="inconscient",
                        inconscience=60)
    odds = ok("regle", "soigner", healer, patient, "--chances", "--json").json()
    assert odds["success"] == pytest.approx(0.5) and odds["recupere_1"] == pytest.approx(0.49)
    run = ok("regle", "soigner", healer, patient, "--des", "7", "--opt", "seuil=moyen")
    assert "Guérisseuse soigne Blessé" in run.out and "RÉUSSITE" in run.out
    assert (cat_of(patient).wounds, cat_of(patient).state) == (3, "conscient")
    again = cli("regle", "soigner", healer, patient, "--des", "7")
    assert again.code == 2 and "ne se retente pas" in again.err
    rest = ok("regle", "tanniere", patient, "--opt", "jours=9", "--json")
    assert cat_of(patient).wounds == 0 and rest.json()["type"] == "notes"


def _heal_delta(healer: Loaded[Cat], patient: Loaded[Cat]) -> Callable[[DiceSource], int]:
    """What the production `soigner` does to the patient's wounds."""

    def run(source: DiceSource) -> int:
        outcome = SYSTEM.rule("soigner", RuleRequest((healer, patient)), source)
        after = {c.path: c.value for c in outcome.changes if c.doc is patient.doc}
        return int(after.get(("blessures",), patient.model.wounds)) - patient.model.wounds

    return run


@pytest.mark.parametrize("chance", [1, 2])
def test_E004_12_soigner_odds_are_exact(make_sheet: MakeSheet, chance: int) -> None:
    healer = make_sheet(nom="H", chance=chance, competences={"soigner": 1}, intelligence=3)
    patient = make_sheet(nom="P", blessures=2, vigueur=5)
    exact = enumerate_outcomes(_heal_delta(healer, patient))
    odds = SYSTEM.rule_odds("soigner", RuleRequest((healer, patient)))
    assert isinstance(odds, Odds) and odds.threshold == 9
    extra = {key: p for key, _, p in odds.extra}
    assert extra == {"recupere_2": exact.get(-2, 0), "recupere_1": exact.get(-1, 0),
                     "aggrave_1": exact.get(1, 0)}
    assert odds.success == exact.get(-1, 0) + exact.get(-2, 0)
    assert sum(exact.values()) == 1


def test_R004_33_soigner_odds_through_execute(make_file: MakeFile) -> None:
    healer = make_file("h", nom="H", chance=1, competences={"soigner": 1})
    patient = make_file("p", nom="P", blessures=1)
    odds = regle("soigner", [healer, patient], opt=["seuil=11"], chances=True)
    # Soigner 3: a natural 8+ succeeds (3/10), a 10 confirmed is a critical (1/100)
    assert isinstance(odds, Odds) and odds.success == Fraction(3, 10)
    assert odds.critical_success == odds.critical_failure == Fraction(1, 100)


def test_E004_11_A004_30_reveil_odds_are_exact(make_sheet: MakeSheet) -> None:
    cat = make_sheet(nom="Dort", etat="inconscient", blessures=3, vigueur=2)
    opts = parse_options(RULES["reveil"], {"minutes": "60"}, "felins")
    request = RuleRequest((cat,), opts)

    def awake(source: DiceSource) -> bool:
        outcome = SYSTEM.rule("reveil", request, source)
        return {c.path: c.value for c in outcome.changes}.get(("etat",)) == "conscient"

    exact = enumerate_outcomes(awake)
    odds = SYSTEM.rule_odds("reveil", request)
    assert odds.success == exact[True] == Fraction(220, 1000)  # 3d10 ≤ 12
    stored = make_sheet(nom="Dort", etat="inconscient", blessures=3, vigueur=2, inconscience=55)
    sure = SYSTEM.rule_odds("reveil", RuleRequest((stored,), opts))
    assert sure.success == 1 and sure.distribution == ((55, Fraction(1)),)


def test_A004_05_the_kept_die_is_chosen_after_the_roll(make_sheet: MakeSheet) -> None:
    """Chance 3, Discrétion 3 + 2 against 11: dice 4, 7, 2 are shown, the player keeps the 4."""
    cat = make_sheet(chance=3, agilite=3, competences={"discretion": 2})
    asked: list[Question] = []

    def keep_first(question: Question) -> str:
        asked.append(question)
        return "1"

    request = CheckRequest(cat, "discretion", threshold="11", chooser=keep_first)
    result = SYSTEM.check(request, FixedSource([4, 7, 2])).result
    assert isinstance(result, CheckResult) and (result.total, result.success) == (9, False)
    assert [d.kept for d in result.dice] == [True, False, False]
    assert len(asked) == 1 and asked[0].choices == ("1", "2", "3") and asked[0].default == "2"
    assert isinstance(asked[0].shown, CheckResult) and asked[0].shown.total == 12
    chosen = SYSTEM.check(CheckRequest(cat, "discretion", threshold="11", choice=2,
                                       chooser=keep_first), FixedSource([4, 7, 2])).result
    assert isinstance(chosen, CheckResult) and chosen.total == 12 and len(asked) == 1
    with pytest.raises(RuleError, match="autorisé : 1, 2, 3"):
        SYSTEM.check(CheckRequest(cat, "discretion", chooser=lambda q: "9"), FixedSource([4, 7, 2]))


def test_A004_05_a_wounded_cat_may_choose_to_flee(make_sheet: MakeSheet) -> None:
    """The will check's die is the defender's choice too (R004.28): keeping the 2 flees."""
    from jdr.core.results import AttackReport
    from jdr.core.system import AttackRequest

    griffe = make_sheet(nom="Griffe", chance=1, force=4, precision=4,
                        competences={"combat_griffu": 2})
    proie = make_sheet(nom="Proie", chance=2, vigueur=4, volonte=3, force=1)
    report = SYSTEM.attack(AttackRequest(griffe, proie, chooser=lambda q: "2"),
                           FixedSource([8, 9, 2])).result  # 14 vs 9 → 2 wounds; will 9 | 2
    assert isinstance(report, AttackReport) and report.state is not None
    assert report.state.after == "en_fuite"
