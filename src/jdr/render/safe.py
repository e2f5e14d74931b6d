"""Neutralise text that comes from users (sheets, arguments) before any renderer prints it.

One message stays one line, and no escape sequence we did not write reaches a terminal or a forum
post: control and format characters (ESC, newlines, bidi overrides, ...) become a visible `\\xNN`
or `\\uNNNN`, and BBCode brackets are broken by a zero-width space in forum output.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


@lru_cache(maxsize=4096)
def clean(text: str) -> str:
    """User text, made safe for one line of a terminal: control characters shown, not obeyed."""
    if text.isprintable() and text.isascii():
        return text
    out = _UNSAFE.sub(_escape, text)
    # Any other control or format character (category Cc/Cf) left: escape it too.
    return "".join(c if unicodedata.category(c) not in ("Cc", "Cf") else _escape_char(c) for c in out)


def _escape_char(c: str) -> str:
    code = ord(c)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def forum_clean(text: str) -> str:
    """User text inside BBCode: also break `[` so a sheet cannot open a tag."""
    return clean(text).replace("[", "[\u200b")
