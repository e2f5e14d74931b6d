"""Cydonia in an encounter: what the rules do when a character's turn begins (D-ALL.02).

First, whoever lost its turn to a paralysis recovers (R000.27: one turn). Then, for the
character whose turn it is: a werewolf's transformation counts down and ends (R000.40, A000.28);
a paralysed character loses this turn; a knocked-out character loses its first turn, then rolls
to wake up (R000.41, D-000.49). What must last between turns (the
turns since the knock-out, the lost turn of a paralysis) is kept in the combatant's `data`."""

from __future__ import annotations

from typing import Any

from jdr.core.french import accord, de, loses_turn, state_label
from jdr.core.results import Line, Notes, Report, Result
from jdr.core.system import Loaded, Outcome, SheetChange, TurnRequest
from jdr.core.turns import Cost, TurnAct, TurnLimits
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
        line = Line(f"transformation : encore {left - 1} tour(s)", "R000.40")
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
        line = Line(f"{state_label('paralyse', c.genre)} (Bijoux de famille) : "
                    f"{loses_turn(c.genre)}", "R000.27")
        return Notes(f"{c.name} : paralysie", (line,), "R000.27"), ()
    data.pop("paralysis_lost", None)  # alone in the encounter: its own next turn ends it
    line = Line("la paralysie est passée : " + accord(c.genre, "il peut agir", "elle peut agir",
                                                      "plus rien n'empêche d'agir"), "R000.27")
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


def _released(request: TurnRequest[CydoniaSheet]) -> tuple[list[Result], list[SheetChange]]:
    """R000.27: a paralysis lasts one turn — once the paralysed character's lost turn is over
    (the next character's turn begins), it can act and defend again."""
    parts: list[Result] = []
    changes: list[SheetChange] = []
    current = request.sheet.name if request.sheet is not None else None
    for other in request.everyone:
        if other.name == current or not other.model.etat.paralyse:
            continue
        data = request.encounter.find(other.name).data
        if data.pop("paralysis_lost", None):
            g = other.genre
            line = Line("son tour perdu est passé : " + accord(
                g, "il peut de nouveau agir et se défendre", "elle peut de nouveau agir et se défendre",
                "plus rien n'empêche d'agir et de se défendre"), "R000.27")
            parts.append(Notes(f"{other.name} : fin de la paralysie", (line,), "R000.27"))
            changes += sheet_changes(other.doc, ((("etat", "paralyse"), False),))
    return parts, changes


def turn_start(request: TurnRequest[CydoniaSheet], source: DiceSource) -> Outcome | None:
    """Everything that happens as a turn begins, in the rules' order, as one outcome."""
    parts, changes = _released(request)
    sheet = request.sheet
    if sheet is not None and _concerned(sheet):
        data = request.encounter.find(sheet.name).data
        more, updates = _own(sheet, data, source)
        parts += more
        changes += sheet_changes(sheet.doc, updates)
    if not parts:
        return None
    title = f"Début du tour {de(sheet.name)}" if sheet is not None else "Début du tour"
    shown = parts[0] if len(parts) == 1 else Report(title, tuple(parts))
    return Outcome(shown, tuple(changes))


def _concerned(sheet: Loaded[CydoniaSheet]) -> bool:
    etat = sheet.model.etat
    return not etat.mort and bool(etat.assomme or etat.paralyse or etat.transformation)


def _own(sheet: Loaded[CydoniaSheet], data: dict[str, Any], source: DiceSource
         ) -> tuple[list[Result], list[Update]]:
    """The current character's own steps: transformation, paralysis, knock-out."""
    c = Character(sheet.model)
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
    return parts, updates


# ------------------------------------------------------------------ what a turn allows

LIMITS = TurnLimits({"action": 1}, "une action par tour, le Kravkar enchaînant les siennes dans "
                    "la même action", "R000.22", "R000.21")
TURN_BOUND: dict[str, Cost] = {
    "attack": Cost("action", "une attaque", "R000.22"),
    "kravkar": Cost("action", "le Kravkar", "R000.42"),
    "charge": Cost("action", "une charge", "R000.39"),
    "concentration": Cost("action", "la concentration", "R000.36", declaration=True),
    "elan": Cost("action", "l'élan", "R000.39", declaration=True),
}


def turn_cost(action: str, act: TurnAct) -> Cost | None:
    """R000.22: combat follows the action rules, one action per turn; R000.42: the Kravkar's
    chained actions are one action of the turn; R000.36 and R000.39: concentrating and gathering
    momentum fill the turn (so count once per turn)."""
    return TURN_BOUND.get(action)
