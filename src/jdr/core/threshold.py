"""Thresholds: a number, or a name on the system's difficulty ladder (the ladder is data).

`--seuil 15`, `--seuil difficile`, `--seuil "Très difficile"` (names per D-ALL.01). A ladder may
continue past its last name by a fixed step (Cydonia: +5 per step after `heroique`), which the
system says in its `Ladder`.
"""

from __future__ import annotations

from collections.abc import Mapping

from jdr.core.frozen import frozen
from jdr.core.messages import Message, arg, say
from jdr.core.options import parse_int
from jdr.errors import RuleError
from jdr.names import normalize, unknown_name_message


@frozen
class Ladder:
    """Named difficulties of one system, and the range a numeric threshold may take."""

    steps: Mapping[str, int]
    rule: str = ""
    lo: int = -1000
    hi: int = 1000
    aliases: Mapping[str, str] | None = None

    def names(self) -> list[str]:
        return list(self.steps)

    def value(self, text: str, where: Message | None = None) -> int:
        """The threshold `text` stands for, or a French error with the ladder's closest names
        (`where`: what is read, the core's `--seuil` / « Seuil » by default)."""
        where = arg("seuil") if where is None else where
        raw = text.strip()
        body = raw[1:] if raw[:1] in "+-" else raw
        if body[:1].isdigit() or (body and not body.isascii() and body[:1].isnumeric()):
            return parse_int(raw, where, self.lo, self.hi)
        key = normalize(raw)
        if self.aliases and key in self.aliases:
            key = self.aliases[key]
        table = {normalize(k): v for k, v in self.steps.items()}
        if key in table:
            return table[key]
        raise RuleError(say(where, " : " + unknown_name_message("seuil", raw, table.keys())
                            + f" (ou un nombre de {self.lo} à {self.hi})"))

    def name_of(self, value: int) -> str | None:
        for name, v in self.steps.items():
            if v == value:
                return name
        return None


def parse_threshold(text: str | None, ladder: Ladder | None,
                    where: Message | None = None) -> int | None:
    """`None` stays `None`; a system without a ladder takes numbers only."""
    if text is None:
        return None
    where = arg("seuil") if where is None else where
    if ladder is None:
        return parse_int(text, where, -1000, 1000)
    return ladder.value(text, where)


def require_known(name: str, known: Mapping[str, object] | list[str], kind: str) -> str:
    """The canonical key of `name` among `known`, or a French error with the closest names."""
    key = normalize(name)
    keys = list(known)
    if key in keys:
        return key
    raise RuleError(unknown_name_message(kind, name, keys))
