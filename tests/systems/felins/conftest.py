"""Sheets for the `felins` tests, written as a person would write them (YAML), loaded once into
the system's model (`Loaded[Cat]`) as the use-case layer does."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jdr.core.options import parse_options
from jdr.core.sheet import SheetDocument
from jdr.core.system import Loaded, Outcome, RuleRequest
from jdr.core.usecase import apply_changes, load
from jdr.dice.source import FixedSource
from jdr.systems.felins import SYSTEM
from jdr.systems.felins.sheet import Cat

BASE = {
    "force": 2, "precision": 2, "vigueur": 2, "agilite": 2, "intelligence": 2,
    "volonte": 2, "intuition": 2, "sociabilite": 1, "chance": 1,
}

MakeSheet = Callable[..., Loaded[Cat]]


def sheet_text(nom: str = "Patte-de-Brume", rang: str = "apprenti", clan: str = "roches",
               competences: dict[str, int] | None = None, reputation: int = 0,
               blessures: int = 0, etat: str = "conscient", inconscience: int = 0,
               soins: str = "aucun", **caracs: int) -> str:
    values = {**BASE, **caracs}
    lines = ["systeme: felins", f"nom: {nom}", f"rang: {rang}", f"clan: {clan}",
             "caracteristiques:"]
    lines += [f"  {k}: {v}" for k, v in values.items()]
    skills = competences or {}
    lines.append("competences: {" + ", ".join(f"{k}: {v}" for k, v in skills.items()) + "}")
    lines += [f"reputation: {reputation}", f"blessures: {blessures}", f"etat: {etat}"]
    if inconscience:
        lines.append(f"inconscience: {inconscience}")
    if soins != "aucun":
        lines.append(f"soins: {soins}")
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


Play = Callable[..., Outcome]


@pytest.fixture
def play() -> Play:
    """`play("soigner", healer, patient, faces=[7], seuil="difficile")`: one rule of felins as
    `jdr regle` plays it (options parsed by the core, faces by hand, none left over); the
    changes are applied to the documents and each changed sheet re-validated."""

    def run(name: str, *sheets: Loaded[Cat], faces: list[int] | None = None,
            **options: str) -> Outcome:
        opts = parse_options(SYSTEM.actions[name], options, "felins")
        source = FixedSource(faces or [])
        outcome = SYSTEM.rule(name, RuleRequest(sheets, opts), source)
        source.finish()
        apply_changes(SYSTEM, outcome.changes)
        return outcome

    return run


Reload = Callable[[Loaded[Cat]], Loaded[Cat]]


@pytest.fixture
def reload() -> Reload:
    """The sheet as it reads after the changes."""

    def again(sheet: Loaded[Cat]) -> Loaded[Cat]:
        loaded: Loaded[Cat] = load(SYSTEM, sheet.doc)
        return loaded

    return again
