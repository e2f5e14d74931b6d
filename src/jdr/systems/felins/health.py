"""Wounds, states and healing (R004.22, R004.28, R004.31–R004.33; A004.17–A004.19, A004.23).

A cat is `conscient`, `inconscient`, `coma` or `mort`. Wounds beyond Vigueur knock it out
(A004.18); a further wound puts an unconscious cat in a coma, another one kills it (A004.19).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from jdr.core.check import CheckResult
from jdr.core.results import Line, Notes, Report
from jdr.core.system import Loaded, Outcome, SheetChange
from jdr.dice.notation import RollResult, roll
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.felins import tables
from jdr.systems.felins.checks import Roll, characteristic_check, roll_changes, skill_check
from jdr.systems.felins.config import DEFAULT, FelinsConfig
from jdr.systems.felins.sheet import Cat


def knocked_out(wounds: int, vigueur: int, config: FelinsConfig = DEFAULT) -> bool:
    """R004.32 / A004.18 Vigueur = wounds a cat takes before falling unconscious."""
    return wounds > vigueur if config.unconscious_at == "au_dela" else wounds >= vigueur


UNCONSCIOUS = f"{tables.UNCONSCIOUS_DICE}d{tables.UNCONSCIOUS_SIDES}*{tables.UNCONSCIOUS_MINUTES}"


def unconscious_roll(source: DiceSource) -> RollResult:
    """R004.32 / E004.11 an unconscious cat stays so 3d10 × 5 minutes (A004.30: rolled once)."""
    return roll(UNCONSCIOUS, source)


def unconscious_minutes(source: DiceSource) -> tuple[int, tuple[int, ...]]:
    """E004.11 the minutes and the three faces."""
    result = unconscious_roll(source)
    return result.total, tuple(d.face for d in result.dice)


def den_recovery(days: int) -> int:
    """R004.32 / E004.06 one wound level per three days at the healer's den."""
    if days < 0:
        raise RuleError(f"jours = {days} : le nombre de jours doit être positif ou nul")
    return days // tables.DEN_DAYS_PER_WOUND


def will_threshold(wounds: int, config: FelinsConfig = DEFAULT) -> int:
    """R004.28 / A004.17 [Proposed] 1 wound → Facile 5, +1 ladder row (+2) per extra wound."""
    return config.will_base + config.will_step * (max(wounds, 1) - 1)


@dataclass(frozen=True)
class WoundOutcome:
    """What wounds did to a cat: levels, state before/after, the unconscious duration roll."""

    wounds_before: int
    wounds_after: int
    state_before: str
    state_after: str
    duration: RollResult | None = None

    @property
    def minutes(self) -> int | None:
        return None if self.duration is None else self.duration.total

    def lines(self, name: str, levels: bool = True) -> tuple[Line, ...]:
        """French lines of what changed (rule ids apart); `levels=False` when the result shows
        the wounds and the state already (an attack's `Health` and `StateChange`)."""
        out: list[Line] = []
        if levels and self.wounds_after != self.wounds_before:
            out.append(Line(f"{name} : blessures {self.wounds_before} → {self.wounds_after}",
                            "R004.31"))
        if levels and self.state_after != self.state_before:
            out.append(Line(f"{name} est maintenant {tables.STATES[self.state_after]}", "R004.32"))
        if self.minutes is not None:
            out.append(Line(f"inconscient pendant {self.minutes} minutes", "R004.32"))
        if self.state_after == "mort" and self.state_before != "mort":
            out.append(Line(f"{name} est définitivement perdu", "R004.32"))
        return tuple(out)


def unchanged(cat: Cat) -> WoundOutcome:
    return WoundOutcome(cat.wounds, cat.wounds, cat.state, cat.state)


def take_wounds(cat: Cat, wounds: int, source: DiceSource,
                config: FelinsConfig = DEFAULT) -> WoundOutcome:
    """R004.31/R004.32 + A004.18/A004.19: add wound levels and move the state on."""
    if wounds <= 0 or cat.state == "mort":
        return unchanged(cat)
    total = cat.wounds + wounds
    state, duration = cat.state, None
    if cat.state == "conscient":
        if knocked_out(total, cat.characteristics["vigueur"], config):
            state = "inconscient"
            duration = unconscious_roll(source)
    elif cat.state == "inconscient":
        state = "coma"
    elif cat.state == "coma":
        state = "mort"
    return WoundOutcome(cat.wounds, total, cat.state, state, duration)


def wound_changes(sheet: Loaded[Cat] | None, outcome: WoundOutcome) -> tuple[SheetChange, ...]:
    if sheet is None:
        return ()
    changes: list[SheetChange] = []
    if outcome.wounds_after != outcome.wounds_before:
        changes.append(SheetChange(sheet.doc, ("blessures",), outcome.wounds_after))
    if outcome.state_after != outcome.state_before:
        changes.append(SheetChange(sheet.doc, ("etat",), outcome.state_after))
    return tuple(changes)


def after_wounds(cat: Cat, outcome: WoundOutcome) -> Cat:
    return replace(cat, wounds=outcome.wounds_after, state=outcome.state_after)


def will_check(cat: Cat, wounds: int, source: DiceSource,
               config: FelinsConfig = DEFAULT) -> CheckResult:
    """R004.28 after a wound: Volonté roll (A004.17, wound malus included, A004.20); a failure
    means the cat flees the fight."""
    threshold = will_threshold(wounds, config)
    check = characteristic_check(cat, "volonte", Roll(threshold, rule="R004.28"), config)
    return check.roll(source)


# ------------------------------------------------------------------ healing (R004.33, R004.32)


def _healed(patient: Cat, roll: CheckResult, source: DiceSource,
            config: FelinsConfig) -> WoundOutcome:
    """E004.12 success −1 wound level (critical −2), fumble +1; A004.23 a success wakes an
    unconscious cat and brings one out of a coma."""
    if roll.critical == "failure":
        return take_wounds(patient, tables.HEAL_FUMBLE, source, config)
    if not roll.success:
        return unchanged(patient)
    healed = tables.HEAL_CRITICAL if roll.critical == "success" else tables.HEAL_SUCCESS
    wounds = max(0, patient.wounds - healed)
    state = patient.state
    if state in ("inconscient", "coma"):
        out = knocked_out(wounds, patient.characteristics["vigueur"], config)
        state = "inconscient" if out else "conscient"
    return WoundOutcome(patient.wounds, wounds, patient.state, state)


def _heal_verdict(roll: CheckResult) -> Line:
    if roll.critical == "failure":
        return Line("maladresse : le blessé subit 1 niveau de blessure de plus", "R004.33")
    if roll.success:
        return Line("soin réussi : il ne peut pas être retenté pour faire mieux", "R004.33")
    return Line("soin raté : nouvelle tentative possible demain", "R004.33")


def heal(healer: Loaded[Cat], patient: Loaded[Cat], source: DiceSource,
         threshold: int | None = None, config: FelinsConfig = DEFAULT) -> Outcome:
    """R004.33 Soigner (threshold: the GM's, default Moyen 9, A004.23); the healer may be the
    patient (the same sheet)."""
    healer.model.require_conscious("soigner")
    cat = patient.model
    if cat.state == "mort":
        raise RuleError(f"{cat.name} est mort : aucun soin ne le ramène (R004.32)")
    value = config.heal_threshold if threshold is None else threshold
    check = skill_check(healer.model, tables.HEAL_SKILL, Roll(value, rule="R004.33"), config)
    result = check.roll(source)
    outcome = _healed(cat, result, source, config)
    parts: tuple[CheckResult | RollResult, ...] = (result,)
    if outcome.duration is not None:
        parts += (outcome.duration,)
    report = Report(f"{healer.model.name} soigne {cat.name}", parts,
                    (_heal_verdict(result), *outcome.lines(cat.name)), "R004.33")
    return Outcome(report, (*roll_changes(healer, result), *wound_changes(patient, outcome)))


def den(patient: Loaded[Cat], days: int, config: FelinsConfig = DEFAULT) -> Outcome:
    """R004.32 one wound level per 3 days at the den (E004.06); a coma still needs a Soigner
    success (A004.23)."""
    cat = patient.model
    if cat.state == "mort":
        raise RuleError(f"{cat.name} est mort : aucun soin ne le ramène (R004.32)")
    wounds = max(0, cat.wounds - den_recovery(days))
    state = cat.state
    if state == "inconscient" and not knocked_out(wounds, cat.characteristics["vigueur"], config):
        state = "conscient"
    outcome = WoundOutcome(cat.wounds, wounds, cat.state, state)
    title = (f"{cat.name} : {days} jour(s) à la tanière du guérisseur, "
             f"{cat.wounds - wounds} niveau(x) de blessure récupéré(s)")
    return Outcome(Notes(title, outcome.lines(cat.name), "R004.32"),
                   wound_changes(patient, outcome))
