"""What `jdr fiche voir` and `jdr aide dd35` show: every derived value the document defines, as
the core's `SheetView` / `SystemHelp` (rendered by jdr.render)."""

from __future__ import annotations

from jdr.core.results import Row, Section, SheetView
from jdr.core.system import SystemHelp
from jdr.names import normalize
from jdr.systems.dd35.character import Character, format_attacks
from jdr.systems.dd35.sheet import Weapon
from jdr.systems.dd35.tables import (
    ABILITIES,
    ABILITY_LABELS,
    CLASSES,
    PERCEPTION_CONTEXTS,
    SAVES,
)


def _abilities(c: Character) -> Section:
    """A002.01: score and modifier; the row key is the French data name."""
    return Section("Caractéristiques", tuple(
        Row(a, ABILITY_LABELS[a], c.score(a), f"{c.score(a)} ({c.mod(a):+d})", "A002.01")
        for a in ABILITIES))


def _classes(c: Character) -> Section:
    rows = [Row(name, CLASSES[name].label, level, rule="R002.01")
            for name, level in c.sheet.classes.items()]
    rows.append(Row("level", "Niveau de personnage", c.level, rule="A002.02"))
    return Section("Classes", tuple(rows))


def _reduction_text(c: Character) -> str:
    """R002.07 + D-002.40: only the armour's part is /Magie."""
    armour, feats = c.armour_dr, c.sheet.dons.rd
    if not feats:
        return f"{armour}/Magie"
    return f"{armour + feats} (armure {armour}/Magie + dons {feats})"


def _combat(c: Character) -> Section:
    return Section("Combat", (
        Row("base_attack", "Base Attaque", c.bab, format_attacks(c.attacks), "R002.04"),
        Row("melee_attack", "Attaque au contact", c.melee_bonus, f"{c.melee_bonus:+d}",
            "R002.11"),
        Row("ranged_attack", "Attaque à distance", c.ranged_bonus, f"{c.ranged_bonus:+d}",
            "R002.12"),
        Row("armor_class", "CA", c.ac, rule="R002.06"),
        Row("flat_footed_armor_class", "CA pris au dépourvu", c.flat_footed_ac, rule="A002.12"),
        Row("damage_reduction", "Réduction de dégâts", c.damage_reduction(), _reduction_text(c),
            "R002.07"),
        Row("initiative", "Initiative", c.initiative_modifier, f"{c.initiative_modifier:+d}",
            "R002.13"),
        Row("passive_perception", "Perception passive", c.passive_perception, rule="R002.09"),
    ))


def _health(c: Character) -> Section:
    return Section("Points de vie", (
        Row("hit_points", "PV", c.current_hp, f"{c.current_hp}/{c.max_hp}", "R002.02"),
        Row("hit_points_max", "PV max", c.max_hp, rule="R002.02"),
        Row("hit_points_fixed", "PV max à valeur fixe (calcul)", c.computed_hp, rule="R002.02"),
    ))


def weapon_text(c: Character, w: Weapon) -> str:
    """`+9/+4, 1d8+3, critique 19-20/×2` (R002.04, R002.16-R002.18)."""
    mods = sum(m.value for m in c.attack_modifiers(w))
    attacks = format_attacks(tuple(mods - (c.bab - v) for v in c.attacks))
    dmg = sum(m.value for m in c.damage_bonus(w))
    zone = f"{w.zone_critique}-20" if w.zone_critique < 20 else "20"
    return f"{attacks}, {w.degats}{dmg:+d}, critique {zone}/×{w.multiplicateur}"


def _weapons(c: Character) -> Section:
    return Section("Armes", tuple(
        Row(f"weapon_{normalize(w.nom)}", w.nom, weapon_text(c, w), rule="R002.16")
        for w in c.sheet.armes))


def sheet_view(c: Character) -> SheetView:
    sections = [_abilities(c), _classes(c), _combat(c), _health(c)]
    if c.sheet.armes:
        sections.append(_weapons(c))
    return SheetView("dd35", c.name, tuple(sections))


SKILLS: dict[str, str] = {
    "attaque": "jet d'attaque avec la première arme (ou le nom d'une arme de la fiche)",
    **{k: f"Perception active : {v.label}" for k, v in PERCEPTION_CONTEXTS.items()},
    "perception": "Perception active, selon l'option « Contexte de la perception »",
    "perception_passive": "Perception passive (sans jet)",
    **{k: f"jet de Sauvegarde ({v})" for k, v in SAVES.items()},
    "sauvegarde": "jet de Sauvegarde, selon l'option « Sauvegarde »",
    "initiative": "jet d'initiative",
}


def system_help() -> SystemHelp:
    """`jdr aide dd35`; the notes state A002.21 (surprise) and A002.23 (circumstances are data)."""
    return SystemHelp(
        characteristics=dict(ABILITY_LABELS),
        skills=SKILLS,
        defences=("ca", "depourvu"),
        notes=(
            "Pas d'échelle de difficulté nommée : --seuil prend un ND (ou une CA) en nombre.",
            "--contre FICHE seul : une attaque vise la CA du défenseur, une sauvegarde le ND "
            "provisoire de la manœuvre de l'auteur (A002.16), tout autre jet s'oppose au même "
            "jet de l'adversaire ; --contre FICHE:COMPETENCE choisit le jet opposé.",
            "Jet opposé : le plus haut total l'emporte ; à égalité un jet bat une valeur passive, "
            "puis le plus haut bonus l'emporte, puis l'opposant.",
            "Surprise : jdr regle surprise EMBUSQUE CIBLE… ; un jet de l'embusqué contre la "
            "Perception passive de chaque cible ; une cible égalée ou battue est surprise : "
            "prise au dépourvu jusqu'à la fin du premier round (A002.21).",
            "Initiative au fil des rounds (jdr combat suivant) : +5 à qui n'a pas agi "
            "(jdr regle attendre PERSONNAGE, ou hors de combat), ordre retrié ; personne n'a "
            "agi : fin du combat (R002.13).",
            "Hors de combat à 0 PV ou moins : plus aucune action (D-ALL.02).",
            "Bonus de circonstance, dons et magie : données du MJ ou de la fiche "
            "(--opt circonstance=N, --bonus N).",
            "Progression par niveaux (pas de table d'XP) : jdr xp FICHE --pv --opt classe=NOM "
            "[--opt jet=N].",
        ),
    )
