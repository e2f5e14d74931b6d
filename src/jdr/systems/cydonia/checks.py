"""Cydonia, resolution (RULES.md 1.2): Caractéristique + Compétence + 1D10.

One judge (`judge`) decides every Cydonia roll; `Check` gives both the roll and its exact odds.
"""

from __future__ import annotations

from dataclasses import dataclass

from jdr.core.check import Check, Critical, KeepOne, Modifier, Natural, NaturalRoll, SingleDie, Verdict
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.cydonia.sheet import CydoniaSheet
from jdr.systems.cydonia.tables import (
    ABBREVIATIONS,
    CHARACTERISTICS,
    CONFIG,
    LADDER,
    SKILL_ALIASES,
    SKILLS,
)

D10 = SingleDie(10)


def judge(natural: Natural, total: int, threshold: int | None) -> Verdict:
    """R000.14, R000.18, A000.01, A000.03, D-000.03.

    Natural 10 on the kept die is a critical success, natural 1 a critical failure. Against a
    threshold, success is total ≥ threshold (A000.01), a critical success always succeeds and a
    critical failure always fails (D-000.03). Without a threshold (opposed rolls) only the
    criticals are reported.
    """
    critical: Critical = "success" if natural == 10 else "failure" if natural == 1 else None
    if threshold is None:
        return Verdict(None, critical, None)
    reached = total >= threshold if CONFIG.threshold_inclusive else total > threshold
    notes: tuple[str, ...] = ()
    if critical == "success" and not reached:
        notes = ("réussite critique : réussit quel que soit le total (D-000.03)",)
    elif critical == "failure" and reached:
        notes = ("échec critique : échoue quel que soit le total (D-000.03)",)
    success = True if critical == "success" else False if critical == "failure" else reached
    return Verdict(success, critical, total - threshold, notes)


def threshold_value(text: str | int | None) -> int | None:
    """R000.14 / D-000.45: a number, or a ladder name (`difficile`, `Très difficile`, ...)."""
    if text is None or isinstance(text, int):
        return text
    stripped = text.strip()
    if stripped.lstrip("-").isdigit():
        return int(stripped)
    key = normalize(stripped)
    if key in LADDER:
        return LADDER[key]
    raise RuleError(unknown_name_message("seuil", text, LADDER) + " (ou un nombre)")


@dataclass(frozen=True)
class Character:
    """A validated sheet seen through the rules: effective values with their item bonuses."""

    sheet: CydoniaSheet

    @property
    def name(self) -> str:
        return self.sheet.nom

    def _items(self, stat: str) -> int:
        total = 0
        for item in self.sheet.objets:
            if item.equipe:
                for key, bonus in item.bonus.items():
                    if ABBREVIATIONS.get(key, key) == stat:
                        total += int(bonus)
        return total

    def characteristic(self, name: str) -> int:
        """Base + item bonuses (R000.53) + werewolf transformation (R000.40)."""
        value = int(self.sheet.caracteristiques[name]) + self._items(name)
        if self.sheet.etat.transformation and name in ("physique", "agilite"):
            value += self.skill("transformation")
        return value

    def skill(self, name: str) -> int:
        return int(self.sheet.competences.get(name, 0)) + self._items(name)

    def is_expert(self, skill: str) -> bool:
        return any(SKILL_ALIASES.get(normalize(s), normalize(s)) == skill
                   for s in self.sheet.expertes)

    def skill_characteristic(self, skill: str) -> str | None:
        if skill in self.sheet.competences_libres:
            return str(self.sheet.competences_libres[skill])
        return SKILLS[skill]

    @property
    def malus(self) -> int:
        return int(self.sheet.etat.malus)

    def resolve_skill(self, name: str) -> tuple[str, str]:
        """('skill'|'carac'|'special', canonical name) for a name typed by a person."""
        key = normalize(name)
        if key in ("resistance_physique", "resistance_mentale", "initiative"):
            return "special", key
        key = ABBREVIATIONS.get(key, key)
        if key in CHARACTERISTICS:
            return "carac", key
        key = SKILL_ALIASES.get(key, key)
        if key in SKILLS or key in self.sheet.competences_libres:
            return "skill", key
        known = [*SKILLS, *self.sheet.competences_libres, *CHARACTERISTICS,
                 "resistance_physique", "resistance_mentale"]
        raise RuleError(unknown_name_message("compétence", name, known))


def _natural(character: Character, skill: str | None, choice: int | None) -> NaturalRoll:
    """R000.06 / R000.17: an expert skill rolls 2D10 and keeps one (the better by default)."""
    if skill is not None and character.is_expert(skill):
        if choice is not None and choice not in (1, 2):
            raise RuleError(f"--choix {choice} : un jet expert garde le dé 1 ou le dé 2")
        return KeepOne(2, 10, choice)
    if choice is not None:
        raise RuleError("--choix : seul un jet de compétence experte lance deux dés (R000.06)")
    return D10


def _common(character: Character, bonus: int, extra: tuple[Modifier, ...]) -> tuple[Modifier, ...]:
    mods = list(extra)
    if character.malus:
        mods.append(Modifier(character.malus, "malus en cours (A000.16)"))
    if bonus:
        mods.append(Modifier(bonus, "bonus du MJ" if bonus > 0 else "malus du MJ"))
    return tuple(mods)


def skill_check(
    character: Character,
    name: str,
    *,
    carac: str | None = None,
    threshold: int | None = None,
    bonus: int = 0,
    choice: int | None = None,
    extra: tuple[Modifier, ...] = (),
) -> Check:
    """R000.11: Compétence + Caractéristique + 1D10 (R000.12 for rolls without a skill)."""
    kind, key = character.resolve_skill(name)
    if kind == "special":
        if key == "initiative":
            raise RuleError("l'initiative n'est pas un jet : voir « jdr initiative » (R000.21)")
        return resistance_check(character, key, threshold=threshold, bonus=bonus, extra=extra)
    if kind == "carac":
        if carac is not None:
            raise RuleError("--carac ne s'emploie qu'avec une compétence")
        value = character.characteristic(key)
        rule = "R000.12" if key == "courage" else "R000.12 (caractéristique seule)"
        mods = (Modifier(value, CHARACTERISTICS[key]), *_common(character, bonus, extra))
        return Check(CHARACTERISTICS[key], _natural(character, None, choice), mods, judge,
                     threshold, rule)
    linked = character.skill_characteristic(key)
    if carac is not None:
        wanted = ABBREVIATIONS.get(normalize(carac), normalize(carac))
        if wanted not in CHARACTERISTICS:
            raise RuleError(unknown_name_message("caractéristique", carac, CHARACTERISTICS))
        # R000.04: Métier may use Dex or Men; for any other skill the MJ may call for another.
        linked = wanted
    skill_value = character.skill(key)
    mods_list = [Modifier(skill_value, _label(key))]
    if linked is not None:
        mods_list.insert(0, Modifier(character.characteristic(linked), CHARACTERISTICS[linked]))
    label = _label(key) + (f" ({CHARACTERISTICS[linked]})" if linked else "")
    mods = (*mods_list, *_common(character, bonus, extra))
    rule = "R000.11" + (", R000.06" if character.is_expert(key) else "")
    if key == "transformation":
        rule = "R000.40, A000.41"
    return Check(label, _natural(character, key, choice), mods, judge, threshold, rule)


def resistance_check(
    character: Character, which: str, *, threshold: int | None = None, bonus: int = 0,
    extra: tuple[Modifier, ...] = (),
) -> Check:
    """R000.07: Résistance Physique = Courage + Physique + 1D10; Mentale = Courage + Mental + 1D10."""
    second = "physique" if which == "resistance_physique" else "mental"
    label = "Résistance Physique" if second == "physique" else "Résistance Mentale"
    mods = (
        Modifier(character.characteristic("courage"), "Courage"),
        Modifier(character.characteristic(second), CHARACTERISTICS[second]),
        *_common(character, bonus, extra),
    )
    return Check(label, D10, mods, judge, threshold, "R000.07")


def raw_check(label: str, parts: tuple[Modifier, ...], threshold: int | None = None,
              rule: str = "") -> Check:
    """A roll of the standard form (values + 1D10) that is not a sheet skill (mounts, Kravkar)."""
    return Check(label, D10, parts, judge, threshold, rule)


def _label(key: str) -> str:
    return key.replace("_", " ").capitalize()
