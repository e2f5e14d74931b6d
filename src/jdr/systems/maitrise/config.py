"""The one place where every [Proposed] choice of RULES.md section 2 can be changed.

Defaults are the proposed interpretations; each field names its ambiguity.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class MaitriseConfig:
    # A001.05: "bonus de maîtrise" per rank (incompetent, novice, competent, experimente, maitre,
    # grand_maitre), added before halving. Only the Incompétent −7 is quantified by the source.
    mastery_bonus: tuple[int, int, int, int, int, int] = (-7, 0, 0, 0, 0, 0)
    # A001.06: the Incompétent −7 also applies to the natural-die success test (d20 − 7 ≥ 10).
    incompetent_malus_on_die: bool = True
    # A001.23: the −7 / −2 apply to weapon skills only (False: to every skill at level 0).
    incompetent_weapons_only: bool = True
    # A001.12 / T001.12: damage never goes below this.
    damage_floor: int = 0
    # A001.12: hit points are data; True lets a sheet without `pv` use Constitution.
    hit_points_from_constitution: bool = False
    # A001.20: Maître / Grand maître bonuses stack over several skills and may pass 20.
    bonuses_stack: bool = True
    bonuses_cap: int | None = None
    # A001.21: once one weapon skill is Grand maître, other weapon skills stop at this level.
    grand_master_exclusive_cap: int | None = 99


DEFAULT = MaitriseConfig()
