"""Sheets for the `felins` tests, written as a person would write them (YAML), loaded once into
the system's model (`Loaded[Cat]`) as the use-case layer does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jdr.core.sheet import SheetDocument
from jdr.core.system import Loaded
from jdr.core.usecase import load
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.sheet import Cat

BASE = {
    "force": 2, "precision": 2, "vigueur": 2, "agilite": 2, "intelligence": 2,
    "volonte": 2, "intuition": 2, "sociabilite": 1, "chance": 1,
}

MakeSheet = Callable[..., Loaded[Cat]]


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
def make_doc(tmp_path: Path) -> Callable[[str], SheetDocument]:
    counter = iter(range(10_000))

    def make(text: str) -> SheetDocument:
        path = tmp_path / f"fiche{next(counter)}.yaml"
        path.write_text(text, encoding="utf-8")
        return SheetDocument.load(path)

    return make


@pytest.fixture
def make_unloaded(make_doc: Callable[[str], SheetDocument]) -> Callable[..., SheetDocument]:
    """The document only (for sheets that must fail validation)."""

    def make(**kwargs: Any) -> SheetDocument:
        return make_doc(sheet_text(**kwargs))

    return make


@pytest.fixture
def make_sheet(make_doc: Callable[[str], SheetDocument]) -> MakeSheet:
    def make(**kwargs: Any) -> Loaded[Cat]:
        loaded: Loaded[Cat] = load(SYSTEM, make_doc(sheet_text(**kwargs)))
        return loaded

    return make


@pytest.fixture
def make_file(tmp_path: Path) -> Callable[..., Path]:
    """A sheet file on disk, for the CLI."""

    def make(name: str, **kwargs: Any) -> Path:
        path = tmp_path / f"{name}.yaml"
        path.write_text(sheet_text(**kwargs), encoding="utf-8")
        return path

    return make
