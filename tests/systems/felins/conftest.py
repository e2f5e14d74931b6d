"""Sheets for the `felins` tests, written as a person would write them (YAML)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jdr.core.sheet import SheetDocument

BASE = {
    "force": 2, "precision": 2, "vigueur": 2, "agilite": 2, "intelligence": 2,
    "volonte": 2, "intuition": 2, "sociabilite": 1, "chance": 1,
}

MakeSheet = Callable[..., SheetDocument]


def sheet_text(nom: str = "Patte-de-Brume", rang: str = "apprenti", clan: str = "roches",
               competences: dict[str, int] | None = None, reputation: int = 0,
               blessures: int = 0, etat: str = "conscient", **caracs: int) -> str:
    values = {**BASE, **caracs}
    lines = ["systeme: felins", f"nom: {nom}", f"rang: {rang}", f"clan: {clan}",
             "caracteristiques:"]
    lines += [f"  {k}: {v}" for k, v in values.items()]
    skills = competences or {}
    lines.append("competences: {" + ", ".join(f"{k}: {v}" for k, v in skills.items()) + "}")
    lines += [f"reputation: {reputation}", f"blessures: {blessures}", f"etat: {etat}"]
    return "\n".join(lines) + "\n"


@pytest.fixture
def make_sheet(tmp_path: Path) -> MakeSheet:
    counter = iter(range(10_000))

    def make(**kwargs: Any) -> SheetDocument:
        path = tmp_path / f"chat{next(counter)}.yaml"
        text = sheet_text(**kwargs)
        path.write_text(text, encoding="utf-8")
        return SheetDocument.load(path)

    return make


@pytest.fixture
def make_doc(tmp_path: Path) -> Callable[[str], SheetDocument]:
    counter = iter(range(10_000))

    def make(text: str) -> SheetDocument:
        path = tmp_path / f"fiche{next(counter)}.yaml"
        path.write_text(text, encoding="utf-8")
        return SheetDocument.load(path)

    return make
