"""Care, time and progression, as `jdr regle` plays them: E004.03, E004.06, E004.11, E004.12,
T004.13 (R004.11, R004.32, R004.33), A004.23, A004.24, A004.30."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from helpers import cli
from jdr.core.check import CheckResult
from jdr.core.results import Notes, Report
from jdr.core.system import Loaded, Outcome
from jdr.errors import RuleError
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.health import den_recovery
from jdr.systems.felins.progression import rank_increment, rank_total_cost
from jdr.systems.felins.sheet import Cat

MakeSheet = Callable[..., Loaded[Cat]]
Play = Callable[..., Outcome]
Reload = Callable[[Loaded[Cat]], Loaded[Cat]]


def state(reload: Reload, sheet: Loaded[Cat]) -> tuple[int, str]:
    cat = reload(sheet).model
    return cat.wounds, cat.state


@pytest.fixture
def healer(make_sheet: MakeSheet) -> Callable[[], Loaded[Cat]]:
    """Soigner = Intelligence 2 + rank 1 = 3; Chance 1; threshold Moyen 9 by default."""
    return lambda: make_sheet(nom="Guérisseuse", chance=1, competences={"soigner": 1})


@pytest.mark.parametrize(("rank", "cost"), [(1, 0), (2, 1), (3, 2), (4, 4), (5, 8)])
def test_E004_03_clan_skill_rank_costs(rank: int, cost: int) -> None:
    assert rank_increment(rank, clan_skill=True) == cost


def test_T004_13_clan_vs_normal_skill_to_rank_5() -> None:
    assert rank_total_cost(5, clan_skill=True) == 15
    assert rank_total_cost(5, clan_skill=False) == 31


@pytest.mark.parametrize(("days", "wounds"), [(3, 1), (6, 2), (2, 0), (8, 2), (0, 0)])
def test_E004_06_days_at_the_healer_den(days: int, wounds: int) -> None:
    assert den_recovery(days) == wounds


def test_E004_06_R004_32_tanniere_rule(make_sheet: MakeSheet, play: Play, reload: Reload) -> None:
    patient = make_sheet(blessures=3, vigueur=2, etat="inconscient", inconscience=40,
                         soins="rate")
    outcome = play("tanniere", patient, jours="6")
    assert isinstance(outcome.result, Notes) and "2 niveau(x)" in outcome.result.title
    cat = reload(patient).model
    # a day at the den is more than 3d10 × 5 minutes, and the next day for a failed Soigner
    assert (cat.wounds, cat.state, cat.unconscious_minutes, cat.care) == (1, "conscient", 0,
                                                                          "aucun")
    with pytest.raises(RuleError, match="jours=N manquant"):
        play("tanniere", patient)
    with pytest.raises(RuleError, match="hors limites"):
        play("tanniere", patient, jours="0")
    with pytest.raises(RuleError, match="sans vie : aucun soin ne ramène à la vie"):
        play("tanniere", make_sheet(etat="mort"), jours="3")


def test_R004_32_tanniere_does_not_end_a_coma(make_sheet: MakeSheet, play: Play,
                                              reload: Reload) -> None:
    patient = make_sheet(blessures=5, vigueur=2, etat="coma")
    outcome = play("tanniere", patient, jours="3")
    assert state(reload, patient) == (4, "coma")
    assert isinstance(outcome.result, Notes) and "guérisseur" in outcome.result.lines[-1].text


def test_E004_12_soigner_success_critical_and_fumble(
        make_sheet: MakeSheet, healer: Callable[[], Loaded[Cat]], play: Play,
        reload: Reload) -> None:
    patient = make_sheet(nom="Blessé", blessures=2)
    play("soigner", healer(), patient, faces=[7])  # 7 + 3 = 10 ≥ 9: −1
    assert state(reload, patient) == (1, "conscient")
    patient = make_sheet(nom="Blessé", blessures=3)
    play("soigner", healer(), patient, faces=[10, 10])  # critical: −2
    assert state(reload, patient) == (1, "conscient")
    patient = make_sheet(nom="Blessé", blessures=1)
    play("soigner", healer(), patient, faces=[1, 1])  # fumble: +1
    assert state(reload, patient) == (2, "conscient")
    patient = make_sheet(nom="Blessé", blessures=1)
    failed = play("soigner", healer(), patient, faces=[4])
    assert state(reload, patient) == (1, "conscient")  # plain failure: nothing
    assert isinstance(failed.result, Report) and "lendemain" in failed.result.notes[0].text


def test_R004_33_a_success_is_not_retried(make_sheet: MakeSheet,
                                          healer: Callable[[], Loaded[Cat]], play: Play,
                                          reload: Reload) -> None:
    patient = make_sheet(nom="Blessé", blessures=3)
    play("soigner", healer(), patient, faces=[7])
    patient = reload(patient)
    assert patient.model.care == "reussi"
    with pytest.raises(RuleError, match="ne se retente pas pour faire mieux"):
        play("soigner", healer(), patient, faces=[7], lendemain="oui")


def test_R004_33_a_failure_is_retried_the_next_day(make_sheet: MakeSheet,
                                                   healer: Callable[[], Loaded[Cat]],
                                                   play: Play, reload: Reload) -> None:
    patient = make_sheet(nom="Blessé", blessures=3)
    play("soigner", healer(), patient, faces=[3])
    patient = reload(patient)
    assert patient.model.care == "rate"
    with pytest.raises(RuleError, match="lendemain=oui"):
        play("soigner", healer(), patient, faces=[7])
    play("soigner", healer(), patient, faces=[7], lendemain="oui")
    assert state(reload, patient) == (2, "conscient") and reload(patient).model.care == "reussi"


def test_R004_33_new_wounds_can_be_cared_for(make_sheet: MakeSheet,
                                             healer: Callable[[], Loaded[Cat]], play: Play,
                                             reload: Reload) -> None:
    from jdr.core.system import AttackRequest
    from jdr.core.usecase import apply_changes
    from jdr.dice.source import FixedSource

    patient = make_sheet(nom="Blessé", blessures=2, vigueur=5, soins="reussi")
    attacker = make_sheet(nom="Griffe", chance=1, force=4, precision=4,
                          competences={"combat_griffu": 2})
    blow = SYSTEM.attack(AttackRequest(attacker, patient), FixedSource([6, 9]))  # margin 1
    apply_changes(SYSTEM, blow.changes)
    assert reload(patient).model.care == "aucun"
    play("soigner", healer(), reload(patient), faces=[7])
    assert state(reload, patient) == (2, "conscient")


def test_A004_23_soigner_threshold_is_the_gm_s(make_sheet: MakeSheet,
                                               healer: Callable[[], Loaded[Cat]],
                                               play: Play) -> None:
    patient = make_sheet(nom="Blessé", blessures=2)
    outcome = play("soigner", healer(), patient, faces=[7], seuil="difficile")  # 10 < 13
    step = outcome.result.parts[0] if isinstance(outcome.result, Report) else None
    assert isinstance(step, CheckResult) and step.threshold == 13 and step.success is False
    with pytest.raises(RuleError, match="seuil"):
        play("soigner", healer(), patient, faces=[7], seuil="enorme")


def test_A004_23_soigner_revives_and_brings_out_of_coma(
        make_sheet: MakeSheet, healer: Callable[[], Loaded[Cat]], play: Play,
        reload: Reload) -> None:
    out_cold = make_sheet(nom="Assommé", blessures=4, vigueur=2, etat="inconscient",
                          inconscience=90)
    play("soigner", healer(), out_cold, faces=[7])  # a success ends unconsciousness
    assert state(reload, out_cold) == (3, "conscient")
    assert reload(out_cold).model.unconscious_minutes == 0
    coma = make_sheet(nom="Blessé", blessures=3, vigueur=2, etat="coma")
    play("soigner", healer(), coma, faces=[7])
    assert state(reload, coma) == (2, "conscient")
    deep = make_sheet(nom="Blessé", blessures=5, vigueur=2, etat="coma")
    outcome = play("soigner", healer(), deep, faces=[7, 1, 2, 3])  # still beyond Vigueur
    assert state(reload, deep) == (4, "inconscient")
    assert reload(deep).model.unconscious_minutes == 30  # 3d10 × 5 rolled now (A004.30)
    assert isinstance(outcome.result, Report) and len(outcome.result.parts) == 2
    with pytest.raises(RuleError, match="Mort est sans vie"):
        play("soigner", healer(), make_sheet(nom="Mort", blessures=5, etat="mort"), faces=[7])


def test_R004_33_fumble_on_an_unconscious_cat_is_a_coma(
        make_sheet: MakeSheet, healer: Callable[[], Loaded[Cat]], play: Play,
        reload: Reload) -> None:
    patient = make_sheet(nom="Assommé", blessures=3, vigueur=2, etat="inconscient",
                         inconscience=30)
    play("soigner", healer(), patient, faces=[1, 1])
    cat = reload(patient).model
    assert (cat.wounds, cat.state, cat.care, cat.unconscious_minutes) == (4, "coma", "rate", 0)


def test_R004_33_a_cat_tends_itself_on_one_sheet(make_sheet: MakeSheet, play: Play,
                                                 reload: Reload) -> None:
    cat = make_sheet(nom="Seule", chance=1, blessures=2, vigueur=3, competences={"soigner": 1})
    play("soigner", cat, cat, faces=[10, 10])  # critical: −2 and Chance +1 on the same sheet
    after = reload(cat).model
    assert (after.wounds, after.chance) == (0, 2)
    assert after.care == "aucun"  # no wound left: nothing to retry


def test_soigner_is_an_omega_skill(make_sheet: MakeSheet, play: Play) -> None:
    with pytest.raises(RuleError, match="Ω"):
        play("soigner", make_sheet(), make_sheet(blessures=1), faces=[7])


def test_E004_11_A004_30_reveil_counts_the_minutes(make_sheet: MakeSheet, play: Play,
                                                   reload: Reload) -> None:
    cat = make_sheet(nom="Assommé", blessures=3, vigueur=2, etat="inconscient",
                     inconscience=45)
    outcome = play("reveil", cat, minutes="20")
    assert isinstance(outcome.result, Notes) and "encore 25 minute(s)" in outcome.result.lines[0].text
    cat = reload(cat)
    assert (cat.model.state, cat.model.unconscious_minutes) == ("inconscient", 25)
    play("reveil", cat, minutes="25")
    assert (reload(cat).model.state, reload(cat).model.unconscious_minutes) == ("conscient", 0)


def test_A004_30_reveil_rolls_a_duration_missing_from_the_sheet(
        make_sheet: MakeSheet, play: Play, reload: Reload) -> None:
    cat = make_sheet(nom="Assommé", blessures=3, vigueur=2, etat="inconscient")
    outcome = play("reveil", cat, faces=[4, 5, 6], minutes="60")  # 75 minutes
    assert isinstance(outcome.result, Report)
    roll = outcome.result.parts[0]
    assert isinstance(roll, CheckResult) and roll.total == 75 and roll.success is False
    assert reload(cat).model.unconscious_minutes == 15


def test_R004_32_reveil_refuses_a_coma_and_a_waking_cat(make_sheet: MakeSheet,
                                                        play: Play) -> None:
    with pytest.raises(RuleError, match="soins d'un guérisseur"):
        play("reveil", make_sheet(etat="coma", blessures=4), minutes="60")
    with pytest.raises(RuleError, match="rien à réveiller : Patte-de-Brume est en éveil"):
        play("reveil", make_sheet(), minutes="60")


def test_A004_24_xp_costs_are_not_in_the_rules(make_file: Callable[..., object]) -> None:
    assert "xp" not in SYSTEM.actions
    run = cli("xp", str(make_file("chat")), "--competence", "chasse")
    assert run.code != 0 and "xp" in run.err and "felins" in run.err
