"""Les dés: the d10 or the d20 the player chooses (R003.05), how each face counts (R003.08), the
prédilection reroll (R003.04) and the judge of a test against a threshold (R003.11, R003.14,
R003.15).

Every natural value here is the face of the kept die; `value()` turns it into the number added
to the Capacité. The same objects give the random roll and the exact distribution.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from jdr.core.check import Check, Natural, NaturalRoll, Verdict
from jdr.core.results import Line
from jdr.dice.notation import Die
from jdr.dice.source import DiceSource
from jdr.systems.cyd import tables

if TYPE_CHECKING:
    import icepool


def face_value(sides: int, face: int) -> int:
    """R003.08: on the d20 an odd face counts 0 (1 and 11 included: no final result is computed
    for them, see `is_automatic_failure`); the d10 counts its face (A003.07: 0 reads 10)."""
    if sides == 20 and face % 2 == 1:
        return 0
    return face


def is_automatic_failure(sides: int, face: int) -> bool:
    """R003.08 / R003.15 / A003.14: a 1 or an 11 on the d20 is a dramatic failure, whatever the
    Capacité."""
    return sides == 20 and face in tables.D20_AUTOMATIC_FAILURE


def rank(sides: int, face: int) -> int:
    """How good a face is for the player: an automatic failure is worst, then the value. Used to
    keep the better of the two prédilection rolls (R003.04) when the player does not say."""
    if is_automatic_failure(sides, face):
        return -1
    return face_value(sides, face)


def kept_index(sides: int, choice: int | None, first: int, second: int) -> int:
    """R003.04: the index (0 or 1) of the kept result: the player's choice, else the better one
    (the first on equal worth)."""
    if choice is not None:
        return choice - 1
    return 0 if rank(sides, first) >= rank(sides, second) else 1


@dataclass(frozen=True, slots=True)
class CydDie(NaturalRoll):
    """R003.05 / R003.08: one d10 or one d20; the natural value is the face."""

    sides: int

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        face = source.roll(self.sides)
        note = "compte 0" if face_value(self.sides, face) != face else ""
        return face, (Die(self.sides, face, True, note),)

    def distribution(self) -> icepool.Die:
        return _uniform(self.sides)

    def value(self, natural: Natural) -> int:
        assert isinstance(natural, int)
        return face_value(self.sides, natural)


@dataclass(frozen=True, slots=True)
class PredilectionRoll(NaturalRoll):
    """R003.04 / A003.13: the prédilection reroll: the same die is rolled again and the player
    keeps either result (`choice` 1 or 2; by default the better one). `first` is the face of a
    roll already made at the table: then only the reroll is rolled now."""

    sides: int
    choice: int | None = None
    first: int | None = None

    def roll(self, source: DiceSource) -> tuple[Natural, tuple[Die, ...]]:
        first = self.first if self.first is not None else source.roll(self.sides)
        second = source.roll(self.sides)
        kept = kept_index(self.sides, self.choice, first, second)
        faces = (first, second)
        dice = tuple(
            Die(self.sides, f, i == kept, "" if i == kept else "écarté") for i, f in enumerate(faces)
        )
        return faces[kept], dice

    def distribution(self) -> icepool.Die:
        # Without --choix the odds assume the player keeps the better result.
        return _two_results(self.sides, self.choice, self.first)

    def value(self, natural: Natural) -> int:
        assert isinstance(natural, int)
        return face_value(self.sides, natural)


@lru_cache(maxsize=8)
def _uniform(sides: int) -> icepool.Die:
    import icepool

    return icepool.d(sides)


@lru_cache(maxsize=128)
def _two_results(sides: int, choice: int | None, first: int | None) -> icepool.Die:
    import icepool

    firsts = range(1, sides + 1) if first is None else (first,)
    weights: dict[int, int] = {}
    for a in firsts:
        for b in range(1, sides + 1):
            kept = (a, b)[kept_index(sides, choice, a, b)]
            weights[kept] = weights.get(kept, 0) + 1
    return icepool.Die(weights)


@dataclass(frozen=True, slots=True)
class CydJudge:
    """The judge of a Capacité test (R003.11, R003.14, R003.15, R003.08).

    - d20 face 1 or 11: dramatic failure, no final result, no margin (A003.14);
    - against a threshold T: success iff final ≥ T; heroic iff final ≥ T + 10; dramatic iff
      final ≤ T − 10 (A003.15: negative finals allowed);
    - without a threshold (one side of an opposed test) only the automatic failure is judged;
    - A003.17: the d10 reaches a heroic success too (Capacité ≥ threshold and a 10): no special
      rule for either die.

    Every verdict carries the stat `auto_ok` (0 on a 1 or 11 of the d20, else 1): the opposed
    test's rule reads it (A003.05).
    """

    sides: int

    def __call__(self, natural: Natural, total: int, threshold: int | None) -> Verdict:
        assert isinstance(natural, int)
        if is_automatic_failure(self.sides, natural):
            return Verdict(False, "failure", None, (Line(
                f"{natural} sur le d20 : échec dramatique automatique, le résultat final n'est "
                "pas calculé (le total affiché n'est que la Capacité)", "R003.08"),),
                (("auto_ok", 0),))
        notes: tuple[Line, ...] = ()
        if self.sides == 20 and natural % 2 == 1:
            notes = (Line(f"{natural} sur le d20 : face impaire, le dé compte 0", "R003.08"),)
        ok = (("auto_ok", 1),)
        if threshold is None:
            return Verdict(None, None, None, notes, ok)
        margin = total - threshold
        if margin >= tables.EXCEPTIONAL_GAP:
            return Verdict(True, "success", margin, (*notes, Line(
                "réussite héroïque : résultat final ≥ seuil + 10", "R003.14")), ok)
        if margin <= -tables.EXCEPTIONAL_GAP:
            return Verdict(False, "failure", margin, (*notes, Line(
                "échec dramatique : résultat final ≤ seuil − 10", "R003.15")), ok)
        return Verdict(margin >= 0, None, margin, notes, ok)


# A Capacité test is a plain core `Check` whose judge is a `CydJudge` (R003.07).
CydCheck = Check
