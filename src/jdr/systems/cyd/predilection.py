"""La prédilection de compétence (R003.04, A003.13): once per game session, on a Capacité test
using that skill, the player rerolls the die (the same die) and keeps either result; the box is
then ticked on the sheet, until `jdr session new` frees it (session.py).

The choice of the kept result is made after the roll at the table; here it is given in advance
(`--choix 1|2`, by default the better result), and `--opt premier_jet=N` says the first roll
was already made at the table (only the reroll is rolled).
"""

from __future__ import annotations

from dataclasses import dataclass

from jdr.core.system import CheckRequest, SheetChange
from jdr.errors import RuleError
from jdr.systems.cyd import tables
from jdr.systems.cyd.capacite import Capacity
from jdr.systems.cyd.dice import PredilectionRoll
from jdr.systems.cyd.sheet import CydSheet


@dataclass(frozen=True)
class Predilection:
    """The reroll to make, the box to tick, and what to tell the player."""

    roll: PredilectionRoll | None = None
    changes: tuple[SheetChange, ...] = ()
    notes: tuple[str, ...] = ()


def _choice(request: CheckRequest[CydSheet], used: bool) -> int | None:
    """`--choix` keeps result 1 or 2 of a prédilection reroll, and means nothing without one."""
    if not used:
        if request.choice is not None:
            raise RuleError("--choix ne sert qu'avec la relance de prédilection "
                            "(--opt predilection=oui)")
        return None
    if request.choice is not None and request.choice not in (1, 2):
        raise RuleError(f"--choix {request.choice} : la prédilection donne deux résultats, "
                        "gardez le 1 ou le 2")
    return request.choice


def _first_face(request: CheckRequest[CydSheet], die: str) -> int | None:
    first = request.options.int("premier_jet")
    sides = tables.DICE[die]
    if first is not None and first > sides:
        raise RuleError(f"--opt premier_jet={first} : face impossible sur le {die} "
                        f"(de 1 à {sides})")
    return first


def _box_state(sheet: CydSheet, cap: Capacity, rolling: bool) -> list[str]:
    """The skill must have a box; a ticked box forbids the reroll until the next session."""
    state = sheet.boxes.get(cap.skill)
    if state is None:
        raise RuleError(f"{cap.character} n'a pas de prédilection pour « {cap.skill} » "
                        f"(prédilections : {', '.join(sorted(sheet.boxes)) or 'aucune'})")
    if state != tables.PREDILECTION_USED:
        return []
    if rolling:
        raise RuleError(f"la prédilection « {cap.skill} » de {cap.character} est déjà utilisée "
                        "pour cette séance de jeu : pas de relance avant la prochaine séance "
                        "(jdr session new)")
    return [f"la prédilection « {cap.skill} » est déjà utilisée pour cette séance"]


def plan_predilection(request: CheckRequest[CydSheet], cap: Capacity, die: str,
                      rolling: bool) -> Predilection:
    """R003.04 / A003.13: the reroll (same die), the kept result, the ticked box."""
    first = _first_face(request, die)
    used = request.options.flag("predilection") or first is not None
    choice = _choice(request, used)
    if not used:
        return Predilection()
    notes = _box_state(request.actor.model, cap, rolling)
    if choice is None:
        notes.append("prédilection : le dé est relancé, le meilleur des deux résultats est "
                     "gardé (--choix 1 ou 2 pour garder l'autre)")
    else:
        notes.append(f"prédilection : le dé est relancé, le résultat n° {choice} est gardé")
    changes: tuple[SheetChange, ...] = ()
    if rolling:
        changes = (SheetChange(request.actor.doc, ("predilections", cap.skill),
                               tables.PREDILECTION_USED),)
        notes.append(f"case de prédilection « {cap.skill} » cochée jusqu'à la prochaine séance")
    return Predilection(PredilectionRoll(tables.DICE[die], choice, first), changes, tuple(notes))
