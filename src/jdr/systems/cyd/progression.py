"""Progression (R003.22): the demo kit has no experience rules. The only trace is that a raised
skill counts as a changed circumstance for retrying a failed action (R003.17), which the retry
rule uses (actions.retry_warnings)."""

from __future__ import annotations

from jdr.errors import RuleError


def no_xp_rules() -> RuleError:
    """R003.22: no XP costs in the document; raise a skill by editing the sheet."""
    return RuleError(
        "le kit de démonstration CYD ne contient pas de règles d'expérience (R003.22) : "
        "modifiez la valeur de la compétence sur la fiche (0 à 10)"
    )
