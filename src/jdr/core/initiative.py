"""Turn order, shared by every system: scores, fixed tie-breakers, then roll-offs until strict.

Each system computes its entrants' scores (rolled or not) and its fixed tie-breakers (Cydonia:
Chance; ...), then `order` ranks them. Entrants still equal roll a die each (the system's roll-off
die), and roll again among themselves while they stay equal, up to a bound (then a French error:
the MJ decides). `--des` faces for roll-offs are consumed group by group from the top of the
order, in the order the characters were given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from jdr.core.check import CheckResult
from jdr.core.frozen import frozen
from jdr.core.results import Line
from jdr.dice.source import DiceSource
from jdr.errors import RuleError


@frozen
class Entrant:
    """One character entering the order: its score, the roll that gave it, its tie-breakers."""

    name: str
    score: int
    check: CheckResult | None = None
    tiebreaks: tuple[tuple[str, int], ...] = ()  # (French label, value), higher first


@frozen
class OrderRule:
    rolloff_sides: int = 10
    max_rolloffs: int = 20
    rule: str = ""
    score_label: str = "initiative"


@frozen
class OrderEntry:
    name: str
    score: int
    check: CheckResult | None
    tiebreaks: tuple[tuple[str, int], ...]
    rolloffs: tuple[int, ...]  # faces rolled in roll-offs, in order


@frozen
class RollOff:
    """One roll-off round among entrants that were still equal."""

    names: tuple[str, ...]
    faces: tuple[int, ...]
    sides: int


@frozen
class Order:
    """The turn order, best first, with every roll-off that decided it."""

    entries: tuple[OrderEntry, ...]
    rolloffs: tuple[RollOff, ...]
    rule: str = ""
    score_label: str = "initiative"
    notes: tuple[Line, ...] = ()

    @property
    def names(self) -> list[str]:
        return [e.name for e in self.entries]


def order(entrants: Sequence[Entrant], rule: OrderRule, source: DiceSource) -> Order:
    """Rank `entrants`: score, then tie-breakers, then repeated roll-offs (bounded)."""
    if not entrants:
        raise RuleError("initiative : aucun combattant")
    names = [e.name for e in entrants]
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise RuleError(f"initiative : « {dup} » apparaît deux fois")
    faces: dict[int, list[int]] = {i: [] for i in range(len(entrants))}
    rolloffs: list[RollOff] = []

    def static_key(i: int) -> tuple[int, ...]:
        e = entrants[i]
        return (e.score, *(v for _, v in e.tiebreaks))

    def rank(group: list[int], depth: int) -> list[int]:
        """Order a group whose static keys are equal, by roll-offs."""
        if len(group) == 1:
            return group
        if depth >= rule.max_rolloffs:
            tied = ", ".join(entrants[i].name for i in group)
            raise RuleError(f"initiative : {tied} toujours à égalité après {rule.max_rolloffs} "
                            "départages ; le MJ décide")
        rolled = {i: source.roll(rule.rolloff_sides) for i in group}
        for i, f in rolled.items():
            faces[i].append(f)
        rolloffs.append(RollOff(tuple(entrants[i].name for i in group),
                                tuple(rolled[i] for i in group), rule.rolloff_sides))
        return _split(group, lambda i: (rolled[i],), lambda g: rank(g, depth + 1))

    ranked = _split(list(range(len(entrants))), static_key, lambda g: rank(g, 0))
    entries = tuple(OrderEntry(entrants[i].name, entrants[i].score, entrants[i].check,
                               entrants[i].tiebreaks, tuple(faces[i])) for i in ranked)
    return Order(entries, tuple(rolloffs), rule.rule, rule.score_label)


def _split(group: list[int], k: Callable[[int], tuple[int, ...]],
           again: Callable[[list[int]], list[int]]) -> list[int]:
    """Sort `group` by `k` (best first, stable), and pass each run of equal keys to `again`."""
    ordered = sorted(group, key=k, reverse=True)
    out: list[int] = []
    run: list[int] = []
    for i in ordered:
        if run and k(run[0]) != k(i):
            out.extend(again(run) if len(run) > 1 else run)
            run = []
        run.append(i)
    out.extend(again(run) if len(run) > 1 else run)
    return out


def order_of(result: object) -> Order:
    """The order an initiative result gives (the `Order` itself, or the one inside a report)."""
    from jdr.core.results import Report

    if isinstance(result, Order):
        return result
    if isinstance(result, Report):
        for part in result.parts:
            if isinstance(part, Order):
                return part
    raise RuleError("l'initiative de ce système ne donne pas d'ordre de jeu")
