"""Discord Markdown for every result type: the same French lines as the text renderer, bold as
`**…**`, dropped dice struck through (`~~3~~`), long dice lists folded (a message must stay short:
Discord refuses more than 2000 characters), never a rule id, and user text unable to open
Markdown (`*`, `_`, `~`, `` ` ``, `|`, `>` and `#` are escaped).
"""

from __future__ import annotations

import re
from typing import Any

from jdr.render.safe import clean
from jdr.render.text import BAD, CRIT, HEAD, OK, TextRenderer

_MARKS = {HEAD: "**", OK: "**", BAD: "**", CRIT: "***", "underline": "__"}
_SPECIAL = re.compile(r"([\\*_~`|>#])")
_DROPPED = re.compile(r"\\?~(\d+!?)\\?~")
_LIST = re.compile(r"\[([^\[\]]*)\]")
FOLD_AT = 20  # dice shown before « … (N dés) »
LIMIT = 2000  # Discord's message size


def discord_clean(text: str) -> str:
    """User text inside Markdown: shown, never formatting."""
    return _SPECIAL.sub(r"\\\1", clean(text))


def fold_dice(text: str, keep: int = FOLD_AT) -> str:
    """`[3, 5, 1, … 1000 faces]` → `[3, 5, 1, … (1000 dés)]`: the first `keep` faces only."""

    def fold(m: re.Match[str]) -> str:
        faces = m.group(1).split(", ")
        if len(faces) <= keep:
            return m.group(0)
        return "[" + ", ".join(faces[:keep]) + f", … ({len(faces)} dés)]"

    return _LIST.sub(fold, text)


def to_discord(result: Any) -> str:
    renderer = TextRenderer(detail=False, cleaner=discord_clean)
    renderer.render(result)
    out: list[str] = []
    for line in renderer.lines:
        parts: list[str] = []
        for text, style in line:
            text = _DROPPED.sub(r"~~\1~~", fold_dice(text)) if text else text
            mark = _MARKS.get(style, "")
            stripped = text.strip()
            if mark and stripped:  # Markdown marks must touch the words they mark
                lead = text[: len(text) - len(text.lstrip())]
                trail = text[len(text.rstrip()):]
                parts.append(f"{lead}{mark}{stripped}{mark}{trail}")
            else:
                parts.append(text)
        out.append("".join(parts).rstrip())
    text = "\n".join(out)
    if len(text) > LIMIT:
        text = text[: LIMIT - 2].rstrip() + " …"
    return text


_BBCODE = re.compile(r"\[(/?)(b|u|s|i|color(?:=[a-z]+)?)\]")


def forum_to_discord(bbcode: str) -> str:
    """A forum post as we wrote it (`jdr.render.forum`, kept by the journal) in Discord Markdown:
    our tags become marks, the text between them is escaped (user brackets were already broken
    by a zero-width space, so they are never taken for tags)."""
    marks = {"b": "**", "u": "__", "s": "~~", "i": "*"}
    out: list[str] = []
    last = 0
    for m in _BBCODE.finditer(bbcode):
        out.append(_SPECIAL.sub(r"\\\1", bbcode[last:m.start()]))
        out.append(marks.get(m.group(2), ""))
        last = m.end()
    out.append(_SPECIAL.sub(r"\\\1", bbcode[last:]))
    text = "\n".join(fold_dice(line).rstrip() for line in "".join(out).split("\n"))
    text = text.replace("****", "")
    return text if len(text) <= LIMIT else text[: LIMIT - 2].rstrip() + " …"
