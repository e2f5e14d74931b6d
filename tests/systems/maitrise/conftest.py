"""Helpers for the maitrise tests: sheets built in memory, written where the test asks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from jdr.core.sheet import SheetDocument

BASE: dict[str, Any] = {
    "systeme": "maitrise",
    "nom": "Bretteuse",
    "caracteristiques": {"intelligence": 10, "adresse": 12, "force": 14, "charisme": 9,
                         "volonte": 10, "constitution": 12},
    "competences": {"epee": 25},
    "armes": [{"nom": "Épée longue", "competence": "epee"}],
    "armure": 0,
    "pv": {"max": 20, "actuels": 20},
    "xp": 0,
    "or": 0,
    "faces_critiques": {},
}


class SheetFactory:
    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0

    def __call__(self, name: str = "Bretteuse", *, caracs: dict[str, int] | None = None,
                 skills: dict[str, int] | None = None, **top: Any) -> SheetDocument:
        data: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v)
                                for k, v in BASE.items()}
        data["nom"] = name
        if caracs:
            data["caracteristiques"].update(caracs)
        if skills is not None:
            data["competences"] = dict(skills)
        data.update(top)
        self.count += 1
        path = self.folder / f"fiche{self.count}.yaml"
        with path.open("w", encoding="utf-8") as handle:
            YAML().dump(data, handle)
        return SheetDocument.load(path)


@pytest.fixture
def sheet(tmp_path: Path) -> SheetFactory:
    return SheetFactory(tmp_path)
