"""Actions en opposition (R003.13, A003.03–A003.05): each character makes a Capacité test, the
higher final result wins, a tie goes to the higher skill; the rule is one core `ContestRule`,
which decides a roll and counts its exact odds.

- A003.05: a 1 or 11 on the d20 is an automatic dramatic failure and a loss; both: nobody wins.
- A003.04: each side's own skill breaks a tie; still tied = status quo, nobody wins.
- A003.05: the winner's success is heroic if their final result ≥ the loser's + 10.
- A003.03: "passive" opposition (configurable): the threshold is the opponent's Capacité.
- D-003.20: an opponent without the skill rolls it at level 0 (the −3 of R003.09).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from jdr.core.check import CheckResult, Modifier, Odds
from jdr.core.contest import Contest, ContestResult, ContestRule, Criterion
from jdr.core.french import de
from jdr.core.frozen import frozen
from jdr.core.results import Line
from jdr.core.system import CheckRequest
from jdr.dice.source import DiceSource
from jdr.names import normalize
from jdr.systems.cyd import tables
from jdr.systems.cyd.capacite import Capacity, attribute_name, make_check
from jdr.systems.cyd.config import CydConfig
from jdr.systems.cyd.dice import CydCheck
from jdr.systems.cyd.etat import incapacity
from jdr.systems.cyd.sheet import CydSheet

OPPOSED = ContestRule(
    criteria=(
        Criterion("stat:auto_ok",
                  note="échec dramatique automatique (1 ou 11 sur le d20) : ce camp perd "
                       "l'opposition",
                  nobody_if_both_low=True,
                  nobody_note="les deux camps font un échec dramatique automatique : personne "
                              "ne l'emporte"),
        Criterion("total"),
        Criterion("stat:skill",
                  note="résultats finals égaux : la compétence la plus haute l'emporte"),
    ),
    final="nobody",
    final_note="résultats finals et compétences égaux : statu quo, personne ne l'emporte, "
               "l'action n'aboutit pas",
    rule="R003.13",
)

# A003.05: the actor's heroic win, counted as a contest against the opponent's final + 10
# (a tie on that comparison is heroic: "≥").
_HEROIC = ContestRule(
    criteria=(Criterion("stat:auto_ok", nobody_if_both_low=True), Criterion("total")),
    final="actor", final_note="", rule="A003.05",
)


@frozen
class Against:
    """What a test is against when `--contre` is given: the opponent's Capacité, and either the
    opponent's own test (active) or a threshold equal to that Capacité (passive)."""

    capacity: Capacity
    opponent: CydCheck | None
    threshold: int | None
    notes: tuple[Line, ...] = ()
    die: str = ""


def opponent_capacity(sheet: CydSheet, skill: str, carac: str | None,
                      actor_attribute: str) -> tuple[Capacity, tuple[Line, ...]]:
    """R003.13: the Capacité may differ for each side. D-003.20: without the skill, level 0.
    A003.18: the attribute is `carac_adverse`, else the opponent's usual one, else the actor's."""
    key = normalize(skill)
    notes: list[Line] = []
    value = sheet.skills.get(key)
    if value is None:
        value = 0
        notes.append(Line(f"{sheet.nom} n'a pas la compétence « {skill} » : elle est testée au "
                          "niveau 0 (Capacité −3)", "D-003.20"))
    if carac:
        attribute = attribute_name(carac)
    elif key in sheet.usual:
        attribute = sheet.usual[key]
    else:
        attribute = actor_attribute
        notes.append(Line(f"attribut {de(sheet.nom)} : {tables.ATTRIBUTE_LABELS[attribute]}, "
                          "comme l'acteur (l'option « Attribut de l'adversaire » en choisit un "
                          "autre)", "A003.18"))
    return Capacity(sheet.nom, attribute, sheet.attributs.get(attribute), key, value), tuple(notes)


def against(request: CheckRequest[CydSheet], actor: Capacity, config: CydConfig) -> Against:
    """R003.13 / A003.03: the opposing side of a test. Without a skill after `--contre FICHE`,
    the opponent opposes the same skill as the actor."""
    assert request.opponent is not None
    other = request.opponent.model
    unable = incapacity(other)
    skill = request.opponent_skill or actor.skill
    cap, notes = opponent_capacity(other, skill, request.options.text("carac_adverse"),
                                   actor.attribute)
    if unable is not None:  # D-ALL.02: still a target; A003.03: an unaware opponent is passive
        return Against(cap, None, cap.value, (*notes, Line(
            f"{other.nom} ne peut pas s'opposer ({unable.text}) : opposition passive, le seuil "
            f"est sa Capacité ({cap.describe()})", "A003.03, D-ALL.02")))
    if config.passive_opposition:
        return Against(cap, None, cap.value, (*notes, Line(
            f"opposition passive : le seuil est la Capacité {de(other.nom)} ({cap.describe()})",
            "A003.03")))
    die = config.opponent_die
    return Against(cap, make_check(cap, die, (), None), None, notes, die)


def _auto_ok(result: CheckResult) -> bool:
    return dict(result.stats).get("auto_ok", 1) == 1


def mark_heroic(result: ContestResult) -> ContestResult:
    """A003.05: the winner's success is heroic (critical "success") when both have a final
    result and the winner's is ≥ the loser's + 10."""
    a, b = result.actor, result.opponent
    if result.winner == "nobody" or not (_auto_ok(a) and _auto_ok(b)):
        return result
    if abs(a.total - b.total) < tables.EXCEPTIONAL_GAP:
        return result
    winner = a if result.winner == "actor" else b
    note = Line(f"réussite héroïque {de(winner.who)} : résultat final ≥ celui du perdant + 10",
                "A003.05")
    heroic = replace(winner, critical="success")
    if result.winner == "actor":
        return replace(result, actor=heroic, notes=(*result.notes, note))
    return replace(result, opponent=heroic, notes=(*result.notes, note))


def roll_contest(actor: CydCheck, opponent: CydCheck, source: DiceSource) -> ContestResult:
    """R003.13: the actor's die, then the opponent's (order of `--des`)."""
    return mark_heroic(Contest(actor, opponent, OPPOSED).roll(source))


def resolve_contest(actor: CydCheck, opponent: CydCheck, a: CheckResult,
                    b: CheckResult) -> ContestResult:
    """R003.13: two results already rolled (the prédilection keeps one of two of the actor's)."""
    return mark_heroic(Contest(actor, opponent, OPPOSED).resolve(a, b))


def automatic_failure(check: CydCheck) -> Fraction:
    """R003.08: P(1 or 11 on the d20) for this test (0 on the d10), from its exact outcomes."""
    return sum((p for r, p in check.outcomes() if not _auto_ok(r)), Fraction(0))


def heroic_win(actor: CydCheck, opponent: CydCheck) -> Fraction:
    """A003.05: P(the actor wins with a final result ≥ the opponent's + 10, both computed).

    The `_HEROIC` contest against the opponent's result + 10 also counts the actor's wins on
    the opponent's automatic failure (independent rolls): they are taken off."""
    shifted = replace(opponent, modifiers=(*opponent.modifiers, Modifier(10, "écart héroïque")))
    wins = Contest(actor, shifted, _HEROIC).odds().success
    assert wins is not None
    return wins - (1 - automatic_failure(actor)) * automatic_failure(opponent)


def contest_odds(actor: CydCheck, opponent: CydCheck) -> Odds:
    """Exact odds of an opposed test: the core contest odds of `OPPOSED`, whose critical
    success is the actor's heroic win (as `mark_heroic` marks it on a roll)."""
    odds = Contest(actor, opponent, OPPOSED).odds()
    return replace(odds, critical_success=heroic_win(actor, opponent))
