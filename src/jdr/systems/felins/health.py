"""Wounds and states (R004.22, R004.28, R004.31, R004.32; A004.17–A004.19, A004.30).

A cat is `conscient`, `en_fuite` (it failed its will check and abandoned the fight, R004.28: until
the fight is over), `inconscient` (3d10 × 5 minutes, kept on the sheet as `inconscience`), `coma`
or `mort`. Wounds beyond Vigueur knock an awake cat out (A004.18); a further wound puts an
unconscious cat in a coma, another one kills it (A004.19). What care and time do to these states
is in `care.py`.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from jdr.core.check import Check, CheckResult, Natural, Verdict
from jdr.core.french import state_label
from jdr.core.frozen import frozen
from jdr.core.results import Line
from jdr.core.system import Loaded, SheetChange
from jdr.dice.source import DiceSource
from jdr.errors import RuleError
from jdr.systems.felins import tables
from jdr.systems.felins.checks import Roll, characteristic_check
from jdr.systems.felins.config import DEFAULT, FelinsConfig
from jdr.systems.felins.dice import DurationDice
from jdr.systems.felins.sheet import Cat


def knocked_out(wounds: int, vigueur: int, config: FelinsConfig = DEFAULT) -> bool:
    """R004.32 / A004.18 Vigueur = wounds a cat takes before falling unconscious."""
    return wounds > vigueur if config.unconscious_at == "au_dela" else wounds >= vigueur


def conscious_limit(vigueur: int, config: FelinsConfig = DEFAULT) -> int:
    """The most wound levels a cat carries and stays conscious (A004.18)."""
    return vigueur if config.unconscious_at == "au_dela" else vigueur - 1


def den_recovery(days: int) -> int:
    """R004.32 / E004.06 one wound level per three days at the healer's den."""
    if days < 0:
        raise RuleError(f"jours = {days} : le nombre de jours doit être positif ou nul")
    return days // tables.DEN_DAYS_PER_WOUND


def will_threshold(wounds: int, config: FelinsConfig = DEFAULT) -> int:
    """R004.28 / A004.17 [Proposed] 1 wound → Facile 5, +1 ladder row (+2) per extra wound."""
    return config.will_base + config.will_step * (max(wounds, 1) - 1)


# ------------------------------------------------------------------ how long unconsciousness lasts


def wake_judge(natural: Natural, total: int, threshold: int | None) -> Verdict:
    """R004.32 the cat wakes once the minutes elapsed (`threshold`) reach its 3d10 × 5."""
    if threshold is None:
        return Verdict(None)
    if total <= threshold:
        return Verdict(True, notes=(f"{threshold} minute(s) écoulée(s) : réveil (après {total} "
                                    "minutes d'inconscience)",))
    return Verdict(False, notes=(f"{threshold} minute(s) écoulée(s) sur {total} : encore "
                                 f"{total - threshold} minute(s) d'inconscience",))


def duration_check(name: str, elapsed: int | None = None) -> Check:
    """R004.32 / E004.11 3d10 × 5 minutes (A004.30: rolled once, when the cat falls); with
    `elapsed`, whether it is awake after so many minutes."""
    dice = DurationDice(tables.UNCONSCIOUS_DICE, tables.UNCONSCIOUS_SIDES,
                        tables.UNCONSCIOUS_MINUTES)
    return Check(f"{name} — inconscience ({dice.label})", dice, (), wake_judge, elapsed,
                 "R004.32", who=name)


def unconscious_minutes(source: DiceSource) -> tuple[int, tuple[int, ...]]:
    """E004.11 the minutes and the three faces."""
    result = duration_check("").roll(source)
    return result.total, tuple(d.face for d in result.dice)


# ------------------------------------------------------------------ what wounds do


@frozen
class WoundOutcome:
    """A cat before and after what happened to it (wounds, state, minutes, care), and the
    duration roll when it fell unconscious."""

    before: Cat
    after: Cat
    duration: CheckResult | None = None

    @property
    def wounds_before(self) -> int:
        return self.before.wounds

    @property
    def wounds_after(self) -> int:
        return self.after.wounds

    @property
    def state_before(self) -> str:
        return self.before.state

    @property
    def state_after(self) -> str:
        return self.after.state

    def fled(self) -> WoundOutcome:
        """R004.28 the will check failed: the cat abandons the fight."""
        return replace(self, after=replace(self.after, state=tables.FLED))

    def lines(self, levels: bool = True) -> tuple[Line, ...]:
        """French lines of what changed (rule ids apart); `levels=False` when the result shows
        the wounds and the state already (an attack's `Health` and `StateChange`)."""
        name, genre, out = self.before.name, self.before.genre, []
        if levels and self.wounds_after != self.wounds_before:
            out.append(Line(f"{name} : blessures {self.wounds_before} → {self.wounds_after}",
                            "R004.31"))
        if levels and self.state_after != self.state_before:
            out.append(Line(f"{name} est maintenant {state_label(self.state_after, genre)}",
                            "R004.32"))
        if self.duration is not None:
            out.append(Line(f"{self.duration.total} minutes d'inconscience", "R004.32"))
        if self.state_after == "mort" and self.state_before != "mort":
            out.append(Line(f"{name} est perdu pour le clan, définitivement" if genre == "m" else
                            f"{name} est perdue pour le clan, définitivement" if genre == "f" else
                            f"le clan perd {name}, définitivement", "R004.32"))
        return tuple(out)


def unconscious(cat: Cat, duration: CheckResult) -> Cat:
    """R004.32 / A004.30 the cat unconscious for the minutes its 3d10 × 5 gave (kept)."""
    return replace(cat, state="inconscient", unconscious_minutes=duration.total)


def fall_unconscious(cat: Cat, source: DiceSource) -> tuple[Cat, CheckResult]:
    """R004.32 / A004.30 the cat falls unconscious: 3d10 × 5 minutes, rolled now, kept."""
    duration = duration_check(cat.name).roll(source)
    return unconscious(cat, duration), duration


def wounded(cat: Cat, wounds: int, config: FelinsConfig = DEFAULT) -> tuple[Cat, bool]:
    """R004.31/R004.32 + A004.18/A004.19: the cat once the wound levels are added and its
    state moved on, and whether it falls unconscious now (its 3d10 × 5 minutes still to roll);
    new wounds can be cared for again (R004.33: `soins` back to `aucun`)."""
    if wounds <= 0 or cat.state == "mort":
        return cat, False
    after = replace(cat, wounds=cat.wounds + wounds, care="aucun")
    if cat.awake and knocked_out(after.wounds, cat.characteristics["vigueur"], config):
        return after, True
    if cat.state == "inconscient":
        return replace(after, state="coma", unconscious_minutes=0), False
    if cat.state == "coma":
        return replace(after, state="mort"), False
    return after, False


def take_wounds(cat: Cat, wounds: int, source: DiceSource,
                config: FelinsConfig = DEFAULT) -> WoundOutcome:
    """R004.31/R004.32 + A004.18/A004.19: add wound levels and move the state on (`wounded`),
    rolling the minutes of a cat that falls unconscious."""
    after, falls = wounded(cat, wounds, config)
    if not falls:
        return WoundOutcome(cat, after)
    fallen, duration = fall_unconscious(after, source)
    return WoundOutcome(cat, fallen, duration)


def wound_law(cat: Cat, wounds: int, config: FelinsConfig = DEFAULT
              ) -> list[tuple[WoundOutcome, Fraction]]:
    """What `take_wounds` can give, with its exact probability: the fall's minutes from the
    law of their own check (`duration_check`)."""
    after, falls = wounded(cat, wounds, config)
    if not falls:
        return [(WoundOutcome(cat, after), Fraction(1))]
    return [(WoundOutcome(cat, unconscious(after, d), d), p)
            for d, p in duration_check(cat.name).outcomes()]


#: sheet key of each field of `Cat` the rules change.
_KEYS = (("wounds", "blessures"), ("state", "etat"), ("unconscious_minutes", "inconscience"),
         ("care", "soins"))


def wound_changes(sheet: Loaded[Cat] | None, outcome: WoundOutcome) -> tuple[SheetChange, ...]:
    """Every value that changed, written on the cat's sheet."""
    if sheet is None:
        return ()
    return tuple(SheetChange(sheet.doc, (key,), getattr(outcome.after, field))
                 for field, key in _KEYS
                 if getattr(outcome.after, field) != getattr(outcome.before, field))


def will_check(cat: Cat, wounds: int, config: FelinsConfig = DEFAULT) -> Check:
    """R004.28 after a wound: Volonté roll (A004.17, wound malus included, A004.20); a failure
    means the cat flees the fight."""
    threshold = will_threshold(wounds, config)
    return characteristic_check(cat, "volonte", Roll(threshold, rule="R004.28"), config)
