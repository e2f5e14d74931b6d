"""Attack tables apart from health, for a system that declares `attack_health_relative`.

Such a system's attack changes a defender's health by an amount that does not depend on either
character's health, and the state follows from the sheet's values. One table is then compiled
per pair of *views* (a sheet without its current health, with its state), on the first sheet met
with each view; applied to another sheet of the same view, a change of health becomes the same
difference, the other changes the same values, and the state is read from the sheet reached.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import numpy as np

from jdr.core.compile import Effect
from jdr.core.sheet import SheetDocument
from jdr.core.system import SheetChange
from jdr.names import normalize

if TYPE_CHECKING:
    from jdr.sim.tables import Compiled, Table


class Relative:
    def __init__(self, tables: Compiled) -> None:
        self.tables = tables
        self.system = tables.system
        self.views: dict[str, int] = {}
        self.view_of: dict[int, int] = {}
        self.raw: dict[int, int] = {}
        self.compiled: dict[tuple[int, int], dict[Effect, Fraction]] = {}

    def health(self, state: int) -> int:
        """The current health as the sheet keeps it (hit points, or wounds)."""
        found = self.raw.get(state)
        if found is None:
            health = self.system.health(self.tables.fresh(state, "Personnage"))
            found = self.raw[state] = health.after if health is not None else 0
        return found

    def _set_health(self, doc: SheetDocument, value: int) -> None:
        from jdr.core.actions import _health_changes
        from jdr.core.usecase import load

        sheet = load(self.system, doc)
        health = self.system.health(sheet)
        top = health.max if health is not None else None
        for change in _health_changes(doc, self.system.health_path(sheet), value, top):
            change.apply()

    def view(self, state: int) -> int:
        """The first state met with the same sheet apart from its health, and the same state."""
        found = self.view_of.get(state)
        if found is not None:
            return found
        sheet = self.tables.fresh(state, "Personnage")
        doc = self.tables.doc_of(state)
        self._set_health(doc, 0)
        key = json.dumps([doc.plain(), self.system.state(sheet),
                          self.system.incapacity(sheet) is None], sort_keys=True)
        found = self.view_of[state] = self.views.setdefault(key, state)
        return found

    def _is_health(self, state: int, path: tuple[str, ...]) -> bool:
        head = self.system.health_path(self.tables.fresh(state, "Personnage"))[0]
        return normalize(path[0]) == normalize(head)

    def moved(self, state: int, rep: int, effect: Effect, role: int) -> int:
        """The state `state` reaches under an effect compiled on `rep` (same view)."""
        if state == rep or not any(c[0] == role for c in effect):
            return self.tables.after(state, effect, role)
        delta = self.health(self.tables.after(rep, effect, role)) - self.health(rep)
        doc = self.tables.doc_of(state)
        health_changed = False
        for who, path, value, pool in effect:
            if who != role:
                continue
            if self._is_health(rep, path):
                health_changed = True
            else:
                SheetChange(doc, path, json.loads(value), pool).apply()
        if health_changed:
            self._set_health(doc, self.health(state) + delta)
        return self.tables.state(doc.plain())

    def table(self, a: int, d: int) -> Table:
        from jdr.sim.tables import cumulative

        ra, rd = self.view(a), self.view(d)
        outcomes = self.compiled.get((ra, rd))
        if outcomes is None:
            outcomes = self.compiled[(ra, rd)] = self.tables._outcomes(ra, rd)
        effects = list(outcomes)
        moves: list[Any] = [[self.moved(a, ra, e, 0) for e in effects],
                            [self.moved(d, rd, e, 1) for e in effects]]
        return (cumulative([outcomes[e] for e in effects]), np.array(moves[0], dtype=np.int64),
                np.array(moves[1], dtype=np.int64))
