"""The configurable choices of the CYD System: one dataclass, defaults = RULES.md decisions, and
the `--opt` keys each action declares (the core parses them once; this module only reads them).

Every value that RULES.md calls "configurable" or "[Proposed]" lives here once; the rules read it
from here and nowhere else. `CydConfig.with_options(options)` applies the configuration keys a
command was given (`retente`, `table_cooperation`, `de_adverse`, `opposition`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from jdr.core.frozen import frozen
from jdr.core.messages import Ref, opt_in, say
from jdr.core.options import ActionSpec, Options, OptionSpec, parse_int
from jdr.core.threshold import Ladder
from jdr.errors import RuleError
from jdr.systems.cyd import tables

RetryMode = Literal["avertir", "bloquer", "ignorer"]
_RETRY: dict[str, RetryMode] = {"avertir": "avertir", "bloquer": "bloquer", "ignorer": "ignorer"}


@frozen
class CydConfig:
    """Configuration of the CYD System (RULES.md section 4)."""

    # D-003.06 / A003.06: difficulty ladder (name -> threshold); "facile" 5 is the document's.
    ladder: tuple[tuple[str, int], ...] = tuple(tables.LADDER.items())
    # D-003.16 / A003.16: retrying a failed action: "bloquer" (refused unless the MJ says the
    # circumstances changed, the decision), "avertir" (a warning only), "ignorer" (rule off).
    retry: RetryMode = "bloquer"
    # A003.09: cooperation bonus table, steps (minimum helper skill, bonus); empty = no bonus.
    cooperation_bonus: tuple[tuple[int, int], ...] = tables.COOPERATION_BONUS
    # A003.03: "passive" opposition = threshold is the opponent's Capacité (unaware opponent).
    passive_opposition: bool = False
    # A003.05 / R003.13: the die the opponent rolls in an opposed test when not told.
    opponent_die: str = "d10"
    # A003.10: the meaning of each outcome of a long action (placeholders).
    long_action_outcomes: tuple[tuple[str, str], ...] = tuple(tables.LONG_ACTION_OUTCOMES.items())
    long_action_heroic_factor: float = tables.LONG_ACTION_HEROIC_FACTOR
    # A003.11: duel scoring (placeholder): rounds to win, and a cap on rounds.
    duel_wins: int = tables.DUEL_WINS_NEEDED
    duel_max_rounds: int = tables.DUEL_MAX_ROUNDS

    @property
    def threshold_ladder(self) -> Ladder:
        """R003.12 / D-003.06: the ladder `--seuil` reads (names per D-ALL.01)."""
        return Ladder(dict(self.ladder), rule="D-003.06", aliases=tables.LADDER_ALIASES)

    def cooperation_for(self, helper_skill: int) -> int:
        """R003.18 / A003.09: the bonus one helper brings, from the (configurable) table."""
        bonus = 0
        for minimum, value in sorted(self.cooperation_bonus):
            if helper_skill >= minimum:
                bonus = value
        return bonus

    def with_options(self, options: Options) -> CydConfig:
        """The configuration keys given with `--opt` (values already parsed by the core)."""
        config = self
        if options.was_given("retente"):
            config = replace(config, retry=_RETRY[options.text("retente") or self.retry])
        table = options.text("table_cooperation")
        if table is not None:
            config = replace(config, cooperation_bonus=parse_steps(table))
        if options.was_given("de_adverse"):
            config = replace(config, opponent_die=options.text("de_adverse") or config.opponent_die)
        if options.was_given("opposition"):
            config = replace(config, passive_opposition=options.text("opposition") == "passive")
        return config


def parse_helpers(text: str) -> tuple[int, ...]:
    """`--opt aides=3,5`: the skill value of each helper (R003.18), 0..10."""
    where = option("aides")
    values = tuple(parse_int(part, where, tables.SKILL_MIN, tables.SKILL_MAX)
                   for part in text.replace(";", ",").split(",") if part.strip())
    if not values:
        raise RuleError(say(where, " : aucune valeur (exemple : ", option("aides", "3,5"), ")"))
    return values


def parse_steps(text: str) -> tuple[tuple[int, int], ...]:
    """`--opt table_cooperation=1:1,5:2` -> ((1, 1), (5, 2)) (A003.09)."""
    where = option("table_cooperation")
    steps: list[tuple[int, int]] = []
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if ":" not in part:
            raise RuleError(say(where, f" : « {part[:40]} » ne se lit pas « compétence:bonus » "
                                "(ex. 1:1,5:2)"))
        left, right = part.split(":", 1)
        steps.append((parse_int(left, where, tables.SKILL_MIN, tables.SKILL_MAX),
                      parse_int(right, where, -100, 100)))
    return tuple(steps)


DEFAULT = CydConfig()
_DIE = tables.DIE_CHOICES
_DIE_LABELS = tuple("1" + die for die in _DIE)  # d10 → « 1d10 »
_ATTRIBUTE_LABELS = tuple(tables.ATTRIBUTE_LABELS[a] for a in tables.ATTRIBUTES)

# ------------------------------------------------------------------ declared options

_PREDILECTION = (
    OptionSpec("predilection", "bool", "relancer le dé grâce à la prédilection de la compétence "
               "(une fois par séance), décidé d'avance ; sans cette option, la question est posée "
               "après le jet (non : pas de question) ; le dé gardé (1 ou 2), s'il est donné "
               "d'avance, garde l'un des deux résultats, sinon la question, ou le meilleur", False, "R003.04",
               label="Prédilection"),
    OptionSpec("premier_jet", "int", "prédilection après un jet déjà fait à la table : la face "
               "de ce premier jet (seule la relance est lancée)", None, "R003.04", 1, 20,
               label="Premier jet (face)"),
)
_AGAINST = (
    OptionSpec("opposition", "choice", "contre un adversaire : active (les deux lancent) ou "
               "passive (le seuil est la Capacité adverse)", "active", "A003.03",
               choices=("active", "passive"),
               label="Opposition", labels=("Active", "Passive")),
    OptionSpec("de_adverse", "choice", "dé de l'adversaire, contre un adversaire", DEFAULT.opponent_die,
               "A003.05", choices=_DIE,
               label="Dé de l'adversaire", labels=_DIE_LABELS),
    OptionSpec("carac_adverse", "choice", "attribut de l'adversaire (sinon son attribut usuel "
               "pour la compétence, ou celui de l'acteur)", None, "A003.18",
               choices=tables.ATTRIBUTES,
               label="Attribut de l'adversaire", labels=_ATTRIBUTE_LABELS),
)
_COOPERATION = (
    OptionSpec("aides", "text", "coopération : valeurs de compétence des aides, ex. 3,5",
               None, "R003.18",
               label="Aides (valeurs de compétence)"),
    OptionSpec("table_cooperation", "text", "table de bonus de coopération (compétence "
               "minimale:bonus), ex. 1:1,5:2 ; vide par défaut", None, "A003.09",
               label="Table de coopération"),
)
_CHECK_ONLY = (
    OptionSpec("duree", "text", "action longue : durée moyenne, ex. 4h (avec un seuil)",
               None, "R003.19",
               label="Durée de l'action"),
    OptionSpec("action", "text", "nom de l'action, pour la règle de la nouvelle tentative "
               "(par défaut : la compétence)", None, "R003.17",
               label="Nom de l'action"),
    OptionSpec("circonstances", "choice", "changees : le MJ constate que les circonstances ont "
               "changé, une action échouée peut être retentée", "inchangees", "D-003.16",
               choices=("changees", "inchangees"),
               label="Circonstances", labels=("Changées", "Inchangées")),
    OptionSpec("retente", "choice", "règle de la nouvelle tentative : bloquer, avertir ou "
               "ignorer", DEFAULT.retry, "D-003.16", choices=tables.RETRY_MODES,
               label="Nouvelle tentative", labels=("Bloquer", "Avertir", "Ignorer")),
)
_DUEL = (
    OptionSpec("competence", "text", "compétence des deux camps", None, "R003.20",
               label="Compétence des deux camps"),
    OptionSpec("competence_a", "text", "compétence du premier (sinon competence)", None, "R003.20",
               label="Compétence du premier"),
    OptionSpec("competence_b", "text", "compétence du second (sinon celle du premier)",
               None, "R003.20",
               label="Compétence du second"),
    OptionSpec("attributs", "text", "attribut(s) du premier par manche, ex. adresse,adresse,"
               "puissance (le dernier reste)", None, "E003.05",
               label="Attributs du premier"),
    OptionSpec("attributs_b", "text", "attribut(s) du second par manche", None, "E003.05",
               label="Attributs du second"),
    OptionSpec("de", "choice", "dé choisi par les deux camps", None, "D-003.20", choices=_DIE,
               label="Dé des deux camps", labels=_DIE_LABELS),
    OptionSpec("de_a", "choice", "dé choisi par le premier (sinon de)", None, "D-003.20",
               choices=_DIE,
               label="Dé du premier", labels=_DIE_LABELS),
    OptionSpec("de_b", "choice", "dé choisi par le second (sinon de)", None, "D-003.20",
               choices=_DIE,
               label="Dé du second", labels=_DIE_LABELS),
    OptionSpec("victoires", "int", "manches à gagner (règle provisoire)", DEFAULT.duel_wins,
               "A003.11", 1, tables.DUEL_WINS_MAX,
               label="Manches à gagner"),
    OptionSpec("manches_max", "int", "nombre maximal de manches", DEFAULT.duel_max_rounds,
               "A003.11", 1, tables.DUEL_ROUNDS_MAX,
               label="Manches au plus"),
)

_CHECK_DICE = (
    "le dé choisi par --de (obligatoire : d10 ou d20 ; avec --opt premier_jet, il est déjà "
    "jeté) ; avec --contre, ensuite le dé de l'adversaire (d10 sauf --opt de_adverse=d20) ; "
    "enfin la relance de prédilection si le joueur la prend (demandée après le jet, ou "
    "--opt predilection=oui). --contre FICHE seul : l'adversaire oppose la même compétence ; "
    "s'il ne l'a pas, il la teste au niveau 0 (Capacité −3)."
)

# ------------------------------------------------------------------ rules (`jdr regle NOM`)

_COOPERATION_RULE = (
    OptionSpec("competence", "text", "compétence du meneur, et celle dont la valeur de chaque "
               "aide donne son bonus", None, "R003.18",
               label="Compétence du meneur"),
    OptionSpec("carac", "choice", "attribut du meneur (sinon l'attribut usuel de la compétence)",
               None, "A003.18", choices=tables.ATTRIBUTES,
               label="Attribut du meneur", labels=_ATTRIBUTE_LABELS),
    OptionSpec("seuil", "text", "seuil de difficulté (nombre ou nom : facile, moyenne, ...)",
               None, "R003.11",
               label="Seuil de difficulté"),
    OptionSpec("de", "choice", "dé choisi par le meneur (obligatoire)", None, "D-003.20",
               choices=_DIE,
               label="Dé du meneur", labels=_DIE_LABELS),
    OptionSpec("bonus", "int", "bonus ou malus du MJ", 0, "R003.06", -100, 100,
               label="Bonus du MJ"),
    OptionSpec("choix", "int", "avec la prédilection : garder le résultat 1 ou 2", None,
               "R003.04", 1, 2,
               label="Résultat gardé"),
    *_PREDILECTION,
    _COOPERATION[1],
    *_CHECK_ONLY,
)
_POOLS_LOST = (
    OptionSpec("sante", "int", "points de Santé perdus (montant du MJ)", None, "R003.02", 0,
               tables.POOL_CHANGE_MAX,
               label="Santé perdue"),
    OptionSpec("psyche", "int", "points de Psyché perdus (montant du MJ)", None, "R003.02", 0,
               tables.POOL_CHANGE_MAX,
               label="Psyché perdue"),
)
_POOLS_REGAINED = (
    OptionSpec("sante", "int", "points de Santé regagnés (montant du MJ, jusqu'au maximum)",
               None, "R003.02", 0, tables.POOL_CHANGE_MAX,
               label="Santé regagnée"),
    OptionSpec("psyche", "int", "points de Psyché regagnés (montant du MJ, jusqu'au maximum)",
               None, "R003.02", 0, tables.POOL_CHANGE_MAX,
               label="Psyché regagnée"),
)
_MOVE = (
    OptionSpec("tours", "int", "nombre de tours de jeu (6 secondes chacun)", None, "R003.23", 1,
               tables.MOVE_TURNS_MAX,
               label="Tours de jeu"),
    OptionSpec("distance", "int", "distance à parcourir, en mètres", None, "R003.02", 1,
               tables.MOVE_METRES_MAX,
               label="Distance (mètres)"),
)
_SIMPLE = (
    OptionSpec("action", "text", "ce que fait le personnage", None, "A003.08",
               label="Action"),
)

RULES: dict[str, ActionSpec] = {
    "cooperation": ActionSpec(
        "cooperation", "coopération : le meneur (premier nommé) fait le test, chaque aide lui "
        "donne le bonus de la table pour sa valeur de compétence (table absente du document : "
        "aucun bonus sans --opt table_cooperation)", _COOPERATION_RULE,
        "le dé du meneur ; avec la prédilection, ensuite la relance", title="coopération"),
    "action_simple": ActionSpec(
        "action_simple", "action simple : réussite automatique, sans jet", _SIMPLE, rolls=False),
    "encaisser": ActionSpec(
        "encaisser", "perte de Santé et/ou de Psyché (montant du MJ : le kit n'a pas de règle "
        "de dégâts) ; Santé épuisée : le personnage est tué", _POOLS_LOST, rolls=False),
    "recuperer": ActionSpec(
        "recuperer", "Santé et/ou Psyché regagnées (montant du MJ : le kit n'a pas de règle de "
        "soins), jusqu'au maximum", _POOLS_REGAINED, rolls=False, title="récupérer"),
    "deplacement": ActionSpec(
        "deplacement", "déplacement : Vitesse (mètres par tour de 6 secondes) × tours, ou les "
        "tours qu'il faut pour une distance", _MOVE, rolls=False, title="déplacement"),
}

ACTIONS: dict[str, ActionSpec] = {
    "check": ActionSpec(
        "check", "test de Capacité (attribut + compétence + d10 ou d20) contre un seuil ou un "
        "adversaire", _PREDILECTION + _AGAINST + _COOPERATION + _CHECK_ONLY, _CHECK_DICE),
    "odds": ActionSpec(
        "odds", "chances exactes d'un test de Capacité, au d10 et au d20 côte à côte (ou le "
        "seul dé de --de)", _PREDILECTION + _AGAINST + _COOPERATION,
        "aucun dé lancé ; --contre FICHE seul : la même compétence adverse (niveau 0 si "
        "l'adversaire ne l'a pas)", rolls=False),
    "duel": ActionSpec(
        "duel", "duel : suite de tests en opposition, la Capacité peut changer à chaque manche "
        "(règle provisoire : premier à N manches)", _DUEL,
        "à chaque manche, le dé du premier puis celui du second"),
    "session": ActionSpec(
        "session", "nouvelle séance de jeu : les cases de prédilection redeviennent disponibles",
        rolls=False),
    **RULES,
}


def option(name: str, value: str = "") -> Ref:
    """One of CYD's options named in a message (`--opt nom=valeur` typed, its label read)."""
    return opt_in((*ACTIONS.values(), *RULES.values()), name, value)
