"""Wounds, states and healing (R004.22, R004.28, R004.31–R004.33; A004.17–A004.19, A004.23).

A cat is `conscient`, `inconscient`, `coma` or `mort`. Wounds beyond Vigueur knock it out
(A004.18); a further wound puts an unconscious cat in a coma, another one kills it (A004.19).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from jdr.core.sheet import SheetDocument
from jdr.core.system import SheetChange
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.felins import forum, tables
from jdr.systems.felins.checks import RollResult, chance_changes, roll_cat, skill_check
from jdr.systems.felins.config import DEFAULT, FelinsConfig
from jdr.systems.felins.sheet import Cat


def knocked_out(wounds: int, vigueur: int, config: FelinsConfig = DEFAULT) -> bool:
    """R004.32 / A004.18 Vigueur = wounds a cat takes before falling unconscious."""
    return wounds > vigueur if config.unconscious_at == "au_dela" else wounds >= vigueur


def unconscious_minutes(source: DiceSource) -> tuple[int, tuple[int, ...]]:
    """R004.32 / E004.11 an unconscious cat stays so 3d10 × 5 minutes (A004.30: rolled once)."""
    faces = tuple(source.roll(tables.UNCONSCIOUS_SIDES) for _ in range(tables.UNCONSCIOUS_DICE))
    return sum(faces) * tables.UNCONSCIOUS_MINUTES, faces


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
    """What wounds did to a cat: levels, state before/after, the unconscious duration."""

    wounds_before: int
    wounds_after: int
    state_before: str
    state_after: str
    minutes: int | None = None
    minute_dice: tuple[int, ...] = ()

    def lines(self, name: str) -> list[str]:
        out = []
        if self.wounds_after != self.wounds_before:
            out.append(f"{name} : blessures {self.wounds_before} → {self.wounds_after}")
        if self.state_after != self.state_before:
            out.append(f"{name} est maintenant {tables.STATES[self.state_after]}")
        if self.minutes is not None:
            dice = " + ".join(str(f) for f in self.minute_dice)
            out.append(f"inconscient pendant ({dice}) × 5 = {self.minutes} minutes")
        if self.state_after == "mort" and self.state_before != "mort":
            out.append(f"{name} est définitivement perdu (R004.32)")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"wounds_before": self.wounds_before, "wounds_after": self.wounds_after,
                "state_before": self.state_before, "state_after": self.state_after,
                "unconscious_minutes": self.minutes}


def take_wounds(cat: Cat, wounds: int, source: DiceSource,
                config: FelinsConfig = DEFAULT) -> WoundOutcome:
    """R004.31/R004.32 + A004.18/A004.19: add wound levels and move the state on."""
    if wounds <= 0 or cat.state == "mort":
        return WoundOutcome(cat.wounds, cat.wounds, cat.state, cat.state)
    total = cat.wounds + wounds
    state, minutes = cat.state, None
    dice: tuple[int, ...] = ()
    if cat.state == "conscient":
        if knocked_out(total, cat.characteristics["vigueur"], config):
            state = "inconscient"
            minutes, dice = unconscious_minutes(source)
    elif cat.state == "inconscient":
        state = "coma"
    elif cat.state == "coma":
        state = "mort"
    return WoundOutcome(cat.wounds, total, cat.state, state, minutes, dice)


def wound_changes(doc: SheetDocument | None, outcome: WoundOutcome) -> list[SheetChange]:
    if doc is None:
        return []
    changes = []
    if outcome.wounds_after != outcome.wounds_before:
        changes.append(SheetChange(doc, ("blessures",), outcome.wounds_after))
    if outcome.state_after != outcome.state_before:
        changes.append(SheetChange(doc, ("etat",), outcome.state_after))
    return changes


def will_check(cat: Cat, wounds: int, source: DiceSource,
               config: FelinsConfig = DEFAULT) -> RollResult:
    """R004.28 after a wound: Volonté roll (A004.17, wound malus included, A004.20); a failure
    means the cat flees the fight."""
    from jdr.systems.felins.checks import characteristic_check

    threshold = will_threshold(wounds, config)
    check = characteristic_check(cat, "volonte", threshold, config=config)
    return roll_cat(check, cat, source, config.label_of(threshold), config)


# ------------------------------------------------------------------ healing


@dataclass(frozen=True)
class HealResult:
    """R004.33 a Soigner roll on a patient."""

    healer: str
    patient: str
    roll: RollResult
    outcome: WoundOutcome

    def to_json(self) -> dict[str, Any]:
        data = self.roll.to_json()
        data.update({"patient": self.patient, "healed": self.outcome.wounds_before
                     - self.outcome.wounds_after, **self.outcome.to_json(),
                     "state": self.outcome.state_after, "rule": "R004.33"})
        return data

    def _verdict(self) -> str:
        if self.roll.critical == "failure":
            return "maladresse : le blessé subit 1 niveau de blessure de plus"
        if self.roll.success:
            return "soin réussi : il ne peut pas être retenté pour faire mieux"
        return "soin raté : nouvelle tentative possible demain"

    def render(self) -> str:
        return "\n".join([self.roll.render(), f"→ {self._verdict()}",
                          *self.outcome.lines(self.patient)])

    def render_forum(self) -> str:
        return forum.quote([*self.roll.forum_lines(), forum.b(self._verdict()),
                            *self.outcome.lines(self.patient)])


def heal(healer: Cat, patient: Cat, source: DiceSource, threshold: int | None = None,
         config: FelinsConfig = DEFAULT) -> HealResult:
    """R004.33 Soigner: success −1 wound level (critical −2), fumble +1 (E004.12); a success
    wakes an unconscious cat and brings one out of a coma (A004.23)."""
    healer.require_conscious("soigner")
    if patient.state == "mort":
        raise RuleError(f"{patient.name} est mort : aucun soin ne le ramène (R004.32)")
    value = config.heal_threshold if threshold is None else threshold
    check = skill_check(healer, tables.HEAL_SKILL, value, config=config)
    roll = roll_cat(check, healer, source, config.label_of(value), config)
    if roll.critical == "failure":
        outcome = take_wounds(patient, tables.HEAL_FUMBLE, source, config)
    elif roll.success:
        healed = tables.HEAL_CRITICAL if roll.critical == "success" else tables.HEAL_SUCCESS
        wounds = max(0, patient.wounds - healed)
        state = patient.state
        if state in ("inconscient", "coma"):
            out = knocked_out(wounds, patient.characteristics["vigueur"], config)
            state = "inconscient" if out else "conscient"
        outcome = WoundOutcome(patient.wounds, wounds, patient.state, state)
    else:
        outcome = WoundOutcome(patient.wounds, patient.wounds, patient.state, patient.state)
    return HealResult(healer.name, patient.name, roll, outcome)


@dataclass(frozen=True)
class DenResult:
    """R004.32 days spent at the healer's den."""

    patient: str
    days: int
    outcome: WoundOutcome

    def to_json(self) -> dict[str, Any]:
        return {"patient": self.patient, "days": self.days,
                "healed": self.outcome.wounds_before - self.outcome.wounds_after,
                **self.outcome.to_json(), "state": self.outcome.state_after, "rule": "R004.32"}

    def render(self) -> str:
        healed = self.outcome.wounds_before - self.outcome.wounds_after
        return "\n".join([f"{self.patient} : {self.days} jour(s) à la tanière du guérisseur, "
                          f"{healed} niveau(x) de blessure récupéré(s)",
                          *self.outcome.lines(self.patient)])

    def render_forum(self) -> str:
        return forum.quote([forum.b(self.patient), *self.render().splitlines()])


def den(patient: Cat, days: int, config: FelinsConfig = DEFAULT) -> DenResult:
    """R004.32 one wound level per 3 days at the den; a coma still needs a Soigner success."""
    if patient.state == "mort":
        raise RuleError(f"{patient.name} est mort : aucun soin ne le ramène (R004.32)")
    wounds = max(0, patient.wounds - den_recovery(days))
    state = patient.state
    if state == "inconscient" and not knocked_out(wounds, patient.characteristics["vigueur"],
                                                  config):
        state = "conscient"
    return DenResult(patient.name, days, WoundOutcome(patient.wounds, wounds, patient.state,
                                                      state))


def heal_changes(healer_doc: SheetDocument | None, patient_doc: SheetDocument | None,
                 result: HealResult) -> list[SheetChange]:
    return (chance_changes(healer_doc, result.roll.chance_before, result.roll.chance_after)
            + wound_changes(patient_doc, result.outcome))


def after_wounds(cat: Cat, outcome: WoundOutcome) -> Cat:
    return replace(cat, wounds=outcome.wounds_after, state=outcome.state_after)
