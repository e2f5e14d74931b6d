"""Opposed rolls (R004.21, R004.38): both cats roll, the best score wins; ties per A004.08.

The tie rule is core data (`ContestRule`): a critical success beats everything and a critical
failure loses (A004.08, configurable), then the higher total, then the better skill used, then
the better Chance, then both re-roll. Between two rounds, a critical moves Chance before the next
roll (A004.07): the next round rolls as many dice as the new Chance. The exact odds count the
re-rolls as win / (1 − re-roll), from the first round's Chance.
"""

from __future__ import annotations

from collections.abc import Callable

from jdr.core.check import Check, CheckResult
from jdr.core.contest import Contest, ContestResult, ContestRule, Criterion
from jdr.core.system import CheckRequest, Chooser, Loaded, Outcome, SheetChange, default_choice
from jdr.core.usecase import same_character
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.felins.checks import (
    Roll,
    chance_after,
    chance_change,
    chance_of,
    keep_choice,
    opposing,
    resolve_name,
    target_check,
    target_of,
    with_chance,
)
from jdr.systems.felins.config import FelinsConfig
from jdr.systems.felins.sheet import Cat


def contest_rule(config: FelinsConfig) -> ContestRule:
    """R004.21 the best score wins; A004.08 criticals first, then skill, Chance, re-roll."""
    criteria: list[Criterion] = []
    if config.opposed_critical_wins:
        criteria.append(Criterion("critical", note="un critique l'emporte sur le total"))
    criteria += [
        Criterion("total"),
        Criterion("stat:skill", note="égalité : la meilleure compétence l'emporte"),
        Criterion("stat:chance", note="égalité : la meilleure Chance l'emporte"),
    ]
    return ContestRule(tuple(criteria), final="reroll",
                       final_note="égalité parfaite : les deux chats relancent", rule="R004.21",
                       max_rerolls=config.max_rerolls)


def opposed_contest(request: CheckRequest[Cat], config: FelinsConfig) -> Contest:
    """The actor's roll against the opponent's (what `--contre FICHE[:COMPETENCE]` names, or by
    default what the rules oppose: `checks.opposing`)."""
    assert request.opponent is not None
    if same_character(request.actor, request.opponent):
        raise RuleError("un chat ne peut pas s'opposer à lui-même (même fiche des deux côtés)")
    target = target_of(request.skill, request.carac)
    theirs = (resolve_name(request.opponent_skill) if request.opponent_skill
              else opposing(target))
    mine = target_check(request.actor.model, target,
                        Roll(bonus=request.bonus, choice=request.choice), config)
    other = target_check(request.opponent.model, theirs, Roll(), config)
    return Contest(mine, other, contest_rule(config))


Between = Callable[[CheckResult, CheckResult], tuple[Check, Check]]


def between(contest: Contest) -> Between:
    """The checks of the next round after a perfect tie: each with its new Chance (A004.07)."""

    def rebuild(a: CheckResult, b: CheckResult) -> tuple[Check, Check]:
        return (with_chance(contest.actor, chance_after(chance_of(a), a.critical)),
                with_chance(contest.opponent, chance_after(chance_of(b), b.critical)))

    return rebuild


def roll_contest(contest: Contest, source: DiceSource, chooser: Chooser = default_choice
                 ) -> ContestResult:
    """R004.21 both cats roll, then each keeps the die it wishes (A004.05, the actor first);
    on a perfect tie both roll again, with the Chance the round left (A004.07)."""
    actor, opponent = contest.actor, contest.opponent
    rebuild = between(contest)
    rounds: list[tuple[CheckResult, CheckResult]] = []
    for _ in range(contest.rule.max_rerolls):
        a, b = actor.roll(source), opponent.roll(source)
        a = keep_choice(actor, a, chooser)
        b = keep_choice(opponent, b, chooser)
        if contest.rule.decide(a, b)[0] is not None:
            return contest.resolve(a, b, tuple(rounds))
        rounds.append((a, b))
        actor, opponent = rebuild(a, b)
    raise RuleError(f"jet opposé : toujours à égalité après {contest.rule.max_rerolls} relances ; "
                    "décidez à la main")


def opposed_roll(request: CheckRequest[Cat], config: FelinsConfig,
                 source: DiceSource) -> Outcome:
    """R004.21 roll both (again on a perfect tie); the Chance each one ends with goes on its
    sheet (R004.18–R004.20, A004.07). The opponent reacts: a cat that fled may still hide or
    spot (D-ALL.02), an unconscious one may not."""
    assert request.opponent is not None
    request.actor.model.require_able("agir")
    request.opponent.model.require_awake("s'opposer")
    contest = opposed_contest(request, config)
    result = roll_contest(contest, source, request.chooser)
    changes = (*final_chance(request.actor, result.actor),
               *final_chance(request.opponent, result.opponent))
    return Outcome(result, changes)


def final_chance(sheet: Loaded[Cat], last: CheckResult) -> tuple[SheetChange, ...]:
    """The Chance after the last round (each round started from the Chance the one before left)
    against the sheet's."""
    return chance_change(sheet, sheet.model.chance, chance_after(chance_of(last), last.critical))
