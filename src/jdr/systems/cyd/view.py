"""`jdr sheet show` for CYD: the sheet with each skill's Capacité (R003.06, R003.09)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jdr.systems.cyd import tables
from jdr.systems.cyd.checks import Capacity
from jdr.systems.cyd.sheet import CydSheet


@dataclass(frozen=True)
class SheetView:
    sheet: CydSheet

    def _capacity(self, skill: str) -> Capacity | None:
        attribute = self.sheet.usual.get(skill)
        if attribute is None:
            return None
        return Capacity(self.sheet.nom, attribute, self.sheet.attributs.get(attribute), skill,
                        self.sheet.skills[skill])

    def to_json(self) -> dict[str, Any]:
        s = self.sheet
        skills: dict[str, Any] = {}
        for name, value in s.skills.items():
            cap = self._capacity(name)
            skills[name] = {"value": value, "attribute": s.usual.get(name),
                            "capacite": cap.value if cap else None,
                            "predilection": s.boxes.get(name)}
        secondary = s.secondaires.model_dump(exclude_none=True)
        return {"system": "cyd", "name": s.nom,
                "attributes": {a: s.attributs.get(a) for a in tables.ATTRIBUTES},
                "skills": skills, "secondary": secondary, "predilections": s.boxes}

    def render(self) -> str:
        s = self.sheet
        lines = [f"{s.nom} (CYD System)"]
        lines.append("Attributs : " + ", ".join(
            f"{tables.ATTRIBUTE_LABELS[a]} {s.attributs.get(a)}" for a in tables.ATTRIBUTES))
        sec = s.secondaires
        parts = []
        for key in tables.SECONDARY:
            value = getattr(sec, key)
            if value is None:
                continue
            if hasattr(value, "actuels"):
                value = f"{value.actuels}/{value.max}"
            parts.append(f"{tables.SECONDARY_LABELS[key]} {value}")
        if parts:
            lines.append("Secondaires : " + ", ".join(parts))
        lines.append("Compétences :")
        for name, value in sorted(s.skills.items()):
            cap = self._capacity(name)
            usual = f" ({cap.describe()})" if cap else " (attribut au choix du MJ)"
            pred = s.boxes.get(name)
            mark = ""
            if pred is not None:
                mark = " [prédilection : " + ("☐ disponible" if pred == "disponible"
                                               else "☒ utilisée") + "]"
            lines.append(f"  · {name} {value}{usual}{mark}")
        return "\n".join(lines)
