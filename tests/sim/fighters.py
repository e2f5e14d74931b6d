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
}


def sheets(system_id: str, folder: Path | None = None) -> tuple[Any, Any, Any]:
    """(system, hero, goblin), loaded from the texts above (in memory)."""
    from jdr.core.registry import get_system
    from jdr.core.sheet import SheetDocument
    from jdr.core.usecase import load

    system = get_system(system_id)
    hero, goblin = SHEETS[system_id]
    where = folder or Path(".")
    return (system, load(system, SheetDocument.from_text(hero, where / "heros.yaml")),
            load(system, SheetDocument.from_text(goblin, where / "gobelin.yaml")))
