"""Checks of dd35, each defined once (roll and odds): 1d20 + bonus vs DC or AC (R002.08-R002.18).

- Active Perception (R002.08): 1d20 + context bonus + Mod Int + divers vs a DC.
- Passive Perception (R002.09): no roll, a value (a difficulty to beat).
- Saving throw vs a manoeuvre's DC (R002.15, A002.16).
- Attack roll vs AC (R002.10): natural 20 hits and is critical (R002.17), natural 1 misses
  (D-002.17, configurable), a natural in the threat range that hits is a Coup Fantastique (R002.18).
- Opposed rolls (R002.08 "jet opposé approprié"): `CONTEST`, the tie rule as data.

A passive value is a `NoRoll` (`rolls = False`): the contest rule's `rolled` criterion reads it
from the result, so the roll and its exact odds decide ties alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from jdr.core.check import Check, Modifier, NaturalRoll, SingleDie, Verdict
from jdr.core.contest import ContestRule, Criterion
from jdr.dice.notation import Die
from jdr.dice.source import DiceSource
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

    label: str = "sans jet"
    rolls = False

    def roll(self, source: DiceSource) -> tuple[int, tuple[Die, ...]]:
        return 0, ()

    def distribution(self) -> icepool.Die:
        import icepool

        return icepool.Die([0])


@dataclass(frozen=True, slots=True)
class MeetsDC:
    """R002.08 / R002.15: the check succeeds when the total equals or exceeds the DC."""

    notes: tuple[str, ...] = ()

    def __call__(self, natural: object, total: int, threshold: int | None) -> Verdict:
        if threshold is None:
            return Verdict(None, notes=self.notes)
        return Verdict(total >= threshold, None, total - threshold, self.notes)


CONTEST = ContestRule(
    criteria=(
        Criterion("total"),
        Criterion("rolled", note="égalité contre une valeur passive : le jet l'emporte "
                                   "(il égale la difficulté)"),
        Criterion("bonus", note="égalité : le plus haut bonus l'emporte"),
    ),
    final="opponent",
    final_note="égalité parfaite : l'opposant l'emporte",
    rule="R002.08",
)
"""R002.08/R002.09 + 3.5 convention: the higher total wins; on equal totals a roll beats a
passive value (a difficulty is met by equalling it), then the higher bonus wins, then the
opponent."""


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
        return (Modifier(character.bab, "Base Attaque", "A002.06"),)
    if info.bonus == "niveau_roublard":
        return (Modifier(character.class_level("roublard"), "niveau de Roublard", "R002.08"),)
    if info.bonus == "rang_social":
        return (Modifier(int(character.sheet.competences.get("social", 0)), "rangs en Social",
                         "R002.08"),)
    skills = character.sheet.competences
    if environment is not None:
        key = normalize(environment)
        return (Modifier(int(skills.get(key, 0)), f"rangs en {key}", "R002.08"),)
    # A002.03: no environment given → the single highest applicable rank.
    candidates = [(int(skills.get(k, 0)), k) for k in ENVIRONMENT_KNOWLEDGE_DEFAULT]
    value, key = max(candidates)
    return (Modifier(value, f"rangs en {key} (meilleure connaissance du milieu)", "A002.03"),)


def _with_bonus(mods: tuple[Modifier, ...], bonus: int, reason: str = "bonus") -> tuple[Modifier, ...]:
    """The MJ's bonus (`--bonus`), when there is one."""
    return (*mods, Modifier(bonus, reason)) if bonus else mods


def active_perception(character: Character, context: str, threshold: int | None,
                      bonus: int = 0, environment: str | None = None) -> Check:
    """R002.08: Perception Active = 1d20 + Bonus (by context) + Mod Int + divers, vs a DC."""
    info = PERCEPTION_CONTEXTS[context]
    mods = (*perception_bonus(character, context, environment),
            Modifier(character.mod("intelligence"), "Mod Int", "R002.08"))
    misc = character.misc("perception") + bonus
    if misc:
        mods = (*mods, Modifier(misc, "divers", "R002.08"))
    return Check(f"{character.name} — Perception active : {info.label}", D20, mods, MeetsDC(),
                 threshold, rule="R002.08", who=character.name)


def passive_perception_check(character: Character, threshold: int | None,
                             bonus: int = 0) -> Check:
    """R002.09: no roll; the value itself (compared with a DC when one is given)."""
    mods = _with_bonus(character.passive_perception_modifiers(), bonus)
    return Check(f"{character.name} — Perception passive", NoRoll(), mods, MeetsDC(), threshold,
                 rule="R002.09", who=character.name)


def save_bonus(character: Character, save: str) -> Modifier:
    """The sheet's save bonus (data); without one, the 3.5 ability modifier (A002.16)."""
    if save in character.sheet.sauvegardes:
        return Modifier(int(character.sheet.sauvegardes[save]), f"sauvegarde {SAVES[save]}",
                        "R002.15")
    ability = SAVE_ABILITY[save]
    return Modifier(character.mod(ability),
                    f"{ABILITY_LABELS[ability]} (pas de bonus de {SAVES[save]} sur la fiche)",
                    "A002.16")


def manoeuvre_dc(attacker: Character, ability: str, rules: Rules = DEFAULT_RULES) -> int:
    """A002.16 placeholder, NOT in the source: DC = 10 + attacker's BAB + ability modifier."""
    return rules.manoeuvre_dc_base + attacker.bab + attacker.mod(ability)


PLACEHOLDER_DC = ("ND provisoire 10 + Base Attaque + modificateur de l'auteur, absent du "
                  "document : donnez le vrai ND si le MJ en a un")


def saving_throw(character: Character, save: str, dc: int | None, bonus: int = 0,
                 notes: tuple[str, ...] = ()) -> Check:
    """R002.15: the opponent of a manoeuvre rolls a save: 1d20 + save bonus ≥ DC."""
    mods = _with_bonus((save_bonus(character, save),), bonus)
    return Check(f"{character.name} — jet de Sauvegarde ({SAVES[save]})", D20, mods,
                 MeetsDC(notes), dc, rule="R002.15", who=character.name)


def ability_check(character: Character, ability: str, dc: int | None, bonus: int = 0) -> Check:
    """A002.01: a plain ability test, 1d20 + modifier vs DC (3.5 convention)."""
    mods = _with_bonus((Modifier(character.mod(ability), ABILITY_LABELS[ability], "A002.01"),),
                       bonus)
    return Check(f"{character.name} — test de {ABILITY_LABELS[ability]}", D20, mods, MeetsDC(), dc,
                 rule="A002.01", who=character.name)


def initiative_check(character: Character, bonus: int = 0) -> Check:
    """R002.13: Initiative = 1d20 + Bonus Dextérité + Dons + Magie + Bonus de Circonstance."""
    mods = _with_bonus(character.initiative_modifiers(), bonus, "circonstance")
    return Check(f"{character.name} — Initiative", D20, tuple(m for m in mods if m.value),
                 MeetsDC(), None, rule="R002.13", who=character.name)


def attack_check(attacker: Character, weapon: Weapon, ac: int | None, offset: int = 0,
                 circumstance: int = 0, rules: Rules = DEFAULT_RULES,
                 target: str = "") -> Check:
    """R002.10-R002.12, R002.17, R002.18, D-002.17: 1d20 + attack bonus vs the opponent's AC."""
    mods = attacker.attack_modifiers(weapon, offset=offset, circumstance=circumstance)
    who = f" contre {target}" if target else ""
    return Check(f"{attacker.name} — attaque ({weapon.nom}){who}", D20, mods,
                 AttackJudge(weapon.zone_critique, rules.natural_one_misses), ac,
                 rule="R002.10", who=attacker.name)
