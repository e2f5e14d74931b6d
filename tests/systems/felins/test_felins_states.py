"""States enforced (D-ALL.02): a cat that fled (R004.28) stays out of the fight until it is over,
on its sheet; unconscious, comatose and dead cats cannot act (R004.32); what `jdr combat` shows of
a cat; the turn hook of an unconscious cat (R004.32, A004.30) in a SQLite campaign."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from helpers import cli
from jdr.campaign import encounter
from jdr.campaign.store import Campaign
from jdr.campaign.workspace import CampaignWorkspace
from jdr.core.actions import commit, execute
from jdr.core.check import CheckResult
from jdr.core.contest import ContestResult
from jdr.core.encounter import Combatant, EncounterState
from jdr.core.results import AttackReport, EncounterView, Notes
from jdr.core.sheet import SheetDocument
from jdr.core.system import CheckRequest, Loaded, TurnRequest
from jdr.core.usecase import FileWorkspace
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.config import DEFAULT
from jdr.systems.felins.sheet import Cat
from jdr.systems.felins.system import FelinsSystem

MakeSheet = Callable[..., Loaded[Cat]]
MakeFile = Callable[..., Path]
Play = Callable[..., Any]
Reload = Callable[[Loaded[Cat]], Loaded[Cat]]

#: Griffe: Combat griffu 6 (Chance 1); Proie: Agilité 2 (threshold 9), Volonté 1, Vigueur 4.
GRIFFE = {"nom": "Griffe", "chance": 1, "force": 4, "precision": 4,
          "competences": {"combat_griffu": 2}}
PROIE = {"nom": "Proie", "chance": 1, "vigueur": 4, "volonte": 1, "force": 1}


def attack_files(attacker: Path, defender: Path, *faces: int) -> Any:
    done = execute(FileWorkspace(), "attack", {"attaquant": str(attacker),
                                                "defenseur": str(defender)}, FixedSource(faces))
    commit(FileWorkspace(), done)
    return done.result


def test_R004_28_a_cat_that_fled_stays_out_of_the_fight(make_file: MakeFile) -> None:
    """The issue: a cat that fled attacked the next two turns."""
    griffe, proie = make_file("griffe", **GRIFFE), make_file("proie", **PROIE)
    # 9 + 6 = 15 vs 9 → 3 wounds; will: d10 2 + 2 × 1 − 3 = 1 < 9 → flees
    report = attack_files(griffe, proie, 9, 2)
    assert isinstance(report, AttackReport) and report.state is not None
    assert report.state.after == "en_fuite"
    cat = SYSTEM.load(SheetDocument.load(proie))
    assert (cat.state, cat.wounds) == ("en_fuite", 3)
    for _ in range(2):  # the next two turns: refused, nothing written
        with pytest.raises(RuleError, match=r"Proie ne peut pas agir : en fuite.*\(R004\.28\)"):
            execute(FileWorkspace(), "attack", {"attaquant": str(proie),
                                                "defenseur": str(griffe)}, FixedSource([9]))
    with pytest.raises(RuleError, match=r"R004\.28"):
        execute(FileWorkspace(), "check", {"personnage": str(proie), "competence": "saut",
                                           "seuil": "facile"}, FixedSource([9]))
    with pytest.raises(RuleError, match=r"R004\.28"):
        execute(FileWorkspace(), "duel", {"personnages": [str(proie), str(griffe)]},
                FixedSource([9, 9]))
    run = cli("attack", proie, griffe, "--des", "9")
    assert run.code == 2 and "en fuite" in run.err and "R004.28" in run.err
    assert "Traceback" not in run.err
    assert SYSTEM.load(SheetDocument.load(griffe)).wounds == 0


def test_R004_28_A004_21_fin_combat_brings_them_back(make_file: MakeFile) -> None:
    griffe = make_file("griffe", **GRIFFE)
    proie = make_file("proie", **PROIE, etat="en_fuite", blessures=3)
    done = SYSTEM.rule("fin_combat", _request(proie, griffe), None)
    assert isinstance(done.result, Notes) and "n'est plus en fuite" in done.result.lines[0].text
    assert [c.path for c in done.changes] == [("etat",)]
    for change in done.changes:
        change.apply()
    assert SYSTEM.load(done.changes[0].doc).state == "conscient"


def _request(*paths: Path) -> Any:
    from jdr.core.system import RuleRequest
    from jdr.core.usecase import open_sheets

    return RuleRequest(tuple(open_sheets(list(paths))[1]))


def test_D_ALL_02_a_fled_cat_still_reacts(make_sheet: MakeSheet) -> None:
    """A cat that fled may still hide from a searcher (an opposed roll's other side)."""
    searcher = make_sheet(nom="Guet", chance=1)
    fled = make_sheet(nom="Proie", chance=1, etat="en_fuite", blessures=1)
    result = SYSTEM.check(CheckRequest(searcher, "reperer_trouver", opponent=fled),
                          FixedSource([5, 8])).result
    assert isinstance(result, ContestResult) and result.opponent.label == "Proie — Discrétion"
    out_cold = make_sheet(nom="Dort", etat="inconscient", blessures=3)
    with pytest.raises(RuleError, match="Dort est sans connaissance : impossible de s'opposer"):
        SYSTEM.check(CheckRequest(searcher, "reperer_trouver", opponent=out_cold),
                     FixedSource([5, 6]))


def test_R004_28_a_fled_cat_attacked_again(make_sheet: MakeSheet) -> None:
    """No new will check (it already fled); wounds beyond Vigueur still knock it out."""
    from jdr.core.system import AttackRequest

    griffe = make_sheet(**GRIFFE)
    fled = make_sheet(**PROIE, etat="en_fuite", blessures=3)
    hurt = SYSTEM.attack(AttackRequest(griffe, fled), FixedSource([5])).result  # margin 1
    assert isinstance(hurt, AttackReport) and len(hurt.steps) == 1 and hurt.state is None
    knocked = SYSTEM.attack(AttackRequest(griffe, fled), FixedSource([9, 1, 1, 1])).result
    assert isinstance(knocked, AttackReport) and knocked.state is not None
    assert (knocked.state.before, knocked.state.after) == ("en_fuite", "inconscient")


@pytest.mark.parametrize(("etat", "extra", "state", "words", "rule"), [
    ("conscient", {}, "debout", None, None),
    ("en_fuite", {}, "en_fuite", "en fuite", "R004.28"),
    ("inconscient", {"inconscience": 35}, "inconscient", "encore 35 minute(s)", "R004.32"),
    ("inconscient", {}, "inconscient", "3d10 × 5 minutes", "R004.32"),
    ("coma", {}, "coma", "soins d'un guérisseur", "R004.32"),
    ("mort", {}, "mort", "sans vie : c'est définitif", "R004.32"),
])
def test_D_ALL_02_state_and_incapacity(make_sheet: MakeSheet, etat: str, extra: dict[str, int],
                                       state: str, words: str | None, rule: str | None) -> None:
    sheet = make_sheet(etat=etat, blessures=0 if etat == "conscient" else 5, vigueur=3, **extra)
    assert SYSTEM.state(sheet) == state
    why = SYSTEM.incapacity(sheet)
    if words is None:
        assert why is None
    else:
        assert why is not None and words in why.text and why.rule == rule


def test_R004_22_health_and_conditions(make_sheet: MakeSheet) -> None:
    cat = make_sheet(blessures=5, vigueur=3, etat="inconscient", inconscience=20, soins="rate")
    health = SYSTEM.health(cat)
    assert (health.unit, health.after, health.max) == ("blessures", 5, 3)
    assert SYSTEM.conditions(cat) == ("malus −5 à chaque jet", "réveil dans 20 min",
                                      "soin raté : nouvel essai le lendemain")
    assert SYSTEM.conditions(make_sheet()) == ()


def test_A004_18_health_max_follows_the_configuration(make_sheet: MakeSheet) -> None:
    system = FelinsSystem(replace(DEFAULT, unconscious_at="egal"))
    assert system.health(make_sheet(vigueur=3)).max == 2


# ------------------------------------------------------------------ the turn hook (R004.32)


def test_A004_30_turn_start_rolls_a_missing_duration(make_sheet: MakeSheet) -> None:
    cat = make_sheet(nom="Dort", etat="inconscient", blessures=3, vigueur=2)
    request = TurnRequest(EncounterState(order=[Combatant("Dort", 2)]), cat)
    outcome = SYSTEM.turn_start(request, FixedSource([2, 3, 4]))
    assert outcome is not None and isinstance(outcome.result, CheckResult)
    assert outcome.result.total == 45
    assert [(c.path, c.value) for c in outcome.changes] == [(("inconscience",), 45)]
    again = make_sheet(nom="Dort", etat="inconscient", blessures=3, vigueur=2, inconscience=45)
    noted = SYSTEM.turn_start(TurnRequest(request.encounter, again), FixedSource([]))
    assert noted is not None and isinstance(noted.result, Notes) and noted.changes == ()
    assert SYSTEM.turn_start(TurnRequest(request.encounter, make_sheet()), FixedSource([])) is None


def test_R004_32_turn_start_counts_minutes_when_a_round_has_a_duration(
        make_sheet: MakeSheet) -> None:
    system = FelinsSystem(replace(DEFAULT, round_minutes=30))
    cat = make_sheet(nom="Dort", etat="inconscient", blessures=3, vigueur=2, inconscience=45)
    request = TurnRequest(EncounterState(order=[Combatant("Dort", 2)]), cat)
    first = system.turn_start(request, FixedSource([]))
    assert first is not None and [(c.path, c.value) for c in first.changes] == [
        (("inconscience",), 15)]
    for change in first.changes:
        change.apply()
    cat = Loaded(cat.doc, system.load(cat.doc), cat.name)
    second = system.turn_start(TurnRequest(request.encounter, cat), FixedSource([]))
    assert second is not None
    assert {c.path[0]: c.value for c in second.changes} == {"etat": "conscient",
                                                            "inconscience": 0}


@pytest.fixture
def campaign(tmp_path: Path, make_unloaded: Callable[..., SheetDocument]) -> Iterator[Campaign]:
    made = Campaign.create(str(tmp_path / "clans.jdr"), "Perce-neige", "felins")
    with made.transaction() as tx:
        tx.add(make_unloaded(**GRIFFE, agilite=3))
        tx.add(make_unloaded(**PROIE))
        tx.add(make_unloaded(nom="Dort", etat="inconscient", blessures=3, inconscience=40))
    yield made
    made.dispose()


def _step(campaign: Campaign, *faces: int) -> EncounterView:
    with campaign.transaction() as tx:
        view, _ = encounter.next_turn(tx, FixedSource(faces))
    return view


def test_D_ALL_02_encounter_passes_a_fled_cat_and_shows_the_table(campaign: Campaign) -> None:
    with campaign.transaction() as tx:
        view, _ = encounter.start(tx, ["Griffe", "Proie", "Dort"], FixedSource([6, 3]))
    # Agilité 3, then 2 and 2 with Chance 1 each: 1d10 each (R004.29)
    assert [r.name for r in view.order] == ["Griffe", "Proie", "Dort"]
    assert view.current == "Griffe"
    with campaign.transaction() as tx:
        ws = CampaignWorkspace(tx)
        commit(ws, execute(ws, "attack", {"attaquant": "Griffe", "defenseur": "Proie"},
                           FixedSource([9, 2])))  # Proie flees
    view = _step(campaign)
    rows = {r.name: r for r in view.order}
    assert rows["Proie"].state == "en_fuite" and rows["Dort"].state == "inconscient"
    assert rows["Proie"].health is not None and rows["Proie"].health.after == 3
    assert rows["Dort"].conditions == ("malus −3 à chaque jet", "réveil dans 40 min")
    assert view.current == "Griffe"  # Proie (fled) and Dort (unconscious) are passed
    assert [line.rule for line in view.notes] == ["R004.28", "R004.32"]
    assert any(isinstance(e, Notes) and "réveil dans 40" in e.lines[0].text for e in view.events)
    with campaign.transaction() as tx:
        ws = CampaignWorkspace(tx)
        with pytest.raises(RuleError, match=r"R004\.28"):
            execute(ws, "attack", {"attaquant": "Proie", "defenseur": "Griffe"}, FixedSource([9]))
