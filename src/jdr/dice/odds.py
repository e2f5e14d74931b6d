"""Exact odds of any dice expression: `jdr odds "10d10cs>=7"`, the roll box as you type.

The distribution comes from the same syntax tree as the roll (`Node.dist` next to
`Node.evaluate`); tests prove they agree by enumerating every face sequence of small pools.
Explosions are followed through `EXPLODE_DEPTH` explosions per die: what lies beyond is not
computed, and its probability is given (`truncated`).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import NamedTuple

from jdr.dice.modifiers import EXPLODE_DEPTH, Dist, Spec, selector_text, spec_meaning
from jdr.dice.notation import parse_line
from jdr.dice.tree import Compare, Dice, Group, Labeled, Node, Number, OddsContext, SetNode

_SYMBOL = {">=": "≥", "<=": "≤", ">": ">", "<": "<", "==": "=", "!=": "≠"}


class DiceOdds(NamedTuple):
    """The exact distribution of an expression's total, and of its comparison if it has one."""

    expression: str
    distribution: tuple[tuple[int, Fraction], ...]
    success: Fraction | None = None  # P(the comparison holds), for `1d20+5>=15`
    comparison: str = ""  # « ≥ 15 »
    truncated: Fraction = Fraction(0)  # probability left out (explosions beyond the depth)
    counting: bool = False  # the total is a number of successes
    notes: tuple[str, ...] = ()
    repeat: int = 1
    comment: str = ""

    @property
    def mean(self) -> Fraction:
        mass = sum((p for _, p in self.distribution), Fraction(0))
        if not mass:
            return Fraction(0)
        return sum((t * p for t, p in self.distribution), Fraction(0)) / mass

    @property
    def minimum(self) -> int:
        return self.distribution[0][0]

    @property
    def maximum(self) -> int:
        return self.distribution[-1][0]

    def at_least(self, value: int) -> Fraction:
        return sum((p for t, p in self.distribution if t >= value), Fraction(0))

    def exactly(self, value: int) -> Fraction:
        return sum((p for t, p in self.distribution if t == value), Fraction(0))


def _constant(node: Node) -> int | None:
    return node.value if isinstance(node, Number) else None


def _meanings(node: Node) -> list[str]:
    out: list[str] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, Dice):
            parts = list(n.meaning)
            parts.extend(_counting(n.spec))
            if parts:
                out.append(f"{n.notation} : " + " ; ".join(parts))
        elif isinstance(n, SetNode):
            parts = list(n.meaning)
            parts.extend(_counting(Spec(1, success=n.success, failure=n.failure,
                                        failure_counts=n.failure_counts), "totaux"))
            if parts:
                out.append(f"{n.notation} : " + " ; ".join(parts))
        stack.extend(reversed(n.children()))
    return out


def _counting(spec: Spec, what: str = "dés") -> list[str]:
    out = []
    if spec.success is not None:
        out.append(f"succès : {what} {selector_text(spec.success)}")
    if spec.failure is not None:
        label = "échecs comptés" if spec.failure_counts else "échecs retirés"
        out.append(f"{label} : {what} {selector_text(spec.failure)}")
    return out


def _is_counting(node: Node) -> bool:
    while isinstance(node, Group | Labeled):
        node = node.inner
    if isinstance(node, Dice):
        return node.spec.counting
    if isinstance(node, SetNode):
        return node.success is not None or node.failure is not None
    return False


def odds(expression: str, variables: Mapping[str, int] | None = None) -> DiceOdds:
    """The exact odds of a free expression (names looked up in `variables`, normalized keys)."""
    line = parse_line(expression)
    octx = OddsContext(variables or {})
    node = line.node
    success: Fraction | None = None
    comparison = ""
    if isinstance(node, Compare):
        left = node.left.dist(octx)
        right = node.right.dist(octx)
        both = left.combine(right, lambda a, b: int(node.test(a, b)), octx.budget)
        success = Fraction(both.w.get(1, 0), both.den)
        constant = _constant(node.right)
        comparison = f"{_SYMBOL[node.op]} {constant if constant is not None else '…'}"
        total: Dist = left
        mass = both.mass()
        counting = _is_counting(node.left)
    else:
        total = node.dist(octx)
        mass = total.mass()
        counting = _is_counting(node)
    notes = _meanings(node)
    truncated = 1 - mass
    if truncated:
        notes.append(f"explosions suivies jusqu'à {EXPLODE_DEPTH} par dé : au-delà, "
                     "probabilité non calculée")
    return DiceOdds(expression, tuple(total.items()), success, comparison, truncated, counting,
                    tuple(notes), line.repeat, line.comment)


__all__ = ["EXPLODE_DEPTH", "DiceOdds", "odds", "spec_meaning"]
