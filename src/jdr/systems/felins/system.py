"""`FelinsSystem`: the `GameSystem` of the forum cats & clans game (RULES.md section 5)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from jdr.core.check import CheckResult, Odds
from jdr.core.compile import Effect
from jdr.core.messages import Ref, arg, say
from jdr.core.options import ActionSpec
from jdr.core.results import Health, Line, Result, SheetView
from jdr.core.sheet import SheetDocument
from jdr.core.system import (
    AttackRequest,
    CheckRequest,
    Choice,
    GameSystem,
    GroupRequest,
    Loaded,
    Outcome,
    RuleRequest,
    SystemHelp,
    TurnRequest,
    default_choice,
)
from jdr.core.threshold import parse_threshold
from jdr.core.turns import TurnLimits
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.felins import attack_law, combat, states
from jdr.systems.felins import duel as provocation
from jdr.systems.felins.checks import (
    Roll,
    Target,
    keep_choice,
    roll_changes,
    target_check,
    target_of,
    voluntary_failure,
)
from jdr.systems.felins.config import ACTIONS, DEFAULT, FelinsConfig, config_from, option
from jdr.systems.felins.opposed import opposed_contest, opposed_roll
from jdr.systems.felins.rules import RULES, Rules
from jdr.systems.felins.sheet import TEMPLATE, Cat, creation_problems, load_cat
from jdr.systems.felins.view import sheet_view, system_help

#: What `jdr attaque` takes that has no meaning here (no weapons list, no location, no defence).
_NO_ATTACK_FLAG = ("defense", "visee", "critique", "complete")


class FelinsSystem(GameSystem[Cat]):
    """Forum cats & clans game: Chance d10 keep one + skill ≥ threshold (RULES.md section 5)."""

    id = "felins"
    states = ("debout", "en_fuite", "inconscient", "coma", "mort")
    title = "Félins — jeu de forum des clans de chats"
    seed = "004_5e543b2922acc546.txt"
    actions: Mapping[str, ActionSpec] = {**ACTIONS, **RULES}

    def __init__(self, config: FelinsConfig = DEFAULT) -> None:
        self.config = config
        self.ladder = config.threshold_ladder()
        self.rules = Rules(config, self.ladder)

    # -- sheets ----------------------------------------------------------------

    def template(self) -> str:
        return TEMPLATE

    def load(self, doc: SheetDocument) -> Cat:
        return load_cat(doc)

    def name_of(self, model: Cat) -> str:
        return model.name

    def creation_problems(self, loaded: Loaded[Cat]) -> list[str]:
        """R004.04 budget, R004.03 Chance ≤ 3, R004.07 skill points."""
        return creation_problems(loaded.model, self.config)

    def show(self, sheet: Loaded[Cat]) -> SheetView:
        return sheet_view(sheet.model, self.config)

    def help(self) -> SystemHelp:
        return system_help()

    # -- states and encounters (D-ALL.02) ---------------------------------------

    def state(self, sheet: Loaded[Cat]) -> str:
        """R004.28, R004.32 `debout`, `en_fuite`, `inconscient`, `coma` or `mort`."""
        return states.state(sheet.model)

    def incapacity(self, sheet: Loaded[Cat]) -> Line | None:
        """D-ALL.02 a cat that fled, an unconscious, comatose or dead one cannot act."""
        return states.incapacity(sheet.model)

    def health_path(self, sheet: Loaded[Cat]) -> tuple[str, ...]:
        """R004.22: wound levels are a plain count."""
        return ("blessures",)

    def health(self, sheet: Loaded[Cat]) -> Health:
        """R004.22 the wound levels carried; max = the most it carries and stays conscious."""
        return states.health(sheet.model, self.config)

    def conditions(self, sheet: Loaded[Cat]) -> tuple[str, ...]:
        return states.conditions(sheet.model)

    def turn_limits(self) -> TurnLimits:
        """R004.23: combat is a normal action, one attack per turn in the initiative order
        (R004.29); the immediate reaction of a cat hit (R004.30) is the MJ's override."""
        return TurnLimits({"action": 1}, "une attaque par tour (la riposte immédiate, R004.30, "
                          "passe par le MJ)", "R004.23", "R004.29")

    def turn_start(self, request: TurnRequest[Cat], source: DiceSource) -> Outcome | None:
        """R004.32 an unconscious cat's turn: its 3d10 × 5 minutes (A004.30)."""
        return states.turn_start(request, source, self.config)

    # -- checks ----------------------------------------------------------------

    def _threshold(self, request: CheckRequest[Cat]) -> int | None:
        if request.die is not None:
            raise RuleError(say("felins : ", arg("de"), " ne sert pas ici (on lance autant de d10 "
                                "que la Chance)"))
        return parse_threshold(request.threshold, self.ladder)

    def check(self, request: CheckRequest[Cat], source: DiceSource) -> Outcome:
        """R004.12/R004.13 a roll against a threshold, or R004.21 an opposed roll; the Chance a
        critical leaves goes on the sheet (R004.18–R004.20); R004.17 voluntary failure."""
        config = config_from(request.options, self.config)
        threshold = self._threshold(request)
        cat = request.actor.model
        target = target_of(request.skill, request.carac)
        cat.require_able("agir")
        if request.options.flag("echec_volontaire"):
            return Outcome(voluntary_failure(cat, target, threshold))
        if request.opponent is not None:
            return opposed_roll(request, config, source)
        check = target_check(cat, target, Roll(threshold, request.bonus, request.choice), config)
        result = _survival(target, keep_choice(check, check.roll(source), request.chooser))
        return Outcome(result, roll_changes(request.actor, result))

    def odds(self, request: CheckRequest[Cat]) -> Odds:
        """The exact odds of the very `Check` (or `Contest`) that `check` rolls."""
        config = config_from(request.options, self.config)
        threshold = self._threshold(request)
        if request.opponent is not None:
            return opposed_contest(request, config).odds()
        target = target_of(request.skill, request.carac)
        check = target_check(request.actor.model, target,
                             Roll(threshold, request.bonus, request.choice), config)
        odds = check.odds()
        label = None if threshold is None else config.label_of(threshold)
        return replace(odds, notes=(f"seuil {threshold} : {label}",)) if label else odds

    # -- combat ----------------------------------------------------------------

    def _attack_setup(self, request: AttackRequest[Cat]) -> tuple[FelinsConfig, combat.Cover]:
        """The attack's configuration and cover; the flags that mean nothing here refused."""
        given = (request.defence, request.aimed, request.critical, request.full or None)
        for flag, value in zip(_NO_ATTACK_FLAG, given, strict=True):
            if value is not None:
                raise RuleError(say("felins : ", arg(flag), " ne sert pas (le seuil vient de "
                                    "l'Agilité du défenseur, ", Ref("--opt protection=… et surprise=…",
                                    f"{option('protection').web} et {option('surprise').web}"),
                                    ")"))
        if request.weapon is not None and normalize(request.weapon) not in ("combat_griffu",
                                                                            "griffes"):
            raise RuleError("felins : pas d'armes, les chats se battent en Combat griffu (R004.30)")
        config = config_from(request.options, self.config)
        return config, combat.Cover(request.options.text("protection"),
                                    request.options.text("surprise"))

    def attack(self, request: AttackRequest[Cat], source: DiceSource) -> Outcome:
        """R004.23–R004.32; options `protection`, `surprise` (R004.25, R004.26)."""
        config, cover = self._attack_setup(request)
        return combat.attack(request.attacker, request.defender, cover, source, config,
                             request.chooser)

    def attack_outcomes(self, request: AttackRequest[Cat]) -> Mapping[Effect, Fraction] | None:
        """The exact table of `attack` from the laws of its rolls (`attack_law`), not face by
        face; a player who keeps another die than the best (a chooser) is enumerated."""
        if request.chooser is not default_choice:
            return super().attack_outcomes(request)
        config, cover = self._attack_setup(request)
        return attack_law.attack_outcomes(request.attacker, request.defender, cover, config)

    def check_choices(self, sheet: Loaded[Cat]) -> tuple[Choice, ...]:
        """R004.08: the skills this cat may use (an (Ω) skill needs rank 1), its characteristics."""
        out = []
        for choice in super().check_choices(sheet):
            target = target_of(choice.value, None)
            if target.kind == "competence":
                try:
                    sheet.model.usable_skill(target.key, self.config)
                except RuleError:
                    continue
            out.append(choice)
        return tuple(out)

    def defence_choices(self, attacker: Loaded[Cat], defender: Loaded[Cat] | None,
                        weapon: str | None) -> tuple[Choice, ...]:
        """R004.30: no defence roll; the threshold comes from the defender's Agilité."""
        return ()

    def attack_odds(self, request: AttackRequest[Cat]) -> Odds:
        """R004.30: the exact odds of the Combat griffu roll `attack` makes."""
        config = config_from(request.options, self.config)
        cover = combat.Cover(request.options.text("protection"), request.options.text("surprise"))
        return combat.attack_check(request.attacker.model, request.defender.model, cover,
                                   config).odds()

    def initiative(self, request: GroupRequest[Cat], source: DiceSource) -> Outcome:
        """R004.29 Agilité, then Chance, then 1d10."""
        return Outcome(combat.initiative([s.model for s in request.sheets], source, self.config))

    def duel(self, request: GroupRequest[Cat], source: DiceSource) -> Outcome:
        """R004.27 the first sheet provokes the second; option `choix` (A004.16)."""
        if len(request.sheets) != 2:
            raise RuleError("duel : il faut deux fiches, le provocant puis le provoqué")
        provoker, provoked = request.sheets
        config = config_from(request.options, self.config)
        return provocation.duel(provoker, provoked, source, request.options.text("choix"), config)

    # -- the rules no core command plays (`jdr regle`) ----------------------------

    def rule(self, name: str, request: RuleRequest[Cat], source: DiceSource | None) -> Outcome:
        """`soigner`, `tanniere`, `reveil`, `fin_combat` (rules.py)."""
        return self.rules.play(name, request, source)

    def rule_odds(self, name: str, request: RuleRequest[Cat]) -> Odds:
        """The exact odds of `soigner` and `reveil` (the rolls `rule` makes)."""
        return self.rules.odds(name, request)

    def demo(self, source: DiceSource) -> Result:
        from jdr.systems.felins.demo import scene

        return scene(self, source)


def _survival(target: Target, result: CheckResult) -> CheckResult:
    """R004.36 each successful Survie roll gives about a day of food and water and a night's
    rest."""
    if target.key != "survie" or not result.success:
        return result
    line = Line("environ une journée de vivres et d'eau potable, et une nuit de repos", "R004.36")
    return replace(result, notes=(*result.notes, line))
