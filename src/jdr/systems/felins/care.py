"""Care and time between blows (R004.28, R004.32, R004.33; A004.21, A004.23, A004.30).

- Soigner on a named patient (R004.33): success −1 wound level (critical −2), fumble +1; a success
  is not retried to do better, a failure is retried the next day (kept on the patient's sheet as
  `soins`). A success revives an unconscious cat and brings one out of a coma (A004.23).
- The healer's den (R004.32): one wound level per three days; a day there also wakes an
  unconscious cat (3d10 × 5 minutes is at most 150), ends a flight and brings the next day.
- Waking (R004.32): minutes pass; the cat wakes once its 3d10 × 5 minutes have gone by.
- The end of a fight (R004.28, A004.21): the cats that fled are back.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from jdr.core.check import Check, CheckResult, Odds
from jdr.core.french import de, is_state, state_label
from jdr.core.messages import rule, say
from jdr.core.results import Line, Notes, Report
from jdr.core.system import Chooser, Loaded, Outcome, SheetChange, default_choice
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.felins import tables
from jdr.systems.felins.checks import Roll, keep_choice, roll_changes, skill_check
from jdr.systems.felins.config import DEFAULT, FelinsConfig, option
from jdr.systems.felins.health import (
    WoundOutcome,
    den_recovery,
    duration_check,
    fall_unconscious,
    knocked_out,
    take_wounds,
    wound_changes,
)
from jdr.systems.felins.sheet import Cat

# ------------------------------------------------------------------ Soigner (R004.33)


def _dead(cat: Cat) -> str:
    """« Mistigri est morte » / « … est mort » / « … est sans vie »."""
    return is_state(cat.name, "mort", cat.genre)


def refuse_care(patient: Cat, next_day: bool) -> None:
    """R004.32 no care brings back the dead; R004.33 a success is not retried to do better, a
    failure only the next day (`--opt lendemain=oui`)."""
    if patient.state == "mort":
        raise RuleError(f"{_dead(patient)} : aucun soin ne ramène à la vie (R004.32)")
    if patient.care == "reussi":
        raise RuleError(f"le soin {de(patient.name)} a déjà réussi : le jet ne se retente pas "
                        "pour faire mieux ; de nouvelles blessures pourront l'être (R004.33)")
    if patient.care == "rate" and not next_day:
        raise RuleError(say(f"le soin {de(patient.name)} a échoué : nouvel essai le lendemain (",
                            option("lendemain", "oui"), " quand la journée est passée) (R004.33)"))


def heal_check(healer: Cat, threshold: int, config: FelinsConfig = DEFAULT) -> Check:
    """R004.33 the healer's Soigner roll (Ω: rank 1 at least; threshold the GM's, A004.23)."""
    return skill_check(healer, tables.HEAL_SKILL, Roll(threshold, rule="R004.33"), config)


def _revived(patient: Cat, wounds: int, source: DiceSource,
             config: FelinsConfig) -> tuple[Cat, CheckResult | None]:
    """A004.23 a success wakes an unconscious cat; out of a coma, the cat is unconscious while
    its wounds stay beyond Vigueur (3d10 × 5 minutes, rolled now), awake otherwise."""
    after = replace(patient, wounds=wounds, care="reussi")
    if patient.state == "inconscient":
        return replace(after, state="conscient", unconscious_minutes=0), None
    if patient.state == "coma":
        if knocked_out(wounds, patient.characteristics["vigueur"], config):
            return fall_unconscious(after, source)
        return replace(after, state="conscient"), None
    return after, None


def settled(cat: Cat) -> Cat:
    """A cat awake with no wound left has nothing to be cared for (`soins` back to `aucun`)."""
    if cat.wounds == 0 and cat.state == "conscient":
        return replace(cat, care="aucun")
    return cat


def healed(patient: Cat, roll: CheckResult, source: DiceSource,
           config: FelinsConfig = DEFAULT) -> WoundOutcome:
    """E004.12 success −1 wound level (critical −2), fumble +1 (then the next day)."""
    if roll.critical == "failure":
        hurt = take_wounds(patient, tables.HEAL_FUMBLE, source, config)
        return replace(hurt, after=replace(hurt.after, care="rate"))
    if not roll.success:
        return WoundOutcome(patient, replace(patient, care="rate"))
    levels = tables.HEAL_CRITICAL if roll.critical == "success" else tables.HEAL_SUCCESS
    after, duration = _revived(patient, max(0, patient.wounds - levels), source, config)
    return WoundOutcome(patient, settled(after), duration)


def _heal_verdict(roll: CheckResult) -> Line:
    if roll.critical == "failure":
        return Line("maladresse : 1 niveau de blessure de plus pour le chat soigné ; nouvel "
                    "essai le lendemain", "R004.33")
    if roll.success:
        return Line("soin réussi : le jet ne se retente pas pour faire mieux", "R004.33")
    return Line("soin raté : nouvelle tentative possible le lendemain", "R004.33")


def heal(healer: Loaded[Cat], patient: Loaded[Cat], source: DiceSource, threshold: int,
         config: FelinsConfig = DEFAULT, next_day: bool = False,
         chooser: Chooser = default_choice) -> Outcome:
    """R004.33 `healer` tends `patient` (the same sheet when a cat tends itself)."""
    healer.model.require_able("soigner")
    cat = patient.model
    refuse_care(cat, next_day)
    check = heal_check(healer.model, threshold, config)
    result = keep_choice(check, check.roll(source), chooser)
    outcome = healed(cat, result, source, config)
    parts: tuple[CheckResult, ...] = (result,)
    if outcome.duration is not None:
        parts += (outcome.duration,)
    report = Report(f"{healer.model.name} soigne {cat.name}", parts,
                    (_heal_verdict(result), *outcome.lines()), "R004.33")
    return Outcome(report, (*roll_changes(healer, result), *wound_changes(patient, outcome)))


def heal_odds(healer: Cat, patient: Cat, threshold: int, next_day: bool = False,
              config: FelinsConfig = DEFAULT) -> Odds:
    """The exact odds of the very roll `heal` makes, and what each outcome does (E004.12)."""
    refuse_care(patient, next_day)
    odds = heal_check(healer, threshold, config).odds()
    assert odds.success is not None
    one = odds.success - odds.critical_success
    extra = (("recupere_2", "récupère 2 niveaux (réussite critique)", odds.critical_success),
             ("recupere_1", "récupère 1 niveau", one),
             ("aggrave_1", "maladresse : 1 niveau de plus", odds.critical_failure))
    label = config.label_of(threshold)
    notes = (f"seuil {threshold} : {label}",) if label else ()
    return replace(odds, label=f"{healer.name} soigne {patient.name}", extra=extra, notes=notes)


# ------------------------------------------------------------------ the healer's den (R004.32)


def den(patient: Loaded[Cat], days: int, config: FelinsConfig = DEFAULT) -> Outcome:
    """R004.32 one wound level per 3 days at the den (E004.06). A day there also wakes an
    unconscious cat, ends a flight and lets a failed Soigner be tried again; a coma still needs
    a Soigner success (A004.23)."""
    cat = patient.model
    if cat.state == "mort":
        raise RuleError(f"{_dead(cat)} : aucun soin ne ramène à la vie (R004.32)")
    after = replace(cat, wounds=max(0, cat.wounds - den_recovery(days)))
    if days >= 1:
        if cat.state in ("inconscient", tables.FLED):
            after = replace(after, state="conscient", unconscious_minutes=0)
        if cat.care == "rate":
            after = replace(after, care="aucun")
    outcome = WoundOutcome(cat, settled(after))
    lines = list(outcome.lines())
    if cat.state == "coma":
        lines.append(Line("le coma ne cède qu'aux soins d'un guérisseur (règle « soigner »)",
                          "R004.32"))
    title = (f"{cat.name} : {days} jour(s) à la tanière du guérisseur, "
             f"{cat.wounds - after.wounds} niveau(x) de blessure récupéré(s)")
    return Outcome(Notes(title, tuple(lines), "R004.32"), wound_changes(patient, outcome))


# ------------------------------------------------------------------ waking up (R004.32)


def _unconscious(cat: Cat) -> None:
    if cat.state == "coma":
        raise RuleError(say(f"{cat.name} est dans le coma : seuls les soins d'un guérisseur l'en "
                            "sortent (", rule("soigner"), ") (R004.32)"))
    if cat.state != "inconscient":
        raise RuleError(f"rien à réveiller : {is_state(cat.name, cat.state, cat.genre)} "
                        "(R004.32)")


def wake(sheet: Loaded[Cat], minutes: int, source: DiceSource | None) -> Outcome:
    """R004.32 `minutes` pass for an unconscious cat: it wakes once its 3d10 × 5 minutes are
    over. Without a duration on the sheet (a state written by hand), it is rolled now (A004.30)."""
    cat = sheet.model
    _unconscious(cat)
    rolled: CheckResult | None = None
    remaining = cat.unconscious_minutes
    if remaining <= 0:
        if source is None:
            raise RuleError("la durée d'inconscience n'est pas sur la fiche : il faut la tirer")
        rolled = duration_check(cat.name, minutes).roll(source)
        remaining = rolled.total
    left = max(0, remaining - minutes)
    after = replace(cat, unconscious_minutes=left, state="inconscient" if left else "conscient")
    text = (f"{cat.name} se réveille" if not left
            else f"{cat.name} reste {state_label('inconscient', cat.genre)} encore "
                 f"{left} minute(s)")
    line = Line(f"{minutes} minute(s) passent : {text}", "R004.32")
    outcome = WoundOutcome(cat, after)
    title = f"{cat.name} : réveil (3d10 × 5 minutes)"
    result = (Report(title, (rolled,), (line,), "R004.32") if rolled is not None
              else Notes(title, (line,), "R004.32"))
    return Outcome(result, wound_changes(sheet, outcome))


def wake_odds(cat: Cat, minutes: int) -> Odds:
    """P(awake after `minutes`): certain from the minutes on the sheet, else the exact law of
    the 3d10 × 5 that `wake` would roll."""
    _unconscious(cat)
    label = f"réveil {de(cat.name)} au bout de {minutes} minute(s)"
    if cat.unconscious_minutes <= 0:
        return replace(duration_check(cat.name, minutes).odds(), label=label)
    awake = Fraction(int(cat.unconscious_minutes <= minutes))
    return Odds(label, awake,
                Fraction(0), Fraction(0), ((cat.unconscious_minutes, Fraction(1)),), minutes,
                rule="R004.32", notes=(f"encore {cat.unconscious_minutes} minute(s) : durée tirée "
                                       "à la chute (A004.30)",))


# ------------------------------------------------------------------ the end of a fight (R004.28)


def end_of_fight(sheets: tuple[Loaded[Cat], ...]) -> Outcome:
    """R004.28 / A004.21 the fight is over: the cats that fled are back."""
    lines: list[Line] = []
    changes: list[SheetChange] = []
    for sheet in sheets:
        cat = sheet.model
        if cat.state != tables.FLED:
            lines.append(Line(f"{cat.name} : {state_label(cat.state, cat.genre)}, rien ne "
                              "change"))
            continue
        outcome = WoundOutcome(cat, replace(cat, state="conscient"))
        lines.append(Line(f"{cat.name} n'est plus en fuite", "R004.28"))
        changes.extend(wound_changes(sheet, outcome))
    return Outcome(Notes("Fin du combat", tuple(lines), "A004.21"), tuple(changes))
