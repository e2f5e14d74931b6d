"""Shared fixtures: the seed's characters as sheets."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture
def nain() -> dict[str, Any]:
    from jdr.systems.cydonia.demo import NAIN_A

    return copy.deepcopy(NAIN_A)


@pytest.fixture
def elfe() -> dict[str, Any]:
    from jdr.systems.cydonia.demo import ELFE_B

    return copy.deepcopy(ELFE_B)


NAIN_YAML = """\
systeme: cydonia
nom: Nain A   # le nain de l'exemple
peuple: nain
caracteristiques:
  Physique: 7
  agilite: 4
  DEX: 4
  sensoriel: 3
  courage: 5
  charisme: 2
  mental: 1
  chance: 3
competences:
  hache: 6
  esquive: 2
  negociation: 3
expertes: [negociation]
pv: {max: 30, actuels: 30}
xp: 10
armes:
  - {nom: Hache de bûcheron, competence: hache, degats: "PHY+3+1d10", equipee: principale}
protections: {torse: 3}
notes: garder ce commentaire
"""

ELFE_YAML = """\
systeme: cydonia
nom: Elfe B
caracteristiques: {physique: 5, agilite: 4, dexterite: 6, sensoriel: 5, courage: 4, charisme: 4,
  mental: 4, chance: 4}
competences: {lame: 5, esquive: 5}
pv: 25   # forme courte
protections: {toutes: 3}
"""


@pytest.fixture
def sheets(tmp_path: Path) -> tuple[Path, Path]:
    a = tmp_path / "nain.yaml"
    b = tmp_path / "elfe.yaml"
    a.write_text(NAIN_YAML, encoding="utf-8")
    b.write_text(ELFE_YAML, encoding="utf-8")
    return a, b
