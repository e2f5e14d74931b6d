"""What every engine of the simulator shares: the roster (the sides and their copies), the
tactics, what ends a fight, and the figures of one fight.

A fight: the characters of both sides enter the order of initiative (the system's rule; an order
drawn at random for a system without one); at each
turn the rules' hooks run (`turn_start`, `round_start`), then whoever can act attacks an enemy
chosen by its side's tactic, with the attack's defaults (`GameSystem.attack`). A side is beaten
when none of its characters can act (`incapacity`); both at once, or no winner after
`MAX_ROUNDS` rounds, is a draw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from jdr.core.frozen import frozen
from jdr.core.sheet import SheetDocument
from jdr.core.system import GameSystem, Loaded
from jdr.errors import JdrError, RuleError

MAX_ROUNDS = 100
LOW = 0.25  # « prudente »: at or below a quarter of its health, a character keeps out of reach

TACTICS: dict[str, str] = {
    "faible": "chacun attaque l'ennemi debout qui a le moins de santé (le premier de l'ordre à "
              "égalité)",
    "hasard": "chacun attaque un ennemi debout tiré au hasard",
    "prudente": "comme « faible », mais un personnage à 25 % de sa santé ou moins se tient à "
                "l'écart : il n'attaque plus et n'est pas attaqué tant qu'un allié plus vaillant "
                "tient debout",
}
DEFAULT_TACTIC = "faible"

AnySystem = GameSystem[Any]


def tactic(name: str | None) -> str:
    """A tactic's name, checked (French error listing the tactics)."""
    from jdr.names import normalize, unknown_name_message

    if name is None:
        return DEFAULT_TACTIC
    key = normalize(name)
    if key not in TACTICS:
        raise JdrError("--tactique : " + unknown_name_message("tactique", name[:40], list(TACTICS)))
    return key


@frozen
class Roster:
    """The fighters: every character once per copy, with a name of its own, and its side."""

    system: AnySystem
    fighters: tuple[Loaded[Any], ...]
    sides: tuple[int, ...]  # 0 or 1, per fighter

    @property
    def names(self) -> list[str]:
        return [f.name for f in self.fighters]

    def side_names(self, side: int) -> list[str]:
        return [f.name for f, s in zip(self.fighters, self.sides, strict=True) if s == side]

    def plains(self) -> list[dict[str, Any]]:
        return [f.doc.plain() for f in self.fighters]


def copy_named(system: AnySystem, sheet: Loaded[Any], name: str) -> Loaded[Any]:
    """An in-memory copy of a sheet under another name (nothing is written)."""
    from jdr.core.usecase import load

    data = json.loads(json.dumps(sheet.doc.plain()))
    for key in list(data):
        if key.lower() == "nom":
            del data[key]
    doc = SheetDocument(Path(f"{name}.yaml"), {"nom": name, **data})
    return load(system, doc)


def roster(system: AnySystem, sides: Sequence[Sequence[Loaded[Any]]]) -> Roster:
    """Both sides, each character copied in memory; a character given several times becomes
    « Gobelin », « Gobelin 2 », « Gobelin 3 »…"""
    if len(sides) != 2:
        raise JdrError("une simulation oppose deux camps")
    for i, side in enumerate(sides):
        if not side:
            raise JdrError(f"le camp {i + 1} est vide : il faut au moins un personnage de chaque côté")
    if "attack" not in system.actions:
        raise RuleError(f"le système « {system.id} » n'a pas de règle d'attaque : il n'y a pas de "
                        "combat à simuler")
    seen: dict[str, int] = {}
    fighters: list[Loaded[Any]] = []
    owners: list[int] = []
    for index, side in enumerate(sides):
        for sheet in side:
            count = seen.get(sheet.name.casefold(), 0) + 1
            seen[sheet.name.casefold()] = count
            fighters.append(copy_named(system, sheet, sheet.name if count == 1
                                       else f"{sheet.name} {count}"))
            owners.append(index)
    return Roster(system, tuple(fighters), tuple(owners))


def health_left(system: AnySystem, sheet: Loaded[Any]) -> float:
    """Health left, in the system's unit: hit points left, or wounds still to take before the
    maximum (0 when the system keeps no health)."""
    health = system.health(sheet)
    if health is None:
        return 0.0
    if health.unit == "pv":
        return float(health.after)
    top = health.max if health.max is not None else health.after
    return float(top - health.after)


def health_top(system: AnySystem, sheet: Loaded[Any]) -> float:
    """The most health the sheet can hold (its maximum), at least 1."""
    health = system.health(sheet)
    if health is None or health.max is None:
        return 1.0
    return float(max(health.max, 1))


@frozen
class Look:
    """What the engines read of one character at one moment (a pure function of its sheet)."""

    able: bool   # can act (no `incapacity`)
    dead: bool   # state `mort`
    health: float
    low: bool    # at or below LOW of its maximum health

    @classmethod
    def of(cls, system: AnySystem, sheet: Loaded[Any], top: float) -> Look:
        health = health_left(system, sheet)
        return cls(system.incapacity(sheet) is None, system.state(sheet) == "mort", health,
                   health <= LOW * top)


@frozen
class FightResult:
    """One fight: the winning side (0, 1, or None for a draw), the round it ended in, and per
    fighter whether it fell (could no longer act at some point), died, and its health left."""

    winner: int | None
    rounds: int
    fell: tuple[bool, ...]
    dead: tuple[bool, ...]
    health: tuple[float, ...]


def targets(actor: int, sides: Sequence[int], looks: Sequence[Look], tactics: Sequence[str]
            ) -> list[int]:
    """The enemies `actor` may attack now, by its side's tactic and the enemy side's
    (« prudente » keeps its low characters out of reach while a stronger ally stands)."""
    mine = sides[actor]
    enemies = [i for i, look in enumerate(looks) if sides[i] != mine and look.able]
    if tactics[1 - mine] == "prudente":
        strong = [i for i in enemies if not looks[i].low]
        if strong:
            enemies = strong
    return enemies


def stands_back(actor: int, sides: Sequence[int], looks: Sequence[Look], tactics: Sequence[str]
                ) -> bool:
    """« prudente »: a low character does not attack while a stronger ally stands."""
    if tactics[sides[actor]] != "prudente" or not looks[actor].low:
        return False
    return any(sides[i] == sides[actor] and i != actor and look.able and not look.low
               for i, look in enumerate(looks))


def weakest(candidates: Sequence[int], looks: Sequence[Look]) -> int:
    """The candidate with the least health left (the first in roster order at equality)."""
    return min(candidates, key=lambda i: (looks[i].health, i))


def winner_of(sides: Sequence[int], looks: Sequence[Look]) -> tuple[bool, int | None]:
    """(over, winner): a side with nobody able to act is beaten; both at once: a draw."""
    standing = [any(look.able for s, look in zip(sides, looks, strict=True) if s == side)
                for side in (0, 1)]
    if all(standing):
        return False, None
    if not any(standing):
        return True, None
    return True, 0 if standing[0] else 1
