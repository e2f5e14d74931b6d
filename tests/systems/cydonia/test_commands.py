"""Cydonia through the command line: every action, the decisions D-000.47–D-000.50 and D-ALL.02,
and golden outputs (text, forum, JSON) with fixed dice."""

from __future__ import annotations

from pathlib import Path

import pytest

from helpers import cli, golden, ok
from jdr.core.registry import get_system
from jdr.systems.cydonia.checks import Character, opposing_skill
from jdr.systems.cydonia.demo import NAIN_A
from jdr.systems.cydonia.sheet import CydoniaSheet

FORMATS = {"texte": "txt", "forum": "forum.txt", "discord": "discord.md", "json": "json"}


def _sheet(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def _tough_elf(folder: Path, etat: str = "") -> Path:
    elfe = (folder / "elfe.yaml").read_text(encoding="utf-8").replace("pv: 25", "pv: 100")
    return _sheet(folder, "elfe100.yaml", elfe + etat)


# ------------------------------------------------------------------ goldens

GOLDEN_CASES: dict[str, list[str]] = {
    "check": ["check", "{nain}", "Hache", "--seuil", "15", "--des", "8"],
    "check_contre": ["check", "{nain}", "hache", "--contre", "{elfe}", "--des", "8,6"],
    "check_expert": ["check", "{nain}", "négociation", "--seuil", "moyenne", "--des", "3,9"],
    "odds": ["odds", "{nain}", "hache", "--seuil", "difficile"],
    "odds_contre": ["odds", "{nain}", "hache", "--contre", "{elfe}:esquive"],
    "attack": ["attack", "{nain}", "{tough}", "--des", "8,6,16,6,12,3"],
    "initiative": ["initiative", "{nain}", "{elfe}"],
    "sheet_show": ["sheet", "show", "{nain}"],
}


@pytest.mark.parametrize("fmt", list(FORMATS))
@pytest.mark.parametrize("case", list(GOLDEN_CASES))
def test_golden_outputs(sheets: tuple[Path, Path], case: str, fmt: str) -> None:
    nain, elfe = sheets
    tough = _tough_elf(nain.parent)
    args = [a.format(nain=nain, elfe=elfe, tough=tough) for a in GOLDEN_CASES[case]]
    if args[0] in ("check", "attack"):
        args.append("--dry-run")
    run = ok(*args, "--format", fmt)
    golden(f"cydonia/{case}.{FORMATS[fmt]}", run.out)


def test_golden_demo_and_duel(sheets: tuple[Path, Path]) -> None:
    """The seed's duel (E000.02–E000.08 characters): knocked out, the Nain loses a turn, makes no
    defence roll (D-000.47) and tries to wake up (D-000.49)."""
    golden("cydonia/demo.txt", ok("demo", "cydonia", "--seed", "7").out)
    golden("cydonia/demo.json", ok("demo", "cydonia", "--seed", "7", "--json").out)
    nain, elfe = sheets
    golden("cydonia/duel.txt", ok("duel", str(nain), str(elfe), "--seed", "7", "--dry-run").out)


# ------------------------------------------------------------------ checks


def test_contre_alone_uses_the_rules_opposition(sheets: tuple[Path, Path]) -> None:
    """R000.16: an axe attack is opposed by Esquive when `--contre` names no skill."""
    nain, elfe = sheets
    out = ok("check", str(nain), "hache", "--contre", str(elfe), "--des", "8,6", "--json").json()
    assert out["opponent"]["label"] == "Esquive (Agilité)" and out["opponent"]["total"] == 15
    assert out["winner"] == "actor" and out["margin"] == 3


def test_R000_16_default_oppositions() -> None:
    c = Character(CydoniaSheet.model_validate(NAIN_A))
    pairs = {"larcin": "observation", "Discrétion": "observation", "piegeage": "observation",
             "persuasion": "psychologie", "baratin": "psychologie", "séduction": "psychologie",
             "intimidation": "courage", "torture": "resistance_mentale", "hache": "esquive",
             "cac": "esquive", "arme de jet": "esquive", "negociation": "negociation",
             "observation": "observation", "courage": "courage"}
    assert {k: opposing_skill(c, k) for k in pairs} == pairs


def test_R000_15_tie_goes_to_the_defender_on_the_command_line(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    out = ok("check", str(nain), "hache", "--contre", f"{elfe}:esquive", "--des", "5,6", "--json").json()
    assert out["tie"] is True and out["winner"] == "opponent" and out["rule"] == "R000.15"


def test_odds_contre_alone(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    out = ok("odds", str(nain), "hache", "--contre", str(elfe), "--json").json()
    assert out["success"] == pytest.approx(0.55) and out["tie"] == pytest.approx(0.09)


@pytest.mark.parametrize(("args", "fragment"), [
    (["check", "{nain}", "hache", "--de", "d20", "--des", "8"], "--de"),
    (["check", "{nain}", "hache", "--opt", "tour=2", "--des", "8"], "réveil"),
    (["check", "{nain}", "hache", "--opt", "surprise=oui", "--des", "8"], "option"),
    (["attack", "{nain}", "{elfe}", "--opt", "vol=oui", "--des", "8,6"], "option"),
    (["attack", "{nain}", "{elfe}", "--opt", "concentration=tete", "--des", "8,6"], "jet"),
    (["attack", "{nain}", "{elfe}", "--critique", "degats", "--des", "8,6"], "--critique"),
    (["attack", "{nain}", "{elfe}", "--defense", "parade", "--des", "8,6"], "esquive, bouclier, cac"),
    (["xp", "{nain}", "--carac", "physique", "--opt", "x=1"], "option"),
    (["session", "new", "{nain}"], "actions"),
])
def test_refused_in_french(sheets: tuple[Path, Path], args: list[str], fragment: str) -> None:
    nain, elfe = sheets
    before = nain.read_text(encoding="utf-8")
    run = cli(*[a.format(nain=nain, elfe=elfe) for a in args])
    assert run.code == 2 and fragment in run.err
    assert nain.read_text(encoding="utf-8") == before


# ------------------------------------------------------------------ states (D-ALL.02, D-000.47, D-000.49)


def test_D000_47_knocked_out_defender_rolls_no_defence(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    elfe = _tough_elf(nain.parent, "etat: {assomme: 13}\n")
    # attack 8 → 18 against 0: location 10 + 5 = 15 (Torse), damage 6 → 16 − 3
    out = ok("attack", str(nain), str(elfe), "--des", "8,10,6", "--json").json()
    contest = out["steps"][0]
    assert contest["opponent"]["total"] == 0 and contest["opponent"]["dice"] == []
    assert out["location"]["total"] == 15 and out["damage"]["suffered"] == 13
    assert out["state_before"] == out["state"] == "assomme"
    assert out["notes"][0]["rule"] == "D-000.47"


def test_DALL_02_knocked_out_cannot_act_but_resists(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    out_cold = _tough_elf(nain.parent, "etat: {assomme: 13}\n")
    assert "D-ALL.02" in cli("attack", str(out_cold), str(nain), "--des", "8,6").err
    assert "D-ALL.02" in cli("check", str(out_cold), "lame", "--des", "8").err
    assert ok("check", str(out_cold), "resistance physique", "--des", "8", "--json").json()["total"] == 17
    dead = _sheet(nain.parent, "mort.yaml", elfe.read_text(encoding="utf-8") + "etat: {mort: true}\n")
    assert "Elfe B est sans vie (R000.34)" in cli("attack", str(nain), str(dead), "--des", "8,6").err


def test_D000_49_wake_up_roll_writes_the_sheet(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    elfe = _tough_elf(nain.parent, "etat: {assomme: 13}\n")
    tie = ok("check", str(elfe), "reveil", "--des", "3", "--json").json()  # 12 against 13 − 1
    assert (tie["threshold"], tie["total"], tie["success"]) == (12, 12, False)
    assert "assomme: 13" in elfe.read_text(encoding="utf-8")
    odds = ok("odds", str(elfe), "reveil", "--opt", "tour=2", "--json").json()
    assert odds["success"] == pytest.approx(0.8)  # 9 + d10 > 11: faces 3..10
    woken = ok("check", str(elfe), "réveil", "--opt", "tour=2", "--des", "6", "--json").json()
    assert woken["success"] is True and woken["rule"] == "R000.07"
    assert "assomme: 0" in elfe.read_text(encoding="utf-8")
    assert "pas de jet de réveil : Elfe B est debout" in cli("check", str(elfe), "reveil", "--des", "6").err


def test_D000_50_creation_and_unequipped_weapon(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    assert ok("sheet", "check", "--creation", str(nain)).code == 0
    text = nain.read_text(encoding="utf-8")
    no_expert = _sheet(nain.parent, "nain2.yaml", text.replace("expertes: [negociation]", "expertes: []"))
    run = cli("sheet", "check", "--creation", str(no_expert))
    assert run.code == 2 and "D-000.50" in run.err
    spare = text.replace("protections:", "  - {nom: Dague, competence: lame, degats: \"1d10\"}\nprotections:")
    armed = _sheet(nain.parent, "nain3.yaml", spare)
    run = cli("attack", str(armed), str(elfe), "--arme", "dague", "--des", "8,6")
    assert run.code == 2 and "dégainer" in run.err


# ------------------------------------------------------------------ attack, duel, xp, help


def test_attack_writes_both_sheets(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    text = elfe.read_text(encoding="utf-8").replace("pv: 25", "pv: 100") + "etat: {concentration: 2}\n"
    elfe.write_text(text, encoding="utf-8")
    # dodge −6 while concentrating (R000.36): 18 against 9, location 14 + 5 = 19 (Tête)
    out = ok("attack", str(nain), str(elfe), "--des", "8,6,14,6,12,3", "--json").json()
    assert out["steps"][0]["opponent"]["total"] == 9
    assert out["health"] == {"unit": "pv", "before": 100, "after": 75, "max": 100}
    assert out["state"] == "assomme" and [s["type"] for s in out["steps"]] == ["contest", "check"]
    written = elfe.read_text(encoding="utf-8")
    assert "actuels: 75" in written and "assomme: 25" in written and "concentration: 0" in written
    assert "# forme courte" in written


def test_R000_24_weapon_with_area_forces_dodge(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    text = nain.read_text(encoding="utf-8").replace("principale}", "principale, zone: true}")
    mage = _sheet(nain.parent, "mage.yaml", text)
    out = ok("attack", str(mage), str(elfe), "--defense", "bouclier", "--des", "2,9", "--json").json()
    assert out["steps"][0]["opponent"]["label"].startswith("Esquive")
    assert out["notes"][0]["rule"] == "R000.24"


def test_duel_writes_the_loser(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    out = ok("duel", str(nain), str(elfe), "--seed", "7", "--json").json()
    assert out["type"] == "report" and out["parts"][0]["type"] == "order"
    assert out["notes"][0]["rule"] == "R000.34"
    assert out["notes"][0]["text"] == "Elfe B est sans vie ; Nain A l'emporte au tour 2"
    assert "mort: true" in elfe.read_text(encoding="utf-8")


def test_R000_36_concentration_spent_on_the_roll(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    text = nain.read_text(encoding="utf-8") + "etat: {concentration: 3}\n"
    nain.write_text(text, encoding="utf-8")
    out = ok("attack", str(nain), str(elfe), "--opt", "concentration=jet", "--des", "2,9", "--json").json()
    assert out["steps"][0]["actor"]["total"] == 4 + 6 + 2 + 6 and out["hit"] is False
    assert "concentration: 0" in nain.read_text(encoding="utf-8")
    out = ok("attack", str(nain), str(elfe), "--opt", "concentration=degats", "--des", "2,9", "--json").json()
    assert out["notes"][0]["rule"] == "R000.36"


def test_DALL_03_a_d10_entered_as_0_is_10(sheets: tuple[Path, Path]) -> None:
    """D-ALL.03: a physical d10 shows 0 for ten."""
    nain, _ = sheets
    out = ok("check", str(nain), "hache", "--des", "0", "--json").json()
    assert out["total"] == 20 and out["critical"] == "success"


def test_initiative_variant_rolls_a_d10_each(sheets: tuple[Path, Path]) -> None:
    nain, elfe = sheets
    out = ok("initiative", str(nain), str(elfe), "--opt", "de=oui", "--des", "9,1", "--json").json()
    assert [(e["name"], e["score"]) for e in out["order"]] == [("Nain A", 16), ("Elfe B", 10)]


def test_xp_purchase(sheets: tuple[Path, Path]) -> None:
    nain, _ = sheets
    out = ok("xp", str(nain), "--competence", "Hache", "--json").json()
    assert (out["before"], out["after"], out["cost"], out["xp_before"], out["xp_after"]) == (6, 7, 2, 10, 8)
    out = ok("xp", str(nain), "--pv", "--json").json()
    assert (out["after"], out["xp_after"]) == (33, 7)
    assert "max: 33" in nain.read_text(encoding="utf-8")


def test_help_and_actions() -> None:
    system = get_system("cydonia")
    commands = ["attack", "check", "duel", "initiative", "odds", "xp"]
    rules = ["allure", "chance", "charge", "concentration", "degagement", "deplacement",
             "detransformation", "dressage", "elan", "fouille", "kravkar", "malus", "medecine",
             "negociation", "portance", "recompenses", "repos", "reputation", "soin", "torture",
             "transformation", "xp_compagnon", "xp_mana"]
    assert sorted(system.actions) == sorted(commands + rules)
    attack = system.actions["attack"]
    assert [o.name for o in attack.options] == ["monte", "defenseur_monte", "immateriel", "zone",
                                                "morsure", "letal", "concentration", "choix"]
    info = system.help()
    assert info.characteristics["dexterite"] == "Dextérité"
    assert info.defences == ("esquive", "bouclier", "cac")
    text = ok("aide", "cydonia").out
    french = {"attack": "attaque", "check": "test", "odds": "chances"}  # the commands' French names
    assert all(f"jdr {french.get(name, name)} : " in text for name in commands)
    assert all(f"jdr regle {name} : " in text for name in rules)


def test_encounter_hooks_wake_up_turn_by_turn(sheets: tuple[Path, Path]) -> None:
    """D-ALL.02, R000.41, D-000.49: state, incapacity, and the wake-up roll at the start of turns."""
    from jdr.core.encounter import Combatant, EncounterState
    from jdr.core.sheet import SheetDocument
    from jdr.core.system import TurnRequest
    from jdr.core.usecase import load
    from jdr.dice.source import FixedSource

    nain, _ = sheets
    system = get_system("cydonia")
    out_cold = load(system, SheetDocument.load(_tough_elf(nain.parent, "etat: {assomme: 13}\n")))
    assert system.state(out_cold) == "assomme"
    incapacity = system.incapacity(out_cold)
    assert incapacity is not None and incapacity.rule == "R000.41, D-000.49, D-ALL.02"
    assert system.conditions(out_cold) == ("13 dégâts d'assommement",)  # no genre: neutral
    health = system.health(out_cold)
    assert health is not None and (health.after, health.max) == (100, 100)
    encounter = EncounterState(order=[Combatant("Elfe B", 9)])
    request = TurnRequest(encounter, out_cold)
    lost = system.turn_start(request, FixedSource([]))
    assert lost is not None and lost.changes == ()
    first = system.turn_start(request, FixedSource([3]))  # 12, not above 13 − 1
    assert first is not None and first.changes == ()
    second = system.turn_start(request, FixedSource([6]))  # 15 > 13 − 2
    assert second is not None and [c.value for c in second.changes] == [0]
    assert system.turn_start(TurnRequest(encounter, load(system, SheetDocument.load(nain))),
                             FixedSource([])) is None
