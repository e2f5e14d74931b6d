"""The kit's rules that `check`, `odds`, `duel` and `session` do not play, as `jdr regle NOM`
(declared in config.RULES):

- `cooperation MENEUR AIDE…` (R003.18 / A003.09): the leader (named first: the players chose
  them, or the MJ did) makes the test; each helper gives the bonus of the table for their value
  in the same skill. The document's table is missing: no bonus unless the MJ supplies one.
- `action_simple PERSO` (R003.10 / A003.08): automatic success, no roll.
- `encaisser PERSO` (R003.02): Santé and/or Psyché lost. The kit has no damage rules (R003.21):
  the MJ gives the amount; a Santé spent kills (etat.py).
- `recuperer PERSO` (R003.02): Santé and/or Psyché regained, up to the maximum. The kit has no
  healing or rest rule: the MJ gives the amount. A dead character regains nothing.
- `deplacement PERSO` (R003.02 Vitesse in metres per turn, R003.23 a turn is 6 seconds).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from jdr.core.check import CheckResult, Odds
from jdr.core.french import state_label
from jdr.core.messages import rule as named
from jdr.core.messages import say, usage
from jdr.core.options import Options
from jdr.core.results import Line, Notes
from jdr.core.system import CheckRequest, Loaded, Outcome, RuleRequest, SheetChange
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cyd import tables
from jdr.systems.cyd.capacite import die_name
from jdr.systems.cyd.checks import build_plan, run_check
from jdr.systems.cyd.config import CydConfig
from jdr.systems.cyd.etat import DEAD, pool, require_able, state
from jdr.systems.cyd.odds import die_odds, odds_notes
from jdr.systems.cyd.sheet import CydSheet

Sheet = Loaded[CydSheet]
Request = RuleRequest[CydSheet]


def _one(request: Request, rule: str) -> Sheet:
    if len(request.sheets) != 1:
        raise RuleError(say(named(rule),
                            " : un seul personnage"))
    return request.sheets[0]


# ------------------------------------------------------------------ cooperation (R003.18)


def _helpers(request: Request, skill: str) -> tuple[tuple[int, ...], Line]:
    """Each helper's value in the skill (0 when absent); every helper must be able to act."""
    leader, *helpers = request.sheets
    seen = {normalize(leader.name)}
    values: list[int] = []
    shown: list[str] = []
    for helper in helpers:
        if normalize(helper.name) in seen:
            raise RuleError(f"coopération : {helper.name}, nom donné deux fois")
        seen.add(normalize(helper.name))
        require_able(helper.model, "aider")
        value = helper.model.skills.get(normalize(skill))
        values.append(value or 0)
        shown.append(f"{helper.name} ({normalize(skill)} {value})" if value is not None
                     else f"{helper.name} (sans la compétence : 0)")
    return tuple(values), Line(f"meneur : {leader.name} ; aides : {', '.join(shown)}", "R003.18")


def cooperation_request(request: Request) -> tuple[CheckRequest[CydSheet], Line]:
    """The leader's test, with the helpers' values as `aides` (the check's own cooperation)."""
    if len(request.sheets) < 2:
        raise RuleError(say("coopération : un meneur puis au moins une aide (",
                            usage("cooperation MENEUR AIDE…"), ")"))
    opts = request.options
    skill = opts.text("competence")
    if not skill:
        raise RuleError(say("coopération : précisez la compétence (",
                            opts.ref("competence", "..."), ")"))
    if opts.text("de") is None:
        raise RuleError(say("coopération : le meneur n'a pas choisi son dé : ",
                            opts.ref("de", "d10|d20")))
    values, note = _helpers(request, skill)
    parsed = {**opts.parsed, "aides": ",".join(str(v) for v in values)}
    check = CheckRequest(
        actor=request.sheets[0], skill=skill, carac=opts.text("carac"),
        threshold=opts.text("seuil"), bonus=opts.int("bonus", 0) or 0, choice=opts.int("choix"),
        die=opts.text("de"), options=Options(parsed, opts.given | {"aides"}, opts.action),
        chooser=request.chooser)
    return check, note


def cooperation(request: Request, source: DiceSource | None, config: CydConfig) -> Outcome:
    check, note = cooperation_request(request)
    if source is None:
        raise RuleError("coopération : source de dés absente")
    outcome = run_check(check, source, config)
    result = outcome.result
    assert isinstance(result, CheckResult)
    return replace(outcome, result=replace(result, notes=(note, *result.notes)))


def cooperation_odds(request: Request, config: CydConfig) -> Odds:
    """The exact odds of the very test `cooperation` rolls (with the die of `--opt de`)."""
    check, note = cooperation_request(request)
    config = config.with_options(check.options)
    plan = build_plan(check, config, die_name(check.die or ""), rolling=False)
    return replace(die_odds(plan), notes=(note, *odds_notes(plan)))


# ------------------------------------------------------------------ simple action (A003.08)


def simple_action(request: Request) -> Outcome:
    sheet = _one(request, "action_simple")
    what = request.options.text("action")
    title = f"{sheet.name} : action simple{f' ({what})' if what else ''}, réussite automatique"
    return Outcome(Notes(title, (Line("action simple : réussite automatique, sans jet de dé",
                                      "A003.08"),), "R003.10"))


# ------------------------------------------------------------------ Santé, Psyché (R003.02)

_LABELS = {"sante": "Santé", "psyche": "Psyché"}


def _pool_change(sheet: Sheet, name: str, value: int) -> SheetChange:
    """`secondaires.<name>.actuels`; a bare `sante: 20` becomes `{max: 20, actuels: N}`."""
    raw = SheetChange(sheet.doc, ("secondaires", name), None).current()
    if isinstance(raw, Mapping):
        return SheetChange(sheet.doc, ("secondaires", name, "actuels"), value)
    full = pool(sheet.model, name)
    assert full is not None
    return SheetChange(sheet.doc, ("secondaires", name), {"max": full.max, "actuels": value})


def _amounts(request: Request, rule: str) -> dict[str, int]:
    amounts = {k: request.options.int(k) for k in _LABELS}
    given = {k: v for k, v in amounts.items() if v is not None}
    if not given:
        raise RuleError(say(named(rule), " : donnez ",
                            request.options.ref("sante", "N"), " et/ou ",
                            request.options.ref("psyche", "N")))
    sheet = request.sheets[0]
    for name in given:
        if pool(sheet.model, name) is None:
            raise RuleError(f"{sheet.name} n'a pas de {_LABELS[name]} sur sa fiche "
                            f"(secondaires.{name}) : le kit n'en donne pas de formule")
    return given


def _pools(request: Request, rule: str, sign: int
           ) -> tuple[list[SheetChange], list[Line], dict[str, int]]:
    """Each pool given, lowered (sign −1, down to the sheet's floor) or raised (+1, up to the
    maximum): the changes, a line each, and the values after."""
    sheet = _one(request, rule)
    changes: list[SheetChange] = []
    lines: list[Line] = []
    values: dict[str, int] = {}
    for name, amount in _amounts(request, rule).items():
        current = pool(sheet.model, name)
        assert current is not None
        after = current.actuels + sign * amount
        after = max(after, tables.POOL_MIN) if sign < 0 else min(after, current.max)
        changes.append(_pool_change(sheet, name, after))
        values[name] = after
        lines.append(Line(f"{_LABELS[name]} : {current.actuels} → {after} "
                          f"({after - current.actuels:+d}, maximum {current.max})", "R003.02"))
    return changes, lines, values


def take(request: Request) -> Outcome:
    """R003.02: the Santé is the damage a character can take before being killed."""
    sheet = _one(request, "encaisser")
    before = state(sheet.model)
    changes, lines, after = _pools(request, "encaisser", -1)
    if after.get("sante", 1) <= 0 and before != DEAD:
        genre = sheet.model.genre
        lines.append(Line(f"état : {state_label(before, genre)} → {state_label(DEAD, genre)} (la "
                          "Santé est épuisée)", "R003.02"))
    if after.get("psyche", 1) <= 0:
        lines.append(Line("Psyché épuisée : le kit n'en donne pas l'effet", "A003.12"))
    lines.append(Line("le kit n'a pas de règle de dégâts : le montant est celui du MJ",
                      "R003.21"))
    return Outcome(Notes(f"{sheet.name} encaisse", tuple(lines), "R003.02"), tuple(changes))


def recover(request: Request) -> Outcome:
    """Santé / Psyché regained (the MJ's amount), up to the maximum; not by the dead."""
    sheet = _one(request, "recuperer")
    require_able(sheet.model, "récupérer")
    changes, lines, _ = _pools(request, "recuperer", +1)
    lines.append(Line("le kit n'a pas de règle de soins ni de repos : le montant est celui du "
                      "MJ", "A003.12"))
    return Outcome(Notes(f"{sheet.name} récupère", tuple(lines), "R003.02"), tuple(changes))


# ------------------------------------------------------------------ moving (R003.02, R003.23)


def _duration(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} s"
    return f"{seconds} s ({seconds / 60:g} min)".replace(".", ",")


def move(request: Request) -> Outcome:
    """R003.02 / R003.23: Vitesse metres in one 6-second turn; the turns a distance takes are
    the whole turns needed (the last one may be partly used)."""
    sheet = _one(request, "deplacement")
    speed = sheet.model.secondaires.vitesse
    turns, distance = request.options.int("tours"), request.options.int("distance")
    if (turns is None) == (distance is None):
        raise RuleError(say(named("deplacement"), " : donnez ",
                            request.options.ref("tours", "N"), " ou ",
                            request.options.ref("distance", "M")))
    if speed is None or speed <= 0:
        raise RuleError(f"{sheet.name} n'a pas de Vitesse sur sa fiche (secondaires.vitesse, "
                        "mètres par tour de 6 secondes)")
    lines = [Line(f"Vitesse {speed} m par tour de jeu de {tables.TURN_SECONDS} secondes",
                  "R003.02")]
    if distance is not None:
        turns = -(-distance // speed)
        lines.append(Line(f"{distance} m : {turns} tour(s), en {_duration(turns * tables.TURN_SECONDS)}"
                          f" ({speed * turns} m au plus)", "R003.23"))
    else:
        assert turns is not None
        lines.append(Line(f"{turns} tour(s) : {speed * turns} m, en "
                          f"{_duration(turns * tables.TURN_SECONDS)}", "R003.23"))
    return Outcome(Notes(f"{sheet.name} se déplace", tuple(lines), "R003.02"))


# ------------------------------------------------------------------ dispatch


def run_rule(name: str, request: Request, source: DiceSource | None,
             config: CydConfig) -> Outcome:
    if name == "cooperation":
        return cooperation(request, source, config)
    plays = {"action_simple": simple_action, "encaisser": take, "recuperer": recover,
             "deplacement": move}
    if name not in plays:
        raise RuleError(f"le système « cyd » ne joue pas la règle « {name} »")
    return plays[name](request)


def run_rule_odds(name: str, request: Request, config: CydConfig) -> Odds:
    if name != "cooperation":
        raise RuleError(f"la règle « {name} » ne lance pas de dés : pas de chances à calculer")
    return cooperation_odds(request, config)
