"""What Cydonia's own rules (`jdr regle NOM …`) share: the characters a rule names, sheet updates
as changes to commit, hit points lost or healed outside an attack, and small option readers."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from jdr.core.french import accord, is_state
from jdr.core.frozen import frozen
from jdr.core.messages import say
from jdr.core.messages import usage as played
from jdr.core.options import Options
from jdr.core.results import Health, Line, StateChange
from jdr.core.sheet import SheetDocument
from jdr.core.system import Loaded, RuleRequest, SheetChange
from jdr.core.threshold import parse_threshold
from jdr.errors import RuleError
from jdr.names import normalize
from jdr.systems.cydonia.checks import Character
from jdr.systems.cydonia.sheet import CydoniaSheet
from jdr.systems.cydonia.tables import LADDER
from jdr.systems.cydonia.wounds import state_after

Update = tuple[tuple[str, ...], Any]
Sheets = Sequence[Loaded[CydoniaSheet]]


def sheet_changes(doc: SheetDocument, updates: Iterable[Update]) -> tuple[SheetChange, ...]:
    """Sheet updates as changes to commit; `pv` is a pool (SHEETS.md)."""
    return tuple(SheetChange(doc, path, value, pool=path == ("pv",)) for path, value in updates)


def cast(request: RuleRequest[CydoniaSheet], usage: str, least: int,
         most: int | None = None) -> list[Loaded[CydoniaSheet]]:
    """The characters a rule names, checked: how many, and no one named twice."""
    sheets = list(request.sheets)
    top = least if most is None else most
    if not least <= len(sheets) <= top:
        raise RuleError(played(usage))
    seen: set[str] = set()
    for sheet in sheets:
        key = normalize(sheet.name)
        if key in seen:
            raise RuleError(say(f"{sheet.name} : nom donné deux fois ; ", played(usage)))
        seen.add(key)
    return sheets


def character(sheet: Loaded[CydoniaSheet]) -> Character:
    return Character(sheet.model)


def alive(c: Character, what: str) -> None:
    if c.state == "mort":
        raise RuleError(f"{is_state(c.name, 'mort', c.genre)} (R000.34) : {what}")


def hp_cap(c: Character) -> int:
    """Hit points never rise above the maximum (plus what a transformation added, A000.28)."""
    return int(c.sheet.pv.max) + int(c.sheet.etat.pv_transformation)


@frozen
class HitPoints:
    """Hit points changed outside an attack: the updates, the health and state, the notes."""

    updates: tuple[Update, ...]
    health: Health
    state: StateChange
    notes: tuple[Line, ...]


def lose(c: Character, loss: int, why: str, rule: str) -> HitPoints:
    """Damage with no location (torture A000.34, a transformation ending A000.28, a mount's blow
    A000.27): R000.34 with no zone hit leaves the character dying at 0 HP or less, never dead."""
    before = int(c.sheet.pv.actuels)
    after = state_after(before, loss, None, c.sheet.etat.mourant)
    state = "assomme" if after.label == "debout" and c.sheet.etat.assomme else after.label
    notes = [Line(f"{why} : {c.name} perd {loss} PV ({before} → {after.hit_points})", rule)]
    if after.dying and not c.sheet.etat.mourant:
        g = c.genre
        notes.append(Line(f"{is_state(c.name, 'mourant', g)} : 0 PV ou moins sans zone vitale "
                          "touchée ; " + accord(g, "des soins rapides peuvent le sauver",
                                               "des soins rapides peuvent la sauver",
                                               "des soins rapides peuvent encore tout sauver"),
                          "R000.34"))
    updates: tuple[Update, ...] = ((("pv",), after.hit_points),)
    if after.dying != c.sheet.etat.mourant:
        updates += ((("etat", "mourant"), after.dying),)
    return HitPoints(updates, Health("pv", before, after.hit_points, c.sheet.pv.max),
                     StateChange(c.state, state, c.genre), tuple(notes))


def heal(c: Character, amount: int, why: str, rule: str) -> HitPoints:
    """Hit points restored, at most up to the maximum; a dying character brought above 0 HP is
    stabilised (A000.12)."""
    before = int(c.sheet.pv.actuels)
    after = max(before, min(hp_cap(c), before + amount))
    notes = [Line(f"{why} : {c.name} récupère {after - before} PV ({before} → {after}"
                  f", au plus {hp_cap(c)})", rule)]
    updates: list[Update] = [(("pv",), after)]
    state = c.state
    if c.sheet.etat.mourant and after > 0:
        updates.append((("etat", "mourant"), False))
        notes.append(Line(f"{c.name} " + accord(
            c.genre, "est stabilisé : plus de 0 PV, il n'est plus mourant",
            "est stabilisée : plus de 0 PV, elle n'est plus mourante",
            "est hors de danger : plus de 0 PV, plus d'agonie"), "A000.12"))
        state = "assomme" if c.sheet.etat.assomme else "debout"
    return HitPoints(tuple(updates), Health("pv", before, after, c.sheet.pv.max),
                     StateChange(c.state, state, c.genre), tuple(notes))


def state_line(c: Character) -> Line:
    return Line(is_state(c.name, c.state, c.genre), "R000.34")


def threshold(options: Options, key: str, usage: str) -> int:
    """A difficulty the MJ sets: a ladder name (D-000.45) or a number."""
    text = options.text(key)
    if text is None:
        raise RuleError(options.missing(key, "la difficulté est au choix du MJ (nombre ou nom : "
                                        "facile, moyenne, difficile…)", played(usage), "…"))
    value = parse_threshold(text, LADDER, options.ref(key))
    assert value is not None
    return value


def required_int(options: Options, key: str, usage: str, why: str) -> int:
    value = options.int(key)
    if value is None:
        raise RuleError(options.missing(key, why, played(usage)))
    return value


def required_text(options: Options, key: str, usage: str, why: str) -> str:
    value = options.text(key)
    if value is None:
        raise RuleError(options.missing(key, why, played(usage), "…"))
    return value
