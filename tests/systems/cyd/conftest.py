"""Sheets for the CYD tests, written as a person would write them, loaded once as the use-case
layer does (`Loaded`: document + typed model + name)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jdr.core.sheet import SheetDocument
from jdr.core.system import Loaded
from jdr.core.usecase import load
from jdr.systems.cyd import SYSTEM
from jdr.systems.cyd.sheet import CydSheet

MakeDoc = Callable[..., SheetDocument]
Make = Callable[..., Loaded[CydSheet]]


def _yaml_map(data: dict[str, Any]) -> str:
    return "{" + ", ".join(f"{k}: {v}" for k, v in data.items()) + "}"


@pytest.fixture
def make_doc(tmp_path: Path) -> MakeDoc:
    """make_doc(name, attributs={...}, competences={...}, usuel={...}, predilections={...}):
    the sheet file, not validated (for the tests of invalid sheets)."""
    counter = [0]

    def make(name: str = "Rôdeuse", attributs: dict[str, int] | None = None,
             competences: dict[str, int] | None = None, usuel: dict[str, str] | None = None,
             predilections: dict[str, str] | None = None, extra: str = "") -> SheetDocument:
        attrs = {"adresse": 5, "clairvoyance": 4, "presence": 3, "puissance": 6, "trempe": 5}
        attrs.update(attributs or {})
        skills = competences if competences is not None else {"tir": 3}
        usual = usuel if usuel is not None else dict.fromkeys(skills, "adresse")
        lines = [
            "systeme: cyd",
            f"nom: {name}",
            "# commentaire de la personne",
            f"attributs: {_yaml_map(attrs)}",
            f"competences: {_yaml_map(skills)}",
            f"attribut_usuel: {_yaml_map(usual)}",
        ]
        if predilections:
            lines.append(f"predilections: {_yaml_map(predilections)}")
        text = "\n".join(lines) + "\n" + extra
        counter[0] += 1
        path = tmp_path / f"fiche{counter[0]}.yaml"
        path.write_text(text, encoding="utf-8")
        return SheetDocument.load(path)

    return make


@pytest.fixture
def make_sheet(make_doc: MakeDoc) -> Make:
    """The same sheet, validated once into the typed model (as `jdr` does before any action)."""

    def make(*args: Any, **kwargs: Any) -> Loaded[CydSheet]:
        loaded: Loaded[CydSheet] = load(SYSTEM, make_doc(*args, **kwargs))
        return loaded

    return make
