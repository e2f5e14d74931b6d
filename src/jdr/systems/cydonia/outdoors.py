"""Cydonia, luck, movement, mounts, animals and burdens (RULES.md R000.19, R000.37, R000.51,
R000.57, R000.58), each a `jdr regle` action; a roll is built once for the dice and the odds."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from jdr.core.check import Check, CheckResult, Modifier, Odds
from jdr.core.initiative import Entrant, OrderRule, order
from jdr.core.results import Line, Notes, Report, Result
from jdr.core.system import Outcome, RuleRequest
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cydonia.adventure import (
    carrying_left,
    creatures,
    riding_difficulty,
    running_metres,
    swimming_metres,
    taming_difficulty,
)
from jdr.systems.cydonia.checks import D10, Character, amount_judge, roll_check, skill_check
from jdr.systems.cydonia.config import CONFIG
from jdr.systems.cydonia.rulekit import alive, cast, character, required_int, required_text
from jdr.systems.cydonia.sheet import CydoniaSheet

Request = RuleRequest[CydoniaSheet]

# ------------------------------------------------------------------ la chance (R000.19)

LUCK = "chance PERSONNAGE PERSONNAGE…"
LUCK_RULE = OrderRule(rolloff_sides=10, max_rolloffs=20, rule="R000.19",
                      score_label="une Chance décroissante")


def luck(request: Request, source: DiceSource) -> Outcome:
    """R000.19: when something must befall the luckiest (or the least lucky), the highest Chance
    decides; a tie is settled by 1D10 roll-offs."""
    people = [character(s) for s in cast(request, LUCK, 2, 50)]
    result = order([Entrant(c.name, c.characteristic("chance")) for c in people], LUCK_RULE, source)
    names = result.names
    lines = (Line(f"la plus grande chance : {names[0]}", "R000.19"),
             Line(f"la moins grande chance : {names[-1]}", "R000.19"))
    return Outcome(Report("La Chance départage", (result,), lines, "R000.19"))


def luck_odds(request: Request) -> Odds:
    """Who is the luckiest, exactly: the highest Chance, a fair roll-off among equals."""
    people = [character(s) for s in cast(request, LUCK, 2, 50)]
    values = {c.name: c.characteristic("chance") for c in people}
    top = max(values.values())
    tied = sum(1 for v in values.values() if v == top)
    extra = tuple((f"plus_chanceux_{normalize(name)}", f"la plus grande chance : {name}",
                   Fraction(1, tied) if v == top else Fraction(0)) for name, v in values.items())
    return Odds("La Chance départage", None, Fraction(0), Fraction(0), (), rule="R000.19",
                extra=extra)


# ------------------------------------------------------------------ déplacements (R000.58)

MOVE = "deplacement PERSONNAGE --opt mode=course|nage|vol"
MOVES = {"course": ("course", "Course : total = mètres"),
         "nage": ("nager", "Nager : total ÷ 2 = mètres (arrondi en dessous)"),
         "vol": ("vol_aerien", "Vol aérien (Lutins) : total = mètres")}


def _move(request: Request) -> tuple[Character, str, Check]:
    (sheet,) = cast(request, MOVE, 1)
    c = character(sheet)
    mode = request.options.text("mode", "course") or "course"
    if mode == "vol" and normalize(c.sheet.peuple or "") != "lutin":
        raise RuleError(f"seuls les Lutins volent (R000.04) : {c.name} est « "
                        f"{c.sheet.peuple or 'sans peuple'} »")
    return c, mode, skill_check(c, MOVES[mode][0], choice=request.options.int("choix"))


def movement(request: Request, source: DiceSource) -> Outcome:
    """R000.58, A000.35: Course total = metres, Nager total ÷ 2, Vol aérien total, per turn."""
    c, mode, check = _move(request)
    result = roll_check(check, source, request.chooser)
    metres = swimming_metres(result.total) if mode == "nage" else running_metres(result.total)
    line = Line(f"{max(metres, 0)} m ce tour ({MOVES[mode][1]})", "R000.58, A000.35")
    return Outcome(Report(f"Déplacement : {c.name}", (result,), (line,), "R000.58"))


def movement_odds(request: Request) -> Odds:
    _, mode, check = _move(request)
    return replace(check.odds(), notes=(MOVES[mode][1],), rule="R000.58, A000.35")


# ------------------------------------------------------------------ allures (R000.37)

PACE = "allure CAVALIER --opt allure=monter|pas|trot|galop|triple_galop"


def _pace(request: Request) -> tuple[Character, str, Check]:
    """R000.37, A000.36: Agilité + Équitation + 1D10 against the pace's difficulty."""
    (sheet,) = cast(request, PACE, 1)
    c = character(sheet)
    pace = required_text(request.options, "allure", PACE, "l'allure demandée")
    limit = riding_difficulty(pace)
    return c, pace, skill_check(c, "equitation", threshold=limit, choice=request.options.int("choix"))


def _speed(request: Request, c: Character) -> Check | None:
    """R000.37, A000.26: the mount's speed, its Physique + Course + 1D10 (the MJ's data)."""
    course = request.options.int("course_monture")
    if course is None:
        return None
    mods = (Modifier(request.options.int("physique_monture", 0) or 0, "Physique de la monture"),
            Modifier(course, "Course de la monture"))
    return Check("Vitesse de la monture (mètres)", D10, mods, amount_judge, None,
                 "R000.37, A000.26", c.name)


def pace(request: Request, source: DiceSource) -> Outcome:
    c, wanted, check = _pace(request)
    result = roll_check(check, source, request.chooser)
    parts: list[Result] = [result]
    if not result.success:
        lines = [Line(f"la monture n'atteint pas l'allure « {wanted} » ce tour", "A000.36")]
    else:
        lines = [Line(f"la monture prend l'allure « {wanted} »", "R000.37")]
        speed = _speed(request, c)
        if speed is not None:
            rolled = speed.roll(source)
            parts.append(rolled)
            lines.append(Line(f"vitesse : {rolled.total} m", "R000.37, A000.26"))
    return Outcome(Report(f"Équitation : {c.name}", tuple(parts), tuple(lines), "R000.37"))


def pace_odds(request: Request) -> Odds:
    return _pace(request)[2].odds()


# ------------------------------------------------------------------ dressage (R000.57, A000.44)

TRAINING = "dressage DRESSEUR --opt difficulte=N [--opt sauvage=oui]"


def _training(request: Request) -> tuple[Character, Check]:
    """A000.44: Mental + Dressage + 1D10 ≥ the animal's training difficulty; taming a wild beast
    adds 10 (R000.57)."""
    (sheet,) = cast(request, TRAINING, 1)
    c = character(sheet)
    base = required_int(request.options, "difficulte", TRAINING,
                        "la difficulté de dressage de l'animal (donnée du MJ)")
    limit = taming_difficulty(base) if request.options.flag("sauvage") else base
    return c, skill_check(c, "dressage", threshold=limit, choice=request.options.int("choix"))


def training(request: Request, source: DiceSource) -> Outcome:
    c, check = _training(request)
    result: CheckResult = roll_check(check, source, request.chooser)
    wild = request.options.flag("sauvage")
    verb = "apprivoise la bête" if wild else "l'animal obéit"
    lines = [Line(verb if result.success else "échec : " + ("la bête reste sauvage" if wild else
                                                            "l'animal n'obéit pas"),
                  "R000.57" if wild else "A000.44")]
    count = creatures(c.skill("dressage"))
    lines.append(Line(f"{c.name} peut posséder {count} créature(s) (une par tranche de 5 points)",
                      "R000.57, A000.20"))
    return Outcome(Report(f"Dressage : {c.name}", (result,), tuple(lines), "R000.57"))


def training_odds(request: Request) -> Odds:
    return _training(request)[1].odds()


# ------------------------------------------------------------------ portance (R000.51)

CARRY = "portance PERSONNAGE --opt petits=N --opt gros=N"


def carrying(request: Request) -> Outcome:
    """R000.51, A000.24: 5 small objects or 1 large per point of Physique, one shared pool;
    what is equipped does not count."""
    (sheet,) = cast(request, CARRY, 1)
    c = character(sheet)
    alive(c, "la portance ne le concerne plus")
    small = request.options.int("petits", 0) or 0
    large = request.options.int("gros", 0) or 0
    phy = c.characteristic("physique")
    left_small, left_large = carrying_left(phy, small, large)
    lines = [Line(f"Physique {phy} : {5 * phy} petits objets ou {phy} gros (réserve commune)",
                  "R000.51, A000.24"),
             Line(f"porte {small} petit(s) et {large} gros objet(s), objets équipés non comptés",
                  "R000.51")]
    excess = [f"{-n} {what}" for n, what in ((left_small, "petit(s) objet(s)"),
                                             (left_large, "gros objet(s)")) if n < 0]
    if excess:
        shown = excess[:1] if CONFIG.carry_shared_pool else excess
        lines.append(Line(f"surchargé : {' et '.join(shown)} de trop", "R000.51, A000.24"))
    else:
        lines.append(Line(f"peut encore porter {left_small} petit(s) objet(s) ou {left_large} "
                          "gros", "R000.51, A000.24"))
    return Outcome(Notes(f"Portance : {c.name}", tuple(lines), "R000.51"))
