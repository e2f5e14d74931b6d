"""The dd35 game system: the core's `GameSystem` over the dd35 sheet, each action one `Outcome`."""

from __future__ import annotations

from jdr.core.check import Check, Odds
from jdr.core.contest import Contest
from jdr.core.options import NO_OPTIONS, Options
from jdr.core.results import Line, Result, SheetView
from jdr.core.sheet import SheetDocument, validate
from jdr.core.system import (
    AttackRequest,
    CheckRequest,
    GameSystem,
    GroupRequest,
    Loaded,
    Outcome,
    SheetChange,
    SystemHelp,
    XpRequest,
)
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.dd35.character import Character
from jdr.systems.dd35.checks import PLACEHOLDER_DC, manoeuvre_dc
from jdr.systems.dd35.combat import Blow, resolve_attack, resolve_manoeuvre, suffered
from jdr.systems.dd35.config import Rules, rules_for
from jdr.systems.dd35.demo import scene
from jdr.systems.dd35.initiative import roll_initiative
from jdr.systems.dd35.options import ACTIONS
from jdr.systems.dd35.progression import level_up
from jdr.systems.dd35.resolution import AC_NAMES, FLAT_FOOTED_NAMES, ability_named, build
from jdr.systems.dd35.sheet import TEMPLATE, Sheet
from jdr.systems.dd35.turn import check_declared_turn
from jdr.systems.dd35.view import sheet_view, system_help


def _flat_footed(defence: str | None, options: Options) -> bool:
    """`--defense depourvu` or `--opt depourvu=oui`: the defender is flat-footed (R002.06)."""
    if defence is None or normalize(defence) in AC_NAMES:
        return options.flag("depourvu")
    if normalize(defence) in FLAT_FOOTED_NAMES:
        return True
    raise RuleError("--defense : " + unknown_name_message("défense", defence, ["ca", "depourvu"]))


class Dd35System(GameSystem[Sheet]):
    id = "dd35"
    title = "d20 / 3.5 — Catégorie:Combat (armure = réduction de dégâts)"
    seed = "002_7c1c454f5d826199.txt"
    actions = ACTIONS
    ladder = None  # the document names no difficulty ladder: a DC is a number

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = rules or Rules()

    # -- sheets ------------------------------------------------------------

    def template(self) -> str:
        return TEMPLATE

    def load(self, doc: SheetDocument) -> Sheet:
        sheet = validate(Sheet, doc)
        assert isinstance(sheet, Sheet)
        return sheet

    def character(self, loaded: Loaded[Sheet], options: Options = NO_OPTIONS) -> Character:
        """The sheet with every derived value, under this command's rules."""
        return Character(loaded.model, rules_for(options, self.rules))

    def creation_problems(self, loaded: Loaded[Sheet]) -> list[str]:
        c = self.character(loaded)
        problems: list[str] = []
        if c.sheet.pv_mode == "fixe" and c.sheet.pv is not None and c.max_hp != c.computed_hp:
            problems.append(f"pv.max = {c.max_hp} : en pv_mode fixe, le calcul donne "
                            f"{c.computed_hp} (R002.02)")
        if c.sheet.pv_mode == "lance" and c.sheet.pv is None:
            problems.append("pv : obligatoire en pv_mode lance (écrivez le total des dés lancés)")
        return problems

    def show(self, sheet: Loaded[Sheet]) -> SheetView:
        return sheet_view(self.character(sheet))

    def help(self) -> SystemHelp:
        return system_help()

    # -- checks ------------------------------------------------------------

    def build(self, request: CheckRequest[Sheet]) -> Check | Contest:
        """The one definition a `check` rolls and an `odds` computes."""
        return build(request, rules_for(request.options, self.rules), self.ladder)

    def check(self, request: CheckRequest[Sheet], source: DiceSource) -> Outcome:
        return Outcome(self.build(request).roll(source))

    def odds(self, request: CheckRequest[Sheet]) -> Odds:
        """Same definition as `check`: for a weapon, `success` is the chance to hit the AC and
        `critical_success` the chance of a critical (natural 20 or a Coup Fantastique)."""
        return self.build(request).odds()

    # -- combat ------------------------------------------------------------

    def attack(self, request: AttackRequest[Sheet], source: DiceSource) -> Outcome:
        opts = request.options
        if request.aimed is not None:
            raise RuleError("dd35 : pas de localisation des coups (--visee)")
        attacker = self.character(request.attacker, opts)
        defender = self.character(request.defender, opts)
        if opts.text("manoeuvre") is not None:
            return Outcome(self._manoeuvre(attacker, defender, opts, source))
        if request.critical is not None:
            raise RuleError("dd35 : le critique vient du dé (20 naturel ou zone de critique), "
                            "pas de --critique")
        declared = opts.text("tour")
        if declared is not None:
            check_declared_turn(declared, request.full, len(attacker.attacks))
        blow = Blow(request.full, _flat_footed(request.defence, opts),
                    opts.int("circonstance", 0) or 0, opts.int("rd_sort", 0) or 0,
                    bool(opts["magique"]) if opts.was_given("magique") else None)
        report = resolve_attack(attacker, defender, attacker.weapon(request.weapon), source, blow)
        return Outcome(report, self._hp_changes(request.defender, defender, suffered(report)))

    @staticmethod
    def _manoeuvre(attacker: Character, defender: Character, opts: Options,
                   source: DiceSource) -> Result:
        """R002.15: `--opt manoeuvre=NOM --opt sauvegarde=TYPE [--opt nd=N]`."""
        save = opts.text("sauvegarde")
        if save is None:
            raise RuleError("manœuvre : précisez --opt sauvegarde=reflexes|vigueur|volonte")
        notes: tuple[Line, ...] = ()
        dc = opts.int("nd")
        if dc is None:
            ability = ability_named(opts.text("carac_manoeuvre") or "force",
                                    "--opt carac_manoeuvre")
            dc = manoeuvre_dc(attacker, ability, attacker.rules)
            notes = (Line(PLACEHOLDER_DC + " (--opt nd=N)", "A002.16"),)
        return resolve_manoeuvre(attacker, [defender], opts.text("manoeuvre") or "", save, dc,
                                 source, notes)

    @staticmethod
    def _hp_changes(doc: Loaded[Sheet], defender: Character, damage: int) -> tuple[SheetChange, ...]:
        if not damage:
            return ()
        after = defender.current_hp - damage
        if defender.sheet.pv is None:  # pv omitted (computed, R002.02): write the pool in full
            return (SheetChange(doc.doc, ("pv", "max"), defender.max_hp),
                    SheetChange(doc.doc, ("pv", "actuels"), after))
        return (SheetChange(doc.doc, ("pv",), after, pool=True),)

    def initiative(self, request: GroupRequest[Sheet], source: DiceSource) -> Outcome:
        return Outcome(roll_initiative([self.character(s) for s in request.sheets], source))

    # -- progression -------------------------------------------------------

    def xp(self, request: XpRequest[Sheet]) -> Outcome:
        """R002.19: gain a level (`--pv --opt classe=NOM [--opt jet=N]`); no XP table."""
        if not request.hit_points or request.skill is not None or request.carac is not None:
            raise RuleError("dd35 : pas de table d'XP dans le document ; gagner un niveau : "
                            "jdr xp FICHE --pv --opt classe=NOM [--opt jet=N]")
        name = request.options.text("classe")
        if name is None:
            raise RuleError("niveau : précisez la classe avec --opt classe=NOM")
        c = self.character(request.sheet, request.options)
        up = level_up(c, name, request.options.int("jet"))
        doc = request.sheet.doc
        changes = [SheetChange(doc, ("classes", up.class_name), up.new_level)]
        if c.sheet.pv is not None or up.rolled is not None:
            changes.append(SheetChange(doc, ("pv", "max"), up.hp_max_after))
            changes.append(SheetChange(doc, ("pv", "actuels"), up.hp_current_after))
        return Outcome(up.purchase(), tuple(changes))

    def demo(self, source: DiceSource) -> Result:
        return scene(source)
