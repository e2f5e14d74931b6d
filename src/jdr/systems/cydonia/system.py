"""The Cydonia game system as the core sees it: each command's request, turned into the rules'
result and the sheet changes (RULES.md section 1, SHEETS.md `cydonia`)."""

from __future__ import annotations

from collections.abc import Sequence

from jdr.core.check import Check, Odds
from jdr.core.contest import Contest
from jdr.core.results import Health, Line, Result, SheetView
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
    TurnRequest,
    XpRequest,
)
from jdr.core.threshold import parse_threshold
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cydonia.checks import (
    CONTEST,
    STATE_WORDS,
    Character,
    opposing_skill,
    passive_check,
    skill_check,
    wake_check,
)
from jdr.systems.cydonia.combat import Update, attack, initiative, options_from
from jdr.systems.cydonia.config import ACTIONS
from jdr.systems.cydonia.sheet import TEMPLATE, CydoniaSheet
from jdr.systems.cydonia.tables import LADDER


def _changes(doc: SheetDocument, updates: Sequence[Update]) -> tuple[SheetChange, ...]:
    """Sheet updates as changes to commit; `pv` is a pool (SHEETS.md)."""
    return tuple(SheetChange(doc, path, value, pool=path == ("pv",)) for path, value in updates)


class Cydonia(GameSystem[CydoniaSheet]):
    id = "cydonia"
    title = "Cydonia : caractéristique + compétence + 1d10"
    seed = "000_e0f8dc4d415613aa.txt"
    actions = ACTIONS
    ladder = LADDER

    # ------------------------------------------------------------------ sheets

    def template(self) -> str:
        return TEMPLATE

    def load(self, doc: SheetDocument) -> CydoniaSheet:
        sheet = validate(CydoniaSheet, doc)
        assert isinstance(sheet, CydoniaSheet)
        return sheet

    def creation_problems(self, loaded: Loaded[CydoniaSheet]) -> list[str]:
        """D-000.50, R000.06: a dwarf starts Expert in Négociation."""
        c = Character(loaded.model)
        if normalize(c.sheet.peuple or "") == "nain" and not c.is_expert("negociation"):
            return ["expertes : un Nain part Expert en Négociation (R000.06, D-000.50)"]
        return []

    def show(self, sheet: Loaded[CydoniaSheet]) -> SheetView:
        from jdr.systems.cydonia.view import show

        return show(Character(sheet.model))

    def help(self) -> SystemHelp:
        from jdr.systems.cydonia.view import help_text

        return help_text()

    # ------------------------------------------------------------------ checks

    def _build(self, request: CheckRequest[CydoniaSheet]) -> Check | Contest:
        """R000.11–R000.16: the check, or the opposed roll (R000.16 by default)."""
        if request.die is not None:
            raise RuleError("--de : Cydonia lance toujours 1d10 (2d10 pour une compétence experte)")
        if request.options.was_given("tour"):
            raise RuleError("--opt tour ne sert qu'au jet de réveil (jdr check FICHE reveil)")
        actor = Character(request.actor.model)
        check = skill_check(actor, request.skill, carac=request.carac,
                            threshold=parse_threshold(request.threshold, LADDER),
                            bonus=request.bonus, choice=request.choice)
        if request.opponent is None:
            return check
        other = Character(request.opponent.model)
        if other.state == "mort":
            raise RuleError(f"{other.name} est mort (R000.34) : il ne s'oppose plus à rien")
        wanted = request.opponent_skill or opposing_skill(actor, request.skill)
        opposed = skill_check(other, wanted) if other.can_act else passive_check(other, "opposition")
        return Contest(check, opposed, CONTEST)

    def check(self, request: CheckRequest[CydoniaSheet], source: DiceSource) -> Outcome:
        actor = Character(request.actor.model)
        if normalize(request.skill) == "reveil":
            return self._wake(request, source)
        _kind, key = actor.resolve_skill(request.skill)
        resistance = key in ("resistance_physique", "resistance_mentale")
        if actor.state == "mort" or not (actor.can_act or resistance):
            raise RuleError(f"{actor.name} est {STATE_WORDS[actor.state]} : il ne peut pas agir "
                            "(D-ALL.02)" + ("" if actor.state == "mort" else
                                            " ; seuls les jets de résistance restent permis"))
        return Outcome(self._build(request).roll(source))

    def _wake(self, request: CheckRequest[CydoniaSheet], source: DiceSource) -> Outcome:
        """R000.41, D-000.49: Résistance Physique > damage − n; a success wakes the character."""
        if request.opponent is not None or request.threshold is not None:
            raise RuleError("jet de réveil : la difficulté vient des dégâts (pas de --seuil ni --contre)")
        if request.die is not None or request.choice is not None or request.carac is not None:
            raise RuleError("jet de réveil : Résistance Physique + 1d10, sans --de, --choix ni --carac")
        actor = Character(request.actor.model)
        result = wake_check(actor, request.options.int("tour", 1) or 1, request.bonus).roll(source)
        changes = _changes(request.actor.doc, ((("etat", "assomme"), 0),)) if result.success else ()
        return Outcome(result, changes)

    def odds(self, request: CheckRequest[CydoniaSheet]) -> Odds:
        if normalize(request.skill) == "reveil":
            actor = Character(request.actor.model)
            return wake_check(actor, request.options.int("tour", 1) or 1, request.bonus).odds()
        return self._build(request).odds()

    # ------------------------------------------------------------------ combat

    def attack(self, request: AttackRequest[CydoniaSheet], source: DiceSource) -> Outcome:
        if request.critical or request.full:
            raise RuleError("--critique et --complete n'existent pas en Cydonia")
        blow = attack(Character(request.attacker.model), Character(request.defender.model),
                      options_from(request), source)
        changes = (_changes(request.attacker.doc, blow.attacker)
                   + _changes(request.defender.doc, blow.defender))
        return Outcome(blow.report, changes)

    def initiative(self, request: GroupRequest[CydoniaSheet], source: DiceSource) -> Outcome:
        characters = [Character(s.model) for s in request.sheets]
        return Outcome(initiative(characters, source, die=request.options.flag("de")))

    def duel(self, request: GroupRequest[CydoniaSheet], source: DiceSource) -> Outcome:
        from jdr.systems.cydonia.duel import duel

        if len(request.sheets) != 2:
            raise RuleError("un duel se joue à deux")
        a, b = request.sheets
        result = duel(Character(a.model), Character(b.model), source,
                      request.options.int("tours", 50) or 50)
        changes = tuple(change for loaded, fighter in zip(request.sheets, result.fighters, strict=True)
                        for change in _changes(loaded.doc, tuple(fighter.changes.items())))
        return Outcome(result.report, changes)

    def demo(self, source: DiceSource) -> Result:
        from jdr.systems.cydonia.demo import demo

        return demo(source)

    # ------------------------------------------------------------------ states (D-ALL.02)

    def state(self, sheet: Loaded[CydoniaSheet]) -> str:
        """R000.34, R000.41: `debout`, `assomme`, `mourant` or `mort`."""
        return Character(sheet.model).state

    def incapacity(self, sheet: Loaded[CydoniaSheet]) -> Line | None:
        c = Character(sheet.model)
        if c.can_act:
            return None
        return Line(f"{c.name} est {STATE_WORDS[c.state]} : il ne peut pas agir", "D-ALL.02")

    def health(self, sheet: Loaded[CydoniaSheet]) -> Health | None:
        pv = sheet.model.pv
        return Health("pv", pv.actuels, pv.actuels, pv.max)

    def conditions(self, sheet: Loaded[CydoniaSheet]) -> tuple[str, ...]:
        etat = sheet.model.etat
        found = [f"concentration {etat.concentration} tour(s)" if etat.concentration else "",
                 f"malus {etat.malus:+d}" if etat.malus else "",
                 f"transformé ({etat.transformation} tour(s))" if etat.transformation else "",
                 f"assommé ({etat.assomme} dégâts)" if etat.assomme else ""]
        return tuple(f for f in found if f)

    def turn_start(self, request: TurnRequest[CydoniaSheet], source: DiceSource) -> Outcome | None:
        """R000.41, D-000.49: a knocked-out character loses its first turn, then rolls to wake up
        at the start of each of its turns (the count is kept in the encounter)."""
        from jdr.systems.cydonia.duel import wake_turn

        if request.sheet is None or not request.sheet.model.etat.assomme:
            return None
        c = Character(request.sheet.model)
        data = request.encounter.find(c.name).data
        if data.get("ko_damage") != c.sheet.etat.assomme:
            data.update(ko_damage=c.sheet.etat.assomme, ko_turns=0)
        data["ko_turns"] = int(data.get("ko_turns", 0)) + 1
        result, woke = wake_turn(c, data["ko_turns"], source)
        changes = _changes(request.sheet.doc, ((("etat", "assomme"), 0),)) if woke else ()
        if woke:
            data.pop("ko_damage", None)
        return Outcome(result, changes)

    # ------------------------------------------------------------------ progression

    def xp(self, request: XpRequest[CydoniaSheet]) -> Outcome:
        from jdr.systems.cydonia.progression import purchase

        return purchase(request)


SYSTEM = Cydonia()
