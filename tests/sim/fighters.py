"""Small sheets for the simulator's tests: per system, a hero and a goblin whose fights are short
(few health states, so the compiled tables stay few and the tests cheap)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

SHEETS: dict[str, tuple[str, str]] = {
    "deuxdes": ("""\
systeme: deuxdes
nom: Aldo
attributs: {force: 2, adresse: 2, esprit: 0}
pv: {max: 10, actuels: 10}
armes: [{nom: Épée, degats: 2}]
""", """\
systeme: deuxdes
nom: Gobelin
attributs: {force: 0, adresse: 1, esprit: 0}
pv: {max: 5, actuels: 5}
armes: [{nom: Lance, degats: 1}]
"""),
    "maitrise": ("""\
systeme: maitrise
nom: Bretteur
caracteristiques: {intelligence: 10, adresse: 12, force: 11, charisme: 10, volonte: 10, constitution: 10}
competences: {epee: 3}
armes: [{nom: Épée, competence: epee}]
pv: {max: 6, actuels: 6}
""", """\
systeme: maitrise
nom: Gobelin
caracteristiques: {intelligence: 8, adresse: 10, force: 9, charisme: 6, volonte: 8, constitution: 8}
competences: {epee: 1}
armes: [{nom: Coutelas, competence: epee}]
pv: {max: 4, actuels: 4}
"""),
    "dd35": ("""\
systeme: dd35
nom: Guerrier
caracteristiques: {force: 14, dexterite: 12, constitution: 12, intelligence: 10, sagesse: 10, charisme: 10}
classes: {guerrier: 1}
pv_mode: lance
pv: {max: 9, actuels: 9}
armes: [{nom: Épée longue, degats: 1d8, zone_critique: 19, multiplicateur: 2, portee: contact}]
""", """\
systeme: dd35
nom: Gobelin
caracteristiques: {force: 10, dexterite: 12, constitution: 10, intelligence: 8, sagesse: 8, charisme: 6}
classes: {guerrier: 1}
pv_mode: lance
pv: {max: 5, actuels: 5}
armes: [{nom: Morgenstern, degats: 1d6, portee: contact}]
"""),
    "cydonia": ("""\
systeme: cydonia
nom: Lutteuse
caracteristiques: {physique: 4, agilite: 4, dexterite: 3, sensoriel: 3, courage: 3, charisme: 2,
  mental: 2, chance: 3}
competences: {corps_a_corps: 4, esquive: 2}
pv: {max: 12, actuels: 12}
""", """\
systeme: cydonia
nom: Gobelin
caracteristiques: {physique: 3, agilite: 4, dexterite: 3, sensoriel: 3, courage: 2, charisme: 1,
  mental: 2, chance: 3}
competences: {corps_a_corps: 3, esquive: 2}
pv: {max: 8, actuels: 8}
"""),
    "felins": ("""\
systeme: felins
nom: Griffe-Vive
rang: guerrier
clan: roches
caracteristiques: {force: 2, precision: 2, vigueur: 3, agilite: 2, intelligence: 2, volonte: 2,
  intuition: 2, sociabilite: 1, chance: 1}
competences: {combat_griffu: 4}
""", """\
systeme: felins
nom: Rat-des-Bois
rang: guerrier
clan: roches
caracteristiques: {force: 2, precision: 2, vigueur: 2, agilite: 1, intelligence: 2, volonte: 2,
  intuition: 2, sociabilite: 1, chance: 1}
competences: {combat_griffu: 3}
"""),
}


def sheets(system_id: str, folder: Path | None = None, hero_chance: int = 1
           ) -> tuple[Any, Any, Any]:
    """(system, hero, goblin), loaded from the texts above (in memory); `hero_chance`: the
    Félins hero's Chance (as many d10 rolled)."""
    from jdr.core.registry import get_system
    from jdr.core.sheet import SheetDocument
    from jdr.core.usecase import load

    system = get_system(system_id)
    hero, goblin = SHEETS[system_id]
    hero = hero.replace("chance: 1}", f"chance: {hero_chance}}}")
    where = folder or Path(".")
    return (system, load(system, SheetDocument.from_text(hero, where / "heros.yaml")),
            load(system, SheetDocument.from_text(goblin, where / "gobelin.yaml")))
