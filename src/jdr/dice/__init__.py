"""Dice: free notation, rolls that carry their faces, hard limits, injected randomness.

The names below are imported on first use (`from jdr.dice import roll` works as ever): a module
that only needs a dice source or a die (`jdr.dice.source`, `jdr.dice.modifiers`) does not load
the free notation's parser (`notation`, `scanner`, `tree`), a tenth of `import typer` that a
check never uses (issue 18).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jdr.dice.notation import (
        MAX_DEPTH,
        MAX_DICE,
        MAX_LENGTH,
        DiceGroup,
        Die,
        RollResult,
        names_in,
        parse,
        roll,
    )
    from jdr.dice.source import DiceSource, FixedSource, RandomSource, finish, make_source, parse_faces

_HOME = {
    **dict.fromkeys(("MAX_DEPTH", "MAX_DICE", "MAX_LENGTH", "DiceGroup", "Die", "RollResult",
                     "names_in", "parse", "roll"), "jdr.dice.notation"),
    **dict.fromkeys(("DiceSource", "FixedSource", "RandomSource", "finish", "make_source",
                     "parse_faces"), "jdr.dice.source"),
}

__all__ = [
    "MAX_DEPTH",
    "MAX_DICE",
    "MAX_LENGTH",
    "DiceGroup",
    "DiceSource",
    "Die",
    "FixedSource",
    "RandomSource",
    "RollResult",
    "finish",
    "make_source",
    "names_in",
    "parse",
    "parse_faces",
    "roll",
]


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module 'jdr.dice' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value  # found once
    return value
