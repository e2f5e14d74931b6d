"""Skill ranks and their costs (R004.11, R004.35, A004.12); evolution by XP (R004.34).

The shop's XP prices are not in the forum post (A004.24): `felins` has no `xp` action rather
than invented prices.
"""

from __future__ import annotations

from jdr.systems.felins import tables
from jdr.systems.felins.config import DEFAULT, FelinsConfig


def rank_increment(rank: int, clan_skill: bool, config: FelinsConfig = DEFAULT) -> int:
    """R004.11 / A004.12 the cost of going from rank − 1 to `rank` (E004.03)."""
    if not 1 <= rank <= tables.SKILL_RANK_MAX:
        raise ValueError(f"rang {rank} hors limites (autorisé : de 1 à {tables.SKILL_RANK_MAX})")
    costs = config.clan_costs if clan_skill else config.normal_costs
    return costs[rank - 1]


def rank_total_cost(rank: int, clan_skill: bool, config: FelinsConfig = DEFAULT) -> int:
    """A004.12 cumulative cost of ranks 1..`rank` (T004.13: clan 15, normal 31 at rank 5)."""
    return sum(rank_increment(r, clan_skill, config) for r in range(1, rank + 1))


def skill_cost(skill: str, rank: int, clan: str, config: FelinsConfig = DEFAULT) -> int:
    """R004.11 the points a skill at `rank` costs a cat of `clan` (clan discount applied)."""
    return rank_total_cost(rank, tables.CLANS[clan][1] == skill, config)
