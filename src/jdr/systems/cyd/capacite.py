"""La Capacité (R003.06, R003.09) and the test built on it (R003.05, R003.07): the attribute the
MJ picks plus the skill, minus 3 for a skill at 0, plus the die the player chose.
"""

from __future__ import annotations

from jdr.core.check import Modifier
from jdr.core.french import de
from jdr.core.frozen import frozen
from jdr.core.messages import Message, arg, say
from jdr.errors import RuleError
from jdr.names import lookup, normalize, unknown_name_message
from jdr.systems.cyd import tables
from jdr.systems.cyd.dice import CydCheck, CydDie, CydJudge, PredilectionRoll
from jdr.systems.cyd.sheet import CydSheet


@frozen
class Capacity:
    """R003.06 / R003.09: Capacité = attribute + skill, minus 3 when the skill is 0."""

    character: str
    attribute: str
    attribute_value: int
    skill: str
    skill_value: int

    @property
    def modifiers(self) -> tuple[Modifier, ...]:
        mods = [
            Modifier(self.attribute_value, tables.ATTRIBUTE_LABELS[self.attribute], "R003.06"),
            Modifier(self.skill_value, self.skill, "R003.06"),
        ]
        if self.skill_value == 0:
            mods.append(Modifier(tables.UNTRAINED_SKILL_MALUS, "compétence à 0", "R003.09"))
        return tuple(mods)

    @property
    def value(self) -> int:
        """A003.15: may be negative (attribute < 3 with the skill at 0)."""
        return sum(m.value for m in self.modifiers)

    @property
    def label(self) -> str:
        return f"{tables.ATTRIBUTE_LABELS[self.attribute]} + {self.skill}"

    def describe(self) -> str:
        text = (f"{tables.ATTRIBUTE_LABELS[self.attribute]} {self.attribute_value} + "
                f"{self.skill} {self.skill_value}")
        if self.skill_value == 0:
            text += f" − {-tables.UNTRAINED_SKILL_MALUS}"
        return f"{text} = Capacité {self.value}"


def attribute_name(name: str) -> str:
    """R003.01 / A003.18: the attribute the MJ picks, by any spelling (D-ALL.01)."""
    key = normalize(name)
    if key not in tables.ATTRIBUTES:
        raise RuleError(unknown_name_message("attribut", name, tables.ATTRIBUTES))
    return key


def capacity(sheet: CydSheet, skill: str, carac: str | None) -> Capacity:
    """R003.06: the MJ decides the attribute and the skill; the skill's usual attribute
    (`attribut_usuel`) is the default, `--carac` picks another (A003.18)."""
    key, value = lookup(skill, sheet.skills, f"compétence {de(sheet.nom)}")
    if carac:
        attribute = attribute_name(carac)
    elif key in sheet.usual:
        attribute = sheet.usual[key]
    else:
        raise RuleError(say(
            f"la compétence « {key} » {de(sheet.nom)} n'a pas d'attribut usuel : le MJ le "
            "choisit avec ", arg("carac"), f" ({', '.join(tables.ATTRIBUTES)})"))
    return Capacity(sheet.nom, attribute, sheet.attributs.get(attribute), key, value)


def die_name(value: str, where: Message | None = None) -> str:
    """R003.05: only the d10 and the d20 exist in this system."""
    text = normalize(value)
    if text in ("10", "1d10"):
        text = "d10"
    if text in ("20", "1d20"):
        text = "d20"
    if text not in tables.DICE:
        raise RuleError(say(arg("de") if where is None else where, f" : dé « {value[:40]} » "
                            "impossible dans le système CYD ; choisissez d10 (prudent) ou d20 "
                            "(risqué)"))
    return text


def choose_die(value: str | None) -> str:
    """R003.05 / D-003.20: the player must choose the d10 or the d20; without `--de` the player
    has not chosen, and the command refuses (no terminal prompt in the rules layer)."""
    if not value:
        raise RuleError(say("choisissez votre dé : ", arg("de", "d10|d20"), " (d10 prudent, d20 "
                            "risqué : une face impaire compte 0, 1 et 11 sont des échecs "
                            "dramatiques)"))
    return die_name(value)


def make_check(cap: Capacity, die: str, extra: tuple[Modifier, ...], threshold: int | None,
               natural: CydDie | PredilectionRoll | None = None) -> CydCheck:
    """R003.07: final result = Capacité + the die (R003.08 for the d20), judged by CydJudge; the
    skill value rides along for the tie rule of opposed tests (R003.13)."""
    sides = tables.DICE[die]
    return CydCheck(
        label=f"{cap.character} : {cap.label} ({die})",
        natural=natural if natural is not None else CydDie(sides),
        modifiers=cap.modifiers + extra,
        judge=CydJudge(sides),
        threshold=threshold,
        rule="R003.07",
        who=cap.character,
        stats=(("skill", cap.skill_value),),
    )
