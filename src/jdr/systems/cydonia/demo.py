"""The seed's duel, Nain A against Elfe B (E000.02–E000.08), played round after round until one
is dying or dead: `jdr demo`."""

from __future__ import annotations

from typing import Any

from jdr.core.results import Report
from jdr.dice.source import DiceSource
from jdr.systems.cydonia.checks import Character
from jdr.systems.cydonia.duel import duel
from jdr.systems.cydonia.sheet import CydoniaSheet

NAIN_A: dict[str, Any] = {
    "systeme": "cydonia", "nom": "Nain A", "peuple": "nain",
    "caracteristiques": {"physique": 7, "agilite": 4, "dexterite": 4, "sensoriel": 3,
                         "courage": 5, "charisme": 2, "mental": 1, "chance": 3},
    "competences": {"hache": 6, "esquive": 2, "negociation": 3},
    "expertes": ["negociation"], "pv": 30,
    "armes": [{"nom": "Hache de bûcheron", "competence": "hache", "degats": "PHY+3+1d10",
               "equipee": "principale"}],
    "protections": {"torse": 3},
}
ELFE_B: dict[str, Any] = {
    "systeme": "cydonia", "nom": "Elfe B", "peuple": "elfe",
    "caracteristiques": {"physique": 5, "agilite": 4, "dexterite": 6, "sensoriel": 5,
                         "courage": 4, "charisme": 4, "mental": 4, "chance": 4},
    "competences": {"lame": 5, "esquive": 5, "observation": 4},
    "pv": 25,
    "armes": [{"nom": "Épée longue", "competence": "lame", "degats": "2+1d10",
               "equipee": "principale"}],
    "protections": {"toutes": 3},
}


def demo(source: DiceSource, max_rounds: int = 50) -> Report:
    """R000.21–R000.41: the duel of the seed's two characters, nothing written anywhere."""
    nain, elfe = (Character(CydoniaSheet.model_validate(d)) for d in (NAIN_A, ELFE_B))
    return duel(nain, elfe, source, max_rounds).report
