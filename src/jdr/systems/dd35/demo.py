"""Demo sheets for dd35: a plain level-1 Guerrier with every ability at 10, changed by a few keys.

Used by the tests and handy at the prompt: `character(classes={"mage": 3})`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jdr.core.sheet import SheetDocument
from jdr.systems.dd35.character import Character
from jdr.systems.dd35.config import DEFAULT_RULES, Rules
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


def _yaml_value(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)  # JSON is YAML


def document(folder: Path, name: str = "fiche", **overrides: Any) -> SheetDocument:
    """A sheet file on disk (JSON is YAML), loaded as the CLI would."""
    data = sheet_data(**overrides)
    path = folder / f"{name}.yaml"
    path.write_text("\n".join(f"{k}: {_yaml_value(v)}" for k, v in data.items()) + "\n",
                    encoding="utf-8")
    return SheetDocument.load(path)

