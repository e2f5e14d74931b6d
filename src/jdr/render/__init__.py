"""One rendering for every result: French text (`text`), forum BBCode (`forum`), Discord Markdown
(`discord`), JSON (`json`).

`render(result, fmt)` is what front ends call; `fmt` is `texte`, `forum`, `discord` or `json`.
"""

from __future__ import annotations

from typing import Any

from jdr.errors import JdrError

FORMATS = ("texte", "forum", "discord", "json")


def render(result: Any, fmt: str = "texte", detail: bool = False) -> str:
    """The result as one string in the asked format (nothing printed here)."""
    if fmt in ("texte", "text"):
        from jdr.render.text import to_text

        return to_text(result, detail)
    if fmt == "forum":
        from jdr.render.forum import to_forum

        return to_forum(result)
    if fmt == "discord":
        from jdr.render.discord import to_discord

        return to_discord(result)
    if fmt == "json":
        from jdr.render.json import dumps, to_json

        return dumps(to_json(result))
    raise JdrError(f"--format « {fmt} » inconnu (autorisé : texte, forum, discord, json)")
