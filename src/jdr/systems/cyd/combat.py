"""Combat (R003.21): the demo kit has no combat rules, only the secondary attributes Défense and
Santé (R003.02), the 6-second turn (R003.23) and the statement that combat has its own heroic
success rules (R003.16). Nothing is invented: `jdr attack` and `jdr initiative` say so.
"""

from __future__ import annotations

from jdr.errors import RuleError


def no_combat_rules() -> RuleError:
    """R003.21: no attack, damage or initiative rule in the document."""
    return RuleError(
        "le kit de démonstration CYD ne contient pas les règles de combat (R003.21) : "
        "utilisez un test en opposition (jdr check FICHE COMPETENCE --contre FICHE2 COMP2) et "
        "les valeurs de la fiche (secondaires : defense, sante)"
    )


def no_initiative_rules() -> RuleError:
    """R003.21: no initiative rule in the document."""
    return RuleError(
        "le kit de démonstration CYD ne contient pas de règle d'initiative (R003.21) ; "
        "un tour de jeu dure 6 secondes (R003.23)"
    )
