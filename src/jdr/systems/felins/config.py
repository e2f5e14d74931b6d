"""The one configuration of `felins`: every [Proposed] choice of RULES.md section 5, default =
the proposed interpretation; and the options each action declares (`--opt cle=valeur`, parsed
once by the core). Replace a field with `dataclasses.replace(DEFAULT, ...)`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from jdr.core.frozen import frozen
from jdr.core.messages import Ref, opt_in
from jdr.core.options import ActionSpec, Options, OptionSpec
from jdr.core.threshold import Ladder
from jdr.names import normalize
from jdr.systems.felins import tables


@frozen
class FelinsConfig:
    """Configurable readings of the gaps of the forum post (ids of RULES.md)."""

    #: D-004.31 / A004.01 the difficulty ladder (name, label, threshold).
    ladder: tuple[tuple[str, str, int], ...] = tables.LADDER
    #: A004.02 margin unit: "lignes" = floor((total − threshold) / 2) (proposed),
    #: "points" = total − threshold (the rejected alternative).
    margin: Literal["lignes", "points"] = "lignes"
    #: A004.13 SAUT and REPÉRER/TROUVER are halved like every two-characteristic skill.
    halve_unprinted: bool = True
    #: A004.12 per-rank skill costs (normal / clan skill).
    normal_costs: tuple[int, ...] = tables.NORMAL_RANK_COSTS
    clan_costs: tuple[int, ...] = tables.CLAN_RANK_COSTS
    #: A004.09 creation points are the total of the nine values (True) or on top of 1 each.
    budget_is_total: bool = True
    #: A004.09 the budget must be spent exactly (True) or only not exceeded (False).
    budget_exact: bool = True
    #: A004.10 base reputation by rank (missing table, 0 by default).
    base_reputation: tuple[tuple[str, int], ...] = tuple(tables.BASE_REPUTATION.items())
    #: A004.17 will check after a wound: threshold = will_base + will_step × (wounds − 1).
    will_base: int = 5
    will_step: int = 2
    #: A004.17 the wounds that set the threshold: "total" (all levels carried, proposed here)
    #: or "coup" (only the levels of the blow just taken).
    will_wounds: Literal["total", "coup"] = "total"
    #: A004.18 unconscious when wounds > Vigueur ("au_dela", proposed) or >= ("egal").
    unconscious_at: Literal["au_dela", "egal"] = "au_dela"
    #: A004.23 default Soigner threshold: Moyen 9.
    heal_threshold: int = 9
    #: R004.32 minutes one turn of an unconscious cat takes in an encounter. The rules give a
    #: round no duration: None = minutes pass only through `jdr regle reveil`.
    round_minutes: int | None = None
    #: A004.08 opposed ties: skill used, then Chance, then a re-roll; criticals override.
    opposed_critical_wins: bool = True
    #: A004.28 the duel's reputation bonus is always applied.
    duel_reputation: bool = True
    #: safety bound on re-rolls of perfect ties (opposed rolls, initiative roll-offs).
    max_rerolls: int = 100

    def label_of(self, threshold: int) -> str | None:
        """The ladder row a number falls in (12 -> Assez difficile), None below the first row
        (A004.03: no cap above the last row)."""
        label: str | None = None
        for _, row_label, value in self.ladder:
            if threshold >= value:
                label = row_label
        return label

    def threshold_ladder(self) -> Ladder:
        """D-004.31 the ladder as the core reads `--seuil` (names per D-ALL.01)."""
        return Ladder({name: value for name, _, value in self.ladder}, rule="D-004.31",
                      aliases=tables.LADDER_ALIASES)


DEFAULT = FelinsConfig()


def config_from(options: Options, base: FelinsConfig = DEFAULT) -> FelinsConfig:
    """The configuration of one action: option `marge=lignes|points` (A004.02) over `base`."""
    margin = options.text("marge")
    if margin is None:
        return base
    return replace(base, margin="points" if normalize(margin) == "points" else "lignes")


# ------------------------------------------------------------------ declared options

_DEGREES = ("nulle", "partielle", "complete")
_DEGREE_LABELS = ("Nulle", "Partielle", "Complète")
MARGIN = OptionSpec(
    "marge", "choice", "marge de réussite comptée en lignes de l'échelle (2 points) ou en "
    "points bruts", default="lignes", rule="A004.02", choices=("lignes", "points"),
    label="Marge de réussite", labels=("En lignes de l'échelle", "En points bruts"))
VOLUNTARY = OptionSpec(
    "echec_volontaire", "bool", "le joueur rate exprès : l'action échoue, aucun dé lancé",
    default=False, rule="R004.17",
    label="Échec volontaire")
PROTECTION = OptionSpec(
    "protection", "choice", "protection du défenseur : seuil pour toucher +0, +1 ou +2",
    default="nulle", rule="R004.25", choices=_DEGREES,
    label="Protection du défenseur", labels=_DEGREE_LABELS)
SURPRISE = OptionSpec(
    "surprise", "choice", "surprise du défenseur : seuil pour toucher −0, −1 ou −2",
    default="nulle", rule="R004.26", choices=_DEGREES,
    label="Surprise du défenseur", labels=_DEGREE_LABELS)
DUEL_CHOICE = OptionSpec(
    "choix", "choice", "si les deux ratent (issue 4), le provoqué accepte la victoire du "
    "provocant ou engage le combat ; sans choix, la question lui reste posée",
    rule="A004.16", choices=("accepter", "combattre"),
    label="Choix du provoqué", labels=("Accepter sa victoire", "Combattre"))

CHANCE_DICE = ("CHANCE d10 du personnage, dans l'ordre ; puis un d10 de confirmation pour chaque "
               "10 et chaque 1, dans l'ordre des dés")

ACTIONS: dict[str, ActionSpec] = {
    "check": ActionSpec(
        "check", "jet de compétence (CHANCE d10, garder un dé, + inné + acquis) ou de "
        "caractéristique (+ 2 × caractéristique) contre un seuil, ou jet opposé (--contre) : "
        "sans compétence donnée, l'adversaire oppose Repérer/Trouver à Discrétion (et "
        "inversement), sinon la même compétence ou caractéristique",
        (MARGIN, VOLUNTARY),
        dice=CHANCE_DICE + ". Jet opposé : l'acteur puis l'adversaire, de même ; sur une "
        "égalité parfaite, une nouvelle manche dans le même ordre"),
    "odds": ActionSpec(
        "odds", "chances exactes du même jet (seuil ou --contre) ; jet opposé : les égalités "
        "parfaites relancées comptées (victoire / (1 − relance))", (MARGIN,), rolls=False),
    "attack": ActionSpec(
        "attack", "attaque en Combat griffu contre 5 + 2 × Agilité du défenseur ± protection "
        "et surprise ; blessures = marge ; jet de Volonté du blessé pour rester dans la lutte",
        (MARGIN, PROTECTION, SURPRISE),
        dice="attaquant : " + CHANCE_DICE + " ; si le défenseur tombe inconscient : 3d10 "
        "(durée) ; sinon, s'il est blessé : son jet de Volonté (CHANCE d10 puis confirmations)"),
    "initiative": ActionSpec(
        "initiative", "ordre d'action : la plus haute Agilité, puis la plus haute Chance, "
        "puis 1d10", dice="aucun dé sauf égalité d'Agilité et de Chance : 1d10 par chat à "
        "égalité, dans l'ordre des fiches, relancé entre ceux qui restent à égalité"),
    "duel": ActionSpec(
        "duel", "duel de provocation : Sociabilité du provocant contre 5 + 2 × Volonté du "
        "provoqué, Volonté du provoqué contre 5 + 2 × Sociabilité du provocant, + réputation / 5",
        (MARGIN, DUEL_CHOICE),
        dice="provocant : " + CHANCE_DICE + " ; puis le provoqué de même"),
}


def option(name: str, value: str = "") -> Ref:
    """One of felins' options named in a message (`--opt nom=valeur` typed, its label read)."""
    from jdr.systems.felins.rules import RULES

    return opt_in((*ACTIONS.values(), *RULES.values()), name, value)
