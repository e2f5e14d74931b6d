"""Every table of the CYD System (RULES.md section 4), as data.

Where the document is cut, the values are the decisions of RULES.md (D-003.06, A003.xx),
labelled as such; they are defaults that `CydConfig` (config.py) can replace.
"""

from __future__ import annotations

from typing import Final

# R003.01: the five primary attributes (attributs principaux), 1..10, canonical spelling.
ATTRIBUTES: Final[tuple[str, ...]] = ("adresse", "clairvoyance", "presence", "puissance", "trempe")
ATTRIBUTE_LABELS: Final[dict[str, str]] = {
    "adresse": "Adresse",
    "clairvoyance": "Clairvoyance",
    "presence": "Présence",
    "puissance": "Puissance",
    "trempe": "Trempe",
}
ATTRIBUTE_MIN: Final = 1
ATTRIBUTE_MAX: Final = 10

# R003.02: the four secondary attributes (attributs secondaires); no formula in the document
# (A003.12): they are data on the sheet.
SECONDARY: Final[tuple[str, ...]] = ("defense", "sante", "psyche", "vitesse")
SECONDARY_LABELS: Final[dict[str, str]] = {
    "defense": "Défense",
    "sante": "Santé",
    "psyche": "Psyché",
    "vitesse": "Vitesse (m par tour de 6 s)",
}

# R003.03: skills (compétences) 0..10, names free.
SKILL_MIN: Final = 0
SKILL_MAX: Final = 10

# R003.09: a skill at 0 subtracts 3 from the Capacité.
UNTRAINED_SKILL_MALUS: Final = -3

# R003.05 / R003.08: the two dice the player chooses between.
DICE: Final[dict[str, int]] = {"d10": 10, "d20": 20}
DIE_LABELS: Final[dict[str, str]] = {"d10": "d10 (prudent)", "d20": "d20 (risqué)"}
DIE_CHOICES: Final[tuple[str, ...]] = ("d10", "d20")

# R003.08: d20 faces that are an automatic dramatic failure (no final result computed).
D20_AUTOMATIC_FAILURE: Final[frozenset[int]] = frozenset({1, 11})

# R003.14 / R003.15: heroic success at threshold + 10, dramatic failure at threshold - 10.
EXCEPTIONAL_GAP: Final = 10

# R003.12 + D-003.06: the difficulty ladder, names as D-003.06 spells them (matched per
# D-ALL.01). Only "Facile 5" is in the document (E003.01); the rest is a placeholder, configurable.
LADDER: Final[dict[str, int]] = {
    "facile": 5,
    "moyenne": 10,
    "difficile": 15,
    "tres-difficile": 20,
    "extreme": 25,
}
LADDER_ALIASES: Final[dict[str, str]] = {"moyen": "moyenne"}

# R003.23: a game turn lasts 6 seconds.
TURN_SECONDS: Final = 6

# Bounds of the options of `jdr regle encaisser / recuperer / deplacement` (not rules: limits).
POOL_CHANGE_MAX: Final = 1000
POOL_MIN: Final = -1000  # the lowest current value a sheet's pool accepts
MOVE_TURNS_MAX: Final = 10_000
MOVE_METRES_MAX: Final = 1_000_000

# R003.04: the two states of a predilection box on the sheet.
PREDILECTION_FREE: Final = "disponible"
PREDILECTION_USED: Final = "utilisee"
PREDILECTION_STATES: Final[tuple[str, ...]] = (PREDILECTION_FREE, PREDILECTION_USED)

# R003.18 + A003.09: the cooperation table is missing from the document. Steps
# (minimum helper skill value, bonus), empty by default = no bonus until the MJ supplies it.
COOPERATION_BONUS: Final[tuple[tuple[int, int], ...]] = ()

# A003.10 (placeholders, labelled as such): what each outcome of a long action means for the
# time taken. "factor" multiplies the average duration (None = not finished).
LONG_ACTION_OUTCOMES: Final[dict[str, str]] = {
    "heroic": "action achevée en la moitié de la durée moyenne (valeur provisoire)",
    "success": "action achevée au bout de la durée moyenne",
    "failure": "action non achevée au bout de la durée moyenne ; elle peut se poursuivre "
               "(valeur provisoire)",
    "dramatic": "action non achevée au bout de la durée moyenne, et une complication survient "
                "(valeur provisoire)",
}
LONG_ACTION_HEROIC_FACTOR: Final = 0.5

# A003.11: duel scoring is unknown; placeholder = the first to win 2 rounds (best of 3),
# at most 9 rounds (bounds of the options: 1..20 wins, 1..99 rounds).
DUEL_WINS_NEEDED: Final = 2
DUEL_MAX_ROUNDS: Final = 9
DUEL_WINS_MAX: Final = 20
DUEL_ROUNDS_MAX: Final = 99

# A003.16: the modes of the retry rule; D-003.16: refused by default, a warning is the
# configurable alternative, "ignorer" turns the rule off.
RETRY_MODES: Final[tuple[str, ...]] = ("bloquer", "avertir", "ignorer")
RETRY_DEFAULT: Final = "bloquer"
