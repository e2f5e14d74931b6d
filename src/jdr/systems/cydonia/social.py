"""Cydonia, the rules of everyday life (RULES.md 1.2 and 1.5), each a `jdr regle` action:
torture, négociation, fouille, médecine, repos, and the MJ's care and malus. Each roll is built
once (`_torture`, `_negotiation`, …) and gives both the dice and the exact odds."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from jdr.core.check import Check, Modifier, Odds, SingleDie
from jdr.core.contest import Contest, ContestResult
from jdr.core.messages import Ref, rule, say, usage
from jdr.core.results import Line, Notes, Report
from jdr.core.system import Loaded, Outcome, RuleRequest
from jdr.dice.notation import roll
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.cydonia.adventure import medicine_malus_removed, negotiation_discount, rest_die, search
from jdr.systems.cydonia.checks import (
    CONTEST,
    Character,
    amount_judge,
    opposing_check,
    resistance_check,
    roll_check,
    roll_contest,
    skill_check,
)
from jdr.systems.cydonia.config import CONFIG
from jdr.systems.cydonia.rulekit import (
    Update,
    alive,
    cast,
    character,
    heal,
    lose,
    sheet_changes,
    threshold,
)
from jdr.systems.cydonia.sheet import CydoniaSheet

Request = RuleRequest[CydoniaSheet]

# ------------------------------------------------------------------ torture (R000.04, A000.34)

TORTURE = "torture TORTIONNAIRE VICTIME"


def _torture(request: Request) -> tuple[Character, Character, Contest]:
    """R000.16: Torture (Dex) against the victim's Résistance Mentale, strictly greater."""
    torturer, victim = (character(s) for s in cast(request, TORTURE, 2))
    alive(victim, "on ne torture pas un mort")
    actor = skill_check(torturer, "torture", choice=request.options.int("choix"))
    return torturer, victim, Contest(actor, resistance_check(victim, "resistance_mentale"), CONTEST)


def torture(request: Request, source: DiceSource) -> Outcome:
    """R000.04 (L61): the victim talks when Torture is greater than its Résistance Mentale;
    otherwise it takes 1D20 damage, straight off its hit points (A000.34)."""
    torturer, victim, contest = _torture(request)
    result = roll_contest(contest, source, request.chooser)
    title = f"Torture : {torturer.name} contre {victim.name}"
    if result.success:
        talks = Line(f"{victim.name} parle : la Torture dépasse sa Résistance Mentale", "R000.04")
        return Outcome(Report(title, (result,), (talks,), "R000.16"))
    damage = roll("1d20", source)
    hp = lose(victim, damage.total, "échec de la torture : 1d20 de dégâts, sans localisation ni "
              "protection", "R000.04, A000.34")
    notes = (Line(f"{victim.name} ne parle pas", "R000.04"), *hp.notes)
    return Outcome(Report(title, (result, damage), notes, "R000.16"),
                   sheet_changes(request.sheets[1].doc, hp.updates))


def torture_odds(request: Request) -> Odds:
    _, victim, contest = _torture(request)
    odds = contest.odds()
    assert odds.success is not None
    hp = int(victim.sheet.pv.actuels)
    down = Fraction(1) if hp <= 0 else Fraction(max(0, 21 - hp), 20)
    fail = 1 - odds.success
    return replace(odds, rule="R000.04, R000.16", extra=(
        ("victime_blessee", "la victime subit 1d20 (échec)", fail),
        ("victime_a_terre", f"la victime tombe à 0 PV ou moins (elle a {hp} PV)", fail * down)))


# ------------------------------------------------------------------ négociation (R000.55)

NEGOTIATION = "negociation JOUEUR MARCHAND"


def _negotiation(request: Request) -> tuple[Character, Character, Contest]:
    """R000.55: the player's Négociation against the merchant's, strictly greater."""
    player, merchant = (character(s) for s in cast(request, NEGOTIATION, 2))
    alive(merchant, "on ne marchande pas avec un mort")
    actor = skill_check(player, "negociation", choice=request.options.int("choix"))
    return player, merchant, Contest(actor, opposing_check(merchant, "negociation"), CONTEST)


def _discount_line(result: ContestResult, discount: int) -> Line:
    crit = result.actor.critical == "success" or result.opponent.critical == "failure"
    if discount == 50 and crit:
        return Line("critique en faveur du joueur : 50 % de ristourne d'office", "R000.55, A000.03")
    if discount:
        return Line(f"ristourne de {discount} % (écart {result.margin} : 5 % par 2 points, 50 % "
                    "au plus)", "R000.55, A000.19")
    return Line("aucune ristourne : le marchand garde son prix", "R000.55, A000.19")


def _price(price: int, discount: int) -> str:
    value = Fraction(price * (100 - discount), 100)
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".replace(".", ",")


def negotiation(request: Request, source: DiceSource) -> Outcome:
    player, merchant, contest = _negotiation(request)
    result = roll_contest(contest, source, request.chooser)
    discount = negotiation_discount(result)
    lines = [_discount_line(result, discount)]
    price = request.options.int("prix")
    if price is not None:
        lines.append(Line(f"prix : {price} → {_price(price, discount)}", "R000.55"))
    title = f"Négociation : {player.name} contre {merchant.name}"
    return Outcome(Report(title, (result,), tuple(lines), "R000.55"))


def negotiation_odds(request: Request) -> Odds:
    """The contest's odds, and the exact chance of each discount (criticals included)."""
    _, _, contest = _negotiation(request)
    counts: dict[int, Fraction] = {}
    for a, pa in contest.actor.outcomes():
        for b, pb in contest.opponent.outcomes():
            discount = negotiation_discount(contest.resolve(a, b))
            counts[discount] = counts.get(discount, Fraction(0)) + pa * pb
    extra = tuple((f"ristourne_{d}", f"ristourne de {d} %", p) for d, p in sorted(counts.items()))
    return replace(contest.odds(), extra=extra, rule="R000.55, A000.19")


# ------------------------------------------------------------------ fouille (R000.56)

SEARCH = "fouille PERSONNAGE"


def _search(request: Request) -> tuple[Character, Check]:
    """R000.56, A000.31: Chance + Fouille + 1D10 against the MJ's threshold (10 by default)."""
    (sheet,) = cast(request, SEARCH, 1)
    c = character(sheet)
    limit = request.options.int("seuil", CONFIG.fouille_threshold)
    return c, skill_check(c, "fouille", threshold=limit, choice=request.options.int("choix"))


def search_rule(request: Request, source: DiceSource) -> Outcome:
    c, check = _search(request)
    result = roll_check(check, source, request.chooser)
    corpse = request.options.flag("cadavre")
    find = search(result, corpse)
    lines = [Line(f"trouvé : {find.found}", "R000.56, A000.31")]
    if result.critical == "success":
        lines.append(Line("l'objet magique se tire avec le générateur d'objet magique (absent des "
                          "règles fournies)", "A000.40"))
    if corpse and result.critical != "failure":
        lines.append(Line(f"sur le cadavre : {find.gold} Po et {find.silver} Par (total "
                          f"{max(result.total, 0)} Par ; 10 Par = 1 Po)", "R000.56, A000.31"))
    return Outcome(Report(f"Fouille : {c.name}", (result,), tuple(lines), "R000.56"))


def search_odds(request: Request) -> Odds:
    _, check = _search(request)
    odds = check.odds()
    assert odds.success is not None
    nothing = 1 - odds.success
    return replace(odds, rule="R000.56, A000.31", extra=(
        ("objets_simples", "les objets simples seulement", odds.success - odds.critical_success),
        ("objet_magique", "tous les objets et un objet magique", odds.critical_success),
        ("rien", "rien", nothing)))


# ------------------------------------------------------------------ médecine (R000.54)

MEDICINE = "medecine SOIGNEUR [PATIENT] --opt seuil=…"


def _medicine(request: Request) -> tuple[Character, Character, Loaded[CydoniaSheet], Check]:
    """R000.54: Mental + Médecine + 1D10 against the MJ's difficulty; alone, one heals oneself."""
    sheets = cast(request, MEDICINE, 1, 2)
    healer, patient = character(sheets[0]), character(sheets[-1])
    alive(patient, "la Médecine ne ramène pas les morts")
    limit = threshold(request.options, "seuil", MEDICINE)
    check = skill_check(healer, "medecine", threshold=limit, choice=request.options.int("choix"))
    return healer, patient, sheets[-1], check


def _less_malus(patient: Character, removed: int) -> int:
    """The malus left, written with the sign the sheet uses (A000.16)."""
    left = patient.malus - removed
    return -left if patient.sheet.etat.malus < 0 else left


def medicine(request: Request, source: DiceSource) -> Outcome:
    """R000.54, A000.15, A000.12: once a day per patient; a success restores HP = the healer's
    Médecine and removes malus by the total; a dying patient above 0 HP is stabilised."""
    healer, patient, sheet, check = _medicine(request)
    if patient.sheet.etat.soigne and not request.options.flag("nouveau_jour"):
        raise RuleError(say(f"{patient.name} a déjà reçu la Médecine aujourd'hui : une fois par "
                            "jour (R000.54) ; un repos (", rule("repos"), ") ou ",
                            request.options.ref("nouveau_jour", "oui"), " ouvre un nouveau jour"))
    result = roll_check(check, source, request.chooser)
    updates: list[Update] = [(("etat", "soigne"), True)]
    lines: list[Line] = []
    if result.success:
        hp = heal(patient, healer.skill("medecine"), "Médecine réussie (PV = compétence Médecine "
                  "du soigneur)", "R000.54")
        updates += hp.updates
        lines += hp.notes
        removed = medicine_malus_removed(result.total, patient.malus)
        if patient.malus:
            updates.append((("etat", "malus"), _less_malus(patient, removed)))
            lines.append(Line(f"malus {patient.malus} → {patient.malus - removed} (total "
                              f"{result.total} : {removed} point(s) retiré(s))", "R000.54, A000.15"))
    else:
        lines.append(Line("échec : ni PV ni malus rendus ; la Médecine a servi pour aujourd'hui",
                          "R000.54"))
    title = f"Médecine : {healer.name} soigne {patient.name}"
    return Outcome(Report(title, (result,), tuple(lines), "R000.54"),
                   sheet_changes(sheet.doc, updates))


def medicine_odds(request: Request) -> Odds:
    """The roll's odds; with a malus to remove, the exact chance of each amount removed."""
    _, patient, _, check = _medicine(request)
    odds = check.odds()
    if not patient.malus:
        return replace(odds, rule="R000.54")
    counts: dict[int, Fraction] = {}
    for result, p in check.outcomes():
        if result.success:
            removed = medicine_malus_removed(result.total, patient.malus)
            counts[removed] = counts.get(removed, Fraction(0)) + p
    extra = tuple((f"malus_retire_{k}", f"réussite, {k} point(s) de malus retiré(s)", p)
                  for k, p in sorted(counts.items()))
    return replace(odds, rule="R000.54, A000.15", extra=extra)


# ------------------------------------------------------------------ repos (R000.52)

REST = "repos PERSONNAGE --opt lieu=… (ou --opt de=4|6|10|20)"


def _rest(request: Request) -> tuple[Loaded[CydoniaSheet], Character, Check]:
    """R000.52, A000.25: Physique + one die the MJ picks by where the character sleeps."""
    (sheet,) = cast(request, REST, 1)
    c = character(sheet)
    alive(c, "un mort ne se repose plus")
    place, die = request.options.text("lieu"), request.options.text("de")
    if (place is None) == (die is None):
        raise RuleError(say("repos : choisir ", Ref(
            "--opt lieu=… (belle_etoile, sac_de_couchage, tente, lit_de_paille, chambre_luxueuse)",
            request.options.ref("lieu").web), " ou ", request.options.ref("de", "4|6|10|20"),
            " : le dé est au choix du MJ (R000.52, A000.25)"))
    sides = rest_die(place) if place is not None else int(str(die))
    check = Check(f"Repos (Physique + 1d{sides})", SingleDie(sides),
                  (Modifier(c.characteristic("physique"), "Physique"),), amount_judge, None,
                  "R000.52, A000.25", c.name)
    return sheet, c, check


def rest(request: Request, source: DiceSource) -> Outcome:
    """HP += PHY + the die, up to the maximum; a night's rest starts a new day (Médecine)."""
    sheet, c, check = _rest(request)
    result = check.roll(source)
    hp = heal(c, result.total, "repos (PHY + 1 dé)", "R000.52")
    updates, lines = list(hp.updates), list(hp.notes)
    if c.sheet.etat.soigne:
        updates.append((("etat", "soigne"), False))
        lines.append(Line("un nouveau jour : la Médecine peut de nouveau le soigner", "R000.54"))
    return Outcome(Report(f"Repos : {c.name}", (result,), tuple(lines), "R000.52"),
                   sheet_changes(sheet.doc, updates))


def rest_odds(request: Request) -> Odds:
    _, c, check = _rest(request)
    note = f"PV rendus = le total, sans dépasser le maximum ({c.sheet.pv.max})"
    return replace(check.odds(), notes=(note,))


# ------------------------------------------------------------------ soins et malus donnés par le MJ

CARE = "soin PERSONNAGE --opt pv=N"
MALUS = "malus PERSONNAGE --opt points=N"


def care(request: Request) -> Outcome:
    """R000.52: potions and spells heal too; the rules give no amounts, the MJ does (A000.40).
    Up to the maximum; a dying character brought above 0 HP is stabilised (A000.12)."""
    (sheet,) = cast(request, CARE, 1)
    c = character(sheet)
    alive(c, "aucun soin ne ramène un mort (R000.34)")
    amount = request.options.int("pv")
    if not amount:
        raise RuleError(request.options.missing("pv", "les PV rendus par la potion ou le sort "
                                                "(donnée du MJ)", usage(CARE)))
    hp = heal(c, amount, "soin (potion, sort)", "R000.52")
    return Outcome(Notes(f"Soin : {c.name}", hp.notes, "R000.52"), sheet_changes(sheet.doc, hp.updates))


def malus(request: Request) -> Outcome:
    """R000.20, A000.16: a failed Courage roll, fear (Intimidation)… give a malus whose amount
    the MJ sets; it is taken off every roll until Médecine removes it (R000.54)."""
    (sheet,) = cast(request, MALUS, 1)
    c = character(sheet)
    change = request.options.int("points")
    if not change:
        raise RuleError(request.options.missing("points", "le malus ajouté (+) ou retiré (−)",
                                                usage(MALUS)))
    after = max(0, c.malus + change)
    line = Line(f"malus {c.malus} → {after} : −{after} à tous ses jets", "A000.16, R000.20")
    return Outcome(Notes(f"Malus : {c.name}", (line,), "A000.16"),
                   sheet_changes(sheet.doc, ((("etat", "malus"), after),)))
