"""Les chances (R003.05): the player chooses the die, so `jdr chances` shows the d10 and the d20
side by side (a `Report` of two core `Odds`), or only the die `--de` names. The odds come from
the very same `Check` objects a roll uses (checks.build_plan), through the core's exact
enumeration; opposed tests through the core contest (opposition.OPPOSED).

In CYD terms, the core's "réussite critique" is the heroic success (R003.14: threshold + 10,
or in an opposed test a final result ≥ the loser's + 10, A003.05) and "échec critique" the
dramatic failure (R003.15: threshold − 10, or 1 / 11 on the d20). The 1 and 11 of the d20 have
no final result (R003.08): the distribution counts them at the Capacité alone (the die adds 0),
and their probability is given apart (`automatic_failure`).
"""

from __future__ import annotations

from dataclasses import replace

from jdr.core.check import Odds
from jdr.core.french import de
from jdr.core.results import Line, Report
from jdr.core.system import CheckRequest
from jdr.systems.cyd import tables
from jdr.systems.cyd.capacite import die_name
from jdr.systems.cyd.checks import Plan, build_plan
from jdr.systems.cyd.config import CydConfig
from jdr.systems.cyd.opposition import automatic_failure, contest_odds
from jdr.systems.cyd.sheet import CydSheet

_AUTO_LABEL = "échec dramatique automatique (1 ou 11 sur le d20)"


def die_odds(plan: Plan) -> Odds:
    """The exact odds of one planned test with its die (R003.08, R003.11–R003.15)."""
    odds = plan.check.odds() if plan.opponent is None else contest_odds(plan.check, plan.opponent)
    auto = ("automatic_failure", _AUTO_LABEL, automatic_failure(plan.check))
    versus = _against(plan) if plan.against is not None else ""
    label = f"{tables.DIE_LABELS[plan.die]} — {plan.check.label}{versus}"
    return replace(odds, label=label, extra=(*odds.extra, auto))


def _against(plan: Plan) -> str:
    side = plan.against
    if side is None:
        threshold = plan.check.threshold
        return "" if threshold is None else f" contre seuil {threshold}"
    if side.opponent is None:
        return f" contre la Capacité {de(side.capacity.character)} (opposition passive)"
    return f" contre {side.capacity.character} ({side.capacity.describe()}, {side.die})"


def odds_notes(plan: Plan) -> tuple[Line, ...]:
    critical = ("réussite critique = réussite héroïque (écart ≥ 10 sur le perdant)"
                if plan.opponent is not None else
                "réussite critique = réussite héroïque (seuil + 10)")
    return (
        Line(plan.capacity.describe(), "R003.06"),
        *plan.notes,
        Line(f"{critical} ; échec critique = échec dramatique (seuil − 10, ou 1 et 11 sur le "
             "d20)", "R003.14"),
        Line("1 et 11 sur le d20 : pas de résultat final, comptés à la Capacité seule dans la "
             "distribution", "R003.08"),
    )


def run_odds(request: CheckRequest[CydSheet], config: CydConfig) -> Odds | Report:
    """`jdr chances` for CYD: both dice side by side, or only the die of `--de`."""
    config = config.with_options(request.options)
    dice = [die_name(request.die)] if request.die else list(tables.DICE)
    plans = [build_plan(request, config, die, rolling=False) for die in dice]
    parts = tuple(die_odds(plan) for plan in plans)
    first = plans[0]
    if len(parts) == 1:
        return replace(parts[0], notes=odds_notes(first))
    title = (f"Chances {de(first.capacity.character)} : {first.capacity.label}{_against(first)}, "
             "au choix du joueur")
    return Report(title, parts, odds_notes(first), "R003.05")
