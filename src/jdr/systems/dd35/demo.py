"""The dd35 demo scene (`jdr demo dd35`) with the document's own example characters (L92: a
Paladin 5 in Armure de plaques, a Guerrier 10 in Harnois and Pavois, a Prêtre 15 in Cotte de
mailles, a Barbare 20 in Cuirasse), and small sheets for tests and the prompt:
`character(classes={"mage": 3})` is a level-1 Guerrier with every ability at 10, changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from jdr.core.contest import Contest
from jdr.core.results import Line, Report
from jdr.core.sheet import SheetDocument
from jdr.core.system import Loaded
from jdr.dice.source import DiceSource
from jdr.systems.dd35.character import Character
from jdr.systems.dd35.checks import CONTEST, active_perception, attack_check, passive_perception_check
from jdr.systems.dd35.combat import Blow, resolve_attack
from jdr.systems.dd35.config import DEFAULT_RULES, Rules
from jdr.systems.dd35.initiative import roll_initiative
from jdr.systems.dd35.sheet import Sheet

BASE: dict[str, Any] = {
    "systeme": "dd35",
    "nom": "Test",
    "caracteristiques": {"force": 10, "dexterite": 10, "constitution": 10, "intelligence": 10,
                         "sagesse": 10, "charisme": 10},
    "classes": {"guerrier": 1},
}


def sheet_data(**overrides: Any) -> dict[str, Any]:
    data = {k: (dict(v) if isinstance(v, dict) else v) for k, v in BASE.items()}
    abilities = overrides.pop("abilities", {})
    data["caracteristiques"].update(abilities)
    data.update(overrides)
    return data


def character(rules: Rules = DEFAULT_RULES, **overrides: Any) -> Character:
    return Character(Sheet.model_validate(sheet_data(**overrides)), rules)


def document(folder: Path, name: str = "fiche", **overrides: Any) -> SheetDocument:
    """A sheet file on disk (JSON is YAML), loaded as the CLI would."""
    data = sheet_data(**overrides)
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items())
                    + "\n", encoding="utf-8")
    return SheetDocument.load(path)


def loaded(folder: Path, name: str = "fiche", **overrides: Any) -> Loaded[Sheet]:
    """A sheet on disk loaded once, as the use-case layer hands it to the system."""
    doc = document(folder, name, **overrides)
    sheet = Sheet.model_validate(doc.plain())
    return Loaded(doc, sheet, sheet.nom)


SWORD = {"nom": "Épée longue", "degats": "1d8", "zone_critique": 19, "multiplicateur": 2}
AXE = {"nom": "Grande hache", "degats": "1d12", "multiplicateur": 3}
MACE = {"nom": "Masse d'armes", "degats": "1d8"}

# The document's DR examples (L92); abilities and weapons are example data (A002.24: none given).
PALADIN: dict[str, Any] = {
    "nom": "Paladin", "classes": {"paladin": 5}, "armure": {"nom": "Armure de plaques"},
    "abilities": {"force": 14, "sagesse": 12, "charisme": 14}, "armes": [SWORD]}
GUERRIER: dict[str, Any] = {
    "nom": "Guerrier", "classes": {"guerrier": 10}, "armure": {"nom": "Harnois"},
    "bouclier": {"nom": "Pavois"}, "abilities": {"force": 16, "dexterite": 12, "constitution": 14},
    "armes": [SWORD]}
PRETRE: dict[str, Any] = {
    "nom": "Prêtre", "classes": {"pretre": 15}, "armure": {"nom": "Cotte de mailles"},
    "abilities": {"sagesse": 16, "intelligence": 12}, "armes": [MACE]}
BARBARE: dict[str, Any] = {
    "nom": "Barbare", "classes": {"barbare": 20}, "armure": {"nom": "Cuirasse"},
    "abilities": {"force": 18, "dexterite": 12, "constitution": 16}, "armes": [AXE]}


def scene(source: DiceSource) -> Report:
    """Initiative, an ambush spotted or not, a full attack, a great-axe blow, the odds of a hit."""
    paladin, guerrier = character(**PALADIN), character(**GUERRIER)
    pretre, barbare = character(**PRETRE), character(**BARBARE)
    parts = (
        roll_initiative([guerrier, barbare, paladin, pretre], source),
        Contest(active_perception(pretre, "embuscade", None),
                passive_perception_check(barbare, None), CONTEST).roll(source),
        resolve_attack(guerrier, barbare, guerrier.weapon(None), source, Blow(full=True)),
        resolve_attack(barbare, paladin, barbare.weapon(None), source),
        attack_check(paladin, paladin.weapon(None), barbare.ac, target=barbare.name).odds(),
    )
    notes = (Line("personnages des exemples de réduction de dégâts du document ; leurs "
                  "caractéristiques et leurs armes sont des exemples (le document n'en donne "
                  "pas)", "A002.24"),)
    return Report("dd35 — démonstration : embuscade au col", parts, notes)
