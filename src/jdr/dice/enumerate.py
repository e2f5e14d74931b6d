"""Exact enumeration of a roll through its production code: every face sequence, each weighted.

`enumerate_outcomes(fn)` calls `fn(source)` once per possible sequence of faces (depth first, an
odometer over the dice the code actually asked for) and adds up each result's exact probability.
Tests use it to prove a `roll()` and its `distribution()` are the same definition.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from fractions import Fraction
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


def enumerate_outcomes(fn: Callable[[_Path], T], max_paths: int = 2_000_000) -> dict[T, Fraction]:
    """Every outcome of `fn` with its exact probability (all dice fair)."""
    return enumerate_truncated(fn, None, max_paths)[0]


def enumerate_truncated(fn: Callable[[_Path], T], max_dice: int | None,
                        max_paths: int = 2_000_000) -> tuple[dict[T, Fraction], Fraction]:
    """Like `enumerate_outcomes`, but a path needing more than `max_dice` dice is not followed:
    returns the outcomes and the probability of the paths left out (explosions, rerolls)."""
    out: dict[T, Fraction] = {}
    truncated = Fraction(0)
    faces: list[int] = []
    for _ in range(max_paths):
        path = _Path(faces, max_dice)
        try:
            result: T | None = fn(path)
        except _Truncated:
            result = None
        used = path.position
        weight = Fraction(1)
        for s in path.sides:
            weight /= s
        if result is None:
            truncated += weight
        else:
            out[result] = out.get(result, Fraction(0)) + weight
        # odometer: advance the last die that has a face left, drop the ones after it
        faces = path.faces[:used]
        sides = path.sides
        while faces and faces[-1] >= sides[len(faces) - 1]:
            faces.pop()
        if not faces:
            return out, truncated
        faces[-1] += 1
    raise DiceLimitError(f"énumération : plus de {max_paths} suites de faces")
