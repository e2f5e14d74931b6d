"""BBCode helpers: every result of `felins` can be pasted in a forum post (`render_forum()`)."""

from __future__ import annotations

from collections.abc import Iterable

from jdr.dice.notation import Die

GREEN = "#2e7d32"
RED = "#c62828"
GREY = "#808080"
GOLD = "#b8860b"


def b(text: object) -> str:
    return f"[b]{text}[/b]"


def i(text: object) -> str:
    return f"[i]{text}[/i]"


def color(text: object, value: str) -> str:
    return f"[color={value}]{text}[/color]"


def verdict(success: bool | None, yes: str = "RÉUSSITE", no: str = "ÉCHEC") -> str:
    if success is None:
        return ""
    return color(b(yes), GREEN) if success else color(b(no), RED)


def dice(dice: Iterable[Die]) -> str:
    """Kept die in bold, discarded dice in grey, confirmation rerolls in gold."""
    parts: list[str] = []
    for die in dice:
        if die.kept:
            parts.append(b(die.face))
        elif die.note.startswith("confirmation"):
            parts.append(color(f"{die.face} ({die.note})", GOLD))
        else:
            parts.append(color(die.face, GREY))
    return ", ".join(parts)


def quote(lines: Iterable[str]) -> str:
    return "[quote]" + "\n".join(line for line in lines if line) + "[/quote]"
