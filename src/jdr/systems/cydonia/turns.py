"""Cydonia in an encounter: what the rules do when a character's turn begins (D-ALL.02).

In order: a werewolf's transformation counts down and ends (R000.40, A000.28); a paralysed
character loses this turn, then recovers at the next (R000.27); a knocked-out character loses
its first turn, then rolls to wake up (R000.41, D-000.49). What must last between turns (the
turns since the knock-out, the lost turn of a paralysis) is kept in the combatant's `data`."""

from __future__ import annotations

from typing import Any

from jdr.core.results import Line, Notes, Report, Result
from jdr.core.system import Loaded, Outcome
from jdr.dice.source import DiceSource
from jdr.systems.cydonia.checks import Character
from jdr.systems.cydonia.combat import updated
from jdr.systems.cydonia.duel import wake_turn
from jdr.systems.cydonia.fighting import revert
from jdr.systems.cydonia.rulekit import Update, sheet_changes
from jdr.systems.cydonia.sheet import CydoniaSheet


def _transformation(c: Character) -> tuple[Result | None, tuple[Update, ...]]:
    left = int(c.sheet.etat.transformation)
    if not left:
        return None, ()
    if left > 1:
        line = Line(f"transformé : encore {left - 1} tour(s)", "R000.40")
        return Notes(f"{c.name} : transformation", (line,), "R000.40"), ((("etat", "transformation"),
                                                                          left - 1),)
    updates, lines = revert(c)
    return Notes(f"{c.name} : fin de la transformation", lines, "R000.40"), updates


def _paralysis(c: Character, data: dict[str, Any]) -> tuple[Result | None, tuple[Update, ...]]:
    if not c.sheet.etat.paralyse:
        data.pop("paralysis_lost", None)
        return None, ()
    if not data.get("paralysis_lost"):
        data["paralysis_lost"] = True
        line = Line("paralysé (Bijoux de famille) : il perd ce tour", "R000.27")
        return Notes(f"{c.name} : paralysie", (line,), "R000.27"), ()
    data.pop("paralysis_lost", None)
    line = Line("la paralysie est passée : il peut agir", "R000.27")
    return Notes(f"{c.name} : fin de la paralysie", (line,), "R000.27"), ((("etat", "paralyse"), False),)


def _knockout(c: Character, data: dict[str, Any], source: DiceSource
              ) -> tuple[Result | None, tuple[Update, ...]]:
    damage = int(c.sheet.etat.assomme)
    if not damage:
        data.pop("ko_damage", None)
        return None, ()
    if data.get("ko_damage") != damage:
        data.update(ko_damage=damage, ko_turns=0)
    data["ko_turns"] = int(data.get("ko_turns", 0)) + 1
    result, woke = wake_turn(c, data["ko_turns"], source)
    if not woke:
        return result, ()
    data.pop("ko_damage", None)
    return result, ((("etat", "assomme"), 0),)


def turn_start(sheet: Loaded[CydoniaSheet], data: dict[str, Any], source: DiceSource
               ) -> Outcome | None:
    """Everything that happens as `sheet`'s turn begins, in the rules' order, as one outcome."""
    c = Character(sheet.model)
    if c.state == "mort":
        return None
    parts: list[Result] = []
    updates: list[Update] = []
    for step in (_transformation, lambda x: _paralysis(x, data), lambda x: _knockout(x, data, source)):
        if c.state == "mourant" and step is not _transformation:
            break
        result, more = step(c)
        if result is not None:
            parts.append(result)
        if more:
            updates += more
            c = updated(c, more)
    if not parts:
        return None
    shown = parts[0] if len(parts) == 1 else Report(f"Début du tour de {c.name}", tuple(parts))
    return Outcome(shown, sheet_changes(sheet.doc, updates))
