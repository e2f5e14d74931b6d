"""Healing and progression: E004.03, E004.06, E004.12, T004.13 (R004.11, R004.32, R004.33),
A004.23, A004.24."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from helpers import cli
from jdr.core.check import CheckResult
from jdr.core.results import Notes, Report
from jdr.core.system import Loaded, Outcome, SheetChange
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.health import den_recovery
from jdr.systems.felins.progression import rank_increment, rank_total_cost
from jdr.systems.felins.sheet import Cat

MakeSheet = Callable[..., Loaded[Cat]]


def apply(changes: Sequence[SheetChange]) -> None:
    for change in changes:
        change.apply()


@pytest.mark.parametrize(("rank", "cost"), [(1, 0), (2, 1), (3, 2), (4, 4), (5, 8)])
def test_E004_03_clan_skill_rank_costs(rank: int, cost: int) -> None:
    assert rank_increment(rank, clan_skill=True) == cost


def test_T004_13_clan_vs_normal_skill_to_rank_5() -> None:
    assert rank_total_cost(5, clan_skill=True) == 15
    assert rank_total_cost(5, clan_skill=False) == 31


@pytest.mark.parametrize(("days", "wounds"), [(3, 1), (6, 2), (2, 0), (8, 2), (0, 0)])
def test_E004_06_days_at_the_healer_den(days: int, wounds: int) -> None:
    assert den_recovery(days) == wounds


def test_E004_06_den_updates_the_sheet(make_sheet: MakeSheet) -> None:
    patient = make_sheet(blessures=3, vigueur=2, etat="inconscient")
    outcome = SYSTEM.den(patient, 6)
    assert isinstance(outcome.result, Notes) and "2 niveau(x)" in outcome.result.title
    apply(outcome.changes)
    cat = SYSTEM.load(patient.doc)
    assert (cat.wounds, cat.state) == (1, "conscient")
    with pytest.raises(RuleError, match="positif"):
        SYSTEM.den(patient, -1)


def _heal(healer: Loaded[Cat], patient: Loaded[Cat], faces: list[int],
          threshold: str | None = None) -> tuple[int, str, Outcome]:
    source = FixedSource(faces)
    outcome = SYSTEM.heal(healer, patient, source, threshold)
    source.finish()
    apply(outcome.changes)
    cat = SYSTEM.load(patient.doc)
    return cat.wounds, cat.state, outcome


def test_E004_12_soigner_success_critical_and_fumble(make_sheet: MakeSheet) -> None:
    # Soigner = Intelligence 2 + rank 1 = 3; threshold Moyen 9
    def healer() -> Loaded[Cat]:
        return make_sheet(nom="Guérisseuse", chance=1, competences={"soigner": 1})

    patient = make_sheet(nom="Blessé", blessures=2)
    assert _heal(healer(), patient, [7])[:2] == (1, "conscient")  # 10 ≥ 9: −1
    patient = make_sheet(nom="Blessé", blessures=3)
    assert _heal(healer(), patient, [10, 10])[:2] == (1, "conscient")  # critical: −2
    patient = make_sheet(nom="Blessé", blessures=1)
    assert _heal(healer(), patient, [1, 1])[:2] == (2, "conscient")  # fumble: +1
    patient = make_sheet(nom="Blessé", blessures=1)
    *_, failed = _heal(healer(), patient, [4])
    assert SYSTEM.load(patient.doc).wounds == 1  # plain failure: nothing
    assert isinstance(failed.result, Report) and "demain" in failed.result.notes[0].text


def test_A004_23_soigner_threshold_is_the_gm_s(make_sheet: MakeSheet) -> None:
    healer = make_sheet(nom="Guérisseuse", chance=1, competences={"soigner": 1})
    patient = make_sheet(nom="Blessé", blessures=2)
    *_, outcome = _heal(healer, patient, [7], threshold="difficile")  # 10 < 13
    step = outcome.result.parts[0] if isinstance(outcome.result, Report) else None
    assert isinstance(step, CheckResult) and step.threshold == 13 and step.success is False


def test_A004_23_soigner_brings_out_of_coma(make_sheet: MakeSheet) -> None:
    healer = make_sheet(nom="Guérisseuse", chance=1, competences={"soigner": 1})
    patient = make_sheet(nom="Blessé", blessures=3, vigueur=2, etat="coma")
    assert _heal(healer, patient, [7])[:2] == (2, "conscient")
    unconscious = make_sheet(nom="Blessé", blessures=5, vigueur=2, etat="coma")
    assert _heal(healer, unconscious, [7])[:2] == (4, "inconscient")
    dead = make_sheet(nom="Mort", blessures=5, etat="mort")
    with pytest.raises(RuleError, match="mort"):
        SYSTEM.heal(healer, dead, FixedSource([7]))


def test_soigner_is_an_omega_skill(make_sheet: MakeSheet) -> None:
    with pytest.raises(RuleError, match="Ω"):
        SYSTEM.heal(make_sheet(), make_sheet(blessures=1), FixedSource([7]))


def test_A004_24_xp_costs_are_not_in_the_rules(make_file: Callable[..., object]) -> None:
    assert "xp" not in SYSTEM.actions
    run = cli("xp", str(make_file("chat")), "--competence", "chasse")
    assert run.code != 0 and "xp" in run.err and "felins" in run.err
