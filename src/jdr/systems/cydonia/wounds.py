"""Cydonia, what a blow does (RULES.md 1.3, R000.25–R000.42): location, damage, protection,
death and dying, knock-out and waking up, and the small combat formulas (concentration, Kravkar,
transformation)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from jdr.core.compile import expression_law
from jdr.core.frozen import frozen
from jdr.core.messages import given, say
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cydonia.checks import Character
from jdr.systems.cydonia.config import CONFIG
from jdr.systems.cydonia.tables import (
    ABBREVIATIONS,
    CAC_LOCATIONS,
    CHARACTERISTICS,
    VERY_PRECISE_CAC,
    VERY_PRECISE_WEAPON,
    WEAPON_LOCATIONS,
    Zone,
)

if TYPE_CHECKING:
    from jdr.dice.notation import RollResult

# ------------------------------------------------------------------ location


def location_bonus(margin: int, cap: int | None = None) -> int:
    """R000.29: the attack's margin, at most 5."""
    return min(margin, CONFIG.location_bonus_cap if cap is None else cap)


def location_total(raw: int, margin: int, mounted_attacker: bool = False,
                   mounted_defender: bool = False) -> int:
    """R000.29, R000.38, A000.08, A000.09: raw d20 + capped margin ± 5 mounted, clamped 1–20."""
    total = raw + location_bonus(margin)
    if mounted_attacker:
        total += 5
    if mounted_defender:
        total -= 5
    return max(1, min(20, total))


def zone_for(number: int, cac: bool) -> Zone:
    """R000.26 / R000.27."""
    return (CAC_LOCATIONS if cac else WEAPON_LOCATIONS)[number]


def aimed_malus(zone: str, cac: bool) -> int:
    """R000.30, A000.38: −8 for a very precise zone (Gorge, Tête; CAC: Bijoux, Glotte), else −6."""
    key = normalize(zone)
    very = VERY_PRECISE_CAC if cac else VERY_PRECISE_WEAPON
    return -8 if key in very else -6


def aimed_zone(zone: str, cac: bool) -> tuple[int, Zone]:
    """R000.30: the row an aimed attack names (its number, its zone)."""
    table = CAC_LOCATIONS if cac else WEAPON_LOCATIONS
    key = normalize(zone)
    for number, z in table.items():
        if normalize(z.name) == key:
            return number, z
    names = sorted({normalize(z.name) for z in table.values()})
    raise RuleError(say(given("visee", zone), f" : zone inconnue (autorisé : "
                        f"{', '.join(names)})"))


def is_vital(zone: Zone) -> bool:
    """R000.34, A000.11."""
    return zone.name in CONFIG.vital_zones


# ------------------------------------------------------------------ small formulas


def concentration_bonus(turns: int) -> int:
    """R000.36: +2 per turn not played, at most 3 turns."""
    return 2 * min(max(turns, 0), 3)


def kravkar_malus(action: int) -> int:
    """R000.42: action n of a Kravkar sequence has −3 × (n − 1)."""
    if action < 1:
        raise RuleError("Kravkar : les actions se comptent à partir de 1")
    return -3 * (action - 1)


def transformed(physique: int, agilite: int, transformation: int) -> tuple[int, int, int]:
    """R000.40: Transformation is added to Physique and Agilité (even above 14); lasts that many turns."""
    return physique + transformation, agilite + transformation, transformation


# ------------------------------------------------------------------ damage


def suffered_damage(raw: int, protection: int) -> int:
    """R000.31, R000.33: damage − protection, floored at 0."""
    return max(0, raw - protection)


def protection_for(character: Character, zone: Zone) -> int:
    """A000.14: the piece covering the zone, or a global `toutes`."""
    prot = character.sheet.protections
    return int(prot.get(zone.armour, prot.get("toutes", 0)))


def adds_physique(formula: str) -> bool:
    """D-000.46: a formula naming PHY already counts Physique; otherwise it is added."""
    from jdr.dice.notation import names_in  # free notation: not imported by a check

    return not any(ABBREVIATIONS.get(n, n) == "physique" for n in names_in(formula))


def weapon_damage(character: Character, formula: str, source: DiceSource) -> tuple[int, RollResult, bool]:
    """R000.31, D-000.46: the formula rolled, Physique added when it does not name it.

    Returns (total, the formula's roll, whether Physique was added)."""
    from jdr.dice.notation import roll

    result = roll(formula, source, _variables(character))
    added = adds_physique(formula)
    return result.total + (character.characteristic("physique") if added else 0), result, added


def weapon_damage_law(character: Character, formula: str) -> dict[int, Fraction] | None:
    """The exact law of `weapon_damage`'s total (the formula's own odds, Physique added the
    same way); None when the formula's law is not computed whole (explosions)."""
    found = expression_law(formula, _variables(character))
    if found is None:
        return None
    shift = character.characteristic("physique") if adds_physique(formula) else 0
    return {value + shift: p for value, p in found.items()}


def _variables(character: Character) -> dict[str, int]:
    values: dict[str, int] = {}
    for key in CHARACTERISTICS:
        values[key] = character.characteristic(key)
    for abbr, key in ABBREVIATIONS.items():
        values[abbr] = values[key]
    return values


# ------------------------------------------------------------------ death, dying, knock-out


@frozen
class StateAfter:
    hit_points: int
    dying: bool
    dead: bool

    @property
    def label(self) -> str:
        return "mort" if self.dead else "mourant" if self.dying else "debout"


def state_after(hit_points: int, damage: int, zone: Zone | None, was_dying: bool = False) -> StateAfter:
    """R000.34, A000.12, D-000.48: at ≤ 0 HP a vital zone kills, any other leaves the character
    dying. A dying character hit again in a vital zone dies (if the blow hurt: damage ≥ 1)."""
    hp = hit_points - damage
    if hp > 0 and not was_dying:
        return StateAfter(hp, False, False)
    vital = zone is not None and is_vital(zone)
    if vital and ((hp <= 0 and not was_dying) or (was_dying and damage > 0)):
        return StateAfter(hp, False, True)
    return StateAfter(hp, hp <= 0 or was_dying, False)


def knockout(resistance_total: int, damage: int) -> bool:
    """R000.41: knocked out unless Résistance Physique is greater than the damage."""
    return not resistance_total > damage


def wake_difficulty(damage: int, attempt: int) -> int:
    """R000.41, A000.29: the t-th wake-up attempt has difficulty damage − t (never below 0)."""
    return max(0, damage - attempt)


def wakes(resistance_total: int, damage: int, attempt: int) -> bool:
    """R000.41, D-000.49: the roll must be strictly greater than the difficulty."""
    return resistance_total > wake_difficulty(damage, attempt)
