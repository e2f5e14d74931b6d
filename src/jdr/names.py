"""Name matching (RULES.md D-ALL.01): case, accents, spaces, hyphens and apostrophes do not matter."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable, Mapping
from functools import lru_cache
from typing import TypeVar

from jdr.errors import RuleError

_SEPARATORS = re.compile(r"[\s\-_'’]+")

V = TypeVar("V")


@lru_cache(maxsize=4096)
def normalize(name: str) -> str:
    """`Très difficile`, `tres-difficile` and `TRES_DIFFICILE` all become `tres_difficile`."""
    decomposed = unicodedata.normalize("NFKD", name.strip())
    ascii_only = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _SEPARATORS.sub("_", ascii_only.lower()).strip("_")


def suggestions(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """The closest known names, for a French error message, as they are written (« Camille la
    Naine », not `camille_la_naine`): compared once normalized, given back in their own spelling."""
    spelled: dict[str, str] = {}
    for k in known:
        spelled.setdefault(normalize(k), k)
    close = difflib.get_close_matches(normalize(name), list(spelled), n=n, cutoff=0.5)
    return [spelled[c] for c in close]


def unknown_name_message(kind: str, name: str, known: Iterable[str]) -> str:
    known_list = sorted(set(known))
    close = suggestions(name, known_list)
    if close:
        hint = "vouliez-vous dire : " + ", ".join(close) + " ?"
    else:
        hint = "noms connus : " + ", ".join(known_list)
    return f"{kind} « {name} » introuvable ; {hint}"


def lookup(
    name: str, table: Mapping[str, V], kind: str, aliases: Mapping[str, str] | None = None
) -> tuple[str, V]:
    """Find `name` in a table keyed by canonical names; raise a French error with suggestions."""
    key = normalize(name)
    if aliases and key in aliases:
        key = aliases[key]
    if key in table:
        return key, table[key]
    raise RuleError(unknown_name_message(kind, name, table.keys()))
