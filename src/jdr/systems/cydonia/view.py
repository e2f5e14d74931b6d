"""Cydonia as a person reads it: the sheet with its derived values (`jdr fiche voir`) and the
system's help (`jdr aide cydonia`)."""

from __future__ import annotations

from jdr.core.french import state_label
from jdr.core.results import Row, Section, SheetView
from jdr.core.system import SystemHelp
from jdr.names import normalize
from jdr.systems.cydonia.adventure import carrying_left, creatures
from jdr.systems.cydonia.checks import Character
from jdr.systems.cydonia.progression import reputation_bonus, reputation_title
from jdr.systems.cydonia.tables import (
    ABBREVIATIONS,
    CAC_LOCATIONS,
    CHARACTERISTICS,
    SKILL_ALIASES,
    SKILLS,
    WEAPON_LOCATIONS,
    skill_label,
)


def show(c: Character) -> SheetView:
    """R000.02–R000.09, R000.21, R000.48–R000.51: the sheet and what the rules derive from it."""
    sections = (_characteristics(c), _skills(c), _derived(c), _health(c), _progression(c),
                _equipment(c))
    return SheetView("cydonia", c.name, tuple(s for s in sections if s.rows))


def _characteristics(c: Character) -> Section:
    rows = []
    for key, label in CHARACTERISTICS.items():
        value, base = c.characteristic(key), int(c.sheet.caracteristiques[key])
        text = str(value) if value == base else f"{value} (base {base})"
        rows.append(Row(key, label, value, text, "R000.02"))
    return Section("Caractéristiques", tuple(rows))


def _skills(c: Character) -> Section:
    rows = []
    for key in c.sheet.competences:
        skill = SKILL_ALIASES.get(key, key)
        linked = c.skill_characteristic(skill)
        expert = c.is_expert(skill)
        value = c.skill(skill)
        text = f"{value}" + (f" ({CHARACTERISTICS[linked]})" if linked else "") + (
            ", experte : 2d10, garder un dé" if expert else "")
        rows.append(Row(skill, skill_label(skill), value, text, "R000.06" if expert else "R000.04"))
    return Section("Compétences", tuple(rows))


def _derived(c: Character) -> Section:
    phy, cou = c.characteristic("physique"), c.characteristic("courage")
    men = c.characteristic("mental")
    init = c.characteristic("agilite") + c.characteristic("sensoriel")
    small, large = carrying_left(phy, 0, 0)
    return Section("Valeurs dérivées", (
        Row("resistance_physique", "Résistance Physique", cou + phy, f"{cou + phy} + 1d10", "R000.07"),
        Row("resistance_mentale", "Résistance Mentale", cou + men, f"{cou + men} + 1d10", "R000.07"),
        Row("initiative", "Initiative", init, f"{init} (Agilité + Sensoriel)", "R000.21"),
        Row("carrying_capacity", "Portance", small,
            f"{small} petits objets ou {large} gros", "R000.51"),
    ))


def _health(c: Character) -> Section:
    s = c.sheet
    rows = [Row("hit_points", "PV", s.pv.actuels, f"{s.pv.actuels}/{s.pv.max}", "R000.34")]
    if s.mana is not None:
        rows.append(Row("mana", "Mana", s.mana.actuels, f"{s.mana.actuels}/{s.mana.max}", "R000.07"))
    rows.append(Row("state", "État", c.state, state_label(c.state, c.genre), "R000.34"))
    if s.etat.assomme:
        rows.append(Row("knockout_damage", "Assommé (dégâts)", s.etat.assomme, rule="R000.41"))
    if s.etat.malus:
        rows.append(Row("malus", "Malus", -abs(s.etat.malus), f"−{abs(s.etat.malus)} à tous les jets",
                        "A000.16"))
    if s.etat.concentration:
        rows.append(Row("concentration", "Concentration (tours)", s.etat.concentration, rule="R000.36"))
    if s.etat.transformation:
        rows.append(Row("transformation", "Transformation (tours)", s.etat.transformation,
                        rule="R000.40"))
    rows += _more_state(c)
    return Section("Santé et état", tuple(rows))


def _more_state(c: Character) -> list[Row]:
    """R000.27, R000.39, R000.42, R000.54: what the other rules leave on the sheet."""
    e = c.sheet.etat
    rows = []
    if e.paralyse:
        rows.append(Row("paralysed", "Paralysé", True, "perd son prochain tour", "R000.27"))
    if e.immobilise:
        rows.append(Row("held_by", "Immobilisé par", e.immobilise, rule="R000.42"))
    if e.elan:
        rows.append(Row("run_up", "Élan (tours)", e.elan, f"{e.elan}/2", "R000.39"))
    if e.soigne:
        rows.append(Row("treated_today", "Médecine reçue aujourd'hui", True, "oui", "R000.54"))
    return rows


def _progression(c: Character) -> Section:
    s = c.sheet
    level = s.reputation.niveau
    rows = [
        Row("xp", "XP", s.xp, rule="R000.45"),
        Row("learning_points", "Points d'apprentissage", s.pa, rule="R000.44"),
        Row("reputation", "Réputation", level,
            f"{level:+d} {reputation_title(level)} (bonus {reputation_bonus(level)}, "
            f"points {s.reputation.points})", "R000.48"),
    ]
    if s.xp_shira:
        rows.append(Row("shira_xp", "XP Shira", s.xp_shira, rule="R000.44"))
    for skill, label in (("magie", "Créatures invocables (Magie)"),
                         ("dressage", "Créatures possédées (Dressage)")):
        if c.skill(skill) > 0:
            rows.append(Row(f"creatures_{skill}", label, creatures(c.skill(skill)),
                            rule="R000.57, A000.20"))
    for name, companion in s.compagnons.items():
        stats = ", ".join(f"{k} {v}" for k, v in companion.stats.items()) or "—"
        rows.append(Row(f"companion_{name}", "Compagnon", name, f"{name} : {stats}", "R000.45"))
    return Section("Progression", tuple(rows))


def _equipment(c: Character) -> Section:
    rows = []
    for i, w in enumerate(c.sheet.armes, start=1):
        slot = f", {w.equipee}" if w.equipee else ""
        rows.append(Row(f"weapon_{i}", "Arme", w.nom, f"{w.nom} : {w.competence}, {w.degats}{slot}",
                        "R000.35"))
    for zone, value in c.sheet.protections.items():
        rows.append(Row(f"protection_{zone}", f"Protection ({zone})", value, rule="A000.14"))
    for i, item in enumerate(c.sheet.objets, start=1):
        bonus = ", ".join(f"{k} +{v}" for k, v in item.bonus.items())
        worn = "" if item.equipe else " (non équipé)"
        rows.append(Row(f"item_{i}", "Objet", item.nom, f"{item.nom} : {bonus}{worn}", "R000.53"))
    return Section("Équipement", tuple(rows))


def help_text() -> SystemHelp:
    """`jdr aide cydonia`: names to type, defences and the rules' special rolls."""
    skills = {k: skill_label(k) + (f" ({CHARACTERISTICS[v]})" if v else " (sans caractéristique)")
              for k, v in SKILLS.items()}
    weapon_zones = sorted({normalize(z.name) for z in WEAPON_LOCATIONS.values()})
    cac_zones = sorted({normalize(z.name) for z in CAC_LOCATIONS.values()})
    return SystemHelp(
        characteristics=dict(CHARACTERISTICS),
        skills=skills,
        defences=("esquive", "bouclier", "cac"),
        notes=(
            "Abréviations : " + ", ".join(f"{a} = {b}" for a, b in ABBREVIATIONS.items())
            + " ; cac = corps_a_corps (R000.02).",
            "Jets spéciaux : resistance_physique, resistance_mentale (R000.07), reveil (jet de "
            "réveil d'un assommé, D-000.49) ; une caractéristique seule se lance aussi (R000.12).",
            "Compétence experte : 2d10, le meilleur est gardé, ou --choix 1|2 (R000.06).",
            "Défenses : esquive par défaut ; bouclier ; cac contre le corps à corps seulement ; "
            "attaque immatérielle (--opt immateriel=oui) : Résistance Physique ; attaque de zone "
            "(--opt zone=oui) : Esquive seule ; défenseur monté (--opt defenseur_monte=oui) : "
            "Agilité + Équitation, sauf bouclier (R000.24, R000.38).",
            "Un défenseur assommé ou mourant ne se défend pas : total 0 (D-000.47) ; un "
            "personnage assommé, mourant ou mort ne peut pas agir (D-ALL.02).",
            "Zones visées (--visee), armes : " + ", ".join(weapon_zones) + " ; corps à corps : "
            + ", ".join(cac_zones) + " (R000.30).",
        ),
    )
