"""La prédilection de compétence (R003.04, A003.13): once per game session, on a Capacité test
using that skill, the player rerolls the die (the same die) and keeps either result; the box is
then ticked on the sheet, until `jdr session nouvelle` frees it (session.py).

Both choices are the player's, made after seeing the dice, inside one action:
1. the first roll is shown (with the opponent's, in an opposed test) and, when the box is free,
   the player is asked whether to reroll (`request.chooser`; nobody to ask: no reroll);
2. after the reroll, which of the two results to keep (nobody to ask: the better one).
Both may be given in advance: `--opt predilection=oui` (reroll), `--choix 1|2` (the kept
result), `--opt premier_jet=N` (the first roll was made at the table: only the reroll is
rolled). The box is ticked in the same action: re-running the command cannot reroll again.
"""

from __future__ import annotations

from jdr.core.check import Check, CheckResult
from jdr.core.contest import ContestResult
from jdr.core.french import de
from jdr.core.frozen import frozen
from jdr.core.messages import arg, command, say
from jdr.core.results import Line, Report
from jdr.core.sheet import SheetDocument
from jdr.core.system import CheckRequest, Chooser, Question, SheetChange
from jdr.dice.notation import Die
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.cyd import tables
from jdr.systems.cyd.capacite import Capacity
from jdr.systems.cyd.dice import PredilectionRoll, face_value, kept_index
from jdr.systems.cyd.opposition import resolve_contest
from jdr.systems.cyd.sheet import CydSheet

Shown = CheckResult | ContestResult
YES, NO = "oui", "non"


@frozen
class Predilection:
    """The prédilection of one test: decided in advance (`advance`), or open to a question
    after the first roll (`available`: the box is free), or neither."""

    who: str
    skill: str
    sides: int
    advance: bool = False
    available: bool = False
    first: int | None = None
    choice: int | None = None
    notes: tuple[Line, ...] = ()

    @property
    def natural(self) -> PredilectionRoll | None:
        """For the odds: decided in advance, the reroll is always made and the chosen (or the
        better) result kept."""
        return PredilectionRoll(self.sides, self.choice, self.first) if self.advance else None


def _choice(request: CheckRequest[CydSheet], used: bool) -> int | None:
    """`--choix` keeps result 1 or 2 of a prédilection reroll, and means nothing without one."""
    if not used:
        if request.choice is not None:
            raise RuleError(say(arg("choix"), " ne sert qu'avec la relance de prédilection (",
                                request.options.ref("predilection", "oui"), ")"))
        return None
    if request.choice is not None and request.choice not in (1, 2):
        raise RuleError(say(arg("choix", str(request.choice)), " : la prédilection donne deux "
                            "résultats, gardez le 1 ou le 2"))
    return request.choice


def _first_face(request: CheckRequest[CydSheet], die: str) -> int | None:
    first = request.options.int("premier_jet")
    sides = tables.DICE[die]
    if first is not None and first > sides:
        raise RuleError(say(request.options.ref("premier_jet", str(first)), " : face impossible "
                            f"sur le {die} (de 1 à {sides})"))
    return first


def _box_state(sheet: CydSheet, cap: Capacity, rolling: bool) -> list[Line]:
    """The skill must have a box; a ticked box forbids the reroll until the next session."""
    state = sheet.boxes.get(cap.skill)
    if state is None:
        raise RuleError(f"{cap.character} n'a pas de prédilection pour « {cap.skill} » "
                        f"(prédilections : {', '.join(sorted(sheet.boxes)) or 'aucune'})")
    if state != tables.PREDILECTION_USED:
        return []
    if rolling:
        raise RuleError(say(f"la prédilection « {cap.skill} » {de(cap.character)} est déjà "
                            "utilisée pour cette séance de jeu : pas de relance avant la "
                            "prochaine séance (", command("session", "session nouvelle"), ")"))
    return [Line(f"la prédilection « {cap.skill} » est déjà utilisée pour cette séance",
                 "R003.04")]


def plan_predilection(request: CheckRequest[CydSheet], cap: Capacity, die: str,
                      rolling: bool) -> Predilection:
    """R003.04 / A003.13: what the options decide in advance, and whether the player may be
    asked after the first roll (a free box, not declined with `--opt predilection=non`)."""
    sides = tables.DICE[die]
    first = _first_face(request, die)
    advance = request.options.flag("predilection") or first is not None
    choice = _choice(request, advance)
    sheet = request.actor.model
    if not advance:
        free = sheet.boxes.get(cap.skill) == tables.PREDILECTION_FREE
        declined = request.options.was_given("predilection")
        return Predilection(cap.character, cap.skill, sides, available=free and not declined)
    notes = _box_state(sheet, cap, rolling)
    if not rolling:
        kept = ("le meilleur des deux résultats est gardé (--choix 1 ou 2 pour garder l'autre)"
                if choice is None else f"le résultat n° {choice} est gardé")
        notes.append(Line(f"prédilection : le dé est relancé, {kept}", "R003.04"))
    return Predilection(cap.character, cap.skill, sides, True, False, first, choice, tuple(notes))


# ------------------------------------------------------------------ rolling, asking


def ask(chooser: Chooser, question: Question) -> str:
    """The player's answer, one of the question's choices."""
    answer = chooser(question).strip().lower()
    if answer not in question.choices:
        raise RuleError(f"réponse « {answer[:40]} » : choisir parmi {', '.join(question.choices)}")
    return answer


def _die(sides: int, face: int, kept: bool = True, note: str = "") -> Die:
    if not note and kept and face_value(sides, face) != face:
        note = "compte 0"
    return Die(sides, face, kept, note)


@frozen
class Rolled:
    """A test rolled: its result, whether the prédilection was used, and what to say of it."""

    result: Shown
    used: bool = False
    notes: tuple[Line, ...] = ()


class PlannedRoll:
    """One test with its optional opponent: the actor's first roll, the opponent's, then the
    prédilection reroll if the player takes it (order of `--des`)."""

    def __init__(self, check: Check, opponent: Check | None, pred: Predilection) -> None:
        self.check, self.opponent, self.pred = check, opponent, pred

    def outcome(self, mine: CheckResult, other: CheckResult | None) -> Shown:
        if other is None or self.opponent is None:
            return mine
        return resolve_contest(self.check, self.opponent, mine, other)

    def first(self, source: DiceSource) -> CheckResult:
        face = self.pred.first
        if face is None:
            return self.check.roll(source)
        return self.check.resolve(face, (_die(self.pred.sides, face, note="premier jet"),))

    def wants(self, shown: Shown, chooser: Chooser) -> bool:
        if self.pred.advance:
            return True
        if not self.pred.available:
            return False
        prompt = (f"{self.pred.who} : prédilection « {self.pred.skill} » disponible (une fois "
                  "par séance) — relancer le dé ?")
        labels = ("Garder ce jet", "Relancer le dé (prédilection)")
        return ask(chooser, Question(prompt, (NO, YES), NO, shown, labels, self.pred.who)) == YES

    def kept(self, first: CheckResult, second: CheckResult, other: CheckResult | None,
             chooser: Chooser) -> int:
        if self.pred.choice is not None:
            return self.pred.choice - 1
        assert isinstance(first.natural, int) and isinstance(second.natural, int)
        better = kept_index(self.pred.sides, None, first.natural, second.natural)
        both = Report("Prédilection : les deux résultats",
                      (self.outcome(first, other), self.outcome(second, other)))
        prompt = f"{self.pred.who} : garder le premier résultat (1) ou la relance (2) ?"
        labels = (f"Garder le premier résultat ({first.natural})",
                  f"Garder la relance ({second.natural})")
        question = Question(prompt, ("1", "2"), str(better + 1), both, labels, self.pred.who)
        return int(ask(chooser, question)) - 1

    def roll(self, source: DiceSource, chooser: Chooser) -> Rolled:
        first = self.first(source)
        other = self.opponent.roll(source) if self.opponent is not None else None
        shown = self.outcome(first, other)
        if not self.wants(shown, chooser):
            return Rolled(shown)
        second = self.check.roll(source)
        kept = self.kept(first, second, other, chooser)
        faces = (first.natural, second.natural)
        assert isinstance(faces[kept], int)
        dice = tuple(Die(self.pred.sides, f, i == kept, "" if i == kept else "écarté")
                     for i, f in enumerate(faces) if isinstance(f, int))
        final = self.outcome(self.check.resolve(faces[kept], dice), other)
        note = Line(f"prédilection « {self.pred.skill} » : le dé est relancé, le résultat "
                    f"n° {kept + 1} est gardé", "R003.04")
        return Rolled(final, True, (*self.pred.notes, note))


def tick(doc: SheetDocument, skill: str) -> tuple[SheetChange, Line]:
    """R003.04: the box is ticked as a reminder, in the same action as the reroll."""
    return (SheetChange(doc, ("predilections", skill), tables.PREDILECTION_USED),
            Line(f"case de prédilection « {skill} » cochée jusqu'à la prochaine séance",
                 "R003.04"))
