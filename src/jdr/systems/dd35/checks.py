"""Checks of dd35, each defined once (roll and odds): 1d20 + bonus vs DC or AC (R002.08-R002.18).

- Active Perception (R002.08): 1d20 + context bonus + Mod Int + divers vs a DC.
- Passive Perception (R002.09): no roll, a value.
- Saving throw vs a manoeuvre's DC (R002.15, A002.16).
- Attack roll vs AC (R002.10): natural 20 hits and is critical (R002.17), natural 1 misses
  (D-002.17, configurable), a natural in the threat range that hits is a Coup Fantastique (R002.18).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from jdr.core.check import Check, Modifier, NaturalRoll, SingleDie, Verdict
from jdr.dice.notation import Die
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.dd35.character import Character
from jdr.systems.dd35.config import DEFAULT_RULES, Rules
from jdr.systems.dd35.sheet import Weapon
from jdr.systems.dd35.tables import (
    ABILITY_LABELS,
    ENVIRONMENT_KNOWLEDGE_DEFAULT,
    PERCEPTION_ALIASES,
    PERCEPTION_CONTEXTS,
    SAVE_ABILITY,
    SAVES,
)

if TYPE_CHECKING:
    import icepool

D20 = SingleDie(20)


@dataclass(frozen=True, slots=True)
class NoRoll(NaturalRoll):
    """A value without dice (Passive Perception, R002.09): the natural value is 0."""

    @property
    def label(self) -> str:  # type: ignore[override]
        return "sans jet"

    def roll(self, source: DiceSource) -> tuple[int, tuple[Die, ...]]:
        return 0, ()

    def distribution(self) -> icepool.Die:
        import icepool

        return icepool.Die([0])


@dataclass(frozen=True, slots=True)
class MeetsDC:
    """R002.08 / R002.15: the check succeeds when the total equals or exceeds the DC."""

    def __call__(self, natural: object, total: int, threshold: int | None) -> Verdict:
        if threshold is None:
            return Verdict(None)
        return Verdict(total >= threshold, None, total - threshold)


@dataclass(frozen=True, slots=True)
class AttackJudge:
    """R002.10 (total ≥ AC hits), R002.17 (natural 20: automatic hit, critical), R002.18 (threat
    range: a hit is a Coup Fantastique, damage as a critical; no confirmation roll), D-002.17
    (natural 1: automatic miss, unless `natural_one_misses` is off)."""

    threat: int = 20
    natural_one_misses: bool = True

    def __call__(self, natural: object, total: int, threshold: int | None) -> Verdict:
        assert isinstance(natural, int)
        margin = None if threshold is None else total - threshold
        if natural == 20:
            return Verdict(True, "success", margin, ("20 naturel : touche automatiquement, "
                                                     "coup critique",))
        if natural == 1 and self.natural_one_misses:
            return Verdict(False, "failure", margin, ("1 naturel : échec automatique",))
        if threshold is None:
            return Verdict(None)
        hit = total >= threshold
        if hit and natural >= self.threat:
            return Verdict(True, "success", margin,
                           (f"{natural} dans la zone de critique ({self.threat}-20) et le coup "
                            "touche : Coup Fantastique, dégâts comme un critique",))
        notes: tuple[str, ...] = ()
        if natural >= self.threat:
            notes = (f"{natural} dans la zone de critique mais le coup ne touche pas : "
                     "pas de Coup Fantastique",)
        return Verdict(hit, None, margin, notes)


def parse_threshold(text: str | None) -> int | None:
    """`--seuil 15` → 15. dd35 has no ladder of difficulty names (ND are numbers)."""
    if text is None:
        return None
    try:
        return int(str(text).strip())
    except ValueError:
        raise RuleError(f"--seuil « {text} » : le système dd35 attend un ND en nombre "
                        "(exemple : --seuil 15)") from None


def perception_context(name: str) -> str | None:
    """The canonical Active Perception context of a name, or None."""
    key = normalize(name)
    key = PERCEPTION_ALIASES.get(key, key)
    return key if key in PERCEPTION_CONTEXTS else None


def perception_bonus(character: Character, context: str, environment: str | None = None
                     ) -> tuple[Modifier, ...]:
    """R002.08 (+ A002.06 first BAB value): the context's bonus."""
    info = PERCEPTION_CONTEXTS[context]
    if info.bonus == "base_attaque":
        return (Modifier(character.bab, "Base Attaque"),)
    if info.bonus == "niveau_roublard":
        return (Modifier(character.class_level("roublard"), "niveau de Roublard"),)
    if info.bonus == "rang_social":
        return (Modifier(int(character.sheet.competences.get("social", 0)), "rangs en Social"),)
    skills = character.sheet.competences
    if environment is not None:
        key = normalize(environment)
        return (Modifier(int(skills.get(key, 0)), f"rangs en {key}"),)
    # A002.03: no environment given → the single highest applicable rank.
    candidates = [(int(skills.get(k, 0)), k) for k in ENVIRONMENT_KNOWLEDGE_DEFAULT]
    value, key = max(candidates)
    return (Modifier(value, f"rangs en {key} (meilleure connaissance du milieu)"),)


def active_perception(character: Character, context: str, threshold: int | None,
                      bonus: int = 0, environment: str | None = None) -> Check:
    """R002.08: Perception Active = 1d20 + Bonus (by context) + Mod Int + divers, vs a DC."""
    info = PERCEPTION_CONTEXTS[context]
    mods = (*perception_bonus(character, context, environment),
            Modifier(character.mod("intelligence"), "Mod Int"))
    misc = character.misc("perception") + bonus
    if misc:
        mods = (*mods, Modifier(misc, "divers"))
    return Check(f"{character.name} — Perception active : {info.label}", D20, mods, MeetsDC(),
                 threshold, rule="R002.08")


def passive_perception_check(character: Character, threshold: int | None,
                             bonus: int = 0) -> Check:
    """R002.09: no roll; the value itself (compared with a DC when one is given)."""
    mods = character.passive_perception_modifiers()
    if bonus:
        mods = (*mods, Modifier(bonus, "bonus"))
    return Check(f"{character.name} — Perception passive", NoRoll(), mods, MeetsDC(), threshold,
                 rule="R002.09")


def save_bonus(character: Character, save: str) -> Modifier:
    """The sheet's save bonus (data); without one, the 3.5 ability modifier (A002.16)."""
    if save in character.sheet.sauvegardes:
        return Modifier(int(character.sheet.sauvegardes[save]), f"sauvegarde {SAVES[save]}")
    ability = SAVE_ABILITY[save]
    return Modifier(character.mod(ability),
                    f"{ABILITY_LABELS[ability]} (pas de bonus de {SAVES[save]} sur la fiche)")


def manoeuvre_dc(attacker: Character, ability: str, rules: Rules = DEFAULT_RULES) -> int:
    """A002.16 placeholder, NOT in the source: DC = 10 + attacker's BAB + ability modifier."""
    return rules.manoeuvre_dc_base + attacker.bab + attacker.mod(ability)


def saving_throw(character: Character, save: str, dc: int | None, bonus: int = 0) -> Check:
    """R002.15: the opponent of a manoeuvre rolls a save: 1d20 + save bonus ≥ DC."""
    mods: tuple[Modifier, ...] = (save_bonus(character, save),)
    if bonus:
        mods = (*mods, Modifier(bonus, "bonus"))
    return Check(f"{character.name} — jet de Sauvegarde ({SAVES[save]})", D20, mods, MeetsDC(),
                 dc, rule="R002.15")


def ability_check(character: Character, ability: str, dc: int | None, bonus: int = 0) -> Check:
    """A002.01: a plain ability test, 1d20 + modifier vs DC (3.5 convention)."""
    mods: tuple[Modifier, ...] = (Modifier(character.mod(ability), ABILITY_LABELS[ability]),)
    if bonus:
        mods = (*mods, Modifier(bonus, "bonus"))
    return Check(f"{character.name} — test de {ABILITY_LABELS[ability]}", D20, mods, MeetsDC(), dc,
                 rule="A002.01")


def initiative_check(character: Character, bonus: int = 0) -> Check:
    """R002.13: Initiative = 1d20 + Bonus Dextérité + Dons + Magie + Bonus de Circonstance."""
    mods = character.initiative_modifiers()
    if bonus:
        mods = (*mods, Modifier(bonus, "circonstance"))
    return Check(f"{character.name} — Initiative", D20, tuple(m for m in mods if m.value),
                 MeetsDC(), None, rule="R002.13")


def attack_check(attacker: Character, weapon: Weapon, ac: int | None, offset: int = 0,
                 circumstance: int = 0, rules: Rules = DEFAULT_RULES,
                 target: str = "") -> Check:
    """R002.10-R002.12, R002.17, R002.18, D-002.17: 1d20 + attack bonus vs the opponent's AC."""
    mods = attacker.attack_modifiers(weapon, offset=offset, circumstance=circumstance)
    who = f" contre {target}" if target else ""
    return Check(f"{attacker.name} — attaque ({weapon.nom}){who}", D20, mods,
                 AttackJudge(weapon.zone_critique, rules.natural_one_misses), ac,
                 rule="R002.10")
