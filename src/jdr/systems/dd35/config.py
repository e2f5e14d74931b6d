"""The configurable choices of dd35 (RULES.md 3.7): one dataclass, defaults = the decisions.

Each field names the ambiguity it settles. `rules_for` reads, from the options the core parsed
once, the two switches that may override a choice for one command (`naturel_1_rate`,
`force_projectiles`); an action that does not declare a switch keeps the configured value.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from jdr.core.options import OptionValue


@dataclass(frozen=True, slots=True)
class Rules:
    natural_one_misses: bool = True
    """D-002.17 (overrides A002.17): a natural 1 on an attack always misses. False = literal."""

    sum_armour_and_shield_penalties: bool = True
    """A002.09: armour and shield penalties are summed before the Base Attack cap."""

    strength_on_projectiles: bool = True
    """A002.19: the damage formula always adds Bonus Force; False = 3.5 (bows add none)."""

    remove_only_positive_dex_when_flat_footed: bool = True
    """A002.12: flat-footed removes only a positive Dex bonus; a penalty still applies."""

    minimum_hp_per_level: int = 1
    """A002.13: at least 1 HP per level even with a negative Constitution bonus."""

    manoeuvre_dc_base: int = 10
    """A002.16 placeholder (not in the source): DC = 10 + attacker's BAB + ability modifier."""


DEFAULT_RULES = Rules()


def rules_for(options: Mapping[str, OptionValue], base: Rules = DEFAULT_RULES) -> Rules:
    """The rules for one command: `naturel_1_rate` (D-002.17) and `force_projectiles` (A002.19)
    override the configured values when the action declares them."""
    return replace(
        base,
        natural_one_misses=bool(options.get("naturel_1_rate", base.natural_one_misses)),
        strength_on_projectiles=bool(options.get("force_projectiles",
                                                 base.strength_on_projectiles)),
    )
