"""Combat (R003.21): the demo kit has no combat rules, only the secondary attributes Défense and
Santé (R003.02, data on the sheet), the 6-second turn (R003.23) and the statement that combat has
its own heroic-success rules (R003.16). Nothing is invented: `attack` and `initiative` are not
among the system's actions (the core refuses them in French), and `jdr aide cyd` says why.
D-ALL.02: the only state the kit defines is death, a Santé spent (etat.py); the damage itself is
the MJ's amount (`jdr regle encaisser`). Nothing happens at the start of a turn or a round.
"""

from __future__ import annotations

from typing import Final

NOTE: Final = (
    "pas de règles de combat ni d'initiative dans le kit de démonstration : utilisez un test en "
    "opposition (jdr test FICHE COMPETENCE --de d10 --contre FICHE2) et les attributs "
    "secondaires de la fiche (defense, sante) ; les dégâts sont ceux du MJ (jdr regle "
    "encaisser : Santé épuisée = mort) ; un tour de jeu dure 6 secondes (jdr regle deplacement)"
)
