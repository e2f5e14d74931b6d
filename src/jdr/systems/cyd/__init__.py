"""CYD System / Choose Your Dice (RULES.md section 4; seed 003, Wasteland demo kit).

Capacité (attribute + skill, −3 at skill 0) + a d10 (cautious) or a d20 (risky: odd faces count
0, 1 and 11 are dramatic failures) against a threshold, or against another character.

Modules, in the order of the rulebook: `tables` (every table), `config` (every configurable
choice, defaults = RULES.md decisions, and the `--opt` keys of each action), `sheet` (the
sheet), `dice` (the dice and the judge), `capacite` (the Capacité and its test), `predilection`,
`opposition` (opposed tests), `actions` (cooperation, long actions, retrying), `checks` (`jdr
check`), `odds` (`jdr chances`: both dice side by side), `duel`, `session` (new game session),
`view` (sheet and help), `demo`, `etat` (states, D-ALL.02: Santé spent = mort), `regles` (`jdr
regle`: cooperation, action_simple, encaisser, recuperer, deplacement); `combat` and
`progression` say what the document lacks (R003.21, R003.22): `attack`, `initiative` and `xp`
are not among the actions, and no rule acts at the start of a turn or a round.

A003.01 / A003.02: the download-page metadata and the glued words of the document are
extraction artefacts, not rules. D-ALL.03 (a d10 entered by hand as 0 is 10) is the core's
`--des` reading; A003.07 says the same for CYD.
"""

from __future__ import annotations

from collections.abc import Mapping

from jdr.core.check import Odds
from jdr.core.options import ActionSpec
from jdr.core.results import Health, Line, Report, Result, SheetView
from jdr.core.sheet import SheetDocument
from jdr.core.system import (
    CheckRequest,
    Choice,
    GameSystem,
    GroupRequest,
    HandHealth,
    Loaded,
    Outcome,
    RuleRequest,
    SystemHelp,
)
from jdr.core.turns import Cost, TurnAct, TurnLimits
from jdr.dice.source import DiceSource
from jdr.systems.cyd import etat
from jdr.systems.cyd.config import ACTIONS, DEFAULT, CydConfig
from jdr.systems.cyd.sheet import TEMPLATE, CydSheet, load_sheet


class CydSystem(GameSystem[CydSheet]):
    """The CYD System (Choose Your Dice)."""

    id = "cyd"
    states = ("debout", "mort")
    title = "CYD System (Choose Your Dice)"
    seed = "003_11633f604b352128.txt"
    actions: Mapping[str, ActionSpec] = ACTIONS

    def __init__(self, config: CydConfig = DEFAULT) -> None:
        self.config = config
        self.ladder = config.threshold_ladder

    def template(self) -> str:
        return TEMPLATE

    def load(self, doc: SheetDocument) -> CydSheet:
        return load_sheet(doc)

    def show(self, sheet: Loaded[CydSheet]) -> SheetView:
        from jdr.systems.cyd.view import sheet_view

        return sheet_view(sheet.model)

    def help(self) -> SystemHelp:
        from jdr.systems.cyd.view import help_info

        return help_info()

    # the forms' choices: R003.03 skills have free names, written on the sheet
    def check_choices(self, sheet: Loaded[CydSheet]) -> tuple[Choice, ...]:
        """R003.03: this sheet's skills (the attribute is the usual one, or `carac`)."""
        return tuple(Choice(k, k.replace("_", " ").capitalize())
                     for k in sorted(sheet.model.competences))

    def die_choices(self, sheet: Loaded[CydSheet]) -> tuple[Choice, ...]:
        """R003.05: the cautious d10 or the risky d20."""
        return (Choice("d10", "d10 (prudent)"), Choice("d20", "d20 (risqué)"))

    def check(self, request: CheckRequest[CydSheet], source: DiceSource) -> Outcome:
        """A Capacité test (R003.05–R003.19), with its sheet changes (prédilection box,
        failed action)."""
        from jdr.systems.cyd.checks import run_check

        return run_check(request, source, self.config)

    def odds(self, request: CheckRequest[CydSheet]) -> Odds | Report:
        """R003.05: both dice side by side (a Report of two Odds), or the die of `--de`."""
        from jdr.systems.cyd.odds import run_odds

        return run_odds(request, self.config)

    def duel(self, request: GroupRequest[CydSheet], source: DiceSource) -> Outcome:
        from jdr.systems.cyd.duel import run_duel

        return run_duel(request, source, self.config)

    def new_session(self, request: GroupRequest[CydSheet]) -> Outcome:
        from jdr.systems.cyd.session import new_session

        return new_session(request)

    def demo(self, source: DiceSource) -> Result:
        from jdr.systems.cyd.demo import demo

        return demo(source)

    def rule(self, name: str, request: RuleRequest[CydSheet], source: DiceSource | None) -> Outcome:
        """`jdr regle NOM` (regles.py): cooperation, action_simple, encaisser, recuperer,
        deplacement."""
        from jdr.systems.cyd.regles import run_rule

        return run_rule(name, request, source, self.config)

    def rule_odds(self, name: str, request: RuleRequest[CydSheet]) -> Odds:
        from jdr.systems.cyd.regles import run_rule_odds

        return run_rule_odds(name, request, self.config)

    # states (D-ALL.02, etat.py): the kit only defines death (R003.02, Santé spent)

    def state(self, sheet: Loaded[CydSheet]) -> str:
        return etat.state(sheet.model)

    def turn_limits(self) -> TurnLimits:
        """R003.21: the kit has no combat rules; a game turn is 6 seconds (R003.23)."""
        return TurnLimits({}, "le kit ne limite pas les actions d'un tour", "R003.21", "R003.23")

    def turn_cost(self, action: str, act: TurnAct) -> Cost | None:
        """No combat rules (R003.21): no action is counted against the turn."""
        return None

    def incapacity(self, sheet: Loaded[CydSheet]) -> Line | None:
        return etat.incapacity(sheet.model)

    def health_path(self, sheet: Loaded[CydSheet]) -> tuple[str, ...]:
        """R003.02: the Santé is a secondary value."""
        return ("secondaires", "sante")

    def hand_health(self, sheet: Loaded[CydSheet]) -> HandHealth | None:
        """R003.02: the Santé, in points (damage lowers it)."""
        if self.health(sheet) is None:
            return None
        return HandHealth("Santé", "−5 (dégâts), +3 (soins) ou 12 (valeur fixée)", "-")

    def health(self, sheet: Loaded[CydSheet]) -> Health | None:
        return etat.health(sheet.model)

    def conditions(self, sheet: Loaded[CydSheet]) -> tuple[str, ...]:
        return etat.conditions(sheet.model)


SYSTEM = CydSystem()

__all__ = ["SYSTEM", "CydConfig", "CydSystem"]
