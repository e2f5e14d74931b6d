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
from typing import TYPE_CHECKING, Literal

from jdr.core.frozen import frozen
from jdr.core.results import Line
from jdr.dice.modifiers import Die
from jdr.dice.source import DiceSource

if TYPE_CHECKING:
    import icepool

Natural = Hashable
Critical = Literal["success", "failure"] | None


@dataclass(frozen=True, slots=True)
class Modifier:
    """A number added to a roll, with the reason a person reads and its rule id (kept apart:
    rule ids show in JSON and in the detail mode, never in forum posts)."""

    value: int
    reason: str
    rule: str = ""


@dataclass(frozen=True, slots=True)
class Verdict:
    """What the rules say of one roll."""

    success: bool | None
    critical: Critical = None
    margin: int | None = None
    notes: tuple[str | Line, ...] = ()
    stats: tuple[tuple[str, int], ...] = ()  # per-outcome values, added to the check's stats


class NaturalRoll:
    """How the dice of a check give their natural value. Subclasses define both ways.
    `rolls` is False for a value with no die (a passive value, a defender who cannot act)."""

    label: str = ""
    rolls: bool = True

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        raise NotImplementedError

    def distribution(self) -> icepool.Die:
        """The exact distribution of the natural value (icepool)."""
        raise NotImplementedError

    def law(self) -> tuple[int, tuple[tuple[Natural, int], ...]]:
        """The same law as whole weights: (denominator, each natural value with its weight, in
        increasing order). From `distribution()`; the common dice count it themselves, so that
        a check's odds need not import icepool."""
        die = self.distribution()
        return int(die.denominator()), tuple((n, int(q)) for n, q in die.items())

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

    def law(self) -> tuple[int, tuple[tuple[Natural, int], ...]]:
        return self.sides, tuple((face, 1) for face in range(1, self.sides + 1))


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

    def law(self) -> tuple[int, tuple[tuple[Natural, int], ...]]:
        # the better die is k when every die is at most k, and not every die at most k - 1
        n, s = self.count, self.sides
        return s**n, tuple((k, k**n - (k - 1) ** n) for k in range(1, s + 1))


@lru_cache(maxsize=64)
def _die(sides: int) -> icepool.Die:
    import icepool

    return icepool.d(sides)


@lru_cache(maxsize=64)
def _highest(count: int, sides: int) -> icepool.Die:
    return _die(sides).highest(count)


Judge = Callable[[Natural, int, "int | None"], Verdict]


@frozen
class CheckResult:
    """An immutable roll event: total, dice, modifiers and what the rules made of it.

    `stats` are named values the system attaches for the rules that read them later (the skill
    used, Chance, ...): contest tie-breaks, for instance. `who` is the character who rolled."""

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
    notes: tuple[str | Line, ...] = ()
    who: str = ""
    stats: tuple[tuple[str, int], ...] = ()
    rolled: bool = True  # False: a value with no die (passive)
    threshold_label: str = "seuil"  # how the threshold reads ("marge minimale" in a margin system)


@frozen
class Check:
    """One check, defined once: natural roll + modifiers + threshold + judge."""

    label: str
    natural: NaturalRoll
    modifiers: tuple[Modifier, ...]
    judge: Judge
    threshold: int | None = None
    rule: str = ""
    who: str = ""
    stats: tuple[tuple[str, int], ...] = ()
    threshold_label: str = "seuil"

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
            notes=verdict.notes, who=self.who, stats=self.stats + verdict.stats,
            rolled=self.natural.rolls, threshold_label=self.threshold_label,
        )

    def roll(self, source: DiceSource) -> CheckResult:
        natural, dice = self.natural.roll(source)
        return self.resolve(natural, dice)

    def outcomes(self) -> Iterable[tuple[CheckResult, Fraction]]:
        """Every resolved outcome with its exact probability."""
        denominator, weights = self.natural.law()
        for natural, quantity in weights:
            yield self.resolve(natural), Fraction(quantity, denominator)

    def odds(self) -> Odds:
        return _check_odds(self)


@frozen
class Odds:
    """Exact odds: success, each critical, and the full distribution of totals.

    For an opposed roll, `success` is P(the actor wins), and `opponent_wins`, `nobody` and `tie`
    (P(the main comparison is equal)) are set too."""

    label: str
    success: Fraction | None
    critical_success: Fraction
    critical_failure: Fraction
    distribution: tuple[tuple[int, Fraction], ...]
    threshold: int | None = None
    opponent_wins: Fraction | None = None
    nobody: Fraction | None = None
    tie: Fraction | None = None
    rule: str = ""
    notes: tuple[str | Line, ...] = ()
    extra: tuple[tuple[str, str, Fraction], ...] = field(default=())  # (json key, French label, p)
    threshold_label: str = "seuil"

    @property
    def mean(self) -> Fraction:
        return sum((t * p for t, p in self.distribution), Fraction(0))


@dataclass(frozen=True, slots=True)
class Faces:
    """A natural roll's exact law, precomputed once per natural roll (not per check): each
    natural value with the number it adds and its weight, and the law of those numbers as
    exact fractions. A check's odds only run its judge over it and shift the numbers by its
    bonus: nothing of the die is recomputed."""

    denominator: int
    outcomes: tuple[tuple[Natural, int, int], ...]  # (natural, value, weight)
    values: tuple[tuple[int, Fraction], ...]  # value -> probability, sorted


@lru_cache(maxsize=256)
def faces(natural: NaturalRoll) -> Faces:
    """The precomputed law of a natural roll (cached by natural roll: same die, same table)."""
    den, law = natural.law()
    outcomes = tuple((n, natural.value(n), q) for n, q in law)
    weights: dict[int, int] = {}
    for _, value, w in outcomes:
        weights[value] = weights.get(value, 0) + w
    return Faces(den, outcomes, tuple((v, Fraction(w, den)) for v, w in sorted(weights.items())))


@lru_cache(maxsize=1024)
def _check_odds(check: Check) -> Odds:
    # Exactly `resolve` (total = value + bonus, then the judge) over every natural value, without
    # building a CheckResult per face; the distribution of totals is the precomputed law of the
    # values shifted by the bonus.
    law = faces(check.natural)
    den = law.denominator
    bonus, judge, threshold = check.bonus, check.judge, check.threshold
    success = crit_s = crit_f = 0
    judged = False
    for natural, value, w in law.outcomes:
        verdict = judge(natural, value + bonus, threshold)
        ok = verdict.success
        if ok is not None:
            judged = True
            if ok:
                success += w
        critical = verdict.critical
        if critical == "success":
            crit_s += w
        elif critical == "failure":
            crit_f += w
    return Odds(
        label=check.label,
        success=Fraction(success, den) if judged else None,
        critical_success=Fraction(crit_s, den),
        critical_failure=Fraction(crit_f, den),
        distribution=tuple((v + bonus, p) for v, p in law.values),
        threshold=check.threshold,
        rule=check.rule,
        threshold_label=check.threshold_label,
    )
