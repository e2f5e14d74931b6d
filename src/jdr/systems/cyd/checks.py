"""Le test de Capacité, as `jdr test` plays it (R003.05–R003.19): the Capacité (capacite.py)
plus the chosen die, against a threshold (complex action, R003.11), against another character
(opposed action, opposition.py), with the prédilection reroll (predilection.py), cooperation,
long actions and the retry rule (actions.py).

R003.10: actions are simple, complex or opposed; A003.08: a simple action succeeds without a
roll (`jdr regle action_simple`, regles.py).

One `Plan` is built from a request; `run_check` rolls it, and odds.py turns the very same
`Check` objects into exact odds.
"""

from __future__ import annotations

from dataclasses import replace

from jdr.core.check import CheckResult, Modifier
from jdr.core.frozen import frozen
from jdr.core.messages import arg, say
from jdr.core.results import Line
from jdr.core.system import CheckRequest, Outcome, SheetChange
from jdr.core.threshold import parse_threshold
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.cyd import tables
from jdr.systems.cyd.actions import (
    cooperation,
    long_action,
    retry_changes,
    retry_key,
    retry_warnings,
)
from jdr.systems.cyd.capacite import Capacity, capacity, choose_die, make_check
from jdr.systems.cyd.config import CydConfig, parse_helpers
from jdr.systems.cyd.dice import CydCheck
from jdr.systems.cyd.opposition import Against, against
from jdr.systems.cyd.predilection import PlannedRoll, Predilection, plan_predilection, tick
from jdr.systems.cyd.sheet import CydSheet

Request = CheckRequest[CydSheet]


@frozen
class Plan:
    """Everything one test needs, built once from a request; rolled or turned into odds."""

    check: CydCheck
    die: str
    capacity: Capacity
    against: Against | None = None
    long_duration: str | None = None
    notes: tuple[Line, ...] = ()
    retry_key: str | None = None
    predilection: Predilection | None = None

    @property
    def sides(self) -> int:
        return tables.DICE[self.die]

    @property
    def opponent(self) -> CydCheck | None:
        return self.against.opponent if self.against is not None else None


def _modifiers(request: Request, config: CydConfig) -> tuple[tuple[Modifier, ...], tuple[Line, ...]]:
    """The MJ's bonus, and the cooperation bonus of R003.18 (`--opt aides=3,5`)."""
    extra: list[Modifier] = []
    notes: list[Line] = []
    if request.bonus:
        extra.append(Modifier(request.bonus, "bonus du MJ"))
    helpers = request.options.text("aides")
    if helpers is not None:
        modifier, note = cooperation(parse_helpers(helpers), config)
        notes.append(note)
        if modifier is not None:
            extra.append(modifier)
    return tuple(extra), tuple(notes)


def _opposite(request: Request, cap: Capacity, config: CydConfig) -> tuple[int | None, Against | None]:
    """R003.11 a threshold (a number or a ladder name, D-003.06), or R003.13 an opponent."""
    if request.opponent is None:
        return parse_threshold(request.threshold, config.threshold_ladder), None
    if request.threshold is not None:
        raise RuleError(say("un test se fait contre un seuil (", arg("seuil"), ") ou contre un "
                            "adversaire (", arg("contre"), "), pas les deux"))
    side = against(request, cap, config)
    return side.threshold, side


def _long_duration(request: Request, threshold: int | None, side: Against | None) -> str | None:
    """R003.19: a long action is a complex action: it needs a threshold."""
    duration = request.options.text("duree")
    if duration is not None and (threshold is None or (side is not None and side.opponent)):
        raise RuleError(say("action longue (", request.options.ref("duree"), ") : c'est une "
                            "action complexe, donnez un seuil (", arg("seuil"), ")"))
    return duration


def _retry(request: Request, cap: Capacity, config: CydConfig, judged: bool,
           rolling: bool) -> tuple[str | None, tuple[Line, ...]]:
    """R003.17 / D-003.16: the name the action is remembered by, and the retry rule's verdict."""
    if not judged:
        return None, ()
    key = retry_key(cap.skill, request.options.text("action"))
    if not rolling:
        return key, ()
    override = request.options.text("circonstances") == "changees"
    notes = retry_warnings(request.actor.model, key, cap.skill_value, config, override)
    if override:
        notes += (Line("le MJ indique que les circonstances ont changé : nouvelle tentative "
                       "permise", "D-003.16"),)
    return key, notes


def build_plan(request: Request, config: CydConfig, die: str, rolling: bool) -> Plan:
    """Read a request into one test (R003.06 Capacité, R003.11 threshold, R003.13 / A003.03
    opponent, R003.04 prédilection, R003.18 cooperation, R003.19 long action, A003.16 retry).
    Rolling, the prédilection is a choice made after the first roll; for the odds, only the
    one decided in advance counts."""
    cap = capacity(request.actor.model, request.skill, request.carac)
    predilection = plan_predilection(request, cap, die, rolling)
    extra, coop_notes = _modifiers(request, config)
    threshold, side = _opposite(request, cap, config)
    duration = _long_duration(request, threshold, side)
    judged = threshold is not None or side is not None
    key, retry_notes = _retry(request, cap, config, judged, rolling)
    side_notes = side.notes if side is not None else ()
    natural = None if rolling else predilection.natural
    pred_notes = () if rolling else predilection.notes
    return Plan(
        check=make_check(cap, die, extra, threshold, natural),
        die=die, capacity=cap, against=side, long_duration=duration,
        notes=(*pred_notes, *coop_notes, *side_notes, *retry_notes),
        retry_key=key, predilection=predilection,
    )


def run_check(request: Request, source: DiceSource, config: CydConfig) -> Outcome:
    """`jdr test` for CYD: the actor's die, the opponent's, the prédilection the player may
    take after seeing them (R003.04); the result, and the sheet changes (prédilection box
    ticked, R003.04; failed action remembered or cleared, A003.16)."""
    config = config.with_options(request.options)
    plan = build_plan(request, config, choose_die(request.die), rolling=True)
    assert plan.predilection is not None
    rolled = PlannedRoll(plan.check, plan.opponent, plan.predilection).roll(source,
                                                                           request.chooser)
    result = rolled.result
    notes: list[Line] = []
    if plan.long_duration is not None and isinstance(result, CheckResult):
        notes.append(long_action(result, plan.sides, plan.long_duration, config).note())
    notes += [*plan.notes, *rolled.notes]
    changes: list[SheetChange] = []
    if rolled.used:
        change, note = tick(request.actor.doc, plan.capacity.skill)
        changes.append(change)
        notes.append(note)
    if plan.retry_key is not None:
        more, more_notes = retry_changes(request.actor.doc, request.actor.model, plan.retry_key,
                                         plan.capacity.skill_value, result.success, config)
        changes += more
        notes += more_notes
    return Outcome(replace(result, notes=(*result.notes, *notes)), tuple(changes))
