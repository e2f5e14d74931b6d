"""Where faces come from: a seeded generator, or the faces a person rolled at the table (`--des`).

No module-level randomness: every roll takes a `DiceSource`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Protocol

from jdr.errors import FacesError


class DiceSource(Protocol):
    """Gives the face of one die of `sides` faces (1..sides)."""

    def roll(self, sides: int) -> int: ...


class RandomSource:
    """Faces from a `random.Random`; `RandomSource(seed)` is reproducible."""

    __slots__ = ("rng", "uniform")

    def __init__(self, seed: int | None = None, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(seed)
        self.uniform = self.rng.random

    def roll(self, sides: int) -> int:
        # floor(U * n) + 1: unbiased to within 2**-53 * n, and several times faster than randint.
        # Compiled dice terms (dice/compiled.py) draw the same formula inline from `uniform`.
        return int(self.uniform() * sides) + 1


class FixedSource:
    """Faces given by hand, consumed in the order the rules roll them."""

    __slots__ = ("faces", "position")

    def __init__(self, faces: Sequence[int]) -> None:
        self.faces = tuple(faces)
        self.position = 0

    def roll(self, sides: int) -> int:
        """The next face; on a d10, `0` (as printed on most d10s) means 10 (D-ALL.03)."""
        if self.position >= len(self.faces):
            raise FacesError(
                f"dés donnés : {_faces(len(self.faces))}, il en faut au moins "
                f"{self.position + 1} (le dé suivant est un d{sides})"
            )
        face = self.faces[self.position]
        self.position += 1
        if face == 0 and sides == 10:
            face = 10
        if not 1 <= face <= sides:
            raise FacesError(
                f"dés donnés : la face {face} (valeur n° {self.position}) est impossible sur un "
                f"d{sides} (faces de 1 à {sides})"
            )
        return face

    def finish(self) -> None:
        """Refuse faces left over: a typo at the table must not go unnoticed."""
        if self.position < len(self.faces):
            unused = ", ".join(str(f) for f in self.faces[self.position :])
            used = ("aucune n'a servi" if self.position == 0 else
                    "une seule a servi" if self.position == 1 else
                    f"{self.position} seulement ont servi")
            raise FacesError(f"dés donnés : {_faces(len(self.faces))}, mais {used} ; "
                             f"en trop : {unused}")


def _faces(count: int) -> str:
    """« 1 face donnée », « 4 faces données »."""
    return f"{count} face donnée" if count == 1 else f"{count} faces données"


def parse_faces(text: str) -> list[int]:
    """`"8,6"` or `"8 6"` → [8, 6], with a French error naming the bad value.

    Faces are ASCII digits only (`²`, `①` or `٣` are refused, not read as numbers); `0` is
    accepted here because a d10 shows it for 10 (`FixedSource.roll` decides per die)."""
    parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
    if not parts:
        raise FacesError("--des : aucune face donnée (exemple : --des 8,6)")
    if len(parts) > 1000:
        raise FacesError("--des : plus de 1 000 faces données (limite : 1 000)")
    faces: list[int] = []
    for index, part in enumerate(parts, start=1):
        if not (part.isascii() and part.isdigit()) or len(part) > 7:
            from jdr.render.safe import clean

            shown = clean(part[:20]) + ("…" if len(part) > 20 else "")
            raise FacesError(
                f"--des : « {shown} » (valeur n° {index}) n'est pas une face de dé "
                "(chiffres 0-9, au plus 7)"
            )
        faces.append(int(part))
    return faces


def make_source(seed: int | None = None, faces: str | None = None) -> DiceSource:
    """The source a command asked for: `--des` wins over `--seed`."""
    if faces is not None:
        return FixedSource(parse_faces(faces))
    return RandomSource(seed)


def finish(source: DiceSource) -> None:
    """Call once a whole command has rolled: leftover hand-given faces are an error (a source
    that wraps another, a recording or a replay, checks the one it wraps)."""
    done = getattr(source, "finish", None)
    if callable(done):
        done()
