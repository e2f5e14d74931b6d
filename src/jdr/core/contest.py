"""Opposed rolls, shared by every system: two checks, a three-way outcome, the tie rule as data.

A `ContestRule` is a list of `Criterion` tried in order (higher total wins; on a tie, higher
bonus; ...) and what happens when all of them are equal (`final`: the opponent wins, the actor
wins, nobody wins, or both roll again). The same rule decides a roll and counts the exact odds:
the odds enumerate both checks' exact outcomes with integer weights and divide once at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from jdr.core.check import Check, CheckResult, Odds
from jdr.core.frozen import frozen
from jdr.core.results import Line
from jdr.dice.source import DiceSource
from jdr.errors import RuleError

Winner = Literal["actor", "opponent", "nobody"]
Final = Literal["actor", "opponent", "nobody", "reroll"]

_CRITICAL = {"success": 1, None: 0, "failure": -1}


def _key(result: CheckResult, key: str) -> int:
    if key == "total":
        return result.total
    if key == "margin":
        return result.margin if result.margin is not None else result.total
    if key == "bonus":
        return sum(m.value for m in result.modifiers)
    if key == "success":
        return 1 if result.success else 0
    if key == "critical":
        return _CRITICAL[result.critical]
    if key == "rolled":
        return 1 if result.rolled else 0
    if key.startswith("stat:"):
        return dict(result.stats).get(key[5:], 0)
    raise ValueError(f"critère de jet opposé inconnu : {key}")


@frozen
class Criterion:
    """One comparison: the higher `key` wins. Keys: total, margin, bonus, success, critical
    (success > none > failure), rolled (a roll beats a passive value), stat:NAME (a value the
    system put on the check, e.g. the skill used). `nobody_if_both_low`: when both sides have the
    lowest value (0: failed, no roll, ...) nobody wins. `note`: French, shown when it decides."""

    key: str
    note: str = ""
    nobody_if_both_low: bool = False
    nobody_note: str = ""


@frozen
class ContestRule:
    """How a system decides an opposed roll, as data."""

    criteria: tuple[Criterion, ...] = (Criterion("total"),)
    final: Final = "opponent"
    final_note: str = "égalité : le défenseur l'emporte"
    rule: str = ""
    max_rerolls: int = 20

    def primary(self) -> int:
        for i, c in enumerate(self.criteria):
            if c.key in ("total", "margin"):
                return i
        return 0

    def decide(self, a: CheckResult, b: CheckResult) -> tuple[Winner | None, int, str]:
        """(winner or None for a re-roll, index of the deciding criterion or -1, French note)."""
        for index, criterion in enumerate(self.criteria):
            ka, kb = _key(a, criterion.key), _key(b, criterion.key)
            if criterion.nobody_if_both_low and ka <= 0 and kb <= 0:
                return "nobody", index, criterion.nobody_note
            if ka != kb:
                return ("actor" if ka > kb else "opponent"), index, criterion.note
        if self.final == "reroll":
            return None, -1, self.final_note
        return self.final, -1, self.final_note


@frozen
class ContestResult:
    """Both rolls of an opposed check (the last round, and earlier tied rounds) and who won."""

    actor: CheckResult
    opponent: CheckResult
    winner: Winner
    tie: bool
    rounds: tuple[tuple[CheckResult, CheckResult], ...] = ()
    notes: tuple[str | Line, ...] = ()
    rule: str = ""
    gap: int | None = None  # difference on the main criterion (totals, or margins)

    @property
    def success(self) -> bool:
        return self.winner == "actor"

    @property
    def margin(self) -> int:
        if self.gap is not None:
            return self.gap
        return self.actor.total - self.opponent.total

    @property
    def total(self) -> int:
        return self.actor.total


@frozen
class Contest:
    """Two checks against each other, decided by a `ContestRule`."""

    actor: Check
    opponent: Check
    rule: ContestRule = field(default_factory=ContestRule)

    def resolve(self, a: CheckResult, b: CheckResult,
                rounds: tuple[tuple[CheckResult, CheckResult], ...] = ()) -> ContestResult:
        winner, index, note = self.rule.decide(a, b)
        if winner is None:  # only when rolling stops at the bound
            raise RuleError(f"jet opposé : toujours à égalité après {self.rule.max_rerolls} relances")
        primary = self.rule.primary()
        tie = index == -1 or index > primary
        notes = (note,) if note and (tie or index != primary) else ()
        key = self.rule.criteria[primary].key if self.rule.criteria else "total"
        decided_before = index != -1 and index < primary  # a success, a dodge … decided it
        gap = (_key(a, key) - _key(b, key)
               if key in ("total", "margin") and not decided_before else None)
        return ContestResult(a, b, winner, tie, rounds, notes, self.rule.rule, gap)

    def roll(self, source: DiceSource,
             between: Callable[[CheckResult, CheckResult], tuple[Check, Check]] | None = None
             ) -> ContestResult:
        """Roll both; on a tie whose rule is a re-roll, roll again (bounded). `between` lets a
        system change the checks between rounds (a pool that moves after a critical)."""
        actor, opponent = self.actor, self.opponent
        rounds: list[tuple[CheckResult, CheckResult]] = []
        for _ in range(self.rule.max_rerolls):
            a = actor.roll(source)
            b = opponent.roll(source)
            winner, _, _ = self.rule.decide(a, b)
            if winner is not None:
                return self.resolve(a, b, tuple(rounds))
            rounds.append((a, b))
            if between is not None:
                actor, opponent = between(a, b)
        raise RuleError(f"jet opposé : toujours à égalité après {self.rule.max_rerolls} relances ; "
                        "décidez à la main")

    def odds(self) -> Odds:
        return contest_odds(self)


def _weighted(check: Check) -> tuple[int, list[tuple[CheckResult, int]]]:
    from jdr.core.check import faces

    law = faces(check.natural)
    return law.denominator, [(check.resolve(n), w) for n, _, w in law.outcomes]


def _grouped(outcomes: list[tuple[CheckResult, int]], keys: list[str]
             ) -> list[tuple[CheckResult, int]]:
    """Outcomes the rule cannot tell apart, merged (their weights added): fewer pairs."""
    grouped: dict[tuple[int, ...], tuple[CheckResult, int]] = {}
    for result, weight in outcomes:
        sig = tuple(_key(result, k) for k in keys)
        seen = grouped.get(sig)
        grouped[sig] = (result, weight) if seen is None else (seen[0], seen[1] + weight)
    return list(grouped.values())


def _count(rule: ContestRule, mine: list[tuple[CheckResult, int]],
           theirs: list[tuple[CheckResult, int]]) -> tuple[dict[str, int], int]:
    """Integer weights of each outcome (actor, opponent, nobody, reroll) and of a primary tie."""
    keys = [c.key for c in rule.criteria]
    if any(c.nobody_if_both_low for c in rule.criteria):
        return _count_pairs(rule, _grouped(mine, keys), _grouped(theirs, keys))
    return _count_sorted(rule, mine, theirs, keys)


def _count_pairs(rule: ContestRule, mine: list[tuple[CheckResult, int]],
                 theirs: list[tuple[CheckResult, int]]) -> tuple[dict[str, int], int]:
    """Every pair through `rule.decide` (rules that are not a plain ordering)."""
    counts = {"actor": 0, "opponent": 0, "nobody": 0, "reroll": 0}
    tie = 0
    primary = rule.primary()
    for a, wa in mine:
        for b, wb in theirs:
            winner, index, _ = rule.decide(a, b)
            counts[winner or "reroll"] += wa * wb
            if index == -1 or index > primary:
                tie += wa * wb
    return counts, tie


def _count_sorted(rule: ContestRule, mine: list[tuple[CheckResult, int]],
                  theirs: list[tuple[CheckResult, int]], keys: list[str]
                  ) -> tuple[dict[str, int], int]:
    """A rule that is a plain ordering (the first criterion that differs decides, else `final`):
    the opponent's outcomes sorted once, each of the actor's placed by bisection, O(n log n)
    instead of every pair. Same counts as `_count_pairs` (a test compares them)."""
    from bisect import bisect_left
    from itertools import accumulate

    primary = rule.primary() + 1
    weights: dict[tuple[int, ...], int] = {}
    prefixes: dict[tuple[int, ...], int] = {}
    for b, wb in theirs:
        vector = tuple(_key(b, k) for k in keys)
        weights[vector] = weights.get(vector, 0) + wb
        prefixes[vector[:primary]] = prefixes.get(vector[:primary], 0) + wb
    vectors = sorted(weights)
    below = [0, *accumulate(weights[v] for v in vectors)]
    total = below[-1]
    counts = {"actor": 0, "opponent": 0, "nobody": 0, "reroll": 0}
    tie = 0
    for a, wa in mine:
        vector = tuple(_key(a, k) for k in keys)
        pos = bisect_left(vectors, vector)
        equal = weights.get(vector, 0)
        counts["actor"] += wa * below[pos]
        counts["opponent"] += wa * (total - below[pos] - equal)
        counts[rule.final] += wa * equal
        tie += wa * prefixes.get(vector[:primary], 0)
    return counts, tie


@lru_cache(maxsize=1024)
def contest_odds(contest: Contest) -> Odds:
    """Exact odds: P(actor wins), P(opponent wins), P(nobody), P(the primary comparison ties).

    A re-roll on a perfect tie is counted as the geometric series: win / (1 − reroll)."""
    den_a, mine = _weighted(contest.actor)
    den_b, theirs = _weighted(contest.opponent)
    counts, tie = _count(contest.rule, mine, theirs)
    decided = den_a * den_b - counts["reroll"]
    if decided == 0:
        raise RuleError("jet opposé : égalité certaine à chaque manche")
    crit_s = sum(w for r, w in mine if r.critical == "success")
    crit_f = sum(w for r, w in mine if r.critical == "failure")
    totals: dict[int, int] = {}
    for r, w in mine:
        totals[r.total] = totals.get(r.total, 0) + w
    return Odds(
        label=f"{contest.actor.label} contre {contest.opponent.label}",
        success=Fraction(counts["actor"], decided),
        critical_success=Fraction(crit_s, den_a),
        critical_failure=Fraction(crit_f, den_a),
        distribution=tuple((t, Fraction(w, den_a)) for t, w in sorted(totals.items())),
        opponent_wins=Fraction(counts["opponent"], decided),
        nobody=Fraction(counts["nobody"], decided),
        tie=Fraction(tie, den_a * den_b),
        rule=contest.rule.rule,
    )
