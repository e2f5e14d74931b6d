"""What a sheet gives once the rules are applied: modifiers, Base Attack, AC, DR, HP, perception."""

from __future__ import annotations

from dataclasses import field

from jdr.core.check import Modifier
from jdr.core.french import Genre, state_label
from jdr.core.frozen import frozen
from jdr.core.results import Line
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.dd35.config import DEFAULT_RULES, Rules
from jdr.systems.dd35.sheet import Sheet, Weapon
from jdr.systems.dd35.tables import (
    ABILITIES,
    ABILITY_LABELS,
    CLASSES,
    ITERATIVE_PENALTY,
    ITERATIVE_STEPS,
    base_attack_of,
)


def ability_modifier(score: int) -> int:
    """A002.01: modifier = floor((score − 10) / 2), D&D 3.5."""
    return (score - 10) // 2


def base_attack(classes: dict[str, int]) -> int:
    """R002.03 + A002.07: the sum of each class's Base Attack (first value) for its level."""
    return sum(base_attack_of(CLASSES[name].progression, level) for name, level in classes.items())


def iterative_attacks(bab: int) -> tuple[int, ...]:
    """R002.04: +BAB, then −5 per extra attack once BAB reaches 6, 11, 16 (at most 4)."""
    count = 1 + sum(1 for step in ITERATIVE_STEPS if bab >= step)
    return tuple(bab - ITERATIVE_PENALTY * i for i in range(count))


def format_attacks(values: tuple[int, ...]) -> str:
    """`+8/+3` notation (R002.04)."""
    return "/".join(f"{v:+d}" for v in values)


def armour_damage_reduction(penalties: tuple[int, ...], bab: int,
                            rules: Rules = DEFAULT_RULES) -> int:
    """R002.07 + A002.09: armour DR = armour check penalty (armour + shield summed), capped by
    the Base Attack (A002.06: its first value)."""
    sizes = [abs(p) for p in penalties]
    raw = sum(sizes) if rules.sum_armour_and_shield_penalties else max(sizes, default=0)
    return max(0, min(raw, bab))


def total_damage_reduction(armour_dr: int, feat_dr: int, spell_dr: int = 0) -> int:
    """R002.07 + A002.10: armour DR stacks with class-feat DR, not with spells: the larger of
    (armour + feats) and the best spell DR."""
    return max(armour_dr + feat_dr, spell_dr)


def reduction_against(armour_dr: int, feat_dr: int, spell_dr: int, magic_weapon: bool) -> int:
    """The DR a hit meets. R002.07/R002.20 + A002.10 + A002.11 + D-002.40: only the armour's DR is
    /Magie, so a magic weapon bypasses that part alone; class-feat and spell DR still apply."""
    if magic_weapon:
        return max(feat_dr, spell_dr)
    return total_damage_reduction(armour_dr, feat_dr, spell_dr)


def apply_damage_reduction(damage: int, dr: int, magic_weapon: bool) -> int:
    """R002.07/R002.20 + A002.11 + A002.18: DR x/Magie does not apply to magic weapons; it is
    subtracted once from the hit's total damage; damage never goes below 0."""
    if magic_weapon:
        return max(0, damage)
    return max(0, damage - dr)


def hit_points_fixed(classes: dict[str, int], con_mod: int, rules: Rules = DEFAULT_RULES) -> int:
    """R002.02 + A002.13: first hit die at its maximum (the first class listed is the first
    level), each later level the class's fixed value; Constitution bonus on every level, at
    least `minimum_hp_per_level` per level."""
    total = 0
    first = True
    for name, level in classes.items():
        info = CLASSES[name]
        for _ in range(level):
            die = info.hit_die if first else info.fixed_hp
            first = False
            total += max(rules.minimum_hp_per_level, die + con_mod)
    return total


def hit_points_level_up(class_name: str, rolled: int | None, con_mod: int,
                        rules: Rules = DEFAULT_RULES) -> int:
    """R002.02: HP gained at a later level: the rolled die or the fixed value, + Constitution."""
    info = CLASSES[class_name]
    if rolled is not None and not 1 <= rolled <= info.hit_die:
        raise RuleError(f"jet de dé de vie {rolled} impossible pour {info.label} "
                        f"(d{info.hit_die} : de 1 à {info.hit_die})")
    gained = info.fixed_hp if rolled is None else rolled
    return max(rules.minimum_hp_per_level, gained + con_mod)


def armour_class(armour: int, shield: int, feats: int, dex_mod: int) -> int:
    """R002.06: AC = 10 + Armure + Bouclier + Dons + Bonus Dextérité."""
    return 10 + armour + shield + feats + dex_mod


def flat_footed_armour_class(ac: int, dex_mod: int, rules: Rules = DEFAULT_RULES) -> int:
    """R002.06 + A002.12: flat-footed removes the Dex bonus (only a positive one by default)."""
    if rules.remove_only_positive_dex_when_flat_footed:
        return ac - max(0, dex_mod)
    return ac - dex_mod


def passive_perception(level: int, wis_mod: int, misc: int = 0) -> int:
    """R002.09 + A002.02: 10 + character level (Hit Dice for creatures) + Mod Sag + divers."""
    return 10 + level + wis_mod + misc


@frozen
class Character:
    """A validated sheet with every derived value the document defines."""

    sheet: Sheet
    rules: Rules = field(default=DEFAULT_RULES)

    @property
    def name(self) -> str:
        return self.sheet.nom

    @property
    def genre(self) -> Genre:
        """How the messages agree (`genre` on the sheet; None: neutral wording)."""
        return self.sheet.genre

    def score(self, ability: str) -> int:
        return int(getattr(self.sheet.caracteristiques, ability))

    def mod(self, ability: str) -> int:
        """A002.01."""
        return ability_modifier(self.score(ability))

    @property
    def mods(self) -> dict[str, int]:
        return {a: self.mod(a) for a in ABILITIES}

    @property
    def level(self) -> int:
        """A002.02: character level = sum of class levels (Hit Dice for a creature)."""
        if self.sheet.des_de_vie is not None:
            return int(self.sheet.des_de_vie)
        return sum(self.sheet.classes.values())

    def class_level(self, name: str) -> int:
        return int(self.sheet.classes.get(name, 0))

    @property
    def bab(self) -> int:
        """R002.03."""
        return base_attack(dict(self.sheet.classes))

    @property
    def attacks(self) -> tuple[int, ...]:
        """R002.04."""
        return iterative_attacks(self.bab)

    @property
    def armour_ac(self) -> int:
        return self.sheet.armure.ac if self.sheet.armure else 0

    @property
    def shield_ac(self) -> int:
        return self.sheet.bouclier.ac if self.sheet.bouclier else 0

    @property
    def ac(self) -> int:
        """R002.06."""
        return armour_class(self.armour_ac, self.shield_ac, self.sheet.dons.ca,
                            self.mod("dexterite"))

    @property
    def flat_footed_ac(self) -> int:
        """R002.06 + A002.12."""
        return flat_footed_armour_class(self.ac, self.mod("dexterite"), self.rules)

    def ac_modifiers(self, flat_footed: bool = False) -> tuple[Modifier, ...]:
        dex = self.mod("dexterite")
        if flat_footed:
            dex = (min(0, dex) if self.rules.remove_only_positive_dex_when_flat_footed else 0)
        return (
            Modifier(10, "base", "R002.06"), Modifier(self.armour_ac, "armure", "R002.06"),
            Modifier(self.shield_ac, "bouclier", "R002.06"),
            Modifier(self.sheet.dons.ca, "dons", "R002.06"),
            Modifier(dex, "Dextérité" + (" (pris au dépourvu)" if flat_footed else ""),
                     "A002.12" if flat_footed else "R002.06"),
        )

    @property
    def armour_dr(self) -> int:
        """R002.07 + A002.09."""
        penalties = tuple(a.penalty for a in (self.sheet.armure, self.sheet.bouclier) if a)
        return armour_damage_reduction(penalties, self.bab, self.rules)

    def damage_reduction(self, spell_dr: int = 0, magic_weapon: bool = False) -> int:
        """R002.07 + A002.10; against a magic weapon, D-002.40 (the armour part is /Magie)."""
        return reduction_against(self.armour_dr, self.sheet.dons.rd, spell_dr, magic_weapon)

    @property
    def computed_hp(self) -> int:
        """R002.02, fixed values."""
        return hit_points_fixed(dict(self.sheet.classes), self.mod("constitution"), self.rules)

    @property
    def max_hp(self) -> int:
        """The sheet's `pv.max`, or (omitted) the fixed-value computation."""
        if self.sheet.pv is not None:
            return int(self.sheet.pv.max)
        return self.computed_hp

    @property
    def current_hp(self) -> int:
        if self.sheet.pv is not None:
            return int(self.sheet.pv.actuels)
        return self.computed_hp

    @property
    def out_of_combat(self) -> bool:
        """D-ALL.02: the document gives no rule below 0 HP ("État de santé" only counts them):
        at 0 HP or less the character is hors de combat and cannot act."""
        return self.current_hp <= 0

    @property
    def state(self) -> str:
        return "hors_de_combat" if self.out_of_combat else "debout"

    @property
    def incapacity(self) -> Line | None:
        """Why this character cannot act (French, with the rule id), or None."""
        if not self.out_of_combat:
            return None
        return Line(f"{state_label('hors_de_combat', self.genre)} ({self.current_hp} PV : 0 ou "
                    "moins)", "D-ALL.02")

    def require_able(self) -> None:
        """D-ALL.02: refuse any action (attack, manoeuvre, active check, rule) by a character
        who cannot act, with the same French line as the core's refusal."""
        why = self.incapacity
        if why is not None:
            raise RuleError(f"{self.name} ne peut pas agir : {why.text} ({why.rule})")

    def misc(self, key: str) -> int:
        return int(self.sheet.divers.get(key, 0))

    @property
    def passive_perception(self) -> int:
        """R002.09."""
        return passive_perception(self.level, self.mod("sagesse"), self.misc("perception_passive"))

    def passive_perception_modifiers(self) -> tuple[Modifier, ...]:
        return (
            Modifier(10, "base", "R002.09"),
            Modifier(self.level, "niveau de personnage", "A002.02"),
            Modifier(self.mod("sagesse"), "Mod Sag", "R002.09"),
            Modifier(self.misc("perception_passive"), "divers", "R002.09"),
        )

    @property
    def initiative_modifier(self) -> int:
        """R002.13: Bonus Dextérité + Dons (+ Magie + circonstance, given per roll)."""
        return self.mod("dexterite") + self.sheet.dons.initiative + self.misc("initiative")

    def initiative_modifiers(self) -> tuple[Modifier, ...]:
        return (
            Modifier(self.mod("dexterite"), "Dextérité", "R002.13"),
            Modifier(self.sheet.dons.initiative, "dons", "R002.13"),
            Modifier(self.misc("initiative"), "magie / divers", "R002.13"),
        )

    # -- attacks ------------------------------------------------------------

    def attack_modifiers(self, weapon: Weapon | None, ranged: bool | None = None,
                         offset: int = 0, circumstance: int = 0) -> tuple[Modifier, ...]:
        """R002.11 (melee: BAB + Force) / R002.12 (ranged: BAB + Dextérité) + Dons + Arme +
        circonstance. `offset` is the −5 per iterative attack (R002.04)."""
        is_ranged = ranged if ranged is not None else (
            weapon is not None and weapon.portee == "distance")
        ability = "dexterite" if is_ranged else "force"
        rule = "R002.12" if is_ranged else "R002.11"
        mods = [
            Modifier(self.bab - offset,
                     f"Base Attaque, attaque itérative -{offset}" if offset else "Base Attaque",
                     "R002.04" if offset else "R002.03"),
            Modifier(self.mod(ability), ABILITY_LABELS[ability], rule),
            Modifier(self.sheet.dons.attaque, "dons", rule),
        ]
        if weapon is not None:
            mods.append(Modifier(weapon.magie + weapon.bonus_attaque, f"arme ({weapon.nom})", rule))
        if circumstance:
            mods.append(Modifier(circumstance, "circonstance", rule))
        return tuple(m for m in mods if m.value or m.reason.startswith("Base"))

    @property
    def melee_bonus(self) -> int:
        """R002.11 without weapon or circumstance."""
        return sum(m.value for m in self.attack_modifiers(None, ranged=False))

    @property
    def ranged_bonus(self) -> int:
        """R002.12 without weapon or circumstance."""
        return sum(m.value for m in self.attack_modifiers(None, ranged=True))

    def damage_bonus(self, weapon: Weapon) -> tuple[Modifier, ...]:
        """R002.16 + A002.19: Bonus Force + Dons + Magie de l'arme."""
        strength = self.mod("force")
        if weapon.projectile and not self.rules.strength_on_projectiles:
            strength = 0
        mods = (Modifier(strength, "Force", "A002.19" if weapon.projectile else "R002.16"),
                Modifier(self.sheet.dons.degats, "dons", "R002.16"),
                Modifier(weapon.magie, "magie de l'arme", "R002.16"))
        return tuple(m for m in mods if m.value)

    def weapon(self, name: str | None) -> Weapon:
        """A weapon of the sheet by name (the first one when no name is given)."""
        weapons = self.sheet.armes
        if not weapons:
            raise RuleError(f"{self.name} n'a aucune arme sur sa fiche (clé armes)")
        if name is None:
            return weapons[0]
        wanted = normalize(name)
        for w in weapons:
            if normalize(w.nom) == wanted:
                return w
        raise RuleError(unknown_name_message("arme", name, [normalize(w.nom) for w in weapons]))

    def has_weapon(self, name: str) -> bool:
        wanted = normalize(name)
        return any(normalize(w.nom) == wanted for w in self.sheet.armes)
