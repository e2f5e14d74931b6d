"""States (D-ALL.02) as far as the CYD kit defines them.

R003.02: la Santé is "the amount of damage a character can take before being killed". A
character whose Santé is spent (current ≤ 0) is killed: `mort`, and cannot act. The Santé is
data on the sheet (A003.12: no formula); without it, nothing can kill the character.

The kit defines nothing else: no knock-out, dying, unconsciousness, coma nor flight (R003.21:
no combat rules), and nothing happens at a Psyché of 0 (R003.02 calls it a reserve, A003.12:
its mechanics are absent): the Psyché is shown among the conditions, with no effect.
"""

from __future__ import annotations

from jdr.core.french import state_label
from jdr.core.results import Health, Line
from jdr.core.sheet import Pool
from jdr.errors import RuleError
from jdr.systems.cyd import tables
from jdr.systems.cyd.sheet import CydSheet

STANDING = "debout"
DEAD = "mort"


def pool(sheet: CydSheet, name: str) -> Pool | None:
    """`sante` or `psyche` of `secondaires` when the sheet gives it (R003.02)."""
    value = getattr(sheet.secondaires, name)
    return value if isinstance(value, Pool) else None


def is_dead(sheet: CydSheet) -> bool:
    """R003.02: the Santé spent (current ≤ 0) = killed."""
    sante = pool(sheet, "sante")
    return sante is not None and sante.actuels <= 0


def state(sheet: CydSheet) -> str:
    return DEAD if is_dead(sheet) else STANDING


def incapacity(sheet: CydSheet) -> Line | None:
    """D-ALL.02: a dead character cannot act; no other CYD rule stops a character."""
    sante = pool(sheet, "sante")
    if sante is None or sante.actuels > 0:
        return None
    return Line(f"{state_label(DEAD, sheet.genre)} : sa Santé est épuisée "
                f"({sante.actuels}/{sante.max})",
                "R003.02")


def require_able(sheet: CydSheet, what: str) -> None:
    """Refuse a character who cannot act in a role the core does not check (an opponent, a
    helper): one French line naming the rule."""
    why = incapacity(sheet)
    if why is not None:
        raise RuleError(f"{sheet.nom} ne peut pas {what} : {why.text} ({why.rule}, D-ALL.02)")


def health(sheet: CydSheet) -> Health | None:
    """R003.02: the Santé, in points, current and maximum (None when the sheet has none)."""
    sante = pool(sheet, "sante")
    if sante is None:
        return None
    return Health("pv", sante.actuels, sante.actuels, sante.max)


def conditions(sheet: CydSheet) -> tuple[str, ...]:
    """What lasts between actions: prédilections used this session (R003.04), failed actions
    waiting for a change of circumstances (R003.17), a Psyché below its maximum (R003.02)."""
    found: list[str] = []
    used = sorted(k for k, v in sheet.boxes.items() if v == tables.PREDILECTION_USED)
    if used:
        found.append(f"prédilection utilisée : {', '.join(used)}")
    failed = sorted(k for k, v in sheet.failures.items() if v is not None)
    if failed:
        found.append(f"action échouée : {', '.join(failed)}")
    psyche = pool(sheet, "psyche")
    if psyche is not None and psyche.actuels < psyche.max:
        found.append(f"psyché {psyche.actuels}/{psyche.max}")
    return tuple(found)
