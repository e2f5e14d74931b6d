"""What the modifiers of a dice term do to its dice: keep / drop, minimum / maximum, reroll,
explode. Each step takes the dice as rolled so far (`Die` tuples) and returns the new list;
`extra()` rolls one more die of the same kind (counted against the expression's limit).

New dice are built with `type(d)(...)`, so this module needs no import of `Die`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

Selector = tuple[str, int]  # ("", n): equal to n; ("<", n) / (">", n): below / above n
Extra = Callable[[], int]


def matches(face: int, selector: Selector) -> bool:
    kind, n = selector
    if kind == "<":
        return face < n
    if kind == ">":
        return face > n
    return face == n


def covers_all(selector: Selector, sides: int) -> bool:
    """True when every face 1..sides matches: rerolling or exploding on it would never end."""
    kind, n = selector
    if kind == "<":
        return n > sides
    if kind == ">":
        return n < 1
    return sides == 1 and n == 1


def keep(dice: Sequence[Any], op: str, n: int) -> list[Any]:
    """`kh`/`k` keep highest n, `kl` keep lowest n, `dh` / `dl` drop highest / lowest n."""
    kept = [i for i, d in enumerate(dice) if d.kept]
    # Stable order: ties keep the earlier die for "highest", as a person reads left to right.
    by_value = sorted(kept, key=lambda i: (dice[i].face, -i))
    if op in ("kh", "k"):
        drop = by_value[: max(0, len(kept) - n)]
    elif op == "kl":
        drop = by_value[::-1][: max(0, len(kept) - n)]
    elif op == "dh":
        drop = by_value[::-1][:n]
    else:
        drop = by_value[:n]
    out = list(dice)
    for i in drop:
        d = out[i]
        out[i] = type(d)(d.sides, d.face, False, d.note)
    return out


def clamp(dice: Sequence[Any], op: str, n: int) -> list[Any]:
    """`mi` n: a kept face below n counts as n; `ma` n: above n counts as n."""
    return [type(d)(d.sides, max(d.face, n) if op == "mi" else min(d.face, n), d.kept, d.note)
            if d.kept else d for d in dice]


def reroll(dice: Sequence[Any], once: bool, selector: Selector, extra: Extra) -> list[Any]:
    """`r`/`ro` reroll a matching die once; `rr` until it no longer matches."""
    out = []
    for d in dice:
        current = d
        while current.kept and matches(current.face, selector):
            out.append(type(d)(current.sides, current.face, False, "relancé"))
            current = type(d)(current.sides, extra(), True, "relance")
            if once:
                break
        out.append(current)
    return out


def explode(dice: Sequence[Any], selector: Selector, extra: Extra) -> list[Any]:
    """Every matching face adds one more die, which may explode again."""
    out = []
    for d in dice:
        out.append(d)
        current = d
        while current.kept and matches(current.face, selector):
            out[-1] = type(d)(current.sides, current.face, current.kept, "explosé")
            current = type(d)(current.sides, extra(), True, "")
            out.append(current)
    return out


def apply(dice: Sequence[Any], op: str, kind: str, n: int, extra: Extra) -> list[Any]:
    """One modifier of a dice term, by its name in the notation."""
    if op in ("kh", "k", "kl", "dh", "dl"):
        return keep(dice, op, n)
    if op in ("mi", "ma"):
        return clamp(dice, op, n)
    if op in ("r", "ro", "rr"):
        return reroll(dice, op != "rr", (kind, n), extra)
    return explode(dice, (kind, n), extra)
