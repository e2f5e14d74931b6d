"""Exact enumeration of a roll through its production code: every face sequence, each weighted.

`enumerate_outcomes(fn)` calls `fn(source)` once per possible sequence of faces (depth first, an
odometer over the dice the code actually asked for) and adds up each result's exact probability.
Tests use it to prove a `roll()` and its `distribution()` are the same definition.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
from math import prod
from typing import TypeVar

from jdr.errors import DiceLimitError

T = TypeVar("T", bound=Hashable)


class _Truncated(Exception):
    """A path asked for more dice than the enumeration follows."""


class _Path:
    """A source replaying a prefix of faces, then giving 1 for each new die, and recording sides."""

    __slots__ = ("faces", "max_dice", "position", "sides")

    def __init__(self, faces: list[int], max_dice: int | None = None) -> None:
        self.faces = faces
        self.sides: list[int] = []
        self.position = 0
        self.max_dice = max_dice

    def roll(self, sides: int) -> int:
        if self.max_dice is not None and self.position >= self.max_dice:
            raise _Truncated
        if self.position < len(self.faces):
            face = self.faces[self.position]
        else:
            face = 1
            self.faces.append(1)
        self.sides.append(sides)
        self.position += 1
        return face


def _sum(by_total: dict[int, int]) -> Fraction:
    """The probability of paths counted by the product of their sides: sum of count / product."""
    return sum((Fraction(count, total) for total, count in by_total.items()), Fraction(0))


def enumerate_outcomes(fn: Callable[[_Path], T], max_paths: int = 2_000_000) -> dict[T, Fraction]:
    """Every outcome of `fn` with its exact probability (all dice fair)."""
    return enumerate_truncated(fn, None, max_paths)[0]


def enumerate_truncated(fn: Callable[[_Path], T], max_dice: int | None,
                        max_paths: int = 2_000_000) -> tuple[dict[T, Fraction], Fraction]:
    """Like `enumerate_outcomes`, but a path needing more than `max_dice` dice is not followed:
    returns the outcomes and the probability of the paths left out (explosions, rerolls)."""
    # each path weighs 1 / (product of its dice's sides): count the paths of each result per
    # product, in integers, and make the fractions once at the end (not two per path)
    counts: dict[T, dict[int, int]] = {}
    cut_counts: dict[int, int] = {}
    faces: list[int] = []
    for _ in range(max_paths):
        path = _Path(faces, max_dice)
        try:
            result = fn(path)
        except _Truncated:
            tally = cut_counts
        else:
            tally = counts.setdefault(result, {})
        used = path.position
        sides = path.sides
        total = prod(sides)
        tally[total] = tally.get(total, 0) + 1
        # odometer: advance the last die that has a face left, drop the ones after it
        faces = path.faces[:used]
        while faces and faces[-1] >= sides[len(faces) - 1]:
            faces.pop()
        if not faces:
            return ({result: _sum(by_total) for result, by_total in counts.items()},
                    _sum(cut_counts))
        faces[-1] += 1
    raise DiceLimitError(f"énumération : plus de {max_paths} suites de faces")
