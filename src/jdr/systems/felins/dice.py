"""The dice of every roll (RULES.md 5.2): CHANCE d10, keep one, with the confirmation rerolls.

- R004.12 roll as many d10 as Chance and keep the best die, or the one the player wishes (A004.05).
- R004.18 / R004.19 / A004.06 every 10 and every 1 is rerolled once to confirm: a 10 again is a
  critical success, a 1 again a critical failure; the kept face stays the original one.

`ChanceDice` is the one definition of these dice: `roll()` (faces from a source) and
`distribution()` (the exact law, die by die) come from the same model, and the tests enumerate
`roll()` through every face sequence to prove they agree.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple

from jdr.core.check import Natural, NaturalRoll
from jdr.dice.notation import Die
from jdr.dice.source import DiceSource

if TYPE_CHECKING:
    import icepool

SIDES = 10
#: The note of a confirmation reroll (rendered `(10 confirmation)`: read, never kept).
CONFIRMATION = "confirmation"
DISCARDED = "écarté"


class ChanceNatural(NamedTuple):
    """The natural value of a roll: the kept face and the two confirmed criticals."""

    face: int
    critical_success: bool
    critical_failure: bool

    def __str__(self) -> str:
        return str(self.face)


@dataclass(frozen=True, slots=True)
class ChanceDice(NaturalRoll):
    """R004.12 + A004.06: `count` (= Chance) d10, keep the best (or die n° `choice`); each 10 and
    each 1 is rerolled once, in the order of the dice, to confirm a critical."""

    count: int
    choice: int | None = None
    label: str = field(default="", init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "label", f"{self.count}d{SIDES}, garder un dé")

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        faces = [source.roll(SIDES) for _ in range(self.count)]
        kept = self.kept_index(faces)
        dice = [Die(SIDES, f, i == kept, "" if i == kept else DISCARDED)
                for i, f in enumerate(faces)]
        crit_success = crit_failure = False
        for face in faces:
            if face not in (1, SIDES):
                continue
            confirm = source.roll(SIDES)
            dice.append(Die(SIDES, confirm, False, CONFIRMATION))
            if confirm == face:
                crit_success = crit_success or face == SIDES
                crit_failure = crit_failure or face == 1
        return ChanceNatural(faces[kept], crit_success, crit_failure), tuple(dice)

    def kept_index(self, faces: Sequence[int]) -> int:
        """A004.05 the player's die, or the best one (the first of equal faces)."""
        if self.choice is not None:
            return self.choice - 1
        return max(range(len(faces)), key=lambda i: (faces[i], -i))

    def distribution(self) -> icepool.Die:
        return chance_distribution(self.count, self.choice)

    def value(self, natural: Natural) -> int:
        assert isinstance(natural, ChanceNatural)
        return natural.face


def _one_die() -> list[tuple[int, bool, bool, int]]:
    """One d10 with its confirmation reroll, in hundredths: (face, crit 10, crit 1, weight)."""
    out: list[tuple[int, bool, bool, int]] = []
    for face in range(1, SIDES + 1):
        if face == SIDES:
            out += [(face, True, False, 1), (face, False, False, SIDES - 1)]
        elif face == 1:
            out += [(face, False, True, 1), (face, False, False, SIDES - 1)]
        else:
            out.append((face, False, False, SIDES))
    return out


@lru_cache(maxsize=32)
def chance_distribution(count: int, choice: int | None = None) -> icepool.Die:
    """Exact joint law of (kept face, critical success, critical failure), die by die."""
    import icepool

    states: dict[ChanceNatural, int] = {ChanceNatural(0, False, False): 1}
    for index in range(count):
        chosen = choice is not None and index == choice - 1
        following: dict[ChanceNatural, int] = {}
        for (kept, cs, cf), weight in states.items():
            for face, s, f, w in _one_die():
                new_kept = max(kept, face) if choice is None else face if chosen else kept
                key = ChanceNatural(new_kept, cs or s, cf or f)
                following[key] = following.get(key, 0) + weight * w
        states = following
    return icepool.Die(states)


@dataclass(frozen=True, slots=True)
class DurationDice(NaturalRoll):
    """R004.32 / E004.11 how long an unconscious cat stays so: 3d10 × 5 minutes. The natural
    value is the sum of the three faces; the total (`value`) is in minutes (15 to 150)."""

    count: int = 3
    sides: int = SIDES
    minutes: int = 5

    @property
    def label(self) -> str:  # type: ignore[override]
        return f"{self.count}d{self.sides} × {self.minutes} minutes"

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        faces = [source.roll(self.sides) for _ in range(self.count)]
        return sum(faces), tuple(Die(self.sides, face) for face in faces)

    def distribution(self) -> icepool.Die:
        return duration_distribution(self.count, self.sides)

    def value(self, natural: Natural) -> int:
        assert isinstance(natural, int)
        return natural * self.minutes


@lru_cache(maxsize=8)
def duration_distribution(count: int, sides: int) -> icepool.Die:
    """The exact law of the sum of `count` d`sides`."""
    import icepool

    return count @ icepool.d(sides)
