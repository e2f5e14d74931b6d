"""Before a fight, a duel (R004.27, A004.15, A004.16, A004.28).

The provoker rolls Sociabilité against 5 + 2 × the provoked's Volonté, the provoked rolls
Volonté against 5 + 2 × the provoker's Sociabilité (characteristic rolls, A004.15), each + 1 per
full 5 points of reputation (A004.28). Four outcomes; in the fourth the provoked chooses (A004.16).
"""

from __future__ import annotations

from jdr.core.check import Check, Modifier
from jdr.core.frozen import frozen
from jdr.core.results import Line, Report
from jdr.core.system import Loaded, Outcome
from jdr.dice.source import DiceSource
from jdr.systems.felins import tables
from jdr.systems.felins.checks import Roll, characteristic_check, roll_changes
from jdr.systems.felins.config import DEFAULT, FelinsConfig
from jdr.systems.felins.sheet import Cat


def reputation_bonus(reputation: int) -> int:
    """R004.27 +1 to the die per full 5 points of reputation (E004.04)."""
    return reputation // tables.REPUTATION_STEP


DUEL_OUTCOMES = {
    1: "le provocant réussit, pas le provoqué : l'intimidation a réussi, {a} remporte le duel "
       "sans confrontation physique",
    2: "le provoqué réussit, pas le provocant : {b} retourne l'intimidation et remporte le duel "
       "sans confrontation physique",
    3: "les deux réussissent : {b} ne plie pas, le duel devient un combat",
    4: "les deux ratent : {a} impressionne quelque peu {b}, qui choisit d'accepter la victoire "
       "du provocant ou d'engager le combat",
}


@frozen
class DuelOutcome:
    """R004.27 which of the four outcomes, who wins, whether it becomes a fight (None: the
    provoked has not chosen yet, A004.16)."""

    number: int
    choice: str | None = None

    @property
    def winner(self) -> str | None:
        """`provocant`, `provoque` or None."""
        if self.number == 1 or (self.number == 4 and self.choice == "accepter"):
            return "provocant"
        if self.number == 2:
            return "provoque"
        return None

    @property
    def fight(self) -> bool | None:
        if self.number == 3:
            return True
        if self.number == 4:
            return None if self.choice is None else self.choice == "combattre"
        return False

    def text(self, a: str, b: str) -> str:
        text = DUEL_OUTCOMES[self.number].format(a=a, b=b)
        if self.number == 4 and self.choice == "accepter":
            text += f" ; {b} accepte : {a} l'emporte"
        elif self.number == 4 and self.choice == "combattre":
            text += f" ; {b} choisit le combat"
        return text


def duel_outcome(provoker_succeeds: bool, provoked_succeeds: bool,
                 choice: str | None = None) -> DuelOutcome:
    """R004.27 the four outcomes; the choice counts only in the fourth (A004.16)."""
    number = {(True, False): 1, (False, True): 2, (True, True): 3,
              (False, False): 4}[(provoker_succeeds, provoked_succeeds)]
    return DuelOutcome(number, choice if number == 4 else None)


def duel_checks(provoker: Cat, provoked: Cat, config: FelinsConfig = DEFAULT) -> tuple[Check, Check]:
    """A004.15 characteristic rolls against the other's stat; + reputation // 5 (A004.28)."""

    def rep(cat: Cat) -> tuple[Modifier, ...]:
        bonus = reputation_bonus(cat.reputation) if config.duel_reputation else 0
        return (Modifier(bonus, f"réputation {cat.reputation}", "R004.27"),) if bonus else ()

    base, factor = tables.DEFENCE_BASE, tables.CHARACTERISTIC_FACTOR
    a = characteristic_check(provoker, "sociabilite", Roll(
        base + factor * provoked.characteristics["volonte"], extra=rep(provoker), rule="R004.27"),
        config)
    b = characteristic_check(provoked, "volonte", Roll(
        base + factor * provoker.characteristics["sociabilite"], extra=rep(provoked),
        rule="R004.27"), config)
    return a, b


def duel(provoker: Loaded[Cat], provoked: Loaded[Cat], source: DiceSource,
         choice: str | None = None, config: FelinsConfig = DEFAULT) -> Outcome:
    """R004.27 `provoker` provokes `provoked`: both roll, in that order; a critical moves the
    roller's Chance on its sheet."""
    a_cat, b_cat = provoker.model, provoked.model
    a_cat.require_able("provoquer un duel")
    b_cat.require_able("répondre à un duel")
    check_a, check_b = duel_checks(a_cat, b_cat, config)
    a = check_a.roll(source)
    b = check_b.roll(source)
    outcome = duel_outcome(bool(a.success), bool(b.success), choice)
    line = Line(f"issue {outcome.number} : {outcome.text(a_cat.name, b_cat.name)}", "R004.27")
    report = Report(f"Duel de provocation : {a_cat.name} provoque {b_cat.name}", (a, b),
                    (line,), "R004.27")
    return Outcome(report, (*roll_changes(provoker, a), *roll_changes(provoked, b)))
