"""Cydonia's combat rules through `jdr regle` (Kravkar, se dégager, élan and charge,
concentration, transformation), the three rule defects of issue 10 (malus, concentration's −6,
the werewolf's bite), the expert's die chosen after the roll, and the states the rules enforce
(paralysis, knock-out, the encounter's turn hook)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from helpers import cli, ok
from jdr.core.actions import commit, execute
from jdr.core.check import CheckResult
from jdr.core.encounter import Combatant, EncounterState
from jdr.core.results import AttackReport, Notes, Report
from jdr.core.system import CheckRequest, Outcome, TurnRequest
from jdr.core.usecase import FileWorkspace
from jdr.dice.enumerate import enumerate_outcomes
from jdr.dice.source import FixedSource
from jdr.errors import RuleError
from jdr.systems.cydonia import SYSTEM
from jdr.systems.cydonia.checks import Character, roll_contest
from jdr.systems.cydonia.combat import AttackOptions, attack_contest
from systems.cydonia.cydonia_support import Asked, loaded, regle, rule_request, sheet, write


def _variant(path: Path, name: str, old: str, new: str, etat: str = "") -> Path:
    text = path.read_text(encoding="utf-8")
    assert old in text
    return write(path.parent, name, text.replace(old, new) + etat)


def _attack(attacker: Path, defender: Path, dice: list[int], chooser: Any = None,
            **params: Any) -> AttackReport:
    done = execute(FileWorkspace(), "attack", {"attaquant": str(attacker),
                                               "defenseur": str(defender), **params},
                   FixedSource(dice), **({"chooser": chooser} if chooser else {}))
    commit(FileWorkspace(), done)
    assert isinstance(done.result, AttackReport)
    return done.result


def _turn(path: Path, encounter: EncounterState, dice: list[int], *others: Path) -> Outcome | None:
    """`jdr combat suivant` reduced to the hook: `path`'s turn starts (`others` are the rest of
    the encounter), its changes are written."""
    everyone = tuple(loaded(p) for p in (path, *others))
    outcome = SYSTEM.turn_start(TurnRequest(encounter, everyone[0], everyone), FixedSource(dice))
    for change in outcome.changes if outcome is not None else ():
        change.apply()
        change.doc.save()
    return outcome


# ------------------------------------------------------------------ defects fixed


@pytest.mark.parametrize("malus", ["3", "-3"])
def test_A000_16_a_malus_is_never_a_bonus(sheets: tuple[Path, Path], malus: str) -> None:
    _, elfe = sheets
    hurt = write(elfe.parent, "malus.yaml", elfe.read_text(encoding="utf-8") + f"etat: {{malus: {malus}}}\n")
    out = ok("check", hurt, "esquive", "--des", "6", "--json").json()
    assert out["total"] == 4 + 5 + 6 - 3


def test_A000_23_concentration_minus_six_on_any_defence_but_resistance(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    guard = _variant(elfe, "garde.yaml", "{lame: 5, esquive: 5}", "{lame: 5, esquive: 5, bouclier: 4}",
                     "etat: {concentration: 2}\n")
    shield = _attack(nain, guard, [2, 9], defense="bouclier").steps[0]
    assert shield.opponent.total == 6 + 4 + 9 - 6 and not shield.success          # 12 contre 13
    parry = _attack(nain, guard, [1, 9], arme="mains_nues", defense="cac").steps[0]
    assert parry.opponent.total == 5 + 0 + 9 - 6                                  # 8 contre 8
    immaterial = _attack(nain, guard, [2, 9], opt=["immateriel=oui"]).steps[0]
    assert immaterial.opponent.total == 4 + 5 + 9                                 # pas de −6


def test_R000_40_R000_28_the_bite_is_a_cac_attack_on_the_cac_table(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    # Corps à corps 7 + 0 − 6 + 10 = 11 contre 10 ; localisation 14 + 1 = 15 : Tête au corps à
    # corps (Torse sur la table des armes) ; PHY+2d10 = 7 + 5 + 5 − 3 ; Résistance 4 + 5 + 9
    report = _attack(nain, elfe, [10, 1, 14, 5, 5, 9], opt=["morsure=oui"])
    assert report.weapon == "morsure" and report.steps[0].actor.label.startswith("Corps à corps")
    assert report.location is not None and report.location.zone == "Tête"
    assert report.damage[0].formula == "PHY+2d10" and report.damage[0].suffered == 14


# ------------------------------------------------------------------ the expert's die (R000.17)


def test_R000_17_expert_check_asks_after_the_dice(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    asked = Asked("1")
    done = execute(FileWorkspace(), "check", {"personnage": str(nain), "competence": "negociation",
                                              "seuil": "moyenne"}, FixedSource([3, 9]), chooser=asked)
    (question,) = asked.questions
    assert isinstance(question.shown, CheckResult) and question.shown.total == 14
    assert question.default == "1" or question.default == "2"
    assert done.result.natural == 3 and [d.kept for d in done.result.dice] == [True, False]


def test_R000_17_expert_attack_keeps_the_other_die_once(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    expert = _variant(nain, "expert.yaml", "expertes: [negociation]", "expertes: [negociation, hache]")
    asked = Asked("2")
    report = _attack(expert, elfe, [8, 2, 6], chooser=asked)      # 4 + 6 + 2 = 12 contre 15
    assert len(asked.questions) == 1 and not report.hit
    given = Asked()
    report = _attack(expert, elfe, [8, 2, 6], chooser=given, opt=["choix=2"])
    assert given.questions == [] and not report.hit


# ------------------------------------------------------------------ Kravkar (R000.42)


def test_R000_42_kravkar_a_failed_action_ends_the_turn(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    done = regle("kravkar", ork, elfe, opt=["gestes=frappe,frappe,frappe"], dice=[9, 2, 5, 4, 6])
    assert [p.hit for p in done.result.parts] == [True, False]
    assert "action 2 ratée" in done.result.notes[0].text
    assert sheet(elfe).pv.actuels == 25 - (8 - 3)


def test_E000_17_kravkar_modifiers_along_the_chain(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    tough = _variant(elfe, "dur.yaml", "pv: 25", "pv: 100")
    done = regle("kravkar", ork, tough, opt=["gestes=" + ",".join(["frappe"] * 5)], dice=[10, 1, 1] * 5)
    malus = [[m.value for m in p.steps[0].actor.modifiers if m.reason.startswith("Kravkar")]
             for p in done.result.parts]
    assert malus == [[], [-3], [-6], [-9], [-12]]
    assert sheet(tough).pv.actuels == 100 - 5 * 5


def test_R000_42_hold_then_break_free_strictly_greater(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    regle("kravkar", ork, elfe, opt=["gestes=prise"], dice=[9, 2])
    assert sheet(elfe).etat.immobilise == "Ork C"
    assert "sous la prise d'Ork C" in SYSTEM.conditions(loaded(elfe))  # no genre: neutral wording
    regle("degagement", elfe, ork, dice=[7, 1])                 # 10 + 7 = 17 contre 16 + 1
    assert sheet(elfe).etat.immobilise == "Ork C"
    regle("degagement", elfe, ork, dice=[10, 1])
    assert sheet(elfe).etat.immobilise is None
    with pytest.raises(RuleError, match="aucune prise ne tient"):
        regle("degagement", elfe, ork, dice=[10, 1])


def test_R000_42_kravkar_next_action_asked_after_each_success(ork: Path,
                                                              sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    asked = Asked("projection")
    done = regle("kravkar", ork, elfe, dice=[9, 2, 5, 9, 2, 5, 4], chooser=asked)
    assert [q.default for q in asked.questions] == ["arreter", "arreter"]
    assert "projection" in asked.questions[0].choices
    assert done.result.parts[1].damage[0].formula == "PHY+1d10"
    assert sheet(elfe).pv.actuels == 25 - 5 - (8 + 4 - 3)


def test_A000_30_kravkar_is_for_orks_unless_allowed(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    with pytest.raises(RuleError, match="Orks"):
        regle("kravkar", elfe, ork, dice=[9, 1])


def test_R000_42_kravkar_odds_chain_enumerated(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    tough = _variant(elfe, "dur.yaml", "pv: 25", "pv: 100")
    request = rule_request("kravkar", ork, tough, opt=["gestes=frappe"])
    odds = SYSTEM.rule_odds("kravkar", rule_request("kravkar", ork, tough,
                                                    opt=["gestes=frappe,frappe"]))
    first = enumerate_outcomes(lambda src: SYSTEM.rule("kravkar", request, src).result.parts[0].hit)
    wrestler, foe = Character(sheet(ork)), Character(sheet(tough))
    contest = attack_contest(wrestler, foe, AttackOptions(weapon="mains_nues", kravkar=2))[1]
    second = enumerate_outcomes(lambda src: roll_contest(contest, src).success)
    extra = {key: p for key, _, p in odds.extra}
    assert extra["actions_1"] == first[True] == odds.success
    assert extra["actions_2"] == first[True] * second[True]


# ------------------------------------------------------------------ élan and charge (R000.39)


def test_R000_39_charge_after_two_turns_of_run_up(ork: Path, sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    with pytest.raises(RuleError, match="élan"):
        regle("charge", ork, elfe, opt=["course_monture=4"], dice=[9, 2, 1])
    for expected in (1, 2, 2):
        regle("elan", ork)
        assert sheet(ork).etat.elan == expected
    with pytest.raises(RuleError, match="degats_monture"):
        regle("charge", ork, elfe, nain, opt=["course_monture=4"], dice=[9, 2, 1])
    done = regle("charge", ork, elfe, nain, opt=["course_monture=4", "degats_monture=1d6"],
                 dice=[9, 2, 1, 3, 4])
    main = done.result.parts[0]
    assert main.steps[0].actor.total == 8 + 5 + 3 + 9 and main.damage[0].total == 8 + 4
    assert sheet(elfe).pv.actuels == 25 - 9
    assert sheet(nain).pv.actuels == 30 - 4            # A000.27 : ni localisation ni protection
    assert sheet(ork).etat.elan == 0


def test_R000_39_charge_odds_enumerated(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    rider = _variant(ork, "cavalier.yaml", "xp: 10", "xp: 10\netat: {elan: 2}")
    tough = _variant(elfe, "dur.yaml", "pv: 25", "pv: 100")
    request = rule_request("charge", rider, tough, opt=["course_monture=4"])
    odds = SYSTEM.rule_odds("charge", request)
    hits = enumerate_outcomes(lambda src: SYSTEM.rule("charge", request, src).result.parts[0].hit)
    assert odds.success == hits[True]


# ------------------------------------------------------------------ concentration (R000.36)


def test_E000_12_declaring_concentration(ork: Path) -> None:
    for expected in (1, 2, 3, 3):
        done = regle("concentration", ork)
        assert sheet(ork).etat.concentration == expected
    assert "maximum" in done.result.lines[0].text


# ------------------------------------------------------------------ transformation (R000.40)


def _werewolf(ork: Path, etat: str = "") -> Path:
    return _variant(ork, "loup.yaml", "physique: 8, agilite: 4", "physique: 6, agilite: 5", etat)


def test_T000_09_transformation_stats_hp_and_duration(ork: Path) -> None:
    wolf = _werewolf(ork)
    regle("transformation", wolf, opt=["pv=6"])
    c = Character(sheet(wolf))
    assert (c.characteristic("physique"), c.characteristic("agilite")) == (10, 9)
    assert (sheet(wolf).pv.actuels, sheet(wolf).etat.transformation) == (36, 4)
    encounter = EncounterState(order=[Combatant("Ork C", 9)])
    for left in (3, 2, 1):
        _turn(wolf, encounter, [])
        assert sheet(wolf).etat.transformation == left
    _turn(wolf, encounter, [])
    after = sheet(wolf)
    assert (after.pv.actuels, after.etat.transformation, after.etat.pv_transformation) == (30, 0, 0)
    assert Character(after).characteristic("physique") == 6


def test_A000_28_reverting_can_leave_the_werewolf_dying(ork: Path) -> None:
    wolf = _werewolf(ork, "etat: {transformation: 1, pv_transformation: 6}\n")
    wolf = _variant(wolf, "loup2.yaml", "actuels: 30", "actuels: 4")
    outcome = _turn(wolf, EncounterState(order=[Combatant("Ork C", 9)]), [])
    assert outcome is not None and isinstance(outcome.result, Notes)
    assert sheet(wolf).pv.actuels == -2 and SYSTEM.state(loaded(wolf)) == "mourant"


def test_R000_40_transformed_claws_and_manual_end(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    regle("transformation", ork, opt=["pv=4"])
    report = _attack(ork, elfe, [9, 2, 1, 3], arme="mains_nues")
    assert report.damage[0].formula == "PHY+1d10"
    regle("detransformation", ork)
    assert sheet(ork).etat.transformation == 0 and sheet(ork).pv.actuels == 30
    with pytest.raises(RuleError, match="aucune transformation en cours"):
        regle("detransformation", ork)
    with pytest.raises(RuleError, match="Transformation"):
        regle("transformation", elfe)


# ------------------------------------------------------------------ states (D-ALL.02)


def test_R000_27_paralysis_is_kept_and_enforced(ork: Path, sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    # visée Bijoux de famille (−8) : 13 − 8 + 9 = 14 contre 10 ; Résistance 4 + 5 + 5 = 14 < 25
    report = _attack(ork, elfe, [9, 1, 5], arme="mains_nues", visee="bijoux de famille")
    assert report.notes[-1].rule == "R000.27, D-000.47" and sheet(elfe).etat.paralyse
    frozen = loaded(elfe)
    why = SYSTEM.incapacity(frozen)
    assert why is not None and "R000.27" in why.rule and SYSTEM.state(frozen) == "debout"
    assert SYSTEM.refusal("check", frozen, CheckRequest(frozen, "résistance physique")) is None
    assert SYSTEM.refusal("attack", frozen, None) is not None
    assert "sous paralysie" in SYSTEM.conditions(frozen)  # no genre on the sheet: neutral
    blow = _attack(nain, elfe, [2, 1, 1])                      # no defence roll: total 0
    # no genre on the sheet: the neutral wording
    assert blow.steps[0].opponent.total == 0 and "sous paralysie" in blow.steps[0].opponent.label
    run = cli("attack", elfe, nain, "--des", "8,6")
    assert run.code == 2 and "sous paralysie" in run.err


def test_R000_27_paralysis_costs_one_turn_in_an_encounter(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    frozen = write(elfe.parent, "fige.yaml", elfe.read_text(encoding="utf-8") + "etat: {paralyse: true}\n")
    encounter = EncounterState(order=[Combatant("Elfe B", 9), Combatant("Nain A", 7)])
    lost = _turn(frozen, encounter, [], nain)
    assert lost is not None and lost.changes == () and SYSTEM.incapacity(loaded(frozen)) is not None
    back = _turn(nain, encounter, [], frozen)       # the lost turn is over: it defends again
    assert back is not None and isinstance(back.result, Notes) and not sheet(frozen).etat.paralyse
    assert SYSTEM.incapacity(loaded(frozen)) is None


def test_R000_27_a_paralysed_duellist_loses_one_turn(sheets: tuple[Path, Path]) -> None:
    from jdr.systems.cydonia.demo import ELFE_B, NAIN_A
    from jdr.systems.cydonia.duel import Fighter
    from jdr.systems.cydonia.duel import _turn as duel_turn
    from jdr.systems.cydonia.sheet import CydoniaSheet

    frozen = Fighter(Character(CydoniaSheet.model_validate({**ELFE_B, "etat": {"paralyse": True}})))
    foe = Fighter(Character(CydoniaSheet.model_validate(NAIN_A)))
    played: list[Any] = []
    assert duel_turn(frozen, foe, FixedSource([]), played) is False
    assert "sous paralysie" in played[0].title and not frozen.character.sheet.etat.paralyse


def test_R000_27_paralysis_ends_with_the_wake_up_command_outside_encounters(
        sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    frozen = write(elfe.parent, "fige.yaml", elfe.read_text(encoding="utf-8") + "etat: {paralyse: true}\n")
    outcome = SYSTEM.check(CheckRequest(loaded(frozen), "reveil"), FixedSource([]))
    assert [c.value for c in outcome.changes] == [False]


def test_DALL_02_a_knocked_out_actor_is_refused_by_the_core(ork: Path, sheets: tuple[Path, Path]) -> None:
    _, elfe = sheets
    out = _variant(ork, "ko.yaml", "xp: 10", "xp: 10\netat: {assomme: 13}")
    with pytest.raises(RuleError, match=r"sans connaissance.*R000\.41.*D-ALL\.02"):
        regle("torture", out, elfe, dice=[9, 9, 9])
    knocked = loaded(out)
    assert SYSTEM.refusal("check", knocked, CheckRequest(knocked, "reveil")) is None  # D-000.49
    run = cli("regle", "torture", out, elfe, "--des", "9,9,9")
    assert run.code == 2 and "D-ALL.02" in run.err


def test_turn_start_counts_down_and_rolls_to_wake_in_one_step(ork: Path) -> None:
    wolf = _variant(ork, "ko.yaml", "xp: 10", "xp: 10\netat: {assomme: 13, transformation: 2}")
    encounter = EncounterState(order=[Combatant("Ork C", 9)])
    first = _turn(wolf, encounter, [])
    assert first is not None and isinstance(first.result, Report) and len(first.result.parts) == 2
    second = _turn(wolf, encounter, [9])        # fin de transformation ; réveil 5 + 8 + 9 > 12
    assert second is not None and sheet(wolf).etat.assomme == 0
    assert sheet(wolf).etat.transformation == 0
