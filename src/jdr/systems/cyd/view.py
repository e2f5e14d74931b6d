"""`jdr fiche voir` and `jdr aide` for CYD: the sheet with each skill's Capacité (R003.06,
R003.09), the secondary attributes (R003.02), the prédilection boxes (R003.04) and the failed
actions kept for the retry rule (A003.16)."""

from __future__ import annotations

from jdr.core.results import Row, Section, SheetView
from jdr.core.sheet import Pool
from jdr.core.system import SystemHelp
from jdr.systems.cyd import combat, progression, tables
from jdr.systems.cyd.capacite import Capacity
from jdr.systems.cyd.sheet import CydSheet

# R003.02: stable row keys of the secondary attributes (Santé is the health pool).
_SECONDARY_KEYS = {"defense": "defense", "sante": "hit_points", "psyche": "psyche",
                   "vitesse": "speed"}


def usual_capacity(sheet: CydSheet, skill: str) -> Capacity | None:
    """The Capacité of a skill with its usual attribute (None when the MJ picks each time)."""
    attribute = sheet.usual.get(skill)
    if attribute is None:
        return None
    return Capacity(sheet.nom, attribute, sheet.attributs.get(attribute), skill, sheet.skills[skill])


def _attributes(sheet: CydSheet) -> Section:
    return Section("Attributs", tuple(
        Row(a, tables.ATTRIBUTE_LABELS[a], sheet.attributs.get(a), rule="R003.01")
        for a in tables.ATTRIBUTES))


def _secondary(sheet: CydSheet) -> Section:
    rows: list[Row] = []
    for name in tables.SECONDARY:
        value = getattr(sheet.secondaires, name)
        if value is None:
            continue
        label = tables.SECONDARY_LABELS[name]
        if isinstance(value, Pool):
            rows.append(Row(_SECONDARY_KEYS[name], label, value.actuels,
                            f"{value.actuels}/{value.max}", "R003.02"))
        else:
            rows.append(Row(_SECONDARY_KEYS[name], label, int(value), rule="R003.02"))
    return Section("Attributs secondaires", tuple(rows))


def _skills(sheet: CydSheet) -> Section:
    rows: list[Row] = []
    for name, value in sorted(sheet.skills.items()):
        cap = usual_capacity(sheet, name)
        text = f"{value} ({cap.describe()})" if cap else f"{value} (attribut au choix du MJ)"
        if value == 0:
            text += " ; à 0, la Capacité perd 3"
        rows.append(Row(name, name, value, text, "R003.03"))
    return Section("Compétences", tuple(rows))


def _capacities(sheet: CydSheet) -> Section:
    rows: list[Row] = []
    for name in sorted(sheet.skills):
        cap = usual_capacity(sheet, name)
        if cap is not None:
            rows.append(Row(f"capacite_{name}", f"{name} ({cap.label})", cap.value, rule="R003.06"))
    return Section("Capacités (attribut usuel)", tuple(rows))


def _boxes(sheet: CydSheet) -> Section:
    rows = tuple(
        Row(f"predilection_{name}", name, state,
            "☐ disponible" if state == tables.PREDILECTION_FREE else "☒ utilisée", "R003.04")
        for name, state in sorted(sheet.boxes.items()))
    return Section("Prédilections (une relance par séance)", rows)


def _failures(sheet: CydSheet) -> Section:
    rows = tuple(
        Row(f"echec_{name}", name, value, f"échouée (compétence {value})", "A003.16")
        for name, value in sorted(sheet.failures.items()) if value is not None)
    return Section("Actions échouées (nouvelle tentative si les circonstances changent)", rows)


def sheet_view(sheet: CydSheet) -> SheetView:
    sections = (_attributes(sheet), _secondary(sheet), _skills(sheet), _capacities(sheet),
                _boxes(sheet), _failures(sheet))
    return SheetView("cyd", sheet.nom, tuple(s for s in sections if s.rows))


def help_info() -> SystemHelp:
    """`jdr aide cyd`: the five attributes; skills have free names (R003.03)."""
    return SystemHelp(
        characteristics=dict(tables.ATTRIBUTE_LABELS),
        skills={},
        defences=(),
        notes=(
            "compétences : noms libres, de 0 à 10 ; à 0, la Capacité perd 3",
            "Capacité = attribut + compétence ; résultat final = Capacité + dé",
            "dé au choix du joueur à chaque test (--de d10|d20) : le d10 est prudent ; au d20 "
            "une face impaire compte 0, et 1 ou 11 est un échec dramatique automatique",
            "réussite héroïque : résultat final ≥ seuil + 10 ; échec dramatique : ≤ seuil − 10",
            "attributs secondaires (données de la fiche) : "
            + ", ".join(tables.SECONDARY_LABELS.values()),
            combat.NOTE,
            progression.NOTE,
        ),
    )
