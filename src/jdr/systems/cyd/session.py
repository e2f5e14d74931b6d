"""Game sessions (R003.04 / A003.13): a prédilection is used once per game session; at the start
of a new session every ticked box is freed again."""

from __future__ import annotations

from jdr.core.results import Line, Notes
from jdr.core.system import GroupRequest, Outcome, SheetChange
from jdr.systems.cyd import tables
from jdr.systems.cyd.sheet import CydSheet


def new_session(request: GroupRequest[CydSheet]) -> Outcome:
    """R003.04 / A003.13: reset every prédilection box to `disponible` (every sheet was already
    validated by the use-case layer before any change)."""
    changes: list[SheetChange] = []
    lines: list[Line] = []
    for loaded in request.sheets:
        used = tuple(k for k, v in loaded.model.boxes.items() if v == tables.PREDILECTION_USED)
        changes.extend(SheetChange(loaded.doc, ("predilections", k), tables.PREDILECTION_FREE)
                       for k in used)
        what = ", ".join(used) if used else "aucune case cochée"
        lines.append(Line(f"{loaded.name} : {what}", "R003.04"))
    title = "Nouvelle séance de jeu : les prédilections sont de nouveau disponibles"
    return Outcome(Notes(title, tuple(lines), "R003.04"), tuple(changes))
