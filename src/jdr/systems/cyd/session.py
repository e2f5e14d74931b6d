"""Game sessions (R003.04 / A003.13): a prédilection is used once per game session; at the start
of a new session every ticked box is freed again."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jdr.core.sheet import SheetDocument
from jdr.core.system import SheetChange
from jdr.systems.cyd import tables
from jdr.systems.cyd.sheet import load_sheet


@dataclass(frozen=True)
class SessionResult:
    """Which prédilection boxes were freed, per character."""

    freed: tuple[tuple[str, tuple[str, ...]], ...]

    def to_json(self) -> dict[str, Any]:
        return {"freed": {name: list(skills) for name, skills in self.freed}, "rule": "R003.04"}

    def render(self) -> str:
        lines = ["Nouvelle séance de jeu : les prédilections sont de nouveau disponibles (R003.04)"]
        for name, skills in self.freed:
            what = ", ".join(skills) if skills else "aucune case cochée"
            lines.append(f"  · {name} : {what}")
        return "\n".join(lines)


def new_session(docs: list[SheetDocument]) -> tuple[SessionResult, list[SheetChange]]:
    """R003.04 / A003.13: reset every prédilection box to `disponible`."""
    sheets = [(doc, load_sheet(doc)) for doc in docs]  # every sheet checked before any change
    changes: list[SheetChange] = []
    freed: list[tuple[str, tuple[str, ...]]] = []
    for doc, sheet in sheets:
        used = tuple(k for k, v in sheet.boxes.items() if v == tables.PREDILECTION_USED)
        changes.extend(SheetChange(doc, ("predilections", k), tables.PREDILECTION_FREE)
                       for k in used)
        freed.append((sheet.nom, used))
    return SessionResult(tuple(freed)), changes
