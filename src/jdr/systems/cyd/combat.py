"""Combat (R003.21): the demo kit has no combat rules, only the secondary attributes Défense and
Santé (R003.02, data on the sheet), the 6-second turn (R003.23) and the statement that combat has
its own heroic-success rules (R003.16). Nothing is invented: `attack` and `initiative` are not
among the system's actions (the core refuses them in French), and `jdr aide cyd` says why.
D-ALL.02: with no combat rules, no CYD rule leaves a character unable to act (no state).
"""

from __future__ import annotations

from typing import Final

NOTE: Final = (
    "pas de règles de combat ni d'initiative dans le kit de démonstration : utilisez un test en "
    "opposition (jdr check FICHE COMPETENCE --de d10 --contre FICHE2) et les attributs "
    "secondaires de la fiche (defense, sante) ; un tour de jeu dure 6 secondes"
)
