"""Forum BBCode for every result type (forum and Discord RP communities): the same French lines as
the text renderer, bold and colours as BBCode, dropped dice struck through (`[s]3[/s]`), long dice
lists folded, never a rule id, and user text unable to open a tag.
"""

from __future__ import annotations

import re
from typing import Any

from jdr.render.discord import fold_dice
from jdr.render.safe import forum_clean
from jdr.render.text import BAD, CRIT, HEAD, OK, TextRenderer

_TAGS = {
    HEAD: ("[b]", "[/b]"),
    OK: ("[b][color=green]", "[/color][/b]"),
    BAD: ("[b][color=red]", "[/color][/b]"),
    CRIT: ("[b][color=purple]", "[/color][/b]"),
    "underline": ("[u]", "[/u]"),
}


_DROPPED = re.compile(r"~(\d+!?)~")


def to_forum(result: Any) -> str:
    renderer = TextRenderer(detail=False, cleaner=forum_clean)
    renderer.render(result)
    out: list[str] = []
    for line in renderer.lines:
        parts: list[str] = []
        for text, style in line:
            if style == "cyan":  # bar charts: plain blocks
                parts.append(text)
                continue
            open_tag, close_tag = _TAGS.get(style, ("", ""))
            text = _DROPPED.sub(r"[s]\1[/s]", fold_dice(text)) if text else text
            parts.append(f"{open_tag}{text}{close_tag}" if text else "")
        out.append("".join(parts))
    return "\n".join(out)
