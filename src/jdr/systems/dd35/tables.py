"""Every rule table of the dd35 document, as data (RULES.md section 3).

The Base Attack table (R002.05) is kept here exactly as the document prints it, column by column;
the iterative attacks are derived from its first value by R002.04, and a test compares every one
of the 60 printed cells with what this module gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Progression = Literal["forte", "moyenne", "faible"]

ABILITIES: tuple[str, ...] = (
    "force", "dexterite", "constitution", "intelligence", "sagesse", "charisme",
)
"""A002.01: the six D&D 3.5 abilities (the document uses them without listing them)."""

ABILITY_ALIASES: dict[str, str] = {
    "for": "force", "dex": "dexterite", "con": "constitution", "int": "intelligence",
    "sag": "sagesse", "cha": "charisme",
}

ABILITY_LABELS: dict[str, str] = {
    "force": "Force", "dexterite": "Dextérité", "constitution": "Constitution",
    "intelligence": "Intelligence", "sagesse": "Sagesse", "charisme": "Charisme",
}


@dataclass(frozen=True, slots=True)
class ClassInfo:
    """One class: its French name, hit die, fixed HP per later level and BAB column."""

    label: str
    hit_die: int
    fixed_hp: int
    progression: Progression


CLASSES: dict[str, ClassInfo] = {
    # R002.01 (hit dice, L98-102), R002.02 (fixed values, L108-112), R002.05 (columns, L50).
    # A002.08: the Barbarian is D12 but sits in the "D10/D12" full-BAB column: consistent.
    "barbare": ClassInfo("Barbare", 12, 10, "forte"),
    "guerrier": ClassInfo("Guerrier", 10, 8, "forte"),
    "paladin": ClassInfo("Paladin", 10, 8, "forte"),
    "rodeur": ClassInfo("Rôdeur", 10, 8, "forte"),
    "barde": ClassInfo("Barde", 8, 6, "moyenne"),
    "druide": ClassInfo("Druide", 8, 6, "moyenne"),
    "moine": ClassInfo("Moine", 8, 6, "moyenne"),
    "pretre": ClassInfo("Prêtre", 8, 6, "moyenne"),
    "roublard": ClassInfo("Roublard", 8, 6, "moyenne"),
    "ensorceleur": ClassInfo("Ensorceleur", 6, 4, "faible"),
    "mage": ClassInfo("Mage", 6, 4, "faible"),
}

MAX_LEVEL = 20
"""The Base Attack table stops at level 20 (R002.05)."""

# R002.05: the document's table, level 1..20, as printed (L51-70). "+11/+6+/+1" (sic, A002.22)
# appears only in the prose of L46, not in the table.
BASE_ATTACK_TABLE: dict[Progression, tuple[str, ...]] = {
    "forte": (
        "+1", "+2", "+3", "+4", "+5", "+6/+1", "+7/+2", "+8/+3", "+9/+4", "+10/+5",
        "+11/+6/+1", "+12/+7/+2", "+13/+8/+3", "+14/+9/+4", "+15/+10/+5",
        "+16/+11/+6/+1", "+17/+12/+7/+2", "+18/+13/+8/+3", "+19/+14/+9/+4", "+20/+15/+10/+5",
    ),
    "moyenne": (
        "+0", "+1", "+2", "+3", "+3", "+4", "+5", "+6/+1", "+6/+1", "+7/+2",
        "+8/+3", "+9/+4", "+9/+4", "+10/+5", "+11/+6/+1",
        "+12/+7/+2", "+12/+7/+2", "+13/+8/+3", "+14/+9/+4", "+15/+10/+5",
    ),
    "faible": (
        "+0", "+1", "+1", "+2", "+2", "+3", "+3", "+4", "+4", "+5",
        "+5", "+6/+1", "+6/+1", "+7/+2", "+7/+2",
        "+8/+3", "+8/+3", "+9/+4", "+9/+4", "+10/+5",
    ),
}


def base_attack_of(progression: Progression, level: int) -> int:
    """R002.05: the first (highest) Base Attack value of a class level, read from the table."""
    return int(BASE_ATTACK_TABLE[progression][level - 1].split("/")[0])


ITERATIVE_STEPS: tuple[int, ...] = (6, 11, 16)
"""R002.04: an extra attack when Base Attack reaches 6, 11 and 16 (at most 4 attacks)."""

ITERATIVE_PENALTY = 5
"""R002.04: each extra attack is -5 relative to the previous one."""


# R002.08: Active Perception contexts (L13-16). Key -> (French label, what gives the bonus).
PerceptionBonus = Literal["base_attaque", "niveau_roublard", "rang_social", "rang_milieu"]


@dataclass(frozen=True, slots=True)
class PerceptionContext:
    label: str
    bonus: PerceptionBonus
    bonus_label: str


PERCEPTION_CONTEXTS: dict[str, PerceptionContext] = {
    "embuscade": PerceptionContext("Détecter une embuscade", "base_attaque", "Base Attaque"),
    "piege": PerceptionContext("Détecter un piège", "niveau_roublard",
                               "niveau de classe Roublard"),
    "mensonge": PerceptionContext("Détecter un mensonge", "rang_social", "rangs en Social"),
    "passage": PerceptionContext("Détecter un passage dissimulé/secret", "rang_milieu",
                                 "rangs en connaissance du milieu"),
}

PERCEPTION_ALIASES: dict[str, str] = {
    "detecter_une_embuscade": "embuscade", "ambush": "embuscade", "surprise": "embuscade",
    "detecter_un_piege": "piege", "trap": "piege",
    "detecter_un_mensonge": "mensonge", "lie": "mensonge",
    "detecter_un_passage": "passage", "passage_dissimule": "passage",
    "passage_secret": "passage", "detecter_un_passage_dissimule": "passage",
    "detecter_un_passage_secret": "passage", "hidden_passage": "passage",
}

ENVIRONMENT_KNOWLEDGE_DEFAULT: tuple[str, ...] = ("nature", "ingenierie")
"""R002.08: the document names Nature and Ingénierie as environment knowledges ("…")."""

SAVES: dict[str, str] = {"reflexes": "Réflexes", "vigueur": "Vigueur", "volonte": "Volonté"}
"""Saving throws (R002.15). Their bonuses are sheet data: the document gives no formula."""

SAVE_ABILITY: dict[str, str] = {"reflexes": "dexterite", "vigueur": "constitution",
                                "volonte": "sagesse"}
"""3.5 convention, used only when the sheet gives no bonus for a save (A002.16)."""


@dataclass(frozen=True, slots=True)
class ArmourData:
    """An armour or shield: AC bonus and armour check penalty (its magnitude), as data."""

    label: str
    ac_bonus: int
    check_penalty: int
    shield: bool = False
    source: str = ""


# A002.09: the document gives no armour list; the penalties are data. The values below reproduce
# the document's four DR examples (L92, E002.01-04). The AC bonuses and the first four penalties
# are the D&D 3.5 SRD values [External, non-authoritative]; the Cuirasse's 9 is not the SRD's 4:
# it is what the document's own example (Barbare 20 -> DR 9) requires.
ARMOURS: dict[str, ArmourData] = {
    "armure_de_plaques": ArmourData("Armure de plaques", 7, 7, source="SRD (demi-plate)"),
    "harnois": ArmourData("Harnois", 8, 6, source="SRD (harnois)"),
    "cotte_de_mailles": ArmourData("Cotte de mailles", 5, 5, source="SRD (cotte de mailles)"),
    "cuirasse": ArmourData("Cuirasse", 5, 9,
                           source="document L92 (RD 9 au niveau 20) ; le SRD dit 4"),
    "pavois": ArmourData("Pavois", 4, 10, shield=True, source="SRD (pavois)"),
}

MOVE_SQUARE_METRES = 1.5
"""R002.14: a Pas de Placement moves 1.5 m, one square (E002.07)."""

NOT_ACTING_INITIATIVE_BONUS = 5
"""R002.13: a character who does not act during a round adds 5 to their initiative."""

CRITICAL_MULTIPLIERS: tuple[int, ...] = (2, 3, 4)
"""R002.17: ×2, ×3, ×4 critical multipliers (Facteur de Critique)."""
