"""The exact odds of an attack (R001.15 to R001.19), from the same steps `combat.attack` plays.

The blow lands when the attacker wins the contest on the margin (`checks.CONTEST`, through
`combat.decide`): the plan is `combat.plan_attack`'s, the attack roll is `combat.attack_check`
then `combat.attack_after` (Rapidité +10 on a critical), the defence roll `combat.defence_check`
then `combat.defence_after` (Rapidité +10, Solidifier ses appuis +1d10+5 when
`combat.needs_footing`). Here every face of the attack d20, of the defence d20 and of the
footing d10 is weighted instead of rolled: integer weights, one division at the end.

A critical option not chosen ahead (`--critique`, `--opt critique_defense`) counts as « aucune »,
as when nobody is asked once the die is seen.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from jdr.core.check import Check, CheckResult, Odds, faces
from jdr.core.results import Line
from jdr.core.system import AttackRequest
from jdr.systems.maitrise.checks import CONTEST
from jdr.systems.maitrise.combat import (
    AttackPlan,
    attack_after,
    attack_check,
    defence_after,
    defence_check,
    needs_footing,
    plan_attack,
)
from jdr.systems.maitrise.config import MaitriseConfig
from jdr.systems.maitrise.sheet import Character
from jdr.systems.maitrise.tables import CRITICAL_DIE, FOOTING_BONUS

RULE = "R001.15, R001.16, R001.17, R001.18, R001.19"
Weighted = list[tuple[CheckResult, int]]


def _weighted(check: Check) -> tuple[int, Weighted]:
    """Every resolved outcome of a check with its integer weight, and their denominator."""
    law = faces(check.natural)
    return law.denominator, [(check.resolve(n), w) for n, _, w in law.outcomes]


def _defences(plan: AttackPlan, defence: Weighted, attack: CheckResult) -> tuple[int, Weighted]:
    """The defence's outcomes after its critical option, against this attack result: with the
    footing die, each of its faces (weights over CRITICAL_DIE × the d20's)."""
    if not any(needs_footing(plan, d, attack) for d, _ in defence):
        return 1, [(defence_after(plan, d, None), w) for d, w in defence]
    out: Weighted = []
    for d, w in defence:
        if needs_footing(plan, d, attack):
            out += [(defence_after(plan, d, face + FOOTING_BONUS), w)
                    for face in range(1, CRITICAL_DIE + 1)]
        else:
            out.append((defence_after(plan, d, None), w * CRITICAL_DIE))
    return CRITICAL_DIE, out


def _counts(plan: AttackPlan, attacks: Weighted, defence: Weighted
            ) -> tuple[dict[str, int], int, int]:
    """Integer weights of each winner, of a tie on the margin, and the common denominator
    (the footing die's faces counted on every pair)."""
    counts = {"actor": 0, "opponent": 0, "nobody": 0}
    tie = 0
    primary = CONTEST.primary()
    for a, wa in attacks:
        scale, defences = _defences(plan, defence, a)
        factor = CRITICAL_DIE // scale  # every pair is counted over the footing die's faces
        for d, wd in defences:
            winner, index, _ = CONTEST.decide(a, d)
            assert winner is not None  # CONTEST ends on the defender, never a re-roll
            counts[winner] += wa * wd * factor
            if index == -1 or index > primary:
                tie += wa * wd * factor
    return counts, tie, CRITICAL_DIE


def _notes(plan: AttackPlan) -> tuple[Line, ...]:
    notes = []
    if plan.critical is None:
        notes.append(Line("option de critique d'attaque non choisie d'avance : comptée comme "
                          "« aucune »", "R001.18"))
    if plan.defence != "aucune" and plan.defence_critical is None:
        notes.append(Line("option de critique de défense non choisie d'avance : comptée comme "
                          "« aucune »", "R001.19"))
    return tuple(notes)


def attack_odds(request: AttackRequest[Character], config: MaitriseConfig) -> Odds:
    """P(the blow lands), P(the defence wins), P(nobody: both rolls fail), P(equal margins)."""
    plan = plan_attack(request)
    a_check = attack_check(plan, config)
    base = a_check.odds()
    if plan.defence == "aucune":  # no defence roll: the blow lands on a successful attack
        return replace(base, opponent_wins=1 - (base.success or Fraction(0)),
                       nobody=Fraction(0), tie=Fraction(0), rule=RULE, notes=_notes(plan))
    d_check = defence_check(plan, config)
    den_a, attacks = _weighted(a_check)
    den_d, defence = _weighted(d_check)
    attacks = [(attack_after(plan, a), w) for a, w in attacks]
    counts, tie, footing = _counts(plan, attacks, defence)
    den = den_a * den_d * footing
    return replace(base, label=f"{a_check.label} contre {d_check.label}",
                   success=Fraction(counts["actor"], den),
                   opponent_wins=Fraction(counts["opponent"], den),
                   nobody=Fraction(counts["nobody"], den), tie=Fraction(tie, den),
                   threshold=None, rule=RULE, notes=_notes(plan))
