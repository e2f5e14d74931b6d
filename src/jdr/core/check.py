"""Checks, defined once: the same definition gives the random roll and the exact odds.

A `Check` is a `NaturalRoll` (how the dice give a natural value: one d10, 2d10 keep one, ...),
the modifiers that apply (each with its reason), an optional threshold, and a `Judge` (the rule
that turns a natural value and a total into success, critical and margin). Rolling runs the
natural roll with a `DiceSource` then the judge; the odds run the judge over the natural roll's
exact icepool distribution. Same judge, same modifiers: they cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Literal

from jdr.dice.notation import Die
from jdr.dice.source import DiceSource

if TYPE_CHECKING:
    import icepool

Natural = Hashable
Critical = Literal["success", "failure"] | None


@dataclass(frozen=True, slots=True)
class Modifier:
    """A number added to a roll, with the reason a person reads (and its rule id)."""

    value: int
    reason: str

    def render(self) -> str:
        return f"{self.value:+d} ({self.reason})"


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the rules say of one roll."""

    success: bool | None
    critical: Critical = None
    margin: int | None = None
    notes: tuple[str, ...] = ()


class NaturalRoll:
    """How the dice of a check give their natural value. Subclasses define both ways."""

    label: str = ""

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        raise NotImplementedError

    def distribution(self) -> icepool.Die:
        """The exact distribution of the natural value (icepool)."""
        raise NotImplementedError

    def value(self, natural: Natural) -> int:
        """The number the natural value adds to the total (the face itself by default)."""
        assert isinstance(natural, int)
        return natural


@dataclass(frozen=True, slots=True)
class SingleDie(NaturalRoll):
    """One die; the natural value is its face."""

    sides: int

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"1d{self.sides}"

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        face = source.roll(self.sides)
        return face, (Die(self.sides, face),)

    def distribution(self) -> icepool.Die:
        return _die(self.sides)


@dataclass(frozen=True, slots=True)
class KeepOne(NaturalRoll):
    """`count` dice, keep one: the highest by default, or the one the player chose (1-based)."""

    count: int
    sides: int
    choice: int | None = None

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"{self.count}d{self.sides}, garder un dé"

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        faces = [source.roll(self.sides) for _ in range(self.count)]
        if self.choice is None:
            kept = max(range(len(faces)), key=lambda i: (faces[i], -i))
        else:
            kept = self.choice - 1
        dice = tuple(Die(self.sides, f, i == kept, "" if i == kept else "écarté")
                     for i, f in enumerate(faces))
        return faces[kept], dice

    def distribution(self) -> icepool.Die:
        # The player's free choice is a decision, not chance: the odds assume the better die.
        return _highest(self.count, self.sides)


@lru_cache(maxsize=64)
def _die(sides: int) -> icepool.Die:
    import icepool

    return icepool.d(sides)


@lru_cache(maxsize=64)
def _highest(count: int, sides: int) -> icepool.Die:
    return _die(sides).highest(count)


Judge = Callable[[Natural, int, "int | None"], Verdict]


@dataclass(frozen=True)
class CheckResult:
    """An immutable roll event: total, dice, modifiers and what the rules made of it."""

    label: str
    total: int
    natural: Natural
    dice: tuple[Die, ...]
    modifiers: tuple[Modifier, ...]
    threshold: int | None
    success: bool | None
    critical: Critical
    margin: int | None
    rule: str = ""
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "total": self.total,
            "success": self.success,
            "critical": self.critical,
            "margin": self.margin,
            "threshold": self.threshold,
            "natural": self.natural,
            "dice": [d.face for d in self.dice],
            "dice_detail": [{"sides": d.sides, "face": d.face, "kept": d.kept} for d in self.dice],
            "modifiers": [{"value": m.value, "reason": m.reason} for m in self.modifiers],
            "rule": self.rule,
            "notes": list(self.notes),
        }

    def render(self) -> str:
        dice = ", ".join(d.render() for d in self.dice)
        parts = [f"dés [{dice}]"] + [m.render() for m in self.modifiers]
        line = f"{self.label} : {' '.join(parts)} = {self.total}"
        if self.threshold is not None:
            line += f" contre seuil {self.threshold}"
        if self.success is not None:
            line += " → " + ("RÉUSSITE" if self.success else "ÉCHEC")
        if self.critical == "success":
            line += " (réussite critique)"
        elif self.critical == "failure":
            line += " (échec critique)"
        if self.margin is not None and self.threshold is not None:
            line += f", marge {self.margin:+d}"
        for note in self.notes:
            line += f"\n  · {note}"
        return line


@dataclass(frozen=True)
class Check:
    """One check, defined once: natural roll + modifiers + threshold + judge."""

    label: str
    natural: NaturalRoll
    modifiers: tuple[Modifier, ...]
    judge: Judge
    threshold: int | None = None
    rule: str = ""

    @property
    def bonus(self) -> int:
        return sum(m.value for m in self.modifiers)

    def resolve(self, natural: Natural, dice: tuple[Die, ...] = ()) -> CheckResult:
        total = self.natural.value(natural) + self.bonus
        verdict = self.judge(natural, total, self.threshold)
        return CheckResult(
            label=self.label, total=total, natural=natural, dice=dice,
            modifiers=self.modifiers, threshold=self.threshold, success=verdict.success,
            critical=verdict.critical, margin=verdict.margin, rule=self.rule,
            notes=verdict.notes,
        )

    def roll(self, source: DiceSource) -> CheckResult:
        natural, dice = self.natural.roll(source)
        return self.resolve(natural, dice)

    def outcomes(self) -> Iterable[tuple[CheckResult, Fraction]]:
        """Every resolved outcome with its exact probability."""
        die = self.natural.distribution()
        denominator = die.denominator()
        for natural, quantity in die.items():
            yield self.resolve(natural), Fraction(quantity, denominator)

    def odds(self) -> Odds:
        return _check_odds(self)


@dataclass(frozen=True)
class Odds:
    """Exact odds: success, each critical, and the full distribution of totals."""

    label: str
    success: Fraction | None
    critical_success: Fraction
    critical_failure: Fraction
    distribution: tuple[tuple[int, Fraction], ...]
    threshold: int | None = None
    extra: tuple[tuple[str, Fraction], ...] = field(default=())

    @property
    def mean(self) -> float:
        return float(sum(t * p for t, p in self.distribution))

    def render(self) -> str:
        from jdr.odds import bar_chart, percent

        lines = [f"Chances : {self.label}"]
        if self.threshold is not None:
            lines[0] += f" (seuil {self.threshold})"
        if self.success is not None:
            lines.append(f"  réussite          {percent(self.success)}")
        lines.append(f"  réussite critique {percent(self.critical_success)}")
        lines.append(f"  échec critique    {percent(self.critical_failure)}")
        for name, value in self.extra:
            label = {"tie": "égalité"}.get(name, name)
            lines.append(f"  {label:<17} {percent(value)}")
        lines.append(f"  moyenne           {self.mean:.2f}".replace(".", ","))
        lines.append("  distribution des totaux :")
        lines.extend("  " + line for line in bar_chart(self.distribution))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "threshold": self.threshold,
            "success": None if self.success is None else float(self.success),
            "critical_success": float(self.critical_success),
            "critical_failure": float(self.critical_failure),
            "mean": self.mean,
            "distribution": {str(t): float(p) for t, p in self.distribution},
            **{k: float(v) for k, v in self.extra},
        }


@lru_cache(maxsize=1024)
def _check_odds(check: Check) -> Odds:
    success = Fraction(0)
    crit_s = Fraction(0)
    crit_f = Fraction(0)
    totals: dict[int, Fraction] = {}
    judged = False
    for result, p in check.outcomes():
        totals[result.total] = totals.get(result.total, Fraction(0)) + p
        if result.success is not None:
            judged = True
            if result.success:
                success += p
        if result.critical == "success":
            crit_s += p
        elif result.critical == "failure":
            crit_f += p
    return Odds(
        label=check.label,
        success=success if judged else None,
        critical_success=crit_s,
        critical_failure=crit_f,
        distribution=tuple(sorted(totals.items())),
        threshold=check.threshold,
    )


# ------------------------------------------------------------------ opposed checks


@dataclass(frozen=True)
class OpposedResult:
    """Both rolls of an opposed check and who won."""

    actor: CheckResult
    opponent: CheckResult
    success: bool
    margin: int
    tie: bool
    notes: tuple[str, ...] = ()
    rule: str = ""

    @property
    def total(self) -> int:
        return self.actor.total

    @property
    def critical(self) -> Critical:
        return self.actor.critical

    def to_json(self) -> dict[str, Any]:
        return {
            "total": self.actor.total,
            "success": self.success,
            "critical": self.actor.critical,
            "margin": self.margin,
            "tie": self.tie,
            "dice": [d.face for d in self.actor.dice],
            "actor": self.actor.to_json(),
            "opponent": self.opponent.to_json(),
            "rule": self.rule,
            "notes": list(self.notes),
        }

    def render(self) -> str:
        lines = [self.actor.render(), "contre " + self.opponent.render()]
        verdict = "RÉUSSITE" if self.success else "ÉCHEC"
        tie = " (égalité)" if self.tie else ""
        lines.append(f"→ {verdict}{tie}, écart {self.margin:+d}")
        lines.extend(f"  · {n}" for n in self.notes)
        return "\n".join(lines)


Decide = Callable[[CheckResult, CheckResult], tuple[bool, tuple[str, ...]]]


def strictly_greater(actor: CheckResult, opponent: CheckResult) -> tuple[bool, tuple[str, ...]]:
    """The actor must beat the opponent; a tie goes to the opponent."""
    if actor.total == opponent.total:
        return False, ("égalité : l'action échoue, le défenseur l'emporte",)
    return actor.total > opponent.total, ()


@dataclass(frozen=True)
class Opposed:
    """Two checks against each other; `decide` is the system's rule for who wins."""

    actor: Check
    opponent: Check
    decide: Decide = strictly_greater
    rule: str = ""

    def resolve(self, a: CheckResult, b: CheckResult) -> OpposedResult:
        success, notes = self.decide(a, b)
        return OpposedResult(a, b, success, a.total - b.total, a.total == b.total, notes, self.rule)

    def roll(self, source: DiceSource) -> OpposedResult:
        a = self.actor.roll(source)
        b = self.opponent.roll(source)
        return self.resolve(a, b)

    def odds(self) -> Odds:
        return _opposed_odds(self)


@lru_cache(maxsize=1024)
def _opposed_odds(opposed: Opposed) -> Odds:
    success = Fraction(0)
    tie = Fraction(0)
    crit_s = Fraction(0)
    crit_f = Fraction(0)
    margins: dict[int, Fraction] = {}
    mine = list(opposed.actor.outcomes())
    theirs = list(opposed.opponent.outcomes())
    for a, pa in mine:
        if a.critical == "success":
            crit_s += pa
        elif a.critical == "failure":
            crit_f += pa
        for b, pb in theirs:
            p = pa * pb
            result = opposed.resolve(a, b)
            if result.success:
                success += p
            if result.tie:
                tie += p
            margins[result.margin] = margins.get(result.margin, Fraction(0)) + p
    totals: dict[int, Fraction] = {}
    for a, pa in mine:
        totals[a.total] = totals.get(a.total, Fraction(0)) + pa
    return Odds(
        label=f"{opposed.actor.label} contre {opposed.opponent.label}",
        success=success,
        critical_success=crit_s,
        critical_failure=crit_f,
        distribution=tuple(sorted(totals.items())),
        extra=(("tie", tie),),
    )
