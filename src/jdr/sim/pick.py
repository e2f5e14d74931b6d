"""The sides as a person names them: `A B contre C D`, sheet files or campaign names, with a
count after `×` or `*` (`gobelin×4`, `gobelin.yaml*3`); in a campaign a count may follow the
name of an NPC group (`jdr campagne ajouter gobelin.yaml --pnj --nombre 3` makes the group
« Gobelin »): its first member's sheet is the model."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from jdr.core.system import Loaded
from jdr.errors import JdrError, RuleError
from jdr.names import normalize

AGAINST = "contre"
MAX_COUNT = 50
MAX_FIGHTERS = 50
COUNT = re.compile(r"^(?P<ref>.+?)\s*[×*](?P<count>[0-9]{1,3})$")


def split_sides(words: Sequence[str]) -> tuple[list[str], list[str]]:
    """`A B contre C D` → ([A, B], [C, D]), with a French error for a missing or empty side."""
    marks = [i for i, w in enumerate(words) if normalize(w) == AGAINST]
    if len(marks) != 1:
        raise JdrError("jdr simuler A [B…] contre C [D…] : le mot « contre » sépare les deux camps "
                       "(une seule fois)")
    first, second = list(words[:marks[0]]), list(words[marks[0] + 1:])
    for number, side in ((1, first), (2, second)):
        if not side:
            raise JdrError(f"le camp {number} est vide : il faut au moins un personnage de chaque "
                           "côté de « contre »")
    return first, second


def counted(word: str) -> tuple[str, int]:
    """`gobelin×4` → (gobelin, 4); a plain name counts once."""
    found = COUNT.match(word)
    if found is None:
        return word, 1
    count = int(found["count"])
    if not 1 <= count <= MAX_COUNT:
        raise JdrError(f"« {word[:60]} » : de 1 à {MAX_COUNT} copies")
    return found["ref"], count


def _group_model(ws: Any, ref: str) -> str | None:
    """The first member of the campaign's NPC group named `ref` (None outside a campaign)."""
    tx = getattr(ws, "tx", None)
    if tx is None:
        return None
    for info in tx.characters():
        if info.group is not None and normalize(info.group) == normalize(ref):
            return str(info.name)
    return None


def _open(ws: Any, ref: str) -> tuple[Any, Loaded[Any]]:
    try:
        system, (sheet,) = ws.open([ref])
    except RuleError:
        model = _group_model(ws, ref)
        if model is None:
            raise
        system, (sheet,) = ws.open([model])
        return system, sheet
    return system, sheet


def resolve(ws: Any, sides: Sequence[Sequence[str]]) -> tuple[Any, list[list[Loaded[Any]]]]:
    """Each side's sheets (a counted one repeated), all of one system."""
    system: Any = None
    out: list[list[Loaded[Any]]] = []
    total = 0
    for side in sides:
        sheets: list[Loaded[Any]] = []
        for word in side:
            ref, count = counted(word)
            found, sheet = _open(ws, ref)
            if system is not None and found.id != system.id:
                raise JdrError(f"les fiches ne sont pas du même système ({system.id} / {found.id})")
            system = found
            sheets.extend([sheet] * count)
            total += count
        out.append(sheets)
    if total > MAX_FIGHTERS:
        raise JdrError(f"{total} combattants : {MAX_FIGHTERS} au plus dans une simulation")
    return system, out


def refs_of(sides: Sequence[Sequence[str]]) -> list[str]:
    """The references named (counts removed): to choose between files and a campaign."""
    return [counted(word)[0] for side in sides for word in side]
