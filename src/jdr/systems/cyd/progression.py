"""Progression (R003.22): the demo kit has no experience rules, so `xp` is not among the system's
actions. The only trace is that a raised skill counts as a changed circumstance for retrying a
failed action (R003.17), which the retry rule uses (actions.retry_warnings)."""

from __future__ import annotations

from typing import Final

NOTE: Final = (
    "pas de règles d'expérience dans le kit de démonstration : modifiez la valeur de la "
    "compétence sur la fiche (0 à 10) ; une compétence augmentée permet de retenter une action "
    "échouée"
)
