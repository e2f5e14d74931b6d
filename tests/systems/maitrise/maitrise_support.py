"""Helpers for the maitrise tests: sheets built in memory (loaded once, as the use-case layer
does), and the system's actions run with hand-given faces, their results read as JSON."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from jdr.core.options import Options, parse_options
from jdr.core.sheet import SheetDocument
from jdr.core.system import (
    AttackRequest,
    CheckRequest,
    GroupRequest,
    Loaded,
    SheetChange,
    XpRequest,
)
from jdr.core.usecase import load
from jdr.dice.source import FixedSource
from jdr.errors import SheetError
from jdr.render.json import to_json
from jdr.systems.maitrise import ACTIONS, SYSTEM, MaitriseSystem
from jdr.systems.maitrise.sheet import Character

Sheet = Loaded[Character]

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


def write_sheet(folder: Path, index: int, name: str, caracs: dict[str, int] | None,
                skills: dict[str, int] | None, top: dict[str, Any]) -> SheetDocument:
    data: dict[str, Any] = {k: (dict(v) if isinstance(v, dict) else v) for k, v in BASE.items()}
    data["nom"] = name
    if caracs:
        data["caracteristiques"].update(caracs)
    if skills is not None:
        data["competences"] = dict(skills)
    data.update(top)
    path = folder / f"fiche{index}.yaml"
    with path.open("w", encoding="utf-8") as handle:
        YAML().dump(data, handle)
    return SheetDocument.load(path)


def loaded(doc: SheetDocument, system: MaitriseSystem = SYSTEM) -> Sheet:
    result: Sheet = load(system, doc)
    return result


def reload(sheet: Sheet, system: MaitriseSystem = SYSTEM) -> Sheet:
    """The same document read again (after changes were applied, or its data edited)."""
    return loaded(sheet.doc, system)


def problems(doc: SheetDocument) -> list[str]:
    """What `jdr sheet check` lists for a document."""
    try:
        SYSTEM.load(doc)
    except SheetError as exc:
        return exc.problems
    return []


def options(action: str, given: dict[str, str] | None) -> Options:
    return parse_options(ACTIONS[action], given or {}, "maitrise")


def apply(changes: Iterable[SheetChange]) -> None:
    for change in changes:
        change.apply()


def roll(sheet: Sheet, skill: str, faces: list[int], system: MaitriseSystem = SYSTEM,
         **kw: Any) -> dict[str, Any]:
    source = FixedSource(faces)
    outcome = system.check(CheckRequest(sheet, skill, options=options("check", None), **kw),
                           source)
    source.finish()
    return to_json(outcome.result)


def attack(a: Sheet, d: Sheet, faces: list[int], system: MaitriseSystem = SYSTEM,
           opts: dict[str, str] | None = None, **kw: Any
           ) -> tuple[dict[str, Any], tuple[SheetChange, ...]]:
    source = FixedSource(faces)
    outcome = system.attack(AttackRequest(a, d, options=options("attack", opts), **kw), source)
    source.finish()
    return to_json(outcome.result), outcome.changes


def spend(sheet: Sheet, opts: dict[str, str] | None = None, **kw: Any
          ) -> tuple[dict[str, Any], tuple[SheetChange, ...]]:
    outcome = SYSTEM.xp(XpRequest(sheet, options=options("xp", opts), **kw))
    return to_json(outcome.result), outcome.changes


def xp_request(sheet: Sheet, opts: dict[str, str] | None = None, **kw: Any) -> XpRequest[Character]:
    return XpRequest(sheet, options=options("xp", opts), **kw)


def initiative(sheets: list[Sheet], faces: list[int]) -> dict[str, Any]:
    source = FixedSource(faces)
    outcome = SYSTEM.initiative(GroupRequest(tuple(sheets)), source)
    source.finish()
    return to_json(outcome.result)


def notes(data: dict[str, Any]) -> list[str]:
    return [n["text"] for n in data["notes"]]


def rules(data: dict[str, Any]) -> list[str]:
    return [n["rule"] for n in data["notes"]]


def contest_step(data: dict[str, Any]) -> dict[str, Any]:
    """The attack-against-defence contest of an attack's JSON."""
    step: dict[str, Any] = data["steps"][0]
    assert step["type"] == "contest"
    return step
