"""Progression of dd35 (R002.19): levels, not XP. The document gives no XP table; gaining a level
adds one class level and its hit points (R002.02: rolled die or fixed value, + Constitution).
`jdr xp FICHE --pv --opt classe=NOM [--opt jet=N]` plays it; the result is a core `Purchase`
whose cost is 0."""

from __future__ import annotations

from jdr.core.frozen import frozen
from jdr.core.messages import say
from jdr.core.results import Line, Purchase
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.dd35.character import Character, hit_points_level_up
from jdr.systems.dd35.options import option
from jdr.systems.dd35.tables import CLASSES, MAX_LEVEL


@frozen
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

    def purchase(self) -> Purchase:
        """The core result: what was raised, from what to what, and the hit points."""
        info = CLASSES[self.class_name]
        how = (f"dé de vie lancé {self.rolled}" if self.rolled is not None
               else f"valeur fixe {info.fixed_hp}")
        notes = (
            Line(f"+{self.hp_gained} PV ({how} + Constitution)", "R002.02"),
            Line(f"PV max {self.hp_max_before} → {self.hp_max_after}", "R002.02"),
            Line("le document ne donne pas de table d'XP : un niveau ne coûte rien", "R002.19"),
        )
        return Purchase(self.name, f"niveau de {info.label}", self.new_level - 1,
                        self.new_level, 0, 0, 0, notes, "R002.19")


def hit_die_face(class_name: str, rolled: int | None) -> int | None:
    """D-ALL.03: a d10 entered by hand as 0 is a 10."""
    if rolled == 0 and CLASSES[class_name].hit_die == 10:
        return 10
    return rolled


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
        raise RuleError(say("pv_mode lance : donnez le dé de vie lancé avec ", option("jet", "N"),
                            f" (d{CLASSES[key].hit_die})"))
    rolled = hit_die_face(key, rolled)
    gained = hit_points_level_up(key, rolled, character.mod("constitution"), character.rules)
    before = character.max_hp
    return LevelUp(character.name, key, character.class_level(key) + 1, rolled, gained,
                   before, before + gained, character.current_hp + gained)
