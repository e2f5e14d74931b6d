"""`jdr demo maitrise`: a short scene with the characters of the rules' own examples.

The seed has no named characters; its examples are SHEETS.md's Bretteuse (épée 25, Compétent)
and the T001 vectors' Maître (level 85, T001.08) whom a Novice (level 15, T001.05) attacks.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from jdr.core.results import Line, Report
from jdr.core.sheet import SheetDocument
from jdr.core.system import AttackRequest, CheckRequest, GroupRequest, Loaded
from jdr.dice.source import DiceSource

if TYPE_CHECKING:
    from jdr.systems.maitrise import MaitriseSystem
    from jdr.systems.maitrise.sheet import Character

BRETTEUSE = """\
systeme: maitrise
nom: Bretteuse
caracteristiques: {intelligence: 10, adresse: 12, force: 14, charisme: 9, volonte: 10,
  constitution: 12}
competences: {epee: 25, arc: 0}
armes: [{nom: Épée longue, competence: epee}]
armure: 2
pv: {max: 20, actuels: 20}
"""

MAITRE = """\
systeme: maitrise
nom: Maître d'armes
caracteristiques: {intelligence: 12, adresse: 14, force: 12, charisme: 10, volonte: 12,
  constitution: 13}
competences: {epee: 85}
armes: [{nom: Rapière, competence: epee}]
armure: 1
pv: {max: 24, actuels: 24}
"""

NOVICE = """\
systeme: maitrise
nom: Novice
caracteristiques: {intelligence: 9, adresse: 11, force: 11, charisme: 9, volonte: 9,
  constitution: 11}
competences: {epee: 15}
armes: [{nom: Épée courte, competence: epee}]
pv: {max: 14, actuels: 14}
"""


def _loaded(system: MaitriseSystem, text: str, file: str) -> Loaded[Character]:
    doc = SheetDocument.from_text(text, Path(file))
    model = system.load(doc)
    return Loaded(doc, model, model.name)


def scene(system: MaitriseSystem, source: DiceSource) -> Report:
    """Initiative, the odds of an attack against a Maître's parry, then three blows."""
    bretteuse = _loaded(system, BRETTEUSE, "bretteuse.yaml")
    maitre = _loaded(system, MAITRE, "maitre.yaml")
    novice = _loaded(system, NOVICE, "novice.yaml")
    parts = (
        system.initiative(GroupRequest((bretteuse, maitre, novice)), source).result,
        system.odds(CheckRequest(novice, "epee", opponent=maitre)),
        system.attack(AttackRequest(novice, maitre), source).result,
        system.attack(AttackRequest(bretteuse, novice), source).result,
        system.check(CheckRequest(bretteuse, "esquive"), source).result,
    )
    return Report("Démonstration maitrise : la Bretteuse, un Novice et un Maître d'armes", parts,
                  (Line("marge = partie entière de (d20 + niveau) / 2 ; réussite au dé selon le "
                        "rang ; la plus grande marge l'emporte", "R001.10, R001.11"),))
