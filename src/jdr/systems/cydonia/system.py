"""The Cydonia game system as the core sees it: each command's request, turned into the rules'
result and the sheet changes (RULES.md section 1, SHEETS.md `cydonia`)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from jdr.core.check import Check, Modifier, Odds
from jdr.core.contest import Contest
from jdr.core.french import accord, de, is_state, loses_turn, pronoun, state_label, they_are
from jdr.core.messages import Ref, arg, say
from jdr.core.results import Health, Line, Notes, Report, Result, SheetView
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
    SystemHelp,
    TurnRequest,
    XpRequest,
    default_choice,
)
from jdr.core.threshold import parse_threshold
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cydonia.checks import (
    CONTEST,
    Character,
    opposing_check,
    opposing_skill,
    roll_check,
    roll_contest,
    skill_check,
    wake_check,
)
from jdr.systems.cydonia.config import ACTIONS
from jdr.systems.cydonia.rulebook import RULES
from jdr.systems.cydonia.rulekit import sheet_changes as _changes
from jdr.systems.cydonia.sheet import TEMPLATE, CydoniaSheet
from jdr.systems.cydonia.tables import CHARACTERISTICS, LADDER

if TYPE_CHECKING:
    from jdr.core.compile import Effect
    from jdr.core.turns import Cost, TurnAct, TurnLimits

EVERY_ACTION = {**ACTIONS, **RULES}  # the commands, then `jdr regle NOM` (rulebook)

# Rules the MJ applies to a character rather than actions it takes: allowed whatever its state
# (healing a dying character, a malus, reputation, XP, the end of a transformation).
BOOKKEEPING = frozenset({"soin", "malus", "reputation", "xp_mana", "xp_compagnon", "recompenses",
                         "detransformation", "portance"})

# D-ALL.02: what a character who cannot act may still roll (reactions, not actions).
REACTIONS = frozenset({"resistance_physique", "resistance_mentale", "reveil"})
WAKE = Ref("jdr test FICHE reveil", "un test de « reveil »")


class Cydonia(GameSystem[CydoniaSheet]):
    id = "cydonia"
    title = "Cydonia : caractéristique + compétence + 1d10"
    seed = "000_e0f8dc4d415613aa.txt"
    actions = EVERY_ACTION
    ladder = LADDER
    states = ("debout", "assomme", "mourant", "mort")

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

    def demo_sheets(self) -> tuple[str, ...]:
        from jdr.systems.cydonia.demo_sheets import SHEETS

        return tuple(SHEETS.values())

    def help(self) -> SystemHelp:
        from jdr.systems.cydonia.view import help_text

        return help_text()

    # ------------------------------------------------------------------ checks

    def _build(self, request: CheckRequest[CydoniaSheet]) -> Check | Contest:
        """R000.11–R000.16: the check, or the opposed roll (R000.16 by default)."""
        if request.die is not None:
            raise RuleError(say(arg("de"), " : Cydonia lance toujours 1d10 (2d10 pour une "
                                "compétence experte)"))
        if request.options.was_given("tour"):
            raise RuleError(say(request.options.ref("tour"), " ne sert qu'au jet de réveil (",
                                WAKE, ")"))
        actor = Character(request.actor.model)
        check = skill_check(actor, request.skill, carac=request.carac,
                            threshold=parse_threshold(request.threshold, LADDER),
                            bonus=request.bonus, choice=request.choice,
                            extra=_reputation(actor, request))
        if request.opponent is None:
            return check
        other = Character(request.opponent.model)
        if other.state == "mort":
            raise RuleError(f"{is_state(other.name, 'mort', other.genre)} (R000.34) : "
                            f"{pronoun(other.genre, other.name)} ne s'oppose plus à rien")
        wanted = request.opponent_skill or opposing_skill(actor, request.skill)
        return Contest(check, opposing_check(other, wanted), CONTEST)

    def check(self, request: CheckRequest[CydoniaSheet], source: DiceSource) -> Outcome:
        actor = Character(request.actor.model)
        if normalize(request.skill) == "reveil":
            return self._wake(request, source)
        why = self.refusal("check", request.actor, request)
        if why is not None:
            allowed = "" if actor.state == "mort" else " ; seuls les jets de résistance restent permis"
            raise RuleError(f"{actor.name} ne peut pas agir : {why.text} ({why.rule}){allowed}")
        built = self._build(request)
        if isinstance(built, Contest):
            return Outcome(roll_contest(built, source, request.chooser))
        return Outcome(roll_check(built, source, request.chooser))

    def _wake(self, request: CheckRequest[CydoniaSheet], source: DiceSource) -> Outcome:
        """R000.41, D-000.49: Résistance Physique > damage − n; a success wakes the character."""
        if request.opponent is not None or request.threshold is not None:
            raise RuleError(say("jet de réveil : la difficulté vient des dégâts (pas de ",
                                arg("seuil"), " ni ", arg("contre"), ")"))
        if request.die is not None or request.choice is not None or request.carac is not None:
            raise RuleError(say("jet de réveil : Résistance Physique + 1d10, sans ", arg("de"), ", ",
                                arg("choix"), " ni ", arg("carac")))
        actor = Character(request.actor.model)
        if not actor.sheet.etat.assomme and actor.sheet.etat.paralyse:
            line = Line(f"{actor.name} a perdu son tour : la paralysie est passée", "R000.27")
            return Outcome(Notes(f"Fin de la paralysie : {actor.name}", (line,), "R000.27"),
                           _changes(request.actor.doc, ((("etat", "paralyse"), False),)))
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
        from jdr.systems.cydonia.combat import attack, options_from

        _no_critical(request)
        blow = attack(Character(request.attacker.model), Character(request.defender.model),
                      options_from(request), source, request.chooser)
        changes = (_changes(request.attacker.doc, blow.attacker)
                   + _changes(request.defender.doc, blow.defender))
        return Outcome(blow.report, changes)

    def initiative(self, request: GroupRequest[CydoniaSheet], source: DiceSource) -> Outcome:
        from jdr.systems.cydonia.combat import initiative

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
        """R000.34, R000.41: `debout`, `assomme`, `mourant` or `mort` (a paralysed character is
        `debout`, unable to act: see `incapacity` and `conditions`)."""
        return Character(sheet.model).state

    def incapacity(self, sheet: Loaded[CydoniaSheet]) -> Line | None:
        """D-ALL.02: the dead, the dying (R000.34), the knocked out (R000.41, D-000.49) and the
        paralysed (R000.27) cannot act."""
        c = Character(sheet.model)
        return None if c.can_act else _why(c)

    def refusal(self, action: str, sheet: Loaded[CydoniaSheet], request: object) -> Line | None:
        """D-ALL.02: whoever cannot act is refused every action, except the reactions the living
        keep (a Résistance Physique or Mentale roll, the wake-up roll, D-000.49) and what the MJ
        applies to the character (`BOOKKEEPING`)."""
        why = self.incapacity(sheet)
        if why is None or action in BOOKKEEPING:
            return None
        if Character(sheet.model).state == "mort":
            return why
        if action in ("check", "odds") and isinstance(request, CheckRequest) and _reaction(
                Character(sheet.model), request.skill):
            return None
        return why

    def health(self, sheet: Loaded[CydoniaSheet]) -> Health | None:
        pv = sheet.model.pv
        top = pv.max + sheet.model.etat.pv_transformation  # A000.28: boosted while transformed
        return Health("pv", pv.actuels, pv.actuels, top)

    def conditions(self, sheet: Loaded[CydoniaSheet]) -> tuple[str, ...]:
        etat, g = sheet.model.etat, sheet.genre
        found = [f"concentration {etat.concentration} tour(s)" if etat.concentration else "",
                 f"malus −{abs(etat.malus)}" if etat.malus else "",
                 accord(g, "transformé", "transformée", "transformation")
                 + f" ({etat.transformation} tour(s))" if etat.transformation else "",
                 f"{etat.assomme} dégâts d'assommement" if etat.assomme else "",
                 state_label("paralyse", g) if etat.paralyse else "",
                 accord(g, f"immobilisé par {etat.immobilise}", f"immobilisée par {etat.immobilise}",
                        f"sous la prise {de(str(etat.immobilise))}") if etat.immobilise else "",
                 f"élan {etat.elan}/2" if etat.elan else "",
                 "Médecine reçue aujourd'hui" if etat.soigne else ""]
        return tuple(f for f in found if f)

    def turn_start(self, request: TurnRequest[CydoniaSheet], source: DiceSource) -> Outcome | None:
        """R000.27, R000.40, R000.41, D-000.49: a paralysis lasts one turn, the transformation
        counts down, a knocked-out character loses its first turn then rolls to wake up; the
        counts are kept in the encounter (`turns`)."""
        from jdr.systems.cydonia.turns import turn_start

        return turn_start(request, source)

    def turn_limits(self) -> TurnLimits:
        from jdr.systems.cydonia.turns import LIMITS

        return LIMITS

    def turn_cost(self, action: str, act: TurnAct) -> Cost | None:
        from jdr.systems.cydonia.turns import turn_cost

        return turn_cost(action, act)

    # ------------------------------------------------------------------ the rules' own actions

    def rule(self, name: str, request: RuleRequest[CydoniaSheet],
             source: DiceSource | None) -> Outcome:
        from jdr.systems.cydonia.rulebook import play

        return play(name, request, source)

    def rule_odds(self, name: str, request: RuleRequest[CydoniaSheet]) -> Odds | Report:
        from jdr.systems.cydonia.rulebook import odds

        return odds(name, request)

    # ------------------------------------------------------------------ the forms' choices

    def check_choices(self, sheet: Loaded[CydoniaSheet]) -> tuple[Choice, ...]:
        """R000.12, R000.07, D-000.49: skills, characteristics, then the special rolls."""
        special: tuple[Choice, ...] = (Choice("resistance_physique", "Résistance physique"),
                   Choice("resistance_mentale", "Résistance mentale"))
        if Character(sheet.model).state == "assomme":
            special += (Choice("reveil", "Jet de réveil (assommé)"),)
        return (*super().check_choices(sheet), *special)

    def weapon_choices(self, sheet: Loaded[CydoniaSheet]) -> tuple[Choice, ...]:
        """R000.35: the weapons in hand (an unequipped one takes a turn to draw), bare hands."""
        held = [Choice(w.nom, f"{w.nom} ({w.competence})") for w in sheet.model.armes
                if w.equipee is not None]
        return (*held, Choice("mains_nues", "Mains nues (corps à corps)"))

    def _cac(self, sheet: Loaded[CydoniaSheet], weapon: str | None) -> bool:
        from jdr.systems.cydonia.combat import AttackOptions, _stroke

        try:
            return _stroke(Character(sheet.model), AttackOptions(weapon=weapon)).cac
        except RuleError:
            return False

    def defence_choices(self, attacker: Loaded[CydoniaSheet], defender: Loaded[CydoniaSheet] | None,
                        weapon: str | None) -> tuple[Choice, ...]:
        """R000.24: Esquive (by default), Bouclier, and the Corps à corps parry only against a
        Corps à corps attack. Cydonia has no « parade » with a weapon."""
        out = [Choice("esquive", "Esquive"), Choice("bouclier", "Bouclier")]
        if self._cac(attacker, weapon):
            out.append(Choice("cac", "Corps à corps"))
        return tuple(out)

    def aim_choices(self, attacker: Loaded[CydoniaSheet], weapon: str | None) -> tuple[Choice, ...]:
        """R000.30: an aimed attack names a zone of the weapon's or the CAC table."""
        from jdr.systems.cydonia.tables import CAC_LOCATIONS, WEAPON_LOCATIONS

        table = CAC_LOCATIONS if self._cac(attacker, weapon) else WEAPON_LOCATIONS
        seen: dict[str, str] = {}
        for zone in table.values():
            seen.setdefault(normalize(zone.name), zone.name)
        return tuple(Choice(k, v) for k, v in seen.items())

    def attack_outcomes(self, request: AttackRequest[CydoniaSheet]
                        ) -> Mapping[Effect, Fraction] | None:
        """The exact table of `attack` from the laws of its rolls (`attack_law`), not face by
        face; an expert who keeps another die than the better one (a chooser) is enumerated."""
        from jdr.systems.cydonia.attack_law import attack_outcomes
        from jdr.systems.cydonia.combat import options_from

        if request.chooser is not default_choice:
            return super().attack_outcomes(request)
        _no_critical(request)
        return attack_outcomes(request.attacker, request.defender, options_from(request))

    def attack_odds(self, request: AttackRequest[CydoniaSheet]) -> Odds:
        """R000.22–R000.24: the exact odds of the attack roll against the defence roll `attack`
        makes (the same contest)."""
        from jdr.systems.cydonia.combat import attack_contest, options_from

        contest = attack_contest(Character(request.attacker.model),
                                 Character(request.defender.model), options_from(request))[1]
        return contest.odds()

    # ------------------------------------------------------------------ progression

    def xp(self, request: XpRequest[CydoniaSheet]) -> Outcome:
        from jdr.systems.cydonia.progression import purchase

        return purchase(request)


def _reaction(c: Character, what: str | None) -> bool:
    if what is None:
        return False
    try:
        kind, key = c.resolve_skill(what)
    except RuleError:
        return False
    return kind == "special" and key in REACTIONS


def _why(c: Character) -> Line:
    g = c.genre
    if c.state == "mort":
        return Line(they_are("mort", g), "R000.34, D-ALL.02")
    if c.state == "mourant":
        return Line(f"{they_are('mourant', g)}, seuls des soins rapides peuvent "
                    + accord(g, "le sauver", "la sauver", "changer son sort"), "R000.34, D-ALL.02")
    if c.state == "assomme":
        return Line(f"{they_are('assomme', g)} ({c.sheet.etat.assomme} dégâts) jusqu'à un "
                    "jet de réveil réussi", "R000.41, D-000.49, D-ALL.02")
    return Line(f"{they_are('paralyse', g)} (Bijoux de famille) : {loses_turn(g)}",
                "R000.27, D-ALL.02")


def _reputation(actor: Character, request: CheckRequest[CydoniaSheet]) -> tuple[Modifier, ...]:
    """R000.49: a character who plays its reputation adds |level| to a Charisma roll."""
    if not request.options.flag("reputation"):
        return ()
    kind, key = actor.resolve_skill(request.skill)
    linked = key if kind == "carac" else actor.skill_characteristic(key) if kind == "skill" else None
    if request.carac is not None:
        linked = normalize(request.carac)
    if linked not in ("charisme", "char", "cha"):
        shown = CHARACTERISTICS.get(linked or "", "aucune")
        raise RuleError(say(request.options.ref("reputation"), " : la réputation aide un jet de "
                            f"Charisme (R000.49), pas de {shown}"))
    level = int(actor.sheet.reputation.niveau)
    return (Modifier(abs(level), f"réputation {level:+d}", "R000.49"),)


SYSTEM = Cydonia()


def _no_critical(request: AttackRequest[CydoniaSheet]) -> None:
    if request.critical or request.full:
        raise RuleError(say(arg("critique"), " et ", arg("complete"), " n'existent pas en Cydonia"))
