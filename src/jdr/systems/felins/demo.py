"""`jdr demo felins`: a short scene in the forest of Perce-neige, played by the rules' own actions.

The forum post has no example characters: Patte-de-Brume is the sheet of SHEETS.md (and of
`jdr fiche nouvelle felins`), Œil-de-Lynx a warrior of the plains built on the same model. Nothing is
written to disk: the sheets live in memory and each action's changes are applied to them.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from jdr.core.results import Line, Report, Result
from jdr.core.sheet import SheetDocument
from jdr.core.system import CheckRequest, GroupRequest, Loaded, Outcome
from jdr.dice.source import DiceSource
from jdr.systems.felins.combat import Cover, attack
from jdr.systems.felins.sheet import TEMPLATE, Cat, load_cat

if TYPE_CHECKING:
    from jdr.systems.felins.system import FelinsSystem

LYNX = """\
systeme: felins
nom: Œil-de-Lynx
rang: guerrier
clan: plaines
caracteristiques: {force: 4, precision: 3, vigueur: 3, agilite: 3, intelligence: 3, volonte: 4,
  intuition: 4, sociabilite: 2, chance: 2}
competences: {chasse: 2, combat_griffu: 2, reperer_trouver: 2}
reputation: 10
"""


def _cat(text: str, name: str) -> Loaded[Cat]:
    doc = SheetDocument.from_text(text, Path(f"demo/{name}.yaml"))
    cat = load_cat(doc)
    return Loaded(doc, cat, cat.name)


def _play(outcome: Outcome, *sheets: Loaded[Cat]) -> tuple[Result, tuple[Loaded[Cat], ...]]:
    """Apply the outcome's changes to the in-memory sheets, and reload them."""
    for change in outcome.changes:
        change.apply()
    return outcome.result, tuple(Loaded(s.doc, load_cat(s.doc), s.name) for s in sheets)


def scene(system: FelinsSystem, source: DiceSource) -> Report:
    """Stealth against a sentry (R004.38), a duel of provocation (R004.27), the fight's order
    (R004.29) and a claw attack (R004.30, R004.31)."""
    patte, lynx = _cat(TEMPLATE, "patte"), _cat(LYNX, "lynx")
    parts: list[Result] = []
    stealth = system.check(CheckRequest(patte, "discretion", opponent=lynx), source)
    result, (patte, lynx) = _play(stealth, patte, lynx)
    parts.append(result)
    provoked = system.duel(GroupRequest((lynx, patte)), source)
    result, (patte, lynx) = _play(provoked, patte, lynx)
    parts.append(result)
    parts.append(system.initiative(GroupRequest((patte, lynx)), source).result)
    if lynx.model.state == "conscient" and patte.model.state == "conscient":
        blow = attack(lynx, patte, Cover(), source, system.config)
        result, (patte, lynx) = _play(blow, patte, lynx)
        parts.append(result)
    notes = (Line("Patte-de-Brume se glisse près d'une sentinelle des plaines ; repérée ou non, "
                  "Œil-de-Lynx la provoque, et si aucun ne plie, les griffes sortent.", "R004.01"),)
    return Report("Démonstration felins : une rencontre à la lisière de Perce-neige",
                  tuple(parts), notes)
