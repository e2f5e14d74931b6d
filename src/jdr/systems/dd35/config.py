"""The configurable choices of dd35 (RULES.md 3.7): one dataclass, defaults = the decisions.

Each field names the ambiguity it settles. `from_options` reads the `--opt` switches that may
override a choice for one command.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jdr.errors import RuleError
from jdr.names import normalize


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

_TRUE = {"oui", "vrai", "true", "1", "yes", "o"}
_FALSE = {"non", "faux", "false", "0", "no", "n"}


def flag(options: dict[str, str], key: str, default: bool) -> bool:
    """A yes/no `--opt` value, in French or English."""
    for k, raw in options.items():
        if normalize(k) == key:
            value = normalize(raw)
            if value in _TRUE:
                return True
            if value in _FALSE:
                return False
            raise RuleError(f"--opt {k}={raw} : valeur attendue oui ou non")
    return default


def option(options: dict[str, str], key: str) -> str | None:
    """The raw value of an `--opt` key (key matched after normalisation), or None."""
    for k, raw in options.items():
        if normalize(k) == key:
            return raw
    return None


def int_option(options: dict[str, str], key: str, default: int = 0) -> int:
    """A whole-number `--opt` value, with a French error."""
    raw = option(options, key)
    if raw is None:
        return default
    try:
        return int(raw.strip())
    except ValueError:
        raise RuleError(f"--opt {key}={raw} : nombre entier attendu") from None


def from_options(options: dict[str, str], base: Rules = DEFAULT_RULES) -> Rules:
    """The rules for one command: `naturel_1_rate`, `force_projectiles` may override."""
    return replace(
        base,
        natural_one_misses=flag(options, "naturel_1_rate", base.natural_one_misses),
        strength_on_projectiles=flag(options, "force_projectiles", base.strength_on_projectiles),
    )
