"""Cydonia's configurable readings (RULES.md section 1) and what each command accepts.

Every [Proposed] choice RULES.md calls configurable is one field of `CydoniaConfig`; the
defaults are the decisions. `ACTIONS` declares, per command, its `--opt` keys and the order in
which `--des` faces are consumed; the core parses and refuses everything else.
"""

from __future__ import annotations

from dataclasses import field

from jdr.core.frozen import frozen
from jdr.core.messages import Ref, opt_in
from jdr.core.options import ActionSpec, OptionSpec


@frozen
class CydoniaConfig:
    """The configurable readings of RULES.md section 1, defaults = the [Proposed] decisions."""

    threshold_inclusive: bool = True                 # A000.01
    arm_row_13_is_body: bool = True                  # A000.06 (False: the blow hits the weapon)
    vital_zones: frozenset[str] = field(default_factory=lambda: frozenset(
        {"Abdomen", "Torse", "Tête", "Gorge", "Glotte"}))  # A000.11
    medicine_reading: str = "litteral"               # A000.15: "litteral" (a) or "motif" (b)
    carry_shared_pool: bool = True                   # A000.24
    location_bonus_cap: int = 5                      # R000.29
    characteristic_cap: int = 14                     # A000.21
    initiative_die: bool = False                     # A000.04 (True: + 1d10 variant)
    fouille_threshold: int = 10                      # A000.31
    knockout_on_any_head_hit: bool = True            # A000.29


CONFIG = CydoniaConfig()

# R000.16: what opposes a roll when `--contre FICHE` names no skill.
OPPOSITION_HELP = (
    "--contre FICHE sans compétence : l'opposition des règles (R000.16) — Observation contre "
    "Larcin, Discrétion et Piégeage ; Psychologie contre Persuasion, Baratin et Séduction ; "
    "Courage contre Intimidation ; Résistance Mentale contre Torture ; Esquive contre une arme "
    "ou le corps à corps ; sinon la même compétence"
)

_CHECK_DICE = (
    "1d10 du personnage (2d10 pour une compétence experte : le meilleur est gardé, ou celui de "
    "--choix) ; avec --contre, puis le ou les dés de l'adversaire de la même façon (aucun s'il est "
    "assommé ou mourant : total 0)"
)

_ATTACK_DICE = (
    "attaque 1d10 (2d10 pour une compétence experte), défense 1d10 (aucun si le défenseur est "
    "assommé ou mourant), localisation 1d20 (aucun pour une attaque visée), dés de dégâts de "
    "l'arme, dés de la localisation critique (Gorge, Tête, Glotte), puis la Résistance Physique "
    "1d10 du défenseur sur un coup à la tête (assommement) ou aux Bijoux de famille (paralysie)"
)

WAKE_TURN = OptionSpec(
    "tour", "int", "jet de réveil : n° de la tentative n (1 au premier tour après le tour perdu) ; "
    "difficulté = dégâts − n", 1, "D-000.49", lo=1, hi=1000,
    label="Tentative de réveil")

ATTACK_OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("monte", "bool", "attaquant monté : + Équitation à l'attaque, +5 à la localisation",
               False, "R000.38",
               label="Attaquant monté"),
    OptionSpec("defenseur_monte", "bool",
               "défenseur monté : Agilité + Équitation + 1d10 au lieu de l'Esquive (sauf bouclier), "
               "−5 à la localisation", False, "R000.38",
               label="Défenseur monté"),
    OptionSpec("immateriel", "bool",
               "attaque immatérielle : le défenseur oppose sa Résistance Physique", False, "R000.24",
               label="Attaque immatérielle"),
    OptionSpec("zone", "bool", "attaque à large zone d'effet : Esquive seulement", False, "R000.24",
               label="Attaque de zone"),
    OptionSpec("morsure", "bool", "morsure de loup-garou : −6 à l'attaque, dégâts PHY+2d10",
               False, "R000.40",
               label="Morsure de loup-garou"),
    OptionSpec("letal", "bool",
               "intention de tuer : pas de jet d'assommement sur un coup à la tête", False, "A000.29",
               label="Intention de tuer"),
    OptionSpec("concentration", "choice",
               "dépense la concentration accumulée de l'attaquant : +2 par tour au jet ou aux dégâts",
               None, "R000.36", choices=("jet", "degats"),
               label="Concentration dépensée", labels=("Au jet", "Aux dégâts")),
    OptionSpec("choix", "int", "compétence experte de l'attaquant : le dé gardé, donné d'avance "
               "(sinon demandé une fois les dés montrés ; par défaut le meilleur)", None, "R000.17",
               lo=1, hi=2,
               label="Dé gardé d'avance"),
)

REPUTATION_BONUS = OptionSpec(
    "reputation", "bool", "joue sa réputation : + la valeur absolue de son niveau à un jet de "
    "Charisme", False, "R000.49",
    label="Jouer sa réputation")

ACTIONS: dict[str, ActionSpec] = {
    "check": ActionSpec(
        "check",
        "Caractéristique + Compétence + 1d10 contre un seuil (≥, R000.14) ou contre un adversaire "
        "(strictement supérieur, égalité au défenseur, R000.15). Compétence « reveil » : jet de "
        "réveil d'un personnage assommé (D-000.49) ; pour un paralysé (Bijoux de famille, hors "
        "rencontre) elle met fin à la paralysie une fois son tour perdu (R000.27). Compétence "
        "experte : le dé gardé est demandé une fois les dés montrés, ou donné par --choix "
        "(R000.17). " + OPPOSITION_HELP,
        (WAKE_TURN, REPUTATION_BONUS),
        _CHECK_DICE,
    ),
    "odds": ActionSpec(
        "odds", "Chances exactes d'un jet contre un seuil ou un adversaire. " + OPPOSITION_HELP,
        (WAKE_TURN, REPUTATION_BONUS), rolls=False,
    ),
    "attack": ActionSpec(
        "attack",
        "Attaque entière : attaque contre défense (strictement supérieur, R000.23), localisation, "
        "dégâts moins protection, assommement, paralysie, état (mourant, mort). Un défenseur "
        "concentré a −6 à sa défense, quelle qu'elle soit, sauf la Résistance Physique (A000.23). "
        "Morsure de loup-garou : corps à corps sur la table du corps à corps (R000.28, R000.40).",
        ATTACK_OPTIONS, _ATTACK_DICE,
    ),
    "xp": ActionSpec(
        "xp", "Dépense d'XP : caractéristique 4 XP, compétence 2 XP, +3 PV 1 XP (R000.45).",
        rolls=False,
    ),
    "initiative": ActionSpec(
        "initiative",
        "Agilité + Sensoriel, sans dé (R000.21) ; égalité : la plus haute Chance, puis 1d10.",
        (OptionSpec("de", "bool", "variante : ajoute 1d10 à l'initiative", False, "A000.04",
                    label="Ajouter 1d10 (variante)"),),
        "aucun dé, sauf avec --opt de=oui (1d10 par personnage, dans l'ordre des fiches) ; puis "
        "les départages : 1d10 par personnage encore à égalité, dans l'ordre des fiches",
    ),
    "duel": ActionSpec(
        "duel",
        "Duel jusqu'à ce que l'un soit mourant ou mort : initiative, puis chacun attaque à son "
        "tour avec son arme principale ; un assommé tente de se réveiller (D-000.49).",
        (OptionSpec("tours", "int", "nombre de tours au plus", 50, lo=1, hi=200,
                    label="Tours au plus"),),
        "l'initiative (comme jdr initiative), puis, tour après tour et dans l'ordre d'initiative, "
        "le jet de réveil 1d10 d'un assommé, puis chaque attaque comme jdr attaque",
    ),
}


def option(name: str, value: str = "") -> Ref:
    """One of Cydonia's options named in a message (`--opt nom=valeur` typed, its label read),
    for a message written where the action's `Options` are not at hand."""
    from jdr.systems.cydonia.rulebook import RULES

    return opt_in((*ACTIONS.values(), *RULES.values()), name, value)
