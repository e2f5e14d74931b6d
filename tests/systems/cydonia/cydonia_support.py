"""Helpers for Cydonia's rule tests: `jdr regle` driven through the core's entry point
(`jdr.core.actions`), with sheets on disk, and a chooser that records its questions."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jdr.core.actions import Done, commit, execute
from jdr.core.sheet import SheetDocument
from jdr.core.system import Chooser, Loaded, Question, RuleRequest, default_choice
from jdr.core.usecase import FileWorkspace, load, options
from jdr.dice.source import FixedSource
from jdr.systems.cydonia import SYSTEM
from jdr.systems.cydonia.sheet import CydoniaSheet

ORK_YAML = """\
systeme: cydonia
nom: Ork C
peuple: ork
caracteristiques: {physique: 8, agilite: 4, dexterite: 5, sensoriel: 3, courage: 5, charisme: 3,
  mental: 2, chance: 4}
competences: {corps_a_corps: 5, esquive: 2, torture: 4, medecine: 3, equitation: 3, fouille: 3,
  transformation: 4, nager: 2, dressage: 6, persuasion: 2}
expertes: [torture]
pv: {max: 30, actuels: 30}
xp: 10
reputation: {niveau: 2, points: 1}
compagnons: {Loup: {stats: {physique: 4}}}
"""

def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def regle(name: str, *paths: Path, opt: Sequence[str] = (), dice: Sequence[int] = (),
          chooser: Chooser = default_choice, write_back: bool = True) -> Done:
    """`jdr regle NOM PERSONNAGES --opt …` through `execute`, then `commit`."""
    params: dict[str, Any] = {"nom": name, "personnages": [str(p) for p in paths],
                              "opt": list(opt)}
    done = execute(FileWorkspace(), "regle", params, FixedSource(dice), chooser=chooser)
    if write_back:
        commit(FileWorkspace(), done)
    return done


def loaded(path: Path) -> Loaded[CydoniaSheet]:
    return load(SYSTEM, SheetDocument.load(path))


def rule_request(name: str, *paths: Path, opt: Sequence[str] = (),
                 chooser: Chooser = default_choice) -> RuleRequest[CydoniaSheet]:
    return RuleRequest(tuple(loaded(p) for p in paths), options(SYSTEM, name, list(opt)), chooser)


def sheet(path: Path) -> CydoniaSheet:
    return loaded(path).model


class Asked:
    """A chooser that records each question and gives scripted answers (else the default)."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.questions: list[Question] = []

    def __call__(self, question: Question) -> str:
        self.questions.append(question)
        return self.answers.pop(0) if self.answers else question.default
