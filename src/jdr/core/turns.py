"""Turns in an encounter: who may act now, and how much of each kind one turn allows.

A system declares its turn rules through two `GameSystem` hooks:

- `turn_limits()`: a `TurnLimits` — for each kind of action, how many one turn allows, which
  kinds exclude each other (dd35's Action Complexe: nothing else but free actions), the French
  wording and the rule id; by default one action per turn;
- `turn_cost(action, act)`: what one action costs of its character's turn (a `Cost`), or None
  when it is not bound to the turn (a defence, a resistance roll, a check the MJ asks for, a rule
  played outside the fight). By default only an attack costs one action.

In an encounter, an action that costs something is admitted (`admit`) only for the combatant
whose turn it is, and only while the turn has room for it; it is then counted on the combatant
(`Combatant.spent`, reset when its turn begins). A turn-bound declaration (Cydonia's
concentration, élan; dd35's attendre) costs the turn's action, so it counts once per turn. A
refusal is one French line naming the rule. The MJ may override (`force`): the action is then
admitted, counted, and the override is written in the journal entry (`Admission.override`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from typing import TYPE_CHECKING, Any

from jdr.core.frozen import frozen
from jdr.errors import RuleError

if TYPE_CHECKING:
    from jdr.core.encounter import Combatant, EncounterState


@frozen
class Cost:
    """What one action spends of its character's turn."""

    kind: str  # the budget it counts against: "action", "simple", "complexe", "tour"…
    what: str  # French, for the refusal: « une attaque », « la concentration »
    rule: str = ""
    declaration: bool = False  # a declaration that fills the turn: it counts once per turn


@frozen
class TurnAct:
    """An action as the turn rules see it (before any die is rolled)."""

    action: str  # attack, check, or the name of a rule of the system (concentration, …)
    actor: str
    targets: int = 1
    full: bool = False  # an attack with every iterative attack (`complete`)
    options: Mapping[str, Any] = field(default_factory=dict)


@frozen
class TurnLimits:
    """What one turn allows: for each kind, how many; kinds that cannot share a turn."""

    limits: Mapping[str, int]
    text: str  # French: « une action par tour »
    rule: str = ""
    order_rule: str = ""  # the rule that sets who acts when (the initiative)
    excludes: Mapping[str, frozenset[str]] = field(default_factory=dict)


DEFAULT_LIMITS = TurnLimits({"action": 1}, "une action par tour")


def default_cost(action: str, act: TurnAct) -> Cost | None:
    """Without a rule of its own, a system counts only attacks: one per turn."""
    if action == "attack":
        return Cost("action", "une attaque")
    return None


def of(name: str) -> str:
    """« de Nain A », « d'Elfe B » (elision before a vowel or a mute h)."""
    from jdr.names import normalize

    first = normalize(name)[:1]
    return f"d'{name}" if first and first in "aeiouyh" else f"de {name}"


def _rule(*ids: str) -> str:
    shown = ", ".join(dict.fromkeys(i for i in ids if i))
    return f" ({shown})" if shown else ""


@frozen
class Admission:
    """An action admitted in the turn; `override` is the MJ's override, to be journaled."""

    combatant: str
    cost: Cost
    override: str | None = None


def refusal(state: EncounterState, limits: TurnLimits, act: TurnAct, cost: Cost) -> str | None:
    """Why the turn rules refuse `act` now (one French line naming the rule), or None."""
    current = state.current
    combatant = _find(state, act.actor)
    if combatant is None or current is None:
        return None
    if combatant is not current:
        return (f"ce n'est pas le tour {of(combatant.name)} mais celui {of(current.name)} : "
                f"chacun agit à son tour{_rule(limits.order_rule)}")
    used = combatant.spent
    limit = limits.limits.get(cost.kind)
    blocked = [k for k in limits.excludes.get(cost.kind, frozenset()) if used.get(k)]
    if (limit is not None and used.get(cost.kind, 0) >= limit) or blocked:
        done = ", ".join(combatant.done) or cost.what
        same = cost.declaration and cost.what in combatant.done
        extra = f" ; {cost.what} compte une fois par tour" if same else ""
        return (f"{combatant.name} a déjà agi ce tour ({done}) : {limits.text}{extra}"
                f"{_rule(limits.rule, cost.rule if same else '')}")
    return None


def _find(state: EncounterState, name: str) -> Combatant | None:
    from jdr.names import normalize

    for c in state.order:
        if normalize(c.name) == normalize(name):
            return c
    return None


def admit(state: EncounterState, limits: TurnLimits, act: TurnAct, cost: Cost | None,
          force: bool = False) -> Admission | None:
    """Count `act` on its combatant's turn (None: not bound to the turn, or not a combatant);
    refuse it when the rules do not allow it now, unless the MJ forces it."""
    if cost is None or state.ended:
        return None
    combatant = _find(state, act.actor)
    if combatant is None:
        return None
    why = refusal(state, limits, act, cost)
    if why is not None and not force:
        raise RuleError(why)
    combatant.spent[cost.kind] = combatant.spent.get(cost.kind, 0) + 1
    combatant.done.append(cost.what)
    override = f"dérogation du MJ : {why}" if why is not None else None
    return Admission(combatant.name, cost, override)
