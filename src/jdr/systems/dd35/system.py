"""The dd35 game system: the core's `GameSystem` over the dd35 sheet, each action one `Outcome`."""

from __future__ import annotations

from jdr.core.check import Check, Odds
from jdr.core.contest import Contest
from jdr.core.messages import Ref, arg, say
from jdr.core.options import NO_OPTIONS, Options
from jdr.core.results import Health, Line, Notes, Result, SheetView
from jdr.core.sheet import SheetDocument, validate
from jdr.core.system import (
    AttackRequest,
    CheckRequest,
    Choice,
    GameSystem,
    GroupRequest,
    Loaded,
    Outcome,
    RuleRequest,
    SheetChange,
    SystemHelp,
    TurnRequest,
    XpRequest,
)
from jdr.core.turns import Cost, TurnAct, TurnLimits
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message
from jdr.systems.dd35 import rules
from jdr.systems.dd35.character import Character
from jdr.systems.dd35.combat import Blow, resolve_attack, suffered
from jdr.systems.dd35.config import Rules, rules_for
from jdr.systems.dd35.demo import scene
from jdr.systems.dd35.initiative import IDLE, TURN, end_round, roll_initiative
from jdr.systems.dd35.options import ACTIONS
from jdr.systems.dd35.progression import level_up
from jdr.systems.dd35.resolution import AC_NAMES, FLAT_FOOTED_NAMES, build
from jdr.systems.dd35.sheet import TEMPLATE, Sheet
from jdr.systems.dd35.turn import check_declared_turn
from jdr.systems.dd35.view import sheet_view, system_help

# R002.19: how a level is gained (the XP purchase of the core, with the hit points)
LEVEL_UP = Ref("jdr xp FICHE --pv --opt classe=NOM [--opt jet=N]",
               "l'action « Expérience », « Points de vie » coché, avec la classe (et le dé de vie "
               "lancé, s'il l'est)")


def _flat_footed(defence: str | None, options: Options, surprised: bool = False) -> bool:
    """`--defense depourvu` or `--opt depourvu=oui`: the defender is flat-footed (R002.06); a
    surprised defender is, unless `--opt depourvu=non` (A002.21)."""
    if defence is None or normalize(defence) in AC_NAMES:
        if options.was_given("depourvu"):
            return options.flag("depourvu")
        return surprised
    if normalize(defence) in FLAT_FOOTED_NAMES:
        return True
    raise RuleError(say(arg("defense"), " : "
                        + unknown_name_message("défense", defence, ["ca", "depourvu"])))


class Dd35System(GameSystem[Sheet]):
    id = "dd35"
    attack_health_relative = True  # the simulator compiles its attack apart from health
    title = "d20 / 3.5 — Catégorie:Combat (armure = réduction de dégâts)"
    seed = "002_7c1c454f5d826199.txt"
    actions = ACTIONS
    ladder = None  # the document names no difficulty ladder: a DC is a number
    states = ("debout", "hors_de_combat")

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

    # -- the forms' choices ---------------------------------------------------

    full_attack = True  # R002.17: every attack of the round

    def carac_choices(self, sheet: Loaded[Sheet]) -> tuple[Choice, ...]:
        """No `--carac`: the skill says what adds to the d20 (a characteristic is its own check)."""
        return ()

    def weapon_choices(self, sheet: Loaded[Sheet]) -> tuple[Choice, ...]:
        return tuple(Choice(w.nom) for w in sheet.model.armes)

    def attack_odds(self, request: AttackRequest[Sheet]) -> Odds:
        """The attack roll against the defender's AC: the same definition `odds` computes for a
        weapon (success = hit, critical_success = a critical)."""
        weapon = request.weapon or next((w.nom for w in request.attacker.model.armes), None)
        if weapon is None:
            raise RuleError(f"{request.attacker.name} n'a aucune arme : pas de chances d'attaque")
        return self.odds(CheckRequest(request.attacker, weapon, opponent=request.defender))

    # -- combat ------------------------------------------------------------

    def attack(self, request: AttackRequest[Sheet], source: DiceSource) -> Outcome:
        opts = request.options
        if request.aimed is not None:
            raise RuleError(say("dd35 : pas de localisation des coups (", arg("visee"), ")"))
        attacker = self.character(request.attacker, opts)
        defender = self.character(request.defender, opts)
        if opts.text("manoeuvre") is not None:
            return Outcome(rules.manoeuvre(attacker, [defender], opts, source))
        if request.critical is not None:
            raise RuleError(say("dd35 : le critique vient du dé (20 naturel ou zone de critique), "
                                "pas de ", arg("critique")))
        declared = opts.text("tour")
        if declared is not None:
            check_declared_turn(declared, request.full, len(attacker.attacks))
        blow = Blow(request.full,
                    _flat_footed(request.defence, opts, defender.sheet.etat.surpris),
                    opts.int("circonstance", 0) or 0, opts.int("rd_sort", 0) or 0,
                    bool(opts["magique"]) if opts.was_given("magique") else None)
        report = resolve_attack(attacker, defender, attacker.weapon(request.weapon), source, blow)
        return Outcome(report, self._hp_changes(request.defender, defender, suffered(report)))

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
            raise RuleError(say("dd35 : pas de table d'XP dans le document ; gagner un niveau : ",
                                LEVEL_UP))
        name = request.options.text("classe")
        if name is None:
            raise RuleError(say("niveau : précisez la classe avec ",
                                request.options.ref("classe", "NOM")))
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

    # -- the system's own rules (jdr regle) ----------------------------------

    def rule(self, name: str, request: RuleRequest[Sheet], source: DiceSource | None) -> Outcome:
        sheets, opts = request.sheets, request.options
        if name == "attendre":
            rules.cast(sheets, name, 1, 1)
            return rules.wait(sheets[0], self.character(sheets[0]))
        if name == "tour":
            rules.cast(sheets, name, 1, 1)
            return rules.turn(self.character(sheets[0], opts), opts)
        if name not in ("manoeuvre", "surprise"):
            raise self._unsupported(f"la règle « {name} »")
        if source is None:
            raise RuleError(f"la règle « {name} » lance des dés : source de dés absente")
        rules.cast(sheets, name, 2)
        author, *targets = [self.character(s, opts) for s in sheets]
        if name == "manoeuvre":
            return Outcome(rules.manoeuvre(author, targets, opts, source))
        return rules.surprise(author, sheets[1:], targets, opts, source)

    def rule_odds(self, name: str, request: RuleRequest[Sheet]) -> Odds:
        if name not in ("manoeuvre", "surprise"):
            raise RuleError(f"la règle « {name} » ne lance pas de dés : pas de chances à calculer")
        rules.cast(request.sheets, name, 2)
        author, *targets = [self.character(s, request.options) for s in request.sheets]
        if name == "manoeuvre":
            return rules.manoeuvre_odds(author, targets, request.options)
        return rules.surprise_odds(author, targets, request.options)

    # -- states and encounters (D-ALL.02, R002.13) -----------------------------

    def state(self, sheet: Loaded[Sheet]) -> str:
        """`hors_de_combat` at 0 HP or less (the document has no other state), else `debout`."""
        return self.character(sheet).state

    def incapacity(self, sheet: Loaded[Sheet]) -> Line | None:
        return self.character(sheet).incapacity

    def health(self, sheet: Loaded[Sheet]) -> Health:
        c = self.character(sheet)
        return Health("pv", c.current_hp, c.current_hp, c.max_hp)

    def conditions(self, sheet: Loaded[Sheet]) -> tuple[str, ...]:
        from jdr.core.french import accord

        etat = sheet.model.etat
        caught = accord(sheet.genre, "surpris (pris au dépourvu)", "surprise (prise au dépourvu)",
                        "au dépourvu (surprise)")
        found = (caught if etat.surpris else "",
                 "attend (n'agit pas ce round)" if etat.attend else "")
        return tuple(f for f in found if f)

    def turn_limits(self) -> TurnLimits:
        from jdr.systems.dd35.turn import LIMITS

        return LIMITS

    def turn_cost(self, action: str, act: TurnAct) -> Cost | None:
        from jdr.systems.dd35.turn import turn_cost

        return turn_cost(action, act)

    def turn_start(self, request: TurnRequest[Sheet], source: DiceSource) -> Outcome | None:
        """Remembers, for the end of the round (R002.13), that this character's turn began and
        whether it could act then (D-ALL.02: the core passes the turn of one who cannot)."""
        if request.sheet is None:
            return None
        data = request.encounter.find(request.sheet.name).data
        data[TURN] = request.encounter.round
        if self.incapacity(request.sheet) is not None:
            data[IDLE] = request.encounter.round
        return None

    def round_start(self, request: TurnRequest[Sheet], source: DiceSource) -> Outcome | None:
        """R002.13 + A002.04: +5 to whoever did not act in the round that ended (re-sorted,
        A002.05), the end of combat when nobody acted; the round's `attendre` and the surprise
        of the first round (A002.21) end."""
        everyone = {s.name: s for s in request.everyone}
        waiting = frozenset(n for n, s in everyone.items() if s.model.etat.attend)
        dex = {n: self.character(s).mod("dexterite") for n, s in everyone.items()}
        done = end_round(request.encounter, waiting, dex, source)
        changes = tuple(SheetChange(s.doc, ("etat", key), False) for s in everyone.values()
                        for key in ("attend", "surpris") if getattr(s.model.etat, key))
        title = ("Fin du combat" if done.over
                 else f"Round {request.encounter.round} : initiative")
        return Outcome(Notes(title, done.lines, "R002.13"), changes)
