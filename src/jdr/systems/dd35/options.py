"""The actions dd35 plays, each with the `--opt` keys it reads and the order of `--des` faces.

The core parses `--opt` once against these declarations (unknown keys refused, yes/no, ranges);
dd35 only reads the typed values. Not here: `duel` and `session` (the document has neither).
`manoeuvre`, `attendre`, `surprise` and `tour` are the system's own rules (`jdr regle`).
"""

from __future__ import annotations

from jdr.core.messages import Ref, opt_in
from jdr.core.options import ActionSpec, OptionSpec
from jdr.systems.dd35.tables import ABILITIES, CLASSES, PERCEPTION_CONTEXTS, SAVES

SAVE_NAMES = tuple(SAVES)
SAVE_LABELS = tuple(SAVES.values())
CLASS_LABELS = tuple(info.label for info in CLASSES.values())

CONTEXTE = OptionSpec(
    "contexte", "text", "contexte de la perception active : " + "|".join(PERCEPTION_CONTEXTS)
    + " (ou « Détecter un piège », ...)", rule="R002.08",
    label="Contexte de la perception")
MILIEU = OptionSpec(
    "milieu", "text", "connaissance du milieu pour « passage » (nature, ingenierie, ... : une "
    "compétence de la fiche) ; sans elle, la meilleure des deux", rule="A002.03",
    label="Connaissance du milieu")
TYPE = OptionSpec("type", "choice", "sauvegarde jouée par la compétence « sauvegarde »",
                  rule="R002.15", choices=SAVE_NAMES,
                  label="Sauvegarde", labels=SAVE_LABELS)
CARAC_MANOEUVRE = OptionSpec(
    "carac_manoeuvre", "text", "caractéristique de l'auteur pour le ND provisoire d'une "
    "manœuvre, 10 + Base Attaque + modificateur (" + ", ".join(ABILITIES) + ")",
    default="force", rule="A002.16",
    label="Caractéristique de la manœuvre")
CIRCONSTANCE = OptionSpec(
    "circonstance", "int", "bonus de circonstance de l'acteur à l'attaque ou à l'initiative",
    default=0, rule="R002.11", lo=-1000, hi=1000,
    label="Bonus de circonstance")
ITERATIVE = OptionSpec(
    "iterative", "int", "quelle attaque itérative joue le jet d'attaque (1 = la première)",
    default=1, rule="R002.04", lo=1, hi=4,
    label="Attaque itérative")
DEPOURVU = OptionSpec("depourvu", "bool", "le défenseur est pris au dépourvu (CA sans Dextérité)",
                      default=False, rule="R002.06",
                      label="Défenseur pris au dépourvu")
NATUREL_1 = OptionSpec("naturel_1_rate", "bool", "un 1 naturel à l'attaque rate toujours",
                       default=True, rule="D-002.17",
                       label="Un 1 naturel rate")
RD_SORT = OptionSpec("rd_sort", "int", "réduction de dégâts d'un sort du défenseur (ne se cumule "
                     "pas avec l'armure)", default=0, rule="A002.10", lo=0, hi=1000,
                     label="RD d'un sort")
MAGIQUE = OptionSpec("magique", "bool", "l'arme compte comme magique (la RD /Magie de l'armure "
                     "ne s'applique pas) ; par défaut : magique si elle a un bonus de magie",
                     rule="A002.11",
                     label="Arme magique")
FORCE_PROJECTILES = OptionSpec("force_projectiles", "bool", "le bonus de Force s'ajoute aux "
                               "dégâts des projectiles (arcs)", default=True, rule="A002.19",
                               label="Force aux projectiles")
MANOEUVRE = OptionSpec("manoeuvre", "text", "nom d'une manœuvre de combat : pas de jet "
                       "d'attaque, le défenseur fait un jet de Sauvegarde", rule="R002.15",
                       label="Manœuvre de combat")
SAUVEGARDE = OptionSpec("sauvegarde", "choice", "sauvegarde contre la manœuvre",
                        rule="R002.15", choices=SAVE_NAMES,
                        label="Sauvegarde contre la manœuvre", labels=SAVE_LABELS)
ND = OptionSpec("nd", "int", "ND de la manœuvre (sans lui : ND provisoire, voir "
                "carac_manoeuvre)", rule="A002.16", lo=0, hi=1000,
                label="ND de la manœuvre")
TOUR = OptionSpec("tour", "text", "actions déclarées du tour, vérifiées avant l'attaque ou la "
                  "manœuvre (ex. mouvement+simple, complexe+pas)", rule="R002.14",
                  label="Actions du tour")
CLASSE = OptionSpec("classe", "choice", "classe qui gagne un niveau", rule="R002.19",
                    choices=tuple(CLASSES),
                    label="Classe", labels=CLASS_LABELS)
JET = OptionSpec("jet", "int", "dé de vie lancé (sinon la valeur fixe ; obligatoire en "
                 "pv_mode lance ; 0 = 10 sur un d10)", rule="R002.02", lo=0, hi=12,
                 label="Dé de vie lancé")

JET_SURPRISE = OptionSpec("jet", "text", "jet de l'embusqué : attaque (jet d'attaque de la première "
                         "arme), une arme de la fiche, ou une caractéristique (dexterite, ...)",
                         default="attaque", rule="A002.21",
                          label="Jet de l'embusqué")
ACTIONS_TOUR = OptionSpec("actions", "text", "actions déclarées du tour (mouvement, simple, "
                          "simple_en_mouvement, complexe, libre, pas), jointes par +",
                          rule="R002.14",
                          label="Actions du tour")
TERRAIN = OptionSpec("terrain_difficile", "bool", "le personnage est en terrain difficile (pas de "
                     "Pas de Placement)", default=False, rule="A002.15",
                     label="Terrain difficile")

CHECK_OPTIONS = (CONTEXTE, MILIEU, TYPE, CARAC_MANOEUVRE, CIRCONSTANCE, ITERATIVE, DEPOURVU,
                 NATUREL_1)

CHECK_DICE = ("un d20 (aucun pour la perception passive) ; en jet opposé, le d20 de l'acteur "
              "puis celui de l'adversaire. --contre FICHE seul : une attaque vise la CA du "
              "défenseur, une sauvegarde le ND provisoire de la manœuvre de l'auteur, tout "
              "autre jet s'oppose au même jet de l'adversaire")

ACTIONS: dict[str, ActionSpec] = {
    "check": ActionSpec("check", "jet d'attaque, perception, sauvegarde, initiative ou test de "
                        "caractéristique, contre un ND, une CA ou un adversaire",
                        CHECK_OPTIONS, CHECK_DICE),
    "odds": ActionSpec("odds", "chances exactes du même jet (toucher et critique pour une "
                       "attaque ; jet opposé : égalités départagées comme au jet)",
                       CHECK_OPTIONS, rolls=False),
    "attack": ActionSpec(
        "attack", "attaque (ou attaque complète avec --complete) avec dégâts et réduction de "
        "dégâts, ou manœuvre de combat (--opt manoeuvre=...)",
        (CIRCONSTANCE, DEPOURVU, NATUREL_1, RD_SORT, MAGIQUE, FORCE_PROJECTILES, MANOEUVRE,
         SAUVEGARDE, ND, CARAC_MANOEUVRE, TOUR),
        "pour chaque attaque (une seule, ou toutes les itératives avec --complete) : le d20 "
        "d'attaque puis, si elle touche, les dés de dégâts de base (critique ou Coup "
        "Fantastique : facteur − 1 jets des dés de base). Manœuvre : le d20 de sauvegarde du "
        "défenseur"),
    "initiative": ActionSpec(
        "initiative", "ordre d'initiative (1d20 + Dextérité + dons + magie)", (),
        "un d20 par personnage, dans l'ordre des fiches ; puis, pour ceux qui restent à "
        "égalité (même total et même bonus de Dextérité), un d20 chacun, groupe par groupe "
        "depuis le haut de l'ordre, relancé tant que l'égalité dure"),
    "manoeuvre": ActionSpec(
        "manoeuvre", "manœuvre de combat contre un ou plusieurs adversaires (autant que "
        "d'attaques par round ; plusieurs : Action Complexe) : jdr regle manoeuvre AUTEUR "
        "CIBLE… --opt sauvegarde=reflexes|vigueur|volonte [--opt nd=N]",
        (MANOEUVRE, SAUVEGARDE, ND, CARAC_MANOEUVRE, TOUR),
        "un d20 de sauvegarde par adversaire, dans l'ordre donné", title="manœuvre"),
    "attendre": ActionSpec(
        "attendre", "le personnage n'agit pas ce round : +5 à son initiative à la fin du round "
        "(jdr regle attendre PERSONNAGE)", (), rolls=False),
    "surprise": ActionSpec(
        "surprise", "embuscade : un jet de l'embusqué contre la Perception passive de chaque "
        "cible ; les cibles surprises sont prises au dépourvu jusqu'à la fin du premier round "
        "(jdr regle surprise EMBUSQUE CIBLE…)", (JET_SURPRISE, CIRCONSTANCE),
        "un d20 pour l'embusqué (les Perceptions passives ne lancent pas de dé)"),
    "tour": ActionSpec(
        "tour", "vérifie les actions déclarées d'un tour (jdr regle tour PERSONNAGE --opt "
        "actions=mouvement+simple)", (ACTIONS_TOUR, TERRAIN), rolls=False),
    "xp": ActionSpec("xp", "gagner un niveau : jdr xp FICHE --pv --opt classe=NOM [--opt jet=N] "
                     "(pas de table d'XP dans le document)", (CLASSE, JET), rolls=False),
}


def option(name: str, value: str = "") -> Ref:
    """One of dd35's options named in a message (`--opt nom=valeur` typed, its label read)."""
    return opt_in(ACTIONS.values(), name, value)
