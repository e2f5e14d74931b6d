"""Cydonia, progression (RULES.md 1.4): XP costs and spending, awards, reputation."""

from __future__ import annotations

from collections.abc import Sequence

from jdr.core.frozen import frozen
from jdr.core.messages import Ref, arg, say
from jdr.core.results import Purchase
from jdr.core.system import Outcome, SheetChange, XpRequest
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.cydonia.config import CONFIG
from jdr.systems.cydonia.sheet import CydoniaSheet
from jdr.systems.cydonia.tables import (
    ABBREVIATIONS,
    BOUNTIES,
    CHARACTERISTICS,
    COMMON_AWARDS,
    HIT_POINTS_PER_XP,
    INDIVIDUAL_AWARDS,
    REPUTATION,
    SKILL_ALIASES,
    SKILLS,
    XP_CHARACTERISTIC,
    XP_HIT_POINTS,
    XP_SKILL,
    skill_label,
)


def xp_cost(kind: str) -> int:
    """R000.45: characteristic 4 XP, skill 2 XP, +3 HP or mana 1 XP."""
    return {"carac": XP_CHARACTERISTIC, "competence": XP_SKILL, "pv": XP_HIT_POINTS}[kind]


def spend(name: str, kind: str, label: str, current: int, available: int) -> Purchase:
    """R000.45, A000.33: +1 characteristic (cap 14) or skill (cap 10), or +3 HP."""
    cost = xp_cost(kind)
    step = HIT_POINTS_PER_XP if kind == "pv" else 1
    cap = {"carac": CONFIG.characteristic_cap, "competence": 10}.get(kind)
    if cap is not None and current + step > cap:
        raise RuleError(f"{label} est déjà à {current} : le maximum est {cap} (A000.33)")
    if available < cost:
        raise RuleError(f"{label} +{step} coûte {cost} XP, {name} n'en a que {available} (R000.45)")
    return Purchase(name, label, current, current + step, cost, available, available - cost,
                    rule="R000.45")


@frozen
class Awards:
    xp: int
    pa: int
    shira: int


def scenario_awards(events: Sequence[str], individual: Sequence[tuple[str, str]] = (),
                    shaman: bool = False) -> Awards:
    """R000.46, R000.47: common awards, then individual ones taken as XP or PA."""
    xp = pa = shira = 0
    for event in events:
        if event not in COMMON_AWARDS:
            raise RuleError(f"récompense « {event} » inconnue ({', '.join(COMMON_AWARDS)})")
        if event == "respect_du_kei" and shaman:
            pa += 1
            continue
        a, b, c = COMMON_AWARDS[event]
        xp, pa, shira = xp + a, pa + b, shira + c
    for award, taken in individual:
        if award not in INDIVIDUAL_AWARDS:
            raise RuleError(f"récompense « {award} » inconnue ({', '.join(INDIVIDUAL_AWARDS)})")
        gain_xp, gain_pa = INDIVIDUAL_AWARDS[award]
        if taken == "pa":
            if not gain_pa:
                raise RuleError(f"« {award} » ne donne que de l'XP (R000.47)")
            pa += gain_pa
        else:
            xp += gain_xp
    return Awards(xp, pa, shira)


def reputation_bonus(level: int) -> int:
    """R000.49: the absolute value of the level, positive or negative reputation alike."""
    return abs(level)


def reputation_title(level: int) -> str:
    return REPUTATION[level]


def bounty(level: int) -> int:
    """R000.48: the price on a bandit's head, in Po."""
    return BOUNTIES.get(level, 0)


def points_needed(level: int, direction: int) -> int:
    """R000.50, A000.32: to reach the adjacent level T you need |T| points (at least 1)."""
    target = level + direction
    return max(1, abs(target))


def gain_reputation(level: int, points: int, delta: int) -> tuple[int, int]:
    """R000.50, A000.32: signed points accumulate; reaching a level resets them to 0.

    Returns (level, points). Upward moves need +|T|, downward moves −|T| points.
    """
    points += delta
    while True:
        if points > 0 and level < 10 and points >= points_needed(level, +1):
            level, points = level + 1, 0
        elif points < 0 and level > -10 and -points >= points_needed(level, -1):
            level, points = level - 1, 0
        else:
            return level, points


# ------------------------------------------------------------------ `jdr xp`


def purchase(request: XpRequest[CydoniaSheet]) -> Outcome:
    """R000.45, A000.33: one purchase (`--pv`, `--carac` or `--competence`), XP written back."""
    sheet, doc = request.sheet.model, request.sheet.doc
    if request.hit_points:
        bought = spend(sheet.nom, "pv", "PV max", sheet.pv.max, sheet.xp)
        changes = [SheetChange(doc, ("pv", "max"), bought.after),
                   SheetChange(doc, ("pv", "actuels"), sheet.pv.actuels + HIT_POINTS_PER_XP)]
    elif request.carac:
        key = ABBREVIATIONS.get(normalize(request.carac), normalize(request.carac))
        if key not in CHARACTERISTICS:
            raise RuleError(unknown_name_message("caractéristique", request.carac, CHARACTERISTICS))
        bought = spend(sheet.nom, "carac", CHARACTERISTICS[key], sheet.caracteristiques[key], sheet.xp)
        changes = [SheetChange(doc, ("caracteristiques", key), bought.after)]
    else:
        if request.skill is None:
            raise RuleError(say(Ref("jdr xp : ", ""), "choisir ", arg("competence", kind="xp"), ", ",
                                arg("carac", kind="xp"), " ou ", arg("pv", kind="xp")))
        key = SKILL_ALIASES.get(normalize(request.skill), normalize(request.skill))
        if key not in SKILLS and key not in sheet.competences_libres:
            raise RuleError(unknown_name_message("compétence", request.skill,
                                                 [*SKILLS, *sheet.competences_libres]))
        bought = spend(sheet.nom, "competence", skill_label(key),
                       sheet.competences.get(key, 0), sheet.xp)
        changes = [SheetChange(doc, ("competences", key), bought.after)]
    changes.append(SheetChange(doc, ("xp",), bought.xp_after))
    return Outcome(bought, tuple(changes))
