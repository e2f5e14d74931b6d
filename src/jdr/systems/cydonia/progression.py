"""Cydonia, progression (RULES.md 1.4): XP costs and spending, awards, reputation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jdr.errors import RuleError
from jdr.systems.cydonia.tables import (
    BOUNTIES,
    COMMON_AWARDS,
    CONFIG,
    HIT_POINTS_PER_XP,
    INDIVIDUAL_AWARDS,
    REPUTATION,
    XP_CHARACTERISTIC,
    XP_HIT_POINTS,
    XP_SKILL,
)


@dataclass(frozen=True)
class XpResult:
    name: str
    purchase: str
    before: int
    after: int
    cost: int
    remaining: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "purchase": self.purchase, "before": self.before,
                "after": self.after, "cost": self.cost, "remaining": self.remaining}

    def render(self) -> str:
        return (f"{self.name} : {self.purchase} {self.before} → {self.after} pour {self.cost} XP "
                f"(R000.45) ; reste {self.remaining} XP")


def xp_cost(kind: str) -> int:
    """R000.45: characteristic 4 XP, skill 2 XP, +3 HP or mana 1 XP."""
    return {"carac": XP_CHARACTERISTIC, "competence": XP_SKILL, "pv": XP_HIT_POINTS}[kind]


def spend(name: str, kind: str, label: str, current: int, available: int) -> XpResult:
    """R000.45, A000.33: +1 characteristic (cap 14) or skill (cap 10), or +3 HP."""
    cost = xp_cost(kind)
    step = HIT_POINTS_PER_XP if kind == "pv" else 1
    cap = {"carac": CONFIG.characteristic_cap, "competence": 10}.get(kind)
    if cap is not None and current + step > cap:
        raise RuleError(f"{label} est déjà à {current} : le maximum est {cap} (A000.33)")
    if available < cost:
        raise RuleError(f"{label} +{step} coûte {cost} XP, {name} n'en a que {available} (R000.45)")
    return XpResult(name, label, current, current + step, cost, available - cost)


@dataclass(frozen=True)
class Awards:
    xp: int
    pa: int
    shira: int


def scenario_awards(events: list[str], individual: list[tuple[str, str]] = (),  # type: ignore[assignment]
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
