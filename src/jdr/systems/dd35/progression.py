"""Progression of dd35 (R002.19): levels, not XP. The document gives no XP table; gaining a level
adds one class level and its hit points (R002.02: rolled die or fixed value, + Constitution)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.dd35.character import Character, hit_points_level_up
from jdr.systems.dd35.tables import CLASSES, MAX_LEVEL


@dataclass(frozen=True)
class LevelUp:
    """A level gained in a class: the new level and the hit points it brings."""

    name: str
    class_name: str
    new_level: int
    rolled: int | None
    hp_gained: int
    hp_max_before: int
    hp_max_after: int
    hp_current_after: int

    def to_json(self) -> dict[str, Any]:
        return {
            "cost": 0, "remaining": None, "class": self.class_name, "level": self.new_level,
            "rolled": self.rolled, "hp_gained": self.hp_gained,
            "hp_max": self.hp_max_after, "hp_current": self.hp_current_after,
        }

    def render(self) -> str:
        label = CLASSES[self.class_name].label
        how = (f"dé lancé {self.rolled}" if self.rolled is not None
               else f"valeur fixe {CLASSES[self.class_name].fixed_hp}")
        return (f"{self.name} passe {label} niveau {self.new_level} : +{self.hp_gained} PV "
                f"({how} + Constitution) ; PV max {self.hp_max_before} → {self.hp_max_after}. "
                "(Le document ne donne pas de table d'XP : aucun coût.)")


def level_up(character: Character, class_name: str, rolled: int | None) -> LevelUp:
    """R002.19 + R002.02 + A002.13: one more level in a class (a new class's first level is not
    the character's first level, so it uses the roll or the fixed value too)."""
    key = normalize(class_name)
    if key not in CLASSES:
        raise RuleError(unknown_name_message("classe", class_name, CLASSES))
    if character.level + 1 > MAX_LEVEL:
        raise RuleError(f"niveau de personnage {character.level + 1} hors limites "
                        f"(autorisé : de 1 à {MAX_LEVEL})")
    if rolled is None and character.sheet.pv_mode == "lance":
        raise RuleError(f"pv_mode lance : donnez le dé de vie lancé avec --opt jet=N "
                        f"(d{CLASSES[key].hit_die})")
    gained = hit_points_level_up(key, rolled, character.mod("constitution"), character.rules)
    before = character.max_hp
    return LevelUp(character.name, key, character.class_level(key) + 1, rolled, gained,
                   before, before + gained, character.current_hp + gained)
