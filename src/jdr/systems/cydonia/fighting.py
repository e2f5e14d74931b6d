"""Cydonia, the combat rules beyond one attack (RULES.md R000.36–R000.42), each a `jdr regle`
action: the Kravkar chain and breaking a hold, the mounted charge and its run-up, declaring
concentration, the werewolf's transformation and its end."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from jdr.core.check import Check, Modifier, Odds
from jdr.core.contest import Contest, ContestResult
from jdr.core.french import accord, de, state_label
from jdr.core.messages import Ref, rule, say
from jdr.core.results import Line, Notes, Report, Result
from jdr.core.system import Chooser, Outcome, Question, RuleRequest
from jdr.dice.notation import roll
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.cydonia.checks import (
    CONTEST,
    Character,
    malus_modifiers,
    opposing_check,
    passive_check,
    raw_check,
    roll_check,
    roll_contest,
)
from jdr.systems.cydonia.combat import AttackOptions, attack, attack_contest
from jdr.systems.cydonia.duel import Fighter
from jdr.systems.cydonia.rulekit import (
    Update,
    alive,
    cast,
    character,
    lose,
    required_int,
    sheet_changes,
)
from jdr.systems.cydonia.sheet import CydoniaSheet
from jdr.systems.cydonia.wounds import concentration_bonus, kravkar_malus

Request = RuleRequest[CydoniaSheet]

# ------------------------------------------------------------------ Kravkar (R000.42, A000.30)

KRAVKAR = "kravkar LUTTEUR ADVERSAIRE [--opt gestes=frappe,prise,projection]"
MOVES = ("frappe", "projection", "prise")
MAX_ACTIONS = 20


def _plan(text: str | None, where: Ref) -> tuple[str, ...]:
    if text is None:
        return ()
    moves = tuple(normalize(m) for m in text.split(",") if m.strip())
    for move in moves:
        if move not in MOVES:
            raise RuleError(say(where, " : " + unknown_name_message("geste", move, MOVES)))
    if len(moves) > MAX_ACTIONS:
        raise RuleError(say(where, f" : {MAX_ACTIONS} actions au plus"))
    return moves


def _wrestlers(request: Request) -> tuple[Character, Character, tuple[str, ...]]:
    """A000.30: Orks, or whoever the MJ allows."""
    wrestler, foe = (character(s) for s in cast(request, KRAVKAR, 2))
    if normalize(wrestler.sheet.peuple or "") != "ork" and not request.options.flag("autorise"):
        raise RuleError(say(f"le Kravkar est l'art martial des Orks (R000.42) : {wrestler.name} "
                            "n'est pas un Ork ; le MJ peut le permettre (",
                            request.options.ref("autorise", "oui"), ", A000.30)"))
    alive(foe, "on n'attaque plus un mort")
    return wrestler, foe, _plan(request.options.text("gestes"), request.options.ref("gestes"))


def _move_options(move: str, action: int) -> AttackOptions:
    """R000.32, R000.42: a strike deals Physique (claws: +1D10), a throw or a slam PHY + 1D10,
    a hold immobilises."""
    return AttackOptions(weapon="mains_nues", kravkar=action, hold=move == "prise",
                         formula="PHY+1d10" if move == "projection" else None,
                         move=f"Kravkar, action {action} : {move}")


def _next_move(plan: tuple[str, ...], done: int, chooser: Chooser, shown: Result) -> str | None:
    """The next action: from the plan given in advance, else asked once the last one succeeded
    (default: stop)."""
    if plan:
        return plan[done] if done < len(plan) else None
    if done >= MAX_ACTIONS:
        return None
    prompt = (f"Kravkar : tenter l'action {done + 1} à {kravkar_malus(done + 1)} ? "
              "(arreter, frappe, projection, prise)")
    labels = ("S'arrêter", "Frappe", "Projection", "Prise")
    answer = chooser(Question(prompt, ("arreter", *MOVES), "arreter", shown, labels))
    if answer == "arreter":
        return None
    if answer not in MOVES:
        raise RuleError("Kravkar : " + unknown_name_message("geste", str(answer)[:20], MOVES))
    return answer


def kravkar(request: Request, source: DiceSource) -> Outcome:
    """R000.42: action n at −3 × (n − 1) against an Esquive each time; a failed action does not
    happen and ends the wrestler's turn."""
    wrestler, foe, plan = _wrestlers(request)
    me, them = Fighter(wrestler), Fighter(foe)
    parts: list[Result] = []
    notes: list[Line] = []
    move: str | None = plan[0] if plan else "frappe"
    action = 1
    while move is not None:
        blow = attack(me.character, them.character, _move_options(move, action), source,
                      request.chooser)
        parts.append(blow.report)
        me.apply(blow.attacker)
        them.apply(blow.defender)
        if not blow.report.hit:
            notes.append(Line(f"action {action} ratée : elle n'a pas lieu, le tour de "
                              f"{wrestler.name} est terminé", "R000.42"))
            break
        if them.over:
            break
        move = _next_move(plan, action, request.chooser, blow.report)
        if move is None:
            notes.append(Line(f"{wrestler.name} s'arrête après {action} action(s)", "R000.42"))
        action += 1
    changes = (sheet_changes(request.sheets[0].doc, me.changes.items())
               + sheet_changes(request.sheets[1].doc, them.changes.items()))
    report = Report(f"Kravkar : {wrestler.name} contre {foe.name}", tuple(parts), tuple(notes),
                    "R000.42")
    return Outcome(report, changes)


def kravkar_odds(request: Request) -> Odds:
    """The first action's odds, and the chance of each run of successes (the opponent assumed
    able to dodge throughout)."""
    wrestler, foe, plan = _wrestlers(request)
    moves = plan or ("frappe",) * 5
    chance = Fraction(1)
    extra: list[tuple[str, str, Fraction]] = []
    for action, move in enumerate(moves, start=1):
        success = attack_contest(wrestler, foe, _move_options(move, action))[1].odds().success
        assert success is not None
        chance *= success
        said = "action 1 réussie" if action == 1 else f"actions 1 à {action} réussies"
        extra.append((f"actions_{action}", f"{said} ({move})", chance))
    first = attack_contest(wrestler, foe, _move_options(moves[0], 1))[1].odds()
    return replace(first, rule="R000.42", extra=tuple(extra), notes=(
        "chaque action contre une Esquive ; on suppose l'adversaire en état de se défendre",))


# ------------------------------------------------------------------ se dégager (R000.42)

ESCAPE = "degagement TENU TENEUR"


def _double_physique(c: Character) -> Check:
    """A000.30: Physique × 2 + 1D10."""
    parts = (Modifier(2 * c.characteristic("physique"), "Physique × 2"), *malus_modifiers(c))
    return raw_check("Physique × 2", parts, rule="R000.42, A000.30", who=c.name)


def _escape(request: Request) -> tuple[Character, Character, Contest]:
    held, holder = (character(s) for s in cast(request, ESCAPE, 2))
    if not held.sheet.etat.immobilise:
        raise RuleError(f"aucune prise ne tient {held.name} : rien à dégager (R000.42)")
    theirs = _double_physique(holder) if holder.can_act else passive_check(holder, "opposition")
    return held, holder, Contest(_double_physique(held), theirs, CONTEST)


def escape(request: Request, source: DiceSource) -> Outcome:
    """R000.42, A000.30: the held character breaks free on a strictly greater Physique × 2."""
    held, holder, contest = _escape(request)
    result: ContestResult = roll_contest(contest, source, request.chooser)
    updates: list[Update] = []
    if result.success:
        updates.append((("etat", "immobilise"), None))
        line = Line(f"{held.name} se dégage de la prise", "R000.42")
    else:
        line = Line(f"{held.name} reste {state_label('immobilise', held.genre)}", "R000.42")
    report = Report(f"Se dégager : {held.name} contre {holder.name}", (result,), (line,), "R000.42")
    return Outcome(report, sheet_changes(request.sheets[0].doc, updates))


def escape_odds(request: Request) -> Odds:
    return _escape(request)[2].odds()


# ------------------------------------------------------------------ la charge (R000.39, A000.27)

CHARGE = "charge CAVALIER CIBLE [SECONDAIRES…] --opt course_monture=N"
RUN_UP = "elan CAVALIER"


def _rider(c: Character) -> None:
    if c.skill("equitation") <= 0:
        raise RuleError(f"{c.name} n'a pas la compétence Équitation : la charge la demande "
                        "(R000.04, R000.39)")


def _charge(request: Request) -> tuple[Character, Character, list[Character], AttackOptions]:
    rider, target, *others = (character(s) for s in cast(request, CHARGE, 2, 12))
    _rider(rider)
    for c in (target, *others):
        alive(c, "on ne charge pas un mort")
    course = required_int(request.options, "course_monture", CHARGE, "la Course de la monture "
                          "(les montures n'ont pas de fiche dans les règles : donnée du MJ)")
    opts = AttackOptions(weapon=request.options.text("arme"), mounted_attacker=True,
                         extra_damage=course, choice=request.options.int("choix"))
    return rider, target, others, opts


def _trampled(c: Character, attack_total: int, formula: str, source: DiceSource,
              chooser: Chooser) -> tuple[Result, tuple[Update, ...]]:
    """R000.39, A000.27: a secondary adversary dodges the rider's attack result; on a failure
    it takes the mount's damage (the MJ's formula), with no location nor protection."""
    dodge = roll_check(opposing_check(c, "esquive"), source, chooser)
    title = f"{c.name}, adversaire secondaire"
    if dodge.total >= attack_total:
        line = Line(f"esquive la monture ({dodge.total} contre {attack_total})", "A000.27")
        return Report(title, (dodge,), (line,), "R000.39"), ()
    damage = roll(formula, source)
    hp = lose(c, max(0, damage.total), "la monture le frappe (dégâts de la monture, sans "
              "localisation ni protection)", "R000.39, A000.27")
    missed = Line(f"rate son esquive ({dodge.total} contre {attack_total})", "A000.27")
    return Report(title, (dodge, damage), (missed, *hp.notes), "R000.39"), hp.updates


def charge(request: Request, source: DiceSource) -> Outcome:
    """R000.39: after 2 turns of run-up, a mounted attack whose damage adds the mount's Course;
    grouped secondary adversaries who fail to dodge take the mount's damage."""
    rider, target, others, opts = _charge(request)
    if rider.sheet.etat.elan < 2:
        raise RuleError(say(f"{rider.name} a {rider.sheet.etat.elan} tour(s) d'élan : la charge en "
                            "demande 2 (", rule("elan"), "), puis 1 tour pour charger (R000.39)"))
    formula = request.options.text("degats_monture")
    if others and formula is None:
        raise RuleError(say("adversaires secondaires : ",
                            request.options.ref("degats_monture", "FORMULE"), " — les dégâts "
                            "d'une monture ne sont pas dans les règles (A000.27), le MJ les donne"))
    blow = attack(rider, target, opts, source, request.chooser)
    parts: list[Result] = [blow.report]
    changes = (sheet_changes(request.sheets[0].doc, (*blow.attacker, (("etat", "elan"), 0)))
               + sheet_changes(request.sheets[1].doc, blow.defender))
    first = blow.report.steps[0]
    assert isinstance(first, ContestResult)
    for sheet, other in zip(request.sheets[2:], others, strict=True):
        assert formula is not None
        part, updates = _trampled(other, first.actor.total, formula, source, request.chooser)
        parts.append(part)
        changes += sheet_changes(sheet.doc, updates)
    line = Line("l'élan est dépensé : 2 nouveaux tours d'élan avant la prochaine charge", "R000.39")
    return Outcome(Report(f"Charge : {rider.name}", tuple(parts), (line,), "R000.39"), changes)


def charge_odds(request: Request) -> Odds:
    rider, target, _, opts = _charge(request)
    odds = attack_contest(rider, target, opts)[1].odds()
    return replace(odds, rule="R000.39, R000.38", notes=(
        f"coup au but : dégâts de l'arme + Course de la monture ({opts.extra_damage})",))


def run_up(request: Request) -> Outcome:
    """R000.39, A000.27: a turn spent gathering momentum (2 before a charge)."""
    (sheet,) = cast(request, RUN_UP, 1)
    c = character(sheet)
    _rider(c)
    now = int(c.sheet.etat.elan)
    if now >= 2:
        line = Line("déjà 2 tours d'élan : " + accord(c.genre, "il peut charger", "elle peut charger",
                                                      "la charge est possible")
                    + " (règle « charge »)", "R000.39")
        return Outcome(Notes(f"Élan : {c.name}", (line,), "R000.39"))
    ready = accord(c.genre, " ; il peut charger au prochain tour", " ; elle peut charger au prochain tour",
                   " ; la charge est possible au prochain tour")
    line = Line(f"élan : {now + 1}/2 tour(s)" + (ready if now + 1 == 2 else ""), "R000.39, A000.27")
    return Outcome(Notes(f"Élan : {c.name}", (line,), "R000.39"),
                   sheet_changes(sheet.doc, ((("etat", "elan"), now + 1),)))


# ------------------------------------------------------------------ concentration (R000.36)

CONCENTRATE = "concentration PERSONNAGE"


def concentrate(request: Request) -> Outcome:
    """R000.36, A000.23: a turn not played adds +2 to the next roll or its damage, 3 turns at
    most; attacked meanwhile, −6 to the defence; hit, it is all lost."""
    (sheet,) = cast(request, CONCENTRATE, 1)
    c = character(sheet)
    now = int(c.sheet.etat.concentration)
    title = f"Concentration : {c.name}"
    warning = Line(accord(c.genre, "attaqué", "attaquée", "une attaque") + " pendant sa "
                   "concentration : −6 à sa défense ; " + accord(c.genre, "touché", "touchée",
                                                                "un coup au but")
                   + ", elle est perdue", "R000.36, A000.23")
    if now >= 3:
        full = Line("déjà 3 tours : le maximum (+6)", "R000.36")
        return Outcome(Notes(title, (full, warning), "R000.36"))
    use = Line(f"{now + 1} tour(s) : +{concentration_bonus(now + 1)} à son prochain jet ou à ses "
               "dégâts (option « Concentration dépensée » de l'attaque)", "R000.36, A000.23")
    return Outcome(Notes(title, (use, warning), "R000.36"),
                   sheet_changes(sheet.doc, ((("etat", "concentration"), now + 1),)))


# ------------------------------------------------------------------ transformation (R000.40)

TRANSFORM = "transformation LOUP-GAROU [--opt pv=N]"
UNTRANSFORM = "detransformation LOUP-GAROU"


def transform(request: Request) -> Outcome:
    """R000.40, A000.28: no roll; Transformation is added to Physique and Agilité (even above
    14) for as many turns; the HP the boosted Physique brings are the MJ's number."""
    (sheet,) = cast(request, TRANSFORM, 1)
    c = character(sheet)
    skill = c.skill("transformation")
    if skill <= 0:
        raise RuleError(f"{c.name} n'a pas la compétence Transformation : réservée aux "
                        "Loups-garous (R000.40)")
    if c.sheet.etat.transformation:
        raise RuleError(f"{c.name} : transformation déjà en cours (encore "
                        f"{c.sheet.etat.transformation} tour(s), R000.40)")
    gain = request.options.int("pv", 0) or 0
    hp = int(c.sheet.pv.actuels)
    phy, agi = c.characteristic("physique"), c.characteristic("agilite")
    lines = (
        Line(f"Physique {phy} → {phy + skill}, Agilité {agi} → {agi + skill} (même au-delà de 14)",
             "R000.40, A000.21"),
        Line(f"durée : {skill} tour(s) ; l'attente avant la suivante est au choix du MJ", "R000.40"),
        Line(f"PV {hp} → {hp + gain} : les règles ne donnent pas de formule de PV, le MJ donne le "
             "gain (option « PV gagnés »), retiré au retour à la forme normale", "A000.28, A000.13"),
        Line("griffes PHY+1d10 au corps à corps ; morsure : option « Morsure de loup-garou » de "
             "l'attaque (−6, PHY+2d10, table du corps à corps)", "R000.40"),
    )
    updates = ((("etat", "transformation"), skill), (("etat", "pv_transformation"), gain),
               (("pv",), hp + gain))
    return Outcome(Notes(f"Transformation : {c.name}", lines, "R000.40"),
                   sheet_changes(sheet.doc, updates))


def revert(c: Character) -> tuple[tuple[Update, ...], tuple[Line, ...]]:
    """R000.40, A000.28: the transformation ends; the HP it added are taken off, which may leave
    the character dying (R000.34: no zone was hit)."""
    gain = int(c.sheet.etat.pv_transformation)
    lines = [Line(f"fin de la transformation {de(c.name)} : Physique et Agilité reprennent leur "
                  "valeur", "R000.40")]
    updates: list[Update] = [(("etat", "transformation"), 0), (("etat", "pv_transformation"), 0)]
    if gain:
        hp = lose(c, gain, "retour à la forme normale, les PV de la transformation sont retirés",
                  "R000.40, A000.28")
        updates += hp.updates
        lines += hp.notes
    return tuple(updates), tuple(lines)


def untransform(request: Request) -> Outcome:
    (sheet,) = cast(request, UNTRANSFORM, 1)
    c = character(sheet)
    if not c.sheet.etat.transformation:
        raise RuleError(f"{c.name} : aucune transformation en cours (R000.40)")
    updates, lines = revert(c)
    return Outcome(Notes(f"Fin de la transformation : {c.name}", lines, "R000.40"),
                   sheet_changes(sheet.doc, updates))
