"""Cydonia's own rules as `jdr regle NOM PERSONNAGES… --opt cle=valeur` actions: what each
accepts (`RULES`, merged into the system's `ACTIONS`), and which function plays it or gives its
exact odds. Where the rulebook gives no number, the help says so and the MJ supplies it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from jdr.core.check import Odds
from jdr.core.options import ActionSpec, OptionSpec
from jdr.core.system import Outcome, RuleRequest
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.cydonia.sheet import CydoniaSheet
from jdr.systems.cydonia.tables import REST_DICE, RIDING

Request = RuleRequest[CydoniaSheet]

CHOICE = OptionSpec("choix", "int", "compétence experte : le dé gardé, donné d'avance (sinon "
                    "demandé une fois les dés montrés ; par défaut le meilleur)", None, "R000.17",
                    lo=1, hi=2,
                    label="Dé gardé d'avance")
DIE_ORDER = "1d10 du premier personnage (2d10 s'il est expert), puis"
# the French words of the places to sleep and of the paces (A000.25, R000.37), in their tables' order
_REST = {"belle_etoile": "À la belle étoile", "sac_de_couchage": "Sac de couchage", "tente": "Tente",
         "lit_de_paille": "Lit de paille", "chambre_luxueuse": "Chambre luxueuse"}
REST_LABELS = tuple(_REST[place] for place in REST_DICE)
_PACES = {"monter": "Monter en selle", "pas": "Pas", "trot": "Trot", "galop": "Galop",
          "triple_galop": "Triple galop"}
RIDING_LABELS = tuple(_PACES[pace] for pace in RIDING)


# How the pages write a rule whose typed name lost its accents or its words
TITLES = {"negociation": "négociation", "medecine": "médecine", "deplacement": "déplacement",
          "degagement": "dégagement", "elan": "élan", "detransformation": "détransformation",
          "reputation": "réputation", "xp_mana": "XP de mana", "xp_compagnon": "XP du compagnon",
          "recompenses": "récompenses"}


def _spec(name: str, help_text: str, options: tuple[OptionSpec, ...] = (), dice: str = "",
          rolls: bool = True) -> ActionSpec:
    return ActionSpec(name, help_text, options, dice, rolls, title=TITLES.get(name, ""))


_SOCIAL = (
    _spec("torture", "TORTIONNAIRE VICTIME — Torture (Dex) contre la Résistance "
          "Mentale de la victime, strictement supérieure pour qu'elle parle ; sinon la victime subit "
          "1d20 de dégâts, sans localisation ni protection (R000.04, A000.34).", (CHOICE,),
          f"{DIE_ORDER} 1d10 de Résistance Mentale de la victime, puis 1d20 de dégâts sur un échec"),
    _spec("negociation", "JOUEUR MARCHAND — Négociation contre Négociation ; "
          "5 % de ristourne par 2 points d'écart, 50 % au plus ; un critique en faveur du joueur "
          "donne 50 % (R000.55, A000.19).",
          (CHOICE, OptionSpec("prix", "int", "prix demandé : affiche le prix après ristourne",
                              None, "R000.55", lo=0, hi=10**9,
                              label="Prix demandé")),
          f"{DIE_ORDER} le ou les dés du marchand"),
    _spec("fouille", "PERSONNAGE — Chance + Fouille + 1d10 ; réussite : objets "
          "simples ; réussite critique : tout et un objet magique (générateur absent des règles) ; "
          "échec critique : rien ; sur un cadavre, le total en pièces d'argent (R000.56, A000.31).",
          (CHOICE, OptionSpec("seuil", "int", "seuil de réussite (au choix du MJ)", 10, "A000.31",
                              lo=0, hi=1000,
                              label="Seuil de réussite"),
           OptionSpec("cadavre", "bool", "fouille d'un cadavre : le total donne l'argent trouvé",
                      True, "R000.56",
                      label="Fouille d'un cadavre")),
          "1d10 (2d10 si Fouille est experte)"),
    _spec("medecine", "SOIGNEUR [PATIENT] — Mental + Médecine + 1d10 contre la "
          "difficulté du MJ ; réussite : PV = Médecine du soigneur, malus retiré selon le total ; "
          "une fois par jour et par patient ; un mourant remonté au-dessus de 0 PV est stabilisé "
          "(R000.54, A000.15, A000.12).",
          (CHOICE, OptionSpec("seuil", "text", "difficulté au choix du MJ (nombre ou nom : facile, "
                              "moyenne…)", None, "R000.54",
                              label="Difficulté", required=True),
           OptionSpec("nouveau_jour", "bool", "le patient a déjà été soigné, mais un nouveau jour "
                      "a commencé", False, "R000.54",
                      label="Nouveau jour")),
          "1d10 du soigneur (2d10 si Médecine est experte)"),
    _spec("repos", "PERSONNAGE — PV récupérés = Physique + 1 dé que le MJ choisit "
          "selon le lieu et la durée (R000.52, A000.25 : belle_etoile d4, sac_de_couchage d6, "
          "tente et lit_de_paille d10, chambre_luxueuse d20) ; ouvre un nouveau jour pour la "
          "Médecine. La durée du repos n'est pas chiffrée par les règles.",
          (OptionSpec("lieu", "choice", "où il dort (donne le dé)", None, "A000.25",
                      choices=tuple(REST_DICE),
                      label="Lieu du repos", labels=REST_LABELS),
           OptionSpec("de", "choice", "le dé choisi par le MJ", None, "R000.52",
                      choices=("4", "6", "10", "20"),
                      label="Dé du repos", labels=("1d4", "1d6", "1d10", "1d20"))),
          "le dé du repos"),
    _spec("soin", "PERSONNAGE — potion ou sort de soin : les règles n'en donnent pas les PV, le MJ "
          "les donne ; jusqu'au maximum, un mourant remonté au-dessus de 0 PV est stabilisé "
          "(R000.52, A000.12).",
          (OptionSpec("pv", "int", "PV rendus (donnée du MJ)", None, "R000.52", lo=1, hi=1000,
                      label="PV rendus", required=True),),
          rolls=False),
    _spec("malus", "PERSONNAGE — malus d'un jet de Courage raté, de la peur… dont le MJ fixe la "
          "valeur ; il est retiré de tous les jets jusqu'à ce que la Médecine l'ôte (R000.20, "
          "A000.16).",
          (OptionSpec("points", "int", "malus ajouté (+) ou retiré (−)", None, "A000.16",
                      lo=-100, hi=100,
                      label="Points de malus", required=True),), rolls=False),
)

_OUTDOORS = (
    _spec("chance", "PERSONNAGES… — quand le sort doit frapper le plus (ou le "
          "moins) chanceux, la plus haute Chance départage ; égalité : 1d10 (R000.19).", (),
          "1d10 par personnage encore à égalité, dans l'ordre des fiches"),
    _spec("deplacement", "PERSONNAGE — Course (total = mètres), Nager "
          "(total ÷ 2), Vol aérien des Lutins (total = mètres), par tour (R000.58, A000.35).",
          (CHOICE, OptionSpec("mode", "choice", "course, nage ou vol", "course", "R000.58",
                              choices=("course", "nage", "vol"),
                              label="Déplacement", labels=("Course", "Nage", "Vol"))),
          "1d10 (2d10 si expert)"),
    _spec("allure", "CAVALIER — Équitation contre la difficulté de l'allure "
          "(monter et pas 10, trot 15, galop 20, triple galop 25) ; échec : la monture n'atteint "
          "pas l'allure (R000.37, A000.36). Vitesse de course : Physique + Course de la monture + "
          "1d10 en mètres (A000.26) ; les montures n'ont pas de fiche : le MJ donne leurs valeurs.",
          (CHOICE, OptionSpec("allure", "choice", "l'allure demandée", None, "R000.37",
                              choices=tuple(RIDING),
                              label="Allure", labels=RIDING_LABELS, required=True),
           OptionSpec("course_monture", "int", "Course de la monture : ajoute le jet de vitesse",
                      None, "A000.26", lo=0, hi=100,
                      label="Course de la monture"),
           OptionSpec("physique_monture", "int", "Physique de la monture", 0, "A000.26",
                      lo=0, hi=100,
                      label="Physique de la monture")),
          "1d10 d'Équitation (2d10 si experte), puis 1d10 de vitesse"),
    _spec("dressage", "DRESSEUR — Mental + Dressage + 1d10 contre la difficulté "
          "de dressage de l'animal (A000.44), + 10 pour apprivoiser une bête sauvage (R000.57) ; "
          "les difficultés des animaux sont des données du MJ.",
          (CHOICE, OptionSpec("difficulte", "int", "difficulté de dressage de l'animal", None,
                              "A000.44", lo=0, hi=1000,
                              label="Difficulté de dressage", required=True),
           OptionSpec("sauvage", "bool", "apprivoiser une bête sauvage (+10)", False, "R000.57",
                      label="Bête sauvage")),
          "1d10 (2d10 si Dressage est expert)"),
    _spec("portance", "PERSONNAGE — 5 petits objets ou 1 gros par point de "
          "Physique, réserve commune ; les objets équipés ne comptent pas (R000.51, A000.24).",
          (OptionSpec("petits", "int", "petits objets portés", 0, "R000.51", lo=0, hi=10000,
                      label="Petits objets"),
           OptionSpec("gros", "int", "gros objets portés", 0, "R000.51", lo=0, hi=10000,
                      label="Gros objets")),
          rolls=False),
)

_FIGHTING = (
    _spec("kravkar", "LUTTEUR ADVERSAIRE — art martial ork : action n au corps "
          "à corps à −3 × (n − 1) contre une Esquive à chaque fois ; frappe PHY, projection PHY+1d10, "
          "prise : l'adversaire est immobilisé ; un échec termine le tour (R000.42, A000.30). Sans "
          "--opt gestes, l'action suivante est demandée après chaque réussite (par défaut : arrêter).",
          (OptionSpec("gestes", "text", "les actions dans l'ordre, ex. frappe,prise,projection",
                      None, "R000.42",
                      label="Gestes, dans l'ordre"),
           OptionSpec("autorise", "bool", "le MJ permet le Kravkar à un non-Ork", False, "A000.30",
                      label="Autorisé par le MJ")),
          "pour chaque action, comme jdr attaque à mains nues (attaque, Esquive, localisation au "
          "corps à corps, dégâts, Résistance Physique sur la tête)"),
    _spec("degagement", "TENU TENEUR — Physique × 2 + 1d10 de chacun, le tenu "
          "doit faire strictement plus pour se dégager d'une prise (R000.42, A000.30).", (),
          "1d10 du tenu, puis 1d10 du teneur"),
    _spec("elan", "CAVALIER — un tour à prendre de l'élan ; la charge en demande 2 "
          "(R000.39, A000.27).", rolls=False),
    _spec("charge", "CAVALIER CIBLE [SECONDAIRES…] — après 2 tours d'élan, "
          "attaque montée dont les dégâts ajoutent la Course de la monture ; les adversaires "
          "secondaires groupés qui ratent leur Esquive contre le jet d'attaque subissent les "
          "dégâts de la monture (R000.39, A000.27). Les règles ne chiffrent ni les dégâts d'une "
          "monture ni ceux d'une charge au bouclier (R000.43) : le MJ donne degats_monture.",
          (CHOICE, OptionSpec("course_monture", "int", "Course de la monture",
                              None, "R000.39", lo=0, hi=100,
                              label="Course de la monture", required=True),
           OptionSpec("degats_monture", "text", "formule des dégâts de la monture, ex. 2d6",
                      None, "A000.27",
                      label="Dégâts de la monture"),
           OptionSpec("arme", "text", "arme du cavalier (sinon l'arme principale)", None, "R000.35",
                      label="Arme du cavalier")),
          "l'attaque comme jdr attaque --opt monte=oui, puis pour chaque adversaire secondaire "
          "1d10 d'Esquive et, s'il la rate, les dés des dégâts de la monture"),
    _spec("concentration", "PERSONNAGE — il passe son tour ; +2 au "
          "prochain jet ou aux dégâts par tour, 3 tours au plus ; attaqué, −6 à sa défense ; "
          "touché, tout est perdu (R000.36, A000.23).", rolls=False),
    _spec("transformation", "LOUP-GAROU — sans jet, Transformation "
          "s'ajoute au Physique et à l'Agilité pendant autant de tours (R000.40, A000.28) ; les "
          "règles ne donnent pas de formule de PV : le gain de PV est celui du MJ (--opt pv=N), "
          "retiré au retour à la forme normale (ce qui peut laisser mourant).",
          (OptionSpec("pv", "int", "PV gagnés par le Physique accru (donnée du MJ)", 0, "A000.28",
                      lo=0, hi=1000,
                      label="PV gagnés"),), rolls=False),
    _spec("detransformation", "LOUP-GAROU — fin de la transformation "
          "avant son terme ; les PV gagnés sont retirés (R000.40, A000.28).", rolls=False),
)

_CAREER = (
    _spec("reputation", "PERSONNAGE --opt points=N — points signés cumulés ; "
          "|T| points vers le niveau T, remis à 0 à chaque changement (R000.48–R000.50, A000.32).",
          (OptionSpec("points", "int", "points gagnés (+) ou perdus (−)", None, "R000.50",
                      lo=-1000, hi=1000,
                      label="Points de réputation", required=True),), rolls=False),
    _spec("xp_mana", "PERSONNAGE — +3 points de mana pour 1 XP (R000.45).",
          rolls=False),
    _spec("xp_compagnon", "PERSONNAGE — +1 à une stat d'un animal ou d'un "
          "serviteur pour 2 XP (R000.45) ; compagnons et stats sont des données du MJ sur la fiche "
          "(compagnons: {loup: {stats: {physique: 4}}}), sans plafond dans les règles.",
          (OptionSpec("compagnon", "text", "nom du compagnon", None, "R000.45",
                      label="Compagnon", required=True),
           OptionSpec("stat", "text", "stat à monter", None, "R000.45",
                      label="Statistique à monter", required=True)), rolls=False),
    _spec("recompenses", "PERSONNAGE — récompenses de fin de scénario écrites "
          "sur la fiche : communes (participation, réussite, Shira, Kei) et individuelles (R000.46, "
          "R000.47).",
          (OptionSpec("participation", "bool", "scénario joué en entier : 2 XP et 1 PA", False,
                      "R000.46",
                      label="Participation"),
           OptionSpec("reussite", "bool", "scénario réussi : 2 XP et 1 PA", False, "R000.46",
                      label="Scénario réussi"),
           OptionSpec("shira", "bool", "amélioration Shira : 2 XP Shira", False, "R000.46",
                      label="Amélioration Shira"),
           OptionSpec("kei", "bool", "respect du Kei : 2 XP Shira (1 PA pour un Shaman)", False,
                      "R000.46",
                      label="Respect du Kei"),
           OptionSpec("shaman", "bool", "le personnage est un Shaman", False, "R000.46",
                      label="Shaman"),
           OptionSpec("individuelles", "text", "ex. meilleure_idee:pa,plus_gros_poissard (xp par "
                      "défaut)", None, "R000.47",
                      label="Récompenses individuelles"),
           OptionSpec("reputation", "int", "points de réputation", 0, "R000.50", lo=-1000,
                      hi=1000,
                      label="Points de réputation")), rolls=False),
)

RULES: dict[str, ActionSpec] = {s.name: s for s in (*_SOCIAL, *_OUTDOORS, *_FIGHTING, *_CAREER)}

# Each rule's function as `module.name` in this package: imported when the rule is played, so
# that loading the system (every `jdr test`) imports none of its chapters of rules.
ROLLING: dict[str, str] = {
    "torture": "social.torture", "negociation": "social.negotiation",
    "fouille": "social.search_rule", "medecine": "social.medicine", "repos": "social.rest",
    "chance": "outdoors.luck", "deplacement": "outdoors.movement", "allure": "outdoors.pace",
    "dressage": "outdoors.training", "kravkar": "fighting.kravkar",
    "degagement": "fighting.escape", "charge": "fighting.charge",
}
STILL: dict[str, str] = {
    "portance": "outdoors.carrying", "soin": "social.care", "malus": "social.malus",
    "elan": "fighting.run_up", "concentration": "fighting.concentrate",
    "transformation": "fighting.transform", "detransformation": "fighting.untransform",
    "reputation": "career.reputation", "xp_mana": "career.buy_mana",
    "xp_compagnon": "career.buy_companion_stat", "recompenses": "career.awards",
}
ODDS: dict[str, str] = {
    "torture": "social.torture_odds", "negociation": "social.negotiation_odds",
    "fouille": "social.search_odds", "medecine": "social.medicine_odds",
    "repos": "social.rest_odds", "chance": "outdoors.luck_odds",
    "deplacement": "outdoors.movement_odds", "allure": "outdoors.pace_odds",
    "dressage": "outdoors.training_odds", "kravkar": "fighting.kravkar_odds",
    "degagement": "fighting.escape_odds", "charge": "fighting.charge_odds",
}


def _function(where: str) -> Any:
    """`social.torture` → the function `torture` of `jdr.systems.cydonia.social`."""
    from importlib import import_module

    module, _, name = where.partition(".")
    return getattr(import_module(f"jdr.systems.cydonia.{module}"), name)


def play(name: str, request: Request, source: DiceSource | None) -> Outcome:
    """The rule `name` (declared in `RULES`)."""
    if name in STILL:
        still: Callable[[Request], Outcome] = _function(STILL[name])
        return still(request)
    if name not in ROLLING:
        raise RuleError(f"règle « {name} » inconnue (règles : {', '.join(sorted(RULES))})")
    if source is None:
        raise RuleError(f"la règle « {name} » lance des dés : source de dés absente")
    rolling: Callable[[Request, DiceSource], Outcome] = _function(ROLLING[name])
    return rolling(request, source)


def odds(name: str, request: Request) -> Odds:
    if name not in ODDS:
        raise RuleError(f"la règle « {name} » ne lance pas de dés : pas de chances à calculer")
    odds_of: Callable[[Request], Odds] = _function(ODDS[name])
    return odds_of(request)
