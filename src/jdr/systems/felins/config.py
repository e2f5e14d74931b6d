"""The one configuration of `felins`: every [Proposed] choice of RULES.md section 5, default =
the proposed interpretation. Replace a field with `dataclasses.replace(DEFAULT, ...)`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from jdr.systems.felins import tables


@dataclass(frozen=True)
class FelinsConfig:
    """Configurable readings of the gaps of the forum post (ids of RULES.md)."""

    #: D-004.31 / A004.01 the difficulty ladder (name, label, threshold).
    ladder: tuple[tuple[str, str, int], ...] = tables.LADDER
    #: A004.02 margin unit: "lignes" = floor((total − threshold) / 2) (proposed),
    #: "points" = total − threshold (the rejected alternative).
    margin: Literal["lignes", "points"] = "lignes"
    #: A004.05 which die is kept when the player does not say: the highest.
    keep_best: bool = True
    #: A004.13 SAUT and REPÉRER/TROUVER are halved like every two-characteristic skill.
    halve_unprinted: bool = True
    #: A004.12 per-rank skill costs (normal / clan skill).
    normal_costs: tuple[int, ...] = tables.NORMAL_RANK_COSTS
    clan_costs: tuple[int, ...] = tables.CLAN_RANK_COSTS
    #: A004.09 creation points are the total of the nine values (True) or on top of 1 each.
    budget_is_total: bool = True
    #: A004.09 the budget must be spent exactly (True) or only not exceeded (False).
    budget_exact: bool = True
    #: A004.10 base reputation by rank (missing table, 0 by default).
    base_reputation: tuple[tuple[str, int], ...] = tuple(tables.BASE_REPUTATION.items())
    #: A004.17 will check after a wound: threshold = will_base + will_step × (wounds − 1).
    will_base: int = 5
    will_step: int = 2
    #: A004.17 the wounds that set the threshold: "total" (all levels carried, proposed here)
    #: or "coup" (only the levels of the blow just taken).
    will_wounds: Literal["total", "coup"] = "total"
    #: A004.18 unconscious when wounds > Vigueur ("au_dela", proposed) or >= ("egal").
    unconscious_at: Literal["au_dela", "egal"] = "au_dela"
    #: A004.23 default Soigner threshold: Moyen 9.
    heal_threshold: int = 9
    #: A004.08 opposed ties: skill used, then Chance, then a re-roll; criticals override.
    opposed_critical_wins: bool = True
    #: A004.28 the duel's reputation bonus is always applied.
    duel_reputation: bool = True
    #: safety bound on re-rolls of perfect ties (opposed rolls, initiative).
    max_rerolls: int = 100

    def ladder_by_name(self) -> dict[str, tuple[str, int]]:
        return {name: (label, value) for name, label, value in self.ladder}

    def label_of(self, threshold: int) -> str | None:
        """The ladder row a number falls in (12 -> Assez difficile), None below the first row."""
        label: str | None = None
        for _, row_label, value in self.ladder:
            if threshold >= value:
                label = row_label
        return label


DEFAULT = FelinsConfig()
